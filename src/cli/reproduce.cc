#include "cli/reproduce.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"

namespace lossless {

namespace fs = std::filesystem;

namespace {

struct Paper {
  std::string id;      // the name on the command line
  std::string folder;  // experiments/<folder>/run.py
};

// Debian's interpreter, where apt puts matplotlib (a python3 earlier on PATH may be another one without it).
constexpr const char* kPython = "/usr/bin/python3";

constexpr const char* kUsage = "lossless reproduce PAPER|all [--full] [-j N] [-o DIR]";

struct Options {
  std::string paper;
  bool full = false;
  int jobs = 1;
  std::string out = "out/reproduce";
};

[[noreturn]] void usage_error(const std::string& msg) {
  throw ConfigError("command line", "", msg + "\nusage: " + kUsage);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 2; i < argc; ++i) {
    const std::string s = argv[i];
    auto need = [&](const char* what) -> std::string {
      if (i + 1 >= argc) usage_error(s + " needs " + what);
      return argv[++i];
    };
    if (s == "--help" || s == "-h") {
      std::printf("usage: %s\n", kUsage);
      std::exit(0);
    } else if (s == "--full") {
      o.full = true;
    } else if (s == "-j" || s == "--jobs") {
      const std::string v = need("a number");
      if (v.empty() || v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos ||
          std::stoi(v) < 1)
        usage_error("-j takes an integer from 1 to 9999, got '" + v + "'");
      o.jobs = std::stoi(v);
    } else if (s == "-o" || s == "--out") {
      o.out = need("a directory");
      if (o.out.empty()) usage_error(s + " needs a directory, not an empty path");
    } else if (!s.empty() && s[0] == '-') {
      usage_error("unknown option '" + s + "'");
    } else if (o.paper.empty()) {
      o.paper = s;
    } else {
      usage_error("unexpected argument '" + s + "'");
    }
  }
  if (o.paper.empty()) usage_error("missing the paper (or all)");
  return o;
}

std::string source_dir() { return LOSSLESS_SOURCE_DIR; }

// Where the experiment folders are: LOSSLESS_EXPERIMENTS overrides the source tree's (tests use it).
fs::path experiments_root() {
  if (const char* e = std::getenv("LOSSLESS_EXPERIMENTS"); e && *e) return e;
  return fs::path(source_dir()) / "experiments";
}

fs::path script_of(const Paper& p) { return experiments_root() / p.folder / "run.py"; }

// Every paper with experiments: each folder experiments/<folder>/ that holds a run.py, named by its folder or
// by the first line of its file `paper-name` (experiments/hpcc-ws30 is `hpcc`), in the order of their names.
std::vector<Paper> papers() {
  std::vector<Paper> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(experiments_root(), ec)) {
    if (!e.is_directory(ec) || !fs::exists(e.path() / "run.py", ec)) continue;
    Paper p{e.path().filename().string(), e.path().filename().string()};
    if (std::ifstream f(e.path() / "paper-name"); f) {
      std::string name;
      std::getline(f, name);
      if (name.empty() || name.find_first_of(" \t/") != std::string::npos)
        throw ConfigError((e.path() / "paper-name").string(), "",
                          "expected the paper's name on the first line, one word");
      p.id = name;
    }
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const Paper& a, const Paper& b) { return a.id < b.id; });
  for (std::size_t i = 1; i < out.size(); ++i)
    if (out[i].id == out[i - 1].id)
      throw ConfigError("reproduce", "",
                        "experiments/" + out[i - 1].folder + " and experiments/" + out[i].folder +
                            " both name the paper '" + out[i].id + "'");
  return out;
}

std::string known_list(const std::vector<Paper>& all) {
  std::string s;
  for (const auto& p : all) s += (s.empty() ? "" : ", ") + p.id;
  return s + (s.empty() ? "" : ", ") + "all";
}

// This binary, so the experiment runs the very build that was asked.
std::string self_path() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw InternalError("cannot read /proc/self/exe: " + ec.message());
  return p.string();
}

