#include "scenario/substrate_keys.h"

#include <sstream>

#include "core/params.h"
#include "net/config.h"
#include "net/flow_control.h"
#include "net/switch_architecture.h"

namespace lossless {
namespace {

void row(std::ostream& out, bool markdown, const std::string& key, const std::string& def,
         const std::string& doc) {
  if (markdown) {
    out << "| `" << key << "` | " << def << " | " << doc << " |\n";
    return;
  }
  std::string k = key, d = def;
  k.resize(std::max<std::size_t>(k.size() + 1, 26), ' ');
  d.resize(std::max<std::size_t>(d.size() + 1, 12), ' ');
  out << "    " << k << d << doc << "\n";
}

}  // namespace

void print_substrate_keys(const std::string& section, std::ostream& out, bool markdown) {
  const std::string prefix = markdown ? section + "." : "";
  ParamPrinter printer(out, "    ", markdown, prefix);
  if (section == "switch") {
    SwitchConfig c;
    c.visit(printer);
    row(out, markdown, prefix + "params", "{}", "parameters of the mechanism (`lossless list mechanisms`)");
    // A flow-control policy's parameters, key by key (switch.ppfc.horizon, ...).
    for (const auto& e : FlowControlRegistry::all())
      if (!e.section.empty()) {
        std::ostringstream keys;
        e.print_keys(keys, markdown, prefix + e.section + ".");
        if (keys.str().empty())
          row(out, markdown, prefix + e.section, "{}", "parameters of flow_control " + e.name);
        out << keys.str();
      }
    for (const auto& e : ArchitectureRegistry::all())
      if (!e.section.empty())
        row(out, markdown, prefix + e.section, "{}",
            "parameters of architecture " + e.name + " (`lossless list mechanisms`)");
  } else {
    NicConfig n;
    n.cnp_interval_ps = kTimeNever;  // auto: the congestion control's choice
    n.rto_ps = kTimeNever;           // auto: off on a lossless fabric
    n.visit(printer);
  }
}

}  // namespace lossless
