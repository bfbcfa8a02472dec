#include "surfdb/runtime/simulation.hpp"

#include <cmath>

#include "surfdb/runtime/contact_wrench.hpp"
#include "surfdb/runtime/multibody_state.hpp"

namespace surfdb {

Simulation::Simulation(const MultibodyModel& model, std::vector<ContactPair> pairs, Stabilisation stabilisation)
    : dynamics_(model, stabilisation), pairs_(std::move(pairs)), power_(pairs_.size()) {
  loads_ = [this](double, const double* y, std::vector<BodyLoad>& loads) {
    for (std::size_t k = 0; k < pairs_.size(); ++k) {
      ContactPair& pair = pairs_[k];
      const BodyState bi = state_of(y, pair.body_i), bj = state_of(y, pair.body_j);
      const ContactResult c = detect(pair, bi, bj);
      const ContactForces f = contact_forces(pair, c);
      power_[k] = (f.normal - f.elastic) * c.indentation_rate - f.tangential.dot(c.tangential_velocity);
      if (!c.in_contact()) continue;
      const ContactWrench w = contact_wrench(c, f.normal, f.tangential, bi.pose, bj.pose);
      if (pair.body_i != kGround) {
        loads[pair.body_i].force += w.force_i;
        loads[pair.body_i].torque += w.torque_i;
      }
      if (pair.body_j != kGround) {
        loads[pair.body_j].force += w.force_j;
        loads[pair.body_j].torque += w.torque_j;
      }
    }
  };
}

BodyState Simulation::state_of(const double* y, int body) const {
  return body == kGround ? BodyState{} : body_view(y, body).body_state();
}

void Simulation::derivative(double t, const double* y, double* ydot) {
  dynamics_.derivative(t, y, ydot, loads_);
  for (std::size_t k = 0; k < pairs_.size(); ++k) ydot[dynamics_.state_size() + k] = power_[k];
}

void Simulation::accept(double t, const double* y) {
  for (ContactPair& pair : pairs_) {
    const ContactResult c = detect(pair, state_of(y, pair.body_i), state_of(y, pair.body_j));
    const ContactForces f = contact_forces(pair, c);
    pair.last = c;
    pair.last_force = f.normal;
    pair.last_elastic_energy = f.elastic_energy;
    update_impact(pair.memory, c);
    ContactStatistics& s = pair.statistics;
    if (c.in_contact()) {
      if (std::isnan(s.first_contact_time)) s.first_contact_time = t;
      s.max_indentation = std::max(s.max_indentation, c.indentation);
    }
    if (c.status == ContactStatus::no_convergence || c.status == ContactStatus::singular) ++s.solver_failures;
  }
}

double Simulation::mechanical_energy(const double* y) const {
  double e = dynamics_.kinetic_energy(y) + dynamics_.potential_energy(y);
  for (const ContactPair& pair : pairs_) e += pair.last_elastic_energy;
  return e;
}

double Simulation::dissipated_energy(const double* y) const {
  double e = 0;
  for (std::size_t k = 0; k < pairs_.size(); ++k) e += y[dynamics_.state_size() + k];
  return e;
}

}  // namespace surfdb
