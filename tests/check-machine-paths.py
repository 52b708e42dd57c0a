#!/usr/bin/env python3
"""No paths of a particular machine in the repository: committed text must not name a developer's or a lent
machine's folders (/work/..., /root/..., /home/..., /Users/...) or a temporary folder (/tmp/...). Refer to the
shared folder as ../shared/... relative to the project root, and to device-tool output as `$OUT`. The table below
lists the few places where such a path is recorded data, with the reason.

Usage: tests/check-machine-paths.py [ROOT]   (lists the committed files with `git ls-files`). Exit 0 when clean,
1 with every offending line as `file:line: ...`.
"""
import fnmatch
import os
import re
import subprocess
import sys

PATTERN = re.compile(r"(?<![\w.$}~-])/(?:work|root|home|Users|tmp)/")

# (files, the paths they may name, why). Everything else is an error.
RECORDED = [
    ("cases/hw/h100.*", "/tmp/ptxmm-work/", "the stored hardware report quotes the device run's messages verbatim"),
    ("tests/unit/frontend/ptx/fixtures/*", "/", "nvcc's .file lines record where a fixture was compiled, verbatim"),
    ("tests/unit/frontend/ptx/PtxParserTest.cpp", "/tmp/a.cu", "a file name inside a PTX text under test"),
    ("tests/check-machine-paths.py", "/", "this check names the paths it looks for"),
]


def recorded(path, line):
    for files, allowed, _ in RECORDED:
        if fnmatch.fnmatch(path, files) and all(m.group(0) in allowed or line[m.start():].startswith(allowed)
                                                for m in PATTERN.finditer(line)):
            return True
    return False


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout.split(b"\0")
    problems = []
    for name in files:
        if not name:
            continue
        path = name.decode()
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                lines = f.read().split("\n")
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue  # binary data, or a submodule
        for number, line in enumerate(lines, 1):
            if PATTERN.search(line) and not recorded(path, line):
                problems.append(f"{path}:{number}: a path of a particular machine: {line.strip()[:160]}")
    for p in problems:
        print(p)
    if problems:
        print(f"check-machine-paths: {len(problems)} line(s); write ../shared/... or $OUT instead")
        return 1
    print("check-machine-paths: no committed file names a path of a particular machine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
