// libFuzzer target: the scenario parser (YAML text -> validated, resolved scenario). A scenario that parses
// must also produce a resolved scenario that parses again to the same resolved text (the resolved
// scenario.yaml repeats the run): otherwise `validate` accepted what a re-run rejects, a finding.
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lossless;
  // Seeds name the repository's files as @SRC@/... (the scenario itself is written to a temporary folder).
  std::string text(reinterpret_cast<const char*>(data), size);
  for (std::size_t at; (at = text.find("@SRC@")) != std::string::npos;)
    text.replace(at, 5, LOSSLESS_SOURCE_DIR);
  const std::string path = fuzz::write_input("scenario.yaml", text);
  fuzz::expect_read_or_rejected([&] {
    ScenarioOverrides ov;
    ov.out_dir = fuzz::work_dir() + "/out";
    Scenario sc = load_scenario(path, ov);
    const std::string resolved = resolved_scenario_text(sc);
    const std::string again_path = fuzz::write_input("resolved.yaml", resolved + "\n");
    try {
      Scenario again = load_scenario(again_path, ov);
      if (fuzz::canonical_yaml(again.resolved) != fuzz::canonical_yaml(sc.resolved))
        fuzz::finding("resolved scenario reads back differently",
                      resolved + "\n----\n" + resolved_scenario_text(again));
      if (again.flows.size() != sc.flows.size()) fuzz::finding("resolved scenario has other flows", resolved);
    } catch (const ConfigError& e) {
      fuzz::finding("resolved scenario rejected", std::string(e.what()) + "\n" + resolved);
    }
  });
  return 0;
}
