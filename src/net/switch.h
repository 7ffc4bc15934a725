// A shared-memory, output-queued switch: ingress MMU accounting + PFC, ECMP forwarding, per-priority egress
// queues, RED/ECN marking at dequeue.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/rng.h"
#include "net/partition.h"
#include "net/port.h"
#include "net/shared_buffer_mmu.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Network;

class Switch {
 public:
  Switch(Network& net, std::uint32_t index, std::uint32_t node, std::size_t ports);
  Switch(const Switch&) = delete;
  Switch& operator=(const Switch&) = delete;

  // Called by the network once the ports are wired (rates known).
  void configure();

  std::vector<Port> ports;
  SharedBufferMmu mmu;

  std::uint32_t index() const { return index_; }
  void set_mechanism(std::unique_ptr<SwitchMechanism> m) { mechanism_ = std::move(m); }
  SwitchMechanism* mechanism() { return mechanism_.get(); }
  // Sends a feedback packet about `flow_id` to its source host, at priority 0 (a CNP carrying `value`, e.g. a
  // rate, and `origin`, the sender's identity). Routed like any packet toward the source.
  void send_feedback(std::uint32_t flow_id, std::uint64_t value, std::uint32_t origin);
  std::uint32_t node() const { return node_; }

  static void arrive_event(void* port, std::uint64_t packet);
  static void kick(void* owner, std::uint16_t port);

 private:
  struct EcnSetting {
    Bytes kmin_bytes;
    Bytes kmax_bytes;
    double pmax;
  };
  void receive(Port& in, Packet* p);
  void try_send(Port& out);
  std::uint16_t route(Packet& p);
  bool should_mark(std::uint16_t port, Bytes queue_bytes);
  void send_pfc(std::uint16_t port, std::uint8_t prio, std::uint16_t quanta);
  static void pfc_refresh_event(void* target, std::uint64_t arg);

  Network& net_;
  Partition& part_;  // the thread's share this switch runs in
  std::uint32_t index_;
  std::uint32_t node_;
  std::uint64_t ecmp_seed_;
  RngStream rng_;
  std::vector<EcnSetting> ecn_;
  std::vector<std::uint32_t> refresh_gen_;  // per (port, prio)
  bool lossless_ = true;
  std::unique_ptr<SwitchMechanism> mechanism_;
};

}  // namespace lossless
