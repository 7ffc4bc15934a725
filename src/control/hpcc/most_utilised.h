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
[[gnu::always_inline]] inline void keep_most_utilised(double u, double dt, double& max_u, double& tau) {
#if defined(__SSE2__)
  const __m128d vu = _mm_set_sd(u);
  const __m128d vmax = _mm_set_sd(max_u);
  const __m128d greater = _mm_cmpgt_sd(vu, vmax);
  tau =
      _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(greater, _mm_set_sd(dt)), _mm_andnot_pd(greater, _mm_set_sd(tau))));
  max_u = _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(greater, vu), _mm_andnot_pd(greater, vmax)));
#else
  if (u > max_u) {
    max_u = u;
    tau = dt;
  }
#endif
}

}  // namespace lossless
