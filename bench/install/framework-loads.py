"""What loading an agent framework costs under a register: whole processes, as start.py measures.

Usage: python3 framework-loads.py RUNS OURS PEER FRAMEWORK ...  (run where the frameworks resolve)

For nothing (`-e 0`, the registers' own start) and each framework, commands that `require` it
and exit, RUNS rounds in rotated order: plain `node`; `node` with Node's module compile cache on
(NODE_COMPILE_CACHE), which our register turns on for the app's modules too, so that its cost
is not hidden by the cache's saving; and `node --require OURS` and `node --require PEER`
(auto-instrumentations-node's register, its exporters off), both with the cache on. Prints median
CPU times (user + system), and each register's added CPU and peak RSS against the cache-on run of
the same round.
Standard library only: it needs no virtual environment.
"""
import os
import statistics
import sys
import tempfile

from start import sample

EXPORTERS_OFF = {"OTEL_TRACES_EXPORTER": "none", "OTEL_METRICS_EXPORTER": "none", "OTEL_LOGS_EXPORTER": "none"}


def added(samples, base):
    cpu = statistics.median(s[1] - b[1] for s, b in zip(samples, base))
    rss = statistics.median(s[2] - b[2] for s, b in zip(samples, base))
    return f"{cpu:+.1f} ms, {rss:+.1f} MiB"


def main():
    runs, ours, peer, frameworks = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    print("| framework | node CPU ms | with the compile cache | ours, --require | auto-instrumentations-node, --require |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as cache:
        for framework in [None, *frameworks]:
            load = ["-e", f"require({framework!r})" if framework else "0"]
            cached = {"NODE_COMPILE_CACHE": cache}
            commands = [
                (["node", *load], None),
                (["node", *load], cached),
                (["node", "--require", ours, *load], cached),
                (["node", "--require", peer, *load], {**cached, **EXPORTERS_OFF}),
            ]
            samples = sample(commands, runs)
            cpu = [statistics.median(row[1] for row in rows) for rows in samples]
            print(
                f"| {f'`{framework}`' if framework else 'nothing (`-e 0`)'} | {cpu[0]:.1f} | {cpu[1]:.1f} "
                f"| {added(samples[2], samples[1])} | {added(samples[3], samples[1])} |"
            )
    print(f"\n{runs} rounds; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


main()
