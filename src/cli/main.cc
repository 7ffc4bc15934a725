// lossless: command-line entry point. Exit status: 0 success, 2 bad input (one clear message), 1 internal
// error.
#include <sys/wait.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cli/huge_pages.h"
#include "cli/mpi_sweep.h"
#include "cli/reproduce.h"
#include "cli/sweep_run.h"
#include "core/error.h"
#include "core/interrupt.h"
#include "core/rank_link.h"
#include "core/units.h"
#include "net/congestion_control.h"
#include "net/flow_control.h"
#include "net/routing_policy.h"
#include "net/switch_architecture.h"
#include "net/switch_mechanism.h"
#include "scenario/hpcc_config.h"
#include "scenario/part_types.h"
#include "scenario/runner.h"
#include "scenario/scenario.h"
#include "scenario/substrate_keys.h"
#include "scenario/sweep.h"
#include "scenario/yaml_map.h"
#include "topo/describe.h"

namespace lossless {
namespace {

constexpr const char* kUsage = R"(usage:
  lossless run SCENARIO.yaml [-o OUT_DIR] [--set PATH=VALUE]... [--seed N] [--threads N] [--check] [--quiet]
  mpirun -n R lossless run SCENARIO.yaml [...]   # one fabric over R processes (a build with MPI), outputs on rank 0
  lossless validate SCENARIO.yaml|SWEEP.yaml [--set PATH=VALUE]... [--seed N]
  lossless hpcc CONFIG.txt [-o OUT_DIR] [--threads N] [--check] [--quiet]
  lossless sweep SWEEP.yaml [-j N] [-o OUT_DIR] [--set PATH=VALUE]... [--resume] [--check] [--quiet]
  mpirun -n N lossless sweep SWEEP.yaml [...]   # cases spread over N MPI ranks, table on rank 0
  lossless reproduce PAPER|all [--full] [-j N] [-o DIR]   # PAPER: rocc ppfc rcc rcc-fattree mercury rcm hpcc
  lossless describe SCENARIO.yaml [--node NAME] [--set PATH=VALUE]...   # nodes, ports, what each port leads to
  lossless list [cc|mechanisms|switch|nic|workloads|topologies|monitors] [--markdown (all but cc, mechanisms)]
  lossless plot OUT_DIR... [-o FIG_DIR]   # a run, a sweep, or several runs overlaid
  lossless view OUT_DIR [-o FILE.html]    # an interactive page of a run recorded with monitor.fabric
)";

[[noreturn]] void usage_error(const std::string& msg) {
  throw ConfigError("command line", "", msg + "\n" + kUsage);
}

struct Args {
  std::string file;
  ScenarioOverrides ov;
  bool quiet = false;
  int jobs = 1;
  unsigned threads = 1;
  bool resume = false;
  bool check = false;
};

// The options a command takes besides --set and --seed (every command with a scenario takes those).
enum AllowedOption : unsigned {
  kJobsAndResume = 1,  // -j, --resume (sweep)
  kThreads = 2,
  kCheck = 4,
  kOutput = 8,  // -o, --quiet: commands that write outputs (validate and describe write none)
};

// `file`: what the command's one argument is, for the message when it is missing.
Args parse_args(int argc, char** argv, int first, unsigned allowed,
                const char* file = "the scenario file (SCENARIO.yaml)") {
  const bool allow_jobs = allowed & kJobsAndResume, allow_threads = allowed & kThreads,
             allow_check = allowed & kCheck, allow_output = allowed & kOutput;
  Args a;
  for (int i = first; i < argc; ++i) {
    std::string s = argv[i];
    auto need = [&](const char* what) -> std::string {
      if (i + 1 >= argc) usage_error(s + " needs " + what);
      return argv[++i];
    };
    if (allow_output && (s == "-o" || s == "--out")) {
      a.ov.out_dir = need("a directory");
      if (a.ov.out_dir.empty()) usage_error(s + " needs a directory, not an empty path");
      check_path_length(a.ov.out_dir, "command line", s);
    } else if (s == "--set") {
      std::string kv = need("PATH=VALUE");
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) usage_error("--set takes PATH=VALUE, got '" + kv + "'");
      a.ov.sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (s == "--seed") {
      std::string v = need("a number");
      auto seed = parse_uint(v);
      if (!seed) usage_error("--seed takes an integer from 0 to 18446744073709551615, got '" + v + "'");
      a.ov.has_seed = true;
      a.ov.seed = *seed;
    } else if (allow_output && (s == "--quiet" || s == "-q")) {
      a.quiet = true;
    } else if (allow_jobs && s == "--resume") {
      a.resume = true;
    } else if (allow_check && s == "--check") {
      a.check = true;
    } else if (allow_jobs && (s == "-j" || s == "--jobs")) {
      std::string v = need("a number");
      auto jobs = parse_uint(v);
      if (!jobs || *jobs < 1 || *jobs > 9999)
        usage_error("-j takes an integer from 1 to 9999, got '" + v + "'");
      a.jobs = static_cast<int>(*jobs);
    } else if (allow_threads && s == "--threads") {
      std::string v = need("a number");
      auto threads = parse_uint(v);
      if (!threads || *threads < 1 || *threads > 64)
        usage_error("--threads takes an integer from 1 to 64, got '" + v + "'");
      a.threads = static_cast<unsigned>(*threads);
    } else if (!s.empty() && s[0] == '-') {
      usage_error("unknown option '" + s + "'");
    } else if (a.file.empty()) {
      a.file = s;
    } else {
      usage_error("unexpected argument '" + s + "'");
    }
  }
  if (a.file.empty()) usage_error(std::string("missing ") + file);
  return a;
}

// What an interrupted run says: where it stopped, and that the folder still holds the previous run (or none).
int report_interrupt(const Interrupted& e, const std::string& dir, std::size_t flows) {
  namespace fs = std::filesystem;
  const bool previous = fs::exists(fs::path(dir) / "summary.json");
  std::fprintf(
      stderr,
      "\nlossless: interrupted (%s) at simulated time %.3f ms with %llu of %zu flows done; this run wrote no "
      "output: %s %s\n",
      (e.signal ? e.signal : interrupt_signal()) == SIGTERM ? "SIGTERM" : "SIGINT",
      static_cast<double>(e.now_ps) / 1e9, static_cast<unsigned long long>(e.flows_completed), flows,
      previous ? "the previous run's outputs are intact in" : "there is no complete run in", dir.c_str());
  return kInterruptedExitStatus;
}

// With --check, stalled flows make the run fail with exit status 3 (README "Stalls and PFC deadlocks").
int check_status(const Args& a, const RunResult& r, const std::string& dir) {
  if (!a.check || r.unfinished.stalled == 0) return 0;
  std::fprintf(stderr, "lossless: --check: %llu stalled flows (%s/summary.json: stalls)\n",
               static_cast<unsigned long long>(r.unfinished.stalled), dir.c_str());
  return 3;
}

// Over ranks (`mpirun -n R`), every rank runs the command; rank 0 alone prints and writes the outputs.
bool is_root(const RankLink* link) { return !link || link->rank() == 0; }

// Runs a loaded scenario for `run` and `hpcc`: the options both take, the interrupt, the result table with
// `where` (what was written) under it, and the exit status --check asks for.
int run_loaded(Scenario& sc, const Args& a, RunOptions opts, RankLink* link, const std::string& where) {
  opts.quiet = a.quiet;
  opts.threads = a.threads;
  opts.check = a.check;
  opts.link = link;
  RunResult r;
  try {
    r = run_scenario(sc, opts);
  } catch (const Interrupted& e) {
    if (!is_root(link)) return kInterruptedExitStatus;
    return report_interrupt(e, sc.output.dir, sc.flows.size());
  }
  if (!a.quiet && is_root(link)) {
    print_result_table(r, stdout);
    std::printf("%s\n", where.c_str());
  }
  return check_status(a, r, sc.output.dir);
}

int cmd_run(int argc, char** argv, RankLink* link) {
  Args a;
  Scenario sc;
  on_every_rank(link, [&] {
    a = parse_args(argc, argv, 2, kThreads | kCheck | kOutput);
    sc = load_scenario(a.file, a.ov);
  });
  return run_loaded(sc, a, RunOptions{}, link, "outputs in " + sc.output.dir);
}

int cmd_hpcc(int argc, char** argv, RankLink* link) {
  Args a;
  HpccConfig cfg;
  Scenario sc;
  on_every_rank(link, [&] {
    a = parse_args(argc, argv, 2, kThreads | kCheck | kOutput,
                   "the HPCC config file (CONFIG.txt, the HPCC simulator's mix/config.txt format)");
    if (!a.ov.sets.empty() || a.ov.has_seed)
      usage_error("hpcc takes only -o, --threads, --check and --quiet");
    cfg = read_hpcc_config(a.file);
    if (a.ov.out_dir.empty()) a.ov.out_dir = "out/" + std::filesystem::path(a.file).stem().string();
    sc = parse_hpcc_scenario(cfg, a.ov);
  });
  RunOptions opts;
  opts.hpcc_fct_path = cfg.fct_output;
  opts.hpcc_pfc_path = cfg.pfc_output;
  return run_loaded(
      sc, a, opts, link,
      "HPCC-format files: " + cfg.fct_output + " " + cfg.pfc_output + "; our outputs in " + sc.output.dir);
}

int cmd_validate(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, 0, "the scenario or sweep file (SCENARIO.yaml or SWEEP.yaml)");
  if (looks_like_sweep(a.file)) {
    // Every bad case is reported, not only the first, so one edit of the sweep fixes them all.
    const SweepPlan plan = load_sweep(a.file, a.ov, InvalidCases::kCollect);
    std::size_t bad = 0;
    for (const auto& k : plan.cases)
      if (!k.error.empty()) {
        std::fprintf(stderr, "lossless: error: %s: cases.%s: this case's scenario is invalid: %s\n",
                     a.file.c_str(), k.name.c_str(), k.error.c_str());
        ++bad;
      }
    if (bad > 0) {
      std::fprintf(stderr, "lossless: %zu of %zu cases of %s are invalid\n", bad, plan.cases.size(),
                   a.file.c_str());
      return 2;
    }
    for (const auto& k : plan.cases)
      for (const ConfigError& w : load_scenario(plan.base_scenario, k.overrides).warnings)
        std::fprintf(stderr, "lossless: warning: %s\n", case_warning(a.file, k.name, w).c_str());
    std::printf("%s: ok (sweep of %zu cases over %s)\n", a.file.c_str(), plan.cases.size(),
                plan.base_scenario.c_str());
    return 0;
  }
  Scenario sc = load_scenario(a.file, a.ov);
  try {
    build_fabric(sc);  // what only the built fabric checks fails here as in `run` (exit 2)
  } catch (const ConfigError& e) {
    if (!e.where().empty()) throw;
    throw ConfigError(a.file, e.key(), e.reason());
  }
  for (const ConfigError& w : sc.warnings) std::fprintf(stderr, "lossless: warning: %s\n", w.what());
  std::printf("%s: ok (%u hosts, %u switches, %zu links, %zu flows, cc %s)\n", a.file.c_str(),
              sc.topology.hosts, sc.topology.switches, sc.topology.links.size(), sc.flows.size(),
              sc.cc_algorithm.c_str());
  return 0;
}

