// The event queue's store for events due soon that no lane can hold (core/event_queue.h): a ring of time
// buckets, each a short sorted array, with a bit per bucket saying whether it holds any.
//
// Most events the lanes refuse are due within a transmission of now: an end of transmission asked for by a
// packet that found its port busy (due when the packet on the wire ends), a NIC's pacing wake-up. A binary
// heap pays for them with a sift whose length no predictor guesses (about 45 ns a pop at fat320); here a
// push is a bucket index and an insertion among the few events of that bucket, and a pop takes the first
// event of the first non-empty bucket. An event beyond the ring's horizon, or one that finds its bucket full,
// is refused, and the caller keeps it in the general heap. Which store holds an event never changes when it
// runs: the queue pops the least key of all stores.
#pragma once
#include <cstdint>

#include "core/event_heap.h"
#include "core/time.h"

namespace lossless {

class NearEvents {
 public:
  // Buckets of 1,024 ps, 256 of them: a horizon of 262 ns, more than a 1,500-byte packet's transmission at
  // 50 Gb/s; four events to a bucket.
  static constexpr unsigned kBucketShift = 10;
  static constexpr std::uint32_t kBuckets = 256;
  static constexpr std::uint32_t kPerBucket = 4;

  NearEvents() = default;
  NearEvents(const NearEvents&) = delete;
  NearEvents& operator=(const NearEvents&) = delete;

  std::size_t size() const { return n_; }
  // The least key held, or EventHeap::kAbsentKey when empty.
  const EventKey& top_key() const { return top_; }
  const EventPayload& top_payload() const { return buckets_[top_bucket_].pay[0]; }

  // Holds the event if it is due within the horizon of `floor` (a time no pending event precedes: the last
  // pop's) and its bucket has room; false: the caller keeps it elsewhere.
  bool try_push(const EventKey& k, const EventPayload& p, TimePs floor) {
    if ((k.time >> kBucketShift) - (floor >> kBucketShift) >= kBuckets) return false;
    const auto b = static_cast<std::uint32_t>(k.time >> kBucketShift) & (kBuckets - 1);
    Bucket& bucket = buckets_[b];
    std::uint32_t i = count_[b];
    if (i == kPerBucket) return false;
    count_[b] = static_cast<std::uint8_t>(i + 1);
    // Every pending event lies within one horizon of `floor`, so a bucket holds events of one span only,
    // and keeping its few events sorted makes its first the least.
    for (; i > 0 && event_before(k, bucket.key[i - 1]); --i) {
      bucket.key[i] = bucket.key[i - 1];
      bucket.pay[i] = bucket.pay[i - 1];
    }
    bucket.key[i] = k;
    bucket.pay[i] = p;
    nonempty_[b >> 6] |= std::uint64_t{1} << (b & 63);
    ++n_;
    if (event_before(k, top_)) {
      top_ = k;
      top_bucket_ = b;
    }
    return true;
  }
  // Removes the event of top_key(). There must be one.
  void pop() {
    const std::uint32_t b = top_bucket_;
    Bucket& bucket = buckets_[b];
    const std::uint32_t left = --count_[b];
    // All places move, held or not: a fixed count is a few moves, where the count held made gcc call memmove.
#pragma GCC unroll 4
    for (std::uint32_t i = 0; i + 1 < kPerBucket; ++i) {
      bucket.key[i] = bucket.key[i + 1];
      bucket.pay[i] = bucket.pay[i + 1];
    }
    --n_;
    if (left) {
      top_ = bucket.key[0];
      return;
    }
    nonempty_[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
    // The bucket held the least events, so the next least are in the first non-empty bucket after it, in
    // ring order.
    if (n_ == 0) {
      top_ = EventHeap::kAbsentKey;
      return;
    }
    top_bucket_ = next_nonempty(b);
    top_ = buckets_[top_bucket_].key[0];
  }
  // Calls f(key, payload) for every event held, in no particular order.
  template <class F>
  void for_each(F& f) const {
    for (std::uint32_t b = 0; b < kBuckets; ++b)
      for (std::uint32_t i = 0; i < count_[b]; ++i) f(buckets_[b].key[i], buckets_[b].pay[i]);
  }

 private:
  static constexpr std::uint32_t kWords = kBuckets / 64;
  // The first non-empty bucket after b, in ring order; one must exist.
  std::uint32_t next_nonempty(std::uint32_t b) const {
    std::uint32_t w = b >> 6;
    std::uint64_t bits = nonempty_[w] & (~std::uint64_t{0} << (b & 63));
    for (std::uint32_t step = 0; !bits && step < kWords; ++step) {
      w = (w + 1) & (kWords - 1);
      bits = nonempty_[w];
    }
    return (w << 6) | static_cast<std::uint32_t>(__builtin_ctzll(bits));
  }

  struct Bucket {
    EventKey key[kPerBucket];  // one cache line
    EventPayload pay[kPerBucket];
  };
  EventKey top_ = EventHeap::kAbsentKey;
  std::uint32_t top_bucket_ = 0;
  std::size_t n_ = 0;
  std::uint64_t nonempty_[kWords] = {};
  std::uint8_t count_[kBuckets] = {};
  alignas(64) Bucket buckets_[kBuckets];
};

}  // namespace lossless
