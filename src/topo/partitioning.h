// Splits a fabric's nodes among threads for a partitioned run.
#pragma once
#include <cstdint>
#include <vector>

#include "topo/topology.h"

namespace lossless {

// The partition (0..parts-1) of every node. Hosts are split into contiguous, equal ranges; switches are taken
// tier by tier (hops from the nearest host), each joining the partition of most of its neighbours one tier
// down, with every partition capped at its share of the tier. Any assignment gives the same results; this one
// balances the work and keeps traffic between threads down.
std::vector<std::uint8_t> split_nodes(const Topology& topo, unsigned parts);

// The shortest propagation delay of any link: a partitioned run advances in windows this long (an event
// for another partition is always at least this far in the future). Zero if some link has no delay.
TimePs min_link_delay(const Topology& topo);

}  // namespace lossless
