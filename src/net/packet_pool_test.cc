// The packet pool (net/packet.h, net/packet_pool.cc): chunks of fresh packets carved from 2 MiB-aligned
// blocks at a stride that spreads them over the cache sets, packets handed back and reused.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
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

// Fitted to a layout, a pool carves packets of the bytes the run reaches, in an odd number of cache lines:
// one line when no scheme placed a slot (no slot checks), three for HPCC's 128 bytes of INT records, five for
// 168.
TEST(PacketPool, AFittedPoolCarvesPacketsOfTheBytesTheRunReaches) {
  EXPECT_EQ(PacketPool::slot_bytes_for(64), 64u);
  EXPECT_EQ(PacketPool::slot_bytes_for(65), 192u);
  EXPECT_EQ(PacketPool::slot_bytes_for(192), 192u);
  EXPECT_EQ(PacketPool::slot_bytes_for(232), 320u);
  EXPECT_EQ(PacketPool::slot_bytes_for(sizeof(Packet)), 320u);
  for (std::size_t used :
       {std::size_t{0}, std::size_t{8}, std::size_t{128}, std::size_t{168}, Packet::kExtBytes}) {
    PacketPool pool;
    pool.fit_to_layout(used);
    const std::size_t stride = PacketPool::slot_bytes_for(kPacketSlotsFrom + used);
    EXPECT_EQ(pool.slot_bytes(), stride);
    std::vector<Packet*> got{pool.get()};
    const std::size_t chunk = pool.allocated();
    while (got.size() < chunk) got.push_back(pool.get());
    std::vector<std::uintptr_t> at;
    for (const Packet* p : got) at.push_back(reinterpret_cast<std::uintptr_t>(p));
    std::sort(at.begin(), at.end());
    for (std::size_t i = 1; i < at.size(); ++i) ASSERT_EQ(at[i] - at[i - 1], stride) << "used " << used;
    EXPECT_EQ(at.front() % (std::uintptr_t{2} << 20), 0u);
  }
}

// A packet cut to a layout without slots is its header: writing every header field of one leaves the
// packets beside it as they were, and a packet handed back and out again is reset within its line.
TEST(PacketPool, APacketCutToItsHeaderTouchesNoNeighbour) {
  PacketPool pool;
  pool.fit_to_layout(0);
  std::vector<Packet*> got{pool.get()};
  while (got.size() < 3) got.push_back(pool.get());
  std::sort(got.begin(), got.end());
  Packet* mid = got[1];
  ASSERT_EQ(reinterpret_cast<char*>(mid) - reinterpret_cast<char*>(got[0]),
            static_cast<std::ptrdiff_t>(pool.slot_bytes()));
  const std::vector<unsigned char> before(reinterpret_cast<unsigned char*>(got[0]),
                                          reinterpret_cast<unsigned char*>(got[2]) + pool.slot_bytes());
  std::memset(static_cast<void*>(mid), 0xA5, kPacketSlotsFrom);
  mid->seq = 1;
  pool.put(mid);
  ASSERT_EQ(pool.get(), mid);
  EXPECT_EQ(mid->seq, 0u);
  EXPECT_EQ(mid->route_offset, kNoRoute);
  const auto* bytes = reinterpret_cast<const unsigned char*>(got[0]);
  const std::size_t line = pool.slot_bytes();
  for (std::size_t i = 0; i < line; ++i) ASSERT_EQ(bytes[i], before[i]) << "byte " << i << " before it";
  for (std::size_t i = 2 * line; i < 3 * line; ++i)
    ASSERT_EQ(bytes[i], before[i]) << "byte " << i << " after it";
}

// Packets carved before the fit keep the whole struct (a scheme may have made one before the layout was
// final); later chunks are cut, and reuse hands out both kinds.
TEST(PacketPool, PacketsCarvedBeforeTheFitKeepTheWholeStruct) {
  PacketPool pool;
  Packet* early = pool.get();
  const std::size_t chunk = pool.allocated();
  std::vector<Packet*> first{early};
  while (first.size() < chunk) first.push_back(pool.get());
  std::sort(first.begin(), first.end());
  EXPECT_EQ(reinterpret_cast<char*>(first[1]) - reinterpret_cast<char*>(first[0]), 320);
  pool.fit_to_layout(0);
  Packet* a = pool.get();
  Packet* b = pool.get();
  EXPECT_EQ(pool.allocated(), 2 * chunk);
  EXPECT_EQ(std::abs(reinterpret_cast<char*>(b) - reinterpret_cast<char*>(a)),
            static_cast<std::ptrdiff_t>(PacketPool::slot_bytes_for(kPacketSlotsFrom)));
  pool.put(early);
  EXPECT_EQ(pool.get(), early);
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
