#include "cli/sweep_run.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/mpi_sweep.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "scenario/runner.h"
#include "stats/writers.h"

namespace lossless {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kCaseColumn = 18;       // print_comparison's width of the case column
constexpr double kRankStartTimeoutS = 120.0;  // how long rank 0 waits for the others to show up

using OnDone = std::function<void(std::size_t, const CaseOutcome&)>;

// Runs the cases `which` (in that order) on `jobs` threads; `on_done` sees each outcome as it ends.
std::vector<CaseOutcome> run_cases(const SweepPlan& plan, const std::vector<std::size_t>& which,
                                   const SweepRunOptions& o, const RankInfo& ri, const OnDone& on_done,
                                   std::vector<CaseOutcome> outcomes) {
  outcomes.resize(plan.cases.size());
  std::atomic<std::size_t> next{0};
  std::mutex print_mu;
  const std::string who =
      ri.size > 1 ? "[lossless] rank " + std::to_string(ri.rank) + ": case " : "[lossless] case ";
  auto worker = [&] {
    for (std::size_t n; (n = next++) < which.size();) {
      const std::size_t i = which[n];
      const SweepCase& k = plan.cases[i];
      CaseOutcome& c = outcomes[i];
      c.name = k.name;
      if (c.resumed) continue;
      c.rank = ri.rank;
      if (interrupt_requested()) {
        c.interrupted = true;
        continue;
      }
      try {
        if (!k.error.empty()) throw ConfigError("", "", k.error);
        if (!o.quiet) {
          std::lock_guard lock(print_mu);
          std::fprintf(stderr, "%s%s ...\n", who.c_str(), k.name.c_str());
        }
        Scenario sc = load_scenario(plan.base_scenario, k.overrides);
        if (!sc.warnings.empty() && ri.rank == 0) {
          std::lock_guard lock(print_mu);
          for (const ConfigError& w : sc.warnings)
            std::fprintf(stderr, "lossless: warning: %s\n", case_warning(o.file, k.name, w).c_str());
        }
        sc.warnings.clear();  // printed here, with the case's name, not again by run_scenario
        RunOptions opts;
        opts.quiet = o.quiet || o.jobs > 1;
        opts.check = o.check;
        c.result = run_scenario(sc, opts);
        c.ok = true;
        c.error.clear();
        if (!o.quiet) {
          std::lock_guard lock(print_mu);
          std::fprintf(stderr, "%s%s done in %.1f s\n", who.c_str(), k.name.c_str(), c.result.wall_seconds);
        }
      } catch (const Interrupted&) {
        c.interrupted = true;
        c.error = "interrupted";
      } catch (const ConfigError& e) {
        c.bad_input = true;
        c.error = e.what();
      } catch (const YAML::Exception& e) {
        c.bad_input = true;
        c.error = e.what();
      } catch (const std::exception& e) {
        c.error = e.what();
      }
      if (!c.ok && !c.interrupted && !o.quiet) {
        std::lock_guard lock(print_mu);
        std::fprintf(stderr, "%s%s failed\n", who.c_str(), k.name.c_str());
      }
      std::lock_guard lock(print_mu);
      on_done(i, c);
    }
  };
  std::vector<std::thread> threads;
  {
    const InterruptsBlockedInNewThreads main_thread_only;
    for (int j = 0; j < std::min<int>(o.jobs, static_cast<int>(which.size())); ++j)
      threads.emplace_back(worker);
  }
  for (auto& t : threads) t.join();
  return outcomes;
}

// Rank 0 collects every case's record as the ranks write them (no timeout: a rank that dies takes the whole
// job down with it under mpirun).
std::vector<CaseOutcome> gather(const std::string& exchange, std::size_t n) {
  std::vector<CaseOutcome> outcomes(n);
  std::vector<bool> have(n, false);
  for (std::size_t left = n; left > 0;) {
    for (std::size_t i = 0; i < n; ++i)
      if (!have[i] && fs::exists(record_path(exchange, i))) {
        outcomes[i] = read_case_record(record_path(exchange, i));
        have[i] = true;
        --left;
      }
    if (left > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return outcomes;
}

const char* status_of(const CaseOutcome& c) {
  if (c.ok) return "ok";
  if (c.interrupted) return c.error.empty() ? "not run" : "interrupted";
  if (c.error.empty()) return "not run";
  return "failed";
}

// Written after every case (through a temporary file and a rename: a reader sees the old or the new one).
void write_sweep_json(const SweepPlan& plan, const SweepRunOptions& o, const RankInfo& ri,
                      const std::vector<CaseOutcome>& outcomes) {
  std::error_code ec;
  fs::create_directories(plan.out_dir, ec);
  std::ostringstream os;
  os << "{\"sweep\": " << json_quote(o.file) << ", \"base_scenario\": " << json_quote(plan.base_scenario)
     << ", \"ranks\": " << ri.size << ",\n \"cases\": [";
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const CaseOutcome& c = outcomes[i];
    const std::string name = c.name.empty() ? plan.cases[i].name : c.name;
    os << (i ? ",\n  " : "\n  ") << "{\"name\": " << json_quote(name)
       << ", \"dir\": " << json_quote(plan.cases[i].overrides.out_dir)
       << ", \"ok\": " << (c.ok ? "true" : "false") << ", \"status\": \"" << status_of(c)
       << "\", \"rank\": " << c.rank << ", \"error\": " << json_quote(c.error);
    if (c.ok) {
      std::string record = case_record_json(c);
      while (!record.empty() && record.back() == '\n') record.pop_back();
      os << ",\n   \"record\": " << record;
    }
    os << "}";
  }
  os << "]}\n";
  const fs::path path = fs::path(plan.out_dir) / "sweep.json";
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) {  // a device or pipe: written as it is
    write_text(path.string(), os.str());
    return;
  }
  write_text(path.string() + ".tmp", os.str());
  fs::rename(path.string() + ".tmp", path, ec);
  if (ec) throw ConfigError(path.string(), "", "cannot write: " + ec.message());
}

// The cases an earlier sweep into OUT completed: ok in its sweep.json, with a record, and their summary.json
// still in place (a case folder someone emptied runs again).
std::vector<CaseOutcome> completed_cases(const SweepPlan& plan, const std::string& sweep_file, bool quiet) {
  std::vector<CaseOutcome> outcomes(plan.cases.size());
  const fs::path path = fs::path(plan.out_dir) / "sweep.json";
  if (!fs::exists(path)) {
    if (!quiet)
      std::fprintf(stderr, "[lossless] --resume: %s has no sweep.json yet: every case runs\n",
                   plan.out_dir.c_str());
    return outcomes;
  }
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(path.string());
  } catch (const YAML::Exception& e) {
    throw ConfigError(path.string(), "", std::string("cannot resume: not a sweep record: ") + e.what());
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    for (const auto& entry : doc["cases"]) {
      if (!entry["name"] || entry["name"].as<std::string>() != plan.cases[i].name) continue;
      if (!entry["ok"] || !entry["ok"].as<bool>() || !entry["record"]) break;
      if (!fs::exists(fs::path(plan.cases[i].overrides.out_dir) / "summary.json")) break;
      outcomes[i] = case_from_record(entry["record"], path.string());
      outcomes[i].resumed = true;
      ++kept;
      break;
    }
  }
  if (!quiet)
    std::fprintf(stderr, "[lossless] --resume: %zu of %zu cases complete in %s (%s); running the other %zu\n",
                 kept, plan.cases.size(), plan.out_dir.c_str(), sweep_file.c_str(), plan.cases.size() - kept);
  return outcomes;
}

