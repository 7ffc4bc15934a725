// Random streams. Each component draws from its own stream, seeded from hash(run seed, stream name, index),
// so adding a component never shifts another's draws (STYLE P11).
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>

namespace lossless {

inline std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline std::uint64_t mix64(std::uint64_t x) {
  std::uint64_t s = x;
  return splitmix64(s);
}

inline std::uint64_t hash_name(std::string_view name) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

// xoshiro256++: small, fast, and its output is fully determined by the seed on any platform.
class RngStream {
 public:
  RngStream() : RngStream(0, "default") {}
  RngStream(std::uint64_t seed, std::string_view name, std::uint64_t index = 0) {
    std::uint64_t x = seed ^ mix64(hash_name(name)) ^ mix64(index * 0x632be59bd9b4e019ull + 1);
    for (auto& w : s_) w = splitmix64(x);
  }
  std::uint64_t next() {
    std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1), 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n).
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>(uniform() * static_cast<double>(n));
  }
  double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace lossless
