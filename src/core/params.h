// Typed, documented scheme parameters (STYLE P9). A parameter struct lists its fields once, in
//   template <class V> void visit(V& v) { v.real("g", g, "alpha EWMA gain", 0, 1); ... }
// and every visitor (YAML reader with validation, `lossless list` printer, resolved-scenario writer) reuses
// it.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

#include "core/rate_table.h"
#include "core/time.h"
#include "core/units.h"

namespace lossless {

// Prints "name  default  meaning" lines for `lossless list`.
class ParamPrinter {
 public:
  explicit ParamPrinter(std::ostream& os, std::string indent = "    ")
      : os_(os), indent_(std::move(indent)) {}
  void real(const char* name, double& v, const char* doc, double lo, double hi) {
    line(name, format_double(v), doc + range(format_double(lo), format_double(hi)));
  }
  void count(const char* name, std::uint64_t& v, const char* doc, std::uint64_t lo, std::uint64_t hi) {
    line(name, std::to_string(v), doc + range(std::to_string(lo), std::to_string(hi)));
  }
  void time(const char* name, TimePs& v, const char* doc) { line(name, format_time(v), doc); }
  void rate(const char* name, RateBps& v, const char* doc) { line(name, format_rate(v), doc); }
  void size(const char* name, Bytes& v, const char* doc) { line(name, format_size(v), doc); }
  void flag(const char* name, bool& v, const char* doc) { line(name, v ? "true" : "false", doc); }
  void size_table(const char* name, std::vector<RateValue>& v, const char* doc) {
    line(name, table(v, true), doc);
  }
  void real_table(const char* name, std::vector<RateValue>& v, const char* doc, double, double) {
    line(name, table(v, false), doc);
  }
  void choice(const char* name, std::string& v, std::initializer_list<const char*> options, const char* doc) {
    std::string opts;
    for (auto o : options) opts += (opts.empty() ? "" : " | ") + std::string(o);
    line(name, v, std::string(doc) + " (" + opts + ")");
  }

 private:
  static std::string table(const std::vector<RateValue>& v, bool sizes) {
    std::string s = "{";
    for (const auto& e : v)
      s += (s.size() > 1 ? ", " : "") + format_rate(e.rate_bps) + ": " +
           (sizes ? format_size(static_cast<Bytes>(e.value)) : format_double(e.value));
    return s + "}";
  }
  static std::string range(const std::string& lo, const std::string& hi) {
    return " [" + lo + ", " + hi + "]";
  }
  void line(const char* name, const std::string& def, const std::string& doc) {
    std::string n = name;
    n.resize(std::max<std::size_t>(n.size() + 1, 26), ' ');
    std::string d = def;
    d.resize(std::max<std::size_t>(d.size() + 1, 12), ' ');
    os_ << indent_ << n << d << doc << "\n";
  }
  std::ostream& os_;
  std::string indent_;
};

}  // namespace lossless
