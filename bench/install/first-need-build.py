"""The register's start on the app's first need, on processes that never need it: this project's own
`npm run build` (tsup: the library with its type declarations, the register's files), with
NODE_OPTIONS naming the register, against no register and against the register started at once.

Usage: python3 bench/install/first-need-build.py [ROUNDS]   (from the repository's root; ROUNDS: 5;
then `npm --version` alone, 3 × ROUNDS rounds)

The checkout is copied to a scratch folder (its node_modules linked, not copied) and built once;
that build's register is kept apart, so that the builds measured, which rewrite dist/, do not touch
the register they run under. Each round runs `npm run build` once per NODE_OPTIONS in a rotated
order, after a warm-up round, each waited for with os.wait4 (start.py): the CPU time and the largest
peak RSS of all its processes. "At once" names both entry points: the second one starts the
register at its entry, as it does whenever the other entry point is waiting. A second register is
built with import-in-the-middle's hook made at the `--import` entry (`import-hook-on-first-need.ts`'s
`make()` called there) and the start still on first need: what making that hook on first need saves.
Node runs `--import`'s hooks in the app's thread from Node 22.22.3 and 24.11.1; earlier, in a loader
thread.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from start import sample  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIPPED = {"node_modules", ".git", ".cache", "dist", "collector", "examples", "test-compat", "test-matrix"}


def build_with_import_hook_at_entry(copy):
    """The register with import-in-the-middle's hook made as the `--import` entry registers its own."""
    start_file = os.path.join(copy, "src", "register", "esm-start.ts")
    source = open(start_file).read()
    made_on_first_need = "const importHook = registerImportHookOnFirstNeed(loaderHookInclude(), entryUrl, () => now());"
    if made_on_first_need not in source:
        sys.exit(f"{start_file} no longer registers the import hook as this script expects")
    with open(start_file, "w") as out:
        out.write(source.replace(made_on_first_need, made_on_first_need + " importHook.make();"))
    subprocess.run(["npm", "run", "--silent", "build"], cwd=copy, check=True, capture_output=True)
    folder = os.path.join(copy, ".register-hook-at-entry")
    shutil.copytree(os.path.join(copy, "dist"), folder)
    with open(start_file, "w") as out:
        out.write(source)
    return folder


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "checkout")
        shutil.copytree(ROOT, copy, ignore=lambda folder, names: SKIPPED if folder == ROOT else [])
        os.symlink(os.path.join(ROOT, "node_modules"), os.path.join(copy, "node_modules"))
        subprocess.run(["npm", "run", "--silent", "build"], cwd=copy, check=True, capture_output=True)
        register = os.path.join(copy, ".register")
        shutil.copytree(os.path.join(copy, "dist"), register)
        hook_at_entry = build_with_import_hook_at_entry(copy)
        require = f"--require {register}/register.cjs"
        imports = f"--import {register}/register-esm.mjs"
        variants = {
            "none": None,
            "`--require`, start on first need": require,
            "`--import`, start on first need": imports,
            "`--import`, start on first need, import-in-the-middle's hook made at entry":
                f"--import {hook_at_entry}/register-esm.mjs",
            "both, start at once": f"{require} {imports}",
        }
        commands = [
            (["npm", "run", "--silent", "build"], None if value is None else {"NODE_OPTIONS": value})
            for value in variants.values()
        ]
        os.chdir(copy)
        samples = sample(commands, rounds)
        print(f"Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}")
        table("`npm run build`", variants, samples, rounds)
        # One process, where the build's hundreds of ms of noise hide what a few ms per process add up to.
        one_process = [(["npm", "--version"], env) for _, env in commands]
        table("`npm --version`", variants, sample(one_process, rounds * 3), rounds * 3)


def table(command, variants, samples, rounds):
    print(f"\n{command}\n")
    print("| `NODE_OPTIONS` | CPU ms (median) | peak RSS MiB (median) | CPU added | RSS added MiB |")
    print("|---|---:|---:|---:|---:|")
    base = samples[0]
    for label, rows in zip(variants, samples):
        cpu = statistics.median(row[1] for row in rows)
        rss = statistics.median(row[2] for row in rows)
        cpu_added = statistics.median(row[1] - b[1] for row, b in zip(rows, base))
        rss_added = statistics.median(row[2] - b[2] for row, b in zip(rows, base))
        print(f"| {label} | {cpu:,.1f} | {rss:.1f} | {cpu_added:+,.1f} | {rss_added:+.1f} |")
    print(f"\n{rounds} rounds; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
