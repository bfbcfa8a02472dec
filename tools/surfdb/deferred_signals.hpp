// Signals held until a safe point: a command that writes a tree of files (`assemble`'s directory
// of surface sets) cannot have it removed by the async-signal-safe handler, which empties one
// level. While a DeferredSignals lives, SIGINT, SIGTERM and SIGHUP only note themselves; the
// command calls check() between steps, which throws Interrupted, unwinds (removing what it
// wrote) and then, once the DeferredSignals is gone, dies of the signal with resume().
#pragma once

#include <signal.h>

#include <atomic>
#include <stdexcept>
#include <string>

namespace surfdb::cli {

class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int sig) : std::runtime_error("interrupted by signal " + std::to_string(sig)), signal(sig) {}
  /// Dies of the signal through the handlers installed before (signal_cleanup.hpp).
  [[noreturn]] void resume() const {
    ::raise(signal);
    std::terminate();  // not reached: the handler ends the process
  }
  int signal;
};

namespace detail {
inline std::atomic<int> g_deferred_signal{0};
inline void note_signal(int sig) { g_deferred_signal.store(sig); }
}  // namespace detail

class DeferredSignals {
 public:
  DeferredSignals() {
    for (int k = 0; k < 3; ++k) {
      struct sigaction sa {};
      ::sigaction(kSignals[k], nullptr, &old_[k]);
      if (old_[k].sa_handler == SIG_IGN) continue;  // nohup: stays ignored
      sa.sa_handler = detail::note_signal;
      sigemptyset(&sa.sa_mask);
      ::sigaction(kSignals[k], &sa, nullptr);
    }
  }
  ~DeferredSignals() {
    for (int k = 0; k < 3; ++k) ::sigaction(kSignals[k], &old_[k], nullptr);
  }
  DeferredSignals(const DeferredSignals&) = delete;
  DeferredSignals& operator=(const DeferredSignals&) = delete;

  /// Throws Interrupted when a signal came since the construction.
  static void check() {
    if (const int sig = detail::g_deferred_signal.load()) throw Interrupted(sig);
  }

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_[3] {};
};

}  // namespace surfdb::cli
