#include "control/pfc/held_pauses.h"

#include "net/network.h"

namespace lossless {

HeldPauses::HeldPauses(Switch& sw)
    : sw_(sw), quanta_(sw.net().switch_config().pause_quanta), slots_(sw.ports.size() * kPriorities) {}

void HeldPauses::hold(std::uint16_t port, std::uint8_t prio, std::uint8_t kind) {
  Slot& s = slots_[slot(port, prio)];
  const bool was_held = s.holders != 0;
  s.holders = static_cast<std::uint16_t>(s.holders | (1u << kind));
  if (!was_held) send(port, prio, quanta_, kind);
}

void HeldPauses::release(std::uint16_t port, std::uint8_t prio, std::uint8_t kind) {
  Slot& s = slots_[slot(port, prio)];
  if (!((s.holders >> kind) & 1u)) return;
  s.holders = static_cast<std::uint16_t>(s.holders & ~(1u << kind));
  if (s.holders == 0) send(port, prio, 0, kind);
}

void HeldPauses::send(std::uint16_t port, std::uint8_t prio, std::uint16_t quanta, std::uint8_t kind) {
  Slot& s = slots_[slot(port, prio)];
  ++s.gen;
  sw_.queue_pause_frame(port, prio, quanta, kind);
  Port& p = sw_.ports[port];
  if (quanta > 0) {
    // Refresh before the peer's timer runs out, for as long as someone holds the pause.
    TimePs duration = p.clock().tx_time(std::uint64_t{quanta} * 64);
    std::uint64_t arg = (std::uint64_t{s.gen} << 24) | (std::uint64_t{port} << 3) | prio;
    sw_.sim().after(duration / 2, &HeldPauses::refresh_event, this, arg);
  }
  p.kick_or_wait();
}

void HeldPauses::refresh_event(void* target, std::uint64_t arg) {
  auto* self = static_cast<HeldPauses*>(target);
  auto prio = static_cast<std::uint8_t>(arg & 7u);
  auto port = static_cast<std::uint16_t>((arg >> 3) & 0x1fffffu);
  const Slot& s = self->slots_[slot(port, prio)];
  if ((arg >> 24) != s.gen || s.holders == 0) return;
  self->send(port, prio, self->quanta_, static_cast<std::uint8_t>(__builtin_ctz(s.holders)));
}

}  // namespace lossless
