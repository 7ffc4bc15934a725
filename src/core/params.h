// Typed, documented parameters (STYLE P9). A parameter struct — a scheme's, or a substrate section such as
// `switch:` — lists its fields once, in
//   template <class V> void visit(V& v) { v.real("g", g, "alpha EWMA gain", 0, 1); ... }
// and every visitor reuses it: the reader of a parameter section (validation, defaults, the resolved
// scenario), the `lossless list` printer and the README table. Nothing here knows YAML: a section is a
// ParamSource, which the scenario parser implements.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/rate_table.h"
#include "core/time.h"
#include "core/units.h"

namespace lossless {

// One parameter section of the input (a mapping of keys to values), as the reader sees it. Every getter
// returns its default when the key is absent, records the value it resolved, and reports errors naming the
// file, line and key (exit status 2); finish() rejects keys no getter asked for.
class ParamSource {
 public:
  virtual ~ParamSource() = default;
  virtual bool has(const std::string& key) const = 0;
  virtual std::string text(const std::string& key, const std::string& def) = 0;
  virtual std::string choice(const std::string& key, const std::string& def,
                             const std::vector<std::string>& options) = 0;
  virtual double real(const std::string& key, double def, double lo, double hi) = 0;
  virtual std::uint64_t count(const std::string& key, std::uint64_t def, std::uint64_t lo,
                              std::uint64_t hi) = 0;
  virtual TimePs time(const std::string& key, TimePs def) = 0;
  virtual RateBps rate(const std::string& key, RateBps def) = 0;
  virtual Bytes size(const std::string& key, Bytes def) = 0;
  virtual bool flag(const std::string& key, bool def) = 0;
  // A value per link rate: `{40Gbps: 150KB, 100Gbps: 300KB}` (sizes when `is_size`, else numbers in [lo,
  // hi]), or one value for every rate.
  virtual std::vector<RateValue> rate_table(const std::string& key, std::vector<RateValue> def, bool is_size,
                                            double lo, double hi) = 0;
  // `auto` or a value; `auto` keeps the default. What the section resolved to is recorded as given.
  virtual std::string text_or_auto(const std::string& key) = 0;
  // Records `value` as what `key` resolved to (e.g. an `auto` resolved later).
  virtual void record(const std::string& key, const std::string& value) = 0;
  // Leaves `key` out of what the section resolved to: a parameter that others make unused, so that the
  // resolved scenario holds only what re-runs identically.
  virtual void omit(const std::string& key) { (void)key; }
  // A nested section (absent = empty).
  virtual std::unique_ptr<ParamSource> section(const std::string& key) = 0;
  virtual void finish() const = 0;
  [[noreturn]] virtual void fail(const std::string& key, const std::string& reason) const = 0;

