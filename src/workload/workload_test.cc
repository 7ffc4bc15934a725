#include <gtest/gtest.h>

#include <set>

#include "core/error.h"
#include "workload/cdf.h"
#include "workload/generators.h"

namespace lossless {
namespace {

TEST(SizeCdf, LinearAndStepMeansMatchTheDataReadme) {
  SizeCdf ws = SizeCdf::load(resolve_cdf_path("WebSearch", ""));
  EXPECT_NEAR(ws.mean_bytes(CdfSampling::kLinear), 1711250.0, 1);
  EXPECT_NEAR(ws.mean_bytes(CdfSampling::kStep), 2434900.0, 1);
  RngStream rng(1, "cdf");
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += static_cast<double>(ws.sample(rng, CdfSampling::kLinear));
  EXPECT_NEAR(sum / n / 1711250.0, 1.0, 0.02);
}

TEST(SizeCdf, RejectsNonMonotonic) {
  EXPECT_THROW(SizeCdf::from_points({{10, 0.5}, {20, 0.4}, {30, 1}}, "x"), ConfigError);
  EXPECT_THROW(SizeCdf::from_points({{10, 0.5}, {20, 0.9}}, "x"), ConfigError);
}

TEST(Poisson, OfferedLoadMatchesTarget) {
  SizeCdf ws = SizeCdf::load(resolve_cdf_path("WebSearch", ""));
  PoissonSpec s;
  s.load = 0.3;
  s.duration_ps = 200 * kPsPerMs;
  for (std::uint32_t h = 0; h < 16; ++h) s.hosts.push_back(h);
  std::vector<RateBps> rates(16, 100'000'000'000);
  auto flows = generate_poisson(s, ws, rates, 1, 0);
  double bytes = 0;
  for (const auto& f : flows) {
    bytes += static_cast<double>(f.size_bytes);
    EXPECT_NE(f.src, f.dst);
  }
  double offered = bytes * 8 / 0.2 / (16 * 100e9);
  EXPECT_NEAR(offered, 0.3, 0.03);
  EXPECT_TRUE(
      std::is_sorted(flows.begin(), flows.end(), [](auto& a, auto& b) { return a.start_ps < b.start_ps; }));
}

// One sender with destinations of its own: it drew nothing (the generator wanted 2 senders).
TEST(Poisson, ASingleSenderDrawsOnlyItsListedDestinations) {
  SizeCdf ws = SizeCdf::load(resolve_cdf_path("WebSearch", ""));
  PoissonSpec s;
  s.load = 0.5;
  s.duration_ps = 20 * kPsPerMs;
  s.hosts = {1};
  s.dst_hosts = {0, 1, 3};  // itself among them: never drawn
  std::vector<RateBps> rates(4, 100'000'000'000);
  auto flows = generate_poisson(s, ws, rates, 1, 0);
  ASSERT_GT(flows.size(), 20u);
  std::set<std::uint32_t> dsts;
  for (const auto& f : flows) {
    EXPECT_EQ(f.src, 1u);
    dsts.insert(f.dst);
  }
  EXPECT_EQ(dsts, (std::set<std::uint32_t>{0, 3}));
}

TEST(HpccFlowFile, ExactStartTimes) {
  TimePs t = 0;
  ASSERT_TRUE(parse_decimal_seconds("2.000000098", t));
  EXPECT_EQ(t, 2'000'000'098'000u);
  EXPECT_FALSE(parse_decimal_seconds("2.0x", t));
}

}  // namespace
}  // namespace lossless
