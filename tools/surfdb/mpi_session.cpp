#include "mpi_session.hpp"

#include <cstdio>

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "surfdb/formats/temporary_file.hpp"

namespace surfdb::cli {
namespace {

constexpr int kRequest = 1;  // worker -> 0: the item it finished (-1: none yet), asking for the next
constexpr int kAssign = 2;   // 0 -> worker: the next item, -1: stop
// Rank 0 looks for requests this often while its threads work (it does not spin on a core).
constexpr auto kPollInterval = std::chrono::milliseconds(2);
// How often a rank checks that its launcher (its parent process) is still there.
constexpr auto kWatchInterval = std::chrono::milliseconds(200);
// The exit status of a rank whose launcher died: as if killed by SIGKILL.
constexpr int kOrphanStatus = 128 + 9;

// Rank 0's side: the items, handed out under a lock to its threads and (by its main thread) to
// the other ranks.
class Dealer {
 public:
  explicit Dealer(const std::vector<std::size_t>& items) : items_(items) {}
  long long take() {
    std::lock_guard lock(mutex_);
    if (error_ || next_ == items_.size()) return -1;
    return static_cast<long long>(items_[next_++]);
  }
  void finished(std::size_t item) {
    std::lock_guard lock(mutex_);
    finished_.push_back(item);
  }
  void failed(std::exception_ptr e) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = e;
  }
  std::vector<std::size_t> drain() {
    std::lock_guard lock(mutex_);
    return std::exchange(finished_, {});
  }
  std::exception_ptr error() {
    std::lock_guard lock(mutex_);
    return error_;
  }

 private:
  const std::vector<std::size_t>& items_;
  std::mutex mutex_;
  std::size_t next_ = 0;
  std::vector<std::size_t> finished_;
  std::exception_ptr error_;
};

void worker_rank(const std::function<void(std::size_t)>& work) {
  long long finished = -1, item = -1;
  for (;;) {
    MPI_Send(&finished, 1, MPI_LONG_LONG, 0, kRequest, MPI_COMM_WORLD);
    MPI_Recv(&item, 1, MPI_LONG_LONG, 0, kAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (item < 0) return;
    work(static_cast<std::size_t>(item));
    finished = item;
  }
}

// Answers one waiting request, if any; returns whether it did, counting the ranks it stopped.
bool answer_request(Dealer& dealer, int& ranks_working, const std::function<void(std::size_t)>& done) {
  int waiting = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kRequest, MPI_COMM_WORLD, &waiting, &status);
  if (!waiting) return false;
  long long finished = -1;
  MPI_Recv(&finished, 1, MPI_LONG_LONG, status.MPI_SOURCE, kRequest, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (finished >= 0) done(static_cast<std::size_t>(finished));
  long long next = dealer.take();
  MPI_Send(&next, 1, MPI_LONG_LONG, status.MPI_SOURCE, kAssign, MPI_COMM_WORLD);
  if (next < 0) --ranks_working;
  return true;
}

}  // namespace

int MpiSession::launched_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return 0;
}

MpiSession::MpiSession() {
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK");
  if (!launched) return;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  started_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  watchdog_ = std::thread([this, parent = ::getppid()] {
    while (!stopping_.load()) {
      if (::getppid() != parent) {
        remove_live_temporaries();
        ::_exit(kOrphanStatus);
      }
      std::this_thread::sleep_for(kWatchInterval);
    }
  });
}

MpiSession::~MpiSession() {
  if (!started_) return;
  stopping_ = true;
  watchdog_.join();
  if (std::uncaught_exceptions() > 0 && size_ > 1) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
}

void MpiSession::report(const std::exception& error) const {
  if (size_ < 2) return;
  std::fprintf(stderr, "surfdb: error: %s\n", error.what());
  std::fflush(stderr);
}

void MpiSession::barrier() const {
  if (started_) MPI_Barrier(MPI_COMM_WORLD);
}

std::string MpiSession::broadcast(const std::string& text) const {
  if (!started_) return text;
  std::string out = text;
  unsigned long long length = out.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  out.resize(length);
  MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

void deal_work(const MpiSession& session, const std::vector<std::size_t>& items, unsigned threads,
               const std::function<void(std::size_t)>& work, const std::function<void(std::size_t)>& done) {
  if (session.rank() != 0) return worker_rank(work);
  Dealer dealer(items);
  const unsigned thread_count = std::max(threads, 1u);
  std::atomic<unsigned> running{thread_count};  // threads not yet out of work
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < thread_count; ++t)
    pool.emplace_back([&] {
      for (long long item; (item = dealer.take()) >= 0;) {
        try {
          work(static_cast<std::size_t>(item));
          dealer.finished(static_cast<std::size_t>(item));
        } catch (...) {
          dealer.failed(std::current_exception());
        }
      }
      --running;
    });
  int ranks_working = session.size() - 1;
  try {
    while (ranks_working > 0 || running.load() > 0) {
      const bool answered = ranks_working > 0 && answer_request(dealer, ranks_working, done);
      for (const std::size_t item : dealer.drain()) done(item);
      if (!answered) std::this_thread::sleep_for(kPollInterval);
    }
  } catch (...) {  // the dealer stops dealing, the threads finish their cases: then the error goes on
    dealer.failed(std::current_exception());
    for (std::thread& t : pool) t.join();
    throw;
  }
  for (std::thread& t : pool) t.join();
  for (const std::size_t item : dealer.drain()) done(item);
  if (const std::exception_ptr e = dealer.error()) std::rethrow_exception(e);
}

}  // namespace surfdb::cli
