// "Did you mean ...?" for a misspelt key or scheme name: the nearest known name by edit distance, if it is
// close enough to be the one meant.
#pragma once
#include <string>
#include <vector>

namespace lossless {

// The known name nearest to `typo` (edits: insert, delete, substitute, swap neighbours; case-insensitive), if
// within 1 edit (up to 3 characters), 2 (up to 8) or size / 4 + 1, or if `typo` is a prefix of exactly one
// name; otherwise empty.
std::string nearest_name(const std::string& typo, const std::vector<std::string>& known);
// " (did you mean 'NAME'?)" or "".
std::string did_you_mean(const std::string& typo, const std::vector<std::string>& known);

}  // namespace lossless
