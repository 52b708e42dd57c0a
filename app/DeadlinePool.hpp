// Worker threads that run numbered jobs, each under a deadline — the backstop of --timeout for `suite`, which
// checks many tests in parallel and so cannot end the process as `run`'s Watchdog does. The engines stop their own
// search at the timeout, but unrolling, the Z3 encoding and freeing a huge formula cannot be interrupted (a suite
// test overran --timeout by 1.4 s while Z3 freed its formula, issue 16). A job still running `limitSeconds` after it
// started is given up: `overrun(i)` reports it at once, a fresh worker takes the given-up worker's place, and the
// given-up thread is left to finish on its own, detached; what it computes is then thrown away.
#pragma once

#include <cstddef>
#include <functional>

namespace ptxmm::app {

/// What a job hands back to be committed: called (serialised with the other commits and overruns) only when the
/// job was not given up first.
using JobCommit = std::function<void()>;

/// Runs jobs 0..count-1 on `workers` threads; `work(i)` does job i's unbounded part and returns its commit;
/// `overrun(i)` (serialised with the commits) stands for a job given up after `limitSeconds` (0: no deadline).
/// Returns true when some job was given up: its thread may still be running and using what `work` refers to, so
/// the caller must end the process with std::_Exit instead of returning (destructors would pull that data away).
/// When no worker thread can be created (a process or memory limit), the jobs run on the calling thread, without
/// deadlines.
bool runWithDeadlines(std::size_t count, int workers, double limitSeconds,
                      const std::function<JobCommit(std::size_t)>& work,
                      const std::function<void(std::size_t)>& overrun);

}  // namespace ptxmm::app
