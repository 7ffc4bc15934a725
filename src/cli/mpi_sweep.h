// Sweeps over MPI ranks without linking MPI: each process learns its rank and the number of ranks from the
// environment mpirun gives it, runs its share of the cases, and hands results to rank 0 through files in the
// sweep's output directory (which every rank must see: one machine, or a shared filesystem on a cluster).
// So the same binary runs with or without MPI installed, and `mpirun -n N lossless sweep` needs nothing but
// Open MPI's mpirun at run time.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace lossless {

struct RankInfo {
  int rank = 0;
  int size = 1;     // 1: not under MPI (or one rank): the plain local sweep
  std::string job;  // the launcher's job id: names this run's exchange folder, so stale files never mix in
};

// Reads OMPI_COMM_WORLD_RANK/SIZE (Open MPI) or PMI_RANK/PMI_SIZE (MPICH, Intel MPI); the job id from
// PMIX_NAMESPACE or OMPI_MCA_ess_base_jobid, else "run". Throws ConfigError on malformed values.
RankInfo ranks_from_env(const std::function<const char*(const char*)>& env);
RankInfo ranks_from_env();

// The cases rank `rank` of `size` runs, largest first: the cases sorted by weight (descending; ties in file
// order), each given to the rank with the least weight so far (longest-processing-time-first). Every rank
// computes the same split from the same plan.
std::vector<std::size_t> cases_of_rank(const std::vector<double>& weights, int rank, int size);

// The folder under the sweep's output directory where ranks exchange records for this job.
std::string exchange_dir(const std::string& out_dir, const RankInfo& ri);
std::string record_path(const std::string& exchange, std::size_t case_index);
// Each rank announces itself; rank 0 waits (up to `timeout_s`) until every rank has, so that a folder the
// ranks do not share is reported at once instead of as a hang. Throws ConfigError naming the missing ranks.
void announce_rank(const std::string& exchange, const RankInfo& ri);
void wait_for_ranks(const std::string& exchange, const RankInfo& ri, double timeout_s);

}  // namespace lossless
