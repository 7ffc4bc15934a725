// A re-armable one-shot timer for per-flow state machines. Re-arming or cancelling bumps a generation, so a
// stale event finds a mismatch and does nothing (no heap removal needed). The owner must outlive its events:
// per-flow objects live until the end of the run.
#pragma once
#include <cstdint>

#include "core/simulator.h"

namespace lossless {

class Timer {
 public:
  using Callback = void (*)(void* owner);
  Timer() = default;
  Timer(void* owner, Callback cb) : owner_(owner), cb_(cb) {}

  template <class T, void (T::*Method)()>
  static Timer bind(T* owner) {
    return Timer(owner, [](void* o) { (static_cast<T*>(o)->*Method)(); });
  }

  void arm_at(Simulator& sim, TimePs at, EventPhase phase = EventPhase::kNormal) {
    ++gen_;
    armed_ = true;
    due_ = at;
    // Its offset from now is seldom one a lane serves (a NIC's pacing wake-up falls where the QP's rate puts
    // it), so one due soon goes straight to the near-event ring.
    sim.at_soon(at, &Timer::fire, this, gen_, phase);
  }
  void arm_after(Simulator& sim, TimePs delay, EventPhase phase = EventPhase::kNormal) {
    arm_at(sim, sim.now() + delay, phase);
  }
  void cancel() {
    ++gen_;
    armed_ = false;
  }
  bool armed() const { return armed_; }
  TimePs due() const { return due_; }

 private:
  static void fire(void* target, std::uint64_t gen) {
    auto* t = static_cast<Timer*>(target);
    if (gen != t->gen_ || !t->armed_) return;
    t->armed_ = false;
    t->cb_(t->owner_);
  }
  void* owner_ = nullptr;
  Callback cb_ = nullptr;
  std::uint64_t gen_ = 0;
  TimePs due_ = 0;
  bool armed_ = false;
};

}  // namespace lossless
