// Scalar tolerances that say whether they are relative or absolute.
//
// doctest::Approx(x).epsilon(e) accepts |a - x| < e (1 + max(|a|, |x|)): its scale defaults to 1.
// For values well below 1 (metres, seconds, indentations of micrometres) that is an absolute
// tolerance of e, not a relative one: Approx(1e-5).epsilon(1e-3) accepts anything below 1e-3,
// a hundred times the value. Use these instead where the value is not of order 1.
#pragma once

#include <doctest/doctest.h>

namespace surfdb::test {

/// |actual - expected| < eps * max(|actual|, |expected|).
inline doctest::Approx relative(double expected, double eps) {
  return doctest::Approx(expected).epsilon(eps).scale(0);
}

}  // namespace surfdb::test
