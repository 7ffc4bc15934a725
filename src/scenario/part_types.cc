#include "scenario/part_types.h"

#include <sstream>

namespace lossless {
namespace {

// "  name — summary" and the entry's keys; in Markdown, a row naming the entry (`row_key`) and its keys'
// rows.
template <class Entry>
void print_entries(const std::vector<Entry>& table, std::ostream& out, bool markdown,
                   const std::string& row_key, const std::string& key_prefix = "") {
  for (const auto& e : table) {
    std::ostringstream keys;
    PartPrinter printer(keys, markdown, markdown ? key_prefix : "");
    e.print(printer);
    const std::string name_cell = "| `" + row_key + e.name + "` |";
    if (!markdown) {
      out << "  " << e.name << " — " << e.summary << "\n";
    } else if (keys.str().rfind(name_cell, 0) != 0 || keys.str().find('\n') + 1 != keys.str().size()) {
      // (an entry that is one key, monitor.pfc, is that key's row alone)
      out << name_cell << " | " << e.summary << " |\n";
    }
    out << keys.str();
  }
}

}  // namespace

void print_part_types(const std::string& kind, std::ostream& out, bool markdown) {
  if (kind == "topologies")
    print_entries(topology_types(), out, markdown, "type: ");
  else if (kind == "workloads")
    print_entries(workload_types(), out, markdown, "type: ");
  else
    print_entries(monitor_types(), out, markdown, "monitor.", "monitor.");
}

}  // namespace lossless
