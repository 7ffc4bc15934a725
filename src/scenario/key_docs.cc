#include "scenario/key_docs.h"

#include <map>

#include "scenario/scenario.h"

namespace lossless {
namespace {

const std::map<std::string, const char*>& docs() {
  static const std::map<std::string, const char*> d = {
      {"switch.buffer", "packet memory per switch"},
      {"switch.shared_buffer", "shared pool; auto = buffer - reserves - headrooms"},
      {"switch.flow_control", "pfc (lossless) | none (lossy: tail drop at the threshold, drops counted)"},
      {"switch.pfc.enabled", "send PFC pauses (only with flow_control: pfc)"},
      {"switch.pfc.threshold",
       "dynamic: pause at alpha x free shared pool | static: pause at xoff, resume below xon"},
      {"switch.pfc.alpha",
       "dynamic-threshold factor for host-speed ports; doubled per doubling of port speed"},
      {"switch.pfc.xoff", "static pause threshold (ingress bytes of a port and priority)"},
      {"switch.pfc.xon", "static resume threshold"},
      {"switch.pfc.headroom", "per-port headroom; auto = 3 x link BDP + 2 maximum packets"},
      {"switch.pfc.reserve", "private bytes per (ingress port, priority)"},
      {"switch.pfc.resume_offset", "dynamic: resume when shared + offset <= threshold"},
      {"switch.pfc.quanta", "pause duration in 512-bit times; refreshed while congested, expires otherwise"},
      {"switch.ecn.enabled", "RED/ECN marking at dequeue on the instantaneous (port, priority) queue"},
      {"switch.ecn.kmin", "per link rate; other rates scale linearly from the nearest entry"},
      {"switch.ecn.kmax", "per link rate; marking is certain above it"},
      {"switch.ecn.pmax", "marking probability at kmax (value or per-rate map)"},
      {"switch.routing", "ecmp (per-switch-seeded 5-tuple hash) | spray (random per packet)"},
      {"switch.mechanism", "switch-side scheme (lossless list mechanisms)"},
      {"switch.params", "parameters of the mechanism"},
      {"nic.mtu", "payload bytes per packet"},
      {"nic.data_header", "header bytes on each data packet"},
      {"nic.ack_size", "wire bytes of an ACK/NACK (plus INT records it echoes)"},
      {"nic.cnp_size", "wire bytes of a CNP"},
      {"nic.pfc_size", "wire bytes of a PFC frame"},
      {"nic.int_hop_size", "wire bytes per INT record (HPCC)"},
      {"nic.ack_interval", "ACK every N data packets (and the last one)"},
      {"nic.cnp_interval",
       "min gap between CNPs of a flow; 0 = the ACK of each marked packet is the CNP; auto = scheme's "
       "choice"},
      {"nic.ack_priority",
       "high (priority 0, never paused) | data (the flow's priority) | data_unpaused (the flow's priority in "
       "switches; the NIC sends them even while that priority is paused: HPCC code ACK_HIGH_PRIO 1)"},
      {"nic.data_priority", "priority of data packets (1-7)"},
      {"nic.nack_interval", "at most one NACK per expected sequence in this interval"},
      {"nic.rto", "go-back-N timeout without ACK progress; 0 = off; auto = off lossless, 1ms lossy"},
  };
  return d;
}

void print_node(const YAML::Node& n, const std::string& path, std::FILE* out) {
  if (n.IsMap()) {
    auto it = docs().find(path);
    bool is_table = it != docs().end();  // per-rate tables print as one line
    if (!is_table) {
      for (auto kv = n.begin(); kv != n.end(); ++kv)
        print_node(kv->second, path + "." + kv->first.Scalar(), out);
      return;
    }
  }
  YAML::Emitter em;
  em << YAML::Flow << n;
  auto it = docs().find(path);
  std::string key = path.substr(path.find('.') + 1);
  std::fprintf(out, "    %-22s %-34s %s\n", key.c_str(), em.c_str(), it == docs().end() ? "" : it->second);
}

}  // namespace

void print_section_keys(const std::string& section, std::FILE* out) {
  YAML::Node root = YAML::Load(
      "topology: {type: star, hosts: 2}\n"
      "workload: [{type: flows, flows: [{src: 0, dst: 1, size: 1KB}]}]\n");
  Scenario sc = parse_scenario(root, "(defaults)", {});
  print_node(sc.resolved[section], section, out);
}

}  // namespace lossless
