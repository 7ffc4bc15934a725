#include "core/suggest.h"

#include <algorithm>
#include <cctype>

namespace lossless {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Edits (insert, delete, substitute, swap two neighbours) from a to b: "dcqnc" is one swap from "dcqcn".
std::size_t distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

// How many edits still look like a typo of a name this long.
std::size_t allowed_edits(std::size_t length) { return length <= 3 ? 1 : length <= 8 ? 2 : length / 4 + 1; }

}  // namespace

std::string nearest_name(const std::string& typo, const std::vector<std::string>& known) {
  if (typo.empty() || typo.size() > 200) return "";
  std::string best;
  std::size_t best_d = allowed_edits(typo.size()) + 1;
  for (const auto& k : known) {
    const std::size_t d = distance(typo, k);
    if (d < best_d) {
      best_d = d;
      best = k;
    }
  }
  if (!best.empty()) return best;
  std::string prefixed;
  for (const auto& k : known)
    if (k.size() > typo.size() && k.compare(0, typo.size(), typo) == 0) {
      if (!prefixed.empty()) return "";
      prefixed = k;
    }
  return prefixed;
}

std::string did_you_mean(const std::string& typo, const std::vector<std::string>& known) {
  const std::string n = nearest_name(typo, known);
  return n.empty() ? "" : " (did you mean '" + n + "'?)";
}

}  // namespace lossless
