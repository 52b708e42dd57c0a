#!/usr/bin/env python3
"""Checks `ptxmm kernel` against the hand-derived verdicts of cases/kernels/*.cu.

Every case starts with a header (see cases/kernels/README.md):

    // ptxmm-launch: --grid 2 --block 64 --arg out=int32[1] --assert 'out[0]==42'
    // ptxmm-expect: race 23 41 no-synchronisation
    // ptxmm-expect: assert fails
    // ptxmm-expect: exit 1

A launch ptxmm must refuse (input outside the model) says `ptxmm-expect: error LINE TEXT` and `exit 2` instead:
ptxmm must print no JSON and report `FILE:LINE:COL: error: ...` on the case's own LINE, the message containing TEXT.

For each case the runner runs `PTXMM kernel FILE.cu <launch> --json`, compiles FILE.cu to PTX with nvcc
(-arch=sm_90a -lineinfo -ptx, into a temporary directory), runs `PTXMM kernel FILE.ptx <launch> --json`, and
compares both answers with the expectations (issue 18's JSON: races by unordered source-line pair and kind,
assertions in order, observed value sets, hang lines, exit code). One line per case, PASS or FAIL with the
differences; exit 0 when all pass, 1 otherwise, 77 when nvcc is missing, 2 on bad usage.

`--known-gaps FILE` names the (case, form) pairs `ptxmm kernel` does not decide yet, one `CASE FORM CLASS TEXT`
line each (tests/kernels/known-gaps.txt; its header says what the classes mean). A listed pair is KNOWN while it
still fails the way its line says (UNKNOWN with nothing decided wrongly; killed at the time limit; a given wrong
verdict); any other answer fails it (a different wrong verdict, a crash), and a listed pair that passes now is
STALE, a failure too: take its line out. `--ptxmm-timeout S` gives ptxmm its own --timeout, so that a case it
cannot decide ends UNKNOWN by itself within the runner's `--timeout`. `--write-gaps FILE` writes the list for
this run (every pair that did not pass, as what it is now).

`--lint` needs no ptxmm: it checks every header and that each line named by a race expectation carries a memory
access (and each hang line a barrier, wait or branch) in nvcc's PTX (line attribution through `.loc ... inlined_at` chains,
the way the kernel reader must do it), so the corpus can be checked on its own. Standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

RACE_KINDS = ("no-synchronisation", "scope-too-narrow", "different-proxies", "partial-overlap")
KIND_ALIASES = {
    "no-synchronization": "no-synchronisation",
    "unsync": "no-synchronisation",
    "scope": "scope-too-narrow",
    "proxy": "different-proxies",
    "different-proxy": "different-proxies",
    "mixed-size": "partial-overlap",
}
SKIP = 77


class HeaderError(Exception):
    """A malformed case header (the case fails; its author must fix it)."""


# ----------------------------------------------------------------------------------------------------------
# Header


def leading_comment_block(text):
    """The file's leading lines that are blank or `//` comments."""
    block = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("//"):
            break
        block.append(stripped)
    return block


def parse_value(text):
    """An observed value as written: an integer (any base Python accepts) or a float."""
    try:
        return int(text, 0)
    except ValueError:
        return float(text)