  std::string choice(const std::string& key, const std::string& def,
                     std::initializer_list<const char*> options) {
    return choice(key, def, std::vector<std::string>(options.begin(), options.end()));
  }
};

// An empty section: every getter returns its default (schemes built with their defaults, e.g. in tests).
class DefaultParams final : public ParamSource {
 public:
  using ParamSource::choice;
  bool has(const std::string&) const override { return false; }
  std::string text(const std::string&, const std::string& def) override { return def; }
  std::string choice(const std::string&, const std::string& def, const std::vector<std::string>&) override {
    return def;
  }
  double real(const std::string&, double def, double, double) override { return def; }
  std::uint64_t count(const std::string&, std::uint64_t def, std::uint64_t, std::uint64_t) override {
    return def;
  }
  TimePs time(const std::string&, TimePs def) override { return def; }
  RateBps rate(const std::string&, RateBps def) override { return def; }
  Bytes size(const std::string&, Bytes def) override { return def; }
  bool flag(const std::string&, bool def) override { return def; }
  std::vector<RateValue> rate_table(const std::string&, std::vector<RateValue> def, bool, double,
                                    double) override {
    return def;
  }
  std::string text_or_auto(const std::string&) override { return "auto"; }
  void record(const std::string&, const std::string&) override {}
  std::unique_ptr<ParamSource> section(const std::string&) override {
    return std::make_unique<DefaultParams>();
  }
  void finish() const override {}
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const override;
};

// A lower bound a time, rate or size parameter declares as the visit's last argument, e.g.
//   v.time("period", period, "update period", kPositive);
// for a period that divides or re-arms a timer (0 would divide by zero or loop without simulated time
// passing).
struct AtLeast {
  std::uint64_t min = 0;
};
inline constexpr AtLeast kPositive{1};

// The visitor that reads a parameter struct from a ParamSource.
class ParamReader {
 public:
  explicit ParamReader(ParamSource& src) : src_(src) {}
  void real(const char* n, double& v, const char*, double lo, double hi) { v = src_.real(n, v, lo, hi); }
  void count(const char* n, std::uint64_t& v, const char*, std::uint64_t lo, std::uint64_t hi) {
    v = src_.count(n, v, lo, hi);
  }
  void time(const char* n, TimePs& v, const char*, AtLeast lo = {}) {
    v = src_.time(n, v);
    if (v < lo.min)
      src_.fail(n, lo.min == 1 ? "must be positive" : "must be at least " + format_time(lo.min));
  }
  void rate(const char* n, RateBps& v, const char*, AtLeast lo = {}) {
    v = src_.rate(n, v);
    if (v < lo.min)
      src_.fail(n, lo.min == 1 ? "must be positive" : "must be at least " + format_rate(lo.min));
  }
  void size(const char* n, Bytes& v, const char*, AtLeast lo = {}) {
    v = src_.size(n, v);
    if (v < lo.min)
      src_.fail(n, lo.min == 1 ? "must be positive" : "must be at least " + format_size(lo.min));
  }
  void flag(const char* n, bool& v, const char*) { v = src_.flag(n, v); }
  void text(const char* n, std::string& v, const char*) { v = src_.text(n, v); }
  void choice(const char* n, std::string& v, std::initializer_list<const char*> options, const char*) {
    v = src_.choice(n, v, options);
  }
  void choice(const char* n, std::string& v, const std::vector<std::string>& options, const char*) {
    v = src_.choice(n, v, options);
  }
  void size_table(const char* n, std::vector<RateValue>& v, const char*) {
    v = src_.rate_table(n, v, true, 0, 1e15);
  }
  void real_table(const char* n, std::vector<RateValue>& v, const char*, double lo, double hi) {
    v = src_.rate_table(n, v, false, lo, hi);
  }
  // A positive size, or `auto` (held as 0 and recorded as `auto`: resolved per switch or port).
  void size_or_auto(const char* n, Bytes& v, const char*) {
    const std::string text = src_.text_or_auto(n);
    if (text == "auto") {
      v = 0;
    } else {
      auto s = parse_size(text);
      if (!s || *s == 0) src_.fail(n, "must be 'auto' or a positive size, not '" + text + "'");
      v = *s;
    }
    src_.record(n, v ? format_size(v) : "auto");
  }
  // A positive rate, or `auto`, which keeps the default (0 = resolved by the scheme, e.g. per line rate, and
  // recorded as `auto`; a preset may have set a value).
  void rate_or_auto(const char* n, RateBps& v, const char*) {
    const std::string text = src_.text_or_auto(n);
    if (text != "auto") {
      auto r = parse_rate(text);
      if (!r || *r == 0) src_.fail(n, "must be 'auto' or a positive rate, not '" + text + "'");
      v = *r;
    }
    src_.record(n, v ? format_rate(v) : "auto");
  }
  // A time, or `auto` (held as kTimeNever and recorded as `auto` until the parser resolves it).
  void time_or_auto(const char* n, TimePs& v, const char*) {
    const std::string text = src_.text_or_auto(n);
    if (text != "auto") {
      auto t = parse_time(text);
      if (!t) src_.fail(n, "malformed time '" + text + "' (or 'auto')");
      v = *t;
    }
    src_.record(n, v == kTimeNever ? "auto" : format_time(v));
  }
  template <class F>
  void section(const char* n, const char*, F&& visit_section) {
    std::unique_ptr<ParamSource> sub = src_.section(n);
    ParamReader r(*sub);
    visit_section(r);
    sub->finish();
  }
  // A nested section handed whole to `read` (a registered scheme's parameters, which its registry entry
  // parses and checks).
  template <class F>
  void scheme_section(const char* n, F&& read) {
    std::unique_ptr<ParamSource> sub = src_.section(n);
    read(*sub);
    sub->finish();
  }
  // A rule between fields, checked once they are read.
  void require(bool ok, const char* key, const std::string& reason) {
    if (!ok) src_.fail(key, reason);
  }
  // `key` has no effect given the other fields: left out of the resolved scenario (ParamSource::omit).
  void unused(bool is_unused, const char* key) {
    if (is_unused) src_.omit(key);
  }

