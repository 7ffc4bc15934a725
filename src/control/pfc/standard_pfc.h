// Standard PFC (IEEE 802.1Qbb) as a flow-control policy: pause the upstream of an ingress (port, priority)
// when the buffer says it crossed its threshold (static Xoff or dynamic alpha x free pool, switch.pfc), with
// the maximum duration (switch.pfc.quanta), refreshed at half that duration while it lasts; resume explicitly
// (quanta 0) when the buffer says it may. `none` never pauses: the buffer tail-drops at the threshold.
#pragma once
#include <cstdint>
#include <vector>

#include "control/scheme_entry.h"
#include "net/flow_control.h"
#include "net/packet.h"

namespace lossless {

class Switch;

class StandardPfc final : public FlowControlPolicy {
 public:
  static constexpr bool kLossless = true;
  StandardPfc(const NoParams&, Switch& sw);

  template <class Buffer>
  void after_admit(Switch&, Buffer& buf, std::uint16_t port, std::uint8_t prio, const Packet&,
                   std::uint16_t) {
    if (buf.should_pause(port, prio)) send(port, prio, quanta_);
  }
  template <class Buffer>
  void after_release(Switch&, Buffer& buf, std::uint16_t port, std::uint8_t prio, const Packet&,
                     std::uint16_t) {
    if (buf.should_resume(port, prio)) send(port, prio, 0);
  }

 private:
  void send(std::uint16_t port, std::uint8_t prio, std::uint16_t quanta);
  static void refresh_event(void* target, std::uint64_t arg);

  Switch& sw_;
  std::uint16_t quanta_;
  std::vector<std::uint32_t> refresh_gen_;  // per (port, prio): a newer frame cancels a pending refresh
};

class NoFlowControl final : public FlowControlPolicy {
 public:
  static constexpr bool kLossless = false;
  NoFlowControl(const NoParams&, Switch&) {}
  template <class Buffer>
  void after_admit(Switch&, Buffer&, std::uint16_t, std::uint8_t, const Packet&, std::uint16_t) {}
  template <class Buffer>
  void after_release(Switch&, Buffer&, std::uint16_t, std::uint8_t, const Packet&, std::uint16_t) {}
};

}  // namespace lossless
