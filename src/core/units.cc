#include "core/units.h"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace lossless {
namespace {

struct Unit {
  std::string_view suffix;
  std::uint64_t scale;
};

// Splits "12.5us" into 12.5 and "us". Rejects empty numbers, signs, spaces inside and trailing junk.
bool split_number(std::string_view text, double& value, std::string_view& suffix) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  size_t i = 0;
  while (i < text.size() &&
         ((text[i] >= '0' && text[i] <= '9') || text[i] == '.' || text[i] == 'e' || text[i] == 'E')) {
    // 'e' only as an exponent: followed by a digit, and not the start of a unit.
    if ((text[i] == 'e' || text[i] == 'E') &&
        (i + 1 >= text.size() || text[i + 1] < '0' || text[i + 1] > '9'))
      break;
    ++i;
  }
  if (i == 0) return false;
  std::string num(text.substr(0, i));
  char* end = nullptr;
  errno = 0;
  value = std::strtod(num.c_str(), &end);
  if (errno != 0 || end != num.c_str() + num.size() || !std::isfinite(value) || value < 0) return false;
  suffix = text.substr(i);
  return true;
}

// The value of a number with one of `units` (or none, where a plain number is allowed) in the base unit, as a
// double (no overflow whatever its size); nullopt when malformed.
template <size_t N>
std::optional<double> base_value(std::string_view text, const std::array<Unit, N>& units, bool plain_ok,
                                 bool plain_zero_only) {
  double value = 0;
  std::string_view suffix;
  if (!split_number(text, value, suffix)) return std::nullopt;
  std::uint64_t scale = 0;
  if (suffix.empty()) {
    if (!plain_ok && !(plain_zero_only && value == 0)) return std::nullopt;
    scale = 1;
  } else {
    for (const auto& u : units)
      if (u.suffix == suffix) scale = u.scale;
    if (scale == 0) return std::nullopt;
  }
  return value * static_cast<double>(scale);
}

template <size_t N>
std::optional<std::uint64_t> parse_with(std::string_view text, const std::array<Unit, N>& units,
                                        bool plain_ok, bool plain_zero_only, std::uint64_t max) {
  const std::optional<double> base = base_value(text, units, plain_ok, plain_zero_only);
  if (!base) return std::nullopt;
  const double v = *base;
  if (v > static_cast<double>(max)) return std::nullopt;
  double r = std::round(v);
  // Sub-unit fractions (0.5ps, 1.5B) are malformed, not silently rounded.
  if (std::fabs(r - v) > 1e-6 * std::max(1.0, v)) return std::nullopt;
  return static_cast<std::uint64_t>(r);
}

constexpr std::array<Unit, 5> kTimeUnits{
    {{"ps", 1}, {"ns", kPsPerNs}, {"us", kPsPerUs}, {"ms", kPsPerMs}, {"s", kPsPerSec}}};
constexpr std::array<Unit, 7> kSizeUnits{{{"B", 1},
                                          {"KB", 1000},
                                          {"MB", 1000'000},
                                          {"GB", 1000'000'000},
                                          {"KiB", 1024},
                                          {"MiB", 1024 * 1024},
                                          {"GiB", 1024ull * 1024 * 1024}}};
constexpr std::array<Unit, 5> kRateUnits{
    {{"bps", 1}, {"Kbps", 1000}, {"Mbps", 1000'000}, {"Gbps", 1000'000'000}, {"Tbps", 1000'000'000'000}}};

template <size_t N>
std::string format_with(std::uint64_t v, const std::array<Unit, N>& units, std::string_view base) {
  if (v == 0) return "0" + std::string(base);
  for (size_t i = N; i-- > 0;) {
    if (units[i].scale > 1 && v % units[i].scale == 0)
      return std::to_string(v / units[i].scale) + std::string(units[i].suffix);
  }
  return std::to_string(v) + std::string(base);
}

}  // namespace

std::optional<TimePs> parse_time(std::string_view text) {
  return parse_with(text, kTimeUnits, false, true, kMaxTimePs);
}
std::optional<Bytes> parse_size(std::string_view text) {
  return parse_with(text, kSizeUnits, true, true, kMaxBytes);
}
std::optional<RateBps> parse_rate(std::string_view text) {
  return parse_with(text, kRateUnits, false, false, kMaxRateBps);
}

namespace {
std::string limit_text(const char* what, const std::string& largest) {
  return std::string("beyond the largest ") + what + " accepted, " + largest + " (README \"Limits\")";
}
// Whether `text` is well formed but its value exceeds `max`.
template <size_t N>
bool beyond(std::string_view text, const std::array<Unit, N>& units, bool plain_ok, std::uint64_t max) {
  const std::optional<double> base = base_value(text, units, plain_ok, plain_ok);
  return base && *base > static_cast<double>(max);
}
}  // namespace

std::string time_limit_exceeded(std::string_view text) {
  return beyond(text, kTimeUnits, false, kMaxTimePs) ? limit_text("time", format_time(kMaxTimePs)) : "";
}
std::string size_limit_exceeded(std::string_view text) {
  return beyond(text, kSizeUnits, true, kMaxBytes) ? limit_text("size", format_size(kMaxBytes)) : "";
}
std::string rate_limit_exceeded(std::string_view text) {
  return beyond(text, kRateUnits, false, kMaxRateBps) ? limit_text("rate", format_rate(kMaxRateBps)) : "";
}

std::optional<std::uint64_t> parse_uint(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::string format_time(TimePs t) { return format_with(t, kTimeUnits, "ps"); }
std::string format_rate(RateBps r) { return format_with(r, kRateUnits, "bps"); }
std::string format_size(Bytes b) {
  // Prefer decimal suffixes; binary ones only when they are the exact form (4KiB, not 4096B).
  if (b == 0) return "0B";
  for (auto [scale, suffix] :
       {std::pair<std::uint64_t, const char*>{1000'000'000, "GB"}, {1000'000, "MB"}, {1000, "KB"}}) {
    if (b % scale == 0) return std::to_string(b / scale) + suffix;
  }
  for (auto [scale, suffix] : {std::pair<std::uint64_t, const char*>{1024ull * 1024 * 1024, "GiB"},
                               {1024 * 1024, "MiB"},
                               {1024, "KiB"}}) {
    if (b % scale == 0) return std::to_string(b / scale) + suffix;
  }
  return std::to_string(b) + "B";
}

std::string format_double(double v) {
  char buf[64];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace lossless
