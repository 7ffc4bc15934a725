// The sender-side congestion-control hook (reaction point), one instance per QP (STYLE P7). A scheme reads
// feedback and sets its QP's pacing rate and/or window; it never reaches into the fabric.
#pragma once
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/scheme_registry.h"
#include "core/simulator.h"
#include "net/config.h"
#include "net/packet.h"

namespace lossless {

struct SenderQp;
class YamlMap;

// What a scheme may know of the fabric when it creates per-QP state.
struct CcEnv {
  Simulator& sim;
  const NicConfig& nic;
  TimePs max_base_rtt_ps;  // largest base RTT between any two hosts (HPCC's GLOBAL_T)
  Bytes max_bdp_bytes;     // largest host-pair bandwidth-delay product
};

// Cache-line aligned for the same reason as SenderQp.
class alignas(64) CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  virtual void on_start() {}
  // An ACK or NACK arrived (ack.type says which); snd_una has already advanced.
  virtual void on_ack(const Packet& ack) { (void)ack; }
  // Congestion notification: a CNP packet, or an ACK whose CE echo stands for one (nic.cnp_interval = 0).
  virtual void on_cnp(const Packet& cnp) { (void)cnp; }
  virtual void on_sent(const Packet& data) { (void)data; }
  // The flow completed: stop timers.
  virtual void on_finish() {}
};

// Substrate settings a scheme (or its preset) expects; they are the defaults of the scenario's nic: and
// switch: sections, which may still override each of them.
struct SubstrateHints {
  TimePs cnp_interval_ps = 50 * kPsPerUs;  // nic.cnp_interval when `auto`
  bool ack_high_priority = true;           // nic.ack_priority default
  bool needs_int = false;                  // switches stamp INT records into data packets
  std::string required_mechanism;          // switch.mechanism the scheme cannot work without
  // switch.ecn tables; empty = the switch's own defaults
  std::vector<RateValue> ecn_kmin_bytes, ecn_kmax_bytes, ecn_pmax;
};

class CcFactory {
 public:
  virtual ~CcFactory() = default;
  virtual std::unique_ptr<CongestionControl> create(SenderQp& qp, const CcEnv& env) const = 0;
  virtual SubstrateHints hints() const { return {}; }
  // Bytes of per-QP state one create() allocates (memory report).
  virtual std::size_t state_bytes() const = 0;
};

using CcScheme = SchemeEntry<CcFactory>;
using CcRegistry = SchemeRegistry<CcScheme>;

}  // namespace lossless
