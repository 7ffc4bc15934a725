// The topology types (topology.type): each one entry with its parameter spec and its builder.
#include <algorithm>
#include <filesystem>

#include "core/units.h"
#include "scenario/part_types.h"

namespace lossless {
namespace {

const LinkSpec kHostLink{100'000'000'000, kPsPerUs};
const LinkSpec kFabricLink{400'000'000'000, kPsPerUs};
constexpr std::uint64_t kMaxCount = 1'000'000;

// A link section {rate, delay}.
template <class V>
void visit_link(V& v, const char* name, LinkSpec& l, const char* doc) {
  v.section(name, doc, [&](auto& s) {
    s.rate("rate", l.rate_bps, "link rate", kPositive);
    s.time("delay", l.delay_ps, "propagation delay");
  });
}

// The size of a built shape is checked (in 64 bits) before anything is built.
void size_ok(const YamlMap& m, std::uint64_t hosts, std::uint64_t switches, std::uint64_t links) {
  check_topology_size(hosts, switches, links, where_of(m.file(), m.node()), "topology");
}

std::uint32_t u32(std::uint64_t v) { return static_cast<std::uint32_t>(v); }

struct Star {
  std::uint64_t hosts = 17;
  LinkSpec host_link = kHostLink;
  template <class V>
  void visit(V& v) {
    v.count("hosts", hosts, "hosts, each on its own port of the one switch", 1, kMaxCount);
    visit_link(v, "host_link", host_link, "every host's link");
  }
  Topology build(YamlMap& m) const {
    size_ok(m, hosts, 1, hosts);
    return make_star(u32(hosts), host_link);
  }
};

struct Dumbbell {
  std::uint64_t left = 8, right = 8;
  LinkSpec core_link = kHostLink, host_link = kHostLink;
  template <class V>
  void visit(V& v) {
    v.count("left", left, "hosts on switch s0", 1, kMaxCount);
    v.count("right", right, "hosts on switch s1", 1, kMaxCount);
    visit_link(v, "core_link", core_link, "the link s0-s1");
    visit_link(v, "host_link", host_link, "every host's link");
  }
  Topology build(YamlMap& m) const {
    size_ok(m, left + right, 2, left + right + 1);
    return make_dumbbell(u32(left), u32(right), host_link, core_link);
  }
};

struct LeafSpine {
  std::uint64_t leaves = 4, spines = 4, hosts_per_leaf = 16;
  LinkSpec fabric_link = kFabricLink, host_link = kHostLink;
  template <class V>
  void visit(V& v) {
    v.count("leaves", leaves, "leaf switches", 1, kMaxCount);
    v.count("spines", spines, "spine switches, each linked to every leaf", 1, kMaxCount);
    v.count("hosts_per_leaf", hosts_per_leaf, "hosts under each leaf", 1, kMaxCount);
    visit_link(v, "fabric_link", fabric_link, "every leaf-spine link");
    visit_link(v, "host_link", host_link, "every host's link");
  }
  Topology build(YamlMap& m) const {
    size_ok(m, leaves * hosts_per_leaf, leaves + spines, leaves * hosts_per_leaf + leaves * spines);
    return make_leaf_spine(u32(leaves), u32(spines), u32(hosts_per_leaf), host_link, fabric_link);
  }
};

struct FatTree {
  LinkSpec host_link = kHostLink, fabric_link = kFabricLink;
  bool k_form = false;
  std::uint64_t k = 4;
  std::uint64_t pods = 4, tors_per_pod = 2, aggs_per_pod = 2, cores = 4, hosts_per_tor = 2;
  template <class V>
  void visit(V& v) {
    visit_link(v, "host_link", host_link, "every host's link");
    visit_link(v, "fabric_link", fabric_link, "every switch-switch link");
    v.one_of(
        "k",
        [&] {
          k_form = true;
          v.count("k", k,
                  "k-ary fat tree (even): k pods of k/2 ToRs and k/2 aggs, (k/2)^2 cores, k/2 hosts per ToR; "
                  "without k, the explicit form below",
                  2, 128);
        },
        [&] {
          v.count("pods", pods, "pods (explicit form)", 1, kMaxCount);
          v.count("tors_per_pod", tors_per_pod, "ToRs per pod, each linked to every agg of its pod", 1,
                  kMaxCount);
          v.count("aggs_per_pod", aggs_per_pod,
                  "aggs per pod; agg j of a pod links to cores [j*c/a, (j+1)*c/a)", 1, kMaxCount);
          v.count("cores", cores, "core switches", 1, kMaxCount);
          v.count("hosts_per_tor", hosts_per_tor, "hosts under each ToR", 1, kMaxCount);
        });
  }
  Topology build(YamlMap& m) const {
    if (k_form) {
      if (k % 2) m.fail("k", "must be even");
      for (const char* key : {"pods", "tors_per_pod", "aggs_per_pod", "cores", "hosts_per_tor"})
        if (m.has(key)) m.fail(key, "give either k or the explicit form, not both");
      const std::uint64_t h = k / 2;
      size_ok(m, k * h * h, k * h * 2 + h * h, k * h * h * 3);
      return make_fat_tree_k(u32(k), host_link, fabric_link);
    }
    const std::uint64_t all_tors = pods * tors_per_pod, all_aggs = pods * aggs_per_pod;
    size_ok(m, all_tors * hosts_per_tor, all_tors + all_aggs + cores,
            all_tors * hosts_per_tor + all_tors * aggs_per_pod +
                all_aggs * std::max<std::uint64_t>(1, cores / aggs_per_pod + 1));
    return make_fat_tree(u32(pods), u32(tors_per_pod), u32(aggs_per_pod), u32(cores), u32(hosts_per_tor),
                         host_link, fabric_link);
  }
};

struct HpccFile {
  std::string path;
  template <class V>
  void visit(V& v) {
    v.text("path", path,
           "HPCC-simulator topology file (\"N S L\", the switch ids, then \"a b rate delay error\" lines); "
           "relative to the scenario's folder, resolved as an absolute path (required)");
  }
  Topology build(YamlMap& m, const std::string& scenario_dir) const {
    const std::filesystem::path p =
        read_input_file(m, "path", path, scenario_dir, "hpcc_file needs a path to the topology file");
    return read_hpcc_topology(p.string());
  }
};

struct Custom {
  std::uint64_t hosts = 2, switches = 1;
  YAML::Node links;
  template <class V>
  void visit(V& v) {
    v.count("hosts", hosts, "hosts h0..h<hosts-1>", 1, kMaxCount);
    v.count("switches", switches, "switches s0..s<switches-1>", 0, kMaxCount);
    v.node("links", links, "(required)",
           "the links: a list of [a, b, rate, delay], a and b as h<i>, s<j> or a node id, e.g. "
           "[h0, s0, 100Gbps, 1us]");
  }
  Topology build(YamlMap& m) const {
    Topology t;
    t.hosts = u32(hosts);
    t.switches = u32(switches);
    if (!links.IsSequence() || links.size() == 0)
      m.fail("links", "custom topology needs a list of [a, b, rate, delay]");
    size_ok(m, t.hosts, t.switches, links.size());
    t.source = m.file();
    YAML::Node out_links(YAML::NodeType::Sequence);
    for (std::size_t i = 0; i < links.size(); ++i) {
      const YAML::Node& l = links[i];
      std::string key = "links." + std::to_string(i);
      if (!l.IsSequence() || l.size() != 4) m.fail_at(l, key, "expected [a, b, rate, delay]");
      TopoLink tl{read_node_name(m, l[0], key, t), read_node_name(m, l[1], key, t), 0, 0};
      // (0: malformed; a rate of 0 is refused as malformed too)
      tl.rate_bps = l[2].IsScalar() ? parse_rate(l[2].Scalar()).value_or(0) : 0;
      if (tl.rate_bps == 0) m.fail_at(l[2], key, "malformed rate (e.g. 100Gbps)");
      const std::optional<TimePs> delay = l[3].IsScalar() ? parse_time(l[3].Scalar()) : std::nullopt;
      if (!delay) m.fail_at(l[3], key, "malformed delay (e.g. 1us)");
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
    return t;
  }
};

// The entry of spec `P`: read through the spec, then built.
template <class P>
TopologyType entry(const char* name, const char* summary) {
  TopologyType e;
  e.name = name;
  e.summary = summary;
  e.build = [](YamlMap& m, const std::string& scenario_dir) {
    P p{};
    PartReader reader(m);
    p.visit(reader);
    if constexpr (requires { p.build(m, scenario_dir); })
      return p.build(m, scenario_dir);
    else
      return p.build(m);
  };
  e.print = print_spec<P>;
  return e;
}

}  // namespace

const std::vector<TopologyType>& topology_types() {
  static const std::vector<TopologyType> types{
      entry<Star>("star", "hosts on one switch"),
      entry<Dumbbell>("dumbbell", "two switches joined by one link, hosts on each"),
      entry<LeafSpine>("leaf_spine", "two tiers: hosts under leaves, every leaf linked to every spine"),
      entry<FatTree>("fat_tree", "three-tier Clos (ToR, agg, core): k-ary, or the explicit form"),
      entry<HpccFile>("hpcc_file", "a topology file of the HPCC simulator"),
      entry<Custom>("custom", "any graph: hosts, switches and a list of links"),
  };
  return types;
}

std::optional<std::uint64_t> index_below(const std::string& s, std::uint64_t limit) {
  auto v = parse_uint(s);
  if (!v || *v >= limit) return std::nullopt;
  return v;
}

std::string resolved_input_path(const std::filesystem::path& p) {
  std::error_code ec;
  const std::filesystem::path abs = std::filesystem::absolute(p, ec);
  return (ec ? p : abs).lexically_normal().string();
}

std::filesystem::path read_input_file(YamlMap& m, const std::string& key, const std::string& path,
                                      const std::string& scenario_dir, const std::string& missing) {
  if (path.empty()) m.fail(key, missing);
  std::filesystem::path p(path);
  if (p.is_relative()) p = std::filesystem::path(scenario_dir) / p;
  check_input_file(m, key, p.string());
  // Resolved as the absolute path it was found at: the resolved scenario.yaml, written elsewhere, re-runs.
  m.set_out(key, resolved_input_path(p));
  return p;
}

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

std::uint32_t read_node_name(const YamlMap& m, const YAML::Node& n, const std::string& key,
                             const Topology& t) {
  if (!n.IsScalar()) m.fail_at(n, key, "node must be h<i>, s<j> or a numeric id");
  std::string s = n.Scalar();
  if (s.size() > 1 && (s[0] == 'h' || s[0] == 's') && parse_uint(s.substr(1))) {
    if (auto i = index_below(s.substr(1), s[0] == 'h' ? t.hosts : t.switches))
      return s[0] == 'h' ? static_cast<std::uint32_t>(*i) : t.switch_node(static_cast<std::uint32_t>(*i));
    m.fail_at(n, key, "node '" + s + "' does not exist");
  }
  if (auto id = index_below(s, t.nodes())) return static_cast<std::uint32_t>(*id);
  m.fail_at(n, key, "node '" + s + "' is not h<i>, s<j> or a node id below " + std::to_string(t.nodes()));
}

}  // namespace lossless
