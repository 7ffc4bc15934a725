#include "core/interrupt.h"

#include <pthread.h>

#include <atomic>
#include <csignal>
#include <ctime>

namespace lossless {
namespace {

std::atomic<int> g_signal{0};
// Who sent the first signal and when; written and read only inside the handler, which runs on the main thread
// alone (workers start with both signals blocked: InterruptsBlockedInNewThreads) with both signals blocked,
// so one handler never interrupts or races another.
SignalSender g_first_sender{};
long long g_first_ns = 0;

long long monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);  // async-signal-safe
  return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

extern "C" void on_interrupt(int sig, siginfo_t* info, void*) {
  const SignalSender sender{sig, info->si_code == SI_USER || info->si_code == SI_QUEUE, info->si_pid};
  const long long now_ns = monotonic_ns();
  if (g_signal.load(std::memory_order_relaxed) == 0) {
    g_first_sender = sender;
    g_first_ns = now_ns;
    g_signal.store(sig, std::memory_order_relaxed);
    return;
  }
  if (is_repeat_of_first_request(g_first_sender, sender, now_ns - g_first_ns)) return;
  // A second request: a user who presses Ctrl-C twice wants out now.
  std::signal(sig, SIG_DFL);
  std::raise(sig);  // delivered, with the default action, when the handler returns
}

}  // namespace

bool is_repeat_of_first_request(const SignalSender& first, const SignalSender& next,
                                long long since_first_ns) {
  return next.signal == first.signal && next.sent_by_process && first.sent_by_process &&
         next.sender_pid == first.sender_pid && since_first_ns < kRepeatWindowNs;
}

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_sigaction = on_interrupt;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

InterruptsBlockedInNewThreads::InterruptsBlockedInNewThreads() {
  static_assert(sizeof(sigset_t) <= sizeof(saved_));
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, reinterpret_cast<sigset_t*>(saved_));
}

InterruptsBlockedInNewThreads::~InterruptsBlockedInNewThreads() {
  pthread_sigmask(SIG_SETMASK, reinterpret_cast<const sigset_t*>(saved_), nullptr);
}

bool interrupt_requested() { return g_signal.load(std::memory_order_relaxed) != 0; }
int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }
void request_interrupt(int signal) { g_signal.store(signal, std::memory_order_relaxed); }

}  // namespace lossless
