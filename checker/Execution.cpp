// Construction of candidate executions and their values (Execution.hpp).
#include "checker/Execution.hpp"

#include <algorithm>
#include <span>

#include "checker/Odometer.hpp"
#include "model/StaticRelations.hpp"

namespace ptxmm::checker {

using model::BaseRel;
using model::BitMatrix;
using model::Tag;

Execution::Execution(const model::EventGraph& graph, std::vector<const ThreadPath*> paths)
    : g_(graph), paths_(std::move(paths)), local_(graph.events.size(), -1) {
  auto add = [&](int e) {
    local_[static_cast<std::size_t>(e)] = static_cast<int>(events_.size());
    events_.push_back(e);
  };
  for (std::size_t p = 0; p < g_.initCount(); ++p) add(static_cast<int>(p));
  for (const ThreadPath* path : paths_)
    for (int e : path->events) add(e);
  candidate_ = model::Candidate(events_.size());
  writesPerLocation_.resize(g_.initCount());
  writeTerms_.resize(events_.size());
  writeInputs_.resize(events_.size());
  for (std::size_t i = 0; i < events_.size(); ++i) {
    if (event(i).is(Tag::R)) reads_.push_back(i);
    if (event(i).is(Tag::W)) writesPerLocation_[static_cast<std::size_t>(event(i).paddr)].push_back(i);
    if (event(i).is(Tag::W) && event(i).thread < 0) writeTerms_[i] = event(i).value;  // an initial write: a constant
  }
  for (const ThreadPath* path : paths_)
    for (const auto& [w, term] : path->writeValues) {
      const std::size_t i = *local(w);
      writeTerms_[i] = term;
      std::vector<int> inputs;
      model::value::collectReads(term, inputs);
      for (int r : inputs) writeInputs_[i].push_back(*local(r));
    }
  buildStatic();
}

const model::Event& Execution::event(std::size_t local) const { return g_.events[static_cast<std::size_t>(events_[local])]; }

std::optional<std::size_t> Execution::local(int global) const {
  const int l = local_[static_cast<std::size_t>(global)];
  if (l < 0) return std::nullopt;
  return static_cast<std::size_t>(l);
}

void Execution::buildStatic() {
  const std::size_t n = events_.size();
  auto& c = candidate_;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < model::kTagCount; ++t)
      if (event(i).tags.test(t)) c.sets[t].set(i);
  for (BaseRel rel : model::staticRelations())
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (model::staticRelation(g_, rel, events_[i], events_[j])) c.rel(rel).set(i, j);
  for (const ThreadPath* path : paths_) {
    for (auto [r, e] : path->data) c.rel(BaseRel::Data).set(*local(r), *local(e));
    for (auto [r, e] : path->ctrl) c.rel(BaseRel::Ctrl).set(*local(r), *local(e));
  }
}

std::vector<std::size_t> Execution::sourcesOf(std::size_t read) const {
  return writesPerLocation_[static_cast<std::size_t>(event(read).paddr)];
}

Execution::Values Execution::setReadsFrom(const std::vector<std::size_t>& source) {
  BitMatrix rf(events_.size());
  rfSource_.assign(events_.size(), SIZE_MAX);
  for (std::size_t k = 0; k < reads_.size(); ++k) {
    rfSource_[reads_[k]] = source[k];
    rf.set(source[k], reads_[k]);
  }
  candidate_.rel(BaseRel::Rf) = std::move(rf);
  computeValues();
  if (thinAir_) return Values::ThinAir;
  for (const ThreadPath* path : paths_)
    for (const auto& a : path->assumptions)
      if ((*evaluate(a.term) != 0) != a.holds) return Values::Contradicted;
  return Values::Consistent;
}

// Values by following rf into write terms, depth first with an explicit stack (dependency chains run through
// every event). A dependency still being computed is a value that depends on itself (thin air): it counts as
// undetermined, and so do the values computed from it.
void Execution::computeValues() {
  enum : std::uint8_t { kNew, kOpen, kDone };
  values_.assign(events_.size(), std::nullopt);
  std::vector<std::uint8_t> state(events_.size(), kNew);
  thinAir_ = false;
  auto inputs = [&](std::size_t i) -> std::span<const std::size_t> {
    if (event(i).is(Tag::R)) return {&rfSource_[i], 1};
    return writeInputs_[i];
  };
  struct Frame {
    std::size_t event;
    std::size_t next;  // the next input to look at
  };
  std::vector<Frame> stack;
  for (std::size_t start = 0; start < events_.size(); ++start) {
    if (state[start] != kNew) continue;
    stack.push_back({start, 0});
    state[start] = kOpen;
    while (!stack.empty()) {
      Frame& f = stack.back();
      const std::span<const std::size_t> in = inputs(f.event);
      if (f.next < in.size()) {
        const std::size_t d = in[f.next++];
        if (state[d] == kOpen) thinAir_ = true;
        if (state[d] != kNew) continue;
        state[d] = kOpen;
        stack.push_back({d, 0});
        continue;
      }
      const std::size_t i = f.event;
      stack.pop_back();
      if (event(i).is(Tag::R))
        values_[i] = state[rfSource_[i]] == kDone ? values_[rfSource_[i]] : std::nullopt;
      else if (writeTerms_[i])
        values_[i] = model::value::evaluate(writeTerms_[i], [&](int read) {
          const std::size_t r = *local(read);
          return state[r] == kDone ? values_[r] : std::nullopt;
        });
      state[i] = kDone;
    }
  }
}