// The fabric of a scenario as the monitors and pfc.csv name it: every port and what it leads to.
int cmd_describe(int argc, char** argv) {
  std::string node;
  std::vector<char*> rest(argv, argv + argc);
  for (std::size_t i = 2; i < rest.size(); ++i)
    if (std::string(rest[i]) == "--node") {
      if (i + 1 >= rest.size() || !*rest[i + 1]) usage_error("--node needs a node name (h3, s0)");
      if (!node.empty()) usage_error("--node given twice (describe shows one node, or all without it)");
      node = rest[i + 1];
      rest.erase(rest.begin() + static_cast<long>(i), rest.begin() + static_cast<long>(i) + 2);
      --i;
    }
  Args a = parse_args(static_cast<int>(rest.size()), rest.data(), 2, 0);
  Scenario sc = load_scenario(a.file, a.ov);
  const Topology& t = sc.topology;
  std::ostringstream os;
  if (!describe_topology(t, os, node))
    throw ConfigError("--node", "",
                      "'" + node + "' is not a node of " + a.file + " (h0-h" +
                          std::to_string(t.hosts ? t.hosts - 1 : 0) + ", s0-s" +
                          std::to_string(t.switches ? t.switches - 1 : 0) + ")");
  std::printf("%s: %u hosts (h0-h%u), %u switches (s0-s%u), %zu links, %zu flows\n", a.file.c_str(), t.hosts,
              t.hosts ? t.hosts - 1 : 0, t.switches, t.switches ? t.switches - 1 : 0, t.links.size(),
              sc.flows.size());
  std::printf(
      "port -> the port at its other end, link rate and delay (monitor.queues takes \"s0:4\"; pfc.csv "
      "names node and port)\n");
  std::fputs(os.str().c_str(), stdout);
  return 0;
}

