// One run split over processes (MPI ranks, each with its own memory): what the windowed run of a fabric and
// its set-up need from the processes' communication layer. The implementation over MPI is one translation
// unit (core/mpi_rank_link.cc), compiled only when the build links MPI (CMake option LOSSLESS_MPI); it
// registers itself from a static initialiser, so nothing else names MPI. A build without it has no link, and
// a launch with several ranks is refused (cli/main.cc).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace lossless {

using RankMessage = std::vector<unsigned char>;

class RankLink {
 public:
  virtual ~RankLink() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // One round of messages between every pair of ranks: out[r] goes to rank r (an empty message too;
  // out[rank()] is ignored), in[r] receives what rank r sent here. Every rank calls it the same number of
  // times.
  virtual void exchange(const std::vector<RankMessage>& out, std::vector<RankMessage>& in) = 0;
  // Element-wise over every rank's values; the result on every rank.
  virtual void all_min(std::span<std::uint64_t> v) = 0;
  virtual void all_max(std::span<std::uint64_t> v) = 0;
  virtual void all_sum(std::span<std::uint64_t> v) = 0;
  // Every rank's bytes, in rank order, on rank 0 (an empty list on the others).
  virtual std::vector<RankMessage> gather(const RankMessage& mine) = 0;
  // Ends every rank's process at once with `status` (a rank failed in a way the others cannot learn of).
  [[noreturn]] virtual void abort(int status) = 0;
};

// The link of this process when an MPI launcher started it as one of several ranks and this build links MPI;
// null otherwise (one rank, no launcher, or no MPI in the build: the caller tells the last two apart).
std::unique_ptr<RankLink> open_rank_link(int& argc, char**& argv);
// Whether this build links MPI.
bool rank_link_available();

// The MPI translation unit's registration (its static initialiser calls it).
using RankLinkOpener = std::unique_ptr<RankLink> (*)(int& argc, char**& argv);
bool register_rank_link(RankLinkOpener opener);

// A step that failed on at least one rank, thrown on every rank by on_every_rank: the exit status (2 for a
// bad input, 1 for an internal error) and, on rank 0 only, the message to print (the failing rank's, the
// lowest one's when several failed).
class RanksFailed : public std::runtime_error {
 public:
  RanksFailed(int status, const std::string& message, bool config_error)
      : std::runtime_error(message), status(status), config_error(config_error) {}
  int status;
  bool config_error;  // the message is a bad input's (ConfigError), not an internal error's
};

// Runs `step` on this rank; if it threw on any rank (a ConfigError: status 2; anything else: 1), throws
// RanksFailed on every rank, so that no rank goes on to wait for one that stopped. With `link` null, runs
// `step` alone.
void on_every_rank(RankLink* link, const std::function<void()>& step);

}  // namespace lossless
