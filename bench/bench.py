#!/usr/bin/env python3
"""ptxmm benchmarks: time every engine on the same tests in one run and write a Markdown table.

Usage: bench/bench.py [--ptxmm build/app/ptxmm] [--engines explicit,z3] [--corpus DIR]...
                      [--families [--family NAME]...] [--repeat N] [--out bench/results/NAME.md] [--timeout S]
                      [--floor build/bench/ptxmm_allsat_floor]

Per test the time is ptxmm's own `time_ms` (engine time, so process start-up and model parsing are not counted).

Corpus table: per corpus and engine, the number of tests, how many were decided (status ok), the median and
maximum ms per decided test, and the ratio of each engine's median to the first engine's (the baseline, measured
in the same run).

Family table (--families): scaling families generated into a temporary directory, each test run --repeat times
per engine (one process per run) with a per-test timeout (--timeout, default 60 s):
  mp-chain   n = 2..8 threads in different CTAs: P0 writes data then flag 1 (st.release.gpu); Pi reads flag i
             (ld.acquire.gpu) and writes flag i+1; the last thread reads flag n-1 and then data (ISA2 style,
             release/acquire: no fence.sc, one write per location, so few candidate executions).
  wrc-sc     n = 3..8 threads (WRC style): P0 writes x0 (relaxed); Pi reads x(i-1), fence.sc.gpu, writes xi; the
             last thread reads x(n-2), fence.sc.gpu, reads x0.
  iriw-sc    n = 4..8 threads (IRIW style): two relaxed writers of x and y, n-2 readers reading both (alternately
             x then y and y then x) with fence.sc.gpu between.
  writers    n = 1..7 relaxed writers to one location plus one reader.
  sb-ring    k = 2..6 threads in a ring, each storing its location, fence.sc.gpu, loading the next one.
  snippet    n = 10..50 instructions in each of 4 threads over 8 locations (relaxed loads and stores, acq_rel
             fences; up to 200 events): kernel-snippet sized tests; the condition asks for the last load of every
             thread reading 0.
A cell gives the median and maximum ms over the runs, `>timeout` when a run hit the timeout (it is not
repeated), or the status when the engine stopped for another reason (e.g. `unknown` at a size limit of the
engine; a note under the table gives the reason). The ratio columns are the first engine's median over each
other's; when the first timed out it is a lower bound (`>`).

An engine named ENGINE-verdict (e.g. z3-verdict) is ENGINE deciding only the condition's claim, as `ptxmm suite`
does: for z3 one query and no state listing (the least work any Z3 run does on a test); the explicit engine
enumerates every candidate either way.
With --families the Z3 AllSAT floor is printed too (--floor, built as build/bench/ptxmm_allsat_floor): the time
Z3 needs to list 2^k states of a formula that constrains nothing, the least a listing by blocking clauses (one
solver call per state) of that many states costs, next to the explicit engine on mp-chain k.
Only the Python standard library is used.
"""
import argparse
import datetime
import glob
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile


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


VERDICT = "-verdict"


def run(ptxmm, engine, files, timeout, kill_after=None):
    """{file: result object}. ENGINE-verdict decides each condition as `ptxmm suite` does, listing no states;
    the suite is given each test's claim as expected (verdicts are not compared here, only timed). Raises
    subprocess.TimeoutExpired when kill_after seconds pass."""
    limit = ["--timeout", str(timeout)] if timeout else []
    if not engine.endswith(VERDICT):
        out = subprocess.run([ptxmm, "run", "--json", "--engine", engine] + limit + files, capture_output=True,
                             text=True, timeout=kill_after)
        return {r["file"]: r for r in map(json.loads, out.stdout.splitlines())}
    with tempfile.TemporaryDirectory(prefix="ptxmm-bench-verdict-") as tmp:
        expected, report = os.path.join(tmp, "expected.csv"), os.path.join(tmp, "report.json")
        with open(expected, "w") as f:
            f.writelines(f"{os.path.abspath(path).lstrip('/')},1\n" for path in files)
        subprocess.run([ptxmm, "suite", "--engine", engine[:-len(VERDICT)], "--expected", expected, "--root", "/",
                        "--report", report] + limit, capture_output=True, text=True, timeout=kill_after)
        if not os.path.exists(report):
            return {}
        with open(report) as f:
            return {t["result"]["file"]: t["result"] for t in json.load(f)["tests"] if "result" in t}


