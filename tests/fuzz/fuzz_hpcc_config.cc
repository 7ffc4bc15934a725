// libFuzzer target: an HPCC-simulator config with its topology and flow files. The input is the three files
// separated by lines "%%topology" and "%%flows"; the config names them topo.txt and flow.txt (or anything
// else: a missing file is a rejection like any other). A config that is read must translate into a valid
// scenario.
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "scenario/hpcc_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lossless;
  const auto parts =
      fuzz::split_parts(std::string(reinterpret_cast<const char*>(data), size), "%%topology", 2);
  const auto rest = fuzz::split_parts(parts[1], "%%flows", 2);
  fuzz::write_input("topo.txt", rest[0]);
  fuzz::write_input("flow.txt", rest[1]);
  const std::string path = fuzz::write_input("config.txt", parts[0]);
  fuzz::expect_read_or_rejected([&] {
    HpccConfig cfg = read_hpcc_config(path);
    ScenarioOverrides ov;
    ov.out_dir = fuzz::work_dir() + "/out";
    Scenario sc = parse_hpcc_scenario(cfg, ov);
    // What a run writes as scenario.yaml must read back.
    const std::string resolved = fuzz::write_input("resolved.yaml", resolved_scenario_text(sc) + "\n");
    try {
      load_scenario(resolved, ov);
    } catch (const ConfigError& e) {
      fuzz::finding("resolved scenario of an HPCC config rejected", e.what());
    }
  });
  return 0;
}
