#!/usr/bin/env python3
"""Tests of tests/kernels/run-cases.py: its header parser, its comparison with ptxmm's JSON, its attribution of
PTX instructions to kernel lines, and whole runs against fake-ptxmm.py (canned answers). Standard library only:
`python3 tests/kernels/test_run_cases.py`. The whole-run tests need nvcc and are skipped without it."""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "run-cases.py")
FAKE = os.path.join(HERE, "fake-ptxmm.py")

spec = importlib.util.spec_from_file_location("run_cases", RUNNER)
rc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rc)

HEADER = """// A test case.
//
// ptxmm-launch: --grid 2 --block 32 --arg out=int32[1] --assert 'out[0]==42' --observe 'out[0]'
// ptxmm-expect: race 12 7 no-synchronisation
// ptxmm-expect: race 9 9 scope-too-narrow
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[0] 0,42
// ptxmm-expect: exit 1
//
// Reasoning: the directives may sit anywhere in the leading comment block.
#include "host.cuh"
// ptxmm-expect: hang 99
"""

# A kernel whose store (line KERNEL_STORE) and load (line KERNEL_LOAD) nvcc emits on lines of their own.
TINY_CASE = """// tiny
// ptxmm-launch: --grid 2 --block 1 --arg data=int32[1] --arg out=int32[1] --assert 'out[0]==42'
// ptxmm-expect: race {w} {r} no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
__global__ void tiny(int* data, int* out) {{
  if (blockIdx.x == 0) {{
    *data = 42;
  }} else {{
    *out = *data;
  }}
}}
"""
KERNEL_STORE, KERNEL_LOAD = 8, 10


def answer(**overrides):
    """A ptxmm JSON object that matches HEADER's expectations, with some fields replaced."""
    pos = lambda line: {"file": "/x/case.cu", "line": line, "column": 3, "ptx_line": 40, "block": [0, 0, 0],
                        "thread": [0, 0, 0], "instruction": "st.global.u32 [%rd1], %r1;"}
    obj = {
        "name": "k", "file": "case.cu", "kernel": "k", "grid": [2, 1, 1], "block": [32, 1, 1], "cluster": None,
        "status": "ok", "reason": "",
        "races": [
            {"kind": "no synchronisation", "fix": "a fence", "first": pos(7), "second": pos(12)},
            {"kind": "scope_too_narrow", "fix": "wider scope", "first": pos(9), "second": pos(9)},
        ],
        "assertions": [{"text": "out[0]==42", "holds": False, "counterexample": {"out[0]": 0}}],
        "observed": {"out[0]": [42, 0]},
        "hangs": [{"line": 99, "file": "case.cu"}],
        "time_ms": 5,
    }
    obj.update(overrides)
    return obj


class HeaderTest(unittest.TestCase):
    def test_reads_every_directive_of_the_leading_block(self):
        launch, exp = rc.parse_header(HEADER.replace("#include \"host.cuh\"\n// ptxmm-expect: hang 99\n",
                                                     "// ptxmm-expect: hang 99\n"))
        self.assertEqual(launch, ["--grid", "2", "--block", "32", "--arg", "out=int32[1]", "--assert", "out[0]==42",
                                  "--observe", "out[0]"])
        self.assertEqual(exp["races"], {(7, 12, "no-synchronisation"), (9, 9, "scope-too-narrow")})
        self.assertEqual(exp["asserts"], [False])
        self.assertEqual(exp["observe"], {"out[0]": {0, 42}})
        self.assertEqual(exp["hangs"], {99})
        self.assertEqual(exp["exit"], 1)

    def test_ignores_directives_after_the_leading_block(self):
        _, exp = rc.parse_header(HEADER)
        self.assertEqual(exp["hangs"], set())

    def test_rejects_contradictions(self):
        bad = {
            "no exit": HEADER.replace("// ptxmm-expect: exit 1\n", ""),
            "race-free and races": HEADER.replace("// ptxmm-expect: exit 1", "// ptxmm-expect: race-free\n"
                                                  "// ptxmm-expect: exit 1"),
            "assert count": HEADER.replace("// ptxmm-expect: assert fails\n", ""),
            "observe without --observe": HEADER.replace(" --observe 'out[0]'", ""),
            "wrong exit": HEADER.replace("exit 1", "exit 0"),
            "unknown kind": HEADER.replace("scope-too-narrow", "too-wide"),
            "unreadable": HEADER.replace("assert fails", "assert maybe"),
            "no launch": HEADER.replace("ptxmm-launch:", "launch:"),
        }
        for what, text in bad.items():
            with self.subTest(what), self.assertRaises(rc.HeaderError):
                rc.parse_header(text)

    def test_exit_three_is_allowed_whatever_the_verdicts(self):
        _, exp = rc.parse_header(HEADER.replace("exit 1", "exit 3"))
        self.assertEqual(exp["exit"], 3)


