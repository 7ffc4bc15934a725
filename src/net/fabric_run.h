// Drives a fabric's event loop, on one thread or on one thread per partition (DESIGN §4.2: conservative
// parallel simulation with the shortest link delay as lookahead). Time advances in windows one lookahead
// long, starting at the earliest pending event: within a window every partition runs its own events, since
// nothing another partition does in it can reach them before the window ends; between windows the partitions
// hand each other the packets that crossed. A run on one thread goes through the same windows, so both end at
// the same event and their outputs are byte-identical.
#pragma once
#include <cstdint>
#include <functional>

#include "core/time.h"

namespace lossless {

class Network;

struct FabricProgress {
  TimePs now_ps;
  std::uint64_t events;
  std::uint64_t flows_completed;
};

struct FabricRunStats {
  unsigned threads = 1;  // partitions the fabric ran as (--threads may be reduced: net/network.h)
};

// Runs events due at or before `stop_ps` until the queues drain or, once every flow has completed, to the end
// of that window. `progress` is called between windows on the calling thread.
FabricRunStats run_fabric(Network& net, TimePs stop_ps,
                          const std::function<void(const FabricProgress&)>& progress);

}  // namespace lossless
