#!/usr/bin/env python3
"""The kernel table (issue 18 item 6): `ptxmm kernel` timed on every case of cases/kernels and on scaling
families, in one run, written as Markdown beside the engines table (bench/results/kernels.md).

Usage: bench/kernels.py [--ptxmm build/app/ptxmm] [--timeout S] [--out bench/results/kernels.md]
                        [--cases | --families] [--ctas 1,2,4,8] [--threads 32,64,128,256,512,1024]

Every case is compiled once with nvcc (`-arch=sm_90a -lineinfo -ptx`, the flags `ptxmm kernel` uses; its time is
reported beside, not counted) and ptxmm checks the .ptx at the header's launch with --timeout S (default 60).
The time is ptxmm's own `time_ms` (the check of the PTX; reading and instantiating it and the fixes' re-checks
are not in it: `fix_ms` has those, the process wall time is given too). A case is decided when ptxmm's status
is ok and its exit is 0 or 1; its verdict is compared with the header (tests/kernels/run-cases.py).

Scaling families (generated .cu, compiled once each; launches of C CTAs x T threads):
  reduce       tree reduction in shared memory, __syncthreads() between the steps, thread 0 of each CTA writes
               its partial sum (barrier-synchronised: race-free).
  handoff      every thread writes its slot; __syncthreads(); thread 0 publishes a flag with st.release.gpu;
               thread 0 of the next CTA reads it once with ld.acquire.gpu and, when set, reads the previous CTA's
               slots (no spinning: race-free).
  pipeline     one CTA, S = 1..4 stages of an mbarrier hand-off: thread 0 writes the stage's buffer and arrives
               (release), the others wait on the stage's mbarrier (parity) and read it (T fixed at 64).
Only the Python standard library is used.
"""
import argparse
import datetime
import importlib.util
import json
import os
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench import machine  # noqa: E402

spec = importlib.util.spec_from_file_location("run_cases", os.path.join(ROOT, "tests", "kernels", "run-cases.py"))
run_cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_cases)

REDUCE = r"""
__global__ void reduce(const int* in, int* out) {
  __shared__ int s[1024];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
"""

HANDOFF = r"""
__device__ void store_release(int* p, int v) { asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__device__ int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__global__ void handoff(int* data, int* flag, int* out) {
  int b = blockIdx.x, t = threadIdx.x;
  data[b * blockDim.x + t] = b + t;
  __syncthreads();
  if (t == 0) store_release(&flag[b], 1);
  if (t == 0 && b > 0 && load_acquire(&flag[b - 1]) == 1) {
    int sum = 0;
    for (int i = 0; i < 4; ++i) sum += data[(b - 1) * blockDim.x + i];
    out[b] = sum;
  }
}
"""

PIPELINE = r"""
#include <cuda/ptx>
__global__ void pipeline(int* out) {
  __shared__ unsigned long long bar[STAGES];
  __shared__ int buf[STAGES][32];
  int t = threadIdx.x;
  if (t == 0)
    for (int s = 0; s < STAGES; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"((unsigned)__cvta_generic_to_shared(&bar[s])));
  __syncthreads();
  for (int s = 0; s < STAGES; ++s) {
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar[s]);
    if (t == 0) {
      buf[s][0] = s + 1;
      asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" :: "r"(b) : "memory");
    } else {
      unsigned done = 0;
      while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(b) : "memory");
      if (t == 1) out[s] = buf[s][0];
    }
  }
}
"""