// One sweep at a time per output folder: a second one would overwrite the first one's cases as they run. The
// lock is on the folder itself and goes with the process (flock), so a killed sweep leaves nothing stale.
class SweepFolderLock {
 public:
  explicit SweepFolderLock(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) throw ConfigError(dir, "out", "cannot open the sweep's output folder");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      fd_ = -1;
      throw ConfigError(dir, "out",
                        "another sweep is writing into this folder; wait for it, or give this one another "
                        "folder with -o");
    }
  }
  ~SweepFolderLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  SweepFolderLock(const SweepFolderLock&) = delete;
  SweepFolderLock& operator=(const SweepFolderLock&) = delete;

 private:
  int fd_ = -1;
};

std::string padded(const std::string& name, std::size_t width) {
  return name + std::string(width > name.size() ? width - name.size() : 0, ' ');
}

}  // namespace

void print_sweep_table(const std::vector<CaseOutcome>& outcomes, std::FILE* out) {
  std::vector<std::pair<std::string, RunResult>> ran;
  std::size_t width = kCaseColumn;
  for (const auto& c : outcomes) {
    if (c.ok) ran.emplace_back(c.name, c.result);
    width = std::max(width, c.name.size());
  }
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* mem = open_memstream(&buf, &len);
  if (!mem) throw InternalError("open_memstream failed");
  print_comparison(ran, mem);
  std::fclose(mem);
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < len;) {
    const std::size_t nl = std::string_view(buf + at, len - at).find('\n');
    const std::size_t end = nl == std::string_view::npos ? len : at + nl;
    lines.emplace_back(buf + at, end - at);
    at = end + 1;
  }
  std::free(buf);
  LOSSLESS_CHECK(lines.size() >= ran.size() + 1, "unexpected comparison table");
  // The rows are the last lines, one per run; the line above them is the column header ("case ...").
  const std::size_t first_row = lines.size() - ran.size();
  for (std::size_t i = 0; i + 1 < first_row; ++i) std::fprintf(out, "%s\n", lines[i].c_str());
  std::fprintf(out, "%s%s\n", padded("case", width).c_str(),
               lines[first_row - 1].substr(kCaseColumn).c_str());
  std::size_t row = first_row;
  for (const auto& c : outcomes) {
    if (c.ok) {
      const std::string& line = lines[row++];
      std::fprintf(out, "%s%s\n", padded(c.name, width).c_str(),
                   line.substr(std::max(kCaseColumn, c.name.size())).c_str());
    } else {
      std::fprintf(out, "%s FAILED (%s)\n", padded(c.name, width).c_str(),
                   c.bad_input ? "bad input" : "internal error");
    }
  }
}

