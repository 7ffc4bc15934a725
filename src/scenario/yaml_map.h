// Reading one YAML mapping with validation: every getter names the file, line and dotted key in its error,
// records the value it resolved (defaults included) into an output tree, and finish() rejects unknown keys.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <set>
#include <string>

#include "core/params.h"
#include "core/rate_table.h"
#include "core/time.h"

namespace lossless {

class YamlMap final : public ParamSource {
 public:
  // `node` may be undefined/null (an absent section): every getter then returns its default.
  YamlMap(const YAML::Node& node, std::string file, std::string path, YAML::Node out);

  using ParamSource::choice;
  bool has(const std::string& key) const override;
  std::string text(const std::string& key, const std::string& def) override;
  std::string choice(const std::string& key, const std::string& def,
                     const std::vector<std::string>& options) override;
  double real(const std::string& key, double def, double lo, double hi) override;
  std::uint64_t count(const std::string& key, std::uint64_t def, std::uint64_t lo, std::uint64_t hi) override;
  TimePs time(const std::string& key, TimePs def) override;
  RateBps rate(const std::string& key, RateBps def) override;
  Bytes size(const std::string& key, Bytes def) override;
  bool flag(const std::string& key, bool def) override;
  std::vector<RateValue> rate_table(const std::string& key, std::vector<RateValue> def, bool is_size,
                                    double lo, double hi) override;
  std::string text_or_auto(const std::string& key) override;
  void record(const std::string& key, const std::string& value) override { out_[key] = value; }
  void omit(const std::string& key) override { out_.remove(key); }
  std::unique_ptr<ParamSource> section(const std::string& key) override {
    return std::make_unique<YamlMap>(map(key));
  }
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
  void finish() const override;
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const override;
  [[noreturn]] void fail_at(const YAML::Node& node, const std::string& key, const std::string& reason) const;
  std::string key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const std::string& file() const { return file_; }
  const YAML::Node& node() const { return node_; }
  YAML::Node out() const { return out_; }

 private:
  std::string scalar(const std::string& key);
  YAML::Node node_;
  std::string file_;
  std::string path_;
  YAML::Node out_;
  mutable std::set<std::string> used_;
  mutable std::set<std::string> asked_;  // every key a getter asked for, present or not (for suggestions)
};

// The same checks for a scalar outside a map (list items).
std::string where_of(const std::string& file, const YAML::Node& node);

// Reads a YAML file (a scenario or a sweep) as one document, rejecting what yaml-cpp would accept silently or
// report without a line: a missing file, a directory, an over-long path, a second document, a key given twice
// in one mapping (yaml-cpp keeps the first), a key that is a list or mapping. Throws ConfigError naming file,
// line and key.
YAML::Node load_yaml_file(const std::string& path);
// The same checks on YAML text from `where` (a --set value).
YAML::Node load_yaml_text(const std::string& text, const std::string& where, const std::string& key);
// Checks a path given in the input before the filesystem sees it (an over-long name is an error of the input,
// not of the system): throws ConfigError naming `where` and `key`.
void check_path_length(const std::string& path, const std::string& where, const std::string& key);

}  // namespace lossless
