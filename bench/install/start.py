"""Whole-process start-up: wall time, CPU time (user + system) and peak RSS of each command.

Usage: python3 start.py RUNS "label=command" ...  (the first is the baseline; a label has no "=")

The commands run one after another, RUNS rounds, each round in a rotated order, so that load
that comes and goes lands on all of them. Each process is waited for with os.wait4, which gives
its own resource usage (microsecond CPU times, peak RSS) and nothing of this script's. Prints a
Markdown table of medians and of the ratio to the baseline measured in the same round.

Then, on Linux, a second table of resident memory by kind at exit (MEMORY_ROUNDS rounds, 5 by
default): every command runs once more per round with memory-at-exit.cjs preloaded (into all of
them alike), which reads /proc/self/smaps_rollup. Peak RSS counts the pages of the node binary a
process ran, which all node processes share through the page cache; anonymous memory is the
process's own.
Standard library only: it needs no virtual environment.
"""
import json
import os
import shlex
import statistics
import sys
import tempfile
import time

MEMORY_AT_EXIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "memory-at-exit.cjs")


def run(argv, env=None):
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        if env:
            os.environ.update(env)
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed ({status}): {shlex.join(argv)}")
    return wall * 1000, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_maxrss / 1024


def sample(commands, runs):
    """Each (argv, env) run twice untimed (disk cache, compile caches), then RUNS rounds, each in a
    rotated order: a list of samples (wall ms, CPU ms, peak RSS MiB) per command."""
    for _ in range(2):
        for argv, env in commands:
            run(argv, env)
    samples = [[] for _ in commands]
    for round_ in range(runs):
        for i in [(round_ + k) % len(commands) for k in range(len(commands))]:
            samples[i].append(run(*commands[i]))
    return samples


def main():
    runs = int(sys.argv[1])
    commands = [arg.split("=", 1) for arg in sys.argv[2:]]
    measured = sample([(shlex.split(command), None) for _, command in commands], runs)
    samples = {label: rows for (label, _), rows in zip(commands, measured)}
    base = samples[commands[0][0]]
    print("| command | wall ms | CPU ms | peak RSS MiB | wall ratio | CPU ratio | RSS added MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, command in commands:
        rows = samples[label]
        median = [statistics.median(row[i] for row in rows) for i in range(3)]
        ratio = [statistics.median(row[i] / b[i] for row, b in zip(rows, base)) for i in range(2)]
        added = statistics.median(row[2] - b[2] for row, b in zip(rows, base))
        print(
            f"| {label} | {median[0]:.1f} | {median[1]:.1f} | {median[2]:.1f} "
            f"| {ratio[0]:.2f}× | {ratio[1]:.2f}× | {added:+.1f} |"
        )
    print(f"\n{runs} rounds; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if os.path.exists("/proc/self/smaps_rollup"):
        memory_by_kind(commands, int(os.environ.get("MEMORY_ROUNDS", "5")))


def with_memory_preload(argv):
    """argv with memory-at-exit.cjs preloaded into its node (the first word that is `node`)."""
    at = next(i for i, word in enumerate(argv) if os.path.basename(word) == "node") + 1
    return argv[:at] + ["--require", MEMORY_AT_EXIT] + argv[at:]


def memory_by_kind(commands, rounds):
    samples = {label: [] for label, _ in commands}
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "memory.json")
        for round_ in range(rounds):
            order = commands[round_ % len(commands):] + commands[:round_ % len(commands)]
            for label, command in order:
                run(with_memory_preload(shlex.split(command)), {"MEMORY_AT_EXIT": out})
                with open(out) as f:
                    samples[label].append(json.load(f))
    base = samples[commands[0][0]]
    print("\n| command | RSS at exit MiB | anonymous MiB | file-backed MiB | anonymous added | file-backed added |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, _ in commands:
        rows = samples[label]
        mib = lambda row, key: row[key] / 1024
        file_backed = lambda row: (row["rss"] - row["anonymous"]) / 1024
        rss = statistics.median(mib(row, "rss") for row in rows)
        anonymous = statistics.median(mib(row, "anonymous") for row in rows)
        files = statistics.median(file_backed(row) for row in rows)
        anonymous_added = statistics.median(mib(row, "anonymous") - mib(b, "anonymous") for row, b in zip(rows, base))
        files_added = statistics.median(file_backed(row) - file_backed(b) for row, b in zip(rows, base))
        print(
            f"| {label} | {rss:.1f} | {anonymous:.1f} | {files:.1f} "
            f"| {anonymous_added:+.1f} | {files_added:+.1f} |"
        )
    print(f"\n{rounds} rounds, memory-at-exit.cjs preloaded into every command")


if __name__ == "__main__":
    main()
