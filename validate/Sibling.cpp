// Weakening the synchronisation of a test, one step at a time (Sibling.hpp).
#include "validate/Sibling.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace ptxmm::validate {

using frontend::Instruction;
using frontend::Opcode;
using frontend::Program;
using frontend::Sem;

namespace {

// One weakening: the instructions it touches, by (thread, index), and whether they go away or become relaxed.
struct Step {
  int strength = 0;  // higher first
  std::vector<std::pair<int, int>> at;
  bool remove = false;
};

// How strong a synchronising instruction is; 0 for instructions that do not synchronise.
int strength(const Instruction& in) {
  switch (in.op) {
    case Opcode::Fence:
      if (in.sem == Sem::Sc || in.text.rfind("membar", 0) == 0) return 6;
      if (in.sem == Sem::Default || in.sem == Sem::AcqRel) return 4;
      return 3;
    case Opcode::BarSync:
    case Opcode::BarArrive: return 5;
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red: return in.sem == Sem::AcqRel ? 2 : (in.sem == Sem::Acquire || in.sem == Sem::Release) ? 1 : 0;
    default: return 0;
  }
}

// The instruction with its release/acquire half replaced by relaxed, keeping the scope.
void relax(Instruction& in) {
  for (const char* word : {"acq_rel", "acquire", "release"})
    if (const auto at = in.text.find(word); at != std::string::npos) {
      in.text.replace(at, std::string(word).size(), "relaxed");
      break;
    }
  in.sem = Sem::Relaxed;
}

std::string where(const Program& p, int t, int i) {
  const auto& in = p.threads[static_cast<std::size_t>(t)].code[static_cast<std::size_t>(i)];
  return p.threads[static_cast<std::size_t>(t)].name + " line " + std::to_string(in.pos.line) + ": " + in.text;
}

Program apply(const Program& original, const std::vector<Step>& steps, std::string& change) {
  Program p = original;
  p.name = original.name + "~sibling";
  std::set<std::pair<int, int>> removed;
  for (const auto& s : steps)
    for (const auto& [t, i] : s.at) {
      if (!change.empty()) change += "; ";
      if (s.remove) {
        removed.emplace(t, i);
        change += where(original, t, i) + " removed";
      } else {
        relax(p.threads[static_cast<std::size_t>(t)].code[static_cast<std::size_t>(i)]);
        change += where(original, t, i) + " -> " + p.threads[static_cast<std::size_t>(t)].code[static_cast<std::size_t>(i)].text;
      }
    }
  // Erase back to front so the remaining indices stay valid; branches name labels, not indices.
  for (auto it = removed.rbegin(); it != removed.rend(); ++it) {
    auto& code = p.threads[static_cast<std::size_t>(it->first)].code;
    code.erase(code.begin() + it->second);
  }
  return p;
}

}  // namespace

std::vector<SiblingCandidate> siblingCandidates(const Program& program) {
  std::vector<Step> steps;
  std::map<std::pair<int, std::int64_t>, std::size_t> barrierStep;  // (cta, id) -> its step
  for (const auto& t : program.threads)
    for (std::size_t i = 0; i < t.code.size(); ++i) {
      const Instruction& in = t.code[i];
      const int s = strength(in);
      if (s == 0) continue;
      const std::pair<int, int> at{t.index, static_cast<int>(i)};
      if (in.op == Opcode::BarSync || in.op == Opcode::BarArrive) {
        // A barrier goes for all its participants at once: one left behind could wait forever.
        const std::pair<int, std::int64_t> key{t.cta, in.operands.empty() ? 0 : in.operands[0].value};
        const auto [found, fresh] = barrierStep.emplace(key, steps.size());
        if (fresh) steps.push_back({s, {}, true});
        steps[found->second].at.push_back(at);
        continue;
      }
      steps.push_back({s, {at}, in.op == Opcode::Fence});
    }
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.strength > b.strength; });
  std::vector<SiblingCandidate> out;
  for (const auto& s : steps) {
    SiblingCandidate c;
    c.program = apply(program, {s}, c.change);
    out.push_back(std::move(c));
  }
  if (steps.size() > 1) {
    SiblingCandidate c;
    c.program = apply(program, steps, c.change);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ptxmm::validate
