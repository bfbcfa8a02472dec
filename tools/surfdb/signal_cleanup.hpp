// Interrupted commands leave no temporary files: on SIGINT, SIGTERM and SIGHUP the command removes
// every live temporary (formats' registry) and the output directory levels it made while they are
// empty (output_directory.hpp), and dies of the same signal, so its parent sees 128 + signal.
// Signals ignored when the command starts (nohup, background jobs of a shell without job control)
// stay ignored.
#pragma once

#include <signal.h>
#include <unistd.h>

#include "output_directory.hpp"
#include "surfdb/formats/temporary_file.hpp"

namespace surfdb::cli {

inline void remove_temporaries_and_die(int sig) {
  remove_live_temporaries();  // async-signal-safe: unlink() over fixed buffers
  remove_empty_output_levels();  // and rmdir()
  ::signal(sig, SIG_DFL);
  ::raise(sig);  // pending until unblocked: the handler's own signal is blocked while it runs
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::_exit(128 + sig);  // not reached unless the default action did not end the process
}

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (those not ignored already).
inline void install_signal_cleanup() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    for (const int other : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&sa.sa_mask, other);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace surfdb::cli
