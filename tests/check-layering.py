#!/usr/bin/env python3
"""The layering check: every #include edge of the project against one table of allowed edges per folder.

    model <- frontend <- frontend/lower <- checker (+Z3) <- validate <- app

A file may include headers of its own folder and of the folders the table allows it (a folder means itself and
its subfolders, except subfolders that have a row of their own: frontend/lower is not part of frontend). Unit
tests (tests/unit/<layer>) follow their layer's row and may include the test support of those layers
(`unit/<layer>/...`). Third-party headers are allowed only where a second table says (z3++.h only in checker/z3
and bench, Boost only in model/GraphAlgorithms.cpp, CLI11 only in app), and the libraries below app must do no
I/O of their own (no std::system, popen, ofstream, std::cout or directory walk). Include cycles between files are
reported too.

Usage: tests/check-layering.py [ROOT]   (default: the project root). Exit 0 when clean, 1 with every violation
listed as `file:line: ...`.
"""
import os
import re
import sys

# Folder -> the folders its files may include (besides their own). The one table of allowed edges.
ALLOWED = {
    "model": [],
    "frontend": ["model"],
    "frontend/lower": ["frontend", "model"],
    "checker": ["frontend/lower", "frontend", "model"],
    "validate": ["checker", "frontend/lower", "frontend", "model"],
    "app": ["validate", "checker", "frontend/lower", "frontend", "model"],
    "bench": ["model"],
    "tests/fuzz": ["app", "frontend/lower", "frontend", "model"],  # app: the command-line fuzz target
}
# Unit-test folders follow the row of the layer they test.
TEST_LAYERS = {f"tests/unit/{layer}": layer for layer in ALLOWED if not layer.startswith(("tests", "bench"))}
TEST_LAYERS["tests/unit/bench"] = "bench"

# Third-party headers (by prefix of the include) and the only places that may include them (folder prefixes
# or files).
RESTRICTED_HEADERS = {
    "z3++.h": ["checker/z3/", "bench/"],
    "z3.h": ["checker/z3/", "bench/"],
    "boost/": ["model/GraphAlgorithms.cpp"],
    "CLI/": ["app/"],
}

# The libraries below app do no I/O: what they must not contain (validate/harness is CUDA code that runs on the
# GPU machine, not part of ptxmm).
NO_IO_FOLDERS = ["model/", "frontend/", "checker/", "validate/"]
NO_IO_EXEMPT = ["validate/harness/"]
NO_IO_WORDS = re.compile(r"std::system\b|\bpopen\b|\bofstream\b|std::cout\b|directory_iterator\b")

SOURCE = re.compile(r"\.(cpp|hpp|h|cuh)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def folder_of(path):
    """The row of the table a file belongs to: the longest matching folder, or None."""
    rows = sorted(list(ALLOWED) + list(TEST_LAYERS), key=len, reverse=True)
    for row in rows:
        if path.startswith(row + "/"):
            return row
    return None


def project_folder(include):
    """The folder a project include ("checker/z3/Z3Engine.hpp") names, or None for a non-project one."""
    for row in sorted(ALLOWED, key=len, reverse=True):
        if include.startswith(row + "/"):
            return row
    return None


def sources(root):
    for directory, subdirs, files in os.walk(root):
        rel = os.path.relpath(directory, root)
        subdirs[:] = sorted(d for d in subdirs if not d.startswith((".", "build")))
        for name in sorted(files):
            if SOURCE.search(name):
                yield os.path.normpath(os.path.join(rel, name)).replace(os.sep, "/")


def strip_comments(line):
    return line.split("//", 1)[0]


def check(root):
    problems = []
    edges = {}
    for path in sources(root):
        row = folder_of(path)
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        layer = TEST_LAYERS.get(row, row)
        allowed = None if layer is None else [layer] + ALLOWED[layer]
        io_checked = any(path.startswith(p) for p in NO_IO_FOLDERS) and not any(path.startswith(p) for p in NO_IO_EXEMPT)
        for number, line in enumerate(lines, 1):
            if io_checked and NO_IO_WORDS.search(strip_comments(line)):
                problems.append(f"{path}:{number}: I/O below app/ ({NO_IO_WORDS.search(line).group(0)}): "
                                "reading, printing, writing files and running programs belong to app/")
            m = INCLUDE.match(line)
            if not m:
                continue
            header = m.group(2)
            for prefix, places in RESTRICTED_HEADERS.items():
                if header.startswith(prefix) and not any(path == p or path.startswith(p) for p in places):
                    problems.append(f"{path}:{number}: includes <{header}>, allowed only in {', '.join(places)}")
            if m.group(1) != '"':
                continue
            target = header
            if header.startswith("unit/"):
                target = "tests/" + header
                tested = TEST_LAYERS.get(folder_of(target))
                if row in TEST_LAYERS and tested not in allowed:
                    problems.append(f"{path}:{number}: includes {header}: tests of {layer} may use the test support "
                                    f"of {', '.join(allowed)} only")
            else:
                to = project_folder(header)
                if to is None:
                    continue
                if allowed is None:
                    problems.append(f"{path}:{number}: includes {header}, but {path} is in no folder of the layering "
                                    "table (tests/check-layering.py)")
                elif to not in allowed:
                    problems.append(f"{path}:{number}: {row} may not include {to} ({header}); {row} may include "
                                    f"{', '.join(allowed)}")
            if os.path.exists(os.path.join(root, target)):
                edges.setdefault(path, []).append(target)
    problems += [f"{cycle[0]}: include cycle: {' -> '.join(cycle + [cycle[0]])}" for cycle in cycles(edges)]
    return problems


def cycles(edges):
    """One cycle per strongly connected component of the include graph that has more than one file (or a file
    including itself), Tarjan's algorithm."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, []):
                found.append(cycle_in(sorted(component), edges))

    sys.setrecursionlimit(100000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def cycle_in(component, edges):
    """A cycle through the first file of a strongly connected component, as a list of files."""
    members = set(component)
    start = component[0]
    parent = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in edges.get(v, []):
            if w == start:
                path = [v]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return list(reversed(path))
            if w in members and w not in parent:
                parent[w] = v
                queue.append(w)
    return [start]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check-layering: {len(problems)} violation(s)")
        return 1
    print("check-layering: every include edge is allowed, no include cycle, no I/O below app/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