# ------------------------------------------------------------------------------------------- scaling families

def litmus(name, init, threads, condition):
    """A litmus test from per-thread instruction lists, threads in CTAs 0, 1, ... of GPU 0."""
    header = " | ".join(f"P{i}@cta {i},gpu 0" for i in range(len(threads)))
    rows = max(len(t) for t in threads)
    lines = [f"PTX {name}", "{ " + " ".join(f"{loc}=0;" for loc in init) + " }", f" {header} ;"]
    for r in range(rows):
        lines.append(" " + " | ".join(t[r] if r < len(t) else "" for t in threads) + " ;")
    lines.append(condition)
    return "\n".join(lines) + "\n"


def mp_chain(n):
    threads = [["st.weak data, 1", "st.release.gpu f1, 1"]]
    for i in range(1, n - 1):
        threads.append([f"ld.acquire.gpu r0, f{i}", f"st.release.gpu f{i + 1}, 1"])
    threads.append([f"ld.acquire.gpu r0, f{n - 1}", "ld.weak r1, data"])
    seen = " /\\ ".join(f"P{i}:r0 == 1" for i in range(1, n))
    init = ["data"] + [f"f{i}" for i in range(1, n)]
    return litmus(f"MP-chain-{n}", init, threads, f"exists ({seen} /\\ P{n - 1}:r1 == 0)")


def writers(n):
    threads = [[f"st.relaxed.gpu x, {i + 1}"] for i in range(n)] + [["ld.relaxed.gpu r0, x"]]
    return litmus(f"W{n}+R", ["x"], threads, f"exists (P{n}:r0 == 0 /\\ x == 1)")


def sb_ring(k):
    threads = [[f"st.relaxed.gpu x{i}, 1", "fence.sc.gpu", f"ld.relaxed.gpu r0, x{(i + 1) % k}"] for i in range(k)]
    zeros = " /\\ ".join(f"P{i}:r0 == 0" for i in range(k))
    return litmus(f"SB-ring-{k}", [f"x{i}" for i in range(k)], threads, f"exists ({zeros})")


def wrc_sc(n):
    threads = [["st.relaxed.gpu x0, 1"]]
    for i in range(1, n - 1):
        threads.append([f"ld.relaxed.gpu r0, x{i - 1}", "fence.sc.gpu", f"st.relaxed.gpu x{i}, 1"])
    threads.append([f"ld.relaxed.gpu r0, x{n - 2}", "fence.sc.gpu", "ld.relaxed.gpu r1, x0"])
    seen = " /\\ ".join(f"P{i}:r0 == 1" for i in range(1, n))
    return litmus(f"WRC-sc-{n}", [f"x{i}" for i in range(n - 1)], threads, f"exists ({seen} /\\ P{n - 1}:r1 == 0)")


def iriw_sc(n):
    threads = [["st.relaxed.gpu x, 1"], ["st.relaxed.gpu y, 1"]]
    for i in range(n - 2):
        first, second = ("x", "y") if i % 2 == 0 else ("y", "x")
        threads.append([f"ld.relaxed.gpu r0, {first}", "fence.sc.gpu", f"ld.relaxed.gpu r1, {second}"])
    stale = " /\\ ".join(f"P{i}:r0 == 1 /\\ P{i}:r1 == 0" for i in range(2, n))
    return litmus(f"IRIW-sc-{n}", ["x", "y"], threads, f"exists ({stale})")


