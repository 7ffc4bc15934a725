// libFuzzer target: the HPCC-simulator flow-file reader, on a topology whose hosts carry the ids 0-15 and
// 100-115 (as an imported topology's hosts do).
#include <cstdint>
#include <string>
#include <unordered_map>

#include "fuzz_util.h"
#include "workload/generators.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lossless;
  static const std::unordered_map<std::uint32_t, std::uint32_t> host_of = [] {
    std::unordered_map<std::uint32_t, std::uint32_t> m;
    for (std::uint32_t h = 0; h < 16; ++h) m[h] = h, m[100 + h] = 16 + h;
    return m;
  }();
  const std::string path =
      fuzz::write_input("flow.txt", std::string(reinterpret_cast<const char*>(data), size));
  fuzz::expect_read_or_rejected([&] {
    for (const Flow& f : read_hpcc_flow_file(path, host_of, 100'000))
      if (f.src >= 32 || f.dst >= 32 || f.src == f.dst || f.size_bytes == 0 || f.start_ps > kMaxTimePs)
        fuzz::finding("flow accepted with a bad field", path);
  });
  return 0;
}
