#include "control/architecture/voq.h"

#include <gtest/gtest.h>

namespace lossless {
namespace {

// Three ports, 100 KB queues, pause at 60 KB (a 40 KB headroom), resume at 57 KB.
VoqBuffer three_ports() { return VoqBuffer(3, 100'000, {60'000, 60'000, 60'000}, 3'000); }

TEST(VoqBuffer, PausesAnInputWhenOneOfItsVoqsReachesXoff) {
  VoqBuffer b = three_ports();
  // Input 0 sends to outputs 1 and 2: 50 KB each, no VOQ at xoff yet.
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(b.admit(0, 3, 1000, 1));
    ASSERT_TRUE(b.admit(0, 3, 1000, 2));
  }
  EXPECT_EQ(b.ingress_bytes(0, 3), 100'000u);
  EXPECT_FALSE(b.should_pause(0, 3));  // 100 KB at the input, but no single VOQ at 60 KB
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(b.admit(0, 3, 1000, 1));
  EXPECT_TRUE(b.should_pause(0, 3));
  EXPECT_FALSE(b.should_pause(1, 3));  // other inputs, other priorities are not concerned
  EXPECT_FALSE(b.should_pause(0, 4));
  b.set_paused(0, 3, true);
  EXPECT_FALSE(b.should_pause(0, 3));  // already paused
  EXPECT_FALSE(b.should_resume(0, 3));
  // Draining VOQ(0, 1) to 57 KB resumes it (xoff - resume offset); VOQ(0, 2) at 50 KB does not hold it back.
  for (int i = 0; i < 2; ++i) b.release(0, 3, 1000, 1);
  EXPECT_FALSE(b.should_resume(0, 3));  // 58 KB
  b.release(0, 3, 1000, 1);
  EXPECT_TRUE(b.should_resume(0, 3));  // 57 KB
}

TEST(VoqBuffer, AVoqNeverHoldsMoreThanItsSize) {
  VoqBuffer b = three_ports();
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(b.admit(2, 3, 1000, 0));
  EXPECT_FALSE(b.admit(2, 3, 1000, 0));  // the headroom is full: dropped, nothing accounted
  EXPECT_TRUE(b.admit(2, 3, 1000, 1));   // another VOQ of the same input still has room
  EXPECT_EQ(b.voq_bytes(2, 0, 3), 100'000u);
  EXPECT_EQ(b.free_bytes(), 9 * 100'000u - 101'000u);
}

TEST(VoqBuffer, ResumeWaitsForEveryVoqOfTheInput) {
  VoqBuffer b = three_ports();
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(b.admit(1, 3, 1000, 0));
    ASSERT_TRUE(b.admit(1, 3, 1000, 2));
  }
  EXPECT_TRUE(b.should_pause(1, 3));
  b.set_paused(1, 3, true);
  for (int i = 0; i < 30; ++i) b.release(1, 3, 1000, 0);
  EXPECT_FALSE(b.should_resume(1, 3));  // VOQ(1, 2) still at 60 KB
  for (int i = 0; i < 3; ++i) b.release(1, 3, 1000, 2);
  EXPECT_TRUE(b.should_resume(1, 3));
}

}  // namespace
}  // namespace lossless
