// Fourth-order Adams-Bashforth with a fixed step: the explicit multistep method of the Adams
// family the paper's variable-order Gear-type integrator belongs to, at the paper's fixed step
// (1e-6 s). One derivative per step against Runge-Kutta's four, for the same order; the first
// three steps are taken by RK4 to fill the history. The Euler parameters are renormalised after
// each step, before the derivative there is taken. Stable for oscillations up to |lambda h| of
// about 0.4: a Hertz contact of the demonstration has |lambda h| near 0.04 at h = 1e-6 s.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "surfdb/multibody/integrator_rk4.hpp"
#include "surfdb/multibody/ode_system.hpp"

namespace surfdb {

class AdamsBashforth4 {
 public:
  explicit AdamsBashforth4(int state_size) : rk4_(state_size) {
    for (auto& f : history_) f.resize(static_cast<std::size_t>(state_size));
  }

  /// Advances y (state_size values) from t by h. Successive calls must continue one trajectory
  /// with one h; restart() begins another.
  void step(OdeSystem& system, double t, double h, double* y) {
    const std::size_t n = history_[0].size();
    std::vector<double>& f0 = history_[newest(0)];  // f at y_n
    if (filled_ < 3) {
      rk4_.step(system, t, h, y);
      f0 = rk4_.start_slope();
      ++filled_;
    } else {
      system.derivative(t, y, f0.data());  // the one derivative of this step
      const double* f1 = history_[newest(1)].data();
      const double* f2 = history_[newest(2)].data();
      const double* f3 = history_[newest(3)].data();
      const double c = h / 24;
      for (std::size_t k = 0; k < n; ++k) y[k] += c * (55 * f0[k] - 59 * f1[k] + 37 * f2[k] - 9 * f3[k]);
      system.normalise(y);
    }
    head_ = (head_ + 1) % history_.size();
  }

  void restart() { filled_ = 0; }

 private:
  std::size_t newest(std::size_t age) const { return (head_ + history_.size() - age) % history_.size(); }

  Rk4 rk4_;
  std::array<std::vector<double>, 4> history_;  // f at the last four step starts, a ring
  std::size_t head_ = 0;                         // where this step's derivative goes
  int filled_ = 0;                               // steps taken since the start
};

}  // namespace surfdb
