// libFuzzer target: the HPCC-simulator topology reader and the structural checks every topology passes.
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "topo/topology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lossless;
  const std::string path =
      fuzz::write_input("topo.txt", std::string(reinterpret_cast<const char*>(data), size));
  fuzz::expect_read_or_rejected([&] {
    Topology t = read_hpcc_topology(path);
    check_topology(t, path, "topology");
    if (t.nodes() == 0 || t.external_id.size() != t.nodes()) fuzz::finding("inconsistent topology", path);
  });
  return 0;
}
