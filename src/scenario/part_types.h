// The scenario's topology types (topology.type), workload types (workload entries by type) and monitors
// (monitor.*), each one entry of a table with its parameter spec: a struct with `visit()`, as a scheme's
// Params (core/params.h). The parser reads, checks, defaults and resolves an entry's keys through the spec
// (so the resolved scenario.yaml comes from it), `lossless list topologies|workloads|monitors [--markdown]`
// prints it with defaults, units and meanings, and the README's tables are generated from that
// (tools/readme_tables.py). The tables keep their order (the order of error messages' lists, of the listing
// and of the resolved keys).
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/params.h"
#include "scenario/yaml_map.h"
#include "stats/monitor_config.h"
#include "topo/topology.h"
#include "workload/flow.h"

namespace lossless {

// The reader of a part's spec: ParamReader's kinds of value plus the scenario's own (hosts, lists).
class PartReader : public ParamReader {
 public:
  explicit PartReader(YamlMap& m, const Topology* topo = nullptr) : ParamReader(m), m_(m), topo_(topo) {}
  // The keys of `first` when the section gives `key`, else those of `second` (the printer lists both).
  template <class A, class B>
  void one_of(const char* key, A&& first, B&& second) {
    if (m_.has(key))
      first();
    else
      second();
  }
  // A list or mapping its entry checks itself (undefined when absent); `def` and `doc` are for the printer.
  void node(const char* n, YAML::Node& v, const char*, const char*) { v = m_.raw(n); }
  // A set of hosts: `all`, host ids, ranges like 1-16, or a list of them. `def`: "all" (the default when
  // absent), "(required)" or "(none)" (left empty when absent). Resolved as `all` or a list of ranges. A host
  // named twice is merged into one, or, with `once` (why each host must be named once), an error naming it.
  void hosts(const char* n, std::vector<std::uint32_t>& v, const char* def, const char* doc,
             const char* once = nullptr);
  // A number whose range the spec checks itself (with `require`, in the words it chooses).
  void real_checked(const char* n, double& v, const char*) { v = m_.real(n, v, -1e300, 1e300); }
  // One host id; `required` or `v` when absent.
  void host(const char* n, std::uint64_t& v, bool required, const char* doc);
  // The keys of each item of the list `n` (read by the entry, item by item; the printer lists them).
  template <class F>
  void items(const char*, const char*, F&&) {}
  YamlMap& map() { return m_; }

 private:
  YamlMap& m_;
  const Topology* topo_;
};

// The printer of a part's spec (`lossless list topologies|workloads|monitors`, the README tables).
class PartPrinter : public ParamPrinter {
 public:
  PartPrinter(std::ostream& os, bool markdown, std::string prefix = "")
      : ParamPrinter(os, "    ", markdown, prefix),
        os_(os),
        markdown_(markdown),
        prefix_(std::move(prefix)) {}
  template <class A, class B>
  void one_of(const char*, A&& first, B&& second) {
    first();
    second();
  }
  void node(const char* n, YAML::Node&, const char* def, const char* doc) { shown(n, def, doc); }
  void real_checked(const char* n, double& v, const char* doc) { shown(n, format_double(v), doc); }
  void hosts(const char* n, std::vector<std::uint32_t>&, const char* def, const char* doc,
             const char* = nullptr) {
    shown(n, def, std::string(doc) + " (all | ids | ranges a-b, or a list of them)");
  }
  void host(const char* n, std::uint64_t& v, bool required, const char* doc) {
    shown(n, required ? "(required)" : std::to_string(v), doc);
  }
  template <class F>
  void items(const char* n, const char*, F&& visit_item) {
    PartPrinter inner = nested(std::string(n) + "[]");
    visit_item(inner);
  }
  // The printer of the section `n` (its keys named n.key).
  PartPrinter nested(const std::string& n) const { return PartPrinter(os_, markdown_, prefix_ + n + "."); }

 private:
  void shown(const char* n, const std::string& def, const std::string& doc) {
    std::string d = def;
    text(n, d, doc.c_str());
  }
  std::ostream& os_;
  bool markdown_;
  std::string prefix_;
};

// The entry of a spec type `P` (a struct with `template <class V> void visit(V&)`): prints its keys.
template <class P>
void print_spec(PartPrinter& printer) {
  P p{};
  p.visit(printer);
}

struct TopologyType {
  std::string name;
  std::string summary;
  // Reads the keys of topology: (its type already read) through the spec and builds the fabric (its size
  // checked before anything is built). `scenario_dir`: where relative input paths are looked for.
  std::function<Topology(YamlMap& m, const std::string& scenario_dir)> build;
  std::function<void(PartPrinter&)> print;
};

// What a workload entry draws on.
struct WorkloadContext {
  const Topology& topo;
  const std::vector<RateBps>& host_rate;
  std::uint64_t seed;
  std::uint32_t index;  // of the entry in the workload list (its random streams)
  std::string scenario_dir;
  std::uint8_t default_priority;  // nic.data_priority
  std::uint64_t budget;           // how many more flows the run may hold
};

struct WorkloadType {
  std::string name;
  std::string summary;
  // Reads one workload entry (its type already read) through the spec and generates its flows.
  std::function<std::vector<Flow>(YamlMap& m, const WorkloadContext& ctx)> generate;
  std::function<void(PartPrinter&)> print;
};

struct MonitorType {
  std::string name;  // its key under monitor:
  std::string summary;
  // Reads its key of the monitor: section into `c` (`flows`: how many flows the run has).
  std::function<void(YamlMap& monitor, const Topology& topo, std::size_t flows, MonitorConfig& c)> read;
  std::function<void(PartPrinter&)> print;
};

const std::vector<TopologyType>& topology_types();
const std::vector<WorkloadType>& workload_types();
const std::vector<MonitorType>& monitor_types();

// The names of a table, in its order.
template <class Entry>
std::vector<std::string> type_names(const std::vector<Entry>& table) {
  std::vector<std::string> names;
  for (const auto& e : table) names.push_back(e.name);
  return names;
}

// `lossless list topologies|workloads|monitors`: each entry's "  name — summary" line and its keys (key,
// default, meaning); with `markdown`, the rows of the README's table.
void print_part_types(const std::string& kind, std::ostream& out, bool markdown);

// Helpers the entries share.
// A file the scenario names at `key`: a readable path, not a folder (exit 2 otherwise).
void check_input_file(const YamlMap& m, const std::string& key, const std::string& path);
// The path an input file was found at, as the resolved scenario records it: absolute and normal, so that the
// resolved scenario.yaml (written in the output folder) re-runs from anywhere.
std::string resolved_input_path(const std::filesystem::path& p);
// The input file the scenario names at `key` (`path`; a relative one is relative to `scenario_dir`): fails
// with `missing` when empty, is checked by check_input_file and recorded in the resolved scenario as
// resolved_input_path. Returns the path to read.
std::filesystem::path read_input_file(YamlMap& m, const std::string& key, const std::string& path,
                                      const std::string& scenario_dir, const std::string& missing);
// `name` as h<i>, s<j> or a node id of `t`.
std::uint32_t read_node_name(const YamlMap& m, const YAML::Node& n, const std::string& key,
                             const Topology& t);
// A plain decimal index below `limit`, or nothing (not a number, too large).
std::optional<std::uint64_t> index_below(const std::string& s, std::uint64_t limit);

}  // namespace lossless
