#!/usr/bin/env python3
"""The GPU column of cases/kernels/README.md from a run of validate/device/kernels.sh.

Reads the file that `kernels.sh run` wrote ($OUT/kernels.txt: `== CASE rc RC runs N` then what the program
printed, per distinct output) and each case's header (its `--assert`s and `ptxmm-expect` lines), evaluates every
assertion on the values the GPU printed, and rewrites the table's last column ("GPU run") with what the hardware
showed beside the model's verdict: the values and how many runs printed them, whether each assertion held, a
hang. An assertion the model says holds that failed on the GPU, a value outside the model's permitted final
values (`observe`), a hang the model does not expect or a program that failed is marked FINDING (and listed on
stdout); a kernel whose assertion the model says fails but that printed the right values only shows that its
weak outcome was not seen in those runs (one launch is one schedule, not a verdict).

Usage: validate/device/kernels_table.py KERNELS_TXT [--readme cases/kernels/README.md] [--check]
(--check: print the column, write nothing).
"""
import argparse
import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def header(case: Path):
    """(asserts, expects) of a case: the --assert texts of its launch line and its ptxmm-expect lines."""
    asserts, expects = [], []
    for line in case.read_text().splitlines():
        if not line.startswith("//"):
            break
        m = re.match(r"//\s*ptxmm-launch:\s*(.*)", line)
        if m:
            words = shlex.split(m.group(1))
            asserts += [words[i + 1] for i, w in enumerate(words) if w == "--assert"]
        m = re.match(r"//\s*ptxmm-expect:\s*(.*)", line)
        if m:
            expects.append(m.group(1).strip())
    return asserts, expects


def runs(text: str):
    """{case: [(rc, count, [lines])]} from kernels.sh's output."""
    result, current = {}, None
    for line in text.splitlines():
        m = re.match(r"== (\S+) rc (\d+) runs (\d+)$", line)
        if m:
            current = []
            result.setdefault(m.group(1), []).append((int(m.group(2)), int(m.group(3)), current))
        elif current is not None and not re.match(r"\d+ cases, \d+ runs each", line):
            current.append(line)
    return result


def evaluate(expr: str, values: dict):
    """The assertion's truth on the printed values, or None when it reads an element the program did not print."""
    missing = []

    def element(m):
        key = f"{m.group(1)}[{m.group(2)}]"
        if key not in values:
            missing.append(key)
            return "0"
        return str(values[key])

    py = re.sub(r"([A-Za-z_]\w*)\[(\d+)\]", element, expr)
    py = py.replace("&&", " and ").replace("||", " or ")
    py = re.sub(r"!(?!=)", " not ", py)
    if missing or not re.fullmatch(r"[\d\s=<>!()andortn+\-*]*", py):
        return None
    return bool(eval(py, {"__builtins__": {}}))  # digits, comparisons and and/or/not only (checked above)


def column(case: str, asserts, expects, outputs):
    """(cell text, finding or None) for one case."""
    if not outputs:
        return "not run", None
    total = sum(n for _, n, _ in outputs)
    expect_hang = any(e.startswith("hang") for e in expects)
    claims = [e.split()[1] for e in expects if e.startswith("assert ")]  # holds|fails, one per --assert
    observe = {e.split()[1]: e.split()[2].split(",") for e in expects if e.startswith("observe ")}
    parts, finding = [], None
    for rc, n, lines in outputs:
        values = {}
        for line in lines:
            m = re.match(r"(\w+\[\d+\])=(-?[\d.e+\-]+)$", line.strip())
            if m:
                values[m.group(1)] = m.group(2)
        shown = ", ".join(f"`{k}={v}`" for k, v in values.items())
        if any(l.startswith("HANG") for l in lines):
            text = "HANG (watchdog)"
            if not expect_hang:
                finding = f"{case}: hung on the GPU; the model expects no hang"
        elif rc != 0:
            text = f"exit {rc}: `{' '.join(lines)[:80]}`"
            finding = f"{case}: the program failed on the GPU (exit {rc})"
        else:
            text = shown or "(nothing printed)"
            for k, a in enumerate(asserts):
                held = evaluate(a, values)
                text += "; assert " + ("not printed" if held is None else "holds" if held else "FAILS")
                if held is False and k < len(claims) and claims[k] == "holds":
                    finding = f"{case}: the model says `{a}` holds in every execution, the GPU printed {shown}"
            for loc, permitted in observe.items():
                if loc in values and values[loc] not in permitted:
                    finding = f"{case}: the GPU printed {loc}={values[loc]}, outside the model's final values {{{','.join(permitted)}}}"
        parts.append(f"{text} ({n}/{total})")
    if expect_hang and not any("HANG" in p for p in parts):
        parts.append("no hang seen")
    cell = "; ".join(parts)
    return ("FINDING: " + cell if finding else cell), finding


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels_txt")
    ap.add_argument("--readme", default=str(ROOT / "cases/kernels/README.md"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    seen = runs(Path(args.kernels_txt).read_text())
    readme = Path(args.readme)
    lines = readme.read_text().splitlines()
    findings, done = [], 0
    for i, line in enumerate(lines):
        m = re.match(r"\| \[([\w.+\-]+)\]\(\1\.cu\) \|", line)
        if not m:
            continue
        case = m.group(1)
        asserts, expects = header(readme.parent / f"{case}.cu")
        cell, finding = column(case, asserts, expects, seen.get(case, []))
        cells = line.split(" | ")
        cells[-1] = cell + " |"
        lines[i] = " | ".join(cells)
        done += case in seen
        if finding:
            findings.append(finding)
        if args.check:
            print(f"{case}: {cell}")
    if not args.check:
        readme.write_text("\n".join(lines) + "\n")
    print(f"{done} cases with GPU results; {len(findings)} finding(s)")
    for f in findings:
        print("FINDING", f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
