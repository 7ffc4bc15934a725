// The pauses a switch holds toward the upstream of its ingress (port, priority) pairs, X-off/X-on style: a
// held pause carries switch.pfc.quanta, is refreshed at half its duration while anyone holds it and is ended
// by an explicit resume (quanta 0). Standard PFC holds pauses through it; a policy that runs standard PFC
// beside a rule of its own (CaPFC's WARN rule) holds through the same object, so the upstream sees one pause
// per (port, priority): the first holder sends the pause, the last one to let go sends the resume. Holders
// are pause kinds (net/pause_kinds.h); refreshes carry the lowest kind that holds (standard first).
#pragma once
#include <cstdint>
#include <vector>

#include "net/packet.h"
#include "net/pause_kinds.h"

namespace lossless {

class Switch;

class HeldPauses {
 public:
  explicit HeldPauses(Switch& sw);

  // `kind` starts holding the pause of (port, prio); a pause frame goes out if nobody held it.
  void hold(std::uint16_t port, std::uint8_t prio, std::uint8_t kind);
  // `kind` lets go; the resume goes out (as `kind`) if nobody else holds it.
  void release(std::uint16_t port, std::uint8_t prio, std::uint8_t kind);
  bool held(std::uint16_t port, std::uint8_t prio) const { return slots_[slot(port, prio)].holders != 0; }
  bool held_by(std::uint16_t port, std::uint8_t prio, std::uint8_t kind) const {
    return (slots_[slot(port, prio)].holders >> kind) & 1u;
  }

 private:
  static std::size_t slot(std::uint16_t port, std::uint8_t prio) {
    return std::size_t{port} * kPriorities + prio;
  }
  void send(std::uint16_t port, std::uint8_t prio, std::uint16_t quanta, std::uint8_t kind);
  static void refresh_event(void* target, std::uint64_t arg);

  struct Slot {
    std::uint32_t gen = 0;      // a newer frame cancels a pending refresh
    std::uint16_t holders = 0;  // bit k: pause kind k holds it
  };
  static_assert(PauseKinds::kMax <= 16, "holders keep one bit per pause kind");
  Switch& sw_;
  std::uint16_t quanta_;
  std::vector<Slot> slots_;
};

}  // namespace lossless
