#include "net/shared_buffer_mmu.h"

#include <algorithm>

namespace lossless {

SharedBufferMmu::SharedBufferMmu(const SwitchConfig& cfg, const std::vector<PortSetup>& ports, bool lossless)
    : cfg_{cfg.threshold, cfg.reserve_bytes, cfg.resume_offset_bytes}, ports_(ports), lossless_(lossless) {
  std::size_t n = ports.size() * kPriorities;
  slots_.assign(n, Slot{});
  for (std::size_t i = 0; i < n; ++i) slots_[i].alpha = ports_[i / kPriorities].alpha;
  for (const auto& p : ports_) {
    if (lossless_) total_headroom_ += p.headroom_bytes;
    total_reserve_ += cfg.reserve_bytes;
  }
  Bytes fixed = total_headroom_ + total_reserve_;
  shared_pool_ = cfg.shared_buffer_bytes ? cfg.shared_buffer_bytes
                                         : (cfg.buffer_bytes > fixed ? cfg.buffer_bytes - fixed : 0);
}

Bytes SharedBufferMmu::threshold(std::uint16_t port) const {
  if (cfg_.threshold == PfcThreshold::kStatic) return ports_[port].xoff_bytes;
  Bytes free_bytes = shared_pool_ > shared_used_ ? shared_pool_ - shared_used_ : 0;
  return static_cast<Bytes>(static_cast<double>(free_bytes) * ports_[port].alpha);
}

Bytes SharedBufferMmu::slot_threshold(std::uint16_t port, const Slot& sl) const {
  if (cfg_.threshold == PfcThreshold::kStatic) return ports_[port].xoff_bytes;
  Bytes free_bytes = shared_pool_ > shared_used_ ? shared_pool_ - shared_used_ : 0;
  return static_cast<Bytes>(static_cast<double>(free_bytes) * sl.alpha);
}

bool SharedBufferMmu::admit(std::uint16_t port, std::uint8_t prio, Bytes bytes, std::uint16_t) {
  Slot& sl = slots_[slot(port, prio)];
  Bytes new_bytes = sl.ingress + bytes;
  if (new_bytes <= cfg_.reserve_bytes) {
    sl.ingress = new_bytes;
    return true;
  }
  Bytes thresh = slot_threshold(port, sl);
  Bytes new_shared = new_bytes - cfg_.reserve_bytes;
  bool fits_shared = new_shared <= thresh && shared_used_ + bytes <= shared_pool_;
  if (!lossless_) {
    // Lossy: the dynamic (or static) threshold is a tail-drop limit; there is no headroom.
    if (!fits_shared) return false;
  } else if (!fits_shared) {
    // Lossless: beyond the threshold the packet lands in headroom; only a full headroom drops.
    if (sl.headroom + bytes > ports_[port].headroom_bytes) return false;
    sl.headroom += bytes;
    return true;
  }
  shared_used_ += std::min(bytes, new_shared);
  sl.ingress = new_bytes;
  return true;
}

void SharedBufferMmu::release(std::uint16_t port, std::uint8_t prio, Bytes bytes, std::uint16_t) {
  Slot& sl = slots_[slot(port, prio)];
  Bytes from_headroom = std::min(sl.headroom, bytes);
  sl.headroom -= from_headroom;
  Bytes rest = bytes - from_headroom;
  Bytes shared_part = sl.ingress > cfg_.reserve_bytes ? sl.ingress - cfg_.reserve_bytes : 0;
  Bytes from_shared = std::min(rest, shared_part);
  shared_used_ -= from_shared;
  sl.ingress -= rest;
}

bool SharedBufferMmu::should_pause(std::uint16_t port, std::uint8_t prio) const {
  const Slot& sl = slots_[slot(port, prio)];
  if (sl.paused) return false;
  if (sl.headroom > 0) return true;
  if (cfg_.threshold == PfcThreshold::kStatic) return sl.ingress >= ports_[port].xoff_bytes;
  const Bytes shared = sl.ingress > cfg_.reserve_bytes ? sl.ingress - cfg_.reserve_bytes : 0;
  return shared >= slot_threshold(port, sl);
}

bool SharedBufferMmu::should_resume(std::uint16_t port, std::uint8_t prio) const {
  const Slot& sl = slots_[slot(port, prio)];
  if (!sl.paused || sl.headroom > 0) return false;
  if (cfg_.threshold == PfcThreshold::kStatic) return sl.ingress < ports_[port].xon_bytes;
  const Bytes used = sl.ingress > cfg_.reserve_bytes ? sl.ingress - cfg_.reserve_bytes : 0;
  return used == 0 || used + cfg_.resume_offset_bytes <= slot_threshold(port, sl);
}

}  // namespace lossless
