#!/usr/bin/env python3
"""ptxmm benchmarks: time every engine on the same tests in one run and write a Markdown table.

Usage: bench/bench.py [--ptxmm build/frontend/cli/ptxmm] [--engines explicit,z3] [--corpus DIR]...
                      [--families] [--out bench/results/NAME.md] [--timeout S]

Per test the time is ptxmm's own `time_ms` (engine time, one process per engine and corpus, so start-up is not
counted). The table gives, per corpus and engine, the number of tests, how many were decided (status ok), the
median and maximum ms per test, and the ratio of each engine's median to the first engine's (the baseline,
measured in the same run). Only the Python standard library is used.
"""
import argparse
import datetime
import glob
import json
import os
import platform
import statistics
import subprocess
import sys


def machine():
    cpu = platform.processor() or "unknown cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def run(ptxmm, engine, files, timeout):
    cmd = [ptxmm, "run", "--json", "--engine", engine]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    out = subprocess.run(cmd + files, capture_output=True, text=True)
    results = {}
    for line in out.stdout.splitlines():
        r = json.loads(line)
        results[r["file"]] = r
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptxmm", default="build/frontend/cli/ptxmm")
    ap.add_argument("--engines", default="explicit")
    ap.add_argument("--corpus", action="append", default=[], help="a directory of .litmus files (recursive)")
    ap.add_argument("--timeout", type=float, default=0)
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    engines = args.engines.split(",")
    corpora = args.corpus or ["../shared/peers/dat3m/litmus/PTX"]

    lines = [
        f"# ptxmm benchmark ({datetime.date.today().isoformat()})",
        "",
        f"* machine: {machine()}",
        f"* command: `{' '.join([sys.argv[0]] + sys.argv[1:])}`",
        f"* baseline for ratios: `{engines[0]}` (same run)",
        "",
        "| corpus | engine | tests | decided | median ms | max ms | median / baseline |",
        "|---|---|---|---|---|---|---|",
    ]
    for corpus in corpora:
        files = sorted(glob.glob(os.path.join(corpus, "**", "*.litmus"), recursive=True))
        if not files:
            print(f"skipping {corpus}: no .litmus files", file=sys.stderr)
            continue
        base = None
        for engine in engines:
            res = run(args.ptxmm, engine, files, args.timeout)
            times = [r["time_ms"] for r in res.values() if r["status"] == "ok"]
            if not times:
                continue
            med, mx = statistics.median(times), max(times)
            base = med if base is None else base
            lines.append(f"| {corpus} | {engine} | {len(files)} | {len(times)} | {med:.2f} | {mx:.2f} | "
                         f"{med / base:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
