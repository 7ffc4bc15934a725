// What a scheme declares about its own state for the invariant checker (net/invariants.h): the conditions its
// windows, rates and credits must meet at any moment between events (non-negative, within their bounds, not
// NaN). A scheme's parts override check_state (CongestionControl, ReceiverControl, NicControl; default: no
// condition) and state each condition here; the checker calls them at the end of every run and, with
// `--check`, periodically during it. A condition that fails is an internal error (exit 1) naming the scheme's
// quantity, the flow or node and the time.
#pragma once
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace lossless {

class StateCheck {
 public:
  // `what` holds: e.g. require(granted_ <= size, "granted bytes within the message").
  void require(bool ok, std::string_view what) {
    if (!ok && failure_.empty()) failure_ = std::string(what);
  }
  // `value` lies in [lo, hi] (and is a number): e.g. in_range("rate_bps", rc, min_rate, line_rate).
  void in_range(std::string_view name, double value, double lo, double hi) {
    if (failure_.empty() && !(value >= lo && value <= hi))
      failure_ =
          std::string(name) + " = " + number(value) + ", outside [" + number(lo) + ", " + number(hi) + "]";
  }
  void finite(std::string_view name, double value) {
    if (failure_.empty() && !std::isfinite(value))
      failure_ = std::string(name) + " = " + number(value) + ", not a finite number";
  }
  void non_negative(std::string_view name, double value) {
    if (failure_.empty() && !(value >= 0)) failure_ = std::string(name) + " = " + number(value) + " < 0";
  }
  void positive(std::string_view name, double value) {
    if (failure_.empty() && !(value > 0)) failure_ = std::string(name) + " = " + number(value) + ", not > 0";
  }

  bool failed() const { return !failure_.empty(); }
  // The first condition that failed.
  const std::string& failure() const { return failure_; }
  void clear() { failure_.clear(); }

 private:
  static std::string number(double v) {
    if (std::isnan(v)) return "nan";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
  }
  std::string failure_;
};

}  // namespace lossless
