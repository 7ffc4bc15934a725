// The input-and-output-queued switch (`switch.architecture: voq`, the switch of the RCM paper, NPC'17 §4.1):
// at every input port one virtual output queue (VOQ) per output port and priority, at every output port one
// output queue (OQ) per priority, every queue `switch.voq.queue_size` bytes (paper 100KB). That is the
// switch's memory: `switch.buffer` does not bound it (an output's OQ and its VOQs from n inputs may hold up
// to (n + 1) x queue_size per priority; EgressQueues::capacity).
//
// A packet admitted at input i for output o waits in VOQ(i, o, prio) until OQ(o, prio) has room for it; then
// a round-robin scheduler over the inputs (one packet per turn: the packets are one MTU) moves it into the OQ
// — instantly, a crossbar without speed limit —, and the OQ sends in FIFO order. So an output that cannot
// send (paused by its peer, or slower than what arrives) fills its OQ and then its own VOQs only: a flow to
// another output through the same input is not held up behind it (no head-of-line blocking between
// outputs), until PFC pauses the whole input.
//
// PFC, from each input toward its upstream neighbour, per priority: the buffer (VoqBuffer) accounts every
// VOQ. The standard policy asks it per (ingress, priority): should_pause when one VOQ of that ingress and
// priority holds at least xoff = queue_size - headroom of the ingress port (switch.pfc.headroom, auto = 3 x
// link BDP + 2 packets: what still arrives after the pause), should_resume once every VOQ of it holds at most
// xoff - switch.pfc.resume_offset. A VOQ never exceeds queue_size: beyond it a packet is dropped (counted;
// with enough headroom it does not happen). Without PFC (flow_control none) it is a tail drop at queue_size.
// A packet leaves the buffer's accounting when it moves to the OQ (EgressQueues::releases_ingress), which is
// when the policy may resume the input.
//
// RED/ECN as in the shared switch, at dequeue, on what EgressQueues::bytes(prio) reports: the bytes waiting
// for the port at that priority, OQ plus every VOQ toward it (`ecn_queue: waiting`, our choice) or the OQ
// alone (`output`).
//
// A mechanism may gate the scheduler of an output (VoqQueues::set_gate): RCM's regional congestion control
// holds back harmful flows there.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/time.h"
#include "net/packet.h"
#include "net/switch_architecture.h"

namespace lossless {

class Switch;

struct VoqParams {
  Bytes queue_size = 100'000;
  std::string ecn_queue = "waiting";

  template <class V>
  void visit(V& v) {
    v.size("queue_size", queue_size,
           "bytes of every queue: each VOQ (input, output, priority) and each output queue (output, "
           "priority) (paper 100KB)");
    v.require(queue_size >= 4096, "queue_size", "must hold at least a few packets (4KB)");
    v.choice("ecn_queue", ecn_queue, {"waiting", "output"},
             "what RED/ECN reads for (port, priority): waiting = its output queue plus every VOQ toward it; "
             "output = the output queue only (our choice: waiting)");
  }
};

// The VOQs' accounting and the PFC decisions (see the file comment).
class VoqBuffer final : public BufferModel {
 public:
  // `xoff_bytes` per ingress port (the pause threshold of each of its VOQs).
  VoqBuffer(std::size_t ports, Bytes queue_size, std::vector<Bytes> xoff_bytes, Bytes resume_offset_bytes);

  bool admit(std::uint16_t in_port, std::uint8_t prio, Bytes bytes, std::uint16_t out_port) override;
  void release(std::uint16_t in_port, std::uint8_t prio, Bytes bytes, std::uint16_t out_port) override;
  bool should_pause(std::uint16_t port, std::uint8_t prio) const override {
    const Ingress& g = ingress_[slot(port, prio)];
    return !g.paused && g.over_xoff > 0;
  }
  bool should_resume(std::uint16_t port, std::uint8_t prio) const override {
    const Ingress& g = ingress_[slot(port, prio)];
    return g.paused && g.over_xon == 0;
  }
  void set_paused(std::uint16_t port, std::uint8_t prio, bool paused) override {
    ingress_[slot(port, prio)].paused = paused;
  }
  bool paused(std::uint16_t port, std::uint8_t prio) const override {
    return ingress_[slot(port, prio)].paused;
  }
  Bytes ingress_bytes(std::uint16_t port, std::uint8_t prio) const override {
    return ingress_[slot(port, prio)].bytes;
  }
  // Room left in all VOQs together.
  Bytes free_bytes() const override { return capacity_ - used_; }

  Bytes voq_bytes(std::uint16_t in_port, std::uint16_t out_port, std::uint8_t prio) const {
    return voq_[(std::size_t{in_port} * ports_ + out_port) * kPriorities + prio];
  }
  Bytes xoff(std::uint16_t in_port) const { return xoff_[in_port]; }
  Bytes xon(std::uint16_t in_port) const {
    return xoff_[in_port] > resume_offset_ ? xoff_[in_port] - resume_offset_ : 0;
  }
  Bytes queue_size() const { return queue_size_; }