def compile_cu(nvcc, source, tmp, name, defines=()):
    """(ptx path, nvcc seconds) or raises RuntimeError."""
    cu, ptx = os.path.join(tmp, name + ".cu"), os.path.join(tmp, name + ".ptx")
    with open(cu, "w") as f:
        f.write(source)
    start = time.monotonic()
    r = subprocess.run([nvcc, "-arch=sm_90a", "-lineinfo", "-ptx", *defines, cu, "-o", ptx], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"nvcc failed on {name}: {r.stderr.strip()[-300:]}")
    return ptx, time.monotonic() - start


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def check(ptxmm, ptx, launch, timeout):
    """ptxmm's answer: {'rc', 'obj', 'wall', 'cpu'}; obj None when it gave no JSON (killed after timeout + 60 s).
    cpu: the process's CPU seconds (user + system; runs are sequential), which a loaded machine inflates far less
    than wall time."""
    start, cpu = time.monotonic(), children_cpu()
    try:
        r = subprocess.run([ptxmm, "kernel", ptx, *launch, "--timeout", f"{timeout:g}", "--json"], capture_output=True,
                           text=True, timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        return {"rc": None, "obj": None, "wall": time.monotonic() - start, "cpu": children_cpu() - cpu,
                "problem": "killed"}
    try:
        objs = run_cases.parse_json_objects(r.stdout)
    except json.JSONDecodeError:
        objs = []
    problem = "" if objs else (r.stderr.strip().splitlines() or ["no output"])[-1]
    return {"rc": r.returncode, "obj": objs[0] if objs else None, "wall": time.monotonic() - start,
            "cpu": children_cpu() - cpu, "problem": problem}


def launch_size(launch):
    grid = run_cases.launch_options(launch, "--grid")[0].split(",")
    block = run_cases.launch_options(launch, "--block")[0].split(",")
    prod = lambda xs: eval("*".join(xs))  # noqa: S307 (digits and commas from the case header)
    return prod(grid), prod(block)


def short(text, n=90):
    text = " ".join(str(text).split())
    text = re.sub(r"/\S*?/(cases/kernels/[\w.+-]+)", r"\1", text)  # no folder of this machine in the table
    text = re.sub(r"/\S*?/ptxmm-kbench-\w+/", "", text)
    return text if len(text) <= n else text[:n - 1] + "…"


def decided(res):
    return res["obj"] is not None and res["obj"].get("status") == "ok" and res["rc"] in (0, 1)


def cases_table(ptxmm, nvcc, timeout, tmp):
    rows, small = [], []
    cases_dir = os.path.join(ROOT, "cases", "kernels")
    for name in sorted(f for f in os.listdir(cases_dir) if f.endswith(".cu")):
        path = os.path.join(cases_dir, name)
        with open(path) as f:
            launch, exp = run_cases.parse_header(f.read())
        start = time.monotonic()
        ptx, err = run_cases.compile_ptx(nvcc, path, tmp, 600)
        nvcc_s = time.monotonic() - start
        if err:
            rows.append(f"| {name[:-3]} | - | - | - | - | - | - | {short(err)} |")
            continue
        res = check(ptxmm, ptx, launch, timeout)
        ctas, threads = launch_size(launch)
        obj = res["obj"] or {}
        ok = decided(res)
        diffs = run_cases.compare(exp, res["rc"], res["obj"], path) if res["rc"] is not None else ["killed"]
        verdict = "as expected" if ok and not diffs else ("-" if not ok else "WRONG: " + short("; ".join(diffs), 60))
        ms = obj.get("time_ms")
        status = f"{obj.get('status', res['problem'] or 'error')} (exit {res['rc']})"
        reason = "" if ok else short(obj.get("reason") or res["problem"])
        rows.append(f"| {name[:-3]} | {ctas}x{threads} | {nvcc_s:.2f} | {ms:.0f} | {obj.get('fix_ms', 0):.0f} | "
                    f"{res['wall']:.2f} | {res['cpu']:.2f} | {status} | {verdict}{'; ' + reason if reason else ''} |"
                    if ms is not None else
                    f"| {name[:-3]} | {ctas}x{threads} | {nvcc_s:.2f} | - | - | {res['wall']:.2f} | {res['cpu']:.2f} | "
                    f"{status} | {reason} |")
        small.append({"name": name, "ctas": ctas, "threads": threads, "decided": ok and not diffs, "ms": ms,
                      "cpu": res["cpu"], "in_target": ctas <= 4 and threads <= 128})
        print(rows[-1], file=sys.stderr)
    header = ["| case | CTAs x threads/CTA | nvcc s | check ms | fixes ms | ptxmm wall s | ptxmm CPU s | status | verdict |",
              "|---|---|---|---|---|---|---|---|---|"]
    return header + rows, small


def summary(results, timeout):
    target = [r for r in results if r["in_target"]]
    decided_ms = [r["ms"] for r in target if r["decided"]]
    decided_cpu = [r["cpu"] for r in target if r["decided"]]
    lines = ["", f"Cases up to 4 CTAs x 128 threads per CTA: {len(target)}; decided as expected: {len(decided_ms)} "
                 "(target: all)."]
    if decided_ms:
        lines.append(f"Check time (`time_ms`, wall) of those decided: median {statistics.median(decided_ms):.0f} ms, "
                     f"max {max(decided_ms):.0f} ms (targets: median < 1000 ms, max < 10000 ms); whole ptxmm process "
                     f"CPU: median {statistics.median(decided_cpu):.2f} s, max {max(decided_cpu):.2f} s.")
    every = [r["ms"] for r in results if r["decided"]]
    if every:
        lines.append(f"All {len(results)} cases: {len(every)} decided as expected, median {statistics.median(every):.0f} "
                     f"ms, max {max(every):.0f} ms (the others: UNKNOWN, a wrong verdict, or the {timeout:g} s timeout).")
    return lines


def family_table(ptxmm, nvcc, timeout, tmp, ctas_list, threads_list):
    rows, results = [], []
    for family, source in (("reduce", REDUCE), ("handoff", HANDOFF)):
        ptx, nvcc_s = compile_cu(nvcc, source, tmp, family)
        for ctas in ctas_list:
            for threads in threads_list:
                n = ctas * threads
                if family == "reduce":
                    launch = ["--grid", str(ctas), "--block", str(threads), "--arg", f"in=int32[{n}]",
                              "--arg", f"out=int32[{ctas}]"]
                else:
                    launch = ["--grid", str(ctas), "--block", str(threads), "--arg", f"data=int32[{n}]",
                              "--arg", f"flag=int32[{ctas}]", "--arg", f"out=int32[{ctas}]"]
                res = check(ptxmm, ptx, launch, timeout)
                rows.append(family_row(family, ctas, threads, nvcc_s, res))
                results.append((family, ctas, threads, res))
                print(rows[-1], file=sys.stderr)
    for stages in range(1, 5):
        ptx, nvcc_s = compile_cu(nvcc, PIPELINE.replace("STAGES", str(stages)), tmp, f"pipeline{stages}")
        res = check(ptxmm, ptx, ["--grid", "1", "--block", "64", "--arg", f"out=int32[{stages}]"], timeout)
        rows.append(family_row(f"pipeline {stages} stages", 1, 64, nvcc_s, res))
        print(rows[-1], file=sys.stderr)
    return ["| family | CTAs | threads/CTA | threads | nvcc s | check ms | ptxmm wall s | ptxmm CPU s | status | races | reason |",
            "|---|---|---|---|---|---|---|---|---|---|---|"] + rows + growth(results)


def growth(results):
    """Time against threads per family at one CTA count: (ms at T2 / ms at T1) / (T2 / T1) between consecutive sizes
    (1.0: linear, 2.0 at a doubling: quadratic)."""
    lines = ["", "Growth between consecutive sizes, (check ms ratio) / (thread ratio), same CTA count (1.0 = linear):", ""]
    for family in ("reduce", "handoff"):
        for ctas in sorted({c for f, c, _, _ in results if f == family}):
            runs = sorted((t, r["obj"]["time_ms"]) for f, c, t, r in results
                          if f == family and c == ctas and decided(r))
            ratios = [f"{a[0]}->{b[0]}: {(b[1] / a[1]) / (b[0] / a[0]):.2f}" for a, b in zip(runs, runs[1:]) if a[1] > 0]
            if ratios:
                lines.append(f"* {family}, {ctas} CTA{'s' if ctas > 1 else ''}: {'; '.join(ratios)}")
    return lines


def family_row(family, ctas, threads, nvcc_s, res):
    obj = res["obj"] or {}
    ms = obj.get("time_ms")
    status = f"{obj.get('status', 'error')} (exit {res['rc']})" if res["obj"] else f"error: {short(res['problem'], 60)}"
    reason = "" if decided(res) else short(obj.get("reason") or res["problem"], 120)
    return (f"| {family} | {ctas} | {threads} | {ctas * threads} | {nvcc_s:.2f} | "
            f"{'-' if ms is None else f'{ms:.0f}'} | {res['wall']:.2f} | {res['cpu']:.2f} | {status} | "
            f"{len(obj.get('races') or [])} | {reason} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptxmm", default="build/app/ptxmm")
    ap.add_argument("--timeout", type=float, default=60, help="ptxmm --timeout per check (seconds)")
    ap.add_argument("--out", default="")
    ap.add_argument("--cases", action="store_true", help="only the cases table")
    ap.add_argument("--families", action="store_true", help="only the scaling families")
    ap.add_argument("--ctas", default="1,2,4,8")
    ap.add_argument("--threads", default="32,64,128,256,512,1024")
    args = ap.parse_args()
    nvcc = run_cases.find_nvcc()
    if nvcc is None:
        sys.exit("nvcc not found ($CUDA_HOME/bin, /usr/local/cuda/bin, PATH): the kernel table needs it")
    both = not args.cases and not args.families
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    lines = [f"# ptxmm kernel table ({datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')})", "",
             f"* machine: {machine()} (load average {load} when the run started)",
             f"* command: `{' '.join([sys.argv[0]] + sys.argv[1:])}`",
             f"* ptxmm: `{args.ptxmm}`, nvcc: `{nvcc}`", ""]
    with tempfile.TemporaryDirectory(prefix="ptxmm-kbench-") as tmp:
        if both or args.cases:
            table, results = cases_table(args.ptxmm, nvcc, args.timeout, tmp)
            lines += ["## cases/kernels (the .ptx nvcc emits, at each header's launch)", ""] + table + summary(results, args.timeout)
        if both or args.families:
            lines += ["", "## Scaling families (bench/kernels.py for the kernels)", ""]
            lines += family_table(args.ptxmm, nvcc, args.timeout, tmp, [int(x) for x in args.ctas.split(",")],
                                  [int(x) for x in args.threads.split(",")])
    print("\n".join(lines))
    if args.out:  # the table, also as a file (bench/results/kernels.md)
        pathlib.Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
