// The recording `lossless view` draws (monitor.fabric): every port's queue and paused priorities and every
// active flow's delivered bytes, sampled every `interval`, plus the fabric and the flows' paths.
//
// fabric.bin (little-endian): the header "LLFABRIC", u32 version (1), u32 ports, u32 flows, u64 interval_ps;
// then per sample: u64 time_ps, u32 n, n x {u32 port, u32 queue_bytes (saturated), u8 paused_mask} for the
// ports whose queue or pause state changed since the previous sample (all of them in the first), u32 m, m x
// {u32 flow, u32 bytes delivered in the interval} for the flows alive in it. fabric.json: the format and
// version, the interval, the number of samples and the size of fabric.bin, the nodes (name, kind, tier: hosts
// 0, then hops from the nearest host), the ports in the order fabric.bin numbers them ([node, port, peer
// node, peer port, rate in b/s, delay in ns]) and the flows ([id, src, dst, size, start ns, finish ns or
// null, path: the ports the data leaves by, as indices into ports]). Written through the run's staging folder
// like every output.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "net/network.h"
#include "stats/output_file.h"

namespace lossless {

class FabricMonitor {
 public:
  static constexpr std::uint32_t kVersion = 1;

  FabricMonitor(Network& net, TimePs interval_ps, const std::string& json_path, const std::string& bin_path);
  void start(TimePs until);
  // Writes fabric.json and closes fabric.bin (write errors surface here).
  void finish();

 private:
  static void sample_event(void* target, std::uint64_t);
  void sample();
  template <class T>
  void put(T v) {
    std::fwrite(&v, sizeof v, 1, bin_.f());
    bin_bytes_ += sizeof v;
  }

  Network& net_;
  TimePs interval_ps_;
  TimePs until_ = 0;
  std::string json_path_;
  std::vector<const Port*> ports_;        // hosts' NIC ports, then every switch's, in node order
  std::vector<std::uint32_t> port_base_;  // node -> index of its port 0 in ports_
  std::vector<std::uint32_t> last_queue_;
  std::vector<std::uint8_t> last_pause_;
  std::vector<std::uint32_t> by_start_;  // flow ids in start order
  std::size_t next_start_ = 0;
  std::vector<std::uint32_t> active_;  // flows started and not yet reported finished
  std::vector<Bytes> last_delivered_;
  std::uint64_t samples_ = 0;
  std::uint64_t bin_bytes_ = 0;
  std::vector<std::uint32_t> change_port_;  // scratch: one sample's changes
  OutputFile bin_;
};

}  // namespace lossless
