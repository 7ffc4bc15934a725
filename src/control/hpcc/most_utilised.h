// HPCC's choice of the most utilised hop (Algorithm 1, MeasureInflight: the hop with the largest U and its
// time since the last record), as a select rather than a branch.
#pragma once
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lossless {

// (max_u, tau) = (u, dt) if u > max_u, without a branch: which hop is the most utilised changes from ACK to
// ACK in no pattern, and gcc compiles the plain `if` (and ?:) to a branch that mispredicted ~0.5 M times per
// 0.6 ms of fat320. Both values are chosen by the comparison's mask, which is false for ties and NaN as the
// `if` is (the earlier of two equally utilised hops gives tau; maxsd would not keep max_u against a NaN).
// The pair (max_u, tau) is one vector register over the hops of an ACK, and one mask selects both values:
// converting it back to scalars on every hop cost half the select's instructions, and two selects another
// five.
class MostUtilisedHop {
 public:
  MostUtilisedHop(double max_u, double tau) {
#if defined(__SSE2__)
    best_ = _mm_set_pd(tau, max_u);
#else
    max_u_ = max_u;
    tau_ = tau;
#endif
  }
  [[gnu::always_inline]] void keep(double u, double dt) {
#if defined(__SSE2__)
    const __m128d hop = _mm_unpacklo_pd(_mm_set_sd(u), _mm_set_sd(dt));  // (u, dt)
    // max_u < u in the low lane (false for NaN, as the `if`), copied to both lanes.
    const __m128d less = _mm_cmplt_sd(best_, hop);
    const __m128d take = _mm_unpacklo_pd(less, less);
    best_ = _mm_or_pd(_mm_and_pd(take, hop), _mm_andnot_pd(take, best_));
#else
    if (u > max_u_) {
      max_u_ = u;
      tau_ = dt;
    }
#endif
  }
#if defined(__SSE2__)
  double max_u() const { return _mm_cvtsd_f64(best_); }
  double tau() const { return _mm_cvtsd_f64(_mm_unpackhi_pd(best_, best_)); }

 private:
  __m128d best_;  // (max_u, tau)
#else
  double max_u() const { return max_u_; }
  double tau() const { return tau_; }

 private:
  double max_u_, tau_;
#endif
};

// One hop's select on scalars (the rule's tests).
inline void keep_most_utilised(double u, double dt, double& max_u, double& tau) {
  MostUtilisedHop most(max_u, tau);
  most.keep(u, dt);
  max_u = most.max_u();
  tau = most.tau();
}

}  // namespace lossless