ERROR_HEADER = """// A refused launch.
// ptxmm-launch: --grid 2 --block 32 --arg buf=int32[32]
// ptxmm-expect: error 14 ld.global.nc (or ldu) reads memory that some thread of the launch writes
// ptxmm-expect: exit 2
"""
ERROR_TEXT = ("/x/case.cu:14:8: error: ld.global.nc (or ldu) reads memory that some thread of the launch writes: "
              "the non-coherent path is outside the PTX memory model\n")


class ErrorExpectationTest(unittest.TestCase):
    def test_reads_the_line_and_the_text(self):
        _, exp = rc.parse_header(ERROR_HEADER)
        self.assertEqual(exp["error"], (14, "ld.global.nc (or ldu) reads memory that some thread of the launch writes"))
        self.assertEqual(exp["exit"], 2)

    def test_an_error_excludes_verdicts_and_needs_exit_two(self):
        bad = {
            "exit 1": ERROR_HEADER.replace("exit 2", "exit 1"),
            "with race-free": ERROR_HEADER + "// ptxmm-expect: race-free\n",
            "with an assertion": ERROR_HEADER.replace("int32[32]", "int32[32] --assert 'buf[0]==0'")
                                 + "// ptxmm-expect: assert holds\n",
            "exit 2 without an error": HEADER.replace("exit 1", "exit 2"),
        }
        for what, text in bad.items():
            with self.subTest(what), self.assertRaises(rc.HeaderError):
                rc.parse_header(text)

    def test_compare_error(self):
        exp = rc.parse_header(ERROR_HEADER)[1]
        self.assertEqual(rc.compare_error(exp, 2, None, "note: x\n" + ERROR_TEXT, "/cases/case.cu"), [])
        cases = {
            "exit 0, expected 2": (0, None, ERROR_TEXT),
            "a JSON answer": (2, answer(), ERROR_TEXT),
            "no 'FILE:LINE:COL: error:' message": (2, None, "crash\n"),
            "error at case.cu:15": (2, None, ERROR_TEXT.replace(":14:", ":15:")),
            "containing 'ld.global.nc": (2, None, ERROR_TEXT.replace("reads memory", "loads memory")),
            "error at other.cu:14": (2, None, ERROR_TEXT.replace("case.cu", "other.cu")),
        }
        for needle, (code, obj, stderr) in cases.items():
            with self.subTest(needle):
                diffs = rc.compare_error(exp, code, obj, stderr, "/cases/case.cu")
                self.assertTrue(any(needle in d for d in diffs), diffs)


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.exp = rc.parse_header(HEADER)[1]
        self.exp["hangs"] = {99}

    def test_matching_answer_passes(self):
        self.assertEqual(rc.compare(self.exp, 1, answer(), "/cases/case.cu"), [])

    def test_race_pairs_are_unordered_and_kinds_normalised(self):
        obj = answer()
        obj["races"][0]["first"], obj["races"][0]["second"] = obj["races"][0]["second"], obj["races"][0]["first"]
        self.assertEqual(rc.compare(self.exp, 1, obj, "case.cu"), [])

    def test_reports_each_difference(self):
        cases = {
            "missing race 7 12": answer(races=answer()["races"][1:]),
            "unexpected race 3 4": answer(races=answer()["races"] + [
                {"kind": "different proxies", "first": {"file": "case.cu", "line": 3},
                 "second": {"file": "case.cu", "line": 4}}]),
            "not in case.cu": answer(races=[dict(answer()["races"][0], second={"file": "/inc/cuda.h", "line": 12}),
                                            answer()["races"][1]]),
            "assert 1 (out[0]==42) holds, expected fails": answer(assertions=[{"text": "out[0]==42", "holds": True}]),
            "1 assertions reported": None,
            "observe out[0] = 0,7, expected 0,42": answer(observed={"out[0]": [0, 7]}),
            "observe out[0] not reported": answer(observed={}),
            "hangs at none, expected 99": answer(hangs=[]),
            "status unknown": answer(status="unknown", reason="bound"),
        }
        for needle, obj in cases.items():
            if obj is None:
                continue
            with self.subTest(needle):
                diffs = rc.compare(self.exp, 1, obj, "case.cu")
                self.assertTrue(any(needle in d for d in diffs), diffs)
        diffs = rc.compare(self.exp, 0, answer(), "case.cu")
        self.assertIn("exit 0, expected 1", diffs)

    def test_hang_positions_in_several_shapes(self):
        for hang in ({"line": 99}, {"at": {"file": "case.cu", "line": 99}}, {"instructions": ["case.cu:99:5"]},
                     {"kind": "barrier", "stuck": [{"file": "case.cu", "line": 99, "column": 3}]}):
            with self.subTest(hang=hang):
                self.assertEqual(rc.compare(self.exp, 1, answer(hangs=[hang]), "case.cu"), [])

    def test_json_objects_one_per_line_or_a_list(self):
        self.assertEqual(len(rc.parse_json_objects('{"a": 1}\n{"b": 2}\n')), 2)
        self.assertEqual(len(rc.parse_json_objects('[{"a": 1}, {"b": 2}]')), 2)
        self.assertEqual(rc.parse_json_objects(""), [])


