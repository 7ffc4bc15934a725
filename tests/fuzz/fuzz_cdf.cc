// libFuzzer target: the flow-size CDF reader, and sampling from what it accepts (sizes of at least one byte,
// at most kMaxBytes; a finite, positive mean).
#include <cmath>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "workload/cdf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lossless;
  const std::string path =
      fuzz::write_input("cdf.txt", std::string(reinterpret_cast<const char*>(data), size));
  fuzz::expect_read_or_rejected([&] {
    SizeCdf cdf = SizeCdf::load(path);
    for (CdfSampling mode : {CdfSampling::kLinear, CdfSampling::kStep}) {
      const double mean = cdf.mean_bytes(mode);
      if (!(std::isfinite(mean) && mean > 0)) fuzz::finding("CDF accepted without a positive mean", path);
      RngStream rng(1, "fuzz", 0);
      for (int i = 0; i < 64; ++i) {
        const Bytes b = cdf.sample(rng, mode);
        if (b == 0 || b > kMaxBytes) fuzz::finding("CDF sampled a size out of range", std::to_string(b));
      }
    }
  });
  return 0;
}
