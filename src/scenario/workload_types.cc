// The workload types (workload list entries by type): each one entry with its parameter spec and its
// generator.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unordered_map>

#include "core/units.h"
#include "net/config.h"
#include "scenario/part_types.h"
#include "workload/cdf.h"
#include "workload/generators.h"

namespace lossless {
namespace {

const std::uint8_t kDataPriority = NicConfig{}.data_priority;
const char* const kPriorityDoc = "priority of its packets (default: nic.data_priority)";

// `once`: why a host named twice (`[1, 2, 2]`, `[1-3, 2]`) is an error naming it; null: merged into one.
std::vector<std::uint32_t> read_host_set(const YamlMap& m, const YAML::Node& n, const std::string& key,
                                         std::uint32_t hosts, const char* once) {
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
  std::vector<YAML::Node> items;
  std::vector<std::pair<std::uint32_t, std::size_t>> named;  // (host, the item naming it), with `once`
  auto add = [&](const YAML::Node& item) {
    const std::size_t first = out.size();
    add_item(item);
    if (once)
      for (std::size_t i = first; i < out.size(); ++i) named.emplace_back(out[i], items.size());
    items.push_back(item);
  };
  if (n.IsSequence()) {
    for (const auto& item : n) add(item);
  } else {
    add(n);
  }
  // The first host named twice, at the later of its items.
  std::stable_sort(named.begin(), named.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 1; i < named.size(); ++i)
    if (named[i].first == named[i - 1].first) {
      const std::string a = items[named[i - 1].second].Scalar(), b = items[named[i].second].Scalar();
      m.fail_at(items[named[i].second], key,
                "host " + std::to_string(named[i].first) + " is named twice" +
                    (a == b ? "" : " (in '" + a + "' and '" + b + "')") + ": " + once + "; name each once");
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

std::string too_many() {
  return "flows in the run: at most " + std::to_string(kMaxFlows) + " (README \"Limits\")";
}

struct Poisson {
  std::string cdf = "WebSearch";
  std::string sampling = "linear";
  double load = 0.3;
  TimePs duration = 10 * kPsPerMs;
  TimePs start = 0;
  std::vector<std::uint32_t> hosts, dst_hosts;
  std::string dst = "uniform";
  std::uint64_t priority = kDataPriority;
  template <class V>
  void visit(V& v) {
    v.text("cdf", cdf,
           "flow size CDF: a name in data/cdf (WebSearch, FB_Hadoop, ...) or a file path (relative to the "
           "scenario's folder, else to the working folder; resolved as an absolute path)");
    v.choice("sampling", sampling, {"linear", "step"}, "how sizes are drawn between the CDF's points");
    v.real_checked("load", load, "offered load per sender, a fraction of its link rate in (0, 1]");
    v.require(load > 0 && load <= 1, "load", "must be in (0, 1] (a fraction of each sender's link rate)");
    v.time("duration", duration, "how long flows arrive", kPositive);
    v.time("start", start, "when arrivals begin");
    v.hosts("hosts", hosts, "all",
            "the senders, and the destinations they pick from when dst_hosts is not given (then at least 2; "
            "a single sender needs dst_hosts)");
    v.choice("dst", dst, {"uniform"}, "how a sender picks a destination");
    v.hosts("dst_hosts", dst_hosts, "(none)", "the destinations instead of the senders' set");
    // A single sender is a workload when it has destinations of its own (dst_hosts); what cannot be is a
    // sender whose only destination is itself.
    v.require(!hosts.empty(), "hosts", "names no host");
    v.require(!dst_hosts.empty() || hosts.size() >= 2, "hosts",
              "needs at least 2 hosts (each sends to the others), or dst_hosts naming the destinations");
    v.require(dst_hosts.size() != 1 || std::find(hosts.begin(), hosts.end(), dst_hosts[0]) == hosts.end(),
              "dst_hosts", "a sender would have no destination but itself");
    v.count("priority", priority, kPriorityDoc, 1, 7);
  }
};

std::vector<Flow> generate_poisson_entry(YamlMap& m, const WorkloadContext& ctx) {
  Poisson p;
  p.priority = ctx.default_priority;
  PartReader reader(m, &ctx.topo);
  p.visit(reader);
  PoissonSpec s;
  s.sampling = p.sampling == "linear" ? CdfSampling::kLinear : CdfSampling::kStep;
  s.load = p.load;
  s.duration_ps = p.duration;
  s.start_ps = p.start;
  s.hosts = p.hosts;
  s.dst_hosts = p.dst_hosts;
  s.priority = static_cast<std::uint8_t>(p.priority);
  check_path_length(p.cdf, where_of(m.file(), m.node()["cdf"]), m.key_path("cdf"));
  std::string path = resolve_cdf_path(p.cdf, ctx.scenario_dir);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    m.fail("cdf", "no CDF named '" + p.cdf + "' (looked for " + path + ") and no file of that name" +
                      (ctx.scenario_dir.empty() ? "" : " in " + ctx.scenario_dir + " or") +
                      " in the working folder");
  if (std::filesystem::is_directory(path, ec)) m.fail("cdf", path + " is a directory, not a CDF file");
  if (!std::filesystem::is_regular_file(path, ec)) m.fail("cdf", path + " is not a regular file");
  // A CDF given as a path is resolved as the absolute path it was found at (a name stays a name).
  if (named_cdf_path(p.cdf) != path) m.set_out("cdf", resolved_input_path(path));
  SizeCdf cdf = SizeCdf::load(path);
  // The expected number of arrivals, before any is drawn: load x rate x duration / mean size per sender.
  double expected = 0;
  for (std::uint32_t h : s.hosts)
    expected += s.load * static_cast<double>(ctx.host_rate[h]) * static_cast<double>(s.duration_ps) /
                (cdf.mean_bytes(s.sampling) * 8.0 * static_cast<double>(kPsPerSec));
  if (expected > static_cast<double>(ctx.budget))
    m.fail("duration", "would start about " + format_double(std::round(expected)) + " " + too_many());
  std::vector<Flow> flows = generate_poisson(s, cdf, ctx.host_rate, ctx.seed, ctx.index, ctx.budget);
  if (flows.size() > ctx.budget)
    m.fail("duration", "starts more than " + std::to_string(ctx.budget) + " " + too_many());
  return flows;
}

struct Incast {
  std::uint64_t receiver = 0;
  std::vector<std::uint32_t> senders;
  Bytes size = 0;
  TimePs start = 0;
  std::uint64_t count = 1;
  TimePs period = 0;
  std::uint64_t priority = kDataPriority;
  RateBps rate = 0;
  std::uint64_t budget = kMaxFlows;  // not a key: how many more flows the run may hold
  template <class V>
  void visit(V& v) {
    v.host("receiver", receiver, true, "the host every sender sends to");
    v.hosts("senders", senders, "(required)", "the senders (not the receiver), each named once",
            "an incast sends one flow per sender and round, so a host named twice would still send one");
    v.require(std::find(senders.begin(), senders.end(), receiver) == senders.end(), "senders",
              "includes the receiver " + std::to_string(receiver) + " (a flow with src == dst)");
    v.size("size", size, "bytes each sender sends per round (required)");
    v.require(size > 0, "size", "is required and must be positive");
    v.time("start", start, "when the first round starts");
    v.count("count", count, "rounds", 1, 1'000'000);
    v.time("period", period, "time between the rounds' starts (needed when count > 1)");
    v.require(count <= 1 || period > 0, "period", "must be positive when count > 1");
    v.require(static_cast<unsigned __int128>(count - 1) * period + start <= kMaxTimePs, "period",
              "the last round would start after " + format_time(kMaxTimePs));
    v.require(count * senders.size() <= budget, "count",
              std::to_string(count) + " rounds of " + std::to_string(senders.size()) +
                  " senders exceed the " + too_many());
    v.count("priority", priority, kPriorityDoc, 1, 7);
    v.rate("rate", rate, "the most each flow sends at (0: no cap)");
  }
};

std::vector<Flow> generate_incast_entry(YamlMap& m, const WorkloadContext& ctx) {
  Incast p;
  p.priority = ctx.default_priority;
  p.budget = ctx.budget;
  PartReader reader(m, &ctx.topo);
  p.visit(reader);
  IncastSpec s;
  s.receiver = static_cast<std::uint32_t>(p.receiver);
  s.senders = p.senders;
  s.size_bytes = p.size;
  s.start_ps = p.start;
  s.count = static_cast<std::uint32_t>(p.count);
  s.period_ps = p.period;
  s.priority = static_cast<std::uint8_t>(p.priority);
  std::vector<Flow> flows = generate_incast(s);
  for (auto& f : flows) f.max_rate_bps = p.rate;
  return flows;
}

// One flow of a `flows` entry.
struct OneFlow {
  std::uint64_t src = 0, dst = 0;
  Bytes size = 0;
  TimePs start = 0;
  std::uint64_t priority = kDataPriority;
  RateBps rate = 0;
  template <class V>
  void visit(V& v) {
    v.host("src", src, true, "sending host");
    v.host("dst", dst, true, "receiving host");
    v.require(src != dst, "dst", "equals src (" + std::to_string(src) + "); a flow needs two hosts");
    v.size("size", size, "bytes (required)");
    v.require(size > 0, "size", "is required and must be positive");
    v.time("start", start, "when it starts");
    v.count("priority", priority, kPriorityDoc, 1, 7);
    v.rate("rate", rate, "the most it sends at (0: no cap)");
  }
};

struct Flows {
  YAML::Node flows;
  template <class V>
  void visit(V& v) {
    v.node("flows", flows, "(required)", "the flows: a list of {src, dst, size, start, priority, rate}");
    v.items("flows", "each flow", [](auto& item) { print_spec<OneFlow>(item); });
  }
};

std::vector<Flow> generate_flows_entry(YamlMap& m, const WorkloadContext& ctx) {
  Flows p;
  PartReader reader(m, &ctx.topo);
  p.visit(reader);
  const YAML::Node& list = p.flows;
  if (!list.IsSequence() || list.size() == 0) m.fail("flows", "expected a list of {src, dst, size, start}");
  if (list.size() > ctx.budget) m.fail("flows", std::to_string(list.size()) + " " + too_many());
  std::vector<Flow> flows;
  YAML::Node out(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < list.size(); ++i) {
    YAML::Node o(YAML::NodeType::Map);
    YamlMap f(list[i], m.file(), m.key_path("flows." + std::to_string(i)), o);
    OneFlow one;
    one.priority = ctx.default_priority;
    PartReader item(f, &ctx.topo);
    one.visit(item);
    f.finish();
    Flow fl;
    fl.src = static_cast<std::uint32_t>(one.src);
    fl.dst = static_cast<std::uint32_t>(one.dst);
    fl.size_bytes = one.size;
    fl.start_ps = one.start;
    fl.priority = static_cast<std::uint8_t>(one.priority);
    fl.max_rate_bps = one.rate;
    flows.push_back(fl);
    out.push_back(o);
  }
  m.set_out("flows", out);
  return flows;
}

struct HpccFlowFile {
  std::string path;
  template <class V>
  void visit(V& v) {
    v.text("path", path,
           "HPCC-simulator flow file (a count line, then 'src dst pg dport size start_s' per flow); relative "
           "to the scenario's folder, resolved as an absolute path (required)");
  }
};

std::vector<Flow> generate_hpcc_flow_file_entry(YamlMap& m, const WorkloadContext& ctx) {
  HpccFlowFile p;
  PartReader reader(m, &ctx.topo);
  p.visit(reader);
  const std::filesystem::path path =
      read_input_file(m, "path", p.path, ctx.scenario_dir, "hpcc_flow_file needs a path");
  std::unordered_map<std::uint32_t, std::uint32_t> host_of;
  for (std::uint32_t h = 0; h < ctx.topo.hosts; ++h) host_of[ctx.topo.external(h)] = h;
  return read_hpcc_flow_file(path.string(), host_of, ctx.budget);
}

template <class P>
WorkloadType entry(const char* name, const char* summary,
                   std::vector<Flow> (*generate)(YamlMap&, const WorkloadContext&)) {
  return WorkloadType{name, summary, generate, print_spec<P>};
}

}  // namespace

const std::vector<WorkloadType>& workload_types() {
  static const std::vector<WorkloadType> types{
      entry<Poisson>("poisson",
                     "Poisson arrivals per sender, sizes from a CDF, at a load of each sender's link",
                     generate_poisson_entry),
      entry<Incast>("incast", "senders each send one flow to a receiver at once, in rounds",
                    generate_incast_entry),
      entry<Flows>("flows", "flows listed one by one", generate_flows_entry),
      entry<HpccFlowFile>("hpcc_flow_file", "a flow file of the HPCC simulator",
                          generate_hpcc_flow_file_entry),
  };
  return types;
}

void PartReader::hosts(const char* n, std::vector<std::uint32_t>& v, const char* def, const char*,
                       const char* once) {
  const std::string d = def;
  if (!m_.has(n)) {
    if (d == "(required)") m_.fail(n, "is required (e.g. 1-16)");
    if (d != "all") return;
  }
  const std::uint32_t total = topo_->hosts;
  v = read_host_set(m_, m_.has(n) ? m_.raw(n) : YAML::Node("all"), n, total, once);
  m_.set_out(n, host_set_out(v, total));
}

void PartReader::host(const char* n, std::uint64_t& v, bool required, const char*) {
  if (required && !m_.has(n)) m_.fail(n, "is required");
  v = m_.count(n, v, 0, ~std::uint64_t{0} >> 1);
  if (v >= topo_->hosts)
    m_.fail(n, "host id " + std::to_string(v) + " is out of range (hosts are 0-" +
                   std::to_string(topo_->hosts - 1) + ")");
}

}  // namespace lossless