int cmd_sweep(int argc, char** argv) {
  Args a = parse_args(argc, argv, 2, kJobsAndResume | kCheck | kOutput, "the sweep file (SWEEP.yaml)");
  // Invalid cases are reported as failed after the others have run (run_sweep), not before anything runs.
  const SweepPlan plan = load_sweep(a.file, a.ov, InvalidCases::kCollect);
  // Resuming needs the same folder and the same --set overrides: the hint repeats the command as given.
  std::string again = "lossless";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--resume") continue;
    const bool plain =
        word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.,/=:+@%") ==
        std::string::npos;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    again += " " + (plain && !word.empty() ? word : quoted + "'");
  }
  return run_sweep(plan, {a.file, a.jobs, a.quiet, a.resume, a.check, again + " --resume"});
}

// Figures are drawn by tools/plot.py with matplotlib: Debian's /usr/bin/python3, where apt installs it, if
// there is one (plot.py itself moves to a python3 that has matplotlib when the one it runs under has none).
int cmd_plot(int argc, char** argv) {
  if (argc < 3) usage_error("plot needs at least one output directory");
  const char* python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  std::string cmd = std::string(python) + " '" + std::string(LOSSLESS_SOURCE_DIR) + "/tools/plot.py'";
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.find('\'') != std::string::npos) usage_error("plot: quotes in paths are not supported");
    cmd += " '" + a + "'";
  }
  int status = std::system(cmd.c_str());
  if (status == -1) throw InternalError(std::string("cannot start ") + python);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

