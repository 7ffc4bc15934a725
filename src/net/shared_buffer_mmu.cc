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
  return static_cast<Bytes>(static_cast<double>(free_bytes()) * ports_[port].alpha);
}

}  // namespace lossless
