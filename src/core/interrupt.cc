#include "core/interrupt.h"

#include <atomic>
#include <csignal>

namespace lossless {
namespace {

std::atomic<int> g_signal{0};

extern "C" void on_interrupt(int sig) {
  g_signal.store(sig, std::memory_order_relaxed);
  // The next one is not caught: a user who presses Ctrl-C twice wants out now.
  std::signal(sig, SIG_DFL);
}

}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
}

bool interrupt_requested() { return g_signal.load(std::memory_order_relaxed) != 0; }
int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }
void request_interrupt(int signal) { g_signal.store(signal, std::memory_order_relaxed); }

}  // namespace lossless
