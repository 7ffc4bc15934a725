// `none`: no congestion control. Every QP sends at line rate (optionally with a fixed window); only PFC or
// drops hold it back. The reference for "what the fabric does on its own".
#include "control/cc_scheme.h"
#include "net/queue_pair.h"

namespace lossless {
namespace {

struct LineRateParams {
  Bytes window = 0;
  template <class V>
  void visit(V& v) {
    v.size("window", window, "fixed window in bytes (0 = none)");
  }
};

class LineRateSender final : public CongestionControl {
 public:
  LineRateSender(const LineRateParams& p, SenderQp& qp, const CcEnv&) { qp.window_bytes = p.window; }
};

}  // namespace

LOSSLESS_REGISTER_CC(LineRateParams, LineRateSender, "none", "no congestion control: line rate, PFC only");

}  // namespace lossless
