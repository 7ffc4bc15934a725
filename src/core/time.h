// Simulated time: an unsigned count of picoseconds. Rates are bits per second.
#pragma once
#include <cstdint>

namespace lossless {

using TimePs = std::uint64_t;
using Bytes = std::uint64_t;
using RateBps = std::uint64_t;

constexpr TimePs kPsPerNs = 1'000;
constexpr TimePs kPsPerUs = 1'000'000;
constexpr TimePs kPsPerMs = 1'000'000'000;
constexpr TimePs kPsPerSec = 1'000'000'000'000;
constexpr TimePs kTimeNever = ~TimePs{0};

// The largest time, size and rate an input may give (README "Limits"): 10^6 s of simulated time (11.6 days),
// 10^15 B (1 PB) and 10^15 b/s, far beyond any datacenter run, and small enough that sums of a few of them
// and their products with the other (rate x time, in 128 bits) never overflow.
constexpr TimePs kMaxTimePs = 1'000'000 * kPsPerSec;
constexpr Bytes kMaxBytes = 1'000'000'000'000'000;
constexpr RateBps kMaxRateBps = 1'000'000'000'000'000;

// Serialization time of `bytes` at `rate_bps`, rounded up to whole picoseconds (a packet never leaves early).
inline TimePs tx_time_ps(Bytes bytes, RateBps rate_bps) {
  unsigned __int128 bits_ps = static_cast<unsigned __int128>(bytes) * 8u * kPsPerSec;
  return static_cast<TimePs>((bits_ps + rate_bps - 1) / rate_bps);
}

// Per-link precomputation: most datacenter rates divide 8e12 exactly (100G -> 80 ps/B), which turns the
// per-packet 128-bit division into one multiply.
class SerializationClock {
 public:
  SerializationClock() = default;
  explicit SerializationClock(RateBps rate_bps)
      : rate_bps_(rate_bps), ps_per_byte_((8 * kPsPerSec) % rate_bps == 0 ? (8 * kPsPerSec) / rate_bps : 0) {}
  TimePs tx_time(Bytes bytes) const {
    return ps_per_byte_ ? bytes * ps_per_byte_ : tx_time_ps(bytes, rate_bps_);
  }
  RateBps rate_bps() const { return rate_bps_; }
  // Picoseconds per byte when the rate divides 8e12 exactly, else 0.
  TimePs ps_per_byte() const { return ps_per_byte_; }

 private:
  RateBps rate_bps_ = 1;
  TimePs ps_per_byte_ = 0;
};

inline double ps_to_ns(TimePs t) { return static_cast<double>(t) / 1000.0; }

}  // namespace lossless
