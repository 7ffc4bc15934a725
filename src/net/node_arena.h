// Nodes of one kind (a fabric's switches, its NICs) built side by side in one allocation.
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <utility>

#include "core/error.h"

namespace lossless {

// A packet's hop reads the first lines of the node it arrives at. Built one by one with make_unique, each
// node sat on a 4 KiB page of its own among its ports and tables, a TLB entry per node; side by side, a page
// holds several (docs/performance.md "Fourteenth pass"). Nodes never move; the arena must outlive its
// pointers.
template <class T>
class NodeArena {
 public:
  struct Destroy {
    void operator()(T* node) const { node->~T(); }
  };
  using Ptr = std::unique_ptr<T, Destroy>;

  NodeArena() = default;
  NodeArena(const NodeArena&) = delete;
  NodeArena& operator=(const NodeArena&) = delete;
  ~NodeArena() {
    if (memory_) ::operator delete (memory_, std::align_val_t{kAlign});
  }

  // Room for `count` nodes; once, before the first make.
  void reserve(std::size_t count) {
    LOSSLESS_CHECK(!memory_, "a node arena reserved twice");
    capacity_ = count;
    if (count) memory_ = ::operator new (count* kStride, std::align_val_t{kAlign});
  }
  template <class... Args>
  Ptr make(Args&&... args) {
    LOSSLESS_CHECK(built_ < capacity_, "more nodes than a node arena reserved");
    void* at = static_cast<char*>(memory_) + built_ * kStride;
    Ptr node(::new (at) T(std::forward<Args>(args)...));
    ++built_;
    return node;
  }

 private:
  // Whole cache lines: nodes of two partitions (threads) never share one.
  static constexpr std::size_t kAlign = alignof(T) > 64 ? alignof(T) : 64;
  static constexpr std::size_t kStride = (sizeof(T) + kAlign - 1) / kAlign * kAlign;
  void* memory_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t built_ = 0;
};

}  // namespace lossless
