// Registration helpers for the switch's own schemes: a flow-control policy, a routing policy, an
// architecture. A scheme file ends with one LOSSLESS_REGISTER_... line.
#pragma once
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "control/scheme_entry.h"
#include "net/flow_control.h"
#include "net/routing_policy.h"
#include "net/switch_architecture.h"
#include "net/switch_path.h"

namespace lossless {

// Each scheme class below may list the packet slots its parts use: `static constexpr const SlotSpec* kSlots[]
// = {...};` (net/packet_slot.h).
//
// What the packet path needs of a flow-control policy (net/flow_control.h) for one buffer type: the two calls
// it compiles in for every data-priority packet.
template <class Policy, class Buffer>
concept FlowControlPolicyFor = requires(Policy& p, Switch& sw, Buffer& b, std::uint16_t port,
                                        std::uint8_t prio, const Packet& pk) {
  p.after_admit(sw, b, port, prio, pk, port);
  p.after_release(sw, b, port, prio, pk, port);
};

// A flow-control policy: a final class derived from FlowControlPolicy, built as Policy(const Params&,
// Switch&) per switch, `Policy::kLossless` saying whether it keeps the fabric lossless, and after_admit /
// after_release templates for the shared buffer and for an architecture's BufferModel. A class that misses
// one is refused at its registration line, naming the requirement.
template <class Policy, class Params>
concept FlowControlPolicyType = std::derived_from<Policy, FlowControlPolicy> && std::is_final_v<Policy> &&
    std::constructible_from<Policy, const Params&, Switch&> && requires {
  { Policy::kLossless } -> std::convertible_to<bool>;
} && FlowControlPolicyFor<Policy, SharedBufferMmu> && FlowControlPolicyFor<Policy, BufferModel>;

// A policy with a part on every NIC names it `using Nic = ...`, built as Nic(const Params&, RdmaNic&, const
// CcEnv&).
template <class Params, class Policy>
requires FlowControlPolicyType<Policy, Params>
class FlowControlFactoryOf final : public FlowControlFactory {
 public:
  explicit FlowControlFactoryOf(const Params& p) : p_(p) {}
  std::unique_ptr<FlowControlPolicy> create(Switch& sw) const override {
    return std::make_unique<Policy>(p_, sw);
  }
  bool lossless() const override { return Policy::kLossless; }
  SlotList slots() const override { return slots_of<Policy>(); }
  SwitchPathFns path(unsigned features, bool custom_buffer) const override {
    return switch_path_for<Policy>(features, custom_buffer);
  }
  std::unique_ptr<NicControl> create_nic(RdmaNic& nic, const CcEnv& env) const override {
    if constexpr (requires { typename Policy::Nic; }) {
      return std::make_unique<typename Policy::Nic>(p_, nic, env);
    } else {
      return (void)nic, (void)env, nullptr;
    }
  }

 private:
  Params p_;
};

// Router(const Params&, Switch&, Network&) per switch, or Router(const Params&, SwitchId, Network&) for a
// router that needs only the switch's id: such a router also computes paths through the switches of other
// ranks (RoutingFactory::create_for_paths). `Router::kReorders` (true) when packets of one flow may take
// different paths.
template <class Params, class Router>
class RoutingFactoryOf final : public RoutingFactory {
  static constexpr bool kById = std::is_constructible_v<Router, const Params&, SwitchId, Network&>;

 public:
  explicit RoutingFactoryOf(const Params& p) : p_(p) {}
  std::unique_ptr<RoutingPolicy> create(Switch& sw, Network& net) const override {
    if constexpr (kById) {
      return std::make_unique<Router>(p_, SwitchId{sw.index(), sw.node()}, net);
    } else {
      return std::make_unique<Router>(p_, sw, net);
    }
  }
  std::unique_ptr<RoutingPolicy> create_for_paths(SwitchId sw, Network& net) const override {
    if constexpr (kById) {
      return std::make_unique<Router>(p_, sw, net);
    } else {
      return (void)sw, (void)net, nullptr;
    }
  }
  SlotList slots() const override { return slots_of<Router>(); }
  bool reorders() const override {
    if constexpr (requires { Router::kReorders; }) {
      return Router::kReorders;
    } else {
      return false;
    }
  }

 private:
  Params p_;
};

// Arch provides `static std::unique_ptr<BufferModel> buffer(const Params&, Switch&)` and
// `static std::unique_ptr<EgressQueues> queues(const Params&, Switch&, const Port&)`.
template <class Params, class Arch>
class ArchitectureFactoryOf final : public ArchitectureFactory {
 public:
  explicit ArchitectureFactoryOf(const Params& p) : p_(p) {}
  std::unique_ptr<BufferModel> create_buffer(Switch& sw) const override { return Arch::buffer(p_, sw); }
  std::unique_ptr<EgressQueues> create_queues(Switch& sw, const Port& port) const override {
    return Arch::queues(p_, sw, port);
  }
  SlotList slots() const override { return slots_of<Arch>(); }

 private:
  Params p_;
};

// `section`: the key under `switch:` that holds the policy's parameters ("" = none).
#define LOSSLESS_REGISTER_FLOW_CONTROL(Params, Policy, name, section, summary)                           \
  static const bool LOSSLESS_CONCAT(kRegisteredFlowControl, __LINE__) [[maybe_unused]] =                 \
      ::lossless::FlowControlRegistry::add(                                                              \
          ::lossless::make_scheme_entry<::lossless::FlowControlFactory, Params,                          \
                                        ::lossless::FlowControlFactoryOf<Params, Policy>>(name, summary, \
                                                                                          section))

#define LOSSLESS_REGISTER_ROUTING(Params, Router, name, summary)                     \
  static const bool LOSSLESS_CONCAT(kRegisteredRouting, __LINE__) [[maybe_unused]] = \
      ::lossless::RoutingRegistry::add(                                              \
          ::lossless::make_scheme_entry<::lossless::RoutingFactory, Params,          \
                                        ::lossless::RoutingFactoryOf<Params, Router>>(name, summary))

// `section`: the key under `switch:` that holds the architecture's parameters ("" = none).
#define LOSSLESS_REGISTER_ARCHITECTURE(Params, Arch, name, section, summary)                            \
  static const bool LOSSLESS_CONCAT(kRegisteredArchitecture, __LINE__) [[maybe_unused]] =               \
      ::lossless::ArchitectureRegistry::add(                                                            \
          ::lossless::make_scheme_entry<::lossless::ArchitectureFactory, Params,                        \
                                        ::lossless::ArchitectureFactoryOf<Params, Arch>>(name, summary, \
                                                                                         section))

}  // namespace lossless
