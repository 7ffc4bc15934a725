// Test support: a two-host network with one started flow, so a scheme's sender can be driven by hand-made
// ACKs and CNPs.
#pragma once
#include <memory>

#include "control/cc_scheme.h"
#include "net/network.h"

namespace lossless::test {

template <class Params, class Sender>
struct CcHarness {
  Network net;
  Simulator& sim;
  std::unique_ptr<CcFactoryOf<CcParts<Params, Sender>>> factory;
  explicit CcHarness(const Params& params)
      : net(make_star(2, {100'000'000'000, kPsPerUs}), SwitchConfig{}, NicConfig{}, 1),
        sim(net.sim()),
        factory(std::make_unique<CcFactoryOf<CcParts<Params, Sender>>>(params)) {
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
