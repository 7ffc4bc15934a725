// Helpers for scenario tests: run a scenario given as YAML text, read its CSV outputs.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "scenario/runner.h"
#include "scenario/scenario.h"

namespace lossless::test {

struct RunOutput {
  RunResult result;
  std::string dir;
  std::vector<std::map<std::string, std::string>> csv(const std::string& name) const;
  std::string read(const std::string& name) const;
};

// A fresh, empty scratch folder for `tag`, in this process's folder of $TMPDIR, which is removed when the
// test program ends unless a test failed.
std::string temp_dir(const std::string& tag);
// Where temp_dir(tag) is, without creating or clearing it.
std::string scratch_path(const std::string& tag);
RunOutput run_yaml(const std::string& yaml, const std::string& tag,
                   const std::vector<std::pair<std::string, std::string>>& sets = {}, unsigned threads = 1);
// A numeric CSV field.
inline double num(const std::map<std::string, std::string>& row, const std::string& key) {
  return std::stod(row.at(key));
}

// A file's bytes ("" when it cannot be read).
std::string slurp(const std::string& path);

// What a shell command line printed, and its exit status.
struct ShellResult {
  int status = -1;
  std::string out, err;
};
// Runs `line` with sh in `cwd`, its stdout and stderr captured in files of `capture` (empty: `cwd`). With
// `timeout_s`, a line that takes longer is killed and the status is 124 (a hang).
ShellResult shell_in(const std::string& cwd, const std::string& line, int timeout_s = 0,
                     const std::string& capture = "");

// The start of an mpirun command line with `ranks` processes. Its Open MPI session folder is this test
// process's own (temp_dir("mpi-session")): concurrent mpiruns (ctest -j) share /tmp/ompi.<host>.<uid>
// otherwise, and Open MPI 4.1 can fail to start when two create it at once ("A call to mkdir was unable to
// create the desired directory ... File exists").
std::string mpirun_line(int ranks);
// Runs the lossless binary; returns its exit status and fills stderr text. With `timeout_s`, a run that takes
// longer is killed and returns 124 (a hang).
int run_cli(const std::string& args, std::string* err = nullptr, int timeout_s = 0);

}  // namespace lossless::test