 private:
  ParamSource& src_;
};

// Prints "name  default  meaning" lines for `lossless list`, or the rows of a Markdown table
// (`| key | default | meaning |`) for the README.
class ParamPrinter {
 public:
  explicit ParamPrinter(std::ostream& os, std::string indent = "    ", bool markdown = false,
                        std::string prefix = "")
      : os_(os), indent_(std::move(indent)), markdown_(markdown), prefix_(std::move(prefix)) {}
  void real(const char* name, double& v, const char* doc, double lo, double hi) {
    line(name, format_double(v), doc + range(format_double(lo), format_double(hi)));
  }
  void count(const char* name, std::uint64_t& v, const char* doc, std::uint64_t lo, std::uint64_t hi) {
    line(name, std::to_string(v), doc + range(std::to_string(lo), std::to_string(hi)));
  }
  void time(const char* name, TimePs& v, const char* doc, AtLeast lo = {}) {
    line(name, format_time(v), doc + bound(lo, format_time(lo.min)));
  }
  void rate(const char* name, RateBps& v, const char* doc, AtLeast lo = {}) {
    line(name, format_rate(v), doc + bound(lo, format_rate(lo.min)));
  }
  void size(const char* name, Bytes& v, const char* doc, AtLeast lo = {}) {
    line(name, format_size(v), doc + bound(lo, format_size(lo.min)));
  }
  void flag(const char* name, bool& v, const char* doc) { line(name, v ? "true" : "false", doc); }
  void text(const char* name, std::string& v, const char* doc) { line(name, v, doc); }
  void size_table(const char* name, std::vector<RateValue>& v, const char* doc) {
    line(name, table(v, true), doc);
  }
  void real_table(const char* name, std::vector<RateValue>& v, const char* doc, double, double) {
    line(name, table(v, false), doc);
  }
  void choice(const char* name, std::string& v, std::initializer_list<const char*> options, const char* doc) {
    choice(name, v, std::vector<std::string>(options.begin(), options.end()), doc);
  }
  void choice(const char* name, std::string& v, const std::vector<std::string>& options, const char* doc) {
    std::string opts;
    for (const auto& o : options) opts += (opts.empty() ? "" : " | ") + o;
    line(name, v, std::string(doc) + " (" + opts + ")");
  }
  void size_or_auto(const char* name, Bytes& v, const char* doc) {
    line(name, v ? format_size(v) : "auto", doc);
  }
  void rate_or_auto(const char* name, RateBps& v, const char* doc) {
    line(name, v ? format_rate(v) : "auto", doc);
  }
  void time_or_auto(const char* name, TimePs& v, const char* doc) {
    line(name, v == kTimeNever ? "auto" : format_time(v), doc);
  }
  template <class F>
  void section(const char* name, const char*, F&& visit_section) {
    ParamPrinter inner(os_, indent_, markdown_, prefix_ + name + ".");
    visit_section(inner);
  }
  // A scheme's own section: `lossless list mechanisms` prints its parameters.
  template <class F>
  void scheme_section(const char*, F&&) {}
  void require(bool, const char*, const std::string&) {}
  void unused(bool, const char*) {}

 private:
  static std::string bound(AtLeast lo, const std::string& min) {
    if (lo.min == 0) return "";
    return lo.min == 1 ? " (positive)" : " [>= " + min + "]";
  }
  static std::string table(const std::vector<RateValue>& v, bool sizes) {
    std::string s = "{";
    for (const auto& e : v)
      s += (s.size() > 1 ? ", " : "") + format_rate(e.rate_bps) + ": " +
           (sizes ? format_size(static_cast<Bytes>(e.value)) : format_double(e.value));
    return s + "}";
  }
  // A table cell: a `|` in the text would end it.
  static std::string markdown_cell(const std::string& text) {
    std::string out;
    for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
  }
  static std::string range(const std::string& lo, const std::string& hi) {
    return " [" + lo + ", " + hi + "]";
  }
  void line(const char* name, const std::string& def, const std::string& doc) {
    std::string n = prefix_ + name;
    if (markdown_) {
      os_ << "| `" << n << "` | " << markdown_cell(def) << " | " << markdown_cell(doc) << " |\n";
      return;
    }
    n.resize(std::max<std::size_t>(n.size() + 1, 26), ' ');
    std::string d = def;
    d.resize(std::max<std::size_t>(d.size() + 1, 12), ' ');
    os_ << indent_ << n << d << doc << "\n";
  }
  std::ostream& os_;
  std::string indent_;
  bool markdown_;
  std::string prefix_;
};

}  // namespace lossless
