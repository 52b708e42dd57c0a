// Text and JSON views of a kernel check (KernelReport.hpp).
#include "checker/kernel/KernelReport.hpp"

#include <cstdio>
#include <map>
#include <utility>
#include <vector>

namespace ptxmm::checker::kernel {
namespace {

std::string dims(const frontend::Dim3& d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

nlohmann::json dimsJson(const frontend::Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }

// The text view names the kernel's source as the user named it: nvcc records the absolute path of a .cu it was
// given as `cases/k.cu`, which the report shortens back (JSON keeps what nvcc recorded).
std::string shown(const std::string& file, const std::string& given) {
  if (given.empty() || given.front() == '/' || file.size() <= given.size()) return file;
  return file.compare(file.size() - given.size() - 1, std::string::npos, "/" + given) == 0 ? given : file;
}

// `text` with every mention of `file` shown as shown() names it (a fix names positions of the kernel's source).
std::string shownIn(std::string text, const std::string& file, const std::string& given) {
  const std::string to = shown(file, given);
  if (to == file || file.empty()) return text;
  for (std::size_t at = text.find(file); at != std::string::npos; at = text.find(file, at + to.size()))
    text.replace(at, file.size(), to);
  return text;
}

std::string where(const KernelPosition& p, const std::string& given) {
  return shown(p.file, given) + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + " (PTX line " + std::to_string(p.ptxLine) +
         ")";
}

std::string who(const KernelPosition& p) { return "block (" + dims(p.block) + ") thread (" + dims(p.thread) + ")"; }

nlohmann::json positionJson(const KernelPosition& p) {
  return {{"file", p.file},          {"line", p.line},           {"column", p.column},
          {"ptx_line", p.ptxLine},   {"block", dimsJson(p.block)}, {"thread", dimsJson(p.thread)},
          {"instruction", p.instruction}};
}

std::string milliseconds(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds);
  return buf;
}

std::string joined(const std::vector<std::string>& reasons) {
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}

}  // namespace

std::string kernelStatusName(KernelStatus status) {
  switch (status) {
    case KernelStatus::Ok: return "ok";
    case KernelStatus::Unknown: return "unknown";
    case KernelStatus::Error: return "error";
  }
  return "error";
}

std::string kernelText(const KernelResult& r) {
  std::string out = "Kernel " + r.name + " (" + r.file + ")\n";
  out += "Launch grid " + dims(r.grid) + " block " + dims(r.block) + " cluster " + dims(r.cluster) + "\n";
  out += "Races " + std::to_string(r.races.size()) + "\n";
  for (const auto& race : r.races) {
    out += "  " + race.kind + "\n";
    out += "    " + where(race.first, r.file) + " " + who(race.first) + ": " + race.first.instruction + "\n";
    out += "    " + where(race.second, r.file) + " " + who(race.second) + ": " + race.second.instruction + "\n";
    out += std::string("    fix (") + (race.fixChecked ? "checked" : "not checked") + "): " + shownIn(race.fix, race.first.file, r.file) + "\n";
  }
  for (const auto& a : r.assertions)
    out += "Assert " + a.text + ": " +
           (!a.holds ? "unknown (" + a.reason + ")" : *a.holds ? "holds" : "fails, for example " + a.counterexample) + "\n";
  for (const auto& o : r.observed) {
    out += "Observe " + o.location + ":";
    for (const auto& v : o.values) out += " " + v;
    if (!o.complete) out += " (incomplete: " + o.reason + ")";
    out += "\n";
  }
  for (const auto& h : r.hangs) out += "Hang " + h.kind + ": " + where(h.at, r.file) + ": " + h.threads + "\n";
  // One line per instruction (its first thread's access; JSON lists every one): 128 threads indexing past a
  // buffer are one bug.
  std::vector<std::pair<std::string, int>> outOfBounds;  // the first access's line, how many more
  std::map<std::string, std::size_t> lineOf;
  for (const auto& o : r.outOfBounds) {
    const std::string at = where(o.at, r.file);
    if (const auto it = lineOf.find(at); it != lineOf.end()) {
      ++outOfBounds[it->second].second;
      continue;
    }
    lineOf[at] = outOfBounds.size();
    outOfBounds.emplace_back("Out of bounds: " + at + " " + who(o.at) + ": " + o.detail, 0);
  }
  for (const auto& [line, more] : outOfBounds)
    out += line + (more ? " (and " + std::to_string(more) + " more at this instruction)" : "") + "\n";
  for (const auto& n : r.notes) out += "Note: " + n + "\n";
  for (const auto& u : r.unknowns) out += "Unknown: " + u + "\n";
  out += std::string(r.hasFinding() ? "Bugs found" : r.status == KernelStatus::Ok ? "Ok" : "Unknown") + "\n";
  out += "Time " + r.name + " " + milliseconds(r.checkSeconds) + " s";
  if (!r.races.empty()) out += " (checking fixes " + milliseconds(r.fixSeconds) + " s)";
  if (r.nvccSeconds >= 0) out += " (nvcc " + milliseconds(r.nvccSeconds) + " s)";
  return out + "\n";
}

nlohmann::json kernelJson(const KernelResult& r) {
  nlohmann::json races = nlohmann::json::array();
  for (const auto& race : r.races)
    races.push_back({{"kind", race.kind}, {"fix", race.fix}, {"fix_checked", race.fixChecked},
                     {"first", positionJson(race.first)}, {"second", positionJson(race.second)}});
  nlohmann::json assertions = nlohmann::json::array();
  for (const auto& a : r.assertions) {
    nlohmann::json j = {{"text", a.text}, {"counterexample", a.counterexample}};
    j["holds"] = a.holds ? nlohmann::json(*a.holds) : nlohmann::json(nullptr);
    if (!a.reason.empty()) j["reason"] = a.reason;
    assertions.push_back(std::move(j));
  }
  nlohmann::json observed = nlohmann::json::object();
  for (const auto& o : r.observed) observed[o.location] = o.values;
  nlohmann::json hangs = nlohmann::json::array();
  for (const auto& h : r.hangs) {
    nlohmann::json j = positionJson(h.at);
    j["kind"] = h.kind;
    j["threads"] = h.threads;
    hangs.push_back(std::move(j));
  }
  nlohmann::json outOfBounds = nlohmann::json::array();
  for (const auto& o : r.outOfBounds) {
    nlohmann::json j = positionJson(o.at);
    j["detail"] = o.detail;
    outOfBounds.push_back(std::move(j));
  }
  nlohmann::json j = {{"name", r.name},
                      {"file", r.file},
                      {"kernel", r.kernel},
                      {"grid", dimsJson(r.grid)},
                      {"block", dimsJson(r.block)},
                      {"cluster", dimsJson(r.cluster)},
                      {"status", kernelStatusName(r.status)},
                      {"reason", joined(r.unknowns)},
                      {"races", races},
                      {"assertions", assertions},
                      {"observed", observed},
                      {"hangs", hangs},
                      {"out_of_bounds", outOfBounds},
                      {"notes", r.notes},
                      {"time_ms", r.checkSeconds * 1000.0}};
  j["fix_ms"] = r.fixSeconds * 1000.0;
  if (r.nvccSeconds >= 0) j["nvcc_ms"] = r.nvccSeconds * 1000.0;
  return j;
}

}  // namespace ptxmm::checker::kernel
