// RankLink over MPI: the only file that names MPI, compiled when the build links it (CMake LOSSLESS_MPI).
// MPI is initialised only when the launcher started several ranks, and funnelled: the thread that opened the
// link (the main thread, which runs a rank's first partition) is the only one that calls MPI. Errors of MPI
// itself stay fatal to the whole job (MPI_ERRORS_ARE_FATAL), and a rank that dies makes the launcher end the
// others: no rank waits forever for a message that cannot come.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <string>

#include "core/error.h"
#include "core/interrupt.h"
#include "core/rank_link.h"

namespace lossless {
namespace {

constexpr int kExchangeTag = 29;

int env_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return 1;
}

int checked_count(std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw InternalError("a message between ranks is larger than MPI counts (2^31 - 1 bytes)");
  return static_cast<int>(n);
}

class MpiRankLink final : public RankLink {
 public:
  MpiRankLink(int& argc, char**& argv) {
    int provided = 0;
    // MPI's own threads must not take our SIGINT / SIGTERM (core/interrupt.h).
    const InterruptsBlockedInNewThreads main_thread_only;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiRankLink() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void exchange(const std::vector<RankMessage>& out, std::vector<RankMessage>& in) override {
    std::vector<MPI_Request> sends;
    sends.reserve(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) {
      if (r == rank_) continue;
      const RankMessage& m = out[static_cast<std::size_t>(r)];
      sends.emplace_back();
      MPI_Isend(m.data(), checked_count(m.size()), MPI_BYTE, r, kExchangeTag, MPI_COMM_WORLD, &sends.back());
    }
    in.resize(static_cast<std::size_t>(size_));
    // One message per pair and round, and MPI keeps a pair's messages in order: the first from rank r is
    // this round's.
    for (int r = 0; r < size_; ++r) {
      RankMessage& m = in[static_cast<std::size_t>(r)];
      if (r == rank_) {
        m.clear();
        continue;
      }
      MPI_Message msg;
      MPI_Status st;
      MPI_Mprobe(r, kExchangeTag, MPI_COMM_WORLD, &msg, &st);
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      m.resize(static_cast<std::size_t>(count));
      MPI_Mrecv(m.data(), count, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    }
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  }

  void all_min(std::span<std::uint64_t> v) override { reduce(v, MPI_MIN); }
  void all_max(std::span<std::uint64_t> v) override { reduce(v, MPI_MAX); }
  void all_sum(std::span<std::uint64_t> v) override { reduce(v, MPI_SUM); }

  std::vector<RankMessage> gather(const RankMessage& mine) override {
    int n = checked_count(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(size_));
    MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
    std::size_t total = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      offsets[r] = checked_count(total);
      total += static_cast<std::size_t>(sizes[r]);
    }
    checked_count(total);
    RankMessage all(rank_ == 0 ? total : 0);
    MPI_Gatherv(mine.data(), n, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0,
                MPI_COMM_WORLD);
    std::vector<RankMessage> out;
    if (rank_ != 0) return out;
    for (std::size_t r = 0; r < sizes.size(); ++r)
      out.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + sizes[r]);
    return out;
  }

  [[noreturn]] void abort(int status) override {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);  // MPI_Abort does not return; this tells the compiler so
  }

 private:
  void reduce(std::span<std::uint64_t> v, MPI_Op op) {
    MPI_Allreduce(MPI_IN_PLACE, v.data(), checked_count(v.size()), MPI_UINT64_T, op, MPI_COMM_WORLD);
  }

  int rank_ = 0;
  int size_ = 1;
};

std::unique_ptr<RankLink> open_mpi(int& argc, char**& argv) {
  if (env_size() <= 1) return nullptr;
  return std::make_unique<MpiRankLink>(argc, argv);
}

const bool kRegistered [[maybe_unused]] = register_rank_link(&open_mpi);

}  // namespace
}  // namespace lossless
