// Who sent a pause frame. Standard PFC is built in (kind 0, "standard"); a flow-control policy that sends
// pause frames of its own rule registers its kind by name from a static initialiser and passes the number it
// gets to Switch::queue_pause_frame, e.g.
//   const std::uint8_t kPredictivePause = PauseKinds::add("predictive");
// The kind travels in the frame (Packet::pfc_kind); the port that receives it counts it
// (NetCounters::pause_frames_by_kind) and logs it (pfc.csv column `kind`, summary.json
// pfc.pause_frames_by_kind).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace lossless
