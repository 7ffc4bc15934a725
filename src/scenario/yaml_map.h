// Reading one YAML mapping with validation: every getter names the file, line and dotted key in its error,
// records the value it resolved (defaults included) into an output tree, and finish() rejects unknown keys.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>

#include "core/rate_table.h"
#include "core/time.h"

namespace lossless {

class YamlMap {
 public:
  // `node` may be undefined/null (an absent section): every getter then returns its default.
  YamlMap(const YAML::Node& node, std::string file, std::string path, YAML::Node out);

  bool has(const std::string& key) const;
  std::string text(const std::string& key, const std::string& def);
  std::string choice(const std::string& key, const std::string& def,
                     std::initializer_list<const char*> options);
  double real(const std::string& key, double def, double lo, double hi);
  std::uint64_t count(const std::string& key, std::uint64_t def, std::uint64_t lo, std::uint64_t hi);
  TimePs time(const std::string& key, TimePs def);
  RateBps rate(const std::string& key, RateBps def);
  Bytes size(const std::string& key, Bytes def);
  bool flag(const std::string& key, bool def);
  // A value per link rate: `{40Gbps: 150KB, 100Gbps: 300KB}` (sizes when `is_size`, else numbers in [lo,
  // hi]), or one value for every rate.
  std::vector<RateValue> rate_table(const std::string& key, std::vector<RateValue> def, bool is_size,
                                    double lo, double hi);
  // A sub-mapping (absent = empty); its resolved values land under out[key].
  YamlMap map(const std::string& key);
  // The raw node, marked as used; the caller validates it.
  YAML::Node raw(const std::string& key);
  void set_out(const std::string& key, const YAML::Node& value) { out_[key] = value; }
  template <class T>
  void set_out(const std::string& key, const T& value) {
    out_[key] = value;
  }

  // Errors on any key that no getter asked for.
  void finish() const;
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const;
  [[noreturn]] void fail_at(const YAML::Node& node, const std::string& key, const std::string& reason) const;
  std::string key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const std::string& file() const { return file_; }
  YAML::Node out() const { return out_; }

 private:
  std::string scalar(const std::string& key);
  YAML::Node node_;
  std::string file_;
  std::string path_;
  YAML::Node out_;
  mutable std::set<std::string> used_;
};

// The same checks for a scalar outside a map (list items).
std::string where_of(const std::string& file, const YAML::Node& node);

// Adapts YamlMap to the parameter visitor interface of core/params.h.
class YamlParamVisitor {
 public:
  explicit YamlParamVisitor(YamlMap& m) : m_(m) {}
  void real(const char* n, double& v, const char*, double lo, double hi) { v = m_.real(n, v, lo, hi); }
  void count(const char* n, std::uint64_t& v, const char*, std::uint64_t lo, std::uint64_t hi) {
    v = m_.count(n, v, lo, hi);
  }
  void time(const char* n, TimePs& v, const char*) { v = m_.time(n, v); }
  void rate(const char* n, RateBps& v, const char*) { v = m_.rate(n, v); }
  void size(const char* n, Bytes& v, const char*) { v = m_.size(n, v); }
  void flag(const char* n, bool& v, const char*) { v = m_.flag(n, v); }
  void choice(const char* n, std::string& v, std::initializer_list<const char*> options, const char*) {
    v = m_.choice(n, v, options);
  }
  void size_table(const char* n, std::vector<RateValue>& v, const char*) {
    v = m_.rate_table(n, v, true, 0, 1e15);
  }
  void real_table(const char* n, std::vector<RateValue>& v, const char*, double lo, double hi) {
    v = m_.rate_table(n, v, false, lo, hi);
  }

 private:
  YamlMap& m_;
};

}  // namespace lossless