def parse_header(text):
    """The launch arguments and the expectations of a case, from its leading comment block."""
    launch = None
    exp = {"races": set(), "race_free": False, "asserts": [], "observe": {}, "hangs": set(), "exit": None,
           "source": None, "error": None}
    for line in leading_comment_block(text):
        body = line[2:].strip() if line.startswith("//") else line
        m = re.match(r"ptxmm-(launch|expect|source):\s*(.*)$", body)
        if not m:
            continue
        key, rest = m.group(1), m.group(2).strip()
        if key == "source":  # a .ptx case: the file its .loc lines name (e.g. the Triton program)
            exp["source"] = rest
            continue
        if key == "launch":
            if launch is not None:
                raise HeaderError("more than one ptxmm-launch line")
            try:
                launch = shlex.split(rest)
            except ValueError as e:
                raise HeaderError(f"ptxmm-launch: {e}")
            continue
        words = rest.split()
        if not words:
            raise HeaderError("empty ptxmm-expect line")
        verb = words[0]
        if verb == "race" and len(words) == 4:
            try:
                a, b = int(words[1]), int(words[2])
            except ValueError:
                raise HeaderError(f"race lines must be numbers: {rest}")
            kind = normalise_kind(words[3])
            if kind not in RACE_KINDS:
                raise HeaderError(f"unknown race kind '{words[3]}' (one of {', '.join(RACE_KINDS)})")
            exp["races"].add((min(a, b), max(a, b), kind))
        elif verb == "race-free" and len(words) == 1:
            exp["race_free"] = True
        elif verb == "assert" and len(words) == 2 and words[1] in ("holds", "fails"):
            exp["asserts"].append(words[1] == "holds")
        elif verb == "observe" and len(words) == 3:
            loc = normalise_loc(words[1])
            if loc in exp["observe"]:
                raise HeaderError(f"observe {loc} given twice")
            try:
                exp["observe"][loc] = {parse_value(v) for v in words[2].split(",")}
            except ValueError:
                raise HeaderError(f"observe values must be numbers: {rest}")
        elif verb == "hang" and len(words) == 2 and words[1].isdigit():
            exp["hangs"].add(int(words[1]))
        elif verb == "error" and len(words) >= 3 and words[1].isdigit():
            if exp["error"] is not None:
                raise HeaderError("more than one error expectation")
            exp["error"] = (int(words[1]), rest.split(None, 2)[2])
        elif verb == "exit" and len(words) == 2 and words[1].isdigit():
            if exp["exit"] is not None:
                raise HeaderError("more than one exit expectation")
            exp["exit"] = int(words[1])
        else:
            raise HeaderError(f"cannot read 'ptxmm-expect: {rest}'")
    if launch is None:
        raise HeaderError("no ptxmm-launch line in the leading comment block")
    check_header(launch, exp)
    return launch, exp


def launch_options(launch, name):
    """The values of every `name VALUE` pair of the launch arguments (also `name=VALUE`)."""
    values = []
    for i, word in enumerate(launch):
        if word == name and i + 1 < len(launch):
            values.append(launch[i + 1])
        elif word.startswith(name + "="):
            values.append(word[len(name) + 1:])
    return values


def check_header(launch, exp):
    """Expectations that contradict each other or the launch are authoring mistakes."""
    if exp["exit"] is None:
        raise HeaderError("no 'exit N' expectation")
    if exp["error"] is not None:
        # A refused launch has no verdicts: it is an error (exit 2) and nothing else.
        if exp["exit"] != 2:
            raise HeaderError(f"exit {exp['exit']} contradicts the error expectation (expected exit 2)")
        if exp["races"] or exp["race_free"] or exp["hangs"] or exp["asserts"] or exp["observe"]:
            raise HeaderError("an error expectation excludes every verdict (race, assert, observe, hang)")
        if launch_options(launch, "--assert") or launch_options(launch, "--observe"):
            raise HeaderError("an error expectation excludes --assert and --observe")
        if not launch_options(launch, "--grid") or not launch_options(launch, "--block"):
            raise HeaderError("ptxmm-launch needs --grid and --block")
        return
    if exp["race_free"] == bool(exp["races"]):
        raise HeaderError("say either 'race-free' or list the races")
    if not launch_options(launch, "--grid") or not launch_options(launch, "--block"):
        raise HeaderError("ptxmm-launch needs --grid and --block")
    n_asserts = len(launch_options(launch, "--assert"))
    if n_asserts != len(exp["asserts"]):
        raise HeaderError(f"{n_asserts} --assert but {len(exp['asserts'])} assert expectations")
    observed = {normalise_loc(o) for o in launch_options(launch, "--observe")}
    if observed != set(exp["observe"]):
        raise HeaderError(f"--observe {sorted(observed)} but observe expectations for {sorted(exp['observe'])}")
    bad = exp["races"] or exp["hangs"] or not all(exp["asserts"])
    if exp["exit"] != 3 and exp["exit"] != (1 if bad else 0):
        raise HeaderError(f"exit {exp['exit']} contradicts the expectations (expected exit {1 if bad else 0})")


