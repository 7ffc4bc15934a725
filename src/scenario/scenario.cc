#include "scenario/scenario.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "core/error.h"
#include "core/suggest.h"
#include "core/units.h"
#include "net/flow_control.h"
#include "net/packet_layout.h"
#include "net/routing_policy.h"
#include "net/switch_architecture.h"
#include "net/switch_mechanism.h"
#include "scenario/part_types.h"
#include "scenario/yaml_map.h"
#include "workload/cdf.h"

namespace lossless {
namespace {

// A scheme's `cdf` parameter (Homa's: the workload's size distribution, for its unscheduled cut-offs) names
// a CDF as a workload's `cdf` does: a name from data/cdf, or a file found beside the scenario, else in the
// working folder. A file is handed to the scheme, and so written to the resolved scenario, as the absolute
// path it was found at (the value is replaced in place: its line stays for the scheme's errors). What is
// not found is left as written, for the scheme to report.
void resolve_scheme_cdf(const YamlMap& params, const std::string& scenario_dir) {
  const YAML::Node& given = params.node();
  if (!given.IsDefined() || !given.IsMap()) return;
  YAML::Node value = given["cdf"];
  if (!value.IsDefined() || !value.IsScalar()) return;
  const std::string name = value.Scalar();
  check_path_length(name, where_of(params.file(), value), params.key_path("cdf"));
  const std::string path = resolve_cdf_path(name, scenario_dir);
  std::error_code ec;
  if (named_cdf_path(name) == path || !std::filesystem::is_regular_file(path, ec)) return;
  value = resolved_input_path(path);
}

// The names of a table as a list for messages: "a, b, c" (`last`: the word before the last name, or ", ").
template <class Entry>
std::string listed(const std::vector<Entry>& table, const std::string& last = ", ") {
  std::string s;
  for (std::size_t i = 0; i < table.size(); ++i)
    s += (i == 0 ? "" : i + 1 == table.size() ? last : ", ") + table[i].name;
  return s;
}

Topology read_topology(YamlMap m, const std::string& scenario_dir) {
  const auto& types = topology_types();
  const std::string type = m.choice("type", types.front().name, type_names(types));
  const TopologyType& entry =
      *std::find_if(types.begin(), types.end(), [&](const TopologyType& e) { return e.name == type; });
  Topology t = entry.build(m, scenario_dir);
  m.finish();
  check_topology(t, where_of(m.file(), m.node()), "topology");
  return t;
}

// The scheme `entry` with its parameters from the switch section's key `entry->section` (none when it has no
// section).
template <class Entry>
auto make_switch_scheme(YamlMap& m, const Entry& entry) {
  using Factory = typename decltype(entry.make(std::declval<ParamSource&>()))::element_type;
  if (entry.section.empty()) {
    DefaultParams none;
    return std::shared_ptr<const Factory>(entry.make(none));
  }
  YamlMap section = m.map(entry.section);
  return std::shared_ptr<const Factory>(entry.make(section));
}

SwitchConfig read_switch(YamlMap m, const Topology& topo, const NicConfig& nic, const SubstrateHints& hints,
                         std::unique_ptr<MechanismFactory>* mechanism, std::vector<ConfigError>* warnings) {
  SwitchConfig c;
  ParamReader reader(m);
  c.visit(reader);
  // The schemes the names select, each with its parameters.
  c.flow_control_factory = make_switch_scheme(m, *FlowControlRegistry::find(c.flow_control_policy()));
  c.routing_factory = make_switch_scheme(m, *RoutingRegistry::find(c.routing));
  c.architecture_factory = make_switch_scheme(m, *ArchitectureRegistry::find(c.architecture));
  {
    const std::string& mech = c.mechanism;
    YamlMap params = m.map("params");
    if (mech == "none") {
      params.finish();
    } else {
      const MechanismScheme* scheme = MechanismRegistry::find(mech);
      if (!scheme) {
        std::string names = "none";
        std::vector<std::string> known{"none"};
        for (const auto& s : MechanismRegistry::all()) {
          names += ", " + s.name;
          known.push_back(s.name);
        }
        m.fail("mechanism", "unknown switch mechanism '" + mech + "'" + did_you_mean(mech, known) +
                                " (known: " + names + ")");
      }
      *mechanism = scheme->make(params);
      const char* arch = (*mechanism)->required_architecture();
      if (arch && c.architecture != arch)
        m.fail("mechanism", mech + " needs switch.architecture: " + arch + " (not " + c.architecture + ")");
    }
    if (!hints.required_mechanism.empty() && mech != hints.required_mechanism)
      m.fail("mechanism", "the congestion control needs switch.mechanism: " + hints.required_mechanism);
  }
  if (hints.one_path_per_flow && c.routing_factory->reorders())
    m.fail("routing",
           "the congestion control reads one path's state per flow (HPCC: each hop's INT record "
           "against the same hop's on the previous ACK); switch.routing: " +
               c.routing + " sends a flow's packets over several paths (use ecmp)");
  if (!hints.required_architecture.empty() && c.architecture != hints.required_architecture)
    m.fail("architecture",
           "the congestion control gives every switch port its own queues: it needs "
           "switch.architecture: " +
               hints.required_architecture + " (not " + c.architecture + ")");
  m.finish();

  // Each switch must hold its reserves and (lossless) headrooms with room left for a shared pool.
  bool lossless = c.lossless();
  // In 128 bits: sizes up to kMaxBytes on up to kMaxPortsPerNode ports.
  std::vector<unsigned __int128> fixed(topo.switches, 0);
  std::vector<std::uint32_t> nports(topo.switches, 0);
  for (const auto& l : topo.links)
    for (std::uint32_t node : {l.a, l.b})
      if (!topo.is_host(node)) {
        std::uint32_t s = node - topo.hosts;
        fixed[s] += c.reserve_bytes;
        if (lossless)
          fixed[s] += c.headroom_bytes ? c.headroom_bytes : auto_headroom_bytes(l.rate_bps, l.delay_ps, nic);
        ++nports[s];
      }
  // An explicit headroom below what can arrive after a pause may let a lossless fabric drop packets (and a
  // flow that lost one waits forever when nic.rto is off, its default there). A warning, not an error: the
  // need is the worst case (measured drop-free minima of 31 and 39 KB where it gives 53 KB), and how small a
  // headroom can be is a question worth running.
  const MostHeadroomNeeded most = most_headroom_needed(topo, nic);
  if (lossless && c.headroom_bytes && c.headroom_bytes < most.bytes) {
    const TopoLink& l = *most.link;
    const YAML::Node& given = m.node();
    const YAML::Node pfc = given.IsMap() ? given["pfc"] : YAML::Node();
    const YAML::Node at = pfc.IsMap() ? pfc["headroom"] : YAML::Node();
    warnings->push_back(ConfigError(
        where_of(m.file(), at), m.key_path("pfc.headroom"),
        format_size(c.headroom_bytes) + " is less than what can arrive at port " + std::to_string(most.port) +
            " of " + topo.node_name(most.node) + " (the " + format_rate(l.rate_bps) + " " +
            format_time(l.delay_ps) + " link to " + topo.node_name(l.a == most.node ? l.b : l.a) +
            ") after it pauses in the worst case: " + std::to_string(most.bytes) +
            " B, 2 x rate x delay + 3 maximum packets + a pause frame; the fabric may drop packets "
            "(README \"Flow control\"): give at least that, or auto (sized per port)"));
  }
  for (std::uint32_t s = 0; s < topo.switches; ++s) {
    const unsigned __int128 need = fixed[s] + c.shared_buffer_bytes;
    if (need >= c.buffer_bytes)
      m.fail("buffer", format_size(c.buffer_bytes) + " is smaller than the " +
                           (need > kMaxBytes ? "more than " + format_size(kMaxBytes)
                                             : std::to_string(static_cast<Bytes>(need))) +
                           " B that switch " + topo.node_name(topo.switch_node(s)) +
                           " needs for PFC headroom and reserve on its " + std::to_string(nports[s]) +
                           " ports" + (c.shared_buffer_bytes ? " plus the shared pool" : "") +
                           " (raise switch.buffer or lower switch.pfc.headroom)");
  }
  return c;
}

NicConfig read_nic(YamlMap m) {
  NicConfig n;
  n.cnp_interval_ps = kTimeNever;  // auto
  n.rto_ps = kTimeNever;  // auto: resolved once the switch section says whether the fabric is lossless
  ParamReader reader(m);
  n.visit(reader);
  m.finish();
  // auto, where the congestion control gives no default (SubstrateHints::defaults): the DCQCN paper's 50us.
  if (n.cnp_interval_ps == kTimeNever) n.cnp_interval_ps = NicConfig{}.cnp_interval_ps;
  m.record("cnp_interval", format_time(n.cnp_interval_ps));
  return n;
}

// One workload entry (`budget`: how many more flows the run may hold, kMaxFlows less the entries before).
std::vector<Flow> read_workload_entry(YamlMap m, const WorkloadContext& ctx) {
  const auto& types = workload_types();
  const std::string type = m.choice("type", types.front().name, type_names(types));
  if (!m.has("type")) m.fail("type", "is required (" + listed(types, " or ") + ")");
  const WorkloadType& entry =
      *std::find_if(types.begin(), types.end(), [&](const WorkloadType& e) { return e.name == type; });
  std::vector<Flow> flows = entry.generate(m, ctx);
  m.finish();
  return flows;
}

MonitorConfig read_monitor(YamlMap m, const Topology& topo, std::size_t flows) {
  MonitorConfig c;
  for (const MonitorType& e : monitor_types()) e.read(m, topo, flows, c);
  m.finish();
  return c;
}

// The node at dotted `path` below `n` (undefined when a part is missing).
YAML::Node node_at(const YAML::Node& n, const std::string& path) {
  if (path.empty()) return n;
  if (!n.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  const auto dot = path.find('.');
  const YAML::Node child = n[path.substr(0, dot)];
  if (!child.IsDefined()) return YAML::Node(YAML::NodeType::Undefined);
  return dot == std::string::npos ? child : node_at(child, path.substr(dot + 1));
}

// The packet slots of the schemes the scenario selects, laid out in the order the network lays them out
// (net/packet_layout.h): schemes whose packet fields cannot fit together are refused before anything runs.
void check_packet_layout(const Scenario& sc, const YAML::Node& root, const std::string& file) {
  PacketLayout layout;
  try {
    lay_out_switch_slots(layout, sc.sw);
    if (sc.mechanism) layout.add("switch.mechanism", *sc.mechanism);
    layout.add("cc.algorithm", *sc.cc);
  } catch (const ConfigError& e) {
    throw ConfigError(where_of(file, node_at(root, e.key())), e.key(), e.reason());
  }
}

}  // namespace

void apply_set(YAML::Node& root, const std::string& path, const std::string& value) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (auto& p : parts)
    if (p.empty()) throw ConfigError("--set", path, "empty component in the key path");
  YAML::Node v = load_yaml_text(value, "--set", path);
  if (!v.IsDefined() || v.IsNull()) v = YAML::Node(value);
  // Walk with references, creating mappings on the way.
  std::vector<YAML::Node> chain{root};
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node cur = chain.back();
    if (cur.IsSequence()) {
      auto index = index_below(parts[i], cur.size());
      if (!index)
        throw ConfigError("--set", path,
                          "'" + parts[i] + "' is not an index of that list (it has " +
                              std::to_string(cur.size()) + " entries)");
      chain.push_back(cur[static_cast<std::size_t>(*index)]);
    } else {
      if (!cur[parts[i]].IsDefined() || cur[parts[i]].IsNull())
        cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
      if (cur[parts[i]].IsScalar())
        throw ConfigError("--set", path, "'" + parts[i] + "' holds a value, not a mapping");
      chain.push_back(cur[parts[i]]);
    }
  }
  YAML::Node last = chain.back();
  const std::string& key = parts.back();
  if (last.IsSequence()) {
    auto index = index_below(key, last.size());
    if (!index)
      throw ConfigError(
          "--set", path,
          "'" + key + "' is not an index of that list (it has " + std::to_string(last.size()) + " entries)");
    last[static_cast<std::size_t>(*index)] = v;
  } else {
    last[key] = v;
  }
}

