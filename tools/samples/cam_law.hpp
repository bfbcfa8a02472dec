// The cam-follower benchmark's motion law (samples/cam_follower, issue 18), header-only so that the
// part generator, the tests and anything else share one definition. Lengths in mm, the cam angle
// theta in rad; derivatives are with respect to theta (mm/rad, mm/rad^2, mm/rad^3).
//
// Over one turn, theta in [0, 2 pi) (the law is periodic):
//   rise    [0, 2pi/3]      cycloidal, s = h (x - sin(2 pi x) / (2 pi)), x = theta / beta, beta = 2pi/3
//   dwell   [2pi/3, pi]     s = h
//   return  [pi, 5pi/3]     cycloidal back to 0, s = h (1 - (x - sin(2 pi x) / (2 pi))), x = (theta - pi) / beta
//   dwell   [5pi/3, 2pi]    s = 0
// s, s' and s'' are continuous; s''' jumps at the four ends (the cycloid's jerk is h (2pi)^2 / beta^3 there).
#pragma once

#include <cmath>
#include <numbers>

namespace surfdb::samples::cam {

inline constexpr double kBaseRadius = 40;      // R_b, mm: the cam's smallest radius (flat follower at s = 0)
inline constexpr double kLift = 10;            // h, mm
inline constexpr double kFollowerRadius = 8;   // r_f, mm: the spherical follower's radius
inline constexpr double kThickness = 10;       // mm, the cam's extrusion along z, centred on z = 0
inline constexpr double kRiseAngle = 2 * std::numbers::pi / 3;  // beta, rad: the rise's and the return's span

/// The follower's displacement and its derivatives with respect to the cam angle.
struct Lift {
  double s = 0;    // mm
  double ds = 0;   // mm/rad
  double dds = 0;  // mm/rad^2
  double ddds = 0; // mm/rad^3 (one-sided at the segments' ends, where it jumps)
};

/// The cycloid's value and derivatives at x in [0, 1] over a span beta, scaled by the lift.
inline Lift cycloid(double x, double beta = kRiseAngle, double h = kLift) {
  constexpr double two_pi = 2 * std::numbers::pi;
  return {h * (x - std::sin(two_pi * x) / two_pi), h / beta * (1 - std::cos(two_pi * x)),
          h / (beta * beta) * two_pi * std::sin(two_pi * x), h / (beta * beta * beta) * two_pi * two_pi * std::cos(two_pi * x)};
}

/// s(theta) and its derivatives, theta any angle (reduced to [0, 2 pi)).
inline Lift lift(double theta) {
  constexpr double pi = std::numbers::pi;
  double a = std::fmod(theta, 2 * pi);
  if (a < 0) a += 2 * pi;
  if (a < kRiseAngle) return cycloid(a / kRiseAngle);
  if (a < pi) return {kLift, 0, 0, 0};
  if (a < pi + kRiseAngle) {
    const Lift c = cycloid((a - pi) / kRiseAngle);
    return {kLift - c.s, -c.ds, -c.dds, -c.ddds};
  }
  return {};
}

}  // namespace surfdb::samples::cam
