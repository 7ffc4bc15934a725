#include "scenario/sweep_grid.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace lossless {
namespace {

TEST(SweepGrid, CartesianProductFirstKeySlowestNamedByValues) {
  const auto cases =
      expand_grid(YAML::Load("{cc.algorithm: [dcqcn, hpcc], workload.0.load: [0.3, 0.5, 0.7]}"), "s.yaml");
  ASSERT_EQ(cases.size(), 6u);
  const char* names[] = {"algorithm=dcqcn,load=0.3", "algorithm=dcqcn,load=0.5", "algorithm=dcqcn,load=0.7",
                         "algorithm=hpcc,load=0.3",  "algorithm=hpcc,load=0.5",  "algorithm=hpcc,load=0.7"};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(cases[i].name, names[i]);
  ASSERT_EQ(cases[4].sets.size(), 2u);
  EXPECT_EQ(cases[4].sets[0], (std::pair<std::string, std::string>{"cc.algorithm", "hpcc"}));
  EXPECT_EQ(cases[4].sets[1], (std::pair<std::string, std::string>{"workload.0.load", "0.5"}));
}

TEST(SweepGrid, ShortNamesGrowUntilUnique) {
  EXPECT_EQ(grid_short_names({"workload.0.load", "workload.1.load", "cc.algorithm"}),
            (std::vector<std::string>{"0.load", "1.load", "algorithm"}));
  EXPECT_EQ(grid_short_names({"load", "workload.0.load"}), (std::vector<std::string>{"load", "0.load"}));
  EXPECT_EQ(grid_short_names({"a.x.y", "b.x.y"}), (std::vector<std::string>{"a.x.y", "b.x.y"}));
}

TEST(SweepGrid, ValuesThatAreNotScalarsAndSlashesMakeSafeNames) {
  const auto cases =
      expand_grid(YAML::Load("{topology.host_link: [{rate: 40Gbps}], workload.0.cdf: [a/b.txt]}"), "s");
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].sets[0].second, "{rate: 40Gbps}");
  EXPECT_EQ(cases[0].sets[1].second, "a/b.txt");  // the value is kept; only the name (a folder) changes
  EXPECT_EQ(cases[0].name, "host_link={rate: 40Gbps},cdf=a_b.txt");
}

TEST(SweepGrid, BadGridsNameTheKey) {
  auto message = [](const char* yaml) {
    try {
      expand_grid(YAML::Load(yaml), "s.yaml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("[a, b]"), "s.yaml: grid: expected a mapping {PATH: [VALUE, ...]} with at least one key");
  EXPECT_EQ(message("{}"), "s.yaml: grid: expected a mapping {PATH: [VALUE, ...]} with at least one key");
  EXPECT_EQ(message("{cc.algorithm: dcqcn}"),
            "s.yaml: grid.cc.algorithm: expected a non-empty list of values");
  EXPECT_EQ(message("{cc.algorithm: []}"), "s.yaml: grid.cc.algorithm: expected a non-empty list of values");
  EXPECT_EQ(message("{cc..x: [1]}"), "s.yaml: grid.cc..x: not a dotted scenario path");
  EXPECT_NE(message("{a: [1,2,3,4,5,6,7,8,9,10], b: [1,2,3,4,5,6,7,8,9,10], c: [1,2,3,4,5,6,7,8,9,10], "
                    "d: [1,2,3,4,5,6,7,8,9,10], e: [1,2]}")
                .find("more than 10000 cases"),
            std::string::npos);
}

}  // namespace
}  // namespace lossless