void apply_key_defaults(YAML::Node& root, const KeyDefaults& defaults) {
  for (const auto& [path, value] : defaults.entries) {
    // Walk the path: a key the scenario sets (other than to auto) wins; a path through something other than a
    // mapping is left for the parser to report.
    YAML::Node cur = root;
    bool absent = false;
    std::size_t start = 0;
    while (true) {
      const auto dot = path.find('.', start);
      const std::string part = path.substr(start, dot - start);
      if (!cur.IsMap()) {
        absent = cur.IsNull() || !cur.IsDefined();
        break;
      }
      const YAML::Node next = static_cast<const YAML::Node&>(cur)[part];
      if (!next.IsDefined() || next.IsNull()) {
        absent = true;
        break;
      }
      if (dot == std::string::npos) {
        absent = next.IsScalar() && next.Scalar() == "auto";
        break;
      }
      cur.reset(next);
      start = dot + 1;
    }
    if (absent) apply_set(root, path, value);
  }
}

Scenario parse_scenario(const YAML::Node& root, const std::string& file, const ScenarioOverrides& ov) {
  Scenario sc;
  sc.file = file;
  sc.resolved = YAML::Node(YAML::NodeType::Map);
  std::string dir = std::filesystem::path(file).parent_path().string();
  if (!root.IsMap())
    throw ConfigError(where_of(file, root), "",
                      "a scenario is a YAML mapping (name, topology, workload, ...)");
  YamlMap top(root, file, "", sc.resolved);
  sc.name = top.text("name", std::filesystem::path(file).stem().string());
  // The name makes the default output folder out/NAME: a path in it would put the outputs elsewhere.
  if (sc.name.empty() || sc.name == "." || sc.name == ".." || sc.name.find('/') != std::string::npos)
    top.fail("name",
             "'" + sc.name + "' is not a plain name (no '/', not empty, '.' or '..'): it names out/NAME");
  sc.seed = top.count("seed", 1, 0, ~std::uint64_t{0});
  if (ov.has_seed) {
    sc.seed = ov.seed;
    top.set_out("seed", sc.seed);
  }
  bool has_stop = top.has("stop");
  TimePs stop = top.time("stop", 0);
  if (has_stop && stop == 0) top.fail("stop", "must be positive");

  sc.topology = read_topology(top.map("topology"), dir);

  // cc before nic: the scheme decides what `nic.cnp_interval: auto` means.
  {
    YamlMap cc = top.map("cc");
    sc.cc_algorithm = cc.text("algorithm", "dcqcn");
    const CcScheme* scheme = CcRegistry::find(sc.cc_algorithm);
    if (!scheme) {
      std::string names;
      std::vector<std::string> known;
      for (const auto& s : CcRegistry::all()) {
        names += (names.empty() ? "" : ", ") + s.name;
        known.push_back(s.name);
      }
      cc.fail("algorithm", "unknown scheme '" + sc.cc_algorithm + "'" + did_you_mean(sc.cc_algorithm, known) +
                               " (known: " + names + ")");
    }
    YamlMap params = cc.map("params");
    resolve_scheme_cdf(params, dir);
    sc.cc = scheme->make(params);
    cc.finish();
  }
  // The defaults the congestion control and the switch mechanism give substrate keys go into the scenario
  // before its nic: and switch: sections are read (the mechanism's from its default parameters; its name is
  // looked at here, and read and checked with the switch section).
  {
    YAML::Node tree = root;
    apply_key_defaults(tree, sc.cc->hints().defaults);
    const YAML::Node sw = root["switch"];
    const YAML::Node name = sw.IsDefined() && sw.IsMap() ? sw["mechanism"] : YAML::Node();
    if (name.IsDefined() && name.IsScalar())
      if (const MechanismScheme* scheme = MechanismRegistry::find(name.Scalar())) {
        DefaultParams defaults;
        apply_key_defaults(tree, scheme->make(defaults)->hints().defaults);
      }
  }
  sc.nic = read_nic(top.map("nic"));
  sc.sw = read_switch(top.map("switch"), sc.topology, sc.nic, sc.cc->hints(), &sc.mechanism, &sc.warnings);
  check_packet_layout(sc, root, file);
  if (sc.nic.rto_ps == kTimeNever) {
    // auto: a timeout where a flow's data may be lost (lossy) or overtaken while receivers go back N (per-
    // packet routing, a mechanism that moves flows under way): a go-back-N receiver NACKs only when a later
    // packet arrives, so a flow whose last packets were lost, or overtaken and discarded, would wait forever.
    // None on a lossless fabric with one path per flow (a scheme that recovers losses with its own timers
    // makes 0 the default: SubstrateHints::defaults).
    const bool reordered_nacked =
        !sc.nic.place_out_of_order &&
        (sc.sw.routing_factory->reorders() || (sc.mechanism && sc.mechanism->hints().moves_flows));
    sc.nic.rto_ps = sc.sw.lossless() && !reordered_nacked ? 0 : kPsPerMs;
    sc.resolved["nic"]["rto"] = format_time(sc.nic.rto_ps);
  }

  std::vector<RateBps> host_rate(sc.topology.hosts, 0);
  for (const auto& l : sc.topology.links) {
    if (sc.topology.is_host(l.a)) host_rate[l.a] = l.rate_bps;
    if (sc.topology.is_host(l.b)) host_rate[l.b] = l.rate_bps;
  }
  {
    YAML::Node wl = top.raw("workload");
    if (!wl.IsDefined() || !wl.IsSequence() || wl.size() == 0)
      top.fail("workload", "expected a list of workload entries (" + listed(workload_types()) + ")");
    YAML::Node out(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < wl.size(); ++i) {
      YAML::Node o(YAML::NodeType::Map);
      YamlMap entry(wl[i], file, "workload." + std::to_string(i), o);
      const WorkloadContext ctx{sc.topology,
                                host_rate,
                                sc.seed,
                                static_cast<std::uint32_t>(i),
                                dir,
                                sc.nic.data_priority,
                                kMaxFlows - sc.flows.size()};
      auto flows = read_workload_entry(entry, ctx);
      sc.flows.insert(sc.flows.end(), flows.begin(), flows.end());
      out.push_back(o);
    }
    top.set_out("workload", out);
  }
  if (sc.flows.empty()) top.fail("workload", "generates no flows");
  std::vector<std::uint16_t> next_port(sc.topology.hosts, 10000);
  TimePs last_start = 0;
  TimePs first_start = kTimeNever;
  for (std::size_t i = 0; i < sc.flows.size(); ++i) {
    sc.flows[i].id = static_cast<std::uint32_t>(i);
    sc.flows[i].sport = next_port[sc.flows[i].src]++;
    last_start = std::max(last_start, sc.flows[i].start_ps);
    first_start = std::min(first_start, sc.flows[i].start_ps);
  }
  // A run that ends before its first flow starts would print a table of zeros as if it had measured them.
  if (has_stop && stop <= first_start) {
    char first[32];
    std::snprintf(first, sizeof first, "%.3f us", static_cast<double>(first_start) / kPsPerUs);
    top.fail("stop",
             format_time(stop) + " is not after the first flow's start (" + first + "): no flow could run");
  }
  // Without a stop time a run ends when every flow is done, or one simulated second after the last start
  // (within the longest time an input may give, so that the resolved scenario reads back).
  sc.stop_ps = has_stop ? stop : std::min(last_start + kPsPerSec, kMaxTimePs);
  top.set_out("stop", format_time(sc.stop_ps));

  sc.monitor = read_monitor(top.map("monitor"), sc.topology, sc.flows.size());
  {
    // What a run checks about itself (net/run_checks.h).
    YamlMap check = top.map("check");
    ParamReader reader(check);
    sc.check.visit(reader);
    check.finish();
  }
  {
    YamlMap out = top.map("output");
    sc.output.dir = out.text("dir", "out/" + sc.name);
    if (!ov.out_dir.empty()) {
      sc.output.dir = ov.out_dir;
      out.set_out("dir", ov.out_dir);
    }
    sc.output.hpcc_fct = out.flag("hpcc_fct", false);
    out.finish();
  }
  top.finish();
  return sc;
}

