// The output folder of one run, written so that a reader never sees a mix of two runs or a half-written file:
// every file goes to a staging folder beside the target (`.<name>.partial-<pid>`), and only a run that
// completes moves its files into place. The previous run's outputs that the new run does not write (listed in
// its summary.json, or known by name for a folder of an older version) and its figures/ are removed first,
// and summary.json, the mark of a complete run, is moved in last. An interrupted or failed run removes its
// staging folder and leaves the previous outputs as they were.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace lossless {

class OutputDir {
 public:
  // Creates the target's parent and the staging folder; ConfigError (naming `key`) if either cannot be made.
  OutputDir(const std::string& target, const std::string& key = "output.dir");
  ~OutputDir();  // removes the staging folder unless commit() moved its files
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  const std::filesystem::path& target() const { return target_; }
  // Where to write `file` (a name, no folder) for this run.
  std::string path(const std::string& file) const { return (staging_ / file).string(); }
  // `text` (a message naming a staged file) as the user knows it: the staging folder shown as the target.
  std::string shown(const std::string& text) const;
  // The files staged so far with their sizes, in name order (summary.json's manifest).
  std::vector<std::pair<std::string, std::uint64_t>> staged() const;
  // Moves the staged files into the target, `last` (summary.json) after every other.
  void commit(const std::string& last);

 private:
  std::filesystem::path target_;
  std::filesystem::path staging_;
  bool committed_ = false;
};

// The output files of a previous run in `dir` (from its summary.json's "outputs", or, for a folder written by
// a version without that list, every file with a name lossless writes), summary.json included if present.
std::vector<std::string> previous_run_files(const std::filesystem::path& dir);

// A deterministic id of a run: a hash of its fully resolved scenario without the output folder (same
// scenario, same id, same outputs).
std::string run_id_of(const std::string& resolved_scenario);

}  // namespace lossless
