// The deadline pool (DeadlinePool.hpp). The calling thread watches the deadlines; the workers share one state
// block (a shared_ptr, so a given-up worker that finishes after runWithDeadlines returned still finds its lock).
#include "app/DeadlinePool.hpp"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace ptxmm::app {
namespace {

using Clock = std::chrono::steady_clock;

struct PoolState {
  std::mutex mutex;
  std::condition_variable changed;
  std::function<JobCommit(std::size_t)> work;  // a copy: a given-up worker calls it after the caller's returned
  std::size_t count = 0, next = 0, finished = 0;
  std::vector<std::optional<Clock::time_point>> started;  // per job, while it runs
  std::vector<bool> closed;                                // committed or given up
  std::vector<std::size_t> workerOf;                       // per job: the worker running it
  int live = 0;                                            // workers not given up and not finished
};

// One worker: takes jobs until none are left; stops for good when its job was given up meanwhile.
void workLoop(const std::shared_ptr<PoolState>& s, std::size_t self) {
  std::unique_lock lock(s->mutex);
  while (s->next < s->count) {
    const std::size_t i = s->next++;
    s->started[i] = Clock::now();
    s->workerOf[i] = self;
    lock.unlock();
    JobCommit commit = s->work(i);
    lock.lock();
    if (s->closed[i]) return;  // given up: the watcher replaced this worker and reported the job
    s->closed[i] = true;
    s->started[i].reset();
    commit();
    ++s->finished;
    s->changed.notify_all();
  }
  --s->live;
  s->changed.notify_all();
}

}  // namespace

bool runWithDeadlines(std::size_t count, int workers, double limitSeconds,
                      const std::function<JobCommit(std::size_t)>& work,
                      const std::function<void(std::size_t)>& overrun) {
  auto s = std::make_shared<PoolState>();
  s->work = work;
  s->count = count;
  s->started.resize(count);
  s->closed.assign(count, false);
  s->workerOf.assign(count, 0);
  std::vector<std::thread> threads;
  // Starts a worker; false when the system refuses the thread (issue 16 C4: the suite goes on with fewer).
  auto spawn = [&] {
    try {
      std::lock_guard lock(s->mutex);
      threads.emplace_back([s, self = threads.size()] { workLoop(s, self); });
      ++s->live;
      return true;
    } catch (const std::system_error&) {
      return false;
    }
  };
  for (int w = 0; w < std::max(1, workers) && spawn();) ++w;
  bool gaveUp = false;
  std::unique_lock lock(s->mutex);
  const auto limit = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limitSeconds));
  while (s->finished < count) {
    if (s->live == 0) {  // no worker could be created (or re-created): the rest runs here, unwatched
      lock.unlock();
      workLoop(s, threads.size());
      lock.lock();
      ++s->live;  // workLoop counted this thread out
      continue;
    }
    if (limitSeconds <= 0) {
      s->changed.wait(lock);
      continue;
    }
    s->changed.wait_for(lock, std::chrono::milliseconds(20));
    const auto now = Clock::now();
    for (std::size_t i = 0; i < count; ++i) {
      if (s->closed[i] || !s->started[i] || now - *s->started[i] < limit) continue;
      s->closed[i] = true;
      s->started[i].reset();
      overrun(i);
      ++s->finished;
      --s->live;
      threads[s->workerOf[i]].detach();
      gaveUp = true;
      lock.unlock();
      spawn();
      lock.lock();
    }
  }
  lock.unlock();
  for (auto& t : threads)
    if (t.joinable()) t.join();
  return gaveUp;
}

}  // namespace ptxmm::app
