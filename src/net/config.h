// Resolved substrate configuration (what the scenario's switch: and nic: sections become).
#pragma once
#include <cstdint>
#include <vector>

#include "core/rate_table.h"
#include "core/time.h"

namespace lossless {

enum class FlowControl : std::uint8_t { kPfc, kNone };
enum class PfcThreshold : std::uint8_t { kDynamic, kStatic };
enum class Routing : std::uint8_t { kEcmp, kSpray };

struct SwitchConfig {
  Bytes buffer_bytes = 32'000'000;
  Bytes shared_buffer_bytes = 0;  // 0 = auto (buffer minus reserves and headrooms)
  FlowControl flow_control = FlowControl::kPfc;
  bool pfc_enabled = true;
  PfcThreshold threshold = PfcThreshold::kDynamic;
  double alpha = 0.125;        // dynamic threshold factor for ports at host speed
  Bytes xoff_bytes = 320'000;  // static thresholds
  Bytes xon_bytes = 318'000;
  Bytes headroom_bytes = 0;  // 0 = auto: 3 x link BDP + 2 max packets, per port
  Bytes reserve_bytes = 4096;
  Bytes resume_offset_bytes = 3072;
  std::uint16_t pause_quanta = 65535;  // quanta of 512 bit times carried by a pause frame
  bool ecn_enabled = true;
  std::vector<RateValue> kmin_bytes, kmax_bytes, pmax;
  Routing routing = Routing::kEcmp;

  // PFC keeps the fabric lossless; otherwise switches tail-drop.
  bool lossless() const { return flow_control == FlowControl::kPfc && pfc_enabled; }
};

struct NicConfig {
  Bytes mtu_bytes = 1000;  // payload per packet
  Bytes data_header_bytes = 48;
  Bytes ack_bytes = 64;
  Bytes cnp_bytes = 64;
  Bytes pfc_bytes = 64;
  Bytes int_hop_bytes = 8;  // wire bytes added per INT record (HPCC)
  std::uint32_t ack_interval = 1;
  TimePs cnp_interval_ps = 50 * kPsPerUs;  // 0: the ACK of each marked packet carries the CNP
  bool ack_high_priority = true;
  // ACK/NACK at the data priority in switches, but sent by the NIC even while that priority is paused (the
  // HPCC simulator's ACK_HIGH_PRIO 1, which raises ACKs only at the sending NIC).
  bool ack_unpaused_at_nic = false;
  std::uint8_t data_priority = 3;
  TimePs nack_interval_ps = 500 * kPsPerUs;  // at most one NACK per expected sequence in this interval
  TimePs rto_ps = 0;                         // retransmission timeout (go-back-N); 0 = off
};

// PFC headroom of a port when the scenario says `auto`: what can arrive after the pause is sent — three
// times the link's bandwidth-delay product (the HPCC simulator's rule) plus two maximum-size packets in
// serialization at either end.
inline Bytes auto_headroom_bytes(RateBps rate_bps, TimePs delay_ps, const NicConfig& nic) {
  unsigned __int128 bdp = static_cast<unsigned __int128>(rate_bps) * delay_ps / (8 * kPsPerSec);
  return static_cast<Bytes>(3 * bdp) + 2 * (nic.mtu_bytes + nic.data_header_bytes);
}

}  // namespace lossless
