#include "surfdb/scenario/scenario.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include "surfdb/multibody/joint_constraints.hpp"
#include "surfdb/formats/surface_set.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "scenario_keys.hpp"
#include "scenario_overrides.hpp"
#include "scenario_reader.hpp"

namespace surfdb {

Matrix3d rotation_from(const Reader& r, const toml::table& t, const char* key, const std::string& where) {
  if (!t.get(key)) return Matrix3d::Identity();
  const toml::array* rows = t.get(key)->as_array();
  if (!rows || rows->size() != 3) r.fail(*t.get(key), where + "." + key, "must be three rows of three numbers");
  Matrix3d m;
  for (int i = 0; i < 3; ++i) {
    const toml::node& row_node = (*rows)[static_cast<std::size_t>(i)];
    const toml::array* row = row_node.as_array();
    if (!row || row->size() != 3) r.fail(row_node, where + "." + key, "must be three rows of three numbers");
    for (int j = 0; j < 3; ++j) {
      const toml::node& e = (*row)[static_cast<std::size_t>(j)];
      auto v = e.value<double>();
      if (!v || !std::isfinite(*v)) r.fail(e, where + "." + key, "must hold finite numbers");
      m(i, j) = *v;
    }
  }
  if (!(m.transpose() * m).isIdentity(kRotationTolerance) || m.determinant() < 0)
    r.fail(*t.get(key), where + "." + key, "must be a rotation (orthonormal rows, determinant +1)");
  return m;
}

namespace {

// Euler parameters given in a file are accepted this close to unit length, then normalised.
constexpr double kUnitQuaternionTolerance = 1e-6;
// A joint's reference direction must be at least this far (sine of the angle) from its axis.
constexpr double kParallelTolerance = 1e-9;
// A driver's motion must vanish at t = 0 to this (rad or m): the joint is assembled at its zero.
constexpr double kDriverStartTolerance = 1e-12;

}  // namespace

Scenario ScenarioReader::read(toml::table root) {
  apply_overrides(root, overrides_);
  r_.only(root, scenario_keys::kTables, "scenario");
  check_finite(root, "");
  read_simulation(root);
  const toml::array* body_list = r_.tables(root, "body");
  if (!body_list) throw ScenarioError(source_ + ": no [[body]]");
  for (const toml::node& node : *body_list) read_body(*node.as_table());
  if (const toml::array* list = r_.tables(root, "joint"))
    for (const toml::node& node : *list) read_joint(*node.as_table());
  if (const toml::array* list = r_.tables(root, "driver"))
    for (const toml::node& node : *list) read_driver(*node.as_table());
  check_joints_independent();
  if (const toml::array* list = r_.tables(root, "spring"))
    for (const toml::node& node : *list) read_spring(*node.as_table());
  if (const toml::array* list = r_.tables(root, "surface"))
    for (const toml::node& node : *list) read_surface(*node.as_table());
  apply_densities();
  if (const toml::array* list = r_.tables(root, "contact"))
    for (const toml::node& node : *list) read_contact(*node.as_table());
  if (const toml::array* list = r_.tables(root, "joint"))
    for (const toml::node& node : *list)
      if (node.as_table()->get("type") && (*node.as_table())["type"].value<std::string>() == "surface_contact")
        read_surface_joint(*node.as_table());
  return std::move(s_);
}

void ScenarioReader::read_simulation(const toml::table& root) {
  const toml::table* sim = root["simulation"].as_table();
  if (!sim) throw ScenarioError(source_ + ": [simulation] is missing");
  r_.only(*sim, scenario_keys::kSimulation, "simulation");
  RunSettings& run = s_.run;
  run.end_time = r_.positive(*sim, "end_time", "simulation");
  const std::string integrator = r_.text(*sim, "integrator", "simulation", std::string("bdf"));  // RunSettings{}.integrator
  const std::map<std::string, IntegratorKind> kinds{{"ab4", IntegratorKind::ab4}, {"rk4", IntegratorKind::rk4},
                                                    {"adams", IntegratorKind::adams}, {"bdf", IntegratorKind::bdf},
                                                    {"dormand_prince", IntegratorKind::dormand_prince}};
  if (!kinds.count(integrator))
    r_.fail(*sim->get("integrator"), "simulation.integrator", "must be ab4, rk4, adams, bdf or dormand_prince");
  run.integrator = kinds.at(integrator);
  run.step = r_.positive(*sim, "step", "simulation", RunSettings{}.step);
  const SundialsOptions defaults;
  run.sundials.relative_tolerance = r_.positive(*sim, "relative_tolerance", "simulation", defaults.relative_tolerance);
  run.sundials.absolute_tolerance = r_.positive(*sim, "absolute_tolerance", "simulation", defaults.absolute_tolerance);
  run.sundials.max_step = r_.positive(*sim, "max_step", "simulation", defaults.max_step);
  run.output.interval = r_.positive(*sim, "output_interval", "simulation", OutputSchedule{}.interval);
  run.health.energy_gain = r_.positive(*sim, "energy_gain_tolerance", "simulation", HealthLimits{}.energy_gain);
  run.health.constraint_drift = r_.positive(*sim, "max_constraint_drift", "simulation", HealthLimits{}.constraint_drift);
  s_.model.gravity = r_.vec3(*sim, "gravity", "simulation", Vector3d(0, 0, -9.81));
  const double gain = r_.positive(*sim, "stabilisation_gain", "simulation", Stabilisation{}.beta);
  s_.stabilisation.alpha = s_.stabilisation.beta = gain;
}

void ScenarioReader::read_body(const toml::table& b) {
  const std::string name = r_.text(b, "name", "body");
  const std::string where = "body '" + name + "'";
  r_.only(b, scenario_keys::kBody, where);
  if (bodies_.count(name)) r_.fail(b, where, "the name is used twice (or is 'ground')");
  RigidBody body{name, 1, Matrix3d::Identity()};
  if (b.get("density")) {  // mass and inertia from the body's solid surface, once it is read
    for (const char* key : {"mass", "inertia", "principal_axes"})
      if (b.get(key)) r_.fail(*b.get(key), where + "." + key, "a body given a density takes its mass and inertia from its surface");
    (void)r_.positive(b, "density", where);
    density_bodies_.emplace_back(static_cast<int>(s_.model.bodies.size()), &b);
  } else {
    body.mass = r_.positive(b, "mass", where);
    body.inertia = read_body_inertia(r_, b, where);
  }
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  if (b.get("orientation")) {
    const auto e = r_.numbers(b, "orientation", where, 4);
    q = Eigen::Quaterniond(e[0], e[1], e[2], e[3]);
    if (std::abs(q.norm() - 1) > kUnitQuaternionTolerance) r_.fail(*b.get("orientation"), where + ".orientation", "Euler parameters must have unit length");
  }
  const int index = static_cast<int>(s_.model.bodies.size());
  bodies_[name] = index;
  s_.model.bodies.push_back(body);
  s_.initial_state.resize(kBodyStateSize * (index + 1));
  const Vector3d r0 = r_.vec3(b, "position", where), v0 = r_.vec3(b, "velocity", where, Vector3d::Zero());
  const Vector3d w0 = r_.vec3(b, "angular_velocity", where, Vector3d::Zero());
  set_body_state(s_.initial_state.data(), index, r0, q, v0, q.normalized().toRotationMatrix().transpose() * w0);
  poses_.push_back({r0, q.normalized().toRotationMatrix()});
}

void ScenarioReader::read_joint(const toml::table& j) {
  const std::string name = r_.text(j, "name", "joint");
  const std::string where = "joint '" + name + "'";
  r_.only(j, scenario_keys::kJoint, where);
  Joint joint;
  joint.name = name;
  const std::string type = r_.text(j, "type", where);
  if (type == "surface_contact") return;  // read_surface_joint, once the surfaces are known
  for (std::string_view key : scenario_keys::kSurfaceJointOnly)
    if (const toml::node* n = j.get(key))
      r_.fail(*n, where + "." + std::string(key), "only a surface_contact joint takes it");
  const std::map<std::string, JointType> types{{"spherical", JointType::spherical}, {"revolute", JointType::revolute},
                                               {"universal", JointType::universal}, {"cylindrical", JointType::cylindrical},
                                               {"translational", JointType::translational}, {"fixed", JointType::fixed}};
  if (!types.count(type))
    r_.fail(*j.get("type"), where + ".type",
            "unknown joint type '" + type + "' (spherical, revolute, universal, cylindrical, translational, fixed or " +
                "surface_contact)");
  joint.type = types.at(type);
  joint.body_i = body_of(j, "body_i", where);
  joint.body_j = body_of(j, "body_j", where);
  if (joint.body_i == joint.body_j) r_.fail(j, where, "joins a body to itself");
  const Vector3d point = r_.vec3(j, "point", where);
  // A universal joint is given by its two cross axes; its frames' z axes play no part.
  const bool universal = joint.type == JointType::universal;
  const Vector3d z = universal && !j.get("axis") ? r_.direction(j, "reference", where).unitOrthogonal()
                                                 : r_.direction(j, "axis", where, Vector3d::UnitZ());
  Vector3d x = r_.direction(j, "reference", where, z.unitOrthogonal());
  x = (x - x.dot(z) * z);
  if (!(x.norm() > kParallelTolerance)) r_.fail(*j.get("reference"), where + ".reference", "must not be parallel to the axis");
  x.normalize();
  Matrix3d world_i;
  world_i << x, z.cross(x), z;
  Matrix3d world_j = world_i;
  if (universal) {
    const Vector3d xj = r_.direction(j, "reference_j", where);
    if (std::abs(xj.dot(x)) > kParallelTolerance) r_.fail(*j.get("reference_j"), where + ".reference_j", "must be perpendicular to reference");
    const Vector3d zj = x.cross(xj);
    world_j << xj, zj.cross(xj), zj;
  }
  const Pose pi = pose_of(joint.body_i), pj = pose_of(joint.body_j);
  joint.frame_i = {pi.A.transpose() * (point - pi.r), pi.A.transpose() * world_i};
  joint.frame_j = {pj.A.transpose() * (point - pj.r), pj.A.transpose() * world_j};
  s_.model.joints.push_back(joint);
}

void ScenarioReader::read_driver(const toml::table& d) {
  const std::string name = r_.text(d, "name", "driver");
  const std::string where = "driver '" + name + "'";
  r_.only(d, scenario_keys::kDriver, where);
  const std::string joint = r_.text(d, "joint", where);
  int index = -1;
  for (std::size_t k = 0; k < s_.model.joints.size(); ++k)
    if (s_.model.joints[k].name == joint) index = static_cast<int>(k);
  if (index < 0) r_.fail(*d.get("joint"), where + ".joint", "no joint named '" + joint + "'");
  const std::string type = r_.text(d, "type", where);
  const JointType kind = s_.model.joints[static_cast<std::size_t>(index)].type;
  Driver driver{name, index, DriverType::angle, {}};
  if (type == "angle" && kind == JointType::revolute) {
    driver.type = DriverType::angle;
  } else if (type == "position" && (kind == JointType::translational || kind == JointType::cylindrical)) {
    driver.type = DriverType::position;
  } else {
    r_.fail(*d.get("type"), where + ".type", "'angle' drives a revolute joint, 'position' a translational or cylindrical one");
  }
  const auto c = d.get("motion") ? r_.numbers(d, "motion", where, 3) : std::vector<double>{0, 0, 0};
  driver.motion = {c[0], c[1], c[2], r_.number(d, "amplitude", where, 0.0), r_.number(d, "frequency", where, 0.0),
                   r_.number(d, "phase", where, 0.0)};
  if (std::abs(driver.motion.value(0)) > kDriverStartTolerance)
    r_.fail(d, where + ".motion", "must start at 0: the joint is assembled at its zero at t = 0");
  s_.model.drivers.push_back(driver);
}

// The joints and drivers must be independent: a full-rank Jacobian at t = 0.
void ScenarioReader::check_joints_independent() const {
  if (s_.model.constraint_count() == 0) return;
  ConstraintSet c(s_.model);
  evaluate_constraints(s_.model, 0, s_.initial_state.data(), c);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(c.jacobian);
  if (lu.rank() < c.jacobian.rows())
    throw ScenarioError(source_ + ": joints: " + std::to_string(c.jacobian.rows()) + " constraint equations but only " +
                        std::to_string(lu.rank()) + " independent: some joints are redundant or contradictory");
}

int ScenarioReader::body_of(const toml::table& t, const char* key, const std::string& where) const {
  const std::string name = r_.text(t, key, where);
  const auto it = bodies_.find(name);
  if (it == bodies_.end()) r_.fail(*t.get(key), where + "." + key, "no body named '" + name + "'");
  return it->second;
}

// TOML allows nan and inf: every floating-point value in the file, whether a reader above uses
// it or not (a restitution with the Hertz law, a window on an analytic surface), must be finite.
// `field` names it as the readers do: "simulation.end_time", "surface 'cup'.rotation".
void ScenarioReader::check_finite(const toml::node& n, const std::string& field) const {
  if (const auto* f = n.as_floating_point()) {
    if (!std::isfinite(f->get()))
      r_.fail(n, field, std::string("must be a finite number, not ") + (std::isnan(f->get()) ? "nan" : f->get() > 0 ? "inf" : "-inf"));
  } else if (const auto* t = n.as_table()) {
    std::string where = field;
    if (const auto name = (*t)["name"].value<std::string>(); name && !field.empty()) where += " '" + *name + "'";
    for (const auto& [key, value] : *t)
      check_finite(value, where.empty() ? std::string(key.str()) : where + "." + std::string(key.str()));
  } else if (const auto* a = n.as_array()) {
    for (const toml::node& e : *a) check_finite(e, field);
  }
}

Scenario load_scenario(const std::filesystem::path& path, std::span<const std::string> overrides) {
  return ScenarioReader(path.string(), path.parent_path(), overrides).read(parse_scenario_file(path));
}

Scenario parse_scenario(std::string_view text, const std::string& source, const std::filesystem::path& folder,
                        std::span<const std::string> overrides, LineNumbers lines) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw ScenarioError(Reader(source, lines).at_line(e.source().begin.line) + ": " + std::string(e.description()));
  }
  return ScenarioReader(source, folder, overrides, lines).read(std::move(root));
}

