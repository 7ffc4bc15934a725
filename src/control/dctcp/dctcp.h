// DCTCP for RDMA NICs as in the HPCC code (CC_MODE 8; baselines.md §4.2): alpha from the fraction of ACKs
// with ECN echo per window ("batch"), a rate cut by alpha/2 at most once per window (CWR state), and an
// additive rate step per window otherwise; switches use step marking at K.
#pragma once
#include <string>

#include "control/window.h"
#include "core/params.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"

namespace lossless {

struct DctcpParams {
  std::string preset = "none";
  double g = 1.0 / 16;
  RateBps rate_ai = 615'000'000;  // about one MTU per 13 us RTT
  RateBps min_rate = 100'000'000;
  std::string window = "bdp";
  Bytes k_at_100g = 300'000;  // step-marking threshold hint for the switches (scaled with link rate)

  static DctcpParams initial(ParamSource& m);
  SubstrateHints hints() const {
    SubstrateHints h;
    h.defaults.set("nic.cnp_interval", "0ns");  // the ECN echo rides on every ACK
    const std::string k = "{100Gbps: " + format_size(k_at_100g) + "}";
    h.defaults.set("switch.ecn.kmin", k);
    h.defaults.set("switch.ecn.kmax", k);
    h.defaults.set("switch.ecn.pmax", "{100Gbps: 1}");
    return h;
  }

  template <class V>
  void visit(V& v) {
    v.choice("preset", preset, {"none", "hpcc_paper"},
             "hpcc_paper: run.py `dctcp` (g 1/16, rate_ai 615Mbps, min 1Gbps, K 300KB at 100G)");
    v.real("g", g, "alpha EWMA gain (paper 1/16)", 0.0, 1.0);
    v.rate("rate_ai", rate_ai, "additive rate step per window without marks (HPCC DCTCP_RATE_AI)");
    v.rate("min_rate", min_rate, "lowest rate", kPositive);
    v.choice("window", window, LOSSLESS_WINDOW_CHOICES, LOSSLESS_WINDOW_DOC);
    v.size(
        "k", k_at_100g,
        "default switch step-marking threshold K at 100G (switch.ecn kmin = kmax = K x rate/100G, pmax 1)");
  }
};

class DctcpSender final : public CongestionControl {
 public:
  DctcpSender(const DctcpParams& p, SenderQp& qp, const CcEnv& env);
  void on_ack(const Packet& ack) override;
  double alpha() const { return alpha_; }

 private:
  const DctcpParams& p_;
  SenderQp& qp_;
  Bytes mtu_;
  double alpha_ = 1.0;
  std::uint64_t marked_ = 0;
  std::uint64_t batch_packets_ = 0;
  Bytes last_update_seq_ = 0;
  bool started_ = false;
  bool cwr_ = false;
  Bytes high_seq_ = 0;
};

}  // namespace lossless
