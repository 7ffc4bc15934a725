#include "cli/case_record.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/units.h"

namespace lossless {

// The reader is yaml-cpp, whose double-quoted scalars take the same escapes.
std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      out += buf;
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

namespace {

std::string dist(const Distribution& d) {
  std::ostringstream os;
  os << "{\"count\": " << d.count << ", \"mean\": " << format_double(d.mean)
     << ", \"p50\": " << format_double(d.p50) << ", \"p95\": " << format_double(d.p95)
     << ", \"p99\": " << format_double(d.p99) << ", \"max\": " << format_double(d.max) << "}";
  return os.str();
}

// yaml-cpp's own conversion goes through a stream; strtod is exact for the round-trip form we write.
double real(const YAML::Node& n) { return std::strtod(n.Scalar().c_str(), nullptr); }

Distribution read_dist(const YAML::Node& n) {
  Distribution d;
  d.count = n["count"].as<std::uint64_t>();
  d.mean = real(n["mean"]);
  d.p50 = real(n["p50"]);
  d.p95 = real(n["p95"]);
  d.p99 = real(n["p99"]);
  d.max = real(n["max"]);
  return d;
}

}  // namespace

std::string case_record_json(const CaseOutcome& c) {
  const RunResult& r = c.result;
  std::ostringstream os;
  os << "{\"case\": " << json_quote(c.name) << ", \"rank\": " << c.rank
     << ", \"ok\": " << (c.ok ? "true" : "false") << ", \"bad_input\": " << (c.bad_input ? "true" : "false")
     << ", \"error\": " << json_quote(c.error) << ",\n"
     << " \"scenario\": " << json_quote(r.scenario) << ", \"cc\": " << json_quote(r.cc)
     << ", \"seed\": " << r.seed << ", \"wall_seconds\": " << format_double(r.wall_seconds)
     << ", \"events\": " << r.events << ",\n"
     << " \"flows_total\": " << r.flows_total << ", \"flows_completed\": " << r.flows_completed << ",\n"
     << " \"slowdown\": " << dist(r.slowdown) << ",\n"
     << " \"bins\": [";
  for (std::size_t i = 0; i < r.bins.size(); ++i)
    os << (i ? ",\n  " : "\n  ") << "{\"min_bytes\": " << r.bins[i].min_bytes
       << ", \"max_bytes\": " << r.bins[i].max_bytes << ", \"slowdown\": " << dist(r.bins[i].slowdown) << "}";
  os << "],\n"
     << " \"pause_frames\": " << r.counters.pause_frames
     << ", \"paused_time_ps\": " << r.counters.paused_time_ps << ", \"drops\": " << r.counters.drops
     << ", \"unfinished_active\": " << r.unfinished.active
     << ", \"unfinished_stalled\": " << r.unfinished.stalled << "}\n";
  return os.str();
}

void write_case_record(const std::string& path, const CaseOutcome& c) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream os(tmp);
    os << case_record_json(c);
    if (!os.flush()) throw ConfigError(tmp, "", "cannot write the case record");
  }
  std::filesystem::rename(tmp, path);
}

CaseOutcome read_case_record(const std::string& path) {
  YAML::Node n;
  try {
    n = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw InternalError(path + ": not a case record: " + e.what());
  }
  return case_from_record(n, path);
}

CaseOutcome case_from_record(const YAML::Node& n, const std::string& where) {
  try {
    CaseOutcome c;
    c.name = n["case"].as<std::string>();
    c.rank = n["rank"].as<int>();
    c.ok = n["ok"].as<bool>();
    c.bad_input = n["bad_input"].as<bool>();
    c.error = n["error"].as<std::string>();
    RunResult& r = c.result;
    r.scenario = n["scenario"].as<std::string>();
    r.cc = n["cc"].as<std::string>();
    r.seed = n["seed"].as<std::uint64_t>();
    r.wall_seconds = real(n["wall_seconds"]);
    r.events = n["events"].as<std::uint64_t>();
    r.flows_total = n["flows_total"].as<std::uint64_t>();
    r.flows_completed = n["flows_completed"].as<std::uint64_t>();
    r.slowdown = read_dist(n["slowdown"]);
    for (const auto& b : n["bins"])
      r.bins.push_back({b["min_bytes"].as<Bytes>(), b["max_bytes"].as<Bytes>(), read_dist(b["slowdown"])});
    r.counters.pause_frames = n["pause_frames"].as<std::uint64_t>();
    r.counters.paused_time_ps = n["paused_time_ps"].as<TimePs>();
    r.counters.drops = n["drops"].as<std::uint64_t>();
    r.unfinished.active = n["unfinished_active"].as<std::uint64_t>();
    r.unfinished.stalled = n["unfinished_stalled"].as<std::uint64_t>();
    return c;
  } catch (const YAML::Exception& e) {
    throw InternalError(where + ": not a case record: " + e.what());
  }
}

}  // namespace lossless
