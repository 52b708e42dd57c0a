#!/usr/bin/env python3
"""Merges the reports of device calls (each $OUT of validate/device/run.sh) into cases/hw/NAME.{json,txt}.

Usage: validate/device/merge.py OUT_DIR... [--name h100] [--date YYYY-MM-DD] [--update] [--params-file FILE]
                                [--peers-root ../shared/peers/dat3m/litmus] [--dest cases/hw]

Every OUT_DIR holds NAME.json, NAME.txt and stderr.txt of one run.sh call; all of them must have used one seed
and one parameter set (one run). The JSON report is {"tool", "runs": [{date, seed, params, params_file,
tests}], "tests": [...]}: with --update the tests of an existing DEST/NAME.json that this run re-ran (same
file) are replaced and its other tests and runs are kept, so a report can grow a campaign at a time; without
it the report holds this run alone. --params-file names the committed copy of the parameter file the run was
given (the device path in each test's replay line is rewritten to it). Peer tests were copied to
.tools/device/peers/DIR-NAME.litmus by prepare.sh; their `file` fields are rewritten to the corpus path beside
the checkout (PEERS_ROOT/PTX/DIR/NAME.litmus), which `ptxmm validate --compare` finds when ../shared/peers
exists and skips otherwise. The text report is every call's NAME.txt followed by the refusals (each call's
stderr.txt), so nothing the runs said is dropped; with --update it is appended to the existing text under a
header naming the run. The device's temporary build folder (run.sh's mktemp -d) is written $WORK.
"""
import argparse
import json
import os
import re

TEMP_FOLDER = re.compile(r"[/]tmp[/]tmp\.\w+[/]")  # what mktemp -d makes on the device


def scrub(text):
    """The device's temporary build folder, a name of no use here, as $WORK."""
    return TEMP_FOLDER.sub("$WORK/", text)

ap = argparse.ArgumentParser()
ap.add_argument("outs", nargs="+")
ap.add_argument("--name", default="h100")
ap.add_argument("--date", required=True, help="the day of the run, for the report's record")
ap.add_argument("--update", action="store_true")
ap.add_argument("--params-file", default="")
ap.add_argument("--peers-root", default="../shared/peers/dat3m/litmus")
ap.add_argument("--dest", default="cases/hw")
args = ap.parse_args()

tests, text, refusals, seed, params = [], [], [], None, None
for out in args.outs:
    with open(os.path.join(out, f"{args.name}.json")) as f:
        report = json.loads(scrub(f.read()))
    if seed is None:
        seed, params = report["seed"], report["params"]
    elif (report["seed"], report["params"]) != (seed, params):
        raise SystemExit(f"{out}: another seed or parameter set than the first report")
    for t in report["tests"]:
        path = t.get("file", "")
        if path.startswith(".tools/device/peers/"):
            folder, name = os.path.basename(path).split("-", 1)
            t["file"] = os.path.join(args.peers_root, "PTX", folder, name)
        if args.params_file and "replay" in t:
            t["replay"] = re.sub(r"--params \S+", "--params " + args.params_file, t["replay"])
        tests.append(t)
    with open(os.path.join(out, f"{args.name}.txt")) as f:
        run_text = scrub(f.read())
    if args.params_file:
        run_text = re.sub(r"--params \S+", "--params " + args.params_file, run_text)
    text.append(run_text)
    with open(os.path.join(out, "stderr.txt")) as f:
        refusals += [line for line in scrub(f.read()).splitlines() if line.strip()]

run = {"date": args.date, "seed": seed, "params": params, "params_file": args.params_file, "tests": len(tests)}
json_path = os.path.join(args.dest, f"{args.name}.json")
text_path = os.path.join(args.dest, f"{args.name}.txt")
merged = {"tool": "ptxmm validate", "runs": [run], "tests": tests}
old_text = ""
if args.update and os.path.exists(json_path):
    with open(json_path) as f:
        old = json.load(f)
    # A report of one run written before "runs" existed has its seed and parameters at the top level.
    runs = old.get("runs") or [{"date": "", "seed": old.get("seed"), "params": old.get("params"), "params_file": "",
                                "tests": len(old["tests"])}]
    rerun = {t["file"] for t in tests}
    kept = [t for t in old["tests"] if t.get("file") not in rerun]
    merged = {"tool": "ptxmm validate", "runs": runs + [run], "tests": kept + tests}
    with open(text_path) as f:
        old_text = f.read() + f"\n==== run of {args.date} (seed {seed}) ====\n\n"

os.makedirs(args.dest, exist_ok=True)
with open(json_path, "w") as f:
    json.dump(merged, f, indent=1)
    f.write("\n")
with open(text_path, "w") as f:
    f.write(old_text + "".join(text))
    f.write(f"\nRefused or not run ({len(refusals)}):\n" + "\n".join(refusals) + "\n")
print(f"{len(tests)} tests of this run, {len(merged['tests'])} in {json_path}; text in {text_path}")
