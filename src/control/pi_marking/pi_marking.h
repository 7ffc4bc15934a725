// DCQCN+PI's congestion point ("ECN or Delay", Zhu et al., CoNEXT'16 §5; baselines.md §10.2): the ECN marking
// probability of each egress (port, priority) queue comes from a PI controller on the queue length instead of
// RED, `switch.ecn.marking: pi`. Everything else is DCQCN. The discrete form of the authors' fluid model
// (jitupadhye-zz/rdma, fluidmodel/dcqcn/dcqcn_pi.m), applied every `interval`:
//   p[k] = clip(p[k-1] + a (q[k] - q_ref) - b (q[k-1] - q_ref), 0, 1)
// with q in KB; storing the clipped value is the anti-windup the model lacks. Packets are marked at dequeue
// with probability p, like RED.
#pragma once
#include <cstdint>
#include <vector>

#include "core/rate_table.h"
#include "core/time.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;

struct PiMarkingParams {
  std::vector<RateValue> q_ref{{40'000'000'000, 200'000}};
  double a = 1.0001 * 1.816e-5;
  double b = 1.816e-5;
  TimePs interval = 1 * kPsPerUs;

  template <class V>
  void visit(V& v) {
    v.size_table("q_ref", q_ref,
                 "reference queue per link rate (fluid model: 200KB at 40G; other rates scale linearly, our "
                 "choice, as the RED thresholds do)");
    v.real("a", a, "gain on q[k] - q_ref, per KB of queue per update (fluid model: 1.0001 b)", 0, 1);
    v.real("b", b, "gain on q[k-1] - q_ref, per KB per update (fluid model: 1.816e-5, its 4us-delay set)", 0,
           1);
    v.time("interval", interval,
           "update period of p (the model updates at every solver step and names none; our choice, 1us: with "
           "the "
           "model's gains the integral time b / (a - b) x interval is 10 ms)");
    v.require(interval > 0, "interval", "must be positive");
  }
};

// One queue's controller, separate from the switch so that its rules can be tested alone.
class PiController {
 public:
  PiController() = default;
  PiController(double a, double b, double q_ref_kb, TimePs interval)
      : a_(a), b_(b), q_ref_kb_(q_ref_kb), interval_(interval), next_ps_(interval) {}
  // Runs every update due at or before `now`; the queue held `held_bytes` since the previous call.
  void advance(TimePs now, Bytes held_bytes);
  double probability() const { return p_; }

 private:
  double a_ = 0, b_ = 0, q_ref_kb_ = 0;
  TimePs interval_ = 1;
  TimePs next_ps_ = 1;  // the next update (updates run at multiples of the interval)
  double p_ = 0;
  double q_old_kb_ = 0;
};

class PiMarking final : public SwitchMechanism {
 public:
  PiMarking(const PiMarkingParams& p, Switch& sw, Network& net);
  unsigned packet_hooks() const override { return kOnEnqueue | kOnDequeue; }
  void on_enqueue(const Port& egress, const Packet& p) override;
  void on_dequeue(const Port& egress, Packet& p) override;
  const PiController& controller(std::uint16_t port, std::uint8_t prio) const {
    return queues_[std::size_t{port} * kPriorities + prio];
  }

 private:
  Switch& sw_;
  std::vector<PiController> queues_;  // per (port, priority)
};

}  // namespace lossless
