#!/usr/bin/env python3
"""The README's hardware table of the Hopper-era cases, from the stored reports.

Usage: validate/device/table.py cases/hw/h100.json cases/hw/h200.json [--prefix HOP+]

Prints two Markdown tables. The first has one row per test whose condition the model forbids (the correct
synchronisation of a pattern): how often its target outcome was seen on each chip (0 is the model's answer),
and its allowed sibling (the broken variant the case names, or a mechanical weakening) with the rate per second
of that sibling's weak outcome on each chip, or "not seen" (the row is then inconclusive: the run shows nothing
about the harness's power there). The second has one row per allowed test: its weak (target) outcome's count and
rate on each chip. Tests the harness refuses are listed last with the reason.
"""
import argparse
import json
import re

ap = argparse.ArgumentParser()
ap.add_argument("h100")
ap.add_argument("h200")
ap.add_argument("--prefix", default="HOP+")
args = ap.parse_args()


def load(path):
    with open(path) as f:
        return {t["name"]: t for t in json.load(f)["tests"] if t["name"].startswith(args.prefix)}


def short(n):
    return f"{n:.2g}" if n >= 1000 else str(n)


def target(t):
    """Instances showing the outcome the condition asks about (the proposition; its negation for forall)."""
    return t.get("negative", 0) if t["condition"]["kind"] == "forall" else t.get("positive", 0)


def cell(t):
    if t is None or t["status"] in ("refused", "error"):
        return "not run"
    n, total, secs = target(t), t["instances"], t["seconds"]
    return f"{short(n)} / {short(total)}" + (f" ({n / secs:.2g}/s)" if n and secs else "")


def sibling_name(s):
    """The described sibling's name, or the mechanical weakening in short: `instruction` removed / relaxed."""
    origin = s.get("origin", "")
    if not origin.startswith("weakened: "):
        return s.get("name", "—") if not s.get("problem") or "no weakening" not in s["problem"] else "none the model allows"
    changes = []
    for change in origin[len("weakened: "):].split("; "):
        what = change.split(": ", 1)[-1]
        if what.endswith(" removed"):
            changes.append(f"`{what[:-len(' removed')]}` removed")
        else:
            changes.append(f"`{what.split(' -> ')[0]}` relaxed")
    return "weakened: " + ", ".join(dict.fromkeys(changes))


def sibling(t):
    s = t.get("sibling") if t else None
    if not s:
        return "—"
    if s.get("problem"):
        return "not run"
    if not s.get("seen"):
        return "not seen"
    return f"{s['target_count'] / s['seconds']:.2g}/s"


h1, h2 = load(args.h100), load(args.h200)
names = sorted(set(h1) | set(h2))
forbidden = [n for n in names if h1.get(n, {}).get("sibling_required")]
allowed = [n for n in names if n not in forbidden and h1.get(n, {}).get("status") not in ("refused", "error")]
refused = [n for n in names if h1.get(n, {}).get("status") in ("refused", "error")]

print("| forbidden test (the pattern) | H100 target / instances | H200 target / instances | allowed sibling | sibling weak/s H100 | H200 |")
print("|---|---|---|---|---|---|")
for n in forbidden:
    name = sibling_name(h1[n].get("sibling") or {})
    print(f"| {n} | {cell(h1.get(n))} | {cell(h2.get(n))} | {name} | {sibling(h1.get(n))} | {sibling(h2.get(n))} |")
print()
print("| allowed test | H100 weak / instances (rate) | H200 weak / instances (rate) |")
print("|---|---|---|")
for n in allowed:
    print(f"| {n} | {cell(h1.get(n))} | {cell(h2.get(n))} |")
print()
for n in refused:
    reason = re.sub(r"^.*unsupported on hardware: ", "", h1[n].get("reason", "")).split("\n")[0]
    print(f"- {n}: {reason}")
