// Classical fourth-order Runge-Kutta with a fixed step, for reproducing the paper's fixed-step
// setting (1e-6 s). The Euler parameters are renormalised after each step.
#pragma once

#include <cstddef>
#include <vector>

#include "surfdb/multibody/ode_system.hpp"

namespace surfdb {

class Rk4 {
 public:
  explicit Rk4(int state_size) : k1_(state_size), k2_(state_size), k3_(state_size), k4_(state_size), tmp_(state_size) {}

  /// Advances y (state_size values) from t by h.
  void step(OdeSystem& system, double t, double h, double* y) {
    const std::size_t n = tmp_.size();
    system.derivative(t, y, k1_.data());
    for (std::size_t c = 0; c < n; ++c) tmp_[c] = y[c] + 0.5 * h * k1_[c];
    system.derivative(t + 0.5 * h, tmp_.data(), k2_.data());
    for (std::size_t c = 0; c < n; ++c) tmp_[c] = y[c] + 0.5 * h * k2_[c];
    system.derivative(t + 0.5 * h, tmp_.data(), k3_.data());
    for (std::size_t c = 0; c < n; ++c) tmp_[c] = y[c] + h * k3_[c];
    system.derivative(t + h, tmp_.data(), k4_.data());
    for (std::size_t c = 0; c < n; ++c) y[c] += h / 6 * (k1_[c] + 2 * k2_[c] + 2 * k3_[c] + k4_[c]);
    system.normalise(y);
  }

  /// The derivative at the start of the last step (k1).
  const std::vector<double>& start_slope() const { return k1_; }

 private:
  std::vector<double> k1_, k2_, k3_, k4_, tmp_;
};

}  // namespace surfdb
