#include "control/rcc/rcc.h"

#include <cinttypes>
#include <cmath>
#include <iterator>

#include "control/cc_scheme.h"
#include "net/rdma_nic.h"

namespace lossless {

namespace {

double seconds(double ps) { return ps * 1e-12; }

// C x t in bytes.
double bdp_bytes(RateBps rate_bps, TimePs t_ps) {
  return static_cast<double>(rate_bps) / 8.0 * seconds(static_cast<double>(t_ps));
}

RccFlowRules::Config rules_config(const RccParams& p, TimePs base_ps, Bytes mtu_bytes) {
  RccFlowRules::Config c;
  c.base_s = seconds(static_cast<double>(base_ps));
  c.n = p.n;
  c.delta = p.delta;
  c.kp = p.kp;
  c.kd = p.kd;
  c.mtu_bytes = static_cast<double>(mtu_bytes);
  c.entry_from_sample = p.entry_derivative == "sample";
  c.anti_windup = p.anti_windup;
  c.ewa = p.ewa_on();
  c.pid = p.pid_on();
  return c;
}

}  // namespace

// --- Algorithm 1 and the PID

RccFlowRules::RccFlowRules(const Config& c, double initial_window_bytes)
    : c_(c),
      threshold_s_(c.base_s * (1 + c.delta)),
      target_s_(c.base_s * (1 + c.delta / 2)),
      window_(initial_window_bytes) {}

bool RccFlowRules::on_sample(double delay_s, bool last_hop_busy, double cap_bytes) {
  if (!in_pid_) {
    // Until the PID runs, E_prev follows the measurements: at entry it is the last measured delay's error
    // (paper Table I: last_rtt, "the last measured RTT"; no sample before: this one's), or 0
    // (entry_derivative: zero).
    e_prev_ = c_.entry_from_sample ? (sampled_ ? last_delay_s_ : delay_s) - target_s_ : 0;
    sampled_ = true;
  }
  last_delay_s_ = delay_s;
  if (in_pid_) {
    // Once in PID, for the rest of the flow (switching back and forth would make the queue oscillate); the
    // PID's window stays under the EWA share.
    if (window_ > cap_bytes) {
      window_ = cap_bytes;
      held_ = Held::kCap;
    } else if (held_ == Held::kCap && window_ < cap_bytes) {
      held_ = Held::kNone;  // the share grew: the window is the PID's again
    }
    return false;
  }
  if (c_.ewa && last_hop_busy) {
    // The last hop is saturated: the delay is the last hop's doing, so these samples do not count toward
    // in-network congestion (our reading of Algorithm 1, which detects only outside this branch).
    over_ = 0;
    window_ = cap_bytes;
    return false;
  }
  if (c_.pid) {
    over_ = delay_s > threshold_s_ ? over_ + 1 : 0;
    if (over_ >= c_.n) {
      in_pid_ = true;
      window_ = std::min(window_, cap_bytes);
      pid_step(cap_bytes);
      return true;
    }
  }
  window_ = cap_bytes;
  return false;
}

void RccFlowRules::pid_step(double cap_bytes) {
  const double e = last_delay_s_ - target_s_;
  u_ += c_.kp * e + c_.kd * (e - e_prev_);
  e_prev_ = e;
  const double w = window_ * (1 - std::tanh(u_));
  held_ = w <= c_.mtu_bytes ? Held::kFloor : w > cap_bytes ? Held::kCap : Held::kNone;
  const double applied = std::min(std::max(w, c_.mtu_bytes), cap_bytes);
  if (c_.anti_windup && held_ != Held::kNone) {
    // Back-calculation (not in the paper): U becomes the factor that yields the window applied, so it does
    // not keep integrating while the window is held at the floor or the cap.
    constexpr double kEdge = 1 - 1e-9;
    u_ = std::atanh(std::clamp(1 - applied / window_, -kEdge, kEdge));
  }
  window_ = applied;
  ++steps_;
  if (held_ == Held::kFloor) ++floor_steps_;
  max_u_ = std::max(max_u_, u_);
}

// --- the trace

void RccTrace::update(TimePs now, const RccFlowRules& r) {
  if (closed || !r.in_pid()) return;
  if (entry_ps == kTimeNever) {
    entry_ps = last_ps = now;
    entry_delay_s = r.last_delay_s();
  } else if (held == RccFlowRules::Held::kFloor) {
    floor_ps += now - last_ps;
  } else if (held == RccFlowRules::Held::kCap) {
    cap_ps += now - last_ps;
  }
  last_ps = now;
  held = r.held();
}

void RccTrace::close(TimePs now) {
  if (closed) return;
  if (entry_ps != kTimeNever) {
    if (held == RccFlowRules::Held::kFloor) floor_ps += now - last_ps;
    if (held == RccFlowRules::Held::kCap) cap_ps += now - last_ps;
    last_ps = now;
  }
  closed = true;
}

const char* RccTrace::header() {
  return "flow_id,pid_entry_ns,entry_delay_ns,pid_ns,floor_ns,cap_ns,pid_steps,floor_steps,max_u,last_u,"
         "last_window_bytes\n";
}

void RccTrace::write_row(std::FILE* out, const RccFlowRules& r) const {
  if (entry_ps == kTimeNever) {
    std::fprintf(out, ",,,,,,0,0,0,0,%.1f\n", r.window_bytes());
    return;
  }
  std::fprintf(out, ",%.3f,%.3f,%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%.6g,%.6g,%.1f\n",
               static_cast<double>(entry_ps) / 1e3, entry_delay_s * 1e9,
               static_cast<double>(last_ps - entry_ps) / 1e3, static_cast<double>(floor_ps) / 1e3,
               static_cast<double>(cap_ps) / 1e3, r.pid_steps(), r.floor_steps(), r.max_control_factor(),
               r.control_factor(), r.window_bytes());
}

// --- per NIC

RccNic::RccNic(const RccParams& p, RdmaNic& nic, const CcEnv& env)
    : rate_bps_(nic.port.rate_bps()),
      keep_ps_(env.max_base_rtt_ps),
      clock_rng_(env.seed, "rcc.clock", nic.host()),
      jitter_ps_(static_cast<double>(p.clock_jitter)),
      exact_clock_(p.clock_jitter == 0 && p.clock_offset == 0) {
  if (p.clock_offset > 0) offset_ps_ = (clock_rng_.uniform() - 0.5) * static_cast<double>(p.clock_offset);
}

void RccNic::record_arrival(TimePs now, Bytes bytes) {
  total_bytes_ += bytes;
  arrivals_.emplace_back(now, total_bytes_);
  while (arrivals_.front().first + keep_ps_ < now) {
    dropped_bytes_ = arrivals_.front().second;
    arrivals_.pop_front();
  }
}

Bytes RccNic::received_within(TimePs now, TimePs window_ps) const {
  const TimePs from = now > window_ps ? now - window_ps : 0;
  auto first = std::partition_point(arrivals_.begin(), arrivals_.end(),
                                    [from](const std::pair<TimePs, Bytes>& a) { return a.first <= from; });
  const Bytes before = first == arrivals_.begin() ? dropped_bytes_ : std::prev(first)->second;
  return total_bytes_ - before;
}

std::int64_t RccNic::clock_reading(TimePs now) {
  const auto t = static_cast<std::int64_t>(now);
  if (exact_clock_) return t;
  double error = offset_ps_;
  if (jitter_ps_ > 0) error += (clock_rng_.uniform() - 0.5) * jitter_ps_;
  return t + std::llround(error);
}

// --- receiver

RccReceiver::RccReceiver(const RccParams& p, ReceiverContext&, const Flow& flow, const CcEnv& env)
    : p_(p),
      sim_(env.sim),
      nic_(static_cast<RccNic&>(*env.host_nic.control())),
      flow_bytes_(flow.size_bytes),
      base_rtt_ps_(env.data_one_way_ps + env.ack_one_way_ps),
      bdp_bytes_(bdp_bytes(nic_.rate_bps(), base_rtt_ps_)),
      rules_(rules_config(p, p.base == "rtt" ? base_rtt_ps_ : env.data_one_way_ps, env.nic.mtu_bytes),
             bdp_bytes_),
      pid_timer_(Timer::bind<RccReceiver, &RccReceiver::on_pid_timer>(this)),
      window_(bdp_bytes_),
      count_payload_(p.received_bytes == "payload"),
      fields_(env.slots.bind(kRccFields)) {
  nic_.keep_at_least(base_rtt_ps_);
}

double RccReceiver::cap_bytes() const {
  if (!p_.ewa_on()) return bdp_bytes_;
  return bdp_bytes_ / std::max<std::uint32_t>(nic_.active_flows, 1);
}

void RccReceiver::on_data(const Packet& data) {
  const TimePs now = sim_.now();
  nic_.record_arrival(now, count_payload_ ? data.payload_bytes : data.wire_bytes);
  if (!counted_) {
    counted_ = true;
    ++nic_.active_flows;
  }
  if (!done_ && data.seq + data.payload_bytes >= flow_bytes_) {
    done_ = true;
    --nic_.active_flows;
    pid_timer_.cancel();
  }
  busy_ = static_cast<double>(nic_.received_within(now, base_rtt_ps_)) >= p_.eta * bdp_bytes_;
  const double cap = cap_bytes();
  if (p_.sender_side()) {
    window_ = cap;
    return;
  }
  const double delay_ps = static_cast<double>(nic_.clock_reading(now) - data.ext(fields_).stamp_ps);
  if (rules_.on_sample(seconds(delay_ps), busy_, cap) && !done_) pid_timer_.arm_after(sim_, base_rtt_ps_);
  window_ = rules_.window_bytes();
  if (p_.trace) {
    trace_.update(now, rules_);
    if (done_) trace_.close(now);
  }
}

void RccReceiver::on_ack(Packet& ack) {
  RccFields& f = ack.type == PacketType::kAck ? ack.ext(fields_) : ack.ext_init(fields_);
  f.window_bytes = window_;
  f.last_hop_busy = busy_;
}

void RccReceiver::on_pid_timer() {
  rules_.pid_step(cap_bytes());
  window_ = rules_.window_bytes();
  if (p_.trace) trace_.update(sim_.now(), rules_);
  pid_timer_.arm_after(sim_, base_rtt_ps_);
}

// --- sender

RccSender::RccSender(const RccParams& p, SenderQp& qp, const CcEnv& env)
    : p_(p),
      qp_(qp),
      sim_(env.sim),
      nic_(static_cast<RccNic&>(*env.host_nic.control())),
      base_rtt_ps_(env.data_one_way_ps + env.ack_one_way_ps),
      rate_per_window_byte_(8.0 * static_cast<double>(kPsPerSec) / static_cast<double>(base_rtt_ps_)),
      mtu_bytes_(static_cast<double>(env.nic.mtu_bytes)),
      rules_(rules_config(p, base_rtt_ps_, env.nic.mtu_bytes), bdp_bytes(qp.line_rate_bps, base_rtt_ps_)),
      pid_timer_(Timer::bind<RccSender, &RccSender::on_pid_timer>(this)),
      cap_bytes_(bdp_bytes(qp.line_rate_bps, base_rtt_ps_)),
      fields_(env.slots.bind(kRccFields)) {
  // Starts at line rate (the NIC's) with one line-rate BDP in flight.
  qp.window_bytes = static_cast<Bytes>(std::ceil(cap_bytes_));
}

void RccSender::on_sent(Packet& data) { data.ext_init(fields_).stamp_ps = nic_.clock_reading(sim_.now()); }

void RccSender::on_ack(const Packet& ack) {
  if (ack.type != PacketType::kAck) return;
  const RccFields& f = ack.ext(fields_);
  if (!p_.sender_side()) {
    apply(f.window_bytes);
    return;
  }
  // RCC-sender: the RTT on the sender's own clock (the ACK echoes the data packet's send time).
  cap_bytes_ = f.window_bytes;
  const double rtt_s = seconds(static_cast<double>(sim_.now() - ack.sent_ps));
  if (rules_.on_sample(rtt_s, f.last_hop_busy, cap_bytes_)) pid_timer_.arm_after(sim_, base_rtt_ps_);
  apply(rules_.window_bytes());
  if (p_.trace) trace_.update(sim_.now(), rules_);
}

void RccSender::on_finish() {
  pid_timer_.cancel();
  if (p_.trace) trace_.close(sim_.now());
}

void RccSender::apply(double window_bytes) {
  // A window under one packet still lets one packet out (the NIC sends while in flight < window); the
  // pacing rate follows the exact W, so many flows sharing a link pace below one packet per base RTT.
  qp_.window_bytes = static_cast<Bytes>(std::ceil(std::max(window_bytes, mtu_bytes_)));
  qp_.set_rate(std::min(window_bytes * rate_per_window_byte_, static_cast<double>(qp_.line_rate_bps)));
}

void RccSender::on_pid_timer() {
  rules_.pid_step(cap_bytes_);
  apply(rules_.window_bytes());
  if (p_.trace) trace_.update(sim_.now(), rules_);
  qp_.nic->on_qp_unblocked();
  pid_timer_.arm_after(sim_, base_rtt_ps_);
}

LOSSLESS_REGISTER_CC_PARTS(Rcc, "rcc",
                           "RCC (Zhang et al., ToN'23): receiver-driven; EWA window C x base_rtt / N for "
                           "last-hop congestion, PID on one-way delay for in-network congestion");

}  // namespace lossless