def normalise_kind(kind):
    k = str(kind).strip().lower().replace("_", "-").replace(" ", "-")
    return KIND_ALIASES.get(k, k)


def normalise_loc(loc):
    return re.sub(r"\s+", "", str(loc))


# ----------------------------------------------------------------------------------------------------------
# ptxmm's answer


def parse_json_objects(text):
    """ptxmm --json prints one object per kernel (one per line, or a list)."""
    text = text.strip()
    if not text:
        return []
    try:
        value = json.loads(text)
        return value if isinstance(value, list) else [value]
    except json.JSONDecodeError:
        pass
    objects, decoder, i = [], json.JSONDecoder(), 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        value, i = decoder.raw_decode(text, i)
        objects.append(value)
    return objects


def position_line(pos):
    """(file, line) of a reported position: an object {file, line, ...} or a string FILE:LINE[:COL]."""
    if isinstance(pos, dict) and "line" in pos:
        return pos.get("file", ""), int(pos["line"])
    if isinstance(pos, str):
        m = re.match(r"(.*?):(\d+)(?::\d+)?\b", pos)
        if m:
            return m.group(1), int(m.group(2))
    return None


def hang_positions(hang):
    """The stuck positions of one reported hang: its own `line`, or those under instruction-like keys."""
    direct = position_line(hang)
    if direct:
        return [direct]
    found = []
    if isinstance(hang, dict):
        for key in ("at", "position", "instruction", "instructions", "stuck", "where", "first"):
            value = hang.get(key)
            for item in value if isinstance(value, list) else [value]:
                p = position_line(item)
                if p:
                    found.append(p)
    return found


def same_file(reported, case_file):
    """A reported position is in the case's own source (a position without a file is taken to be)."""
    return not reported or os.path.basename(reported) == os.path.basename(case_file)


def compare(exp, rc, obj, case_file):
    """The differences between the expectations and one ptxmm answer (empty: it passes)."""
    case_file = exp["source"] or case_file  # where reported positions must be
    diffs = []
    if rc != exp["exit"]:
        reason = f" ({obj.get('reason')})" if obj and obj.get("reason") else ""
        diffs.append(f"exit {rc}, expected {exp['exit']}{reason}")
    if obj is None:
        return diffs
    status = obj.get("status")
    if exp["exit"] in (0, 1) and status != "ok":
        diffs.append(f"status {status}, expected ok" + (f" ({obj.get('reason')})" if obj.get("reason") else ""))

    got = set()
    for race in obj.get("races") or []:
        ends = [position_line(race.get(k)) for k in ("first", "second")]
        if None in ends:
            diffs.append(f"race without two positions: {json.dumps(race)[:200]}")
            continue
        for f, line in ends:
            if not same_file(f, case_file):
                diffs.append(f"race position {f}:{line} is not in {os.path.basename(case_file)}")
        a, b = ends[0][1], ends[1][1]
        got.add((min(a, b), max(a, b), normalise_kind(race.get("kind"))))
    for r in sorted(exp["races"] - got):
        diffs.append(f"missing race {r[0]} {r[1]} {r[2]}")
    for r in sorted(got - exp["races"]):
        diffs.append(f"unexpected race {r[0]} {r[1]} {r[2]}")

    asserts = obj.get("assertions") or []
    if len(asserts) != len(exp["asserts"]):
        diffs.append(f"{len(asserts)} assertions reported, expected {len(exp['asserts'])}")
    for i, (a, want) in enumerate(zip(asserts, exp["asserts"])):
        if bool(a.get("holds")) != want:
            diffs.append(f"assert {i + 1} ({a.get('text', '?')}) {'holds' if a.get('holds') else 'fails'}, "
                         f"expected {'holds' if want else 'fails'}")

    observed = {normalise_loc(k): v for k, v in (obj.get("observed") or {}).items()}
    for loc, want in exp["observe"].items():
        if loc not in observed:
            diffs.append(f"observe {loc} not reported")
            continue
        try:
            values = {parse_value(str(v)) for v in observed[loc]}
        except ValueError:
            diffs.append(f"observe {loc}: unreadable values {observed[loc]}")
            continue
        if values != want:
            diffs.append(f"observe {loc} = {fmt_values(values)}, expected {fmt_values(want)}")

    lines = set()
    for hang in obj.get("hangs") or []:
        positions = hang_positions(hang)
        if not positions:
            diffs.append(f"hang without a position: {json.dumps(hang)[:200]}")
        for f, line in positions:
            if not same_file(f, case_file):
                diffs.append(f"hang position {f}:{line} is not in {os.path.basename(case_file)}")
            lines.add(line)
    if lines != exp["hangs"]:
        diffs.append(f"hangs at {fmt_values(lines) or 'none'}, expected {fmt_values(exp['hangs']) or 'none'}")
    return diffs


