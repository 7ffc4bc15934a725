// Shared by the libFuzzer targets (tests/fuzz/README.md): each feeds its input to one reader of the project
// and accepts exactly two outcomes — the input is read, or it is rejected with a ConfigError (exit status 2
// in the command). Any other exception (an "internal error", exit 1), a crash, a sanitizer report or a hang
// is a finding. Inputs that name files are written to a folder of this process first.
#pragma once
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"

namespace lossless::fuzz {

inline std::filesystem::path work_dir_path() {
  return std::filesystem::temp_directory_path() / ("lossless-fuzz-" + std::to_string(::getpid()));
}

inline void remove_work_dir() {
  std::error_code ec;
  std::filesystem::remove_all(work_dir_path(), ec);
}

// A folder of this process for the files an input becomes.
inline const std::string& work_dir() {
  static const std::string dir = [] {
    const auto d = work_dir_path();
    std::filesystem::create_directories(d);
    // Gone at a normal exit; a finding aborts, which leaves the files of the input that found it.
    std::atexit(remove_work_dir);
    return d.string();
  }();
  return dir;
}

inline std::string write_input(const std::string& name, const std::string& text) {
  const std::string path = work_dir() + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

[[noreturn]] inline void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "FINDING: %s: %s\n", what, detail.c_str());
  std::abort();
}

// Runs `read`; a ConfigError is the expected rejection, everything else a finding.
template <class F>
void expect_read_or_rejected(F&& read) {
  try {
    read();
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    if (msg.empty()) finding("empty error message", "");
  } catch (const std::exception& e) {
    finding("internal error (not a ConfigError)", e.what());
  }
}

// YAML as text with every mapping's keys sorted: two scenarios that hold the same values compare equal
// whatever order their keys were written in (a scheme reads its preset before the other keys).
inline std::string canonical_yaml(const YAML::Node& n) {
  if (n.IsMap()) {
    std::map<std::string, std::string> entries;
    for (auto it = n.begin(); it != n.end(); ++it) entries[it->first.Scalar()] = canonical_yaml(it->second);
    std::string s = "{";
    for (const auto& [k, v] : entries) s += k + ": " + v + ", ";
    return s + "}";
  }
  if (n.IsSequence()) {
    std::string s = "[";
    for (const auto& item : n) s += canonical_yaml(item) + ", ";
    return s + "]";
  }
  return n.IsScalar() ? n.Scalar() : "~";
}

// Splits `text` at lines holding only `mark`: the parts of a multi-file input.
inline std::vector<std::string> split_parts(const std::string& text, const std::string& mark, std::size_t n) {
  std::vector<std::string> parts(1);
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(at, nl - at);
    if (line == mark && parts.size() < n)
      parts.emplace_back();
    else
      parts.back() += line + (nl < text.size() ? "\n" : "");
    at = nl + 1;
  }
  parts.resize(n);
  return parts;
}

}  // namespace lossless::fuzz
