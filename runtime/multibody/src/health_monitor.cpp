#include "health_monitor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/multibody/simulation.hpp"
#include "sphere_in_solid.hpp"

namespace surfdb {
namespace {

std::string named(const char* what, const std::string& name) { return std::string(what) + " '" + name + "'"; }

// The energy balance's rounding, relative to |E0| (the sum carries terms of that size): no gain
// below it is seen, in a scene where nothing moves too.
constexpr double kRoundingFloor = 1e-12;

}  // namespace

HealthMonitor::HealthMonitor(const Simulation& sim, const HealthLimits& limits, double energy0, RunHealth& health)
    : sim_(sim), limits_(limits), health_(health), energy0_(energy0), potential_min_(INFINITY),
      potential_max_(-INFINITY), energy_applies_(sim.model().drivers.empty()), failures_(sim.contacts().size()),
      appearances_(sim.contacts().size()), joint_failures_(sim.surface_joints().size()) {
  for (std::size_t c = 0; c < sim.contacts().size(); ++c) {
    failures_[c] = sim.contacts()[c].statistics().solver_failures;
    appearances_[c] = static_cast<std::uint64_t>(sim.contacts()[c].statistics().deep_appearances);
  }
  for (std::size_t k = 0; k < sim.surface_joints().size(); ++k)
    joint_failures_[k] = sim.surface_joints()[k].statistics().solver_failures;
}

void HealthMonitor::after_step(double t, const double* y) {
  check_contacts(t);
  check_solids(t, y);
  if (energy_applies_) check_energy(t, y);
}

void HealthMonitor::at_output(double t, double violation) {
  if (!(violation > limits_.constraint_drift)) return;
  char bound[32];
  std::snprintf(bound, sizeof bound, "the bound %.3g", limits_.constraint_drift);
  health_.note(HealthKind::constraint_drift, "joints", t, violation, bound);
}

bool HealthMonitor::finite(double t, const double* y) {
  const int n = sim_.size();
  for (int k = 0; k < n; ++k) {
    if (std::isfinite(y[k])) continue;
    const int bodies = sim_.dynamics().state_size();
    const std::size_t contact = static_cast<std::size_t>(k - bodies);
    const std::string subject =
        k < bodies ? named("body", sim_.model().bodies[static_cast<std::size_t>(k / kBodyStateSize)].name)
        : contact < sim_.contacts().size() ? named("contact", sim_.contacts()[contact].name())
                                           : std::string("surface joints");
    health_.note(HealthKind::non_finite_state, subject, t);
    return false;
  }
  return true;
}

void HealthMonitor::check_contacts(double t) {
  for (std::size_t c = 0; c < failures_.size(); ++c) {
    const ContactGroup& g = sim_.contacts()[c];
    const GroupStatistics& s = g.statistics();
    if (s.solver_failures != failures_[c])
      health_.note(HealthKind::solver_failures, named("contact", g.name()), t, 0, {},
                   static_cast<long>(s.solver_failures - failures_[c]));
    const auto appeared = static_cast<std::uint64_t>(s.deep_appearances);
    if (appeared != appearances_[c])
      health_.note(HealthKind::deep_appearance, named("contact", g.name()), t, s.deepest_appearance, {},
                   static_cast<long>(appeared - appearances_[c]));
    failures_[c] = s.solver_failures;
    appearances_[c] = appeared;
  }
  for (std::size_t k = 0; k < joint_failures_.size(); ++k) {
    const SurfaceJoint& j = sim_.surface_joints()[k];
    const std::uint64_t failures = j.statistics().solver_failures;
    if (failures != joint_failures_[k])
      health_.note(HealthKind::solver_failures, named("surface joint", j.name()), t, 0, {},
                   static_cast<long>(failures - joint_failures_[k]));
    joint_failures_[k] = failures;
  }
}

// A sphere whose centre lies inside a solid while none of its points touches it has passed
// through its surface (a contact that ended at a face's trim, an edge no feature caught).
void HealthMonitor::check_solids(double t, const double* y) {
  for (const ContactGroup& g : sim_.contacts())
    g.for_each_pair([&](const ContactPair& pair) {
      if (pair.state().points > 0) return;
      const SphereInSolid s = sphere_in_solid(pair, y);
      if (s.applies && s.centre < 0) health_.note(HealthKind::passed_through, named("contact", pair.name()), t, -s.centre);
    });
}

// E + W - E0 may not rise beyond the bound: a jump into a contact, a step too coarse, a sign wrong.
// The scale is made of differences only (the potential's range, not its value), so that where the
// origin lies does not change the bound.
void HealthMonitor::check_energy(double t, const double* y) {
  double elastic = 0;
  for (const ContactGroup& g : sim_.contacts()) elastic += g.output().elastic_energy;
  const double energy = sim_.mechanical_energy(y), dissipated = sim_.dissipated_energy(y);
  const double kinetic = sim_.dynamics().kinetic_energy(y), potential = energy - kinetic - elastic;
  potential_min_ = std::min(potential_min_, potential);
  potential_max_ = std::max(potential_max_, potential);
  energy_scale_ = std::max({energy_scale_, kinetic, elastic, dissipated, potential_max_ - potential_min_});
  const double gain = energy + dissipated - energy0_;
  if (gain > limits_.energy_gain * energy_scale_ + kRoundingFloor * std::abs(energy0_))
    health_.note(HealthKind::energy_gain, "energy", t, gain);
}

}  // namespace surfdb
