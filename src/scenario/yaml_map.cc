#include "scenario/yaml_map.h"

#include <yaml-cpp/eventhandler.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/suggest.h"
#include "core/units.h"

namespace lossless {

namespace {

int line_of(const YAML::Node& n) { return n.IsDefined() ? n.Mark().line + 1 : 0; }

// The most values a document may expand to: aliases (`*a`) repeat a node without repeating its text, and a
// document of a few lines can stand for billions of values ("billion laughs").
constexpr std::size_t kMaxYamlValues = 10'000'000;

// The offset of the first byte of `s` that is not part of well-formed UTF-8, or npos. YAML text is Unicode:
// yaml-cpp reads other bytes as they are but writes them back as escapes of other characters, so a resolved
// scenario.yaml would not repeat the run (a fuzz finding).
std::size_t invalid_utf8_at(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n;
    std::uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      n = 1, cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      n = 2, cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3, cp = c & 0x07;
    } else {
      return i;
    }
    if (i + n >= s.size()) return i;  // cut short
    for (std::size_t k = 1; k <= n; ++k) {
      const unsigned char t = static_cast<unsigned char>(s[i + k]);
      if ((t & 0xc0) != 0x80) return i;
      cp = (cp << 6) | (t & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points beyond U+10FFFF are not UTF-8.
    if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
      return i;
    i += n + 1;
  }
  return std::string::npos;
}

void check_utf8(const YAML::Node& scalar, const std::string& file, const std::string& path) {
  const std::size_t at = invalid_utf8_at(scalar.Scalar());
  if (at != std::string::npos)
    throw ConfigError(
        where_of(file, scalar), path,
        "byte " + std::to_string(at + 1) + " of the value is not UTF-8 text (YAML files are UTF-8)");
}

// Every mapping of the tree: keys are plain values, each given once; every value is UTF-8 text.
void check_keys(const YAML::Node& node, const std::string& file, const std::string& path,
                std::size_t& seen_values) {
  if (++seen_values > kMaxYamlValues)
    throw ConfigError(
        where_of(file, node), path,
        "the document expands to more than " + std::to_string(kMaxYamlValues) + " values (through aliases?)");
  if (node.IsScalar()) check_utf8(node, file, path);
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      check_keys(node[i], file, path.empty() ? std::to_string(i) : path + "." + std::to_string(i),
                 seen_values);
  } else if (node.IsMap()) {
    std::map<std::string, int> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (!it->first.IsScalar())
        throw ConfigError(where_of(file, it->first), path,
                          "a key must be a plain value (a name), not a list, a mapping or empty");
      check_utf8(it->first, file, path);
      const std::string& k = it->first.Scalar();
      const std::string key = path.empty() ? k : path + "." + k;
      auto [at, fresh] = seen.emplace(k, line_of(it->first));
      if (!fresh)
        throw ConfigError(where_of(file, it->first), key,
                          "given twice in one mapping (first on line " + std::to_string(at->second) + ")");
      check_keys(it->second, file, key, seen_values);
    }
  }
}

// Notes where each document starts and nothing else: counts the documents of a text without building them.
class DocumentStarts final : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> marks;
  void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
  }
  void OnMapEnd() override {}
};

YAML::Node parse_one_document(const std::string& text, const std::string& file, const std::string& key) {
  YAML::Node root;
  DocumentStarts starts;
  try {
    root = YAML::Load(text);
    // A second document would be ignored by Load. Ask the parser for three documents at most: on text after
    // the end of a document's value (`[a], [b]`) yaml-cpp's parser yields empty documents without end, all at
    // the same place (YAML::LoadAll never returns; a fuzz finding).
    std::istringstream in(text);
    YAML::Parser parser(in);
    while (starts.marks.size() < 3 && parser.HandleNextDocument(starts)) {
    }
  } catch (const YAML::ParserException& e) {
    throw ConfigError(e.mark.line >= 0 ? file + ":" + std::to_string(e.mark.line + 1) : file, key,
                      "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw ConfigError(file, key, "cannot read YAML: " + e.msg);
  }
  if (starts.marks.size() > 1) {
    const YAML::Mark& second = starts.marks[1];
    const std::string where = file + ":" + std::to_string(second.line + 1);
    if (starts.marks.size() > 2 && starts.marks[2].pos == second.pos)
      throw ConfigError(where, key,
                        "YAML syntax error: text after the end of the document's value (column " +
                            std::to_string(second.column + 1) + ")");
    throw ConfigError(where, key, "a second YAML document (after ---): the file holds one document");
  }
  std::size_t seen_values = 0;
  check_keys(root, file, key, seen_values);
  return root;
}

}  // namespace