def snippet(n):
    """Four threads of n instructions over 8 locations: every third a store, every fifth a fence, the rest loads;
    locations drawn by a generator seeded with n, so each size is the same test in every run."""
    rng = random.Random(n)
    threads = []
    for t in range(4):
        code = []
        for i in range(n):
            loc = f"x{rng.randrange(8)}"
            if i % 5 == 4:
                code.append("fence.acq_rel.gpu")
            elif (i + t) % 3 == 0:
                code.append(f"st.relaxed.gpu {loc}, {t * 100 + i + 1}")
            else:
                code.append(f"ld.relaxed.gpu r{i}, {loc}")
        threads.append(code)
    last = [max(i for i, c in enumerate(code) if c.startswith("ld")) for code in threads]
    seen = " /\\ ".join(f"P{t}:r{last[t]} == 0" for t in range(4))
    return litmus(f"snippet-{n}", [f"x{i}" for i in range(8)], threads, f"exists ({seen})")


FAMILIES = [("mp-chain", range(2, 9), mp_chain), ("wrc-sc", range(3, 9), wrc_sc), ("iriw-sc", range(4, 9), iriw_sc),
            ("writers", range(1, 8), writers), ("sb-ring", range(2, 7), sb_ring), ("snippet", range(10, 60, 10), snippet)]


def time_once(ptxmm, engine, path, timeout):
    """(status, ms, reason): status is 'ok', 'timeout', or the engine's status when it stopped for another reason."""
    try:
        results = run(ptxmm, engine, [path], timeout, kill_after=timeout + 30)
    except subprocess.TimeoutExpired:  # the engine did not honour its own timeout
        return "timeout", None, "killed"
    if not results:
        return "error", None, f"{ptxmm} gave no result"
    r = next(iter(results.values()))
    # Both engines say "timeout after S s" at --timeout; Z3 may also stop with "Z3 answered unknown (canceled)".
    reason = r.get("reason") or ""
    if r["status"] == "unknown" and ("timeout" in reason or "canceled" in reason):
        return "timeout", None, reason
    return r["status"], r["time_ms"], reason


def time_test(ptxmm, engine, path, timeout, repeat):
    """{'status', 'times', 'reason'}: the runs' times when every run completed."""
    times = []
    for _ in range(repeat):
        status, ms, reason = time_once(ptxmm, engine, path, timeout)
        if status != "ok":
            return {"status": status, "times": [], "reason": reason}
        times.append(ms)
    return {"status": "ok", "times": times, "reason": ""}


def cell(result):
    if result["status"] == "ok":
        return f"{statistics.median(result['times']):.1f}", f"{max(result['times']):.1f}"
    text = ">timeout" if result["status"] == "timeout" else result["status"]
    return text, text


def ratio(first, second, timeout):
    if second["status"] != "ok":
        return "-"
    base = statistics.median(second["times"])
    if first["status"] == "ok":
        return f"{statistics.median(first['times']) / base:.3g}"
    if first["status"] == "timeout":
        return f">{timeout * 1000 / base:.0f}"
    return "-"


def family_rows(ptxmm, engines, timeout, repeat, only):
    """The table rows, a note for every cell where an engine stopped for a reason other than the timeout, and
    every result by (family, size, engine)."""
    rows, notes, measured = [], [], {}
    with tempfile.TemporaryDirectory(prefix="ptxmm-bench-") as tmp:
        for family, sizes, make in FAMILIES:
            if only and family not in only:
                continue
            for n in sizes:
                path = os.path.join(tmp, f"{family}-{n}.litmus")
                with open(path, "w") as f:
                    f.write(make(n))
                results = {}
                for e in engines:
                    results[e] = time_test(ptxmm, e, path, timeout, repeat)
                    measured[(family, n, e)] = results[e]
                    if results[e]["status"] not in ("ok", "timeout"):
                        notes.append(f"* {family} {n}, {e}: {results[e]['status']}: {results[e]['reason']}")
                    print(f"{family} {n} {e}: {cell(results[e])[0]}", file=sys.stderr)
                row = f"| {family} | {n} |"
                for e in engines:
                    med, mx = cell(results[e])
                    row += f" {med} | {mx} |"
                for e in engines[1:]:
                    row += f" {ratio(results[engines[0]], results[e], timeout)} |"
                rows.append(row)
    return rows, notes, measured


