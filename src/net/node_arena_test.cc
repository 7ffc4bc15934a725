#include "net/node_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace lossless {
namespace {

struct Counted {
  explicit Counted(int v, int& live) : value(v), live_(live) { ++live_; }
  ~Counted() { --live_; }
  int value;
  int& live_;
  char body[100];
};

TEST(NodeArena, NodesSitSideBySideOnWholeCacheLinesAndAreDestroyedWithTheirPointers) {
  int live = 0;
  {
    NodeArena<Counted> arena;
    arena.reserve(3);
    std::vector<NodeArena<Counted>::Ptr> nodes;
    for (int i = 0; i < 3; ++i) nodes.push_back(arena.make(i, live));
    EXPECT_EQ(live, 3);
    const auto at = [&](int i) {
      return reinterpret_cast<std::uintptr_t>(nodes[static_cast<std::size_t>(i)].get());
    };
    EXPECT_EQ(at(0) % 64, 0u);
    // A node of a little under two lines takes two: the next one starts on a line of its own, so nodes of
    // two threads never share one.
    EXPECT_EQ(at(1) - at(0), 128u);
    EXPECT_EQ(at(2) - at(1), 128u);
    EXPECT_EQ(nodes[2]->value, 2);
    nodes[1].reset();
    EXPECT_EQ(live, 2);
    // More nodes than reserved, or a second reserve, is a bug of the caller.
    EXPECT_THROW(arena.make(3, live), InternalError);
    EXPECT_THROW(arena.reserve(1), InternalError);
  }
  EXPECT_EQ(live, 0);
}

}  // namespace
}  // namespace lossless
