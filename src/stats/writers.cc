#include "stats/writers.h"

#include <cinttypes>
#include <cstdio>

#include "net/network.h"
#include "net/pause_kinds.h"
#include "stats/output_file.h"

namespace lossless {
namespace {

// Nanoseconds with up to three decimals, no trailing zeros.
std::string fmt_ns(TimePs ps) {
  char buf[32];
  if (ps % kPsPerNs == 0) {
    std::snprintf(buf, sizeof buf, "%" PRIu64, ps / kPsPerNs);
  } else {
    std::snprintf(buf, sizeof buf, "%" PRIu64 ".%03u", ps / kPsPerNs, static_cast<unsigned>(ps % kPsPerNs));
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    return s;
  }
  return buf;
}

}  // namespace

void write_summary_json(const RunResult& r, const std::string& path) {
  OutputFile f(path);
  f.put(summary_json(r));
  f.close();
}

void write_fct_csv(const Network& net, const std::string& path) {
  OutputFile out(path);
  std::FILE* f = out.f();
  std::fputs("flow_id,src,dst,size_bytes,start_ns,finish_ns,fct_ns,ideal_fct_ns,slowdown\n", f);
  for (const Flow& fl : net.flows()) {
    TimePs fin = net.finish_ps(fl.id);
    TimePs ideal = net.ideal_fct_ps(fl);
    if (fin == kTimeNever) {
      std::fprintf(f, "%u,%u,%u,%" PRIu64 ",%s,,,%s,\n", fl.id, fl.src, fl.dst, fl.size_bytes,
                   fmt_ns(fl.start_ps).c_str(), fmt_ns(ideal).c_str());
    } else {
      TimePs fct = fin - fl.start_ps;
      std::fprintf(f, "%u,%u,%u,%" PRIu64 ",%s,%s,%s,%s,%.6f\n", fl.id, fl.src, fl.dst, fl.size_bytes,
                   fmt_ns(fl.start_ps).c_str(), fmt_ns(fin).c_str(), fmt_ns(fct).c_str(),
                   fmt_ns(ideal).c_str(), static_cast<double>(fct) / static_cast<double>(ideal));
    }
  }
  out.close();
}

void write_pfc_csv(const Topology& t, const std::vector<PfcLogRecord>& log, const std::string& path) {
  OutputFile out(path);
  std::FILE* f = out.f();
  std::fputs("time_ns,node,port,priority,event,quanta,kind\n", f);
  for (const auto& e : log)
    std::fprintf(f, "%s,%s,%u,%u,%s,%u,%s\n", fmt_ns(e.time_ps).c_str(), t.node_name(e.node).c_str(), e.port,
                 e.priority, e.pause ? "pause" : "resume", e.quanta, PauseKinds::name(e.kind).c_str());
  out.close();
}

void write_hpcc_fct(const Network& net, const std::string& path) {
  OutputFile out(path);
  const Topology& t = net.topology();
  for (const Flow& fl : net.flows()) {
    TimePs fin = net.finish_ps(fl.id);
    if (fin == kTimeNever) continue;
    std::uint32_t s = t.external(fl.src);
    std::uint32_t d = t.external(fl.dst);
    std::fprintf(out.f(), "%08x %08x %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                 hpcc_node_ip(s), hpcc_node_ip(d), fl.sport, fl.dport, fl.size_bytes, fl.start_ps / kPsPerNs,
                 (fin - fl.start_ps) / kPsPerNs, net.ideal_fct_ps(fl) / kPsPerNs);
  }
  out.close();
}

void write_hpcc_pfc(const Topology& t, const std::vector<PfcLogRecord>& log, const std::string& path) {
  OutputFile out(path);
  for (const auto& e : log) {
    std::uint32_t id = t.external(e.node);
    // node_type 0 host, 1 switch; if_index as ns-3 numbers devices (port + 1); type 1 pause, 0 resume.
    std::fprintf(out.f(), "%" PRIu64 " %u %u %u %u\n", e.time_ps / kPsPerNs, id, t.is_host(e.node) ? 0u : 1u,
                 e.port + 1u, e.pause ? 1u : 0u);
  }
  out.close();
}

bool write_mechanism_trace(const Network& net, const std::string& path) {
  const char* header = net.mechanism_trace_header();
  if (!header) return false;
  OutputFile out(path);
  out.put(header);
  net.write_mechanism_traces(out.f());
  out.close();
  return true;
}

bool write_cc_trace(const Network& net, const CcFactory& cc, const std::string& path) {
  const char* header = cc.trace_header();
  if (!header) return false;
  OutputFile out(path);
  out.put(header);
  for (const Flow& fl : net.flows()) {
    std::fprintf(out.f(), "%u", fl.id);
    cc.write_trace_row(out.f(), *net.qp(fl.id).cc, *net.receiver(fl.id).control);
  }
  out.close();
  return true;
}

void write_text(const std::string& path, const std::string& text) {
  OutputFile f(path);
  f.put(text);
  f.close();
}

}  // namespace lossless
