// The packet pool (net/packet.h, net/packet_pool.cc): chunks of fresh packets carved from 2 MiB-aligned
// blocks at a stride that spreads them over the cache sets, handed out in the order of their place by a
// cursor that laps the pool, passing packets in use; packets handed back and reused.
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
  // The cursor hands out the rest of the chunk, then finds `mid` on its next lap.
  for (std::size_t i = 3; i < pool.allocated(); ++i) ASSERT_NE(pool.get(), mid);
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
  for (std::size_t i = 2; i < chunk; ++i) ASSERT_NE(pool.get(), early);
  EXPECT_EQ(pool.get(), early);  // the next lap starts in the first chunk
}

TEST(PacketPool, APacketHandedBackGoesOutAgainOnTheCursorsNextLapReset) {
  PacketPool pool;
  Packet* p = pool.get();
  p->wire_bytes = 1500;
  p->ecn_ce = true;
  p->route_offset = 0;
  p->sent_ps = 7;
  EXPECT_EQ(pool.in_use(), 1u);
  pool.put(p);
  EXPECT_EQ(pool.in_use(), 0u);
  for (std::size_t i = 1; i < pool.allocated(); ++i) ASSERT_NE(pool.get(), p);
  Packet* again = pool.get();
  EXPECT_EQ(again, p);
  EXPECT_EQ(again->wire_bytes, 0u);
  EXPECT_FALSE(again->ecn_ce);
  EXPECT_EQ(again->route_offset, kNoRoute);
  EXPECT_EQ(again->sent_ps, 0u);
  EXPECT_EQ(pool.allocated(), pool.in_use());  // the lap found a free packet: no growth
}

// Packets go out in the order of their place in the pool, those in use passed: packets made at nearby
// times lie side by side, whatever order they came back in.
TEST(PacketPool, PacketsGoOutInTheOrderOfTheirPlacePassingThoseInUse) {
  PacketPool pool;
  std::vector<Packet*> got{pool.get()};
  const std::size_t chunk = pool.allocated();
  while (got.size() < chunk) got.push_back(pool.get());
  for (std::size_t i = 1; i < chunk; ++i)
    ASSERT_EQ(reinterpret_cast<char*>(got[i]) - reinterpret_cast<char*>(got[i - 1]),
              static_cast<std::ptrdiff_t>(pool.slot_bytes()))
        << i;
  ASSERT_GT(chunk, 4000u);
  // Handed back out of order, they go out again in order of place.
  for (std::size_t i : {900, 7, 4000, 8, 2}) pool.put(got[i]);
  for (std::size_t i : {2, 7, 8, 900, 4000}) ASSERT_EQ(pool.get(), got[i]) << i;
  EXPECT_EQ(pool.allocated(), chunk);
}

// The pool grows when a lap of the cursor passed more than three quarters of its slots in use, and not at
// three quarters: a lap then hands out at least one packet for every three it passes.
TEST(PacketPool, GrowsOnlyWhenALapFoundMoreThanThreeQuartersOfItsSlotsInUse) {
  for (const std::size_t keep : {std::size_t{0}, std::size_t{1}}) {
    PacketPool pool;
    std::vector<Packet*> got{pool.get()};
    const std::size_t chunk = pool.allocated();
    while (got.size() < chunk) got.push_back(pool.get());
    // Every fourth handed back (all, or all but the last) and taken again on the second lap, which passes
    // the others: three quarters of the chunk in use, or one more.
    std::vector<Packet*> back;
    for (std::size_t i = 0; i + 4 * keep < chunk; i += 4) back.push_back(got[i]);
    for (Packet* p : back) pool.put(p);
    for (Packet* p : back) ASSERT_EQ(pool.get(), p);
    // Handed back again: the lap ends, and the next packet comes from the first slot, or from a new chunk.
    for (Packet* p : back) pool.put(p);
    Packet* next = pool.get();
    if (keep == 0) {
      EXPECT_EQ(next, got[0]);
      EXPECT_EQ(pool.allocated(), chunk);
    } else {
      EXPECT_EQ(std::find(got.begin(), got.end(), next), got.end());
      EXPECT_EQ(pool.allocated(), 2 * chunk);
    }
  }
}

}  // namespace
}  // namespace lossless
