// The shared-memory, output-queued switch: one buffer accounted per (ingress port, priority) — reserve,
// shared pool up to the PFC threshold, headroom (SharedBufferMmu, configured by switch.buffer and switch.pfc)
// — and per-priority queues at each egress port (the ports' own). Both are built into the switch, so this
// architecture adds nothing of its own.
#include "control/switch_schemes.h"

namespace lossless {
namespace {

struct SharedArchitecture {
  static std::unique_ptr<BufferModel> buffer(const NoParams&, Switch&) { return nullptr; }
  static std::unique_ptr<EgressQueues> queues(const NoParams&, Switch&, const Port&) { return nullptr; }
};

}  // namespace

LOSSLESS_REGISTER_ARCHITECTURE(
    NoParams, SharedArchitecture, "shared", "",
    "shared buffer per switch (switch.buffer, switch.pfc), per-priority egress queues");

}  // namespace lossless
