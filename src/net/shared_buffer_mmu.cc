#include "net/shared_buffer_mmu.h"

#include <algorithm>

#include "core/error.h"

namespace lossless {

void SharedBufferMmu::AccountSlab::count_ports(std::size_t ports) {
  LOSSLESS_CHECK(!storage_, "a switch counted into an account slab already taken from");
  ports_ += ports;
}

SharedBufferMmu::Accounts::Accounts(std::size_t port_count, AccountSlab* slab) : ports(port_count) {
  if (slab) {
    LOSSLESS_CHECK(slab->taken_ + ports <= slab->ports_, "an account slab smaller than its switches");
    if (!slab->storage_) slab->storage_ = std::make_shared<Slot[]>(slab->ports_ * kPriorities);
    storage = slab->storage_;
    base = storage.get() + slab->taken_;
    stride = slab->ports_;
    slab->taken_ += ports;
  } else {
    storage = std::make_shared<Slot[]>(ports * kPriorities);
    base = storage.get();
    stride = ports;
  }
}

SharedBufferMmu::Accounts::Accounts(const Accounts& other) : Accounts(other.ports, nullptr) {
  for (std::size_t prio = 0; prio < kPriorities; ++prio)
    for (std::size_t port = 0; port < ports; ++port)
      base[prio * stride + port] = other.base[prio * other.stride + port];
}

SharedBufferMmu::Accounts& SharedBufferMmu::Accounts::operator=(const Accounts& other) {
  if (this != &other) *this = Accounts(other);
  return *this;
}

SharedBufferMmu::SharedBufferMmu(const SwitchConfig& cfg, const std::vector<PortSetup>& ports, bool lossless,
                                 AccountSlab* slab)
    : cfg_{cfg.threshold, cfg.reserve_bytes, cfg.resume_offset_bytes}, ports_(ports), lossless_(lossless) {
  acc_ = Accounts(ports.size(), slab);
  for (std::size_t port = 0; port < ports_.size(); ++port)
    for (std::uint8_t prio = 0; prio < kPriorities; ++prio) {
      Slot& sl = acc_.base[slot(static_cast<std::uint16_t>(port), prio)];
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
  empty_pass_bytes_ = cfg_.reserve_bytes;
  for (const auto& p : ports_) {
    if (cfg_.threshold == PfcThreshold::kStatic)
      empty_pass_bytes_ = std::min(empty_pass_bytes_, p.xoff_bytes > 0 ? p.xoff_bytes - 1 : 0);
    else if (static_cast<double>(shared_pool_) * p.alpha < 1.0)
      empty_pass_bytes_ = 0;
  }
}

Bytes SharedBufferMmu::threshold(std::uint16_t port) const {
  if (cfg_.threshold == PfcThreshold::kStatic) return ports_[port].xoff_bytes;
  return static_cast<Bytes>(static_cast<double>(free_bytes()) * ports_[port].alpha);
}

}  // namespace lossless
