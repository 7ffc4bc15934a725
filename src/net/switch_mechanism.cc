#include "net/switch_mechanism.h"

#include <algorithm>

namespace lossless {
namespace {
std::vector<MechanismScheme>& table() {
  static std::vector<MechanismScheme> schemes;
  return schemes;
}
}  // namespace

bool MechanismRegistry::add(MechanismScheme scheme) {
  auto& t = table();
  t.push_back(std::move(scheme));
  std::sort(t.begin(), t.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return true;
}

const MechanismScheme* MechanismRegistry::find(const std::string& name) {
  for (const auto& s : table())
    if (s.name == name) return &s;
  return nullptr;
}

const std::vector<MechanismScheme>& MechanismRegistry::all() { return table(); }

}  // namespace lossless