int run_sweep(const SweepPlan& plan, const SweepRunOptions& o) {
  const RankInfo ri = ranks_from_env();
  std::unique_ptr<SweepFolderLock> lock;
  if (ri.rank == 0) lock = std::make_unique<SweepFolderLock>(plan.out_dir);
  std::vector<CaseOutcome> outcomes;
  if (ri.size <= 1) {
    std::vector<std::size_t> all(plan.cases.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<CaseOutcome> progress =
        o.resume ? completed_cases(plan, o.file, o.quiet) : std::vector<CaseOutcome>(plan.cases.size());
    for (std::size_t i = 0; i < progress.size(); ++i)
      if (progress[i].name.empty()) progress[i].name = plan.cases[i].name;
    write_sweep_json(plan, o, ri, progress);
    outcomes = run_cases(
        plan, all, o, ri,
        [&](std::size_t i, const CaseOutcome& c) {
          progress[i] = c;
          write_sweep_json(plan, o, ri, progress);
        },
        progress);
  } else {
    if (o.resume)
      throw ConfigError("command line", "--resume", "not supported for sweeps over MPI ranks yet");
    const std::string exchange = exchange_dir(plan.out_dir, ri);
    announce_rank(exchange, ri);
    if (ri.rank == 0) wait_for_ranks(exchange, ri, kRankStartTimeoutS);
    std::vector<double> weights;
    for (const auto& k : plan.cases) weights.push_back(k.weight);
    run_cases(plan, cases_of_rank(weights, ri.rank, ri.size), o, ri,
              [&](std::size_t i, const CaseOutcome& c) { write_case_record(record_path(exchange, i), c); },
              {});
    // Every other rank's failures are reported by rank 0; a non-zero exit here would make mpirun abort the
    // job before rank 0 prints the table.
    if (ri.rank != 0) return 0;
    outcomes = gather(exchange, plan.cases.size());
    std::error_code ec;
    fs::remove_all(exchange, ec);
    fs::remove(fs::path(exchange).parent_path(), ec);  // only if no other job's folder is left
  }
  if (interrupt_requested()) {
    write_sweep_json(plan, o, ri, outcomes);
    std::size_t done = 0;
    for (const auto& c : outcomes) done += c.ok ? 1 : 0;
    std::fprintf(
        stderr,
        "lossless: interrupted: %zu of %zu cases complete, their outputs in %s/<case> (sweep.json lists "
        "them); `%s` runs the rest\n",
        done, outcomes.size(), plan.out_dir.c_str(), o.resume_command.c_str());
    return kInterruptedExitStatus;
  }
  print_sweep_table(outcomes, stdout);
  std::printf("outputs in %s/<case>\n", plan.out_dir.c_str());
  write_sweep_json(plan, o, ri, outcomes);
  int status = 0;
  for (const auto& c : outcomes) {
    if (c.ok) {
      if (o.check && c.result.unfinished.stalled > 0) {
        std::fprintf(stderr, "lossless: --check: %s: cases.%s: %llu stalled flows\n", o.file.c_str(),
                     c.name.c_str(), static_cast<unsigned long long>(c.result.unfinished.stalled));
        if (status == 0) status = 3;
      }
      continue;
    }
    if (c.bad_input) {
      std::fprintf(stderr, "lossless: error: %s: cases.%s: case failed: %s\n", o.file.c_str(), c.name.c_str(),
                   c.error.c_str());
      status = status == 3 ? 2 : std::max(status, 2);
    } else {
      std::fprintf(stderr, "lossless: internal error: %s: cases.%s: case failed: %s\n", o.file.c_str(),
                   c.name.c_str(), c.error.c_str());
      status = status == 0 || status == 3 ? 1 : status;
    }
  }
  return status;
}

}  // namespace lossless
