// An output file written with stdio through a large buffer; any failure to open, write or close it (a missing
// directory, a full disk) is a ConfigError naming the path, never a silently short file.
#pragma once
#include <cstdio>
#include <memory>
#include <string>

namespace lossless {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile();  // closes quietly if close() was not called (an exception is already on its way)
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* f() { return f_; }
  void put(const std::string& text) { std::fwrite(text.data(), 1, text.size(), f_); }
  // Flushes and closes; throws if anything written was lost.
  void close();

 private:
  std::string path_;
  std::FILE* f_ = nullptr;
  std::unique_ptr<char[]> buffer_;  // stdio buffer (not cleared: stdio writes before it reads)
};

}  // namespace lossless