class PtxLinesTest(unittest.TestCase):
    PTX = """
	.loc	1 10 3
	st.global.u32 	[%rd1], %r1;
	.loc	1 12 3
	.loc	2 370 5, function_name $L__info_string3, inlined_at 1 12 3
	.loc	4 65 5, function_name $L__info_string4, inlined_at 2 370 5
	mbarrier.try_wait.shared.b64 p, [%r16], %rd6;
$L__BB0_4:
	.loc	4 72 5, function_name $L__info_string4, inlined_at 2 370 5
	nanosleep.u32 %r25;
	.loc	1 20 3
	.loc	2 370 5, function_name $L__info_string3, inlined_at 1 20 3
	.loc	4 65 5, function_name $L__info_string4, inlined_at 2 370 5
	mbarrier.try_wait.shared.b64 p, [%r16], %rd7;
	.loc	1 0 3
	ld.global.u32 	%r3, [flag];
	.file	1 "/cases/case.cu"
	.file	2 "/cuda/include/cuda/barrier"
	.file	4 "/cuda/include/poll.h"
"""

    def test_outermost_inlined_at_is_the_kernel_line(self):
        lines = rc.ptx_kernel_lines(self.PTX, "case.cu")
        self.assertEqual(lines[10], ["st.global.u32 \t[%rd1], %r1;"])
        self.assertEqual(lines[12], ["mbarrier.try_wait.shared.b64 p, [%r16], %rd6;", "nanosleep.u32 %r25;"])
        self.assertEqual(lines[20], ["mbarrier.try_wait.shared.b64 p, [%r16], %rd7;"])
        self.assertEqual(lines[0], ["ld.global.u32 \t%r3, [flag];"])


