// Text and DOT renderings of executions (ExecutionView.hpp).
#include "checker/ExecutionView.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "model/MbarrierLayout.hpp"

namespace ptxmm::checker {
namespace {

using model::BaseRel;
using model::BitMatrix;
using model::Tag;

// The relations drawn in every graph, looked up as base relations or definitions of the model (a model
// without `fr` or `sw` simply gets no such edges). Order, colour and the reduction keep graphs readable.
struct DrawnRelation {
  const char* name;
  const char* color;
  bool reduce;  // draw r \ (r ; r): immediate edges only
};
constexpr DrawnRelation kDrawn[] = {
    {"po", "black", true}, {"rf", "darkgreen", false}, {"co", "blue", true},
    {"fr", "darkorange", false}, {"sw", "purple", false},
};

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// `text` escaped for a DOT label and broken at spaces into lines of at most `width` characters (a longer word
// stays whole), so that Hopper instructions do not stretch a graph.
std::string wrappedLabel(const std::string& text, std::size_t width = 40) {
  std::string out, line;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += escape(line) + "\\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + escape(line);
}

std::string access(const Execution& x, const model::EventGraph& g, std::size_t i) {
  const auto& e = x.event(i);
  if (e.vaddr < 0) return "";
  const std::string kind = e.is(Tag::R) ? "R " : "W ";
  const auto v = x.value(i);
  // An mbarrier's value packs its phase and counts: shown field by field.
  const std::string value = !v ? "?" : e.is(Tag::MB) ? model::mbar::describe(*v) : std::to_string(*v);
  return kind + g.virtualNames[static_cast<std::size_t>(e.vaddr)] + " = " + value;
}

std::optional<BitMatrix> relationNamed(const Execution& x, model::Evaluator& ev, const std::string& name) {
  if (const int d = ev.model().findDef(name); d >= 0) {
    if (const auto* m = std::get_if<BitMatrix>(&ev.definition(static_cast<std::size_t>(d)))) return *m;
    return std::nullopt;
  }
  if (auto base = model::findBaseRel(name)) return x.candidate().rel(*base);
  return std::nullopt;
}

}  // namespace

std::string eventName(const Execution& x, std::size_t local) {
  const auto& e = x.event(local);
  if (e.is(Tag::I)) return e.label.substr(0, e.label.find(" ="));
  return "e" + std::to_string(x.global(local));
}

std::string describeExecution(const Execution& x, const model::EventGraph& g) {
  std::ostringstream out;
  int thread = -2;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto& e = x.event(i);
    if (e.thread < 0) continue;
    const std::string head = e.thread != thread ? g.threads[static_cast<std::size_t>(e.thread)].name + ":" : "";
    thread = e.thread;
    out << "  " << head << std::string(5 - std::min<std::size_t>(4, head.size()), ' ') << eventName(x, i)
        << std::string(6 - std::min<std::size_t>(5, eventName(x, i).size()), ' ') << e.label
        << std::string(std::max<std::size_t>(2, 28 - std::min<std::size_t>(28, e.label.size())), ' ')
        << access(x, g, i);
    if (e.is(Tag::R)) out << "  from " << eventName(x, x.readsFrom(i));
    out << "\n";
  }
  const BitMatrix& co = x.candidate().rel(BaseRel::Co);
  const BitMatrix immediate = BitMatrix(co).subtract(co.compose(co));
  out << "  co:";
  bool any = false;
  for (auto [a, b] : immediate.pairs()) {
    out << (any ? ";" : "") << " " << eventName(x, a) << " < " << eventName(x, b);
    any = true;
  }
  out << (any ? "" : " (no writes)") << "\n";
  return out.str();
}

std::string describeSteps(const Execution& x, const std::vector<Step>& steps, bool withVia) {
  std::string out;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const auto& s = steps[k];
    if (k == 0 || steps[k - 1].to != s.from) out += (k ? " ; " : "") + eventName(x, s.from);
    out += " -" + s.relation + "-> " + eventName(x, s.to);
    if (withVia && !s.via.empty()) {
      out += " [";
      for (std::size_t v = 0; v < s.via.size(); ++v) out += (v ? " > " : "") + s.via[v];
      out += "]";
    }
  }
  return out;
}

std::string toDot(const Execution& x, const model::EventGraph& g, model::Evaluator& ev, const std::string& title,
                  const std::vector<Step>& highlight) {
  std::ostringstream out;
  out << "digraph \"" << escape(title) << "\" {\n"
      << "  label=\"" << escape(title) << "\"; labelloc=t; fontname=\"monospace\";\n"
      << "  node [shape=box, fontname=\"monospace\", fontsize=11]; edge [fontname=\"monospace\", fontsize=10];\n";
  // The events a highlighted edge joins (the two racing accesses, a violation's cycle) get a red frame too.
  std::set<std::size_t> marked;
  for (const auto& s : highlight) marked.insert({s.from, s.to});
  auto node = [&](std::size_t i) {
    const std::string second = access(x, g, i);
    const std::string first = x.event(i).is(Tag::I) ? x.event(i).label : eventName(x, i) + ": " + x.event(i).label;
    out << "    n" << i << " [label=\"" << wrappedLabel(first) << (x.event(i).is(Tag::I) ? "" : "\\n" + wrappedLabel(second))
        << "\""
        << (marked.count(i) ? ", color=red, penwidth=2.5" : "") << "];\n";
  };
  out << "  subgraph cluster_init {\n    label=\"initial writes\"; style=dashed;\n";
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x.event(i).thread < 0) node(i);
  out << "  }\n";
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    const auto& tg = g.threads[t];
    out << "  subgraph cluster_" << tg.name << " {\n    label=\"" << tg.name << "  (cta " << tg.cta << ", cluster "
        << tg.cluster << ", gpu " << tg.gpu << ")\";\n";
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x.event(i).thread == static_cast<int>(t)) node(i);
    out << "  }\n";
  }
  for (const auto& d : kDrawn) {
    auto r = relationNamed(x, ev, d.name);
    if (!r) continue;
    if (d.reduce) r->subtract(r->compose(*r));
    for (auto [a, b] : r->pairs())
      out << "  n" << a << " -> n" << b << " [label=\"" << d.name << "\", color=" << d.color << ", fontcolor=" << d.color
          << "];\n";
  }
  for (const auto& s : highlight)
    out << "  n" << s.from << " -> n" << s.to << " [label=\"" << escape(s.relation)
        << "\", color=red, fontcolor=red, penwidth=2.5];\n";
  out << "}\n";
  return out.str();
}

}  // namespace ptxmm::checker
