#include "control/pfc/standard_pfc.h"

#include "control/switch_schemes.h"
#include "net/network.h"

namespace lossless {

StandardPfc::StandardPfc(const NoParams&, Switch& sw)
    : sw_(sw),
      quanta_(sw.net().switch_config().pause_quanta),
      refresh_gen_(sw.ports.size() * kPriorities, 0) {}

void StandardPfc::send(std::uint16_t port, std::uint8_t prio, std::uint16_t quanta) {
  sw_.buffer().set_paused(port, prio, quanta > 0);
  std::size_t slot = std::size_t{port} * kPriorities + prio;
  ++refresh_gen_[slot];
  sw_.queue_pause_frame(port, prio, quanta);
  Port& p = sw_.ports[port];
  if (quanta > 0) {
    // Standard PFC refreshes a pause before the peer's timer runs out, for as long as congestion lasts.
    TimePs duration = p.clock.tx_time(std::uint64_t{quanta} * 64);
    std::uint64_t arg = (std::uint64_t{refresh_gen_[slot]} << 24) | (std::uint64_t{port} << 3) | prio;
    sw_.sim().after(duration / 2, &StandardPfc::refresh_event, this, arg);
  }
  p.kick_or_wait();
}

void StandardPfc::refresh_event(void* target, std::uint64_t arg) {
  auto* pfc = static_cast<StandardPfc*>(target);
  auto prio = static_cast<std::uint8_t>(arg & 7u);
  auto port = static_cast<std::uint16_t>((arg >> 3) & 0x1fffffu);
  std::size_t slot = std::size_t{port} * kPriorities + prio;
  if ((arg >> 24) != pfc->refresh_gen_[slot] || !pfc->sw_.buffer().paused(port, prio)) return;
  pfc->send(port, prio, pfc->quanta_);
}

LOSSLESS_REGISTER_FLOW_CONTROL(NoParams, StandardPfc, "pfc", "",
                               "standard PFC: pause at the buffer's threshold (switch.pfc), resume below it");
LOSSLESS_REGISTER_FLOW_CONTROL(NoParams, NoFlowControl, "none", "",
                               "no pauses: lossy, the buffer tail-drops at its threshold (drops counted)");

}  // namespace lossless
