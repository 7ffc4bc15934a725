// Test support: a two-host network with one started flow, so a scheme's sender can be driven by hand-made
// ACKs and CNPs.
#pragma once
#include <memory>

#include "control/cc_scheme.h"
#include "net/network.h"

namespace lossless::test {

// The packet slots `Scheme` lists (its kSlots), if any.
template <class Scheme>
struct SlotsOf {};
template <class Scheme>
requires requires { Scheme::kSlots; }
struct SlotsOf<Scheme> {
  static constexpr const auto& kSlots = Scheme::kSlots;
};

// `Scheme`: the class that lists the scheme's packet slots (its parts struct; default the sender).
template <class P, class S, class Scheme = S>
struct CcHarness {
  using Params = P;
  using Sender = S;
  struct Parts : SlotsOf<Scheme> {
    using Params = P;
    using Sender = S;
  };
  Network net;
  Simulator& sim;
  std::unique_ptr<CcFactoryOf<Parts>> factory;
  explicit CcHarness(const Params& params)
      : net(make_star(2, {100'000'000'000, kPsPerUs}), SwitchConfig{}, NicConfig{}, 1),
        sim(net.sim()),
        factory(std::make_unique<CcFactoryOf<Parts>>(params)) {
    Flow f;
    f.src = 0;
    f.dst = 1;
    f.size_bytes = 1'000'000'000;
    net.install_flows({f}, *factory);
    // Hold the sender's data so that only hand-made feedback reaches the scheme.
    net.nic(0).port.paused_mask = 0xff;
    sim.run(1);  // start the flow
  }
  SenderQp& qp() { return net.qp(0); }
  // The scheme's slot `spec` as this run laid it out, to write hand-made packets.
  template <class T>
  Slot<T> slot(const PacketSlot<T>& spec) const {
    return net.slots().bind(spec);
  }
  Sender& cc() { return *static_cast<Sender*>(qp().cc); }
  Packet ack(Bytes seq, TimePs sent_ps, bool ce = false) {
    Packet p;
    p.type = PacketType::kAck;
    p.seq = seq;
    p.sent_ps = sent_ps;
    p.ecn_ce = ce;
    return p;
  }
};

}  // namespace lossless::test
