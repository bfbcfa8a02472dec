#include "surfdb/multibody/simulation.hpp"

#include <cmath>

#include "surfdb/contact/contact_wrench.hpp"
#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb {

Simulation::Simulation(MultibodyModel model, std::vector<ContactPair> pairs, Stabilisation stabilisation)
    : model_(std::move(model)), dynamics_(model_, stabilisation), pairs_(std::move(pairs)), power_(pairs_.size()) {
  loads_ = [this](double, const double* y, std::vector<BodyLoad>& loads) { add_contact_loads(y, loads); };
}

BodyState Simulation::state_of(const double* y, int body) const {
  return body == kGround ? BodyState{} : body_view(y, body).body_state();
}

void Simulation::add_contact_loads(const double* y, std::vector<BodyLoad>& loads) {
  for (std::size_t k = 0; k < pairs_.size(); ++k) {
    ContactPair& pair = pairs_[k];
    const int i = pair.spec().body_i, j = pair.spec().body_j;
    const BodyState bi = state_of(y, i), bj = state_of(y, j);
    const std::span<const ContactResult> points = pair.detect(bi, bj);
    power_[k] = 0;
    for (std::size_t p = 0; p < points.size(); ++p) {
      if (!pair.active(p)) continue;
      const ContactResult& c = points[p];
      const ContactForces f = pair.forces(p);
      power_[k] += (f.normal - f.elastic) * c.indentation_rate - f.tangential.dot(c.tangential_velocity);
      const ContactWrench w = contact_wrench(c, f.normal, f.tangential, bi.pose, bj.pose);
      if (i != kGround) {
        loads[i].force += w.force_i;
        loads[i].torque += w.torque_i;
      }
      if (j != kGround) {
        loads[j].force += w.force_j;
        loads[j].torque += w.torque_j;
      }
    }
  }
}

void Simulation::derivative(double t, const double* y, double* ydot) {
  dynamics_.derivative(t, y, ydot, loads_);
  for (std::size_t k = 0; k < pairs_.size(); ++k) ydot[dynamics_.state_size() + k] = power_[k];
}

void Simulation::accept(double t, const double* y) {
  for (ContactPair& pair : pairs_) {
    pair.detect(state_of(y, pair.spec().body_i), state_of(y, pair.spec().body_j));
    pair.accept(t);
  }
}

double Simulation::mechanical_energy(const double* y) const {
  double e = dynamics_.kinetic_energy(y) + dynamics_.potential_energy(y);
  for (const ContactPair& pair : pairs_) e += pair.state().last_elastic_energy;
  return e;
}

double Simulation::dissipated_energy(const double* y) const {
  double e = 0;
  for (std::size_t k = 0; k < pairs_.size(); ++k) e += y[dynamics_.state_size() + k];
  return e;
}

}  // namespace surfdb
