// The simulator re-executes itself with glibc's heap on transparent huge pages (cli/huge_pages.h): where
// memory lies must not change a single output.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "test_util.h"

namespace lossless::test {
namespace {

constexpr const char* kIncast = R"(name: incast
topology: {type: fat_tree, k: 4}
workload: [{type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 0},
           {type: poisson, cdf: WebSearch, load: 0.3, duration: 50us, start: 0, hosts: all}]
)";

TEST(HugePages, ARunOnHugePagesGivesTheSameOutputsAsOneWithout) {
  const std::string dir = temp_dir("huge-pages");
  std::ofstream(dir + "/s.yaml") << kIncast;
  const std::string bin = LOSSLESS_BINARY;
  const ShellResult with = shell_in(dir, "env -u GLIBC_TUNABLES " + bin + " run s.yaml -o with --quiet");
  const ShellResult without =
      shell_in(dir, "env -u GLIBC_TUNABLES LOSSLESS_HUGE_PAGES=0 " + bin + " run s.yaml -o without --quiet");
  ASSERT_EQ(with.status, 0) << with.err;
  ASSERT_EQ(without.status, 0) << without.err;
  const std::string fct = slurp(dir + "/with/fct.csv");
  EXPECT_GT(fct.size(), 100u);
  EXPECT_EQ(fct, slurp(dir + "/without/fct.csv"));
  EXPECT_EQ(slurp(dir + "/with/pfc.csv"), slurp(dir + "/without/pfc.csv"));
  // A tunable the user set is kept (the simulator adds its own after it) and the run is the same.
  const ShellResult user =
      shell_in(dir, "GLIBC_TUNABLES=glibc.malloc.check=0 " + bin + " run s.yaml -o user --quiet");
  ASSERT_EQ(user.status, 0) << user.err;
  EXPECT_EQ(fct, slurp(dir + "/user/fct.csv"));
}

TEST(HugePages, ABadValueOfTheSwitchExitsTwoNamingIt) {
  const std::string dir = temp_dir("huge-pages-bad");
  std::ofstream(dir + "/s.yaml") << kIncast;
  const ShellResult r =
      shell_in(dir, "LOSSLESS_HUGE_PAGES=off " + std::string(LOSSLESS_BINARY) + " run s.yaml -o out --quiet");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("LOSSLESS_HUGE_PAGES: expected 0 (off) or 1 (on), got 'off'"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace lossless::test
