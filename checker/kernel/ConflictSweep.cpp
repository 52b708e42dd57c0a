// The per-buffer sweep (ConflictSweep.hpp).
#include "checker/kernel/ConflictSweep.hpp"

#include <algorithm>
#include <map>

namespace ptxmm::checker::kernel {

void forEachConflict(const KernelGraph& kernel, const std::function<void(const KernelAccess&, const KernelAccess&)>& visit) {
  std::map<int, std::vector<const KernelAccess*>> byBuffer;
  for (const auto& a : kernel.accesses()) byBuffer[a.buffer].push_back(&a);
  auto conflicting = [&](const KernelAccess& x, const KernelAccess& y) {
    const model::Event& ex = kernel.event(x.event);
    const model::Event& ey = kernel.event(y.event);
    return ex.thread != ey.thread || ex.is(model::Tag::AS) || ey.is(model::Tag::AS);
  };
  auto report = [&](const KernelAccess& x, const KernelAccess& y) {
    if (!conflicting(x, y)) return;
    if (x.event < y.event) visit(x, y);
    else visit(y, x);
  };
  for (auto& [buffer, list] : byBuffer) {
    std::sort(list.begin(), list.end(), [](const KernelAccess* a, const KernelAccess* b) {
      return a->lo != b->lo ? a->lo < b->lo : a->event < b->event;
    });
    std::vector<const KernelAccess*> writes, reads;  // accesses whose range is still open
    auto expire = [](std::vector<const KernelAccess*>& open, std::int64_t at) {
      open.erase(std::remove_if(open.begin(), open.end(), [&](const KernelAccess* a) { return a->hi <= at; }), open.end());
    };
    for (const KernelAccess* a : list) {
      expire(writes, a->lo);
      expire(reads, a->lo);
      for (const KernelAccess* w : writes) report(*w, *a);
      if (a->write)
        for (const KernelAccess* r : reads) report(*r, *a);
      (a->write ? writes : reads).push_back(a);
    }
  }
}

}  // namespace ptxmm::checker::kernel
