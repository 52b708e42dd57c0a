#!/usr/bin/env bash
# The layering check must fail where the layering is broken: it is run on generated trees, first a clean one
# (exit 0), then one with a deliberate back edge (model -> checker), reading including lowering
# (frontend -> frontend/lower), Boost outside the toolkit, printing below app/ and an include cycle; each must be
# reported with its file and line, and the check must exit 1.
# Usage: check-layering-test.sh CHECKER
set -u
checker=$1
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
fail() { echo "check-layering-test: $*"; exit 1; }

mkdir -p "$tree"/{model,frontend/lower,checker,validate,app}
printf '#pragma once\n' >"$tree/model/Event.hpp"
printf '#pragma once\n#include "model/Event.hpp"\n' >"$tree/frontend/Program.hpp"
printf '#pragma once\n#include "frontend/Program.hpp"\n' >"$tree/frontend/lower/Unroller.hpp"
printf '#pragma once\n#include "frontend/lower/Unroller.hpp"\n#include <vector>\n' >"$tree/checker/Engine.hpp"
printf '#include <CLI/CLI.hpp>\n#include <iostream>\n#include "checker/Engine.hpp"\nint main() { std::cout << 1; }\n' \
  >"$tree/app/main.cpp"
out=$("$checker" "$tree") || fail "a clean tree was refused: $out"

printf '#pragma once\n#include "checker/Engine.hpp"\n' >"$tree/model/Back.hpp"
printf '#pragma once\n#include "frontend/lower/Unroller.hpp"\n' >"$tree/frontend/Reader.hpp"
printf '#include <boost/graph/adjacency_list.hpp>\n' >"$tree/checker/Graph.cpp"
printf '#include <iostream>\nvoid f() { std::cout << 1; }\n' >"$tree/validate/Print.cpp"
printf '#pragma once\n#include "checker/B.hpp"\n' >"$tree/checker/A.hpp"
printf '#pragma once\n#include "checker/A.hpp"\n' >"$tree/checker/B.hpp"
out=$("$checker" "$tree")
status=$?
echo "$out"
[ $status -eq 1 ] || fail "expected exit 1 on a broken tree, got $status"
for expected in \
  "model/Back.hpp:2: model may not include checker (checker/Engine.hpp)" \
  "frontend/Reader.hpp:2: frontend may not include frontend/lower (frontend/lower/Unroller.hpp)" \
  "checker/Graph.cpp:1: includes <boost/graph/adjacency_list.hpp>, allowed only in model/GraphAlgorithms.cpp" \
  "validate/Print.cpp:2: I/O below app/ (std::cout)" \
  "checker/A.hpp: include cycle: checker/A.hpp -> checker/B.hpp -> checker/A.hpp"; do
  grep -qF "$expected" <<<"$out" || fail "not reported: $expected"
done
echo "check-layering-test: the check passes a clean tree and reports every deliberate violation"
