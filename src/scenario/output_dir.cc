#include "scenario/output_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/error.h"
#include "net/switch_mechanism.h"

namespace lossless {

namespace fs = std::filesystem;

namespace {

// Names lossless writes into a run folder (a mechanism's trace is <mechanism>.csv).
bool is_output_name(const std::string& name) {
  static const std::set<std::string> kFixed = {"summary.json",   "fct.csv",       "pfc.csv",
                                               "fct.txt",        "scenario.yaml", "queues.csv",
                                               "flow_rates.csv", "fabric.json",   "fabric.bin"};
  if (kFixed.count(name)) return true;
  if (name.size() > 4 && name.substr(name.size() - 4) == ".csv") {
    const std::string stem = name.substr(0, name.size() - 4);
    for (const auto& m : MechanismRegistry::all())
      if (m.name == stem) return true;
  }
  return false;
}

}  // namespace

OutputDir::OutputDir(const std::string& target, const std::string& key) {
  std::error_code ec;
  target_ = fs::absolute(fs::path(target), ec).lexically_normal();
  if (!target_.has_filename()) target_ = target_.parent_path();  // "out/x/" -> "out/x"
  if (ec || !target_.has_filename() || target_ == target_.root_path())
    throw ConfigError(target, key, "not a folder lossless can write its outputs into");
  fs::create_directories(target_, ec);
  if (ec) throw ConfigError(target, key, "cannot create directory: " + ec.message());
  if (!fs::is_directory(target_)) throw ConfigError(target, key, "exists and is not a directory");
  staging_ = target_.parent_path() / ("." + target_.filename().string() + ".partial-" +
                                      std::to_string(static_cast<long>(::getpid())));
  fs::remove_all(staging_, ec);  // left by a killed process that had this pid
  fs::create_directory(staging_, ec);
  if (ec) throw ConfigError(staging_.string(), key, "cannot create the staging folder: " + ec.message());
}

OutputDir::~OutputDir() {
  std::error_code ec;
  if (!committed_) fs::remove_all(staging_, ec);
}

std::string OutputDir::shown(const std::string& text) const {
  std::string out = text;
  const std::string from = staging_.string(), to = target_.string();
  for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size()))
    out.replace(at, from.size(), to);
  return out;
}

std::vector<std::pair<std::string, std::uint64_t>> OutputDir::staged() const {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (const auto& e : fs::directory_iterator(staging_))
    if (e.is_regular_file()) out.emplace_back(e.path().filename().string(), e.file_size());
  std::sort(out.begin(), out.end());
  return out;
}

void OutputDir::commit(const std::string& last) {
  std::error_code ec;
  // Two runs finishing into one folder at the same moment take turns (a lock on the folder itself, released
  // with the descriptor).
  const int lock = ::open(target_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock >= 0) ::flock(lock, LOCK_EX);
  struct Unlock {
    int fd;
    ~Unlock() {
      if (fd >= 0) ::close(fd);
    }
  } unlock{lock};
  // The previous run first loses its mark of completeness, so that a reader in between sees no complete run
  // rather than a mixed one.
  for (const std::string& name : previous_run_files(target_)) {
    if (name == "summary.json") continue;
    fs::remove(target_ / name, ec);
  }
  fs::remove(target_ / "summary.json", ec);
  fs::remove_all(target_ / "figures", ec);  // drawn from the previous outputs, like view.html
  fs::remove(target_ / "view.html", ec);
  std::vector<std::string> names;
  for (const auto& [name, bytes] : staged())
    if (name != last) names.push_back(name);
  if (fs::exists(staging_ / last)) names.push_back(last);
  for (const std::string& name : names) {
    fs::rename(staging_ / name, target_ / name, ec);
    if (ec)
      throw ConfigError((target_ / name).string(), "", "cannot move the output into place: " + ec.message());
  }
  committed_ = true;
  fs::remove_all(staging_, ec);
}

std::vector<std::string> previous_run_files(const fs::path& dir) {
  std::vector<std::string> out;
  const fs::path summary = dir / "summary.json";
  std::error_code ec;
  if (fs::is_regular_file(summary, ec)) {
    try {
      YAML::Node s = YAML::LoadFile(summary.string());
      if (s["outputs"] && s["outputs"].IsSequence()) {
        for (const auto& o : s["outputs"])
          if (o["file"]) {
            const std::string name = o["file"].as<std::string>();
            if (name.find('/') == std::string::npos && name != ".." && name != ".") out.push_back(name);
          }
        out.push_back("summary.json");
        return out;
      }
    } catch (const YAML::Exception&) {
      // not readable as a summary: fall back to the names lossless writes
    }
  }
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && is_output_name(e.path().filename().string()))
      out.push_back(e.path().filename().string());
  return out;
}

std::string run_id_of(const std::string& resolved_scenario) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (unsigned char c : resolved_scenario) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace lossless
