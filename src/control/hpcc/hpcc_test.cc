#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "control/hpcc/most_utilised.h"

namespace lossless {
namespace {

// The select must keep the `if (u > max_u)` rule exactly: a larger U takes over with its interval, an equal
// or smaller one (or NaN) leaves both as they were.
TEST(HpccMostUtilised, ALargerUtilisationTakesOverWithItsInterval) {
  double max_u = 0.5, tau = 100;
  keep_most_utilised(0.75, 200, max_u, tau);
  EXPECT_EQ(max_u, 0.75);
  EXPECT_EQ(tau, 200);
}

TEST(HpccMostUtilised, AnEqualOrSmallerUtilisationKeepsTheEarlierHop) {
  double max_u = 0.5, tau = 100;
  keep_most_utilised(0.5, 300, max_u, tau);
  EXPECT_EQ(max_u, 0.5);
  EXPECT_EQ(tau, 100);
  keep_most_utilised(0.25, 400, max_u, tau);
  EXPECT_EQ(max_u, 0.5);
  EXPECT_EQ(tau, 100);
}

TEST(HpccMostUtilised, AnIdleFirstHopLeavesTheStartingValues) {
  // update() starts from max_u = 0, tau = 0: a hop with U = +0 (an idle link) changes neither.
  double max_u = 0, tau = 0;
  keep_most_utilised(0.0, 500, max_u, tau);
  EXPECT_EQ(max_u, 0.0);
  EXPECT_FALSE(std::signbit(max_u));
  EXPECT_EQ(tau, 0);
}

TEST(HpccMostUtilised, NotANumberChangesNothing) {
  double max_u = 0.5, tau = 100;
  keep_most_utilised(std::numeric_limits<double>::quiet_NaN(), 200, max_u, tau);
  EXPECT_EQ(max_u, 0.5);
  EXPECT_EQ(tau, 100);
}

}  // namespace
}  // namespace lossless
