#!/usr/bin/env python3
"""The size table (issue 16): how large a program each engine decides within a time budget and a memory bound.

Usage: bench/sizes.py [--ptxmm build/app/ptxmm] [--engines z3,explicit] [--budget 60] [--memory 24G]
                      [--family NAME]... [--out bench/results/sizes.md]

Each family grows one dimension of a generated litmus test; sizes climb a ladder (10, 20, 50, 100, ...) and stop at
the first size the engine does not decide (a timeout, UNKNOWN at a limit, or any other exit) within --budget
seconds (`--timeout` of ptxmm, plus a process time limit) under `--max-memory`. A row gives the largest decided
size with its wall time and peak RSS, and what stopped the next size.
  threads       n threads in different CTAs, each storing 1 to a location of its own (relaxed, gpu scope).
  mp-pairs      n/2 message-passing pairs (weak data store, release flag store | acquire flag load, weak data
                load), every pair on locations of its own; the condition asks for pair 0's forbidden outcome.
  instructions  one thread: a load, n register additions, a store of the sum (instructions per thread).
  locations     one thread storing 1 to each of n locations.
  writers       n threads storing to ONE location (coherence orders grow as n!) and a reader.
"""
import argparse, os, re, subprocess, tempfile, time

LADDER = [2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000]


def threads(n):
    heads = " | ".join(f"P{i}@cta {i},gpu 0" for i in range(n))
    row = " | ".join(f"st.relaxed.gpu x{i}, 1" for i in range(n))
    init = " ".join(f"x{i}=0;" for i in range(n))
    return f"PTX threads\n{{ {init} }}\n {heads} ;\n {row} ;\nexists (x0 == 1)\n"


def mp_pairs(n):
    pairs = max(1, n // 2)
    heads, first, second, init = [], [], [], []
    for p in range(pairs):
        heads += [f"P{2*p}@cta {2*p},gpu 0", f"P{2*p+1}@cta {2*p+1},gpu 0"]
        first += [f"st.weak d{p}, 1", f"ld.acquire.gpu r0, f{p}"]
        second += [f"st.release.gpu f{p}, 1", f"ld.weak r1, d{p}"]
        init += [f"d{p}=0;", f"f{p}=0;"]
    return (f"PTX mp-pairs\n{{ {' '.join(init)} }}\n {' | '.join(heads)} ;\n {' | '.join(first)} ;\n"
            f" {' | '.join(second)} ;\n~exists (P1:r0 == 1 /\\ P1:r1 == 0)\n")


def instructions(n):
    body = "".join(" add r0, r0, 1 ;\n" for _ in range(n))
    return f"PTX instructions\n{{ x=1; y=0; }}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n{body} st.weak y, r0 ;\nexists (y == {n + 1})\n"


def locations(n):
    body = "".join(f" st.weak y{i}, 1 ;\n" for i in range(n))
    init = " ".join(f"y{i}=0;" for i in range(n))
    return f"PTX locations\n{{ {init} }}\n P0@cta 0,gpu 0 ;\n{body}exists (y0 == 1)\n"


def writers(n):
    heads = " | ".join(f"P{i}@cta {i},gpu 0" for i in range(n + 1))
    row = " | ".join([f"st.relaxed.gpu x, {i + 1}" for i in range(n)] + ["ld.relaxed.gpu r0, x"])
    return f"PTX writers\n{{ x=0; }}\n {heads} ;\n {row} ;\nexists (P{n}:r0 == 0)\n"


FAMILIES = {"threads": threads, "mp-pairs": mp_pairs, "instructions": instructions, "locations": locations,
            "writers": writers}


def run(ptxmm, engine, text, budget, memory, folder):
    path = os.path.join(folder, "t.litmus")
    with open(path, "w") as f:
        f.write(text)
    cmd = ["/usr/bin/time", "-f", "%M", ptxmm, "run", "--engine", engine, "--timeout", str(budget),
           "--max-memory", memory, path]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=budget + 30)
    except subprocess.TimeoutExpired:
        return "killed", time.monotonic() - start, None, "process time limit"
    took = time.monotonic() - start
    rss = int(p.stderr.strip().splitlines()[-1]) if p.stderr.strip() else None
    reason = re.search(r"^Reason: (.*)$", p.stdout, re.M)
    ok = p.returncode in (0, 1) and ("Ok" in p.stdout.splitlines() or "No" in p.stdout.splitlines())
    why = reason.group(1) if reason else (p.stderr.strip().splitlines() or [""])[0][:120]
    return ("ok" if ok else f"exit {p.returncode}"), took, rss, why


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--ptxmm", default="build/app/ptxmm")
    a.add_argument("--engines", default="z3,explicit")
    a.add_argument("--budget", type=int, default=60)
    a.add_argument("--memory", default="24G")
    a.add_argument("--family", action="append")
    a.add_argument("--out")
    o = a.parse_args()
    rows = ["| family | engine | largest decided n | its time (s) | its peak RSS (MiB) | next n | what stopped it |",
            "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        for name in o.family or FAMILIES:
            for engine in o.engines.split(","):
                best = None
                stop = ("-", "ladder end")
                for n in LADDER:
                    status, took, rss, why = run(o.ptxmm, engine, FAMILIES[name](n), o.budget, o.memory, folder)
                    print(f"{name} {engine} n={n}: {status} {took:.2f} s {rss} KiB {why if status != 'ok' else ''}",
                          flush=True)
                    if status != "ok":
                        stop = (str(n), f"{status}: {why}" if why else status)
                        break
                    best = (n, took, rss)
                cells = [str(best[0]), f"{best[1]:.2f}", str(best[2] // 1024) if best[2] else "?"] if best else ["-"] * 3
                rows.append(f"| {name} | {engine} | " + " | ".join(cells) + f" | {stop[0]} | {stop[1]} |")
    table = "\n".join(rows) + "\n"
    print(table)
    if o.out:
        with open(o.out, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
