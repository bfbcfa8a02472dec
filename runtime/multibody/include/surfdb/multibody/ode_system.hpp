// What the integrators advance: a first-order system ydot = f(t, y) of fixed size.
#pragma once

namespace surfdb {

class OdeSystem {
 public:
  virtual ~OdeSystem() = default;
  virtual int size() const = 0;
  virtual void derivative(double t, const double* y, double* ydot) = 0;
  /// Projects y back onto its invariants after an accepted fixed step (unit Euler parameters).
  virtual void normalise(double* /*y*/) const {}
};

}  // namespace surfdb
