// Registration helper for congestion-control schemes: a scheme file ends with one LOSSLESS_REGISTER_CC line
// (STYLE P8), or LOSSLESS_REGISTER_CC_PARTS when it has more parts than a sender.
#pragma once
#include <type_traits>

#include "control/dcqcn/notification_point.h"
#include "control/mechanism_scheme.h"
#include "control/scheme_entry.h"
#include "net/congestion_control.h"

namespace lossless {

// A scheme's parts (net/congestion_control.h). Required: Params (with `visit`, optionally `initial` and
// `hints()`) and Sender, built as Sender(const Params&, SenderQp&, const CcEnv&) per QP. Optional:
//   Receiver(const Params&, ReceiverContext&, const Flow&, const CcEnv&)  per flow at its receiver
//            (default: EcnNotificationPoint, the RoCEv2 NIC's);
//   Nic(const Params&, RdmaNic&, const CcEnv&)                              per NIC;
//   SwitchPart(const Params&, Switch&, Network&)                            per switch (a SwitchMechanism);
//   kSlots: the packet slots all of its parts use (net/packet_slot.h), on Parts (or on the Sender of a
//            scheme registered with LOSSLESS_REGISTER_CC).
//   static trace_header(const Params&) and write_trace_row(FILE*, const Params&, const Sender&,
//            const Receiver&): a per-flow trace, `<cc>.csv` (CcFactory::trace_header).
template <class P, class S>
struct CcParts {
  using Params = P;
  using Sender = S;
};

template <class Parts>
class CcFactoryOf final : public CcFactory {
 public:
  using Params = typename Parts::Params;
  using Sender = typename Parts::Sender;

  explicit CcFactoryOf(const Params& p) : p_(p) {
    if constexpr (requires { typename Parts::SwitchPart; })
      switch_part_ = std::make_unique<MechanismFactoryOf<Params, typename Parts::SwitchPart>>(p_);
  }
  std::unique_ptr<CongestionControl> create(SenderQp& qp, const CcEnv& env) const override {
    return std::make_unique<Sender>(p_, qp, env);
  }
  std::unique_ptr<ReceiverControl> create_receiver(ReceiverContext& rx, const Flow& flow,
                                                   const CcEnv& env) const override {
    return std::make_unique<ReceiverType>(p_, rx, flow, env);
  }
  std::unique_ptr<NicControl> create_nic(RdmaNic& nic, const CcEnv& env) const override {
    if constexpr (requires { typename Parts::Nic; }) {
      return std::make_unique<typename Parts::Nic>(p_, nic, env);
    } else {
      (void)nic, (void)env;
      return nullptr;
    }
  }
  const MechanismFactory* switch_part() const override { return switch_part_.get(); }
  SlotList slots() const override {
    if constexpr (requires { Parts::kSlots; }) {
      return slots_of<Parts>();
    } else {
      return slots_of<Sender>();
    }
  }
  std::size_t state_bytes() const override { return sizeof(Sender) + sizeof(ReceiverType); }
  const char* trace_header() const override {
    if constexpr (requires(const Params& p) { Parts::trace_header(p); }) {
      return Parts::trace_header(p_);
    } else {
      return nullptr;
    }
  }
  void write_trace_row(std::FILE* out, const CongestionControl& sender,
                       const ReceiverControl& receiver) const override {
    if constexpr (requires { &Parts::write_trace_row; }) {
      Parts::write_trace_row(out, p_, static_cast<const Sender&>(sender),
                             static_cast<const ReceiverType&>(receiver));
    } else {
      (void)out, (void)sender, (void)receiver;
    }
  }
  SubstrateHints hints() const override {
    if constexpr (requires(const Params& p) { p.hints(); }) {
      return p_.hints();
    } else {
      return {};
    }
  }

 private:
  template <class T>
  static auto receiver_of(int) -> typename T::Receiver;
  template <class T>
  static auto receiver_of(long) -> EcnNotificationPoint;
  using ReceiverType = decltype(receiver_of<Parts>(0));

  Params p_;
  std::unique_ptr<MechanismFactory> switch_part_;
};

#define LOSSLESS_REGISTER_CC_PARTS(Parts, name, summary)                                                     \
  static const bool LOSSLESS_CONCAT(kRegisteredCc, __LINE__) [[maybe_unused]] = ::lossless::CcRegistry::add( \
      ::lossless::make_scheme_entry<::lossless::CcFactory, typename Parts::Params,                           \
                                    ::lossless::CcFactoryOf<Parts>>(name, summary))

#define LOSSLESS_REGISTER_CC(Params, Sender, name, summary) \
  LOSSLESS_REGISTER_CC_PARTS(::lossless::CcParts<Params LOSSLESS_COMMA Sender>, name, summary)
#define LOSSLESS_COMMA ,

}  // namespace lossless
