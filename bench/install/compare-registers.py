"""Two builds of the register side by side: what each adds to loading a framework.

Usage: python3 compare-registers.py RUNS NEW_REGISTER OLD_REGISTER FRAMEWORK ...  (run where the
frameworks resolve; the registers are `dist/register.cjs` files, the old one copied from an earlier
build into a folder inside the repository, so that both resolve the same node_modules)

For nothing (`-e 0`) and each framework: plain `node`, then `node --require` each register, all
with one module compile cache (NODE_COMPILE_CACHE, which the register turns on for the app's modules
too) and the same environment, RUNS rounds in rotated order. Prints the plain load's median CPU
time (user + system), what each register adds to it, and the median of each round's difference
between the two. Standard library only, as start.py.
"""
import os
import statistics
import sys
import tempfile

from start import sample


def main():
    runs, new, old, frameworks = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    print("| framework | plain CPU ms | new adds | old adds | new − old |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as cache:
        env = {"NODE_COMPILE_CACHE": cache}
        for framework in [None, *frameworks]:
            load = ["-e", f"require({framework!r})" if framework else "0"]
            commands = [["node", *load], ["node", "--require", new, *load], ["node", "--require", old, *load]]
            plain, with_new, with_old = sample([(argv, env) for argv in commands], runs)
            adds = [statistics.median(r[1] - p[1] for r, p in zip(rows, plain)) for rows in (with_new, with_old)]
            diff = statistics.median(n[1] - o[1] for n, o in zip(with_new, with_old))
            name = f"`{framework}`" if framework else "nothing (`-e 0`)"
            base = statistics.median(p[1] for p in plain)
            print(f"| {name} | {base:.1f} | {adds[0]:+.1f} | {adds[1]:+.1f} | {diff:+.1f} |")
    print(f"\n{runs} rounds; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


main()
