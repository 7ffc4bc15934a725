// Who sent a pause frame. Standard PFC is built in (kind 0, "standard"); a flow-control policy that sends
// pause frames of its own rule registers its kind by name from a static initialiser and passes the number it
// gets to Switch::queue_pause_frame, e.g.
//   const std::uint8_t kPredictivePause = PauseKinds::add("predictive");
// and lists the packet slot kPauseKindSlot in its kSlots (net/packet_slot.h). The kind travels in the frame
// in that slot, laid out only in runs whose policy lists it (a run without it sends standard frames only and
// its frames carry no kind); the port that receives a frame counts its kind
// (NetCounters::pause_frames_by_kind) and logs it (pfc.csv column `kind`, summary.json
// pfc.pause_frames_by_kind).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "net/packet.h"
#include "net/packet_slot.h"

namespace lossless {

class PauseKinds {
 public:
  static constexpr std::uint8_t kStandard = 0;
  static constexpr std::size_t kMax = 16;
  // Registers a kind; names must be unique.
  static std::uint8_t add(const std::string& name);
  static const std::string& name(std::uint8_t kind);
  static std::size_t count();
  // Every registered kind in the order outputs list them: standard first, then by name (independent of the
  // order in which static initialisers ran).
  static std::vector<std::uint8_t> output_order();
};

// The kind of a pause frame, carried in the frame when the run's flow-control policy lists this slot.
struct PauseKindField {
  std::uint8_t kind;
};
inline constexpr PacketSlot<PauseKindField> kPauseKindSlot{"pfc.kind", {"pfc"}};

class PacketLayout;

// The run's kPauseKindSlot: where the switch that makes a pause frame writes its kind and where the node that
// receives it reads it. Unbound (no policy of the run lists the slot): every frame is standard.
class PauseKindTag {
 public:
  void bind(const PacketLayout& layout);
  // Writes `kind` into frame `f` (standard needs no slot; another kind needs one: an internal error if the
  // policy that sends it did not list kPauseKindSlot).
  void write(Packet& f, std::uint8_t kind) const;
  std::uint8_t read(const Packet& f) const { return bound_ ? f.ext(slot_).kind : PauseKinds::kStandard; }

 private:
  Slot<PauseKindField> slot_;
  bool bound_ = false;
};

}  // namespace lossless
