// QCN congestion point (IEEE 802.1Qau; baselines.md §10.1): each egress (port, priority) queue samples
// arriving data packets, one every ~150 KB of arrivals (more often as congestion grows), computes
//   Fb = -(Q_off + w Q_delta),  Q_off = Q - Q_eq,  Q_delta = Q - Q_old (the queue at the previous sample)
// and, when Fb < 0, sends the sampled packet's source a congestion notification message (CNM) carrying |Fb|
// quantised to 6 bits. `switch.mechanism: qcn`, with `cc.algorithm: qcn` (the reaction point, qcn_rp.h).
#pragma once
#include <cstdint>
#include <vector>

#include "core/rate_table.h"
#include "core/time.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;

// What a CNM carries: the quantised feedback (1..63) and the congestion point (node << 16 | port).
struct QcnCnm {
  std::uint32_t cp;
  std::uint8_t fb;
};
extern const PacketType kQcnCnm;
// Listed by the congestion point (mechanism qcn) and the reaction point (cc qcn).
inline constexpr PacketSlot<QcnCnm> kQcnCnmSlot{"qcn.cnm", {"qcn.cnm"}};

struct QcnCpParams {
  std::vector<RateValue> q_eq{{10'000'000'000, 33'000}};
  double w = 2.0;
  Bytes sample_bytes = 150'000;
  double sample_jitter = 0.15;
  std::uint64_t fb_bits = 6;

  template <class V>
  void visit(V& v) {
    v.size_table("q_eq", q_eq,
                 "Q_eq, the equilibrium queue, per link rate (QCN: 33KB at 10G [recall]; other rates scale "
                 "linearly, our choice, as the RED thresholds do: 132KB at 40G)");
    v.real("w", w, "weight of Q_delta in Fb (802.1Qau: 2)", 0, 100);
    v.size(
        "sample_bytes", sample_bytes,
        "bytes of arrivals between samples while |Fb| is small (802.1Qau: 150KB, ~1% of 1500B frames); the "
        "interval is divided by 1 + floor(qFb / 8) after a sample of quantised feedback qFb (up to 8x)");
    v.require(sample_bytes > 0, "sample_bytes", "must be positive");
    v.real("sample_jitter", sample_jitter,
           "each interval is drawn uniformly within +-this fraction of it (QCN pseudo-code: 15%)", 0, 0.99);
    v.count("fb_bits", fb_bits, "bits of the quantised |Fb|; |Fb| >= Q_eq (1 + 2w) saturates (802.1Qau: 6)",
            1, 16);
  }
};

// One queue's feedback rule, separate from the switch so that it can be tested alone.
class QcnSampler {
 public:
  QcnSampler() = default;
  QcnSampler(double q_eq_bytes, double w, unsigned fb_bits)
      : q_eq_(q_eq_bytes), w_(w), levels_(1u << fb_bits) {}
  // A sample with the queue at `queue_bytes`: the quantised |Fb| (0 = no congestion, no CNM).
  unsigned sample(Bytes queue_bytes);
  unsigned last_feedback() const { return last_fb_; }

 private:
  double q_eq_ = 0, w_ = 2;
  unsigned levels_ = 64;
  double q_old_ = 0;
  unsigned last_fb_ = 0;
};

class QcnCp final : public SwitchMechanism {
 public:
  static constexpr const SlotSpec* kSlots[] = {&kQcnCnmSlot};
  QcnCp(const QcnCpParams& p, Switch& sw, Network& net);
  unsigned packet_hooks() const override { return kOnEnqueue; }
  void on_enqueue(const Port& egress, const Packet& p) override;

 private:
  struct Queue {
    QcnSampler sampler;
    std::int64_t bytes_to_sample;
  };
  std::int64_t next_interval(unsigned fb);

  const QcnCpParams& p_;
  Switch& sw_;
  Network& net_;
  std::vector<Queue> queues_;  // per (port, priority)
  Slot<QcnCnm> cnm_;
};

}  // namespace lossless
