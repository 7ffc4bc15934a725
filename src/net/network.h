// The fabric: builds NICs, switches and links from a Topology, owns the packet pool, the per-flow state and
// the counters, and starts the flows. Data flows one way: topology + workload -> this -> stats.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/error.h"
#include "core/simulator.h"
#include "net/config.h"
#include "net/congestion_control.h"
#include "net/net_counters.h"
#include "net/packet.h"
#include "net/packet_layout.h"
#include "net/partition.h"
#include "net/queue_pair.h"
#include "net/rdma_nic.h"
#include "net/switch.h"
#include "topo/routing.h"
#include "topo/topology.h"
#include "workload/flow.h"

namespace lossless {

struct PathInfo {
  std::uint32_t links = 0;
  TimePs one_way_delay_ps = 0;
  TimePs mtu_tx_ps = 0;    // one MTU payload serialized on every link of the path
  double ps_per_byte = 0;  // serialization time of one byte summed over the links of the path
  RateBps bottleneck_bps = 0;
  TimePs base_rtt_ps() const { return 2 * one_way_delay_ps + mtu_tx_ps; }
  // Propagation plus serialization of a `bytes`-byte packet on every link (store and forward, idle path).
  TimePs one_way_ps(Bytes bytes) const {
    return one_way_delay_ps + static_cast<TimePs>(ps_per_byte * static_cast<double>(bytes));
  }
};

class Network {
 public:
  // `partitions` > 1 splits the nodes for a run on that many threads (net/fabric_run.h); it is reduced to 1
  // when a link has no propagation delay (no lookahead) and never exceeds the number of hosts.
  Network(Topology topo, const SwitchConfig& sw, const NicConfig& nic, std::uint64_t seed,
          unsigned partitions = 1);
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  ~Network();

  // Gives every switch its instance of a switch-side scheme, and starts it.
  void install_mechanism(const MechanismFactory& factory);
  // Creates QPs and the congestion control's parts for `flows` (ids must be 0..n-1 in order: senders,
  // receivers, per-NIC and per-switch parts), computes per-flow paths and schedules the starts.
  void install_flows(std::vector<Flow> flows, const CcFactory& cc);

  // The clock of a fabric run on one thread (tests, monitors); a partitioned fabric has one per partition.
  Simulator& sim() {
    LOSSLESS_CHECK(parts_.size() == 1, "Network::sim() on a partitioned fabric");
    return parts_[0]->sim;
  }
  std::size_t partitions() const { return parts_.size(); }
  // The shortest propagation delay of any link: how far apart the partitions' windows are (net/fabric_run.h).
  TimePs lookahead_ps() const { return lookahead_ps_; }
  Partition& partition(std::size_t i) { return *parts_[i]; }
  const Partition& partition(std::size_t i) const { return *parts_[i]; }
  Partition& partition_of(std::uint32_t node) { return *parts_[node_part_[node]]; }
  Simulator& sim_of(std::uint32_t node) { return partition_of(node).sim; }
  // Counters of all partitions together (the PFC log in time order); packets the pools hold.
  NetCounters counters() const;
  void set_log_pfc(bool on);
  std::size_t packets_allocated() const;
  // Fixed state per flow: flow record, sender QP, receiver context, congestion control, hashes, start order
  // and finish time (routes add a few bytes per hop).
  std::size_t flow_state_bytes() const { return flow_state_bytes_; }
  // The time of the last event run (any partition) and the events run.
  TimePs now() const;
  std::uint64_t events_processed() const;
  const SwitchConfig& switch_config() const { return sw_cfg_; }
  // Where the packet slots of the run's schemes live (net/packet_layout.h): parts bind their slots here.
  const PacketLayout& slots() const { return layout_; }
  const NicConfig& nic_config() const { return nic_cfg_; }
  const Topology& topology() const { return topo_; }
  const RoutingTable& routes() const { return routes_; }
  std::uint64_t seed() const { return seed_; }
  RateBps max_host_rate() const { return max_host_rate_; }

  const Flow& flow(std::uint32_t id) const { return flows_[id]; }
  const std::vector<Flow>& flows() const { return flows_; }
  SenderQp& qp(std::uint32_t id) { return qps_[id]; }
  const SenderQp& qp(std::uint32_t id) const { return qps_[id]; }
  ReceiverContext& receiver(std::uint32_t id) { return rx_[id]; }
  const ReceiverContext& receiver(std::uint32_t id) const { return rx_[id]; }
  std::uint32_t forward_hash(std::uint32_t id) const { return fwd_hash_[id]; }
  std::uint32_t reverse_hash(std::uint32_t id) const { return rev_hash_[id]; }
  TimePs finish_ps(std::uint32_t id) const { return finish_ps_[id]; }
  std::uint64_t flows_completed() const;

