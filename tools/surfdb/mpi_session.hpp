// MPI for the commands whose work is a list of independent items (a sweep's cases, a surface
// set's faces): a session started only when a launcher (mpirun, srun) started the process, and a
// dealer that hands out the items one at a time, so ranks that finish early get more. Without a
// launcher, or with one rank, the same dealer runs the items on threads of this process. Only the
// command uses MPI; the libraries know nothing of it.
#pragma once

#include <cstddef>
#include <atomic>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace surfdb::cli {

class MpiSession {
 public:
  /// MPI_Init_thread (funneled: only the main thread calls MPI) when a launcher started us, and a
  /// watchdog thread: a rank whose launcher dies (mpirun killed with SIGKILL, which cannot pass
  /// the signal on) removes its temporary files and exits at once, so a restarted job never runs
  /// beside the remains of a killed one.
  MpiSession();
  /// MPI_Finalize; MPI_Abort instead when an exception is leaving a session of several ranks,
  /// so the others do not wait for this one forever.
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  /// Waits until every rank has called it.
  void barrier() const;
  /// Rank 0's `text`, on every rank.
  std::string broadcast(const std::string& text) const;

  /// Prints `error` as main() would, when this session has several ranks: the destructor's
  /// MPI_Abort then ends every rank before main() could. Call from a catch block that rethrows.
  void report(const std::exception& error) const;

  /// This process's rank as its launcher's environment gives it (0 without a launcher), known
  /// before MPI starts: other ranks keep quiet about errors every rank finds alike.
  static int launched_rank();

 private:
  bool started_ = false;
  int rank_ = 0, size_ = 1;
  std::atomic<bool> stopping_{false};
  std::thread watchdog_;
};

/// Runs work(item) once for each item of `items` (rank 0's list; the others' is ignored): rank 0
/// deals the next item to whichever rank or thread asks, and itself runs `threads` threads (at
/// least one). `done(item)` runs on rank 0's main thread after each item, in the order they
/// finish. Returns on every rank once all items are done; an exception from work on rank 0 is
/// rethrown there after the others stop.
void deal_work(const MpiSession& session, const std::vector<std::size_t>& items, unsigned threads,
               const std::function<void(std::size_t)>& work, const std::function<void(std::size_t)>& done);

}  // namespace surfdb::cli
