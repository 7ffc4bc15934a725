// One-line meanings of the substrate keys (switch:, nic:) for `lossless list`; defaults are not written here
// but taken from the parser's own resolution of an empty section, so they cannot drift.
#pragma once
#include <cstdio>
#include <string>

namespace lossless {

// Prints every key of the `section` ("switch" or "nic") with its resolved default and meaning.
void print_section_keys(const std::string& section, std::FILE* out);

}  // namespace lossless
