// Standard PFC (IEEE 802.1Qbb) as a flow-control policy: pause the upstream of an ingress (port, priority)
// when the buffer says it crossed its threshold (static Xoff or dynamic alpha x free pool, switch.pfc), with
// the maximum duration (switch.pfc.quanta), refreshed at half that duration while it lasts; resume explicitly
// (quanta 0) when the buffer says it may. `none` never pauses: the buffer tail-drops at the threshold.
// Policies that add a rule of their own to standard PFC (P-PFC, CaPFC) contain a StandardPfc and call its
// after_admit/after_release; they see the pauses it holds through pauses().
#pragma once
#include <cstdint>

#include "control/pfc/held_pauses.h"
#include "control/scheme_entry.h"
#include "net/flow_control.h"
#include "net/packet.h"

namespace lossless {

class Switch;

class StandardPfc final : public FlowControlPolicy {
 public:
  static constexpr bool kLossless = true;
  // after_admit / after_release act only on the buffer's should_pause / should_resume: a packet the shared
  // buffer passes unaccounted (SharedBufferMmu::passes_unaccounted) needs neither (SwitchPath).
  static constexpr bool kActsOnBufferAnswers = true;
  StandardPfc(const NoParams&, Switch& sw) : pauses_(sw) {}

  // Inline: called for every packet-hop at a data priority, and out of line it was a call with six
  // argument moves for a test that is false almost always.
  template <class Buffer>
  [[gnu::always_inline]] void after_admit(Switch&, Buffer& buf, std::uint16_t port, std::uint8_t prio,
                                          const Packet&, std::uint16_t) {
    if (buf.should_pause(port, prio)) {
      buf.set_paused(port, prio, true);
      pauses_.hold(port, prio, PauseKinds::kStandard);
    }
  }
  template <class Buffer>
  [[gnu::always_inline]] void after_release(Switch&, Buffer& buf, std::uint16_t port, std::uint8_t prio,
                                            const Packet&, std::uint16_t) {
    if (buf.should_resume(port, prio)) {
      buf.set_paused(port, prio, false);
      pauses_.release(port, prio, PauseKinds::kStandard);
    }
  }

  // The pauses of this switch, which a containing policy may hold too.
  HeldPauses& pauses() { return pauses_; }

 private:
  HeldPauses pauses_;
};

class NoFlowControl final : public FlowControlPolicy {
 public:
  static constexpr bool kLossless = false;
  static constexpr bool kActsOnBufferAnswers = true;  // (it acts on nothing)
  NoFlowControl(const NoParams&, Switch&) {}
  template <class Buffer>
  void after_admit(Switch&, Buffer&, std::uint16_t, std::uint8_t, const Packet&, std::uint16_t) {}
  template <class Buffer>
  void after_release(Switch&, Buffer&, std::uint16_t, std::uint8_t, const Packet&, std::uint16_t) {}
};

}  // namespace lossless
