#include "core/interrupt.h"

#include <gtest/gtest.h>

#include <csignal>

namespace lossless {
namespace {

constexpr long long kMs = 1000000;

TEST(Interrupt, TheSameSignalFromTheSameProcessWithinTheWindowIsOneRequest) {
  const SignalSender timeout_cmd{SIGTERM, true, 4242};
  // `timeout` signals the child, then its process group: the second copy is not a second request.
  EXPECT_TRUE(is_repeat_of_first_request(timeout_cmd, timeout_cmd, 0));
  EXPECT_TRUE(is_repeat_of_first_request(timeout_cmd, timeout_cmd, 999 * kMs));
  // Later, it is: the same process asking again wants out now.
  EXPECT_FALSE(is_repeat_of_first_request(timeout_cmd, timeout_cmd, kRepeatWindowNs));
}

TEST(Interrupt, ASecondRequestFromElsewhereOrOfAnotherKindEndsTheProcess) {
  const SignalSender kill_a{SIGTERM, true, 100};
  EXPECT_FALSE(is_repeat_of_first_request(kill_a, SignalSender{SIGTERM, true, 101}, kMs));
  EXPECT_FALSE(is_repeat_of_first_request(kill_a, SignalSender{SIGINT, true, 100}, kMs));
  // Ctrl-C comes from the terminal (no sending process), once per key press: two presses are two requests.
  const SignalSender ctrl_c{SIGINT, false, 0};
  EXPECT_FALSE(is_repeat_of_first_request(ctrl_c, ctrl_c, kMs));
  EXPECT_FALSE(is_repeat_of_first_request(ctrl_c, SignalSender{SIGINT, true, 0}, kMs));
}

}  // namespace
}  // namespace lossless