@unittest.skipIf(rc.find_nvcc() is None, "nvcc not found")
class PtxCaseTest(unittest.TestCase):
    """A case given as PTX (cases/kernels/triton): positions are in the file its `ptxmm-source` line names."""

    def test_positions_must_be_in_the_named_source(self):
        exp = rc.parse_header(HEADER.replace("// Reasoning", "// ptxmm-source: kernels.py\n// Reasoning"))[1]
        exp["hangs"] = {99}
        moved = answer(races=[dict(r, first=dict(r["first"], file="/x/kernels.py"),
                                   second=dict(r["second"], file="kernels.py")) for r in answer()["races"]],
                       hangs=[{"line": 99, "file": "kernels.py"}])
        self.assertEqual(exp["source"], "kernels.py")
        self.assertEqual(rc.compare(exp, 1, moved, "/cases/triton-x.ptx"), [])
        self.assertIn("race position /x/case.cu:7 is not in kernels.py", rc.compare(exp, 1, answer(), "/cases/triton-x.ptx"))

    def test_a_ptx_case_runs_once_as_it_is(self):
        with tempfile.TemporaryDirectory() as d:
            case = os.path.join(d, "triton-k.ptx")
            with open(case, "w") as f:
                f.write("// ptxmm-launch: --grid 1 --block 1\n// ptxmm-expect: race-free\n// ptxmm-expect: exit 0\n"
                        "// ptxmm-source: k.py\n.version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n")
            spec, log = os.path.join(d, "spec.json"), os.path.join(d, "log.jsonl")
            with open(spec, "w") as f:
                json.dump({"triton-k": {"rc": 0, "json": {"status": "ok", "races": [], "assertions": [],
                                                          "observed": {}, "hangs": []}}}, f)
            env = dict(os.environ, FAKE_PTXMM_SPEC=spec, FAKE_PTXMM_LOG=log)
            r = subprocess.run([sys.executable, RUNNER, FAKE, case], capture_output=True, text=True, env=env)
            if r.returncode == rc.SKIP:
                self.skipTest("nvcc not found")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            with open(log) as f:
                calls = [json.loads(l) for l in f]
            self.assertEqual([c[1] for c in calls], [case])  # the .ptx itself, once: nothing compiled
            lint = subprocess.run([sys.executable, RUNNER, "--lint", case], capture_output=True, text=True)
            self.assertIn("PASS triton-k.ptx", lint.stdout)


class WholeRunTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.case = os.path.join(self.dir.name, "tiny.cu")
        with open(self.case, "w") as f:
            f.write(TINY_CASE.format(w=KERNEL_STORE, r=KERNEL_LOAD))
        self.spec = os.path.join(self.dir.name, "spec.json")
        self.log = os.path.join(self.dir.name, "log.jsonl")

    def tearDown(self):
        self.dir.cleanup()

    def run_runner(self, answers, *extra):
        with open(self.spec, "w") as f:
            json.dump(answers, f)
        env = dict(os.environ, FAKE_PTXMM_SPEC=self.spec, FAKE_PTXMM_LOG=self.log)
        return subprocess.run([sys.executable, RUNNER, *extra, FAKE, self.case], capture_output=True, text=True,
                              env=env)

    def tiny_answer(self, store=KERNEL_STORE, holds=False):
        pos = lambda line: {"file": self.case, "line": line, "column": 5}
        return {"rc": 1, "json": {"status": "ok", "races": [{"kind": "no-synchronisation", "first": pos(store),
                                                              "second": pos(KERNEL_LOAD)}],
                                  "assertions": [{"text": "out[0]==42", "holds": holds}], "observed": {},
                                  "hangs": []}}

    def test_both_forms_pass_with_the_same_launch(self):
        r = self.run_runner({"tiny": self.tiny_answer()})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("PASS tiny.cu", r.stdout)
        with open(self.log) as f:
            calls = [json.loads(l) for l in f]
        self.assertEqual([os.path.splitext(c[1])[1] for c in calls], [".cu", ".ptx"])
        self.assertEqual(calls[0][2:], calls[1][2:])
        self.assertEqual(calls[0][-1], "--json")

    def test_a_wrong_ptx_answer_fails_the_case(self):
        r = self.run_runner({"tiny": self.tiny_answer(), "tiny.ptx": self.tiny_answer(holds=True)})
        self.assertEqual(r.returncode, 1)
        self.assertIn("FAIL tiny.cu: [ptx] assert 1 (out[0]==42) holds, expected fails", r.stdout)

    def test_a_crashing_ptxmm_fails_the_case(self):
        r = self.run_runner({"tiny": {"rc": 4, "stdout": "not json"}}, "--forms", "cu")
        self.assertEqual(r.returncode, 1)
        self.assertIn("exit 4, expected 1", r.stdout)

    def test_an_expected_error_passes_only_as_that_error(self):
        with open(self.case, "w") as f:
            f.write(ERROR_HEADER.replace("error 14", f"error {KERNEL_STORE}") + TINY_CASE.split("\n", 5)[5])
        text = ERROR_TEXT.replace("/x/case.cu:14:", f"{self.case}:{KERNEL_STORE}:")
        r = self.run_runner({"tiny": {"rc": 2, "stderr": text}})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("PASS tiny.cu", r.stdout)
        r = self.run_runner({"tiny": {"rc": 2, "stderr": text}, "tiny.ptx": self.tiny_answer()})
        self.assertEqual(r.returncode, 1)
        self.assertIn("FAIL tiny.cu: [ptx] exit 1, expected 2", r.stdout)

    def unknown_answer(self, **fields):
        obj = {"status": "unknown", "reason": "a bound", "races": [], "assertions": [{"text": "out[0]==42",
                                                                                     "holds": None}],
               "observed": {}, "hangs": []}
        obj.update(fields)
        return {"rc": 3, "json": obj}

    def run_with_gaps(self, answers, gaps, *extra):
        path = os.path.join(self.dir.name, "gaps.txt")
        with open(path, "w") as f:
            f.write("# comment\n" + gaps)
        return self.run_runner(answers, "--forms", "cu", "--known-gaps", path, *extra)

    def test_a_listed_gap_that_is_still_unknown_is_known(self):
        r = self.run_with_gaps({"tiny": self.unknown_answer()}, "tiny.cu cu unknown slices too large\n")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("KNOWN tiny.cu: [cu] KNOWN unknown: a bound", r.stdout)
        self.assertIn("0 passed, 1 known gaps, 0 stale gaps, 0 failed", r.stdout)

    def test_a_listed_gap_that_passes_is_stale(self):
        r = self.run_with_gaps({"tiny": self.tiny_answer()}, "tiny.cu cu unknown slices too large\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("STALE tiny.cu: [cu] STALE passes now", r.stdout)

    def test_a_listed_gap_with_a_wrong_decision_fails(self):
        wrong = self.unknown_answer(assertions=[{"text": "out[0]==42", "holds": True}])
        r = self.run_with_gaps({"tiny": wrong}, "tiny.cu cu unknown slices too large\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("FAIL tiny.cu: [cu] listed as unknown (slices too large), but: ", r.stdout)
        r = self.run_with_gaps({"tiny": {"rc": 4, "stdout": "crash"}}, "tiny.cu cu unknown slices too large\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("FAIL tiny.cu: [cu] listed as unknown (slices too large), but: exit 4", r.stdout)

    def test_a_known_wrong_verdict_must_keep_its_difference(self):
        wrong = self.tiny_answer(holds=True)
        r = self.run_with_gaps({"tiny": wrong}, "tiny.cu cu wrong assert 1 (out[0]==42) holds, expected fails\n")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("KNOWN tiny.cu: [cu] KNOWN wrong: assert 1 (out[0]==42) holds", r.stdout)
        r = self.run_with_gaps({"tiny": self.tiny_answer(store=KERNEL_STORE + 1)},
                               "tiny.cu cu wrong assert 1 (out[0]==42) holds, expected fails\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("missing race", r.stdout)

    def test_an_unlisted_unknown_fails_and_can_be_written_to_a_list(self):
        out = os.path.join(self.dir.name, "written.txt")
        r = self.run_with_gaps({"tiny": self.unknown_answer()}, "", "--write-gaps", out)
        self.assertEqual(r.returncode, 1)
        self.assertIn("(a unknown gap, not in the known gaps)", r.stdout)
        with open(out) as f:
            written = f.read()
        self.assertIn("tiny.cu cu unknown a bound\n", written)
        self.assertEqual(rc.read_known_gaps(out), {("tiny.cu", "cu"): ("unknown", "a bound")})

    def test_a_listed_killed_gap_is_known_while_ptxmm_runs_past_the_limit(self):
        slow = dict(self.tiny_answer(), sleep=5)
        r = self.run_with_gaps({"tiny": slow}, "tiny.cu cu killed ignores --timeout\n", "--timeout", "1")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("KNOWN tiny.cu: [cu] KNOWN killed: ptxmm did not stop by itself within 1 s", r.stdout)
        r = self.run_with_gaps({"tiny": slow}, "tiny.cu cu unknown slices too large\n", "--timeout", "1")
        self.assertEqual(r.returncode, 1)
        self.assertIn("listed as unknown (slices too large), but: timed out after 1.0 s", r.stdout)

    def test_a_slow_gap_may_pass_or_time_out_but_nothing_else(self):
        gaps = "tiny.cu cu slow decided in 8 s of CPU\n"
        r = self.run_with_gaps({"tiny": self.tiny_answer()}, gaps)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("KNOWN tiny.cu: [cu] KNOWN slow: passed", r.stdout)
        r = self.run_with_gaps({"tiny": self.unknown_answer(reason="the engine on its slice: timeout after 19 s")}, gaps)
        self.assertEqual(r.returncode, 0, r.stdout)
        r = self.run_with_gaps({"tiny": self.unknown_answer()}, gaps)
        self.assertEqual(r.returncode, 1, r.stdout)

    def test_ptxmm_gets_its_own_timeout(self):
        self.run_runner({"tiny": self.tiny_answer()}, "--forms", "cu", "--ptxmm-timeout", "30")
        with open(self.log) as f:
            call = json.loads(f.readline())
        self.assertEqual(call[-3:], ["--timeout", "30", "--json"])

    def test_lint_checks_lines_against_nvcc(self):
        r = subprocess.run([sys.executable, RUNNER, "--lint", self.case], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(self.case, "w") as f:
            f.write(TINY_CASE.format(w=KERNEL_STORE - 1, r=KERNEL_LOAD))
        r = subprocess.run([sys.executable, RUNNER, "--lint", self.case], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"race line {KERNEL_STORE - 1}: no memory access", r.stdout)


class KnownGapsFileTest(unittest.TestCase):
    def test_reads_case_form_reason_lines(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("# c\n\na.cu ptx unknown needs more than 32 threads\na.cu cu killed slow\n")
        try:
            self.assertEqual(rc.read_known_gaps(f.name), {("a.cu", "ptx"): ("unknown", "needs more than 32 threads"),
                                                          ("a.cu", "cu"): ("killed", "slow")})
            with open(f.name, "a") as g:
                g.write("b.cu ptx maybe reason\n")
            with self.assertRaises(rc.HeaderError):
                rc.read_known_gaps(f.name)
        finally:
            os.unlink(f.name)


class NoNvccTest(unittest.TestCase):
    def test_skips_with_77(self):
        r = subprocess.run([sys.executable, RUNNER, "--lint", "--nvcc", "/nonexistent/nvcc", "x.cu"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 77)
        self.assertIn("SKIP", r.stdout)


if __name__ == "__main__":
    unittest.main()