std::string resolved_scenario_text(const Scenario& sc) {
  YAML::Emitter em;
  em << sc.resolved;
  return em.c_str();
}

namespace {

// A value that came from --set is the command line's, not the file's: an error or warning about it names it
// as the user typed it (the last --set of a key wins, as when applying them).
ConfigError named_by_set(const ConfigError& e, const ScenarioOverrides& ov) {
  for (auto it = ov.sets.rbegin(); it != ov.sets.rend(); ++it) {
    const std::string& key = it->first;
    if (e.key() == key || e.key().rfind(key + ".", 0) == 0)
      return ConfigError("--set " + key + "=" + it->second, e.key() == key ? "" : e.key(), e.reason());
    // An unknown key on the way to the --set's key (`--set nope.x=1`): the --set made that level.
    if (key.rfind(e.key() + ".", 0) == 0 && e.reason().rfind("unknown key", 0) == 0)
      return ConfigError("--set " + key + "=" + it->second, e.key(), e.reason());
  }
  return e;
}

}  // namespace

Scenario load_scenario(const std::string& path, const ScenarioOverrides& ov) {
  YAML::Node root = load_yaml_file(path);
  if (!root.IsDefined() || root.IsNull()) throw ConfigError(path, "", "empty scenario");
  for (const auto& [k, v] : ov.sets) apply_set(root, k, v);
  try {
    Scenario sc = parse_scenario(root, path, ov);
    for (ConfigError& w : sc.warnings) w = named_by_set(w, ov);
    return sc;
  } catch (const ConfigError& e) {
    throw named_by_set(e, ov);
  }
}

}  // namespace lossless
