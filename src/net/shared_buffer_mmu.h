// Shared-buffer switch memory, accounted per (ingress port, priority): first a private reserve, then the
// shared pool up to the PFC threshold, then the port's headroom (which absorbs what is in flight after a
// pause). Follows the Broadcom-style model of the HPCC simulator's SwitchMmu; see docs/model.md.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/time.h"
#include "net/config.h"
#include "net/packet.h"
#include "net/switch_architecture.h"

namespace lossless {

// The switch's packet path calls it as this final class (no virtual calls); schemes reach it as a
// BufferModel.
class SharedBufferMmu final : public BufferModel {
 public:
  struct PortSetup {
    Bytes headroom_bytes;
    double alpha;  // dynamic-threshold factor of this port
    // Static thresholds of this ingress port (SwitchConfig::static_xoff / static_xon of its link rate).
    Bytes xoff_bytes = 0, xon_bytes = 0;
  };
  class AccountSlab;
  SharedBufferMmu() = default;
  // `lossless`: beyond the threshold packets go to headroom (the flow-control policy pauses); else tail drop.
  // With a slab, the accounts live there (with those of the slab's other switches); else in their own memory.
  // A copy has accounts of its own (Accounts).
  SharedBufferMmu(const SwitchConfig& cfg, const std::vector<PortSetup>& ports, bool lossless,
                  AccountSlab* slab = nullptr);

  // Accounts an arriving packet; false means it must be dropped (nothing is accounted then). The shared
  // buffer does not depend on the egress port.
  bool admit(std::uint16_t port, std::uint8_t prio, Bytes bytes, std::uint16_t out_port = 0) override;
  void release(std::uint16_t port, std::uint8_t prio, Bytes bytes, std::uint16_t out_port = 0) override;

  bool should_pause(std::uint16_t port, std::uint8_t prio) const override;
  // True when admitting `bytes` to (port, prio) and releasing them right after would change nothing: the
  // account stays within its reserve (the shared pool is not touched), holds no headroom, has not paused its
  // upstream, and should_pause would answer false after the admit (so should_resume answers false after the
  // release). A packet that leaves at once then needs no accounting (SwitchPath::receive).
  bool passes_unaccounted(std::uint16_t port, std::uint8_t prio, Bytes bytes) const;
  bool should_resume(std::uint16_t port, std::uint8_t prio) const override;
  void set_paused(std::uint16_t port, std::uint8_t prio, bool paused) override {
    bool& was = acc_.base[slot(port, prio)].paused;
    paused_accounts_ += static_cast<std::uint32_t>(paused) - static_cast<std::uint32_t>(was);
    was = paused;
  }
  // Nothing held in any account and no upstream paused: every account is as it started. Then a packet of at
  // most empty_pass_bytes_ passes unaccounted on any port (every port's should_pause answers false for it),
  // which passes_unaccounted answers from these two counters in the switch's own lines, without the ingress
  // account's line (at fattree k = 32 one cache miss in two of a switch hop's: docs/performance.md
  // "Twenty-third pass").
  bool holds_nothing() const { return held_bytes_ == 0 && paused_accounts_ == 0; }
  // Starts fetching the account of (port, prio) (SwitchPath::prefetch_arrival).
  [[gnu::always_inline]] void prefetch_account(std::uint16_t port, std::uint8_t prio) const {
    __builtin_prefetch(account_address(port, prio));
  }
  // Where the account of (port, prio) is (its layout: AccountSlab).
  const void* account_address(std::uint16_t port, std::uint8_t prio) const {
    return &acc_.base[slot(port, prio)];
  }
  bool paused(std::uint16_t port, std::uint8_t prio) const override {
    return acc_.base[slot(port, prio)].paused;
  }
  // A min, not `used < pool ? pool - used : 0`: gcc made that a branch in the packet path, where with the
  // tests around it it mispredicted ~1.4 M times in fat320 DCQCN's first 0.6 ms (cachegrind; -2 to -7 % wall,
  // 4 ms run). Called on this final class, it is inlined.
  Bytes free_bytes() const override { return shared_pool_ - std::min(shared_used_, shared_pool_); }