 private:
  static std::size_t slot(std::uint16_t port, std::uint8_t prio) {
    return std::size_t{port} * kPriorities + prio;
  }
  struct Ingress {
    Bytes bytes = 0;              // in all VOQs of this (input, priority)
    std::uint32_t over_xoff = 0;  // VOQs holding >= xoff
    std::uint32_t over_xon = 0;   // VOQs holding > xon
    bool paused = false;
  };
  std::size_t ports_;
  Bytes queue_size_;
  std::vector<Bytes> xoff_;
  Bytes resume_offset_;
  std::vector<Bytes> voq_;  // by (input, output, priority)
  std::vector<Ingress> ingress_;
  Bytes capacity_ = 0, used_ = 0;
};

// A mechanism's say over the scheduler from the VOQs to one output queue.
class VoqGate {
 public:
  enum class Verdict : std::uint8_t {
    kGo,          // may move now
    kIfNoneElse,  // may move only when no other input's head may (a lower priority)
    kWait,        // may not move before `retry_ps`
  };
  virtual ~VoqGate() = default;
  // May `head`, first in its VOQ, move into the output queue now? With kWait, set `retry_ps` to when it may
  // at the earliest (the switch looks again then if nothing else is sent before).
  virtual Verdict may_transfer(const Packet& head, TimePs now, TimePs& retry_ps) = 0;
  // `p` moved from its VOQ into the output queue; `output_bytes` is the output queue now (all priorities).
  virtual void transferred(const Packet& p, Bytes output_bytes) = 0;
};

// The queues toward one output port: its OQs and every input's VOQ for it (a VOQ belongs to its input: the
// buffer accounts it there; it lives here because only this output's scheduler takes from it).
class VoqQueues final : public EgressQueues {
 public:
  VoqQueues(Switch& sw, std::uint16_t port, std::size_t ports, Bytes queue_size, bool ecn_output_only);

  bool enqueue(Packet* p, std::uint16_t in_port) override;
  Packet* dequeue(std::uint8_t paused, TimePs now, TimePs& retry_ps) override;
  Bytes bytes(std::uint8_t prio) const override {
    const Prio& q = prio_[prio];
    return ecn_output_only_ ? q.oq.bytes() : q.waiting;
  }
  void for_each(const std::function<void(const Packet&)>& f) const override;
  // Each priority in use: its output queue and one VOQ per input, each at most queue_size (admission and the
  // transfer keep them so). switch.buffer does not bound them: the paper's switch gives every queue its own.
  Bytes capacity() const override {
    Bytes c = 0;
    for (const Prio& q : prio_)
      if (!q.voq.empty()) c += static_cast<Bytes>(q.voq.size() + 1) * queue_size_;
    return c;
  }

  // The output queue (all priorities) and the VOQ from one input (all priorities).
  Bytes output_bytes() const { return output_bytes_; }
  Bytes voq_bytes(std::uint16_t in_port) const { return in_bytes_[in_port]; }
  Bytes queue_size() const { return queue_size_; }
  std::uint16_t port() const { return port_; }
  // Installs (or, with null, removes) the gate of this output's scheduler.
  void set_gate(VoqGate* gate) { gate_ = gate; }

 private:
  // The inputs with a packet in their VOQ, in round-robin order (each at most once).
  class InputRing {
   public:
    bool empty() const { return count_ == 0; }
    std::size_t size() const { return count_; }
    std::uint16_t front() const { return slots_[head_]; }
    // The k-th input in turn (0 = front).
    std::uint16_t at(std::size_t k) const { return slots_[wrap(head_ + k)]; }
    void pop_front() {
      head_ = wrap(head_ + 1);
      --count_;
    }
    // Removes the k-th input; the ones behind it move up.
    void erase(std::size_t k) {
      for (std::size_t i = k; i + 1 < count_; ++i) slots_[wrap(head_ + i)] = slots_[wrap(head_ + i + 1)];
      --count_;
    }
    void push_back(std::uint16_t in) {
      std::size_t tail = head_ + count_;
      if (tail >= slots_.size()) tail -= slots_.size();
      slots_[tail] = in;
      ++count_;
    }
    void resize(std::size_t inputs) { slots_.assign(inputs, 0); }

   private:
    std::size_t wrap(std::size_t i) const { return i >= slots_.size() ? i - slots_.size() : i; }
    std::vector<std::uint16_t> slots_;
    std::size_t head_ = 0, count_ = 0;
  };
  struct Prio {
    PacketFifo oq;
    std::vector<PacketFifo> voq;  // by input port (sized when the priority is first used)
    InputRing active;
    Bytes waiting = 0;  // OQ plus VOQs
  };
  // Moves packets into OQ(prio) while it has room, round-robin over the inputs (the gate may hold some back:
  // the first input in turn that may go goes); returns when a held head may move (kTimeNever if none waits).
  TimePs transfer(std::uint8_t prio, TimePs now);

  Switch& sw_;
  std::uint16_t port_;
  std::size_t ports_;
  Bytes queue_size_;
  bool ecn_output_only_;
  VoqGate* gate_ = nullptr;
  std::vector<Prio> prio_;
  std::vector<Bytes> in_bytes_;  // VOQ bytes by input (all priorities)
  Bytes output_bytes_ = 0;
  std::uint8_t oq_nonempty_ = 0;   // bit q: OQ(q) holds a packet
  std::uint8_t voq_nonempty_ = 0;  // bit q: a VOQ of priority q holds a packet
  std::uint8_t rr_next_ = 1;       // round-robin over priorities, as Port::dequeue
};

}  // namespace lossless
