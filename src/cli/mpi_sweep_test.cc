#include "cli/mpi_sweep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/error.h"

namespace lossless {
namespace {

RankInfo from(const std::map<std::string, std::string>& env) {
  return ranks_from_env([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(MpiSweep, RankAndSizeFromTheLaunchersEnvironment) {
  EXPECT_EQ(from({}).size, 1);
  const RankInfo ompi =
      from({{"OMPI_COMM_WORLD_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "3"}, {"PMIX_NAMESPACE", "42/x"}});
  EXPECT_EQ(ompi.rank, 1);
  EXPECT_EQ(ompi.size, 3);
  EXPECT_EQ(ompi.job, "42_x");  // a folder name
  const RankInfo pmi = from({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}});
  EXPECT_EQ(pmi.size, 2);
  EXPECT_EQ(pmi.job, "run");
  EXPECT_EQ(from({{"OMPI_COMM_WORLD_RANK", "0"}}).size, 1);  // half a pair: not under MPI
  EXPECT_THROW(from({{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "2"}}), ConfigError);
  EXPECT_THROW(from({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "2"}}), ConfigError);
}

TEST(MpiSweep, EveryCaseOnExactlyOneRankLargestFirst) {
  const std::vector<double> w = {5, 1, 9, 3, 3, 0, 7};
  std::vector<int> owner(w.size(), -1);
  for (int r = 0; r < 3; ++r) {
    const auto mine = cases_of_rank(w, r, 3);
    for (std::size_t k = 1; k < mine.size(); ++k) EXPECT_GE(w[mine[k - 1]], w[mine[k]]);
    for (std::size_t i : mine) {
      EXPECT_EQ(owner[i], -1);
      owner[i] = r;
    }
  }
  EXPECT_TRUE(std::none_of(owner.begin(), owner.end(), [](int o) { return o < 0; }));
  // Longest-processing-time-first: 9 | 7 | 5; 3 -> the rank at 5, 3 -> the rank at 7, 1 -> the rank at 8,
  // and the empty case (counted as 1) -> the lowest of the two ranks at 9.
  EXPECT_EQ(cases_of_rank(w, 0, 3), (std::vector<std::size_t>{2, 5}));
  EXPECT_EQ(cases_of_rank(w, 1, 3), (std::vector<std::size_t>{6, 4}));
  EXPECT_EQ(cases_of_rank(w, 2, 3), (std::vector<std::size_t>{0, 3, 1}));
  EXPECT_EQ(cases_of_rank(w, 0, 1).size(), w.size());
}

}  // namespace
}  // namespace lossless