ERROR_LINE = re.compile(r"(?P<file>\S+?):(?P<line>\d+):(?P<col>\d+): error: (?P<text>.*)")


def compare_error(exp, rc, obj, stderr, case_file):
    """The differences between an error expectation and one ptxmm answer (empty: it passes)."""
    line, text = exp["error"]
    case_file = exp["source"] or case_file  # where the reported position must be
    diffs = []
    if rc != 2:
        diffs.append(f"exit {rc}, expected 2 (an error at line {line})")
    if obj is not None:
        diffs.append("a JSON answer, expected an error and no answer")
    errors = [m for m in map(ERROR_LINE.search, (stderr or "").splitlines()) if m]
    if not errors:
        diffs.append(f"no 'FILE:LINE:COL: error:' message, expected one at line {line}")
    elif not any(same_file(m["file"], case_file) and int(m["line"]) == line and text in m["text"] for m in errors):
        m = errors[0]
        diffs.append(f"error at {os.path.basename(m['file'])}:{m['line']}: {m['text'][:200]}; expected one at line "
                     f"{line} containing '{text}'")
    return diffs


def fmt_values(values):
    return ",".join(str(v) for v in sorted(values, key=lambda v: (isinstance(v, float), v)))


# ----------------------------------------------------------------------------------------------------------
# Tools


