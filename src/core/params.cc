#include "core/params.h"

#include "core/error.h"

namespace lossless {

void DefaultParams::fail(const std::string& key, const std::string& reason) const {
  throw ConfigError("(defaults)", key, reason);
}

}  // namespace lossless
