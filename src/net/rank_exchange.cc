#include "net/rank_exchange.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "core/error.h"
#include "net/network.h"

namespace lossless {
namespace {

struct Header {
  TimePs next_ps;
  std::uint64_t flows_completed;
  std::uint64_t events;
  TimePs last_ps;
  std::uint64_t failed;
  std::uint64_t signal;  // an interrupt of this rank (its signal), 0 if none
};

struct RecordHead {
  TimePs time;
  std::uint64_t order;
  TimePs offset;
  std::uint32_t node;
  std::uint16_t port;
  std::uint16_t unused;
};
// A packet's bytes from just after its one pointer (the intrusive link, rewritten by whoever queues it) to
// the end of the bytes the run reaches (Network::packet_bytes_in_use, the same on every rank): every field,
// the route (an offset, the same on every rank) and the slots the run's schemes placed. Not the whole
// struct: a pool packet cut to the run's layout ends there (PacketPool::fit_to_layout).
constexpr std::size_t kPacketFrom = sizeof(Packet*);
static_assert(offsetof(Packet, next) == 0, "a packet's pointer comes first: the rest travels as bytes");
static_assert(std::is_trivially_destructible_v<Packet>);
std::size_t packet_bytes(const Network& net) { return net.packet_bytes_in_use() - kPacketFrom; }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

RankExchange::RankExchange(RankLink& link, Network* net)
    : link_(link), net_(net), out_(static_cast<std::size_t>(link.size())), in_(out_.size()) {}

TimePs RankExchange::agree_on_start(TimePs mine) {
  std::uint64_t v[1] = {mine};
  link_.all_min(v);
  return v[0];
}

void RankExchange::pack(RankWindowState& mine) {
  for (auto& m : out_) m.resize(sizeof(Header));
  if (!net_) return;
  const int me = link_.rank();
  const std::size_t bytes = packet_bytes(*net_), record_bytes = sizeof(RecordHead) + bytes;
  for (std::size_t q = 0; q < net_->partitions(); ++q) {
    Partition& from = net_->partition(q);
    for (std::uint32_t gp = 0; gp < net_->global_partitions(); ++gp) {
      const int r = net_->rank_of_partition(gp);
      if (r == me) continue;
      std::vector<HandedOverEvent>& box = from.outbox[gp];
      if (box.empty()) continue;
      RankMessage& m = out_[static_cast<std::size_t>(r)];
      std::size_t at = m.size();
      m.resize(at + box.size() * record_bytes);
      for (const HandedOverEvent& h : box) {
        auto* p = reinterpret_cast<Packet*>(h.event.arg);
        const auto* to = static_cast<const Port*>(h.event.target);  // a stand-in naming the far port
        const RecordHead head{h.event.time, h.event.order, h.offset_ps, to->node, to->index, 0};
        std::memcpy(m.data() + at, &head, sizeof head);
        std::memcpy(m.data() + at + sizeof head, reinterpret_cast<const unsigned char*>(p) + kPacketFrom,
                    bytes);
        at += record_bytes;
        mine.next_ps = std::min(mine.next_ps, h.event.time);
        from.pool.put(p);
      }
      stats_.packets_sent += box.size();
      box.clear();
    }
  }
}

void RankExchange::unpack(const RankMessage& in) {
  LOSSLESS_CHECK(in.size() >= sizeof(Header), "a message between ranks without its header");
  if (in.size() == sizeof(Header)) return;
  LOSSLESS_CHECK(net_, "packets for a rank that runs no partition");
  const std::size_t bytes = packet_bytes(*net_), record_bytes = sizeof(RecordHead) + bytes;
  const std::size_t n = (in.size() - sizeof(Header)) / record_bytes;
  LOSSLESS_CHECK(sizeof(Header) + n * record_bytes == in.size(), "a message between ranks has a cut record");
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* rec = in.data() + sizeof(Header) + i * record_bytes;
    RecordHead head;
    std::memcpy(&head, rec, sizeof head);
    LOSSLESS_CHECK(head.node < net_->topology().nodes() && net_->is_local(head.node),
                   "a packet for a node of another rank");
    Partition& partition = net_->partition_of(head.node);
    Packet* p = partition.pool.get();
    std::memcpy(reinterpret_cast<unsigned char*>(p) + kPacketFrom, rec + sizeof head, bytes);
    LOSSLESS_CHECK(p->route_offset == kNoRoute || p->route_offset < net_->route_port_count(),
                   "a packet's route offset beyond the flows' routes");
    p->next = nullptr;
    p->in_port = head.port;
    partition.sim.at_handed_over(Event{head.time, head.order, net_->arrive_handler(head.node),
                                       net_->arrive_target(head.node), reinterpret_cast<std::uint64_t>(p)},
                                 head.offset);
  }
}

WindowDecision RankExchange::exchange(RankWindowState mine) {
  const auto t0 = std::chrono::steady_clock::now();
  pack(mine);
  const Header h{mine.next_ps, mine.flows_completed,  mine.events,
                 mine.last_ps, mine.failed ? 1u : 0u, static_cast<std::uint64_t>(mine.signal)};
  for (auto& m : out_) {
    std::memcpy(m.data(), &h, sizeof h);
    stats_.bytes_sent += m.size();
  }
  stats_.bytes_sent -= out_[static_cast<std::size_t>(link_.rank())].size();
  const auto t1 = std::chrono::steady_clock::now();
  stats_.pack_seconds += std::chrono::duration<double>(t1 - t0).count();
  link_.exchange(out_, in_);
  const auto t2 = std::chrono::steady_clock::now();
  stats_.exchange_seconds += std::chrono::duration<double>(t2 - t1).count();
  WindowDecision d{h.next_ps, h.flows_completed, h.events, h.last_ps, false, h.failed != 0, 0};
  std::vector<int> signals(in_.size(), 0);
  signals[static_cast<std::size_t>(link_.rank())] = static_cast<int>(h.signal);
  for (std::size_t r = 0; r < in_.size(); ++r) {
    if (static_cast<int>(r) == link_.rank()) continue;
    LOSSLESS_CHECK(in_[r].size() >= sizeof(Header), "a message between ranks without its header");
    Header other;
    std::memcpy(&other, in_[r].data(), sizeof other);
    d.next_ps = std::min(d.next_ps, other.next_ps);
    d.flows_completed += other.flows_completed;
    d.events += other.events;
    d.last_ps = std::max(d.last_ps, other.last_ps);
    d.failed = d.failed || other.failed != 0;
    signals[r] = static_cast<int>(other.signal);
    unpack(in_[r]);
  }
  // The lowest interrupted rank names the signal: every rank finds the same.
  for (int sig : signals)
    if (sig != 0) {
      d.interrupted = true;
      d.signal = sig;
      break;
    }
  ++stats_.windows;
  stats_.pack_seconds += seconds_since(t2);
  return d;
}

}  // namespace lossless