def find_nvcc(explicit=None):
    """nvcc as `ptxmm validate` finds it: $CUDA_HOME/bin, /usr/local/cuda/bin, PATH (or --nvcc)."""
    if explicit:
        candidates = [explicit]
    else:
        home = os.environ.get("CUDA_HOME")
        candidates = [home and os.path.join(home, "bin", "nvcc"), "/usr/local/cuda/bin/nvcc", shutil.which("nvcc")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def compile_ptx(nvcc, case_file, out_dir, timeout):
    """FILE.cu -> out_dir/FILE.ptx with the flags `ptxmm kernel` uses; (path, None) or (None, error)."""
    ptx = os.path.join(out_dir, os.path.splitext(os.path.basename(case_file))[0] + ".ptx")
    try:
        r = subprocess.run([nvcc, "-arch=sm_90a", "-lineinfo", "-ptx", case_file, "-o", ptx],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"nvcc timed out after {timeout} s"
    if r.returncode != 0:
        return None, "nvcc failed: " + (r.stderr.strip().splitlines() or ["?"])[-1]
    return ptx, None


def run_ptxmm(ptxmm, source, launch, timeout, own_timeout=None):
    """(exit code, the kernel's JSON object or None, problem or None, stderr). `own_timeout`: ptxmm's --timeout."""
    cmd = [ptxmm, "kernel", source] + launch + (["--timeout", f"{own_timeout:g}"] if own_timeout else []) + ["--json"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, f"timed out after {timeout} s", ""
    except OSError as e:
        return None, None, f"cannot run {ptxmm}: {e}", ""
    try:
        objects = parse_json_objects(r.stdout)
    except json.JSONDecodeError:
        objects = None
    if not objects:
        tail = (r.stderr.strip().splitlines() or ["(no output)"])[-1]
        return r.returncode, None, f"exit {r.returncode}, no JSON: {tail}", r.stderr
    if len(objects) != 1:
        return r.returncode, None, f"{len(objects)} kernel objects, expected one", r.stderr
    return r.returncode, objects[0], None, r.stderr


# ----------------------------------------------------------------------------------------------------------
# Lint: the expectations against nvcc's PTX, without ptxmm


# A memory access (what a race names; ld.param reads the kernel's parameters, not memory) and what a stuck
# thread can sit on (a barrier, an mbarrier wait, a branch of a loop).
MEMORY_ACCESS = re.compile(r"^(@!?%\w+\s+)?(ld(?!\.param)|st|atom|red|cp\.|mbarrier|tensormap|wgmma|multimem)")
CAN_BLOCK = re.compile(r"^(@!?%\w+\s+)?(bar|barrier|mbarrier|bra|nanosleep)\b")


def ptx_kernel_lines(ptx_text, case_file):
    """{source line of the case: [PTX instructions]} with every instruction attributed to the outermost
    `inlined_at` of its `.loc` (the kernel's own line), resolved the way nvcc lays it out: an `inlined_at`
    location refers to the most recent `.loc` of that location."""
    files, parent, current, lines = {}, {}, None, {}
    for line in ptx_text.splitlines():
        m = re.match(r'\s*\.file\s+(\d+)\s+"([^"]+)"', line)
        if m:
            files[m.group(1)] = m.group(2)
    for line in ptx_text.splitlines():
        m = re.match(r"\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(.*)", line)
        if m:
            loc = (m.group(1), int(m.group(2)), int(m.group(3)))
            at = re.search(r"inlined_at\s+(\d+)\s+(\d+)\s+(\d+)", m.group(4))
            if at:
                parent[loc] = (at.group(1), int(at.group(2)), int(at.group(3)))
            else:
                parent.pop(loc, None)
            current = loc
            continue
        text = line.split("//")[0].strip()
        if not text or text.startswith(".") or text.endswith(":") or text in "{}" or current is None:
            continue
        outer, seen = current, set()
        while outer in parent and outer not in seen:
            seen.add(outer)
            outer = parent[outer]
        if same_file(files.get(outer[0]), case_file):
            lines.setdefault(outer[1], []).append(text)
    return lines


def lint(case_file, exp, nvcc, tmp, timeout):
    """Differences between the expectations and what nvcc emits (lines without such instructions); a .ptx case
    is its own PTX."""
    ptx, err = (case_file, None) if is_ptx_case(case_file) else compile_ptx(nvcc, case_file, tmp, timeout)
    if err:
        return [err]
    with open(ptx) as f:
        lines = ptx_kernel_lines(f.read(), exp["source"] or case_file)
    with open(case_file) as f:
        kernels = len(re.findall(r"\.entry\b" if is_ptx_case(case_file) else r"\b__global__\b", f.read()))
    diffs = [] if kernels == 1 else [f"{kernels} kernels, a case has exactly one"]
    for line in sorted({l for r in exp["races"] for l in r[:2]}):
        if not any(MEMORY_ACCESS.match(i) for i in lines.get(line, [])):
            diffs.append(f"race line {line}: no memory access there in nvcc's PTX")
    for line in sorted(exp["hangs"]):
        if not any(CAN_BLOCK.match(i) for i in lines.get(line, [])):
            diffs.append(f"hang line {line}: no barrier, wait or branch there in nvcc's PTX")
    return diffs


# ----------------------------------------------------------------------------------------------------------
# Driver


GAP_CLASSES = ("unknown", "slow", "killed", "wrong")


def read_known_gaps(path):
    """{(case file name, form): (class, text)} from a known-gaps file: `CASE FORM CLASS TEXT` lines, `#` comments.
    CLASS unknown: ptxmm ends the form UNKNOWN (TEXT: the reason it gives); slow: ptxmm decides it only with more
    time than --ptxmm-timeout gives on a loaded machine (it may pass or end UNKNOWN on a timeout, nothing else);
    killed: ptxmm does not stop by itself
    (TEXT: why), the runner kills it 10 s after its --ptxmm-timeout; wrong: a known wrong verdict, TEXT is one of the
    differences it must still show (e.g. `unexpected race 37 39 partial-overlap`)."""
    gaps = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split(None, 3)
            if len(words) < 4 or words[1] not in ("cu", "ptx") or words[2] not in GAP_CLASSES:
                raise HeaderError(f"{path}:{number}: expected 'CASE FORM CLASS TEXT' with FORM cu or ptx and CLASS "
                                  f"{', '.join(GAP_CLASSES)}")
            if (words[0], words[1]) in gaps:
                raise HeaderError(f"{path}:{number}: {words[0]} {words[1]} listed twice")
            gaps[(words[0], words[1])] = (words[2], words[3])
    return gaps


def gap_contradictions(exp, obj, case_file):
    """What an undecided answer decided wrongly: races, hangs or observed values the expectations do not have,
    assertions decided the other way."""
    wrong = []
    if obj.get("status") != "unknown":
        wrong.append(f"status {obj.get('status')}, expected unknown")
    for d in compare(exp, exp["exit"], obj, case_file):
        if d.startswith(("unexpected race", "race position", "race without", "hang position", "hang without")):
            wrong.append(d)
    lines = {p[1] for h in obj.get("hangs") or [] for p in hang_positions(h)}
    wrong += [f"hang at {line}, not expected" for line in sorted(lines - exp["hangs"])]
    for i, (a, want) in enumerate(zip(obj.get("assertions") or [], exp["asserts"])):
        if a.get("holds") is not None and bool(a["holds"]) != want:
            wrong.append(f"assert {i + 1} decided {'holds' if a['holds'] else 'fails'}, expected "
                         f"{'holds' if want else 'fails'}")
    observed = {normalise_loc(k): v for k, v in (obj.get("observed") or {}).items()}
    for loc, want in exp["observe"].items():
        try:
            extra = {parse_value(str(v)) for v in observed.get(loc, [])} - want
        except ValueError:
            extra = set(observed.get(loc, []))
        if extra:
            wrong.append(f"observe {loc} lists {fmt_values(extra)}, which the expectations forbid")
    return wrong


def check_form(case_file, form, launch, exp, args, nvcc, tmp):
    """(outcome, text, gap) for one form of a case: outcome 'pass', 'known', 'stale' or 'fail'; gap the
    (class, text) this run would list it with (None when it is not a gap: passed, or failed otherwise)."""
    name = os.path.basename(case_file)
    listed = args.gaps.get((name, form))
    source = case_file
    if form == "ptx" and not is_ptx_case(case_file):
        source, err = compile_ptx(nvcc, case_file, tmp, args.timeout)
        if err:
            return "fail", err, None
    timeout = args.timeout
    if listed and listed[0] == "killed" and args.ptxmm_timeout:
        timeout = min(timeout, args.ptxmm_timeout + 10)
    rc, obj, problem, stderr = run_ptxmm(args.ptxmm, source, launch, timeout, args.ptxmm_timeout)
    if rc is None:
        diffs = [problem]
    elif exp["error"] is not None:
        diffs = compare_error(exp, rc, obj, stderr, case_file)
    else:
        diffs = compare(exp, rc, obj, case_file) + ([problem] if problem else [])
    if not diffs:
        if listed and listed[0] == "slow":
            return "known", "slow: passed, with the time it had", None
        return ("stale", "passes now: take it off the known gaps", None) if listed else ("pass", "", None)
    # What this answer is, as a gap: UNKNOWN without a contradiction (exit 3, or exit 1 with only expected
    # findings), killed, or a wrong verdict.
    gap = None
    if rc is None and problem and problem.startswith("timed out"):
        gap = ("killed", f"ptxmm did not stop by itself within {timeout:g} s (its --timeout: {args.ptxmm_timeout})")
    elif obj is not None and rc in (1, 3) and obj.get("status") == "unknown" and exp["exit"] != 3:
        wrong = gap_contradictions(exp, obj, case_file)
        gap = ("wrong", wrong[0]) if wrong else ("unknown", obj.get("reason") or "(no reason given)")
    elif rc is not None and rc != 4 and obj is not None:
        gap = ("wrong", diffs[0])
    if not listed:
        return "fail", "; ".join(diffs) + (f" (a {gap[0]} gap, not in the known gaps)" if gap else ""), gap
    cls, text = listed
    if cls in ("slow", "killed") and gap and gap[0] == "unknown" and "timeout" in gap[1]:  # stopped in time today
        return "known", f"{cls}: {gap[1]}", gap
    if gap and gap[0] == cls and (cls != "wrong" or any(text in d for d in diffs)):
        return "known", f"{cls}: {gap[1] if cls != 'wrong' else text}", gap
    return "fail", f"listed as {cls} ({text}), but: " + "; ".join(diffs), gap


def is_ptx_case(case_file):
    """A case given as PTX (cases/kernels/triton): checked in that one form, nothing compiled."""
    return case_file.endswith(".ptx")


def check_case(case_file, args, nvcc):
    """(outcome and gap reason by form, the case's report line)."""
    name = os.path.basename(case_file)
    try:
        with open(case_file) as f:
            launch, exp = parse_header(f.read())
    except (OSError, HeaderError) as e:
        return {"header": ("fail", None)}, f"FAIL {name}: bad header: {e}"
    with tempfile.TemporaryDirectory(prefix="ptxmm-kcase-") as tmp:
        if args.lint:
            diffs = lint(case_file, exp, nvcc, tmp, args.timeout)
            return ({"lint": ("fail" if diffs else "pass", None)},
                    f"PASS {name}" if not diffs else f"FAIL {name}: " + "; ".join(diffs))
        outcomes, texts = {}, []
        for form in ["ptx"] if is_ptx_case(case_file) else args.forms:
            outcome, text, gap = check_form(case_file, form, launch, exp, args, nvcc, tmp)
            outcomes[form] = (outcome, gap)
            if outcome != "pass":
                texts.append(f"[{form}] {outcome.upper()} {text}" if outcome != "fail" else f"[{form}] {text}")
    worst = next(o for o in ("fail", "stale", "known", "pass") if o in {v[0] for v in outcomes.values()})
    return outcomes, f"{worst.upper()} {name}" + (": " + " ".join(texts) if texts else "")


def write_gaps(path, results):
    """A known-gaps file listing every (case, form) of this run that did not pass, as what it is now."""
    with open(path, "w") as f:
        f.write(GAPS_HEADER)
        for name, outcomes in results:
            for form, (_, gap) in outcomes.items():
                if gap is not None:
                    f.write(f"{name} {form} {gap[0]} {portable(gap[1])}\n")


def portable(text):
    """A reason without the folders of this machine: cases named from the project root, temporary folders gone."""
    text = re.sub(r"/\S*?/(cases/kernels/[\w.+-]+)", r"\1", " ".join(text.split()))
    return re.sub(r"/\S*?/ptxmm-kcase-\w+/", "", text)


GAPS_HEADER = """\
# The kernel cases `ptxmm kernel` does not decide yet, one `CASE FORM CLASS TEXT` line per case and form, checked by
# tests/kernels/run-cases.py --known-gaps (CTest kernel-cases). CLASS:
#   unknown  ptxmm ends it UNKNOWN (exit 3, or exit 1 with only expected findings) and decides nothing wrongly;
#            TEXT is the reason it gives (for the reader: the reason may change without failing the test)
#   slow     decided only with more time than --timeout 20 gives on a loaded machine: it must pass or end UNKNOWN
#            on a timeout (so a fast machine does not turn it STALE)
#   killed   ptxmm does not always stop by itself at its --timeout; the runner kills it 10 s later (ending UNKNOWN
#            on the timeout is accepted too: on a less loaded machine it may stop in time)
#   wrong    a known wrong verdict; TEXT must still be one of the differences it shows
# Any other answer fails the test; a listed case that passes is STALE, a failure too: take its line out.
# Regenerate: tests/kernels/run-cases.py build/app/ptxmm -j 2 --timeout 60 --ptxmm-timeout 20 --write-gaps FILE
"""


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    default_cases = os.path.normpath(os.path.join(here, "..", "..", "cases", "kernels"))
    p = argparse.ArgumentParser(description="Check `ptxmm kernel` against cases/kernels.")
    p.add_argument("paths", nargs="*", metavar="PTXMM [FILE.cu ...]",
                   help="the ptxmm binary (omit with --lint), then the cases (default: all of cases/kernels)")
    p.add_argument("--timeout", type=float, default=120, help="seconds per ptxmm or nvcc run (default 120)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="cases checked in parallel")
    p.add_argument("--nvcc", help="the nvcc to compile with (default: $CUDA_HOME/bin, /usr/local/cuda/bin, PATH)")
    p.add_argument("--forms", default="cu,ptx", help="inputs to give ptxmm: cu, ptx or cu,ptx (default)")
    p.add_argument("--known-gaps", metavar="FILE",
                   help="CASE FORM CLASS TEXT lines: pairs not decided yet (KNOWN while they still fail that way)")
    p.add_argument("--ptxmm-timeout", type=float, help="give ptxmm its own --timeout S")
    p.add_argument("--write-gaps", metavar="FILE", help="write the known gaps of this run to FILE")
    p.add_argument("--lint", action="store_true",
                   help="no ptxmm: check the headers and that expected lines carry instructions in nvcc's PTX")
    args = p.parse_args(argv)
    paths = list(args.paths)
    if not args.lint:
        if not paths:
            p.error("the path to ptxmm is required (or --lint)")
        args.ptxmm = paths.pop(0)
    args.forms = [f for f in args.forms.split(",") if f]
    if any(f not in ("cu", "ptx") for f in args.forms) or not args.forms:
        p.error("--forms takes cu, ptx or cu,ptx")
    triton = os.path.join(default_cases, "triton")
    files = paths or (sorted(os.path.join(default_cases, f) for f in os.listdir(default_cases) if f.endswith(".cu")) +
                      sorted(os.path.join(triton, f) for f in os.listdir(triton) if f.endswith(".ptx")))
    try:
        args.gaps = read_known_gaps(args.known_gaps) if args.known_gaps else {}
    except (OSError, HeaderError) as e:
        p.error(str(e))
    unknown_cases = sorted({c for c, _ in args.gaps} - {os.path.basename(f) for f in files})
    if unknown_cases and not paths:
        p.error(f"{args.known_gaps} lists cases that do not exist: {', '.join(unknown_cases)}")

    nvcc = find_nvcc(args.nvcc)
    if nvcc is None:
        print("SKIP: nvcc not found ($CUDA_HOME/bin, /usr/local/cuda/bin, PATH); the kernel cases need it")
        return SKIP

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda f: check_case(f, args, nvcc), files))
    for _, line in results:
        print(line)
    if args.write_gaps:
        write_gaps(args.write_gaps, [(os.path.basename(f), r[0]) for f, r in zip(files, results)])
    counts = {o: sum(1 for outcomes, _ in results for v in outcomes.values() if v[0] == o)
              for o in ("pass", "known", "stale", "fail")}
    print(f"{counts['pass']} passed, {counts['known']} known gaps, {counts['stale']} stale gaps, "
          f"{counts['fail']} failed (case forms)")
    return 1 if counts["fail"] or counts["stale"] else 0


if __name__ == "__main__":
    sys.exit(main())
