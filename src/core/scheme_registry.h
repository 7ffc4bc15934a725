// The table of registered schemes of one kind (congestion control, switch mechanisms): each scheme adds its
// entry from a static initialiser in its own file; the table is read-only once main() runs.
#pragma once
#include <algorithm>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace lossless {

class ParamSource;

// A scheme as the scenario parser and `lossless list` see it: it parses its parameters into a factory.
template <class Factory>
struct SchemeEntry {
  std::string name;
  std::string summary;
  // Where its parameters live in its scenario section, when not under `params` (a flow-control policy's
  // under switch.<section>); empty = the scheme has none there.
  std::string section;
  std::function<std::unique_ptr<Factory>(ParamSource& params)> make;
  std::function<void(std::ostream&)> print_params;
  // Its parameters as rows of the substrate key tables (`lossless list switch [--markdown]`), each key after
  // `prefix`.
  std::function<void(std::ostream&, bool markdown, const std::string& prefix)> print_keys;
};

template <class Entry>
class SchemeRegistry {
 public:
  static bool add(Entry entry) {
    auto& t = table();
    t.push_back(std::move(entry));
    std::sort(t.begin(), t.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
    return true;
  }
  static const Entry* find(const std::string& name) {
    for (const auto& e : table())
      if (e.name == name) return &e;
    return nullptr;
  }
  static const std::vector<Entry>& all() { return table(); }
  static std::vector<std::string> names() {
    std::vector<std::string> n;
    for (const auto& e : table()) n.push_back(e.name);
    return n;
  }

 private:
  static std::vector<Entry>& table() {
    static std::vector<Entry> entries;
    return entries;
  }
};

}  // namespace lossless
