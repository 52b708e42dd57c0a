// Construction of candidate executions and their values (Execution.hpp).
#include "checker/Execution.hpp"

#include <algorithm>

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
  for (std::size_t i = 0; i < events_.size(); ++i) {
    if (event(i).is(Tag::R)) reads_.push_back(i);
    if (event(i).is(Tag::W)) writesPerLocation_[static_cast<std::size_t>(event(i).paddr)].push_back(i);
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
  values_.assign(events_.size(), std::nullopt);
  state_.assign(events_.size(), 0);
  thinAir_ = false;
  for (std::size_t i = 0; i < events_.size(); ++i) computeValue(i);
  if (thinAir_) return Values::ThinAir;
  for (const ThreadPath* path : paths_)
    for (const auto& a : path->assumptions)
      if ((*evaluate(a.term) != 0) != a.holds) return Values::Contradicted;
  return Values::Consistent;
}

const model::ValuePtr& Execution::writeTerm(std::size_t local) const {
  const auto& e = event(local);
  if (e.thread >= 0)
    for (const auto& [w, v] : paths_[static_cast<std::size_t>(e.thread)]->writeValues)
      if (w == events_[local]) return v;
  return e.value;  // initial writes: a constant
}

// Values by following rf into write terms; a cycle is a value that depends on itself (thin air).
std::optional<std::int64_t> Execution::computeValue(std::size_t i) {
  if (state_[i] == 2) return values_[i];
  if (state_[i] == 1) {
    thinAir_ = true;
    return std::nullopt;
  }
  state_[i] = 1;
  std::optional<std::int64_t> v;
  if (event(i).is(Tag::R))
    v = computeValue(rfSource_[i]);
  else if (event(i).is(Tag::W))
    v = model::value::evaluate(*writeTerm(i), [&](int read) { return computeValue(*local(read)); });
  state_[i] = 2;
  values_[i] = v;
  return v;
}

std::optional<std::int64_t> Execution::evaluate(const model::ValuePtr& term) const {
  return model::value::evaluate(*term, [&](int read) { return values_[*local(read)]; });
}

std::optional<std::vector<Arrival>> Execution::arrivals() const {
  std::vector<Arrival> out;
  for (const ThreadPath* path : paths_)
    for (const auto& b : path->barriers) {
      const auto& e = g_.events[static_cast<std::size_t>(b.event)];
      if (!e.is(Tag::BA)) continue;
      const auto id = evaluate(b.id);
      std::optional<std::int64_t> count;
      if (b.count) count = evaluate(b.count);
      if (!id || (b.count && !count)) return std::nullopt;
      Arrival a{*local(b.event), std::nullopt, e.thread, g_.barrierDomain(e), *id, count};
      for (const auto& w : path->barriers) {
        const auto& we = g_.events[static_cast<std::size_t>(w.event)];
        if (we.node == e.node && we.is(Tag::BW)) a.wait = *local(w.event);
      }
      out.push_back(a);
    }
  return out;
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
