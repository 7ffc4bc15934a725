#include "control/hpcc/hpcc.h"

#include <algorithm>

#include "control/cc_scheme.h"
#include "control/hpcc/most_utilised.h"
#include "control/window.h"
#include "core/error.h"

namespace lossless {

HpccParams HpccParams::initial(ParamSource& m) {
  HpccParams p;
  // rate_ai and expected_flows are two ways to give the additive step: an explicit rate_ai means one step for
  // every flow (expected_flows 0); rate_ai with a positive expected_flows would be silently unused (and the
  // resolved scenario leaves rate_ai out then: visit).
  if (m.has("rate_ai")) {
    if (m.has("expected_flows") && m.count("expected_flows", 0, 0, 1'000'000) > 0)
      m.fail(
          "rate_ai",
          "give either rate_ai (one additive step for every flow) or expected_flows (a step proportional to "
          "the NIC rate), not both");
    p.expected_flows = 0;
  }
  if (m.has("preset") && m.choice("preset", "none", {"none", "hpcc_paper"}) == "hpcc_paper") {
    // HPCC code run.py `hp` at 100 G: U_TARGET 0.95, MI_THRESH 0, RATE_AI 40 Mb/s, FAST_REACT 1,
    // HAS_WIN/VAR_WIN 1, MIN_RATE 1 Gb/s; the code's queue term and one RATE_AI for every flow.
    p.preset = "hpcc_paper";
    p.max_stage = 0;
    p.rate_ai = 40'000'000;
    p.expected_flows = 0;
    p.queue_term = "nic_scaled";
    p.min_rate = 1'000'000'000;
  }
  return p;
}

HpccSender::HpccSender(const HpccParams& p, SenderQp& qp, const CcEnv& env)
    : p_(p),
      qp_(qp),
      t_ps_(static_cast<double>(env.max_base_rtt_ps)),
      queue_term_link_(p.queue_term == "link"),
      inv_t_per_s_(1e12 / static_cast<double>(env.max_base_rtt_ps)),
      bdp_bits_per_line_(static_cast<double>(env.max_bdp_bytes) * 8.0),
      rate_ai_(p.expected_flows ? static_cast<double>(qp.line_rate_bps) * (1.0 - p.eta) /
                                      static_cast<double>(p.expected_flows)
                                : static_cast<double>(p.rate_ai)),
      ref_rate_(static_cast<double>(qp.line_rate_bps)),
      int_(env.slots.bind(kIntRecords)),
      link_rate_bps_(env.link_rates ? env.link_rates->as_double() : nullptr) {
  LOSSLESS_CHECK(link_rate_bps_, "an HPCC sender needs the run's link rates (CcEnv::link_rates)");
  apply_window_mode(p.window, qp, env);
}

void HpccSender::on_ack(const Packet& ack) {
  if (ack.type != PacketType::kAck) return;
  if (!have_records_) {
    // First ACK: only remember the INT records and the RTT boundary.
    have_records_ = true;
    last_update_seq_ = qp_.snd_nxt;
    const IntRecords& r = ack.ext(int_);
    hops_ = r.hops;
    last_ = r.hop;  // as in update()
    return;
  }
  bool commit = ack.seq > last_update_seq_;
  if (!commit && !p_.fast_react) return;
  update(ack, commit);
  if (commit) last_update_seq_ = qp_.snd_nxt;
}

template <bool kSkipEmpty>
bool HpccSender::measure(const IntRecords& r, std::uint8_t hops, double line, MostUtilisedHop& most) const {
  bool any = !kSkipEmpty && hops > 0;
  // Read once: the compiler reloaded it on every hop (the records are memory it cannot tell apart from the
  // sender's members).
  const double* link_rate_bps = link_rate_bps_;
  for (std::uint8_t i = 0; i < hops; ++i) {
    const IntHop& now = r.hop[i];
    const IntHop& prev = last_[i];
    if constexpr (kSkipEmpty) {
      if (now.qlen_bytes() == 0) continue;
      any = true;
    }
    double dt = static_cast<double>(now.time_ps - prev.time_ps);
    double rate = link_rate_bps[now.rate_index()];
    const Bytes sent = now.tx_bytes - prev.tx_bytes;
    // bits x 1e12 / ps: x 8e12 in one multiply is the same double as x 8 then x 1e12 (scaling by 8 is exact
    // and 8e12 is an integer a double holds exactly, so both round the same product).
    double tx_rate = dt > 0 ? static_cast<double>(sent) * 8e12 / dt : 0;
    const Bytes qlen = std::min(now.qlen_bytes(), prev.qlen_bytes());
    // Queue term: min(qlen) / (B_i T) (paper), or the HPCC code's min(qlen) R_nic / (B_i maxBdp), which is
    // the same for a NIC at the fastest host rate and smaller for slower NICs. A term whose numerator is
    // zero is exactly +0 (the link is usually idle or its queue empty): its divisions are skipped.
    double u = tx_rate > 0 ? tx_rate / rate : 0.0;
    if (qlen > 0) {
      const double q = static_cast<double>(qlen) * 8.0;
      u += queue_term_link_ ? q * inv_t_per_s_ / rate : q * line / rate / bdp_bits_per_line_;
    }
    most.keep(u, dt);
  }
  return any;
}

void HpccSender::update(const Packet& ack, bool commit) {
  MostUtilisedHop most(0, 0);
  const double line = static_cast<double>(qp_.line_rate_bps);
  const IntRecords& r = ack.ext(int_);
  const std::uint8_t hops = std::min(r.hops, hops_);
  // Whether hops with an empty queue count is fixed for the ACK: two loops, not a test on every hop.
  const bool any = p_.sample_feedback && !commit ? measure<true>(r, hops, line, most)
                                                 : measure<false>(r, hops, line, most);
  hops_ = r.hops;
  // All kMaxIntHops records, of which the first hops_ are read next time: a copy of fixed size is a few
  // moves, where copying r.hops of them called memcpy with a size it branches on.
  last_ = r.hop;
  if (!any) return;
  const double max_u = most.max_u();
  const double tau_ps = std::min(most.tau(), t_ps_);
  u_ = (u_ * (t_ps_ - tau_ps) + max_u * tau_ps) / t_ps_;
  double ratio = u_ / p_.eta;
  double rate;
  std::uint64_t stage;
  // The stage test first: it is fixed for a run when max_stage is 0 (the HPCC code's MI_THRESH), where the
  // ratio test's outcome changes from ACK to ACK.
  if (inc_stage_ >= p_.max_stage || ratio >= 1) {
    rate = ref_rate_ / ratio + rate_ai_;
    stage = 0;
  } else {
    rate = ref_rate_ + rate_ai_;
    stage = inc_stage_ + 1;
  }
  rate = std::clamp(rate, qp_.rate_floor(p_.min_rate), line);
  qp_.set_rate(rate);
  if (commit) {
    ref_rate_ = rate;
    inc_stage_ = stage;
  }
}

void HpccSender::check_state(StateCheck& check) const {
  const double line = static_cast<double>(qp_.line_rate_bps), min = qp_.rate_floor(p_.min_rate);
  check.in_range("rate_bps", qp_.rate_bps, min, line);
  check.in_range("reference_rate_bps", ref_rate_, min, line);
  check.finite("utilization", u_);
  check.non_negative("utilization", u_);
  if (qp_.window_bytes)
    check.in_range("window_bytes", static_cast<double>(qp_.window()), 1,
                   static_cast<double>(qp_.window_bytes));
}

LOSSLESS_REGISTER_CC_PARTS(
    Hpcc, "hpcc",
    "HPCC (Li et al., SIGCOMM'19): INT-based rate/window control; preset hpcc_paper = HPCC code run.py");

}  // namespace lossless