  RdmaNic& nic(std::uint32_t host) { return *nics_[host]; }
  const RdmaNic& nic(std::uint32_t host) const { return *nics_[host]; }
  Switch& switch_at(std::uint32_t s) { return *switches_[s]; }
  const Switch& switch_at(std::uint32_t s) const { return *switches_[s]; }
  std::size_t switch_count() const { return switches_.size(); }
  // The path a flow's packets take (following ECMP) and its ideal-FCT ingredients.
  // `switch_ports`, when given, receives the egress port taken at each switch.
  // `flow_id` (kNoFlow for a path that belongs to no flow) is what a per-flow router sees in its probe
  // packet.
  PathInfo path(std::uint32_t src, std::uint32_t dst, std::uint32_t hash, std::uint32_t flow_id,
                std::vector<std::uint16_t>* switch_ports = nullptr) const;
  static constexpr std::uint32_t kNoFlow = ~std::uint32_t{0};
  // The node at the other end of `node`'s port `port`.
  std::uint32_t peer_node(std::uint32_t node, std::uint32_t port) const {
    return node_ports_[node].peer[port];
  }
  // A flow's ECMP path as egress ports per switch hop (data direction / reply direction); null when packets
  // are routed per packet (spraying).
  const std::uint16_t* forward_route(std::uint32_t id) const {
    return routes_per_flow_ ? &route_ports_[fwd_route_[id]] : nullptr;
  }
  const std::uint16_t* reverse_route(std::uint32_t id) const {
    return routes_per_flow_ ? &route_ports_[rev_route_[id]] : nullptr;
  }
  TimePs ideal_fct_ps(const Flow& f) const;
  TimePs max_base_rtt_ps() const { return max_base_rtt_ps_; }
  Bytes max_bdp_bytes() const { return max_bdp_bytes_; }

  void flow_completed(SenderQp& qp);
  void finish_accounting();

 private:
  static void flow_start_event(void* target, std::uint64_t flow_id);
  // Appends to route_ports_ the reverse of the data path from `src` to `dst` whose egress ports start at
  // route_ports_[forward]: at each switch, the port the data arrives on.
  void append_mirrored_route(std::uint32_t src, std::uint32_t dst, std::uint32_t forward);
  // What a scheme's part on `host` may know (net/congestion_control.h); the flow's path for a per-flow part,
  // zeros for a per-NIC part. Every CcEnv is built here.
  CcEnv cc_env(std::uint32_t host, TimePs data_one_way_ps, TimePs ack_one_way_ps,
               std::uint32_t path_switches);
  static void schedule_next_start(Partition& part);
  void compute_global_rtt();

  Topology topo_;
  SwitchConfig sw_cfg_;
  NicConfig nic_cfg_;
  std::uint64_t seed_;
  TimePs lookahead_ps_ = 0;
  PacketLayout layout_;  // before the nodes: their schemes hold slots bound to it
  std::vector<std::uint8_t> node_part_;
  std::vector<std::unique_ptr<Partition>> parts_;
  std::vector<NodeClock> node_clocks_;  // order-key clocks: one per node, then the set-up context
  std::vector<NodePorts> node_ports_;
  RoutingTable routes_;
  std::vector<std::unique_ptr<RdmaNic>> nics_;
  std::vector<std::unique_ptr<Switch>> switches_;
  RateBps max_host_rate_ = 0;
  bool routes_per_flow_ = true;  // every switch routes a flow's packets one way (net/routing_policy.h)
  TimePs max_base_rtt_ps_ = 0;
  Bytes max_bdp_bytes_ = 0;

  std::vector<Flow> flows_;
  std::vector<SenderQp> qps_;
  std::vector<ReceiverContext> rx_;
  std::vector<std::unique_ptr<CongestionControl>> ccs_;
  std::vector<std::unique_ptr<ReceiverControl>> receivers_;
  std::vector<std::uint32_t> fwd_hash_, rev_hash_;
  std::vector<std::uint32_t> fwd_route_, rev_route_;  // offsets into route_ports_
  std::vector<std::uint16_t> route_ports_;
  std::vector<std::uint64_t> start_order_;  // reserved event order of each flow's start
  std::vector<TimePs> finish_ps_;
  std::size_t flow_state_bytes_ = 0;
};

}  // namespace lossless
