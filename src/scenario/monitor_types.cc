// The monitors (keys of monitor:): each one entry with its parameter spec.
#include "core/units.h"
#include "scenario/part_types.h"

namespace lossless {
namespace {

const char* const kEnabledDoc = "record it (default: true when this section is given)";

struct Queues {
  bool enabled = false;
  TimePs interval = kPsPerUs;
  YAML::Node where;
  template <class V>
  void visit(V& v) {
    v.flag("enabled", enabled, kEnabledDoc);
    v.time("interval", interval, "sampling period", kPositive);
    v.node("where", where, "all_switch_ports",
           "the switch ports sampled: all_switch_ports or a list like [\"s0:3\", \"s1:*\"] (`lossless "
           "describe` numbers them)");
  }
};

// A sampler's section monitor.<name> read through its spec: enabled by default when the section is given.
template <class P>
struct Section {
  YamlMap map;
  P params;
};
template <class P>
Section<P> read_section(YamlMap& m, const char* name, const Topology& topo) {
  const bool present = m.has(name);
  Section<P> s{m.map(name), P{}};
  s.params.enabled = present;
  PartReader reader(s.map, &topo);
  s.params.visit(reader);
  return s;
}

// Whether a list key holds its default word (or nothing): all the sampler's ports or flows.
bool is_all(const YAML::Node& n, const char* word) {
  return !n.IsDefined() || n.IsNull() || (n.IsScalar() && n.Scalar() == word);
}

void read_queues(YamlMap& m, const Topology& topo, std::size_t, MonitorConfig& c) {
  auto [q, p] = read_section<Queues>(m, "queues", topo);
  c.queues = p.enabled;
  c.queue_interval_ps = p.interval;
  const YAML::Node& where = p.where;
  if (is_all(where, "all_switch_ports")) {
    q.set_out("where", "all_switch_ports");
  } else {
    if (!where.IsSequence()) q.fail("where", "expected all_switch_ports or a list like [\"s0:3\", \"s1:*\"]");
    // Ports of a switch are numbered in the order of its links.
    std::vector<std::uint32_t> ports(topo.switches, 0);
    for (const auto& l : topo.links)
      for (std::uint32_t node : {l.a, l.b})
        if (!topo.is_host(node)) ++ports[node - topo.hosts];
    for (const auto& item : where) {
      std::string s = item.IsScalar() ? item.Scalar() : "";
      auto colon = s.find(':');
      std::string sw = s.substr(0, colon), port = colon == std::string::npos ? "*" : s.substr(colon + 1);
      auto sw_index = sw.size() > 1 && sw[0] == 's' ? index_below(sw.substr(1), topo.switches) : std::nullopt;
      if (!sw_index)
        q.fail_at(item, "where", "'" + s + "' does not name a switch port (s<j>:<port> or s<j>:*)");
      std::optional<std::uint64_t> port_index;
      if (port != "*") {
        if (!parse_uint(port)) q.fail_at(item, "where", "'" + s + "': port must be a number or *");
        port_index = index_below(port, ports[*sw_index]);
        if (!port_index)
          q.fail_at(item, "where",
                    "'" + s + "': " + sw + " has ports 0-" + std::to_string(ports[*sw_index] - 1));
      }
      c.queue_ports.push_back({topo.switch_node(static_cast<std::uint32_t>(*sw_index)),
                               port_index ? static_cast<int>(*port_index) : -1});
    }
    q.set_out("where", where);
  }
  q.finish();
}

struct FlowRates {
  bool enabled = false;
  TimePs interval = 10 * kPsPerUs;
  YAML::Node flows;
  template <class V>
  void visit(V& v) {
    v.flag("enabled", enabled, kEnabledDoc);
    v.time("interval", interval, "sampling period", kPositive);
    v.node("flows", flows, "all", "the flows sampled: all or a list of flow ids");
  }
};

void read_flow_rates(YamlMap& m, const Topology& topo, std::size_t flows, MonitorConfig& c) {
  auto [r, p] = read_section<FlowRates>(m, "flow_rates", topo);
  c.flow_rates = p.enabled;
  c.flow_rate_interval_ps = p.interval;
  const YAML::Node& which = p.flows;
  if (is_all(which, "all")) {
    r.set_out("flows", "all");
  } else {
    if (!which.IsSequence()) r.fail("flows", "expected all or a list of flow ids");
    for (const auto& item : which) {
      auto id = item.IsScalar() ? index_below(item.Scalar(), flows) : std::nullopt;
      if (!id)
        r.fail_at(item, "flows",
                  "'" + (item.IsScalar() ? item.Scalar() : std::string("?")) + "' is not a flow id below " +
                      std::to_string(flows));
      c.rate_flows.push_back(static_cast<std::uint32_t>(*id));
    }
    r.set_out("flows", which);
  }
  r.finish();
}

// What `lossless view` draws: every port's queue and pause state and every flow's rate.
struct Fabric {
  bool enabled = false;
  TimePs interval = 10 * kPsPerUs;
  template <class V>
  void visit(V& v) {
    v.flag("enabled", enabled, kEnabledDoc);
    v.time("interval", interval, "sampling period", kPositive);
  }
};

void read_fabric(YamlMap& m, const Topology& topo, std::size_t, MonitorConfig& c) {
  auto [f, p] = read_section<Fabric>(m, "fabric", topo);
  c.fabric = p.enabled;
  c.fabric_interval_ps = p.interval;
  f.finish();
}

// A key of monitor: itself (not a section).
struct Pfc {
  bool pfc = true;
  template <class V>
  void visit(V& v) {
    v.flag("pfc", pfc, "record every PAUSE and RESUME (pfc.csv)");
  }
};

void read_pfc(YamlMap& m, const Topology&, std::size_t, MonitorConfig& c) {
  Pfc p;
  ParamReader reader(m);
  p.visit(reader);
  c.pfc = p.pfc;
}

// The entry of a monitor whose keys are a section monitor.<name>.
template <class P>
MonitorType section_entry(const char* name, const char* summary,
                          void (*read)(YamlMap&, const Topology&, std::size_t, MonitorConfig&)) {
  return MonitorType{name, summary, read, [name](PartPrinter& printer) {
                       PartPrinter inner = printer.nested(name);
                       print_spec<P>(inner);
                     }};
}

}  // namespace

const std::vector<MonitorType>& monitor_types() {
  static const std::vector<MonitorType> types{
      section_entry<Queues>("queues", "egress queue lengths of switch ports over time (queues.csv)",
                            read_queues),
      section_entry<FlowRates>("flow_rates", "each flow's sending rate over time (flow_rates.csv)",
                               read_flow_rates),
      section_entry<Fabric>("fabric",
                            "every port's queue and pause state and every flow's rate, for `lossless view` "
                            "(fabric.json, fabric.bin)",
                            read_fabric),
      MonitorType{"pfc", "PFC pause events (pfc.csv)", read_pfc, print_spec<Pfc>},
  };
  return types;
}

}  // namespace lossless
