// A test program's scratch folder (tests/test_util.h temp_dir). tests/scratch_cleanup.sh runs these two and
// checks that the folder is gone after they pass and kept, and named on stderr, after one fails.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "test_util.h"

namespace lossless {
namespace {

constexpr const char* kSmall = R"(name: small
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
workload: [{type: incast, receiver: 0, senders: 1-2, size: 20KB, start: 0}]
)";

TEST(ScratchFolder, ARunWritesItsOutputsThere) {
  const test::RunOutput out = test::run_yaml(kSmall, "scratch_run");
  EXPECT_EQ(out.dir, test::scratch_path("scratch_run") + "/out");
  EXPECT_TRUE(std::filesystem::exists(out.dir + "/summary.json"));
}

// The failed run the cleanup check needs: it fails only when the check asks it to.
TEST(ScratchFolder, FailsOnlyWhenAskedTo) {
  const std::string dir = test::temp_dir("asked_to_fail");
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_EQ(std::getenv("LOSSLESS_TEST_FAIL_ON_PURPOSE"), nullptr)
      << "failing on purpose (tests/scratch_cleanup.sh)";
}

}  // namespace
}  // namespace lossless
