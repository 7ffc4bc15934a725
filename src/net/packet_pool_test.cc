// The packet pool (net/packet.h, net/packet_pool.cc): chunks of fresh packets carved from 2 MiB-aligned
// blocks at a stride that spreads them over the cache sets, packets handed back and reused.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "net/packet.h"

namespace lossless {
namespace {

TEST(PacketPool, GrowsByWholeChunksOfDistinctResetPackets) {
  PacketPool pool;
  Packet* first = pool.get();
  const std::size_t chunk = pool.allocated();
  ASSERT_GT(chunk, 1u);
  std::vector<Packet*> got{first};
  for (std::size_t i = 1; i < chunk + 1; ++i) got.push_back(pool.get());
  EXPECT_EQ(pool.allocated(), 2 * chunk);
  EXPECT_EQ(pool.in_use(), chunk + 1);
  EXPECT_EQ(std::set<Packet*>(got.begin(), got.end()).size(), got.size());
  for (const Packet* p : got) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignof(Packet), 0u);
    EXPECT_EQ(p->type, PacketType::kData);
    EXPECT_EQ(p->wire_bytes, 0u);
    EXPECT_TRUE(p->ecn_capable);
    EXPECT_EQ(p->route_offset, kNoRoute);  // routed by table unless a route is given (0 is a route)
  }
}

// The first line of each packet (the one every hop touches) at each of the four line offsets modulo 256
// bytes alike, so that packets use all of a cache's sets; the chunk starts on a huge page.
TEST(PacketPool, PacketsFirstLinesSpreadOverTheCacheSets) {
  PacketPool pool;
  std::vector<Packet*> got{pool.get()};
  const std::size_t chunk = pool.allocated();
  while (got.size() < chunk) got.push_back(pool.get());
  ASSERT_EQ(pool.allocated(), chunk);
  std::uintptr_t lowest = ~std::uintptr_t{0};
  std::array<std::size_t, 4> at_offset{};
  for (const Packet* p : got) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    lowest = std::min(lowest, a);
    ++at_offset[(a >> 6) & 3];
  }
  EXPECT_EQ(lowest % (std::uintptr_t{2} << 20), 0u);
  for (std::size_t n : at_offset) EXPECT_EQ(n, chunk / 4);
}

TEST(PacketPool, APacketHandedBackIsTheNextOneOutReset) {
  PacketPool pool;
  Packet* p = pool.get();
  p->wire_bytes = 1500;
  p->ecn_ce = true;
  p->route_offset = 0;
  p->sent_ps = 7;
  pool.put(p);
  EXPECT_EQ(pool.in_use(), 0u);
  Packet* again = pool.get();
  EXPECT_EQ(again, p);
  EXPECT_EQ(again->wire_bytes, 0u);
  EXPECT_FALSE(again->ecn_ce);
  EXPECT_EQ(again->route_offset, kNoRoute);
  EXPECT_EQ(again->sent_ps, 0u);
}

}  // namespace
}  // namespace lossless
