#include "control/pfc/standard_pfc.h"

#include "control/switch_schemes.h"

namespace lossless {

LOSSLESS_REGISTER_FLOW_CONTROL(NoParams, StandardPfc, "pfc", "",
                               "standard PFC: pause at the buffer's threshold (switch.pfc), resume below it");
LOSSLESS_REGISTER_FLOW_CONTROL(NoParams, NoFlowControl, "none", "",
                               "no pauses: lossy, the buffer tail-drops at its threshold (drops counted)");

}  // namespace lossless
