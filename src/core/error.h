// Errors that carry the user's fault (bad scenario, bad arguments): exit status 2 with one clear message.
#pragma once
#include <stdexcept>
#include <string>

namespace lossless {

class ConfigError : public std::runtime_error {
 public:
  // `where` names the file (and line), `key` the dotted path inside it; both may be empty.
  ConfigError(const std::string& where, const std::string& key, const std::string& reason)
      : std::runtime_error(format(where, key, reason)), where_(where), key_(key), reason_(reason) {}

  const std::string& where() const { return where_; }
  const std::string& key() const { return key_; }
  const std::string& reason() const { return reason_; }

 private:
  // Input text is quoted into messages: control bytes (a NUL would cut the printed message short) are
  // written as \xNN; newlines and tabs stay (usage texts are multi-line).
  static std::string printable(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
        static const char* kHex = "0123456789abcdef";
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      } else {
        out += static_cast<char>(c);
      }
    }
    return out;
  }
  static std::string format(const std::string& where, const std::string& key, const std::string& reason) {
    std::string s;
    if (!where.empty()) s += where + ": ";
    if (!key.empty()) s += key + ": ";
    return printable(s + reason);
  }
  std::string where_, key_, reason_;
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
