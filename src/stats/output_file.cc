#include "stats/output_file.h"

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace lossless {

constexpr std::size_t kBufferBytes = 1 << 20;

OutputFile::OutputFile(const std::string& path) : path_(path), buffer_(new char[kBufferBytes]) {
  f_ = std::fopen(path.c_str(), "w");
  if (!f_) throw ConfigError(path, "", std::string("cannot write output file: ") + std::strerror(errno));
  std::setvbuf(f_, buffer_.get(), _IOFBF, kBufferBytes);
}

OutputFile::~OutputFile() {
  if (f_) std::fclose(f_);
}

void OutputFile::close() {
  const bool failed = std::ferror(f_) != 0;
  const int closed = std::fclose(f_);
  const int err = errno;
  f_ = nullptr;
  if (failed || closed != 0)
    throw ConfigError(path_, "", std::string("writing the output file failed: ") + std::strerror(err));
}

}  // namespace lossless
