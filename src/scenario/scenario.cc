#include "scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/error.h"
#include "core/suggest.h"
#include "core/units.h"
#include "net/flow_control.h"
#include "net/packet_layout.h"
#include "net/routing_policy.h"
#include "net/switch_architecture.h"
#include "net/switch_mechanism.h"
#include "scenario/yaml_map.h"
#include "workload/cdf.h"
#include "workload/generators.h"

namespace lossless {
namespace {

bool is_index(const std::string& s) { return parse_uint(s).has_value(); }

// A plain decimal index below `limit`, or nothing (not a number, too large).
std::optional<std::uint64_t> index_below(const std::string& s, std::uint64_t limit) {
  auto v = parse_uint(s);
  if (!v || *v >= limit) return std::nullopt;
  return v;
}

// A file the scenario names at `key`: a readable path, not a folder.
void check_input_file(const YamlMap& m, const std::string& key, const std::string& path) {
  const std::string where = where_of(m.file(), m.node().IsMap() ? m.node()[key] : YAML::Node());
  check_path_length(path, where, m.key_path(key));
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) m.fail(key, "no such file: " + path);
  if (std::filesystem::is_directory(st)) m.fail(key, path + " is a directory, not a file");
  // A device or pipe (/dev/zero) could be read forever.
  if (!std::filesystem::is_regular_file(st)) m.fail(key, path + " is not a regular file");
}

LinkSpec read_link(YamlMap& parent, const std::string& key, LinkSpec def) {
  YamlMap m = parent.map(key);
  LinkSpec l;
  l.rate_bps = m.rate("rate", def.rate_bps);
  if (l.rate_bps == 0) m.fail("rate", "must be positive");
  l.delay_ps = m.time("delay", def.delay_ps);
  m.finish();
  return l;
}

std::uint32_t read_node_name(const YamlMap& m, const YAML::Node& n, const std::string& key,
                             const Topology& t) {
  if (!n.IsScalar()) m.fail_at(n, key, "node must be h<i>, s<j> or a numeric id");
  std::string s = n.Scalar();
  if (s.size() > 1 && (s[0] == 'h' || s[0] == 's') && is_index(s.substr(1))) {
    if (auto i = index_below(s.substr(1), s[0] == 'h' ? t.hosts : t.switches))
      return s[0] == 'h' ? static_cast<std::uint32_t>(*i) : t.switch_node(static_cast<std::uint32_t>(*i));
    m.fail_at(n, key, "node '" + s + "' does not exist");
  }
  if (auto id = index_below(s, t.nodes())) return static_cast<std::uint32_t>(*id);
  m.fail_at(n, key, "node '" + s + "' is not h<i>, s<j> or a node id below " + std::to_string(t.nodes()));
}

Topology read_topology(YamlMap m, const std::string& scenario_dir) {
  std::string type =
      m.choice("type", "star", {"star", "dumbbell", "leaf_spine", "fat_tree", "hpcc_file", "custom"});
  const LinkSpec host_default{100'000'000'000, kPsPerUs};
  const LinkSpec fabric_default{400'000'000'000, kPsPerUs};
  auto positive = [&](const std::string& key, std::uint64_t def) {
    return static_cast<std::uint32_t>(m.count(key, def, 1, 1'000'000));
  };
  // The size of a built shape is checked (in 64 bits) before anything is built.
  const std::string where = where_of(m.file(), m.node());
  auto size_ok = [&](std::uint64_t hosts, std::uint64_t switches, std::uint64_t links) {
    check_topology_size(hosts, switches, links, where, "topology");
  };
  Topology t;
  if (type == "star") {
    std::uint32_t hosts = positive("hosts", 17);
    size_ok(hosts, 1, hosts);
    t = make_star(hosts, read_link(m, "host_link", host_default));
  } else if (type == "dumbbell") {
    std::uint32_t l = positive("left", 8), r = positive("right", 8);
    size_ok(std::uint64_t{l} + r, 2, std::uint64_t{l} + r + 1);
    t = make_dumbbell(l, r, read_link(m, "host_link", host_default), read_link(m, "core_link", host_default));
  } else if (type == "leaf_spine") {
    std::uint32_t leaves = positive("leaves", 4), spines = positive("spines", 4),
                  hpl = positive("hosts_per_leaf", 16);
    size_ok(std::uint64_t{leaves} * hpl, std::uint64_t{leaves} + spines,
            std::uint64_t{leaves} * hpl + std::uint64_t{leaves} * spines);
    t = make_leaf_spine(leaves, spines, hpl, read_link(m, "host_link", host_default),
                        read_link(m, "fabric_link", fabric_default));
  } else if (type == "fat_tree") {
    LinkSpec hl = read_link(m, "host_link", host_default), fl = read_link(m, "fabric_link", fabric_default);
    if (m.has("k")) {
      std::uint32_t k = static_cast<std::uint32_t>(m.count("k", 4, 2, 128));
      if (k % 2) m.fail("k", "must be even");
      for (const char* key : {"pods", "tors_per_pod", "aggs_per_pod", "cores", "hosts_per_tor"})
        if (m.has(key)) m.fail(key, "give either k or the explicit form, not both");
      const std::uint64_t h = k / 2;
      size_ok(k * h * h, k * h * 2 + h * h, k * h * h * 3);
      t = make_fat_tree_k(k, hl, fl);
    } else {
      std::uint32_t pods = positive("pods", 4), tors = positive("tors_per_pod", 2),
                    aggs = positive("aggs_per_pod", 2), cores = positive("cores", 4),
                    hpt = positive("hosts_per_tor", 2);
      const std::uint64_t all_tors = std::uint64_t{pods} * tors, all_aggs = std::uint64_t{pods} * aggs;
      size_ok(all_tors * hpt, all_tors + all_aggs + cores,
              all_tors * hpt + all_tors * aggs + all_aggs * std::max<std::uint64_t>(1, cores / aggs + 1));
      t = make_fat_tree(pods, tors, aggs, cores, hpt, hl, fl);
    }
  } else if (type == "hpcc_file") {
    std::string path = m.text("path", "");
    if (path.empty()) m.fail("path", "hpcc_file needs a path to the topology file");
    std::filesystem::path p(path);
    if (p.is_relative()) p = std::filesystem::path(scenario_dir) / p;
    check_input_file(m, "path", p.string());
    t = read_hpcc_topology(p.string());
  } else {  // custom
    t.hosts = positive("hosts", 2);
    t.switches = static_cast<std::uint32_t>(m.count("switches", 1, 0, 1'000'000));
    YAML::Node links = m.raw("links");
    if (!links.IsSequence() || links.size() == 0)
      m.fail("links", "custom topology needs a list of [a, b, rate, delay]");
    size_ok(t.hosts, t.switches, links.size());
    t.source = m.file();
    YAML::Node out_links(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < links.size(); ++i) {
      const YAML::Node& l = links[i];
      std::string key = "links." + std::to_string(i);
      if (!l.IsSequence() || l.size() != 4) m.fail_at(l, key, "expected [a, b, rate, delay]");
      TopoLink tl{read_node_name(m, l[0], key, t), read_node_name(m, l[1], key, t), 0, 0};
      auto rate = l[2].IsScalar() ? parse_rate(l[2].Scalar()) : std::nullopt;
      if (!rate || *rate == 0) m.fail_at(l[2], key, "malformed rate (e.g. 100Gbps)");
      auto delay = l[3].IsScalar() ? parse_time(l[3].Scalar()) : std::nullopt;
      if (!delay) m.fail_at(l[3], key, "malformed delay (e.g. 1us)");
      tl.rate_bps = *rate;
      tl.delay_ps = *delay;
      t.links.push_back(tl);
      t.link_line.push_back(static_cast<std::uint32_t>(l.Mark().line + 1));
      YAML::Node o(YAML::NodeType::Sequence);
      o.push_back(t.node_name(tl.a));
      o.push_back(t.node_name(tl.b));
      o.push_back(format_rate(tl.rate_bps));
      o.push_back(format_time(tl.delay_ps));
      out_links.push_back(o);
    }
    m.set_out("links", out_links);
  }
  m.finish();
  check_topology(t, where, "topology");
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
                         std::unique_ptr<MechanismFactory>* mechanism) {
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

std::vector<std::uint32_t> read_host_set(const YamlMap& m, const YAML::Node& n, const std::string& key,
                                         std::uint32_t hosts) {
  std::vector<std::uint32_t> out;
  auto add_item = [&](const YAML::Node& item) {
    if (!item.IsScalar()) m.fail_at(item, key, "expected host ids, ranges like 1-16, or 'all'");
    std::string s = item.Scalar();
    if (s == "all") {
      for (std::uint32_t h = 0; h < hosts; ++h) out.push_back(h);
      return;
    }
    auto dash = s.find('-');
    std::string a = s.substr(0, dash), b = dash == std::string::npos ? a : s.substr(dash + 1);
    auto lo_id = parse_uint(a), hi_id = parse_uint(b);
    if (!lo_id || !hi_id) m.fail_at(item, key, "'" + s + "' is not a host id or range");
    std::uint64_t lo = *lo_id, hi = *hi_id;
    if (lo > hi) m.fail_at(item, key, "range '" + s + "' is empty");
    if (hi >= hosts)
      m.fail_at(item, key,
                "host id " + std::to_string(hi) + " is out of range (hosts are 0-" +
                    std::to_string(hosts - 1) + ")");
    for (std::uint64_t h = lo; h <= hi; ++h) out.push_back(static_cast<std::uint32_t>(h));
  };
  if (n.IsSequence()) {
    for (const auto& item : n) add_item(item);
  } else {
    add_item(n);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

YAML::Node host_set_out(const std::vector<std::uint32_t>& hosts, std::uint32_t total) {
  if (hosts.size() == total) return YAML::Node("all");
  YAML::Node o(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < hosts.size();) {
    std::size_t j = i;
    while (j + 1 < hosts.size() && hosts[j + 1] == hosts[j] + 1) ++j;
    o.push_back(i == j ? std::to_string(hosts[i])
                       : std::to_string(hosts[i]) + "-" + std::to_string(hosts[j]));
    i = j + 1;
  }
  return o;
}

std::uint32_t read_host(YamlMap& m, const std::string& key, std::uint32_t hosts, bool required,
                        std::uint32_t def = 0) {
  if (required && !m.has(key)) m.fail(key, "is required");
  std::uint64_t v = m.count(key, def, 0, ~std::uint64_t{0} >> 1);
  if (v >= hosts)
    m.fail(key, "host id " + std::to_string(v) + " is out of range (hosts are 0-" +
                    std::to_string(hosts - 1) + ")");
  return static_cast<std::uint32_t>(v);
}

// `budget`: how many more flows the run may hold (kMaxFlows less the entries before).
std::vector<Flow> read_workload_entry(YamlMap m, std::uint32_t index, const Topology& topo,
                                      const std::vector<RateBps>& host_rate, std::uint64_t seed,
                                      const std::string& scenario_dir, std::uint8_t default_prio,
                                      std::uint64_t budget) {
  const std::string too_many =
      "flows in the run: at most " + std::to_string(kMaxFlows) + " (README \"Limits\")";
  std::string type = m.choice("type", "poisson", {"poisson", "incast", "flows", "hpcc_flow_file"});
  if (!m.has("type")) m.fail("type", "is required (poisson, incast, flows or hpcc_flow_file)");
  auto prio = [&] { return static_cast<std::uint8_t>(m.count("priority", default_prio, 1, 7)); };
  std::vector<Flow> flows;
  if (type == "poisson") {
    PoissonSpec s;
    std::string cdf_name = m.text("cdf", "WebSearch");
    s.sampling = m.choice("sampling", "linear", {"linear", "step"}) == "linear" ? CdfSampling::kLinear
                                                                                : CdfSampling::kStep;
    s.load = m.real("load", 0.3, -1e300, 1e300);
    if (!(s.load > 0 && s.load <= 1))
      m.fail("load", "must be in (0, 1] (a fraction of each sender's link rate)");
    s.duration_ps = m.time("duration", 10 * kPsPerMs);
    if (s.duration_ps == 0) m.fail("duration", "must be positive");
    s.start_ps = m.time("start", 0);
    s.hosts = m.has("hosts") ? read_host_set(m, m.raw("hosts"), "hosts", topo.hosts)
                             : read_host_set(m, YAML::Node("all"), "hosts", topo.hosts);
    if (s.hosts.size() < 2) m.fail("hosts", "needs at least 2 hosts");
    m.set_out("hosts", host_set_out(s.hosts, topo.hosts));
    m.choice("dst", "uniform", {"uniform"});
    if (m.has("dst_hosts")) {
      s.dst_hosts = read_host_set(m, m.raw("dst_hosts"), "dst_hosts", topo.hosts);
      if (s.dst_hosts.size() == 1 &&
          std::find(s.hosts.begin(), s.hosts.end(), s.dst_hosts[0]) != s.hosts.end())
        m.fail("dst_hosts", "a sender would have no destination but itself");
      m.set_out("dst_hosts", host_set_out(s.dst_hosts, topo.hosts));
    }
    s.priority = prio();
    check_path_length(cdf_name, where_of(m.file(), m.node()["cdf"]), m.key_path("cdf"));
    std::string path = resolve_cdf_path(cdf_name, scenario_dir);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
      m.fail("cdf", "no CDF named '" + cdf_name + "' (looked for " + path + ")");
    if (std::filesystem::is_directory(path, ec)) m.fail("cdf", path + " is a directory, not a CDF file");
    if (!std::filesystem::is_regular_file(path, ec)) m.fail("cdf", path + " is not a regular file");
    SizeCdf cdf = SizeCdf::load(path);
    // The expected number of arrivals, before any is drawn: load x rate x duration / mean size per sender.
    double expected = 0;
    for (std::uint32_t h : s.hosts)
      expected += s.load * static_cast<double>(host_rate[h]) * static_cast<double>(s.duration_ps) /
                  (cdf.mean_bytes(s.sampling) * 8.0 * static_cast<double>(kPsPerSec));
    if (expected > static_cast<double>(budget))
      m.fail("duration", "would start about " + format_double(std::round(expected)) + " " + too_many);
    flows = generate_poisson(s, cdf, host_rate, seed, index, budget);
    if (flows.size() > budget)
      m.fail("duration", "starts more than " + std::to_string(budget) + " " + too_many);
  } else if (type == "incast") {
    IncastSpec s;
    s.receiver = read_host(m, "receiver", topo.hosts, true);
    if (!m.has("senders")) m.fail("senders", "is required (e.g. 1-16)");
    s.senders = read_host_set(m, m.raw("senders"), "senders", topo.hosts);
    m.set_out("senders", host_set_out(s.senders, topo.hosts));
    if (std::find(s.senders.begin(), s.senders.end(), s.receiver) != s.senders.end())
      m.fail("senders", "includes the receiver " + std::to_string(s.receiver) + " (a flow with src == dst)");
    s.size_bytes = m.size("size", 0);
    if (s.size_bytes == 0) m.fail("size", "is required and must be positive");
    s.start_ps = m.time("start", 0);
    s.count = static_cast<std::uint32_t>(m.count("count", 1, 1, 1'000'000));
    s.period_ps = m.time("period", 0);
    if (s.count > 1 && s.period_ps == 0) m.fail("period", "must be positive when count > 1");
    if (static_cast<unsigned __int128>(s.count - 1) * s.period_ps + s.start_ps > kMaxTimePs)
      m.fail("period", "the last round would start after " + format_time(kMaxTimePs));
    if (std::uint64_t{s.count} * s.senders.size() > budget)
      m.fail("count", std::to_string(s.count) + " rounds of " + std::to_string(s.senders.size()) +
                          " senders exceed the " + too_many);
    s.priority = prio();
    flows = generate_incast(s);
    RateBps cap = m.rate("rate", 0);
    for (auto& f : flows) f.max_rate_bps = cap;
  } else if (type == "flows") {
    YAML::Node list = m.raw("flows");
    if (!list.IsSequence() || list.size() == 0) m.fail("flows", "expected a list of {src, dst, size, start}");
    if (list.size() > budget) m.fail("flows", std::to_string(list.size()) + " " + too_many);
    YAML::Node out(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < list.size(); ++i) {
      YAML::Node o(YAML::NodeType::Map);
      YamlMap f(list[i], m.file(), m.key_path("flows." + std::to_string(i)), o);
      Flow fl;
      fl.src = read_host(f, "src", topo.hosts, true);
      fl.dst = read_host(f, "dst", topo.hosts, true);
      if (fl.src == fl.dst)
        f.fail("dst", "equals src (" + std::to_string(fl.src) + "); a flow needs two hosts");
      fl.size_bytes = f.size("size", 0);
      if (fl.size_bytes == 0) f.fail("size", "is required and must be positive");
      fl.start_ps = f.time("start", 0);
      fl.priority = static_cast<std::uint8_t>(f.count("priority", default_prio, 1, 7));
      fl.max_rate_bps = f.rate("rate", 0);
      f.finish();
      flows.push_back(fl);
      out.push_back(o);
    }
    m.set_out("flows", out);
  } else {
    std::string path = m.text("path", "");
    if (path.empty()) m.fail("path", "hpcc_flow_file needs a path");
    std::filesystem::path p(path);
    if (p.is_relative()) p = std::filesystem::path(scenario_dir) / p;
    check_input_file(m, "path", p.string());
    std::unordered_map<std::uint32_t, std::uint32_t> host_of;
    for (std::uint32_t h = 0; h < topo.hosts; ++h) host_of[topo.external(h)] = h;
    flows = read_hpcc_flow_file(p.string(), host_of, budget);
  }
  m.finish();
  return flows;
}

MonitorConfig read_monitor(YamlMap m, const Topology& topo, std::size_t flows) {
  MonitorConfig c;
  {
    bool present = m.has("queues");
    YamlMap q = m.map("queues");
    c.queues = q.flag("enabled", present);
    c.queue_interval_ps = q.time("interval", kPsPerUs);
    if (c.queue_interval_ps == 0) q.fail("interval", "must be positive");
    YAML::Node where = q.raw("where");
    if (!where.IsDefined() || where.IsNull() || (where.IsScalar() && where.Scalar() == "all_switch_ports")) {
      q.set_out("where", "all_switch_ports");
    } else {
      if (!where.IsSequence())
        q.fail("where", "expected all_switch_ports or a list like [\"s0:3\", \"s1:*\"]");
      // Ports of a switch are numbered in the order of its links.
      std::vector<std::uint32_t> ports(topo.switches, 0);
      for (const auto& l : topo.links)
        for (std::uint32_t node : {l.a, l.b})
          if (!topo.is_host(node)) ++ports[node - topo.hosts];
      for (const auto& item : where) {
        std::string s = item.IsScalar() ? item.Scalar() : "";
        auto colon = s.find(':');
        std::string sw = s.substr(0, colon), port = colon == std::string::npos ? "*" : s.substr(colon + 1);
        auto sw_index =
            sw.size() > 1 && sw[0] == 's' ? index_below(sw.substr(1), topo.switches) : std::nullopt;
        if (!sw_index)
          q.fail_at(item, "where", "'" + s + "' does not name a switch port (s<j>:<port> or s<j>:*)");
        std::optional<std::uint64_t> port_index;
        if (port != "*") {
          if (!is_index(port)) q.fail_at(item, "where", "'" + s + "': port must be a number or *");
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
  {
    bool present = m.has("flow_rates");
    YamlMap r = m.map("flow_rates");
    c.flow_rates = r.flag("enabled", present);
    c.flow_rate_interval_ps = r.time("interval", 10 * kPsPerUs);
    if (c.flow_rate_interval_ps == 0) r.fail("interval", "must be positive");
    YAML::Node which = r.raw("flows");
    if (!which.IsDefined() || which.IsNull() || (which.IsScalar() && which.Scalar() == "all")) {
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
  {
    // What `lossless view` draws: every port's queue and pause state and every flow's rate.
    bool present = m.has("fabric");
    YamlMap f = m.map("fabric");
    c.fabric = f.flag("enabled", present);
    c.fabric_interval_ps = f.time("interval", 10 * kPsPerUs);
    if (c.fabric_interval_ps == 0) f.fail("interval", "must be positive");
    f.finish();
  }
  c.pfc = m.flag("pfc", true);
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
  sc.sw = read_switch(top.map("switch"), sc.topology, sc.nic, sc.cc->hints(), &sc.mechanism);
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
      top.fail("workload", "expected a list of workload entries (poisson, incast, flows, hpcc_flow_file)");
    YAML::Node out(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < wl.size(); ++i) {
      YAML::Node o(YAML::NodeType::Map);
      YamlMap entry(wl[i], file, "workload." + std::to_string(i), o);
      auto flows = read_workload_entry(entry, static_cast<std::uint32_t>(i), sc.topology, host_rate, sc.seed,
                                       dir, sc.nic.data_priority, kMaxFlows - sc.flows.size());
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

Scenario load_scenario(const std::string& path, const ScenarioOverrides& ov) {
  YAML::Node root = load_yaml_file(path);
  if (!root.IsDefined() || root.IsNull()) throw ConfigError(path, "", "empty scenario");
  for (const auto& [k, v] : ov.sets) apply_set(root, k, v);
  try {
    return parse_scenario(root, path, ov);
  } catch (const ConfigError& e) {
    // A value that came from --set is the command line's, not the file's: name it as the user typed it (the
    // last --set of a key wins, as when applying them).
    for (auto it = ov.sets.rbegin(); it != ov.sets.rend(); ++it) {
      const std::string& key = it->first;
      if (e.key() == key || e.key().rfind(key + ".", 0) == 0)
        throw ConfigError("--set " + key + "=" + it->second, e.key() == key ? "" : e.key(), e.reason());
    }
    throw;
  }
}

}  // namespace lossless
