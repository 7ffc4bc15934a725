#include "net/int_stamp.h"

#include <gtest/gtest.h>

namespace lossless {
namespace {

TEST(LinkRates, NumbersTheTopologysDistinctRatesInAscendingOrder) {
  const std::vector<TopoLink> links = {
      {0, 4, 100'000'000'000, 1'000'000},
      {1, 4, 25'000'000'000, 1'000'000},
      {4, 5, 400'000'000'000, 1'000'000},
      {2, 5, 100'000'000'000, 1'000'000},
  };
  const LinkRates rates(links);
  ASSERT_EQ(rates.size(), 3u);
  EXPECT_EQ(rates.index_of(25'000'000'000), 0u);
  EXPECT_EQ(rates.index_of(100'000'000'000), 1u);
  EXPECT_EQ(rates.index_of(400'000'000'000), 2u);
  EXPECT_EQ(rates.index_of(40'000'000'000), rates.size()) << "no link has this rate";
  // The sender divides by exactly what converting the port's rate gives.
  EXPECT_EQ(rates.as_double()[1], static_cast<double>(RateBps{100'000'000'000}));
}

TEST(IntHop, KeepsTheQueueLengthBesideTheRateIndex) {
  const std::uint64_t tag = std::uint64_t{65'535} << IntHop::kRateShift;
  const IntHop hop{7, 9, 123'456'789 | tag};
  EXPECT_EQ(hop.qlen_bytes(), 123'456'789u);
  EXPECT_EQ(hop.rate_index(), 65'535u);
  const IntHop full{0, 0, IntHop::kQlenMask | (std::uint64_t{2} << IntHop::kRateShift)};
  EXPECT_EQ(full.qlen_bytes(), IntHop::kQlenMask);
  EXPECT_EQ(full.rate_index(), 2u);
}

}  // namespace
}  // namespace lossless