// The interactive page of a run (tools/view.py): one self-contained HTML file.
int cmd_view(int argc, char** argv) {
  if (argc < 3) usage_error("view needs a run's output directory");
  const char* python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  std::string cmd = std::string(python) + " '" + std::string(LOSSLESS_SOURCE_DIR) + "/tools/view.py'";
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.find('\'') != std::string::npos) usage_error("view: quotes in paths are not supported");
    cmd += " '" + a + "'";
  }
  int status = std::system(cmd.c_str());
  if (status == -1) throw InternalError(std::string("cannot start ") + python);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

template <class Entry>
void print_schemes(const std::vector<Entry>& schemes) {
  for (const auto& s : schemes) {
    std::printf("  %s — %s\n", s.name.c_str(), s.summary.c_str());
    std::ostringstream os;
    s.print_params(os);
    std::fputs(os.str().c_str(), stdout);
  }
}

// The scenario's parts printed from their tables (scenario/part_types.h), with the heading of each.
constexpr std::pair<const char*, const char*> kPartKinds[] = {
    {"workloads", "workloads (workload list entries by type; key, default, meaning)"},
    {"topologies", "topologies (topology.type, its keys beside it; key, default, meaning)"},
    {"monitors", "monitors (keys of monitor:; key, default, meaning)"},
};

bool is_part_kind(const std::string& what) {
  for (const auto& [kind, heading] : kPartKinds)
    if (what == kind) return true;
  return false;
}

int cmd_list(int argc, char** argv) {
  std::string what = argc > 2 ? argv[2] : "all";
  const bool markdown = argc > 3 && std::string(argv[3]) == "--markdown";
  const bool has_markdown = what == "switch" || what == "nic" || is_part_kind(what);
  if (argc > 4 || (argc > 3 && (!markdown || !has_markdown)))
    usage_error(
        "list takes one of cc, mechanisms, switch, nic, workloads, topologies, monitors (switch, nic, "
        "workloads, topologies and monitors also --markdown)");
  if (markdown) {
    std::ostringstream os;
    if (is_part_kind(what))
      print_part_types(what, os, true);
    else
      print_substrate_keys(what, os, true);
    std::fputs(os.str().c_str(), stdout);
    return 0;
  }
  bool all = what == "all";
  if (!all && what != "cc" && what != "mechanisms" && what != "switch" && what != "nic" &&
      !is_part_kind(what))
    usage_error("list takes cc, mechanisms, switch, nic, workloads, topologies or monitors, not '" + what +
                "'");
  if (all || what == "cc") {
    std::printf("congestion control (cc.algorithm, parameters under cc.params):\n");
    print_schemes(CcRegistry::all());
  }
  if (all || what == "mechanisms") {
    std::printf("switch mechanisms (switch.mechanism, parameters under switch.params):\n");
    std::printf("  none — RED/ECN marking per switch.ecn only\n");
    print_schemes(MechanismRegistry::all());
    std::printf("switch flow control (switch.flow_control, parameters under switch.<name>):\n");
    print_schemes(FlowControlRegistry::all());
    std::printf("switch routing (switch.routing):\n");
    print_schemes(RoutingRegistry::all());
    std::printf("switch architectures (switch.architecture, parameters under switch.<name>):\n");
    print_schemes(ArchitectureRegistry::all());
    std::printf("ECN marking (switch.ecn.marking, parameters under switch.ecn.<name>):\n");
    std::printf("  red — RED on the egress queue (switch.ecn.kmin, kmax, pmax), inline in the packet path\n");
    print_schemes(MarkingRegistry::all());
  }
  for (const char* section : {"switch", "nic"})
    if (all || what == section) {
      std::printf("%s keys (key, default, meaning):\n", section);
      std::ostringstream os;
      print_substrate_keys(section, os, false);
      std::fputs(os.str().c_str(), stdout);
    }
  for (const auto& [kind, heading] : kPartKinds)
    if (all || what == kind) {
      std::printf("%s:\n", heading);
      std::ostringstream os;
      print_part_types(kind, os, false);
      std::fputs(os.str().c_str(), stdout);
    }
  return 0;
}

}  // namespace
}  // namespace lossless