std::optional<std::int64_t> Execution::evaluate(const model::ValuePtr& term) const {
  return model::value::evaluate(term, [&](int read) { return values_[*local(read)]; });
}

bool Execution::needsUnspecifiedValue(const std::vector<ObservedKey>& keys) const {
  auto unspecified = [&](const model::ValuePtr& term) {
    if (!term || !(term->contains & model::ValueExpr::kHasPartial)) return false;
    bool u = false;
    model::value::evaluate(term, [&](int read) { return values_[*local(read)]; }, &u);
    return u;
  };
  for (const ThreadPath* path : paths_) {
    for (const auto& [w, term] : path->writeValues)
      if (unspecified(term)) return true;
    for (const auto& a : path->assumptions)
      if (unspecified(a.term)) return true;
    for (const auto& b : path->barriers)
      if (unspecified(b.id) || unspecified(b.size)) return true;
  }
  for (const auto& k : keys)
    if (k.kind == ObservedKey::Kind::Register &&
        unspecified(paths_[static_cast<std::size_t>(k.thread)]->finalRegisters[static_cast<std::size_t>(k.reg)]))
      return true;
  return false;
}

std::optional<std::vector<Arrival>> Execution::arrivals() const {
  std::vector<Arrival> out;
  for (const ThreadPath* path : paths_)
    for (const auto& b : path->barriers) {
      const auto& e = g_.events[static_cast<std::size_t>(b.event)];
      if (!e.is(Tag::BA)) continue;
      const auto id = evaluate(b.id);
      std::optional<std::int64_t> size;
      if (b.size) size = evaluate(b.size);
      if (!id || (b.size && !size)) return std::nullopt;
      // A thread stuck at this barrier arrived and waits: its path has no wait half.
      const bool blocked = path->end == PathEnd::Barrier && path->stuckEvent == b.event;
      Arrival a{*local(b.event), std::nullopt, blocked, e.thread, barrierClass(g_, e), *id, size, e.barrier->aligned};
      for (const auto& w : path->barriers) {
        const auto& we = g_.events[static_cast<std::size_t>(w.event)];
        if (we.node == e.node && we.is(Tag::BW)) a.wait = *local(w.event);
      }
      out.push_back(a);
    }
  return out;
}

BarrierContext Execution::barrierContext(const std::vector<StaticUse>& uses) const {
  // Only a thread whose code ends exits (a path at the unrolling bound counts as one that ends: it is reported).
  BarrierContext c{{}, &uses, &g_};
  for (const ThreadPath* p : paths_) c.exited.push_back(p->end == PathEnd::Exit || p->end == PathEnd::Bound);
  return c;
}

std::vector<std::size_t> Execution::scFences() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < events_.size(); ++i)
    if (event(i).is(Tag::F) && event(i).is(Tag::SC)) out.push_back(i);
  return out;
}

void Execution::setFenceOrder(const std::vector<std::size_t>& order) {
  BitMatrix m(events_.size());
  for (std::size_t a = 0; a < order.size(); ++a)
    for (std::size_t b = a + 1; b < order.size(); ++b) m.set(order[a], order[b]);
  candidate_.rel(BaseRel::SyncFence) = std::move(m);
}

int Execution::boundThread() const {
  for (std::size_t t = 0; t < paths_.size(); ++t)
    if (paths_[t]->boundLoop >= 0) return static_cast<int>(t);
  return -1;
}

std::vector<std::vector<std::int64_t>> Execution::finalStates(const std::vector<ObservedKey>& keys) const {
  const BitMatrix& co = candidate_.rel(BaseRel::Co);
  std::vector<std::vector<std::size_t>> finals(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].kind != ObservedKey::Kind::Location) continue;
    const auto& writes = writesPerLocation_[static_cast<std::size_t>(keys[k].physical)];
    for (std::size_t w : writes)
      if (std::none_of(writes.begin(), writes.end(), [&](std::size_t x) { return co.test(w, x); })) finals[k].push_back(w);
  }
  std::vector<std::vector<std::int64_t>> out;
  std::vector<std::size_t> pick(keys.size(), 0);
  do {
    std::vector<std::int64_t> state(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k)
      state[k] = keys[k].kind == ObservedKey::Kind::Location
                     ? *values_[finals[k][pick[k]]]
                     : *evaluate(paths_[static_cast<std::size_t>(keys[k].thread)]->finalRegisters[static_cast<std::size_t>(keys[k].reg)]);
    out.push_back(std::move(state));
  } while (advance(pick, [&](std::size_t k) { return finals[k].empty() ? 1 : finals[k].size(); }));
  return out;
}

}  // namespace ptxmm::checker
