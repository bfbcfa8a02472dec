// What the scene tests on surface sets share: a part written as STEP and converted as a set with
// its edges, and a run of a scenario recorded at every accepted step (its first contact's normal
// forces, the first body's pose, the energy) with no solver failure allowed.
#pragma once

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "../support/temp_dir.hpp"
#include "contact_parts.hpp"
#include "surfdb/libsurfdb/surface_set_writer.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

namespace surfdb::test {

/// The shape as DIR/NAME.step, converted into DIR/NAME.sdbs, every face, nodes `spacing` mm apart.
inline std::filesystem::path convert_part(const TempDir& dir, const TopoDS_Shape& shape, const std::string& name,
                                          double spacing = 1.0) {
  const std::filesystem::path step = dir / (name + ".step"), set = dir / (name + ".sdbs");
  samples::write_step(shape, step);
  const CadModel model = CadModel::load(step);
  SurfaceSetOptions o;
  o.spacing = spacing;
  o.table.threads = 1;
  write_surface_set(model, plan_surface_set(model, o), o, set);
  return set;
}

struct SceneSample {
  double t;
  Eigen::Vector3d centre;          // the first body's, m
  Eigen::Quaterniond orientation;  // the first body's
  double force;                    // N, the first contact's normal forces summed
  int points;                      // its points carrying more than `weight_share` of the first body's weight
  double energy;                   // J, mechanical plus dissipated
};

class SceneRecorder : public RunObserver {
 public:
  explicit SceneRecorder(double weight_share = 1e-3) : share_(weight_share) {}
  void accepted(const Simulation& sim, double t, const double* y) override {
    const ContactPair& p = *sim.contacts()[0].single();
    const double weight = sim.model().bodies[0].mass * sim.model().gravity.norm();
    double force = 0;
    int points = 0;
    for (std::size_t k = 0; k < p.freeform()->size(); ++k)
      if (p.active(k)) force += p.forces(k).normal, points += p.forces(k).normal > share_ * weight;
    const BodyStateView body = body_view(y, 0);
    samples.push_back({t, body.r(), body.orientation(), force, points, sim.mechanical_energy(y) + sim.dissipated_energy(y)});
  }
  std::vector<SceneSample> samples;

 private:
  double share_;
};

/// Runs the scenario, every accepted step recorded; checks its first contact had no solver failure.
inline std::vector<SceneSample> simulate_scene(const std::filesystem::path& scenario, RunStatistics& run) {
  Scenario s = load_scenario(scenario);
  const std::unique_ptr<Simulation> sim = make_simulation(s);
  std::vector<double> y = s.initial_state;
  SceneRecorder recorder;
  run = sim->run(y, s.run, recorder);
  CHECK(sim->contacts()[0].single()->state().statistics.solver_failures == 0);
  return std::move(recorder.samples);
}

}  // namespace surfdb::test
