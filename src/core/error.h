// Errors that carry the user's fault (bad scenario, bad arguments): exit status 2 with one clear message.
#pragma once
#include <stdexcept>
#include <string>

namespace lossless {

class ConfigError : public std::runtime_error {
 public:
  // `where` names the file, `key` the dotted path inside it; both may be empty.
  ConfigError(const std::string& where, const std::string& key, const std::string& reason)
      : std::runtime_error(format(where, key, reason)) {}

 private:
  static std::string format(const std::string& where, const std::string& key, const std::string& reason) {
    std::string s;
    if (!where.empty()) s += where + ": ";
    if (!key.empty()) s += key + ": ";
    return s + reason;
  }
};

// An internal invariant broke: a bug in lossless, not in the input (exit status 1).
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

#define LOSSLESS_CHECK(cond, msg)                                                       \
  do {                                                                                  \
    if (!(cond)) throw ::lossless::InternalError(std::string(__FILE__) + ": " + (msg)); \
  } while (0)

}  // namespace lossless
