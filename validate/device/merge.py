#!/usr/bin/env python3
"""Merges the reports of several device calls (each $OUT of validate/device/run.sh) into cases/hw/h100.{json,txt}.

Usage: validate/device/merge.py OUT_DIR... [--peers-root ../shared/peers/dat3m/litmus]
Peer tests were copied to .tools/device/peers/DIR-NAME.litmus by prepare.sh; their `file` fields are rewritten to
the corpus path beside the checkout (PEERS_ROOT/PTX/DIR/NAME.litmus), which `ptxmm validate --compare` finds when
../shared/peers exists and skips otherwise. The text report is every call's h100.txt followed by the refusals
(each call's stderr.txt), so nothing the runs said is dropped.
"""
import argparse
import json
import os

ap = argparse.ArgumentParser()
ap.add_argument("outs", nargs="+")
ap.add_argument("--peers-root", default="../shared/peers/dat3m/litmus")
ap.add_argument("--dest", default="cases/hw")
args = ap.parse_args()

merged, text, refusals = None, [], []
for out in args.outs:
    with open(os.path.join(out, "h100.json")) as f:
        report = json.load(f)
    for t in report["tests"]:
        path = t.get("file", "")
        if path.startswith(".tools/device/peers/"):
            folder, name = os.path.basename(path).split("-", 1)
            t["file"] = os.path.join(args.peers_root, "PTX", folder, name)
    if merged is None:
        merged = report
    else:
        if (report["seed"], report["params"]) != (merged["seed"], merged["params"]):
            raise SystemExit(f"{out}: another seed or parameter set than the first report")
        merged["tests"] += report["tests"]
    with open(os.path.join(out, "h100.txt")) as f:
        text.append(f.read())
    with open(os.path.join(out, "stderr.txt")) as f:
        refusals += [line for line in f.read().splitlines() if line.strip()]

os.makedirs(args.dest, exist_ok=True)
with open(os.path.join(args.dest, "h100.json"), "w") as f:
    json.dump(merged, f, indent=1)
    f.write("\n")
with open(os.path.join(args.dest, "h100.txt"), "w") as f:
    f.write("".join(text))
    f.write(f"\nRefused or not run ({len(refusals)}):\n" + "\n".join(refusals) + "\n")
print(f"{len(merged['tests'])} tests -> {args.dest}/h100.json, {args.dest}/h100.txt")
