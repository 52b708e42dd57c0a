// The async-order pass (AsyncOrder.hpp). Async bookkeeping instructions are never inside loops
// (checkProgram), so walking the nodes in order walks the source order.
#include "frontend/lower/AsyncOrder.hpp"

namespace ptxmm::frontend {
namespace {

using Group = std::vector<int>;

class Orderer {
 public:
  explicit Orderer(model::EventGraph& g) : g_(g) {}

  void node(const model::Node& n, const AsyncRecord& r) {
    switch (r.kind) {
      case AsyncKind::None: break;
      case AsyncKind::CpAsync:
        issue(r);
        cpPending_.push_back(r.accesses.back());
        cpAll_.push_back(r.accesses.back());
        break;
      case AsyncKind::CpCommit: commit(cpPending_, cpGroups_); break;
      case AsyncKind::CpWait:
        // wait_all is commit_group + wait_group 0; wait_group N commits nothing: a cp.async not yet committed
        // is in no group, so no wait_group retires it [§4.6].
        if (r.commitsFirst) commit(cpPending_, cpGroups_);
        retire(cpGroups_, r.groups, r.marker);
        break;
      case AsyncKind::CpMbarArrive:
        issueOf(r.marker);
        after(cpAll_, r.marker);
        break;
      case AsyncKind::BulkMbar:
      case AsyncKind::AsyncStore: issue(r); break;
      case AsyncKind::BulkGroup:
        issue(r);
        bulkPending_.push_back(r.marker);
        bulkReadsPending_.insert(bulkReadsPending_.end(), r.reads.begin(), r.reads.end());
        break;
      case AsyncKind::BulkCommit:
        commit(bulkPending_, bulkGroups_);
        commit(bulkReadsPending_, bulkReadGroups_);
        break;
      case AsyncKind::BulkWait:
        // Without .read the group's completions are retired; with .read only its reads (tensor map, source).
        retire(r.readOnly ? bulkReadGroups_ : bulkGroups_, r.groups, r.marker);
        if (r.readOnly) keepNewest(bulkGroups_, r.groups);
        else keepNewest(bulkReadGroups_, r.groups);
        break;
      case AsyncKind::TcOp:
        // Pipelined: an mma/cp is issued in order after the thread's earlier mma/cp [§4.12 (a)].
        for (int a : r.accesses) {
          for (int before : tcOps_) g_.iss.emplace_back(before, a);
          for (int f : tcAfterFences_) g_.iss.emplace_back(f, a);
        }
        tcOps_.insert(tcOps_.end(), r.accesses.begin(), r.accesses.end());
        break;
      case AsyncKind::TcLd:
      case AsyncKind::TcSt:
        for (int a : r.accesses)
          for (int f : tcAfterFences_) g_.iss.emplace_back(f, a);
        (r.kind == AsyncKind::TcLd ? tcLoads_ : tcStores_).push_back(r.accesses.front());
        break;
      case AsyncKind::TcCommit:
        issueOf(r.marker);
        after(tcOps_, r.implicitFence);
        break;
      case AsyncKind::TcWaitLd: after(tcLoads_, r.marker); break;
      case AsyncKind::TcWaitSt: after(tcStores_, r.marker); break;
      case AsyncKind::TcFenceBefore:
        // It orders the *issue* of earlier tcgen05 operations before later thread synchronisation, not their
        // completion (only wait::ld/st and commit track that) [§4.12 (d) and its encoding]: issue points are not
        // events here, so it adds no order.
        break;
      case AsyncKind::TcFenceAfter: tcAfterFences_.push_back(r.marker); break;
      case AsyncKind::WgFence: wgFences_.push_back(r.marker); break;
      case AsyncKind::WgMma:
        for (int a : r.accesses)
          for (int f : wgFences_) g_.iss.emplace_back(f, a);
        wgPending_.insert(wgPending_.end(), r.accesses.begin(), r.accesses.end());
        break;
      case AsyncKind::WgCommit: commit(wgPending_, wgGroups_); break;
      case AsyncKind::WgWait: retire(wgGroups_, r.groups, r.implicitFence); break;
    }
    for (int e : n.events)
      if (!g_.events[static_cast<std::size_t>(e)].is(model::Tag::AS)) issued_.push_back(e);
  }

 private:
  // Async accesses are ordered after everything their thread did before issuing them [§2.2 iss, A10].
  void issue(const AsyncRecord& r) {
    for (int a : r.accesses) issueOf(a);
  }
  // An asynchronous arrive-on happens after its instruction issues, so after the mbarrier's initialisation by
  // the same thread; the model does not let it publish those earlier accesses (AAR in ptx-core.cat).
  void issueOf(int event) {
    for (int x : issued_) g_.iss.emplace_back(x, event);
  }
  void after(const std::vector<int>& events, int target) {
    for (int e : events) g_.adone.emplace_back(e, target);
  }
  // A commit with nothing pending still makes a group, an empty one, which wait_group N counts among the N
  // most recent (the cp.async, bulk and wgmma commit_group pages; CUTLASS's multistage loops commit empty groups
  // in their tail iterations).
  static void commit(Group& pending, std::vector<Group>& groups) {
    groups.push_back(std::move(pending));
    pending.clear();
  }
  // Waits until at most `keep` of the most recent groups are pending: the older ones complete before `target`.
  void retire(std::vector<Group>& groups, std::int64_t keep, int target) {
    while (static_cast<std::int64_t>(groups.size()) > keep) {
      after(groups.front(), target);
      groups.erase(groups.begin());
    }
  }
  static void keepNewest(std::vector<Group>& groups, std::int64_t keep) {
    while (static_cast<std::int64_t>(groups.size()) > keep) groups.erase(groups.begin());
  }

  model::EventGraph& g_;
  std::vector<int> issued_;  // the thread's non-async events so far
  Group cpPending_, bulkPending_, bulkReadsPending_, wgPending_;
  std::vector<Group> cpGroups_, bulkGroups_, bulkReadGroups_, wgGroups_;
  std::vector<int> cpAll_, tcOps_, tcLoads_, tcStores_, tcAfterFences_, wgFences_;
};

}  // namespace

void orderAsync(const model::ThreadGraph& thread, const std::vector<AsyncRecord>& records, model::EventGraph& graph) {
  Orderer o(graph);
  for (std::size_t n = 0; n < thread.nodes.size(); ++n) o.node(thread.nodes[n], records[n]);
}

}  // namespace ptxmm::frontend