  Bytes threshold(std::uint16_t port) const;
  Bytes shared_used(std::uint16_t port, std::uint8_t prio) const {
    return beyond_reserve(acc_.base[slot(port, prio)]);
  }
  Bytes ingress_bytes(std::uint16_t port, std::uint8_t prio) const override {
    return acc_.base[slot(port, prio)].ingress;
  }
  Bytes headroom_used(std::uint16_t port, std::uint8_t prio) const {
    return acc_.base[slot(port, prio)].headroom;
  }
  Bytes shared_pool_bytes() const { return shared_pool_; }
  Bytes total_shared_used() const { return shared_used_; }
  Bytes total_headroom_bytes() const { return total_headroom_; }
  Bytes total_reserve_bytes() const { return total_reserve_; }
  // Private bytes per (ingress port, priority), and the headroom of a port (0 on a lossy fabric).
  Bytes reserve_bytes() const { return cfg_.reserve_bytes; }
  Bytes port_headroom_bytes(std::uint16_t port) const { return lossless_ ? ports_[port].headroom_bytes : 0; }
  std::size_t port_count() const { return ports_.size(); }

 private:
  // Priority-major, `acc_.stride` accounts apart: a fabric's packets are nearly all of one or two priorities,
  // and in a slab the accounts of one priority of all its switches' ports are side by side (a few hundred 4
  // KiB pages at 8,192 hosts, where the switches' own allocations put every switch's on a page of its own: a
  // page walk per packet-hop in three, docs/performance.md "Fourteenth pass").
  std::size_t slot(std::uint16_t port, std::uint8_t prio) const {
    return std::size_t{prio} * acc_.stride + port;
  }

  // What it needs of the switch configuration, together (read for every packet).
  struct Thresholds {
    PfcThreshold threshold = PfcThreshold::kDynamic;
    Bytes reserve_bytes = 0, resume_offset_bytes = 0;
  };
  Thresholds cfg_;
  std::vector<PortSetup> ports_;
  // Per (ingress port, priority), together so that one packet's accounting touches one cache line: two slots
  // per line, with a copy of the port's dynamic-threshold factor (ports_ is not read per packet).
  struct alignas(32) Slot {
    Bytes ingress = 0;    // bytes held in reserve + shared
    Bytes headroom = 0;   // bytes held in headroom
    double alpha = 0;     // ports_[port].alpha
    bool paused = false;  // we have paused the upstream
  };
  // The threshold of the slot's port (threshold(port) without reading ports_).
  Bytes slot_threshold(std::uint16_t port, const Slot& sl) const;
  // The slot's bytes in the shared pool (beyond its reserve). As a min, not a ternary gcc makes a
  // mispredicted branch in the packet path (see free_bytes()).
  Bytes beyond_reserve(const Slot& sl) const { return sl.ingress - std::min(sl.ingress, cfg_.reserve_bytes); }
  // Where the accounts are (their own memory or a slab's). A copy owns a copy of them: a slab's are shared
  // only by the switches that took them from it.
  struct Accounts {
    Accounts() = default;
    Accounts(std::size_t port_count, AccountSlab* slab);
    Accounts(const Accounts& other);
    Accounts& operator=(const Accounts& other);
    Accounts(Accounts&&) = default;
    Accounts& operator=(Accounts&&) = default;
    std::shared_ptr<Slot[]> storage;
    Slot* base = nullptr;    // the account of (port 0, priority 0)
    std::size_t stride = 0;  // accounts between one priority's and the next
    std::size_t ports = 0;
  };
  Accounts acc_;
  Bytes shared_pool_ = 0;
  Bytes shared_used_ = 0;
  Bytes total_headroom_ = 0;
  Bytes total_reserve_ = 0;
  Bytes held_bytes_ = 0;               // in all accounts, reserve, shared pool and headroom
  std::uint32_t paused_accounts_ = 0;  // accounts that have paused their upstream
  // A packet of at most this many bytes passes unaccounted whenever the buffer holds nothing: the reserve,
  // below every port's static Xoff, or 0 when some port's dynamic threshold of the whole pool is below a
  // byte.
  Bytes empty_pass_bytes_ = 0;
  bool lossless_ = true;
};

// The accounts of the shared buffers of several switches (a partition's) in one allocation, priority-major
// over all of them. Count every switch's ports first, then each takes its own.
class SharedBufferMmu::AccountSlab {
 public:
  void count_ports(std::size_t ports);