std::shared_ptr<Model> make_model(Scenario scenario, std::string source) {
  auto model = std::make_shared<Model>();
  model->source = std::move(source);
  model->multibody = std::move(scenario.model);
  model->initial_state = std::move(scenario.initial_state);
  model->surfaces = std::move(scenario.surfaces);
  model->contacts = std::move(scenario.contacts);
  model->stabilisation = scenario.stabilisation;
  model->run = scenario.run;
  return model;
}

std::shared_ptr<Model> load_model(const std::filesystem::path& path, std::span<const std::string> overrides) {
  return make_model(load_scenario(path, overrides), path.string());
}

std::shared_ptr<Model> parse_model(std::string_view text, const std::string& source, const std::filesystem::path& folder,
                                   std::span<const std::string> overrides, LineNumbers lines) {
  return make_model(parse_scenario(text, source, folder, overrides, lines), source);
}

std::unique_ptr<Simulation> make_simulation(Scenario& scenario) {
  try {
    std::unique_ptr<Simulation> sim = std::make_unique<Simulation>(
        std::move(scenario.model), std::move(scenario.surfaces), std::move(scenario.contacts), scenario.stabilisation);
    scenario.surfaces.clear();
    scenario.contacts.clear();
    sim->check_surface_joints(scenario.initial_state.data());
    return sim;
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(e.what());
  }
}

}  // namespace surfdb
