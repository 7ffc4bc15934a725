#include "net/shared_buffer_mmu.h"

#include <algorithm>

#include "core/error.h"

namespace lossless {

void SharedBufferMmu::own_accounts(std::size_t ports) {
  storage_ = std::make_shared<Slot[]>(ports * kPriorities);
  slots_ = storage_.get();
  stride_ = ports;
}

SharedBufferMmu::SharedBufferMmu(const SharedBufferMmu& other) { *this = other; }

SharedBufferMmu& SharedBufferMmu::operator=(const SharedBufferMmu& other) {
  if (this == &other) return *this;
  cfg_ = other.cfg_;
  ports_ = other.ports_;
  shared_pool_ = other.shared_pool_;
  shared_used_ = other.shared_used_;
  total_headroom_ = other.total_headroom_;
  total_reserve_ = other.total_reserve_;
  lossless_ = other.lossless_;
  own_accounts(ports_.size());
  for (std::size_t port = 0; port < ports_.size(); ++port)
    for (std::uint8_t prio = 0; prio < kPriorities; ++prio) {
      const auto p = static_cast<std::uint16_t>(port);
      slots_[slot(p, prio)] = other.slots_[other.slot(p, prio)];
    }
  return *this;
}

void SharedBufferMmu::AccountSlab::count_ports(std::size_t ports) {
  LOSSLESS_CHECK(!storage_, "a switch counted into an account slab already taken from");
  ports_ += ports;
}

SharedBufferMmu::SharedBufferMmu(const SwitchConfig& cfg, const std::vector<PortSetup>& ports, bool lossless,
                                 AccountSlab* slab)
    : cfg_{cfg.threshold, cfg.reserve_bytes, cfg.resume_offset_bytes}, ports_(ports), lossless_(lossless) {
  if (slab) {
    LOSSLESS_CHECK(slab->taken_ + ports.size() <= slab->ports_, "an account slab smaller than its switches");
    if (!slab->storage_) slab->storage_ = std::make_shared<Slot[]>(slab->ports_ * kPriorities);
    storage_ = slab->storage_;
    slots_ = storage_.get() + slab->taken_;
    stride_ = slab->ports_;
    slab->taken_ += ports.size();
  } else {
    own_accounts(ports.size());
  }
  for (std::size_t port = 0; port < ports_.size(); ++port)
    for (std::uint8_t prio = 0; prio < kPriorities; ++prio) {
      Slot& sl = slots_[slot(static_cast<std::uint16_t>(port), prio)];
      sl = Slot{};
      sl.alpha = ports_[port].alpha;
    }
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
  return static_cast<Bytes>(static_cast<double>(free_bytes()) * ports_[port].alpha);
}

}  // namespace lossless
