#include <algorithm>

#include "control/congestion_control.h"

namespace lossless {
namespace {
std::vector<CcScheme>& table() {
  static std::vector<CcScheme> schemes;
  return schemes;
}
}  // namespace

bool CcRegistry::add(CcScheme scheme) {
  auto& t = table();
  t.push_back(std::move(scheme));
  std::sort(t.begin(), t.end(), [](const CcScheme& a, const CcScheme& b) { return a.name < b.name; });
  return true;
}

const CcScheme* CcRegistry::find(const std::string& name) {
  for (const auto& s : table())
    if (s.name == name) return &s;
  return nullptr;
}

const std::vector<CcScheme>& CcRegistry::all() { return table(); }

}  // namespace lossless
