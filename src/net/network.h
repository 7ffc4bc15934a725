// The fabric: builds NICs, switches and links from a Topology, owns the packet pool, the per-flow state and
// the counters, and starts the flows. Data flows one way: topology + workload -> this -> stats.
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rank_link.h"
#include "core/simulator.h"
#include "net/config.h"
#include "net/congestion_control.h"
#include "net/net_counters.h"
#include "net/node_arena.h"
#include "net/packet.h"
#include "net/packet_layout.h"
#include "net/partition.h"
#include "net/pause_kinds.h"
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
  //
  // With a `link` of several ranks (processes, core/rank_link.h) the fabric is split into ranks x partitions
  // parts, and this process builds only its rank's: the NICs, switches (ports, buffers, schemes), queue
  // pairs, congestion-control and receiver state of its own nodes and flows. What every rank keeps of the
  // whole fabric: the topology, the ports' peer table, routing's forwarding table (topo/routing.h), one
  // order-key clock per node, the flows (Flow records, hashes, routes, start orders, finish times, ideal
  // FCTs), and for each switch of another rank its router when it routes per flow (to compute every flow's
  // path), and a stand-in port for each port of another rank at the end of one of its links. The ranks of one
  // run must then call, in this order and all of them: agree_on_global_rtt, install_mechanism, install_flows,
  // check_ranks_agree, run (net/fabric_run.h) and combine_ranks. A zero-delay link (no lookahead) cannot
  // be split over ranks (the caller runs such fabrics on one rank).
  Network(Topology topo, const SwitchConfig& sw, const NicConfig& nic, std::uint64_t seed,
          unsigned partitions = 1, RankLink* link = nullptr);
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
    LOSSLESS_CHECK(partitions_.size() == 1, "Network::sim() on a partitioned fabric");
    return partitions_[0]->sim;
  }
  // This process's partitions (all of them in a run on one process).
  std::size_t partitions() const { return partitions_.size(); }
  // Ranks (processes) of the run, this one's, and its link to the others (null in a run on one process).
  int ranks() const { return ranks_; }
  int rank() const { return rank_; }
  RankLink* link() const { return link_; }
  // All partitions of all ranks; those of rank r are [r x partitions(), (r + 1) x partitions()).
  std::uint32_t global_partitions() const { return global_partitions_; }
  int rank_of_partition(std::uint32_t global_partition) const {
    return static_cast<int>(global_partition / partitions_.size());
  }
  // Whether this process builds (and runs) `node`.
  bool is_local(std::uint32_t node) const {
    return std::uint32_t{node_partition_[node]} - first_partition_ < partitions_.size();
  }
  // The partition of every node (global partition ids).
  const std::vector<std::uint8_t>& node_partitions() const { return node_partition_; }
  // Port `port` of local node `node`.
  Port& local_port(std::uint32_t node, std::uint32_t port);
  // The port at the other end of `p`'s link: the peer's own, or for a node of another rank the stand-in
  // that names it.
  Port& peer_of(const Port& p);
  const Port& peer_of(const Port& p) const { return const_cast<Network*>(this)->peer_of(p); }
  // The receive handler of local node `node` (what its peers' ports deliver to).
  EventFn arrive_handler(std::uint32_t node);
  // The target of its deliveries: the node's switch or NIC (the packet's `in_port` names the port).
  void* arrive_target(std::uint32_t node) const;
  // The shortest propagation delay of any link: how far apart the partitions' windows are (net/fabric_run.h).
  TimePs lookahead_ps() const { return lookahead_ps_; }
  // Whether switches and NICs register their arrivals' second-stage prefetch (Simulator::add_prefetcher):
  // only when a partition's ports (576 bytes each) hold more than four times a core's L2 cache. Below that
  // most of what it fetches is in the cache already and the test per event, whose outcome the branch
  // predictor cannot guess, costs more than it saves. Measured on one thread, alternated A/B: fattree k = 16
  // (3.4 MiB of ports) +5 % wall with it, k = 24 (11.4 MiB) -2 to -11 %, k = 32 (27 MiB) -8 to -12 %; fat320
  // (0.5 MiB) +8 %. Speed only: outputs are the same either way.
  bool deep_prefetch() const { return deep_prefetch_; }
  Partition& partition(std::size_t i) { return *partitions_[i]; }
  const Partition& partition(std::size_t i) const { return *partitions_[i]; }
  Partition& partition_of(std::uint32_t node) {
    return *partitions_[node_partition_[node] - first_partition_];
  }
  Simulator& sim_of(std::uint32_t node) { return partition_of(node).sim; }
  // Counters of all partitions together (the PFC log in time order); packets the pools hold.
  NetCounters counters() const;
  void set_log_pfc(bool on);
  std::size_t packets_allocated() const;
  // Fixed state per flow: flow record, sender QP, receiver context, congestion control, hashes, start order
  // and finish time (routes add a few bytes per hop).
  std::size_t flow_state_bytes() const { return flow_state_bytes_; }
  // The memory a packet takes in the pools once the run's packet layout is final (PacketPool::slot_bytes).
  std::size_t packet_slot_bytes() const { return partitions_.front()->pool.slot_bytes(); }
  // The bytes of a packet the run's code reaches: its header and the slots its schemes placed.
  std::size_t packet_bytes_in_use() const { return PacketPool::bytes_in_use(layout_.used_bytes()); }
  // The time of the last event run (any partition) and the events run.
  TimePs now() const;
  std::uint64_t events_processed() const;
  // The events this process ran (events_processed() is the whole fabric's after combine_ranks).
  std::uint64_t events_processed_here() const;
  const SwitchConfig& switch_config() const { return sw_cfg_; }
  // Where the packet slots of the run's schemes live (net/packet_layout.h): parts bind their slots here.
  const PacketLayout& slots() const { return layout_; }
  // The kind of a pause frame (net/pause_kinds.h): written by the switch that makes it, read where it
  // arrives.
  const PauseKindTag& pause_kind() const { return pause_kind_; }
  const NicConfig& nic_config() const { return nic_cfg_; }
  const Topology& topology() const { return topo_; }
  const RoutingTable& routes() const { return routes_; }
  std::uint64_t seed() const { return seed_; }
  RateBps max_host_rate() const { return max_host_rate_; }

  const Flow& flow(std::uint32_t id) const { return flows_[id]; }
  const std::vector<Flow>& flows() const { return flows_; }
  // The sender QP of a flow whose source is local, the receiver context of one whose destination is.
  SenderQp& qp(std::uint32_t id) { return qps_[sender_slot_.empty() ? id : sender_slot_[id]]; }
  const SenderQp& qp(std::uint32_t id) const { return qps_[sender_slot_.empty() ? id : sender_slot_[id]]; }
  ReceiverContext& receiver(std::uint32_t id) {
    return rx_[receiver_slot_.empty() ? id : receiver_slot_[id]];
  }
  const ReceiverContext& receiver(std::uint32_t id) const {
    return rx_[receiver_slot_.empty() ? id : receiver_slot_[id]];
  }
  std::uint32_t forward_hash(std::uint32_t id) const { return fwd_hash_[id]; }
  std::uint32_t reverse_hash(std::uint32_t id) const { return rev_hash_[id]; }
  TimePs finish_ps(std::uint32_t id) const { return finish_ps_[id]; }
  std::uint64_t flows_completed() const;

  RdmaNic& nic(std::uint32_t host) { return *nics_[host]; }
  const RdmaNic& nic(std::uint32_t host) const { return *nics_[host]; }
  // Switch `s` (index among switches); only a local one exists (has_switch).
  Switch& switch_at(std::uint32_t s) { return *switches_[s]; }
  const Switch& switch_at(std::uint32_t s) const { return *switches_[s]; }
  bool has_switch(std::uint32_t s) const { return switches_[s] != nullptr; }
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
  // The same as offsets into route_ports() (what a packet carries, Packet::route_offset), kNoRoute when
  // packets are routed per packet.
  std::uint32_t forward_route_offset(std::uint32_t id) const {
    return routes_per_flow_ ? fwd_route_[id] : kNoRoute;
  }
  std::uint32_t reverse_route_offset(std::uint32_t id) const {
    return routes_per_flow_ ? rev_route_[id] : kNoRoute;
  }
  // Every flow's routes, one after another (the same on every rank).
  const std::uint16_t* route_ports() const { return route_ports_.data(); }
  std::size_t route_port_count() const { return route_ports_.size(); }
  TimePs ideal_fct_ps(const Flow& f) const;
  TimePs max_base_rtt_ps() const { return max_base_rtt_ps_; }
  // The topology's distinct link rates, by which INT records name a port's rate.
  const LinkRates& link_rates() const { return link_rates_; }
  Bytes max_bdp_bytes() const { return max_bdp_bytes_; }

  void flow_completed(SenderQp& qp);
  void finish_accounting();

  // Runs over ranks (see the constructor). The largest base RTT and BDP over host pairs: each rank computed
  // those of its share of the pairs; this takes the maximum over all ranks (collective).
  void agree_on_global_rtt();
  // Every rank computed the same flow paths, routing mode and set-up order keys (collective; throws
  // InternalError on every rank otherwise).
  void check_ranks_agree();
  // After the run (collective): the simulated time, events, completed flows and finish times of all ranks,
  // pause accounting closed at the end of the whole run; on rank 0 also the counters with every rank's PFC
  // log, and the switch mechanisms' traces. Then now(), events_processed(), flows_completed(), finish_ps(),
  // counters(), packets_allocated() and write_mechanism_traces() speak for the whole fabric on rank 0.
  void combine_ranks();
  // Packets each rank's pools hold (rank 0, after combine_ranks; this rank's alone otherwise).
  const std::vector<std::uint64_t>& packets_by_rank() const { return packets_by_rank_; }
  // The switch mechanisms' traces, switch by switch, after the header (stats/writers.h).
  void write_mechanism_traces(std::FILE* out) const;
  // A trace header of the switch mechanism, or null (no mechanism, or one without traces).
  const char* mechanism_trace_header() const;

 private:
  static void flow_start_event(void* target, std::uint64_t flow_id);
  // Appends to route_ports_ the reverse of the data path from `src` to `dst` whose egress ports start at
  // route_ports_[forward]: at each switch, the port the data arrives on.
  void append_mirrored_route(std::uint32_t src, std::uint32_t dst, std::uint32_t forward);
  // What a scheme's part on `host` may know (net/congestion_control.h); the flow's path for a per-flow part,
  // zeros for a per-NIC part. Every CcEnv is built here.
  CcEnv cc_env(std::uint32_t host, TimePs data_one_way_ps, TimePs ack_one_way_ps,
               std::uint32_t path_switches);
  static void schedule_next_start(Partition& partition);
  void compute_global_rtt();
  void finish_accounting_at(TimePs end);
  // The router that decides a flow's path at switch `s`: its own, or for a switch of another rank the
  // stand-in its routing policy makes for that (RoutingFactory::create_for_paths).
  RoutingPolicy& path_router(std::uint32_t s) const;
  // Whether every switch routes a flow's packets one way: the local switches' routers, or with none, what the
  // routing policy's stand-in says.
  bool all_route_per_flow() const;

  Topology topo_;
  LinkRates link_rates_;  // the topology's link rates, for INT records (net/int_stamp.h)
  SwitchConfig sw_cfg_;
  NicConfig nic_cfg_;
  std::uint64_t seed_;
  TimePs lookahead_ps_ = 0;
  bool deep_prefetch_ = false;
  PacketLayout layout_;  // before the nodes: their schemes hold slots bound to it
  PauseKindTag pause_kind_;
  RankLink* link_ = nullptr;
  int ranks_ = 1;
  int rank_ = 0;
  std::uint32_t global_partitions_ = 1;
  std::uint32_t first_partition_ = 0;  // global id of this process's first partition
  std::vector<std::uint8_t> node_partition_;
  std::vector<std::unique_ptr<Partition>> partitions_;
  std::vector<Switch*> local_switches_;
  std::vector<std::uint32_t> local_hosts_;
  // Stand-ins for the ports of other ranks at the far end of local links (node and port index only).
  std::deque<Port> remote_ports_;
  std::deque<PortState> remote_port_states_;
  std::vector<std::unique_ptr<RoutingPolicy>> planners_;  // by switch index, for switches of other ranks
  std::vector<NodeClock> node_clocks_;  // order-key clocks: one per node, then the set-up context
  unsigned clock_shift_ = 0;            // node n's clock is node_clocks_[n << clock_shift_]
  std::vector<NodePorts> node_ports_;
  RoutingTable routes_;
  // The nodes of this rank, each kind side by side (NodeArena); the arenas outlive the pointers.
  NodeArena<RdmaNic> nic_arena_;
  NodeArena<Switch> switch_arena_;
  std::vector<NodeArena<RdmaNic>::Ptr> nics_;
  std::vector<NodeArena<Switch>::Ptr> switches_;
  RateBps max_host_rate_ = 0;
  bool routes_per_flow_ = true;  // every switch routes a flow's packets one way (net/routing_policy.h)
  TimePs max_base_rtt_ps_ = 0;
  Bytes max_bdp_bytes_ = 0;

  std::vector<Flow> flows_;
  std::vector<SenderQp> qps_;
  std::vector<ReceiverContext> rx_;
  // Over ranks: flow id -> index in qps_ (flows sent from here) and rx_ (flows received here); empty on one
  // process (every flow is local, indexed by its id).
  std::vector<std::uint32_t> sender_slot_, receiver_slot_;
  std::vector<std::unique_ptr<CongestionControl>> ccs_;
  std::vector<std::unique_ptr<ReceiverControl>> receivers_;
  std::vector<std::uint32_t> fwd_hash_, rev_hash_;
  std::vector<std::uint32_t> fwd_route_, rev_route_;  // offsets into route_ports_
  std::vector<std::uint16_t> route_ports_;
  std::vector<std::uint64_t> start_order_;  // reserved event order of each flow's start
  std::vector<TimePs> finish_ps_;
  std::vector<TimePs> ideal_fct_ps_;
  std::size_t flow_state_bytes_ = 0;
  bool global_rtt_agreed_ = true;

  // After combine_ranks (rank 0): the whole run's numbers.
  bool combined_ = false;
  TimePs combined_now_ = 0;
  std::uint64_t combined_events_ = 0, combined_flows_completed_ = 0;
  NetCounters combined_counters_;
  std::vector<std::uint64_t> packets_by_rank_;
  std::string trace_header_;
  std::vector<std::string> traces_;  // by switch index
};

}  // namespace lossless