 private:
  friend class SharedBufferMmu;
  std::shared_ptr<Slot[]> storage_;
  std::size_t ports_ = 0;
  std::size_t taken_ = 0;
};

// The packet path's calls, inline: the switch path calls them on this final class for every packet (and
// HPCC's ACKs, at data priority, pass the buffer too); out of line they were ~35 instructions a packet-hop
// of calls, argument moves and reloads of the slot (cachegrind, fat320).
[[gnu::always_inline]] inline Bytes SharedBufferMmu::slot_threshold(std::uint16_t port,
                                                                    const Slot& sl) const {
  if (cfg_.threshold == PfcThreshold::kStatic) return ports_[port].xoff_bytes;
  return static_cast<Bytes>(static_cast<double>(free_bytes()) * sl.alpha);
}

[[gnu::always_inline]] inline bool SharedBufferMmu::admit(std::uint16_t port, std::uint8_t prio, Bytes bytes,
                                                          std::uint16_t) {
  Slot& sl = acc_.base[slot(port, prio)];
  Bytes new_bytes = sl.ingress + bytes;
  if (new_bytes <= cfg_.reserve_bytes) {
    sl.ingress = new_bytes;
    held_bytes_ += bytes;
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
    held_bytes_ += bytes;
    return true;
  }
  shared_used_ += std::min(bytes, new_shared);
  sl.ingress = new_bytes;
  held_bytes_ += bytes;
  return true;
}

[[gnu::always_inline]] inline void SharedBufferMmu::release(std::uint16_t port, std::uint8_t prio,
                                                            Bytes bytes, std::uint16_t) {
  Slot& sl = acc_.base[slot(port, prio)];
  Bytes from_headroom = std::min(sl.headroom, bytes);
  sl.headroom -= from_headroom;
  Bytes rest = bytes - from_headroom;
  Bytes from_shared = std::min(rest, beyond_reserve(sl));
  shared_used_ -= from_shared;
  sl.ingress -= rest;
  held_bytes_ -= bytes;
}

[[gnu::always_inline]] inline bool SharedBufferMmu::should_pause(std::uint16_t port,
                                                                 std::uint8_t prio) const {
  const Slot& sl = acc_.base[slot(port, prio)];
  if (sl.paused) return false;
  if (sl.headroom > 0) return true;
  if (cfg_.threshold == PfcThreshold::kStatic) return sl.ingress >= ports_[port].xoff_bytes;
  const double threshold = static_cast<double>(free_bytes()) * sl.alpha;  // slot_threshold before truncation
  // Nothing in the shared pool (the common case below saturation) reaches the threshold only when it
  // truncates to 0, i.e. is below 1 (alpha > 0): the same answer without the conversion back.
  if (sl.ingress <= cfg_.reserve_bytes) return threshold < 1.0;
  return sl.ingress - cfg_.reserve_bytes >= static_cast<Bytes>(threshold);
}

[[gnu::always_inline]] inline bool SharedBufferMmu::passes_unaccounted(std::uint16_t port, std::uint8_t prio,
                                                                       Bytes bytes) const {
  if (holds_nothing() && bytes <= empty_pass_bytes_) return true;
  const Slot& sl = acc_.base[slot(port, prio)];
  const Bytes after = sl.ingress + bytes;
  if (sl.paused || sl.headroom > 0 || after > cfg_.reserve_bytes) return false;
  // should_pause's answer with `after` in the account, within the reserve.
  if (cfg_.threshold == PfcThreshold::kStatic) return after < ports_[port].xoff_bytes;
  return !(static_cast<double>(free_bytes()) * sl.alpha < 1.0);
}

[[gnu::always_inline]] inline bool SharedBufferMmu::should_resume(std::uint16_t port,
                                                                  std::uint8_t prio) const {
  const Slot& sl = acc_.base[slot(port, prio)];
  if (!sl.paused || sl.headroom > 0) return false;
  if (cfg_.threshold == PfcThreshold::kStatic) return sl.ingress < ports_[port].xon_bytes;
  const Bytes used = beyond_reserve(sl);
  return used == 0 || used + cfg_.resume_offset_bytes <= slot_threshold(port, sl);
}

}  // namespace lossless
