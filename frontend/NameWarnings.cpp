// Warnings for locations and registers read without a value (NameWarnings.hpp).
#include "frontend/NameWarnings.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace ptxmm::frontend {
namespace {

// The candidate closest to `name` (fewest edits; the first listed among equals), or "" when there is none.
std::string closest(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t bestDistance = 0;
  for (const auto& c : candidates) {
    if (c == name) continue;
    const std::size_t d = editDistance(name, c);
    if (best.empty() || d < bestDistance) best = c, bestDistance = d;
  }
  return best;
}

// " (did you mean 'flag'?)" for a near name, "; the closest <what> is 'x'" for a far one, "" without candidates.
std::string suggestion(const std::string& name, const std::vector<std::string>& candidates, const std::string& what) {
  const std::string best = closest(name, candidates);
  if (best.empty()) return "";
  if (editDistance(name, best) <= std::max<std::size_t>(2, name.size() / 3)) return " (did you mean '" + best + "'?)";
  return "; the closest " + what + " is '" + best + "'";
}

// Locations that are not declared and that only plain loads use: their value is the 0 nobody gave them.
void locationWarnings(const Program& program, std::vector<std::string>& out) {
  std::map<std::string, const Operand*> firstLoad;  // location -> its first use, by a load
  std::map<std::string, std::string> loadingThread;
  std::set<std::string> otherUse;                   // used by something else than a load
  for (const auto& thread : program.threads)
    for (const auto& in : thread.code)
      for (const auto& o : in.operands) {
        if (o.kind != Operand::Kind::Location) continue;
        if (in.op != Opcode::Ld) {
          otherUse.insert(o.name);
        } else if (!firstLoad.count(o.name)) {
          firstLoad[o.name] = &o;
          loadingThread[o.name] = thread.name;
        }
      }
  std::vector<std::string> valued;  // locations the test gives a value: declared, or written by some instruction
  for (const auto& l : program.locations)
    if (l.declared || otherUse.count(l.name)) valued.push_back(l.name);
  for (const auto& l : program.locations) {
    if (l.declared || otherUse.count(l.name) || !firstLoad.count(l.name)) continue;
    out.push_back(warningText(firstLoad[l.name]->pos,
                              loadingThread[l.name] + " reads location '" + l.name +
                                  "', which is neither declared nor written by any thread, so it reads 0" +
                                  suggestion(l.name, valued, "location the test gives a value")));
  }
}

// Where control can go after instruction `i` of `code` (labels: label name -> index).
std::vector<std::size_t> successors(const std::vector<Instruction>& code, std::size_t i,
                                    const std::map<std::string, std::size_t>& labels) {
  const Instruction& in = code[i];
  std::vector<std::size_t> next;
  if (in.op != Opcode::Goto && i + 1 < code.size()) next.push_back(i + 1);
  if ((in.op == Opcode::Goto || in.op == Opcode::Branch) && !in.operands.empty()) {
    const auto target = labels.find(in.operands.back().name);
    if (target != labels.end()) next.push_back(target->second);
  }
  return next;
}

// The registers `in` reads: every register operand but the one it writes.
std::vector<const Operand*> registersRead(const Instruction& in) {
  std::vector<const Operand*> read;
  for (std::size_t k = writesFirstOperand(in) ? 1 : 0; k < in.operands.size(); ++k)
    if (in.operands[k].kind == Operand::Kind::Register) read.push_back(&in.operands[k]);
  return read;
}

// Registers a thread reads where no path from its start has written them (a forward may-be-written analysis).
void registerWarnings(const Program& program, const Thread& thread, std::vector<std::string>& out) {
  const auto& code = thread.code;
  std::map<std::string, std::size_t> labels;
  for (std::size_t i = 0; i < code.size(); ++i)
    if (code[i].op == Opcode::Label && !code[i].operands.empty()) labels[code[i].operands[0].name] = i;
  std::set<std::string> initial;
  std::vector<std::string> valued;  // registers the thread gives a value: initialised or written
  for (const auto& init : program.regInits)
    if (init.thread == thread.index && initial.insert(init.reg).second) valued.push_back(init.reg);
  for (const auto& in : code)
    if (writesFirstOperand(in) && !in.operands.empty() && in.operands[0].kind == Operand::Kind::Register &&
        std::find(valued.begin(), valued.end(), in.operands[0].name) == valued.end())
      valued.push_back(in.operands[0].name);
  if (code.empty()) return;
  // written[i]: the registers some path from the start has written before instruction i (nullopt: unreached).
  std::vector<std::optional<std::set<std::string>>> written(code.size());
  written[0] = initial;
  std::vector<std::size_t> work{0};
  while (!work.empty()) {
    const std::size_t i = work.back();
    work.pop_back();
    std::set<std::string> after = *written[i];
    if (writesFirstOperand(code[i]) && !code[i].operands.empty()) after.insert(code[i].operands[0].name);
    for (std::size_t j : successors(code, i, labels)) {
      const bool reached = written[j].has_value();
      if (!reached) written[j].emplace();
      const std::size_t before = written[j]->size();
      written[j]->insert(after.begin(), after.end());
      if (!reached || written[j]->size() != before) work.push_back(j);
    }
  }
  std::set<std::string> warned;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (!written[i]) continue;
    for (const Operand* o : registersRead(code[i])) {
      if (written[i]->count(o->name) || !warned.insert(o->name).second) continue;
      out.push_back(warningText(o->pos, thread.name + " reads register '" + o->name +
                                            "' before any instruction writes it and without an initial value, so "
                                            "it reads 0" +
                                            suggestion(o->name, valued, "register the thread gives a value")));
    }
  }
}

}  // namespace

std::size_t editDistance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: Levenshtein plus swaps of two neighbouring characters.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string warningText(const SourcePos& pos, const std::string& message) {
  return pos.file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ": warning: " + message;
}

std::vector<std::string> nameWarnings(const Program& program) {
  std::vector<std::string> out;
  locationWarnings(program, out);
  for (const auto& thread : program.threads) registerWarnings(program, thread, out);
  return out;
}

}  // namespace ptxmm::frontend
