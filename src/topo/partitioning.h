// Splits a fabric's nodes among threads, and among ranks (processes) for a run over several of them.
#pragma once
#include <cstdint>
#include <vector>

#include "topo/topology.h"

namespace lossless {

// The partition (0..partitions-1) of every node. Partitions form `groups` (ranks) of partitions / groups
// consecutive ones. Hosts are split into contiguous, equal ranges; with several groups, the groups'
// boundaries move to the nearest pod boundary (the hosts that reach each other below the top tier of
// switches: a fat tree's pod, a leaf-spine's rack) when that keeps every group within 1/8 of its share of
// hosts, else to the nearest rack boundary (a ToR with its hosts) within that tolerance, so that only links
// to the top tier cross between ranks. Switches are taken tier by tier (hops from the nearest host), each
// joining the partition of most of its neighbours one tier down, with every partition capped at its share of
// the tier (its share of hosts). Any assignment gives the same results; this one balances the work and keeps
// traffic between threads and ranks down.
std::vector<std::uint8_t> split_nodes(const Topology& topo, unsigned partitions, unsigned groups = 1);

// The shortest propagation delay of any link: a partitioned run advances in windows this long (an event
// for another partition is always at least this far in the future). Zero if some link has no delay.
TimePs min_link_delay(const Topology& topo);

}  // namespace lossless
