// Ctrl-C and SIGTERM: the first one asks the running simulation to stop at the end of its current window (the
// run then leaves the previous outputs in place and exits 130); a second one ends the process at once.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/time.h"

namespace lossless {

// Installs the SIGINT / SIGTERM handlers (the command-line entry point does, once).
void install_interrupt_handlers();

// While one lives, threads started by this thread have SIGINT / SIGTERM blocked, so the handler only ever
// runs on the main thread (its state is not shared between threads). Create worker threads under one.
class InterruptsBlockedInNewThreads {
 public:
  InterruptsBlockedInNewThreads();
  ~InterruptsBlockedInNewThreads();
  InterruptsBlockedInNewThreads(const InterruptsBlockedInNewThreads&) = delete;
  InterruptsBlockedInNewThreads& operator=(const InterruptsBlockedInNewThreads&) = delete;

 private:
  unsigned char saved_[128];  // the caller's sigset_t (kept opaque: no <signal.h> in this header)
};

// Where a SIGINT / SIGTERM came from: `kill` by a process (its pid), or the terminal (Ctrl-C).
struct SignalSender {
  int signal = 0;
  bool sent_by_process = false;  // si_code SI_USER / SI_QUEUE; false for the terminal's Ctrl-C
  int sender_pid = 0;
};
// One request can arrive twice: `timeout` signals its child and then the child's process group, a few
// microseconds apart. Such a repeat — same signal, same
// sending process, within this window — is not the user's second request, which ends the process at once.
constexpr long long kRepeatWindowNs = 1000000000LL;
bool is_repeat_of_first_request(const SignalSender& first, const SignalSender& next,
                                long long since_first_ns);
// True once a SIGINT or SIGTERM has arrived (a relaxed load: cheap enough to check at every window end).
bool interrupt_requested();
// The signal that arrived (SIGINT or SIGTERM), 0 if none.
int interrupt_signal();
// For tests: as if a signal had arrived (0 clears it).
void request_interrupt(int signal);

// Thrown out of a run that stopped on an interrupt; `now_ps` is the simulated time it reached. `signal`: the
// signal that stopped it, when it arrived at another process of the run (0: this process's
// interrupt_signal()).
class Interrupted : public std::runtime_error {
 public:
  Interrupted(TimePs now_ps, std::uint64_t flows_completed, int signal = 0)
      : std::runtime_error("interrupted"), now_ps(now_ps), flows_completed(flows_completed), signal(signal) {}
  TimePs now_ps;
  std::uint64_t flows_completed;
  int signal;
};

// The exit status of a process ended by an interrupt (as a shell reports a process killed by SIGINT).
constexpr int kInterruptedExitStatus = 130;

}  // namespace lossless
