// The packet layout (net/packet_layout.h): where the slots of the selected schemes go, what it refuses, and
// (in the builds with LOSSLESS_SLOT_CHECKS) the owner check on every access.
#include "net/packet_layout.h"

#include <gtest/gtest.h>

#include <array>

#include "net/packet.h"

namespace lossless {
namespace {

struct Small {
  std::uint64_t a;
  std::uint32_t b;
};
struct Big {
  std::array<std::uint8_t, 120> bytes;
};
struct Byte {
  bool flag;
};
inline constexpr PacketSlot<Small> kOnData{"test.layout.on_data", {"data", "ack"}};
inline constexpr PacketSlot<Byte> kAlsoOnData{"test.layout.also_on_data", {"data"}};
inline constexpr PacketSlot<Small> kOnCnp{"test.layout.on_cnp", {"cnp"}};
inline constexpr PacketSlot<Big> kBigOnData{"test.layout.big_on_data", {"data"}};
inline constexpr PacketSlot<Big> kBigOnAck{"test.layout.big_on_ack", {"ack", "nack"}};
inline constexpr PacketSlot<Small> kNeverListed{"test.layout.never_listed", {"data"}};
inline constexpr PacketSlot<Small> kUnknownKind{"test.layout.unknown_kind", {"no.such_kind"}};

constexpr const SlotSpec* kFirstScheme[] = {&kOnData, &kOnCnp};
constexpr const SlotSpec* kSecondScheme[] = {&kAlsoOnData, &kOnData};
constexpr const SlotSpec* kBigData[] = {&kBigOnData};
constexpr const SlotSpec* kBigAck[] = {&kBigOnAck};

TEST(PacketLayout, SlotsSharingAKindGetDisjointBytesAndOthersMayOverlay) {
  PacketLayout l;
  l.add("first (cc.algorithm)", kFirstScheme);
  l.add("second (switch.mechanism)", kSecondScheme);
  const auto on_data = l.bind(kOnData);
  const auto also = l.bind(kAlsoOnData);
  const auto on_cnp = l.bind(kOnCnp);
  EXPECT_EQ(on_data.offset(), 0u);
  EXPECT_EQ(on_cnp.offset(), 0u);  // CNPs carry no data-packet slot: the same bytes
  EXPECT_EQ(also.offset(), sizeof(Small));
  // kOnData, listed by both schemes, is placed once and owned by both.
  ASSERT_EQ(l.placed().size(), 3u);
  EXPECT_EQ(l.placed()[0].owners,
            (std::vector<std::string>{"first (cc.algorithm)", "second (switch.mechanism)"}));
  EXPECT_EQ(l.used_bytes(), sizeof(Small) + 1);
}

TEST(PacketLayout, BigSlotsOnDisjointKindsFitWhereOnOneKindTheyDoNot) {
  PacketLayout l;
  l.add("a", kBigData);
  l.add("b", kBigAck);  // 120 + 120 > 192, but never in one packet
  EXPECT_EQ(l.bind(kBigOnAck).offset(), 0u);
  PacketLayout full;
  full.add("big (cc.algorithm)", kBigData);
  try {
    constexpr const SlotSpec* kTwo[] = {&kBigOnData, &kOnData};
    full.add("small (switch.mechanism)", kTwo);  // kBigOnData already placed; kOnData: 120 + 12 fits
    constexpr const SlotSpec* kAnotherBig[] = {&kBigOnAck};
    full.add("x", kAnotherBig);
    static constexpr PacketSlot<Big> kSecondBig{"test.layout.second_big", {"data"}};
    constexpr const SlotSpec* kClash[] = {&kSecondBig};
    full.add("clash (switch.mechanism)", kClash);
    FAIL() << "two 120-byte slots in one data packet were laid out";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("clash (switch.mechanism)"), std::string::npos) << what;
    EXPECT_NE(what.find("big (cc.algorithm)"), std::string::npos) << what;
    EXPECT_NE(what.find("192-byte"), std::string::npos) << what;
  }
}

TEST(PacketLayout, BindingASlotNoSchemeListedOrNamingAnUnknownKindIsABug) {
  PacketLayout l;
  l.add("first", kFirstScheme);
  EXPECT_THROW(l.bind(kNeverListed), InternalError);
  constexpr const SlotSpec* kBad[] = {&kUnknownKind};
  EXPECT_THROW(l.add("bad", kBad), InternalError);
}

TEST(PacketLayout, FieldsSurviveTheAckTurnaroundAndResetClearsTheSubstratesFields) {
  PacketLayout l;
  l.add("first", kFirstScheme);
  const Slot<Small> s = l.bind(kOnData);
  Packet p;
  p.type = PacketType::kData;
  p.ext_init(s) = {7, 9};
  p.flow_id = 3;
  p.type = PacketType::kAck;  // the data packet turned around keeps its slots
  EXPECT_EQ(p.ext(s).a, 7u);
  EXPECT_EQ(p.ext(s).b, 9u);
  p.reset();
  EXPECT_EQ(p.flow_id, 0u);
  EXPECT_EQ(p.type, PacketType::kData);
}

#ifdef LOSSLESS_SLOT_CHECKS
// Check builds: a part that reaches bytes its slot does not own at that moment aborts, naming the slot.
TEST(PacketSlotDeathTest, AccessOnAKindTheSlotWasNotDeclaredForAborts) {
  PacketLayout l;
  l.add("first", kFirstScheme);
  const Slot<Small> cnp_slot = l.bind(kOnCnp), data_slot = l.bind(kOnData);
  Packet p;
  p.type = PacketType::kData;
  p.ext_init(data_slot) = {1, 2};
  // The CNP slot shares these bytes with the data slot; on a data packet they are the data slot's owner's.
  EXPECT_DEATH(p.ext(cnp_slot), "packet slot 'test.layout.on_cnp' accessed on a data packet");
  EXPECT_DEATH(p.ext_init(cnp_slot), "packet slot 'test.layout.on_cnp' accessed on a data packet");
}

TEST(PacketSlotDeathTest, ReadingBytesTheOwnerDidNotWriteAborts) {
  PacketLayout l;
  l.add("first", kFirstScheme);
  const Slot<Small> data_slot = l.bind(kOnData), cnp_slot = l.bind(kOnCnp);
  Packet p;
  p.type = PacketType::kData;
  EXPECT_DEATH(p.ext(data_slot), "packet slot 'test.layout.on_data' read on a data packet where its owner");
  // Written, then another slot written over the same bytes (on a packet of its kind): no longer the owner's.
  p.ext_init(data_slot) = {1, 2};
  p.type = PacketType::kCnp;
  p.ext_init(cnp_slot) = {3, 4};
  p.type = PacketType::kData;
  EXPECT_DEATH(p.ext(data_slot), "packet slot 'test.layout.on_data' read on a data packet where its owner");
}

TEST(PacketSlotDeathTest, AReusedPacketsSlotsAreNobodysUntilWritten) {
  PacketLayout l;
  l.add("first", kFirstScheme);
  const Slot<Small> s = l.bind(kOnData);
  Packet p;
  p.ext_init(s) = {1, 2};
  p.reset();  // back to the pool and out again: the bytes are stale
  EXPECT_DEATH(p.ext(s), "packet slot 'test.layout.on_data' read on a data packet where its owner");
}

TEST(PacketSlotDeathTest, ASlotNeverBoundAborts) {
  Packet p;
  const Slot<Small> unbound;
  EXPECT_DEATH(p.ext(unbound), "never bound");
}
#else
TEST(PacketSlotDeathTest, CheckedOnlyInBuildsWithSlotChecks) {
  GTEST_SKIP() << "Release build: slot accesses are not checked (Debug, ASan and fuzz builds check them)";
}
#endif

}  // namespace
}  // namespace lossless
