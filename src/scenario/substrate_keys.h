// The keys of the scenario's substrate sections (switch:, nic:) with their defaults and meanings, printed
// from the sections' own visit() (net/config.h): `lossless list switch|nic` and the README's tables.
#pragma once
#include <ostream>
#include <string>

namespace lossless {

// `section` is "switch" or "nic"; `markdown` prints README table rows (`| key | default | meaning |`).
void print_substrate_keys(const std::string& section, std::ostream& out, bool markdown);

}  // namespace lossless