// Runs argv (no shell), sharing our stdout and stderr; returns its exit status (128 + signal if killed).
int run_program(const std::vector<std::string>& args) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw InternalError("fork failed");
  if (pid == 0) {
    execv(argv[0], argv.data());
    std::fprintf(stderr, "lossless: cannot run %s\n", argv[0]);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string report_tool() { return source_dir() + "/tools/report.py"; }

// Runs one paper; returns its exit status. The report is built whenever the script left a results.json (a
// failed case is listed there and in the report), so partial results are never lost.
int reproduce_one(const Paper& p, const Options& o, double& wall) {
  const fs::path dir = fs::path(o.out) / p.id;
  fs::create_directories(dir);
  for (const char* stale : {"results.json", "report.html", "report.md"}) fs::remove(dir / stale);
  std::fprintf(stderr, "[reproduce] %s: %s (%s) -> %s\n", p.id.c_str(), script_of(p).c_str(),
               o.full ? "full scale" : "default scale", dir.c_str());
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> cmd = {kPython, script_of(p).string(), "--lossless", self_path(),
                                  "--out", dir.string(),          "-j",         std::to_string(o.jobs)};
  if (o.full) cmd.push_back("--full");
  int status = run_program(cmd);
  wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!fs::exists(dir / "results.json")) {
    std::fprintf(stderr, "lossless: error: %s: %s wrote no results.json (exit status %d)\n", p.id.c_str(),
                 script_of(p).c_str(), status);
    return status == 2 ? 2 : 1;
  }
  char wall_text[32];
  std::snprintf(wall_text, sizeof wall_text, "%.1f", wall);
  const int report = run_program({kPython, report_tool(), dir.string(), "--wall-seconds", wall_text});
  if (report != 0) {
    std::fprintf(stderr, "lossless: error: %s: tools/report.py failed (exit status %d)\n", p.id.c_str(),
                 report);
    return report == 2 ? 2 : 1;
  }
  std::printf("%s: report %s (%.0f s)\n", p.id.c_str(), (dir / "report.html").c_str(), wall);
  if (status != 0)
    std::fprintf(stderr, "lossless: error: %s: the experiment script exited with status %d (see above)\n",
                 p.id.c_str(), status);
  return status == 0 ? 0 : (status == 2 ? 2 : 1);
}

}  // namespace

int cmd_reproduce(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::vector<Paper> all = papers();
  std::vector<const Paper*> todo;
  if (o.paper == "all") {
    for (const auto& p : all) todo.push_back(&p);
    if (todo.empty())
      throw ConfigError("reproduce", "", "no paper has experiments under " + experiments_root().string());
  } else {
    for (const auto& p : all)
      if (o.paper == p.id) todo.push_back(&p);
    if (todo.empty())
      throw ConfigError("reproduce", "",
                        "unknown paper '" + o.paper + "' (known: " + known_list(all) +
                            "; a paper is a folder " + experiments_root().string() +
                            "/<name> with a run.py)");
  }
  // Fail before hours of simulation if the figures cannot be drawn.
  if (!fs::exists(kPython))
    throw ConfigError("reproduce", "",
                      std::string(kPython) + " not found: apt-get install python3-matplotlib");
  if (run_program({kPython, report_tool(), "--check"}) != 0)
    throw ConfigError(
        "reproduce", "",
        "figures need matplotlib: apt-get install python3-matplotlib (scripts/install-deps.sh does)");
  int status = 0;
  std::vector<std::string> done;
  for (const Paper* p : todo) {
    double wall = 0;
    status = std::max(status, reproduce_one(*p, o, wall));
    char text[64];
    std::snprintf(text, sizeof text, "%s=%.1f", p->id.c_str(), wall);
    done.push_back(text);
  }
  if (o.paper == "all") {
    std::vector<std::string> cmd = {kPython, report_tool(), "--index", o.out};
    for (const auto& d : done) cmd.push_back(d);
    if (run_program(cmd) != 0) return 1;
    std::printf("index: %s\n", (fs::path(o.out) / "index.html").c_str());
  }
  return status;
}

}  // namespace lossless
