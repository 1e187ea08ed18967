"""Two builds of the package side by side on the agent-loop rows (`npm run bench -- agent-loops`).

Usage: python3 bench/compare-agent-loops.py PAIRS OTHER_BUNDLE [FRAMEWORK]  (from the repository's
root; OTHER_BUNDLE is an earlier revision's bench/bundle-entry.ts built into a folder inside the
checkout, so that both builds resolve the same node_modules, and is loaded through BENCH_BUNDLE)

Runs `npm run bench -- agent-loops[:FRAMEWORK]` 2 × PAIRS times, this checkout's build and the other
in turn (ABBA order), each run measuring its variants against the SDK alone in interleaved rounds as
usual. Prints, for each row, the median over runs of each build's time per tool call and time added
over the SDK alone, the median of the paired differences (this build − the other), and the median
of each build's ratio to the SDK alone (steadier than times on a loaded machine). Standard library
only.
"""
import os
import re
import statistics
import subprocess
import sys

UNITS = {"ns": 1, "µs": 1e3, "ms": 1e6}


def ns(text):
    match = re.match(r"([+-]?[\d.]+) (ns|µs|ms)", text.strip())
    return float(match[1]) * UNITS[match[2]] if match else None


def run(bundle, framework):
    env = dict(os.environ)
    if bundle:
        env["BENCH_BUNDLE"] = bundle
    case = f"agent-loops:{framework}" if framework else "agent-loops"
    out = subprocess.run(["npm", "run", "--silent", "bench", "--", case], env=env, check=True,
                         capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if len(cells) == 8 and cells[0].startswith("9 "):
            ratio = re.match(r"([\d.]+)×", cells[4])
            rows[(cells[0], cells[1])] = (ns(cells[2]), ns(cells[5]) if cells[5] else 0.0,
                                          float(ratio[1]) if ratio else 1.0)
    load = re.findall(r"load average ([\d. ]+)", out)
    return rows, load


def main():
    pairs, other, framework = int(sys.argv[1]), sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else None)
    runs = {"this": [], "other": []}
    loads = []
    for pair in range(pairs):
        for build in (["this", "other"] if pair % 2 == 0 else ["other", "this"]):
            rows, load = run(other if build == "other" else None, framework)
            runs[build].append(rows)
            loads += load
            print(f"pair {pair + 1}, {build}: load {' / '.join(x.strip() for x in load)}", file=sys.stderr)
    print("| case | variant | time/call, other | time/call, this | added, other | added, this | this − other (added)"
          " | ratio, other | ratio, this |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for key in runs["this"][0]:
        mine = [rows[key] for rows in runs["this"] if key in rows]
        theirs = [rows[key] for rows in runs["other"] if key in rows]
        if not theirs:
            continue
        med = lambda values: statistics.median(values) / 1e3
        diff = statistics.median(m[1] - t[1] for m, t in zip(mine, theirs)) / 1e3
        print(f"| {key[0]} | {key[1]} | {med(t[0] for t in theirs):.1f} µs | {med(m[0] for m in mine):.1f} µs"
              f" | {med(t[1] for t in theirs):+.1f} µs | {med(m[1] for m in mine):+.1f} µs | {diff:+.1f} µs"
              f" | {statistics.median(t[2] for t in theirs):.2f}× | {statistics.median(m[2] for m in mine):.2f}× |")
    print(f"\n{pairs} pairs of runs (ABBA); load averages before/after each run: {'; '.join(x.strip() for x in loads)}")


main()