void check_path_length(const std::string& path, const std::string& where, const std::string& key) {
  // PATH_MAX and NAME_MAX of Linux.
  constexpr std::size_t kMaxPath = 4095, kMaxName = 255;
  if (path.size() > kMaxPath)
    throw ConfigError(where, key, "path is longer than " + std::to_string(kMaxPath) + " bytes");
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (slash - start > kMaxName)
      throw ConfigError(where, key,
                        "a file or folder name in the path is longer than " + std::to_string(kMaxName) +
                            " bytes: '" + path.substr(start, 40) + "...'");
    start = slash + 1;
  }
  if (path.find('\0') != std::string::npos) throw ConfigError(where, key, "path holds a NUL byte");
}

YAML::Node load_yaml_file(const std::string& path) {
  namespace fs = std::filesystem;
  check_path_length(path, path, "");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw ConfigError(path, "", "no such file");
  if (fs::is_directory(st)) throw ConfigError(path, "", "is a directory, not a YAML file");
  // A device or pipe (/dev/zero) could be read forever.
  if (!fs::is_regular_file(st)) throw ConfigError(path, "", "is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, "", "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError(path, "", "cannot read the file");
  return parse_one_document(text.str(), path, "");
}

YAML::Node load_yaml_text(const std::string& text, const std::string& where, const std::string& key) {
  return parse_one_document(text, where, key);
}

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
  asked_.insert(key);
  if (!node_.IsDefined() || !node_.IsMap()) return false;
  const YAML::Node n = node_[key];
  if (!n.IsDefined()) return false;
  // `key:` with nothing after it: neither the default (the key is there) nor a value.
  if (n.IsNull()) fail(key, "has no value (give one, or leave the key out for its default)");
  return true;
}

void YamlMap::fail(const std::string& key, const std::string& reason) const {
  YAML::Node n = (node_.IsDefined() && node_.IsMap()) ? node_[key] : YAML::Node();
  // Only where the failure is the key's absence: a rule on a defaulted key says nothing of typos.
  const bool absence = reason.rfind("is required", 0) == 0 || reason.rfind("expected a list", 0) == 0;
  if (absence && !n.IsDefined() && node_.IsDefined() && node_.IsMap()) {
    // A key that is missing because it was misspelt (`typ: flows`, `workloads:`): the typo is the error to
    // name, not the absence.
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      const std::string k = it->first.as<std::string>();
      if (!used_.count(k) && !asked_.count(k) && nearest_name(k, {key}) == key)
        throw ConfigError(where_of(file_, it->first), key_path(k), "unknown key" + did_you_mean(k, {key}));
    }
  }
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
  fail(key, "'" + v + "' is not one of: " + list + did_you_mean(v, options));
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
    auto n = parse_uint(s);
    if (!n) fail(key, "'" + s + "' is not a non-negative integer (or too large)");
    v = *n;
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
    if (!t && !time_limit_exceeded(s).empty()) fail(key, "'" + s + "' is " + time_limit_exceeded(s));
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
    if (!r && !rate_limit_exceeded(s).empty()) fail(key, "'" + s + "' is " + rate_limit_exceeded(s));
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
    if (!b && !size_limit_exceeded(s).empty()) fail(key, "'" + s + "' is " + size_limit_exceeded(s));
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
    if (!used_.count(k)) {
      std::vector<std::string> known(asked_.begin(), asked_.end());
      known.insert(known.end(), used_.begin(), used_.end());
      throw ConfigError(where_of(file_, it->first), key_path(k), "unknown key" + did_you_mean(k, known));
    }
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
      if (v.Scalar().empty() || end != v.Scalar().c_str() + v.Scalar().size() || !std::isfinite(x))
        m.fail_at(v, key, "'" + v.Scalar() + "' is not a number");
    }
    if (x < lo || x > hi)
      m.fail_at(v, key,
                v.Scalar() + " is out of range [" +
                    (is_size ? format_size(static_cast<Bytes>(lo)) : format_double(lo)) + ", " +
                    (is_size ? format_size(static_cast<Bytes>(hi)) : format_double(hi)) + "]");
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
      for (const auto& e : table)
        if (e.rate_bps == *rate)
          m.fail_at(it->first, key, "rate " + format_rate(*rate) + " is given twice in the table");
      double x = read_value(it->second);
      table.push_back({*rate, x});
      o[format_rate(*rate)] = is_size ? format_size(static_cast<Bytes>(x)) : format_double(x);
    }
    // An empty table is the "none" of a key whose default is empty (switch.pfc.xoff_by_rate), as the resolved
    // scenario writes it; elsewhere a value is needed.
    if (table.empty() && !def.empty()) m.fail(key, "table is empty");
  } else {
    m.fail(key, "expected a value or a mapping {rate: value}");
  }
  m.set_out(key, o);
  return table;
}

}  // namespace lossless
