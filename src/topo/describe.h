// `lossless describe`: every node of a fabric with its ports and what each port leads to, named as the
// monitors take them (`s0:4`: port 4 of switch s0). Ports are numbered in the order of the node's links.
#pragma once
#include <ostream>
#include <string>

#include "topo/topology.h"

namespace lossless {

// One line per port: `s0:4  ->  s1:0  400Gbps 1us`. With `only` (a node name such as "s0" or "h3"), that
// node's ports alone; returns false if `only` names no node.
bool describe_topology(const Topology& topo, std::ostream& os, const std::string& only = "");

}  // namespace lossless
