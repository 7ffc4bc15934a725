#include "scenario/yaml_map.h"

#include <cmath>

#include "core/error.h"
#include "core/units.h"

namespace lossless {

std::string where_of(const std::string& file, const YAML::Node& node) {
  if (node.IsDefined() && node.Mark().line >= 0) return file + ":" + std::to_string(node.Mark().line + 1);
  return file;
}

YamlMap::YamlMap(const YAML::Node& node, std::string file, std::string path, YAML::Node out)
    : node_(node), file_(std::move(file)), path_(std::move(path)), out_(out) {
  if (node_.IsDefined() && !node_.IsNull() && !node_.IsMap())
    throw ConfigError(where_of(file_, node_), path_, "expected a mapping of keys to values");
}

bool YamlMap::has(const std::string& key) const {
  return node_.IsDefined() && node_.IsMap() && node_[key].IsDefined() && !node_[key].IsNull();
}

void YamlMap::fail(const std::string& key, const std::string& reason) const {
  YAML::Node n = (node_.IsDefined() && node_.IsMap()) ? node_[key] : YAML::Node();
  throw ConfigError(where_of(file_, n.IsDefined() ? n : node_), key_path(key), reason);
}

void YamlMap::fail_at(const YAML::Node& node, const std::string& key, const std::string& reason) const {
  throw ConfigError(where_of(file_, node), key_path(key), reason);
}

std::string YamlMap::scalar(const std::string& key) {
  used_.insert(key);
  const YAML::Node n = node_[key];
  if (!n.IsScalar()) fail(key, "expected a single value, not a list or mapping");
  return n.Scalar();
}

std::string YamlMap::text(const std::string& key, const std::string& def) {
  std::string v = has(key) ? scalar(key) : def;
  out_[key] = v;
  return v;
}

std::string YamlMap::choice(const std::string& key, const std::string& def,
                            const std::vector<std::string>& options) {
  std::string v = has(key) ? scalar(key) : def;
  std::string list;
  for (const auto& o : options) {
    if (v == o) {
      out_[key] = v;
      return v;
    }
    list += (list.empty() ? "" : ", ") + o;
  }
  fail(key, "'" + v + "' is not one of: " + list);
}

double YamlMap::real(const std::string& key, double def, double lo, double hi) {
  double v = def;
  if (has(key)) {
    std::string s = scalar(key);
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
      fail(key, "'" + s + "' is not a number");
    if (v < lo || v > hi)
      fail(key, s + " is out of range [" + format_double(lo) + ", " + format_double(hi) + "]");
  }
  out_[key] = format_double(v);
  return v;
}

std::uint64_t YamlMap::count(const std::string& key, std::uint64_t def, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t v = def;
  if (has(key)) {
    std::string s = scalar(key);
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19)
      fail(key, "'" + s + "' is not a non-negative integer");
    v = std::stoull(s);
    if (v < lo || v > hi)
      fail(key, s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  out_[key] = v;
  return v;
}

TimePs YamlMap::time(const std::string& key, TimePs def) {
  TimePs v = def;
  if (has(key)) {
    std::string s = scalar(key);
    auto t = parse_time(s);
    if (!t) fail(key, "malformed time '" + s + "' (use a number with ps, ns, us, ms or s, e.g. 10us)");
    v = *t;
  }
  out_[key] = format_time(v);
  return v;
}

RateBps YamlMap::rate(const std::string& key, RateBps def) {
  RateBps v = def;
  if (has(key)) {
    std::string s = scalar(key);
    auto r = parse_rate(s);
    if (!r)
      fail(key, "malformed rate '" + s + "' (use a number with bps, Kbps, Mbps, Gbps or Tbps, e.g. 100Gbps)");
    v = *r;
  }
  out_[key] = format_rate(v);
  return v;
}

Bytes YamlMap::size(const std::string& key, Bytes def) {
  Bytes v = def;
  if (has(key)) {
    std::string s = scalar(key);
    auto b = parse_size(s);
    if (!b) fail(key, "malformed size '" + s + "' (use B, KB, MB, GB, KiB, MiB or GiB, e.g. 32MB)");
    v = *b;
  }
  out_[key] = format_size(v);
  return v;
}

bool YamlMap::flag(const std::string& key, bool def) {
  bool v = def;
  if (has(key)) {
    std::string s = scalar(key);
    if (s == "true" || s == "yes" || s == "on")
      v = true;
    else if (s == "false" || s == "no" || s == "off")
      v = false;
    else
      fail(key, "'" + s + "' is not true or false");
  }
  out_[key] = v;
  return v;
}

std::string YamlMap::text_or_auto(const std::string& key) {
  if (!has(key)) {
    used_.insert(key);
    return "auto";
  }
  return scalar(key);
}

YamlMap YamlMap::map(const std::string& key) {
  used_.insert(key);
  YAML::Node sub = has(key) ? node_[key] : YAML::Node();
  YAML::Node o = out_[key];
  if (!o.IsMap()) o = YAML::Node(YAML::NodeType::Map);
  out_[key] = o;
  return YamlMap(sub, file_, key_path(key), out_[key]);
}

YAML::Node YamlMap::raw(const std::string& key) {
  used_.insert(key);
  return has(key) ? node_[key] : YAML::Node();
}

void YamlMap::finish() const {
  if (!node_.IsDefined() || !node_.IsMap()) return;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    std::string k = it->first.as<std::string>();
    if (!used_.count(k)) throw ConfigError(where_of(file_, it->first), key_path(k), "unknown key");
  }
}

std::vector<RateValue> YamlMap::rate_table(const std::string& key, std::vector<RateValue> def, bool is_size,
                                           double lo, double hi) {
  YamlMap& m = *this;
  if (!m.has(key)) {
    YAML::Node o(YAML::NodeType::Map);
    for (auto& e : def)
      o[format_rate(e.rate_bps)] =
          is_size ? format_size(static_cast<Bytes>(e.value)) : format_double(e.value);
    m.set_out(key, o);
    return def;
  }
  YAML::Node n = m.raw(key);
  std::vector<RateValue> table;
  YAML::Node o(YAML::NodeType::Map);
  auto read_value = [&](const YAML::Node& v) {
    if (!v.IsScalar()) m.fail_at(v, key, "expected a value");
    double x;
    if (is_size) {
      auto s = parse_size(v.Scalar());
      if (!s) m.fail_at(v, key, "malformed size '" + v.Scalar() + "'");
      x = static_cast<double>(*s);
    } else {
      char* end = nullptr;
      x = std::strtod(v.Scalar().c_str(), &end);
      if (end != v.Scalar().c_str() + v.Scalar().size())
        m.fail_at(v, key, "'" + v.Scalar() + "' is not a number");
    }
    if (x < lo || x > hi) m.fail_at(v, key, v.Scalar() + " is out of range");
    return x;
  };
  if (n.IsScalar()) {  // one value for every rate
    double x = read_value(n);
    for (auto& e : def) table.push_back({e.rate_bps, x});
    if (table.empty()) table.push_back({100'000'000'000, x});
    for (auto& e : table)
      o[format_rate(e.rate_bps)] = is_size ? format_size(static_cast<Bytes>(x)) : format_double(x);
  } else if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it) {
      auto rate = parse_rate(it->first.Scalar());
      if (!rate || *rate == 0)
        m.fail_at(it->first, key, "malformed rate '" + it->first.Scalar() + "' in the table");
      double x = read_value(it->second);
      table.push_back({*rate, x});
      o[format_rate(*rate)] = is_size ? format_size(static_cast<Bytes>(x)) : format_double(x);
    }
    if (table.empty()) m.fail(key, "table is empty");
  } else {
    m.fail(key, "expected a value or a mapping {rate: value}");
  }
  m.set_out(key, o);
  return table;
}

}  // namespace lossless