def family_table(ptxmm, engines, timeout, repeat, only):
    header = "| family | size |" + "".join(f" {e} median ms | {e} max ms |" for e in engines)
    rule = "|---|---|" + "---|---|" * len(engines)
    for e in engines[1:]:
        header += f" {engines[0]} / {e} |"
        rule += "---|"
    rows, notes, measured = family_rows(ptxmm, engines, timeout, repeat, only)
    title = f"Scaling families ({repeat} runs per test and engine, timeout {timeout:g} s; see bench.py for the tests):"
    return ["", title, "", header, rule] + rows + ([""] + notes if notes else []), measured


def floor_table(floor, repeat, measured):
    """The Z3 AllSAT floor (bench/allsat_floor.cpp) for k = 1..8 free Booleans, the median of `repeat` runs, next
    to the explicit engine's time on mp-chain k (2^k - 1 permitted states) when it was measured."""
    if not os.path.exists(floor):
        print(f"skipping the AllSAT floor: {floor} is not built", file=sys.stderr)
        return []
    runs = {}
    for _ in range(repeat):
        out = subprocess.run([floor, "8"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            r = json.loads(line)
            runs.setdefault(r["booleans"], []).append(r)
    lines = [
        "",
        f"Z3 AllSAT floor (`{floor} 8`, median of {repeat} runs): listing the 2^k assignments of k free Booleans "
        "with the Z3 engine's loop (one check, get_model and blocking clause per state; context creation not "
        "counted). A Z3 listing by blocking clauses makes one such call per state on a larger formula, so "
        "explicit / floor bounds the ratio it can reach on mp-chain k (2^k - 1 states):",
        "",
        "| k | states | floor median ms | mp-chain k explicit median ms | explicit / floor |",
        "|---|---|---|---|---|",
    ]
    for k, rs in sorted(runs.items()):
        ms = statistics.median(r["list_ms"] for r in rs)
        explicit = measured.get(("mp-chain", k, "explicit"))
        if explicit and explicit["status"] == "ok":
            em = statistics.median(explicit["times"])
            lines.append(f"| {k} | {rs[0]['states']} | {ms:.2f} | {em:.1f} | {em / ms:.3g} |")
        else:
            lines.append(f"| {k} | {rs[0]['states']} | {ms:.2f} | - | - |")
    return lines


# ---------------------------------------------------------------------------------------------------- corpus

def corpus_table(ptxmm, engines, corpora, timeout):
    lines = [
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
            res = run(ptxmm, engine, files, timeout)
            if not res:
                sys.exit(f"{ptxmm} gave no results for {len(files)} tests ({engine})")
            times = [r["time_ms"] for r in res.values() if r["status"] == "ok"]
            if not times:
                continue
            med, mx = statistics.median(times), max(times)
            base = med if base is None else base
            lines.append(f"| {corpus} | {engine} | {len(files)} | {len(times)} | {med:.2f} | {mx:.2f} | "
                         f"{med / base:.2f} |")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptxmm", default="build/app/ptxmm")
    ap.add_argument("--engines", default="explicit")
    ap.add_argument("--corpus", action="append", default=[], help="a directory of .litmus files (recursive)")
    ap.add_argument("--families", action="store_true", help="also time the scaling families")
    ap.add_argument("--family", action="append", default=[], choices=[f[0] for f in FAMILIES],
                    help="with --families: only this family (repeatable)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per family test and engine")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per test and engine")
    ap.add_argument("--out", default="")
    ap.add_argument("--floor", default="build/bench/ptxmm_allsat_floor",
                    help="with --families: the AllSAT floor program (skipped when not built)")
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
    ] + corpus_table(args.ptxmm, engines, corpora, args.timeout)
    if args.families:
        table, measured = family_table(args.ptxmm, engines, args.timeout, args.repeat, args.family)
        lines += table + floor_table(args.floor, args.repeat, measured)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
