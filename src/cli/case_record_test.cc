#include "cli/case_record.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "cli/sweep_run.h"

namespace lossless {
namespace {

RunResult sample(double x) {
  RunResult r;
  r.scenario = "s \"quoted\"";
  r.cc = "dcqcn";
  r.seed = 7;
  r.wall_seconds = 0.1 + 0.2;
  r.flows_total = 10;
  r.flows_completed = 9;
  r.slowdown = {9, x, 1.0 / 3, 2.675, 12.345678901234567, 99.5};
  r.bins = {{0, 10'000, {3, 1.005, 1.0, 1.2, 1.3, 1.4}}, {10'000, kOpenBin, {6, x * 2, 2, 3, 4, 5}}};
  r.counters.pause_frames = 12;
  r.counters.paused_time_ps = 123'456'789'012;  // not a whole number of nanoseconds
  r.counters.drops = 3;
  return r;
}

std::string table(const std::vector<CaseOutcome>& cs) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  print_sweep_table(cs, f);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

std::string comparison(const std::vector<std::pair<std::string, RunResult>>& runs) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  print_comparison(runs, f);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

TEST(CaseRecord, RoundTripIsExact) {
  CaseOutcome c;
  c.name = "algorithm=dcqcn,load=0.3";
  c.ok = true;
  c.rank = 3;
  c.error = "line one\nline \"two\" \\ tab\t";
  c.result = sample(2.0 / 7);
  const std::string path = (std::filesystem::temp_directory_path() / "lossless-case-record.json").string();
  write_case_record(path, c);
  const CaseOutcome back = read_case_record(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.name, c.name);
  EXPECT_EQ(back.rank, 3);
  EXPECT_TRUE(back.ok);
  EXPECT_EQ(back.error, c.error);
  EXPECT_EQ(back.result.scenario, c.result.scenario);
  EXPECT_EQ(back.result.wall_seconds, c.result.wall_seconds);
  EXPECT_EQ(back.result.slowdown.mean, c.result.slowdown.mean);
  EXPECT_EQ(back.result.slowdown.p99, c.result.slowdown.p99);
  ASSERT_EQ(back.result.bins.size(), 2u);
  EXPECT_EQ(back.result.bins[1].max_bytes, kOpenBin);
  EXPECT_EQ(back.result.bins[1].slowdown.mean, c.result.bins[1].slowdown.mean);
  EXPECT_EQ(back.result.counters.paused_time_ps, c.result.counters.paused_time_ps);
  // What matters: the table printed from records is the table printed from the runs.
  EXPECT_EQ(table({back}), table({c}));
}

TEST(CaseRecord, SweepTableIsTheComparisonTableWhenEveryCaseRan) {
  std::vector<CaseOutcome> cs(2);
  cs[0].name = "dcqcn";
  cs[0].ok = true;
  cs[0].result = sample(1.5);
  cs[1].name = "hpcc";
  cs[1].ok = true;
  cs[1].result = sample(2.5);
  EXPECT_EQ(table(cs), comparison({{"dcqcn", cs[0].result}, {"hpcc", cs[1].result}}));
}

TEST(CaseRecord, FailedCaseShownInPlaceAndLongNamesWidenTheColumn) {
  std::vector<CaseOutcome> cs(3);
  cs[0].name = "algorithm=dcqcn,load=0.3";
  cs[0].ok = true;
  cs[0].result = sample(1.5);
  cs[1].name = "algorithm=nope,load=0.3";
  cs[1].bad_input = true;
  cs[2].name = "short";
  cs[2].ok = true;
  cs[2].result = sample(2.5);
  const std::string t = table(cs);
  const auto a = t.find("algorithm=dcqcn,load=0.3 ");
  const auto b = t.find("algorithm=nope,load=0.3  FAILED (bad input)");
  const auto c = t.find("\nshort                    ");
  ASSERT_NE(a, std::string::npos) << t;
  ASSERT_NE(b, std::string::npos) << t;
  ASSERT_NE(c, std::string::npos) << t;
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_NE(t.find("\ncase                     "), std::string::npos) << t;
}

}  // namespace
}  // namespace lossless
