#include "net/config.h"

#include "core/error.h"
#include "core/params.h"
#include "net/flow_control.h"
#include "net/packet_layout.h"
#include "net/routing_policy.h"
#include "net/switch_architecture.h"
#include "net/switch_mechanism.h"
#include "topo/topology.h"

namespace lossless {
namespace {

// A registered scheme with its default parameters, for a configuration that names one without a factory.
template <class Registry, class Factory>
std::shared_ptr<const Factory> default_scheme(const std::string& name, const char* key) {
  const auto* entry = Registry::find(name);
  if (!entry) throw ConfigError("", key, "no scheme named '" + name + "'");
  DefaultParams none;
  return std::shared_ptr<const Factory>(entry->make(none));
}

}  // namespace

MostHeadroomNeeded most_headroom_needed(const Topology& topo, const NicConfig& nic) {
  MostHeadroomNeeded most;
  std::vector<std::uint32_t> ports(topo.switches, 0);  // each switch's ports so far
  for (const TopoLink& l : topo.links)
    for (std::uint32_t node : {l.a, l.b}) {
      if (topo.is_host(node)) continue;
      const std::uint32_t port = ports[node - topo.hosts]++;
      const Bytes need = pfc_headroom_needed_bytes(l.rate_bps, l.delay_ps, nic);
      // A node's ports come in order: of equal needs, only a lower switch replaces the one kept.
      if (!most.link || need > most.bytes || (need == most.bytes && node < most.node))
        most = {need, node, port, &l};
    }
  return most;
}

std::vector<std::string> flow_control_names() { return FlowControlRegistry::names(); }
std::vector<std::string> routing_names() { return RoutingRegistry::names(); }
std::vector<std::string> architecture_names() { return ArchitectureRegistry::names(); }
std::vector<std::string> marking_names() {
  std::vector<std::string> n{"red"};
  for (const auto& m : MarkingRegistry::names()) n.push_back(m);
  return n;
}

std::shared_ptr<const MarkingFactory> make_marking_scheme(const std::string& name, ParamSource& params) {
  const MarkingScheme* entry = MarkingRegistry::find(name);
  if (!entry) throw ConfigError("", "switch.ecn.marking", "no marking scheme named '" + name + "'");
  return std::shared_ptr<const MarkingFactory>(entry->make(params));
}

Bytes SwitchConfig::static_xoff(RateBps rate_bps) const {
  if (xoff_by_rate.empty()) return xoff_bytes;
  return static_cast<Bytes>(per_rate_value(xoff_by_rate, rate_bps, false));
}

Bytes SwitchConfig::static_xon(RateBps rate_bps) const {
  if (!xon_by_rate.empty()) return static_cast<Bytes>(per_rate_value(xon_by_rate, rate_bps, false));
  if (xoff_by_rate.empty()) return xon_bytes;
  const Bytes xoff = static_xoff(rate_bps), gap = xoff_bytes - xon_bytes;
  return xoff > gap ? xoff - gap : 0;
}

std::string SwitchConfig::flow_control_policy() const {
  return flow_control == "pfc" && !pfc_enabled ? "none" : flow_control;
}

bool SwitchConfig::lossless() const {
  LOSSLESS_CHECK(flow_control_factory, "the flow-control policy is not resolved");
  return flow_control_factory->lossless();
}

void resolve_switch_schemes(SwitchConfig& c) {
  if (!c.flow_control_factory)
    c.flow_control_factory = default_scheme<FlowControlRegistry, FlowControlFactory>(c.flow_control_policy(),
                                                                                     "switch.flow_control");
  if (!c.routing_factory)
    c.routing_factory = default_scheme<RoutingRegistry, RoutingFactory>(c.routing, "switch.routing");
  if (!c.architecture_factory)
    c.architecture_factory =
        default_scheme<ArchitectureRegistry, ArchitectureFactory>(c.architecture, "switch.architecture");
  if (!c.marking_factory && c.ecn_marking != "red")
    c.marking_factory = default_scheme<MarkingRegistry, MarkingFactory>(c.ecn_marking, "switch.ecn.marking");
}

void lay_out_switch_slots(PacketLayout& layout, const SwitchConfig& c) {
  layout.add("switch.flow_control", *c.flow_control_factory);
  layout.add("switch.routing", *c.routing_factory);
  layout.add("switch.architecture", *c.architecture_factory);
  if (c.marking_factory) layout.add("switch.ecn.marking", *c.marking_factory);
}

}  // namespace lossless