int main(int argc, char** argv) {
  using namespace lossless;
  if (argc >= 2) {
    const std::string_view cmd = argv[1];
    if (cmd == "run" || cmd == "hpcc" || cmd == "sweep" || cmd == "reproduce") reexec_with_huge_pages(argv);
  }
  install_interrupt_handlers();
  // `mpirun -n R lossless run|hpcc`: one fabric over R processes (net/network.h). The link to the other ranks
  // lives until main returns (its end is MPI_Finalize).
  std::unique_ptr<RankLink> link;
  int rank = 0;
  try {
    if (argc < 2) usage_error("missing command");
    std::string cmd = argv[1];
    if (cmd == "run" || cmd == "hpcc") {
      const RankInfo ri = ranks_from_env();
      rank = ri.rank;
      if (ri.size > 1) {
        link = open_rank_link(argc, argv);
        if (!link) {
          if (ri.rank == 0)
            std::fprintf(
                stderr,
                "lossless: error: %d ranks: this build runs a fabric in one process (it was built without "
                "MPI: install libopenmpi-dev and build again, or configure with -DLOSSLESS_MPI=ON); "
                "on one machine use --threads, and `mpirun lossless sweep` spreads many runs\n",
                ri.size);
          return 2;
        }
      }
    }
    // `lossless run --help`: the usage, as for `lossless --help` (plot and view pass it to their tools; a
    // word after an option that takes a value is that value).
    static const std::set<std::string> kCommands = {"run",  "validate", "sweep",    "hpcc",
                                                    "list", "describe", "reproduce"};
    static const std::set<std::string> kTakesValue = {"-o",        "--out", "--set",  "--seed",
                                                      "--threads", "-j",    "--jobs", "--node"};
    if (kCommands.count(cmd))
      for (int i = 2; i < argc; ++i) {
        const std::string word = argv[i];
        if (kTakesValue.count(word)) {
          ++i;
        } else if (word == "--help" || word == "-h") {
          if (cmd == "reproduce") return cmd_reproduce(argc, argv);
          if (rank == 0) std::fputs(kUsage, stdout);
          return 0;
        }
      }
    if (cmd == "run") return cmd_run(argc, argv, link.get());
    if (cmd == "validate") return cmd_validate(argc, argv);
    if (cmd == "sweep") return cmd_sweep(argc, argv);
    if (cmd == "hpcc") return cmd_hpcc(argc, argv, link.get());
    if (cmd == "plot") return cmd_plot(argc, argv);
    if (cmd == "view") return cmd_view(argc, argv);
    if (cmd == "reproduce") return cmd_reproduce(argc, argv);
    if (cmd == "list") return cmd_list(argc, argv);
    if (cmd == "describe") return cmd_describe(argc, argv);
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    usage_error("unknown command '" + cmd + "'");
  } catch (const RanksFailed& e) {
    // Every rank stops with the same status; rank 0 prints the failing rank's message once.
    if (rank == 0 && *e.what())
      std::fprintf(stderr, e.config_error ? "lossless: error: %s\n" : "lossless: internal error: %s\n",
                   e.what());
    return e.status;
  } catch (const ConfigError& e) {
    if (link) {
      // A bad input found by this rank alone, outside the steps the ranks agree on: the others cannot learn
      // of it, so the whole job ends here.
      std::fprintf(stderr, "lossless: error (rank %d): %s\n", rank, e.what());
      link->abort(2);
    }
    std::fprintf(stderr, "lossless: error: %s\n", e.what());
    return 2;
  } catch (const YAML::Exception& e) {
    if (link) {
      std::fprintf(stderr, "lossless: error (rank %d): %s\n", rank, e.what());
      link->abort(2);
    }
    std::fprintf(stderr, "lossless: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    if (link) {
      // A rank that fails mid-run ends every rank at once (the others would wait for it forever).
      std::fprintf(stderr, "lossless: internal error (rank %d of %d): %s\n", rank, link->size(), e.what());
      link->abort(1);
    }
    std::fprintf(stderr, "lossless: internal error: %s\n", e.what());
    return 1;
  }
}
