#!/usr/bin/env python3
"""A stand-in for `ptxmm kernel ... --json` that answers from canned JSON, for testing run-cases.py.

$FAKE_PTXMM_SPEC names a JSON file {KEY: {"rc": N, "json": OBJECT | [OBJECTS], "stdout": "raw text"}} where KEY
is the input's file name ("case.ptx"), else its stem ("case"); "stderr": TEXT is written to stderr (an answer
with neither "json" nor "stdout" prints nothing on stdout: a refused input); "sleep": S makes it wait S seconds
first (a ptxmm that does not stop in time). With $FAKE_PTXMM_LOG set, every call appends its argument vector
(one JSON list per line) to that file, so a test can check what the runner passed.
"""

import json
import os
import sys
import time


def main():
    args = sys.argv[1:]
    if os.environ.get("FAKE_PTXMM_LOG"):
        with open(os.environ["FAKE_PTXMM_LOG"], "a") as log:
            log.write(json.dumps(args) + "\n")
    if len(args) < 2 or args[0] != "kernel":
        print("fake-ptxmm: usage: kernel FILE ARGS...", file=sys.stderr)
        return 2
    with open(os.environ["FAKE_PTXMM_SPEC"]) as f:
        spec = json.load(f)
    name = os.path.basename(args[1])
    answer = spec.get(name) or spec.get(os.path.splitext(name)[0])
    if answer is None:
        print(f"fake-ptxmm: no canned answer for {name}", file=sys.stderr)
        return 4
    time.sleep(answer.get("sleep", 0))
    sys.stderr.write(answer.get("stderr", ""))
    if "stdout" in answer:
        sys.stdout.write(answer["stdout"])
    elif "json" in answer:
        objects = answer["json"] if isinstance(answer["json"], list) else [answer["json"]]
        for obj in objects:
            print(json.dumps(obj))
    return answer.get("rc", 0)


if __name__ == "__main__":
    sys.exit(main())
