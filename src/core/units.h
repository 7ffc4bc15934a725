// Parsing and printing of quantities with units: time (ps ns us ms s), size (B KB MB GB, KiB MiB GiB),
// rate (bps Kbps Mbps Gbps Tbps). Parse functions return false on malformed text; callers build the error.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/time.h"

namespace lossless {

std::optional<TimePs> parse_time(std::string_view text);   // plain "0" accepted
std::optional<Bytes> parse_size(std::string_view text);    // plain integer = bytes
std::optional<RateBps> parse_rate(std::string_view text);  // unit required
// Why a parse above failed: "" when `text` is malformed, else the limit it exceeds, as "beyond the largest
// time accepted, 1000000s (README \"Limits\")".
std::string time_limit_exceeded(std::string_view text);
std::string size_limit_exceeded(std::string_view text);
std::string rate_limit_exceeded(std::string_view text);
// Each rejects values above kMaxTimePs, kMaxBytes and kMaxRateBps (core/time.h).

// A plain non-negative decimal integer: digits only (no sign, space, point or exponent), no overflow.
std::optional<std::uint64_t> parse_uint(std::string_view text);

std::string format_time(TimePs t);    // exact: largest unit that divides the value
std::string format_size(Bytes b);     // exact
std::string format_rate(RateBps r);   // exact
std::string format_double(double v);  // shortest text that reads back to the same double

}  // namespace lossless
