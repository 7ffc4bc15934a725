#include "control/capfc/capfc.h"

#include "control/switch_schemes.h"
#include "net/network.h"
#include "net/pause_kinds.h"

namespace lossless {

const std::uint8_t kCapfcPause = PauseKinds::add("capfc");

CapfcEngine::Thresholds CapfcEngine::resolve(const CapfcParams& p, Bytes pool_bytes) {
  Thresholds t;
  t.warn = p.warn ? p.warn : pool_bytes / 4;
  t.warn_off = p.warn_off ? p.warn_off : t.warn / 2;
  t.warn_xoff = p.warn_xoff ? p.warn_xoff : t.warn / 16;
  t.warn_xon = p.warn_xon ? p.warn_xon : t.warn_xoff / 2;
  return t;
}

CapfcEngine::CapfcEngine(const Thresholds& t, std::uint16_t ports)
    : t_(t),
      n_(ports),
      from_(std::size_t{ports} * kPriorities * ports, 0),
      egress_(std::size_t{ports} * kPriorities, 0),
      warn_(std::size_t{ports} * kPriorities, false),
      paused_(std::size_t{ports} * kPriorities, false) {}

Capfc::Capfc(const CapfcParams& p, Switch& sw)
    : kind_(kCapfcPause),
      standard_(NoParams{}, sw),
      engine_(CapfcEngine::resolve(p, sw.mmu.shared_pool_bytes()),
              static_cast<std::uint16_t>(sw.ports.size())) {}

LOSSLESS_REGISTER_FLOW_CONTROL(CapfcParams, Capfc, "capfc", "capfc",
                               "CaPFC (IFIP Networking'16, reconstructed): standard PFC plus early pauses of "
                               "the inputs that fill an egress queue above its WARN threshold");

}  // namespace lossless
