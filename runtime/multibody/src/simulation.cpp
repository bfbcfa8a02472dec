#include "surfdb/multibody/simulation.hpp"

#include <algorithm>
#include <Eigen/LU>
#include <cmath>
#include <cstdio>
#include <string>

#include "surfdb/contact/contact_wrench.hpp"
#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb {

namespace {

// A model of the given parts, for the constructors that take them rather than a shared model.
std::shared_ptr<const Model> model_of(MultibodyModel multibody, std::vector<ContactSurface> surfaces,
                                      std::vector<ContactGroupSpec> contacts, Stabilisation stabilisation) {
  auto model = std::make_shared<Model>();
  model->multibody = std::move(multibody);
  model->surfaces = std::move(surfaces);
  model->contacts = std::move(contacts);
  model->stabilisation = stabilisation;
  return model;
}

}  // namespace

Simulation::Simulation(MultibodyModel model, std::vector<ContactPair> pairs, Stabilisation stabilisation)
    : Simulation(model_of(std::move(model), {}, {}, stabilisation), std::move(pairs)) {}

Simulation::Simulation(std::shared_ptr<const Model> model, std::vector<ContactPair> pairs)
    : shared_(std::move(model)), model_(shared_->multibody), dynamics_(model_, shared_->stabilisation),
      surfaces_(shared_->surfaces), states_(model_.bodies.size()) {
  if (!model_.surface_joints.empty())
    throw std::invalid_argument("surface joints need the scene's surfaces: construct the simulation with them");
  find_joint_groups();
  for (ContactPair& p : pairs) {
    p.default_effective_mass(effective_mass(model_, p.spec().body_i, p.spec().body_j));
    p.default_entry_weight(default_entry_weight(model_, p.spec().body_i, p.spec().body_j));
    for (int b : {p.spec().body_i, p.spec().body_j}) state_bodies_.push_back(b);
    contacts_.emplace_back(std::move(p));
  }
  list_state_bodies();
  idle_.assign(contacts_.size(), 0);
  power_.resize(contacts_.size());
  loads_.resize(model_.bodies.size());
}

Simulation::Simulation(MultibodyModel model, std::vector<ContactSurface> surfaces, std::vector<ContactGroupSpec> contacts,
                       Stabilisation stabilisation)
    : Simulation(model_of(std::move(model), std::move(surfaces), std::move(contacts), stabilisation)) {}

Simulation::Simulation(std::shared_ptr<const Model> model)
    : shared_(std::move(model)), model_(shared_->multibody), dynamics_(model_, shared_->stabilisation),
      surfaces_(shared_->surfaces), states_(model_.bodies.size()) {
  find_joint_groups();
  contacts_.reserve(shared_->contacts.size());
  for (const ContactGroupSpec& c : shared_->contacts) {
    contacts_.emplace_back(c, surfaces_, model_);
    grouped_ |= contacts_.back().single() == nullptr;
  }
  for (std::size_t s = 0; s < surfaces_.size(); ++s) {
    if (surfaces_[s].bounded()) bounded_.push_back(static_cast<int>(s));
    state_bodies_.push_back(surfaces_[s].body);  // every contact is between surfaces
  }
  boxes_.resize(bounded_.size());
  spheres_.resize(bounded_.size());
  power_.resize(contacts_.size());
  loads_.resize(model_.bodies.size());
  make_surface_joints();
  list_state_bodies();
}

void Simulation::make_surface_joints() {
  idle_.assign(contacts_.size(), 0);
  surface_joints_.reserve(model_.surface_joints.size());
  const int first = dynamics_.state_size() + static_cast<int>(contacts_.size());
  for (const SurfaceJointSpec& spec : model_.surface_joints) {
    for (int b : {spec.body_i, spec.body_j}) state_bodies_.push_back(b);
    surface_joints_.emplace_back(spec, surfaces_, model_);
    if (spec.release_to >= 0) idle_.at(static_cast<std::size_t>(spec.release_to)) = 1;
    const int states = surface_joints_.back().state_count();
    parameter_first_.push_back(states > 0 ? first + parameter_states_ : -1);
    parameter_states_ += states;
  }
  if (surface_joints_.empty()) return;
  scratch_.resize(static_cast<std::size_t>(size()));
  rows_.resize(surface_joints_.size());
}

double Simulation::position_violation(double t, const double* y) {
  if (!rows_.empty()) {
    update_body_states(y);
    surface_rows(y, rows_);
  }
  return dynamics_.position_violation(t, y, rows_);
}

// At the bodies' states of y (update_body_states).
void Simulation::surface_rows(const double* y, std::span<ConstraintRow> rows) {
  for (std::size_t k = 0; k < surface_joints_.size(); ++k) {
    SurfaceJoint& s = surface_joints_[k];
    const BodyState &i = state_of(s.spec().body_i), &j = state_of(s.spec().body_j);
    rows[k] = parameter_first_[k] < 0 ? s.row(i, j) : s.row(i, j, y + parameter_first_[k]);
  }
}

BodyAcceleration Simulation::acceleration_of(int body) const {
  if (body == kGround) return {};
  const Eigen::VectorXd& acc = dynamics_.body_accelerations();
  const Eigen::Index at = 6 * static_cast<Eigen::Index>(body);
  return {acc.segment<3>(at), state_of(body).pose.A * acc.segment<3>(at + 3)};
}

// The five-equation joints' parameter rates and accelerations, after the bodies' accelerations.
void Simulation::surface_joint_derivatives(double* ydot) {
  const Stabilisation& gains = dynamics_.stabilisation();
  for (std::size_t k = 0; k < surface_joints_.size(); ++k) {
    const int first = parameter_first_[k];
    if (first < 0) continue;
    SurfaceJoint& s = surface_joints_[k];
    const int i = s.spec().body_i, j = s.spec().body_j;
    s.derivative(state_of(i), state_of(j), acceleration_of(i), acceleration_of(j), gains.alpha, gains.beta,
                 ydot + first);
  }
}

// Bodies joined by joints (to each other, not through the ground) form groups; a group whose joints
// and drivers take all its 6 n freedoms moves as prescribed, whatever the forces.
void Simulation::find_joint_groups() {
  const std::size_t n = model_.bodies.size();
  joint_group_.resize(n);
  for (std::size_t b = 0; b < n; ++b) joint_group_[b] = static_cast<int>(b);
  const auto root = [&](int b) {
    while (joint_group_[static_cast<std::size_t>(b)] != b) b = joint_group_[static_cast<std::size_t>(b)];
    return b;
  };
  const auto join = [&](int i, int j) {
    if (i != kGround && j != kGround) joint_group_[static_cast<std::size_t>(root(i))] = root(j);
  };
  // A surface joint released to compliant contact no longer joins its bodies.
  const auto holds = [&](std::size_t k) { return k >= surface_joints_.size() || !surface_joints_[k].released(); };
  for (const Joint& j : model_.joints) join(j.body_i, j.body_j);
  for (std::size_t k = 0; k < model_.surface_joints.size(); ++k)
    if (holds(k)) join(model_.surface_joints[k].body_i, model_.surface_joints[k].body_j);
  for (std::size_t b = 0; b < n; ++b) joint_group_[b] = root(static_cast<int>(b));
  std::vector<int> freedom(n, 0);
  for (std::size_t b = 0; b < n; ++b) freedom[static_cast<std::size_t>(joint_group_[b])] += 6;
  const auto group_of = [&](const Joint& j) { return joint_group_[static_cast<std::size_t>(j.body_i != kGround ? j.body_i : j.body_j)]; };
  for (const Joint& j : model_.joints) freedom[static_cast<std::size_t>(group_of(j))] -= constraint_count(j.type);
  for (const Driver& d : model_.drivers) freedom[static_cast<std::size_t>(group_of(model_.joints[static_cast<std::size_t>(d.joint)]))] -= 1;
  for (std::size_t k = 0; k < model_.surface_joints.size(); ++k) {
    const SurfaceJointSpec& s = model_.surface_joints[k];
    if (holds(k)) freedom[static_cast<std::size_t>(joint_group_[static_cast<std::size_t>(s.body_i != kGround ? s.body_i : s.body_j)])] -= 1;
  }
  prescribed_.assign(n, 0);
  for (std::size_t g = 0; g < n; ++g) prescribed_[g] = freedom[g] <= 0 && joint_group_[g] == static_cast<int>(g);
}

bool Simulation::jacobian_blocks(JacobianBlocks& blocks) const {
  const std::size_t n = model_.bodies.size();
  blocks.first.resize(n);
  blocks.size.assign(n, kBodyStateSize);
  blocks.affects.resize(n);
  for (std::size_t b = 0; b < n; ++b) {
    blocks.first[b] = static_cast<int>(b) * kBodyStateSize;
    blocks.affects[b].clear();
  }
  const auto reach = [&](int from, int group) {  // from's columns reach every body of the group
    for (std::size_t c = 0; c < n; ++c)
      if (joint_group_[c] == group) blocks.affects[static_cast<std::size_t>(from)].push_back(static_cast<int>(c));
  };
  for (std::size_t b = 0; b < n; ++b) reach(static_cast<int>(b), joint_group_[b]);
  const auto couple = [&](int i, int j) {  // a force between bodies i and j: each one's columns reach the other
    for (const auto& [from, to] : {std::pair{i, j}, std::pair{j, i}})
      if (from != kGround && to != kGround && !prescribed_[static_cast<std::size_t>(joint_group_[static_cast<std::size_t>(to)])])
        reach(from, joint_group_[static_cast<std::size_t>(to)]);
  };
  for (const auto& [i, j] : in_play_) couple(i, j);
  for (const Spring& s : model_.springs) couple(s.body_i, s.body_j);
  add_parameter_blocks(blocks);
  for (std::vector<int>& a : blocks.affects) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  return true;
}

// A five-equation joint's states depend on its bodies' group's (through the accelerations) and
// they on its: its block reaches that group and whatever reaches that group reaches it.
void Simulation::add_parameter_blocks(JacobianBlocks& blocks) const {
  const std::size_t n = model_.bodies.size();
  for (std::size_t k = 0; k < surface_joints_.size(); ++k) {
    if (parameter_first_[k] < 0) continue;
    const SurfaceJointSpec& s = model_.surface_joints[k];
    const int group = joint_group_[static_cast<std::size_t>(s.body_i != kGround ? s.body_i : s.body_j)];
    const int block = static_cast<int>(blocks.first.size());
    blocks.first.push_back(parameter_first_[k]);
    blocks.size.push_back(SurfaceJointParameters::kStates);
    blocks.affects.emplace_back(1, block);
    const auto in_group = [&](int c) { return c < static_cast<int>(n) && joint_group_[static_cast<std::size_t>(c)] == group; };
    for (std::size_t b = 0; b < n; ++b) {
      const std::vector<int>& reached = blocks.affects[b];
      if (std::any_of(reached.begin(), reached.end(), in_group)) blocks.affects[b].push_back(block);
      if (joint_group_[b] == group) blocks.affects[static_cast<std::size_t>(block)].push_back(static_cast<int>(b));
    }
  }
}

// The bodies whose states the contacts and surface joints read, once each, in order.
void Simulation::list_state_bodies() {
  std::erase(state_bodies_, kGround);
  std::sort(state_bodies_.begin(), state_bodies_.end());
  state_bodies_.erase(std::unique(state_bodies_.begin(), state_bodies_.end()), state_bodies_.end());
}

void Simulation::update_body_states(const double* y) {
  for (int b : state_bodies_) states_[static_cast<std::size_t>(b)] = body_view(y, b).body_state();
}

const BodyState& Simulation::state_of(int body) const {
  static const BodyState ground{};
  return body == kGround ? ground : states_[static_cast<std::size_t>(body)];
}

// Calls visit(contact index, surface i, surface j) for every pair in play: the fixed pairs
// (surfaces -1), then the groups' candidates the broad phase finds close, in the grid's order.
template <class Visit>
void Simulation::for_each_pair(Visit&& visit) {
  for (std::size_t c = 0; c < contacts_.size(); ++c)
    if (contacts_[c].single() && !idle_[c]) visit(c, -1, -1);
  broad_phase_pairs_ = 0;
  if (!grouped_) return;
  for (std::size_t k = 0; k < bounded_.size(); ++k) {
    const ContactSurface& s = surfaces_[static_cast<std::size_t>(bounded_[k])];
    const Pose& pose = state_of(s.body).pose;
    const Eigen::Vector3d centre = pose.r + pose.A * s.bounding_centre();
    const Eigen::Vector3d half = Eigen::Vector3d::Constant(s.bounding_radius());
    boxes_[k] = {centre - half, centre + half};
    spheres_[k] = {centre, s.bounding_radius()};
  }
  const auto offer = [&](std::size_t c, int a, int b) {
    const int o = contacts_[c].orientation(a, b);
    if (o == 0) return;
    ++broad_phase_pairs_;
    o > 0 ? visit(c, a, b) : visit(c, b, a);
  };
  for (const auto& [a, b] : grid_.update(boxes_)) {
    // Boxes overlap, but do the bounding spheres? (Two balls on a diagonal: boxes yes, spheres no.)
    const Sphere &sa = spheres_[static_cast<std::size_t>(a)], &sb = spheres_[static_cast<std::size_t>(b)];
    if ((sa.centre - sb.centre).squaredNorm() > (sa.radius + sb.radius) * (sa.radius + sb.radius)) continue;
    for (std::size_t c = 0; c < contacts_.size(); ++c)
      if (!contacts_[c].single() && !idle_[c])
        offer(c, bounded_[static_cast<std::size_t>(a)], bounded_[static_cast<std::size_t>(b)]);
  }
  for (std::size_t c = 0; c < contacts_.size(); ++c) {
    if (contacts_[c].single() || idle_[c]) continue;
    for (const auto& [u, on_i] : contacts_[c].unbounded())
      for (int s : contacts_[c].side(!on_i))
        if (surfaces_[static_cast<std::size_t>(s)].bounded()) offer(c, u, s);
  }
}

void Simulation::add_contact_loads(const double* y, std::vector<BodyLoad>& loads) {
  update_body_states(y);
  std::fill(power_.begin(), power_.end(), 0.0);
  in_play_.clear();
  for_each_pair([&](std::size_t c, int si, int sj) {
    ContactPair& pair = contacts_[c].pair(si, sj);
    const int i = pair.spec().body_i, j = pair.spec().body_j;
    in_play_.emplace_back(i, j);
    const BodyState &bi = state_of(i), &bj = state_of(j);
    const std::span<const ContactResult> points = pair.detect(bi, bj);
    if (const PolygonalContactResult* a = pair.areal()) {
      power_[c] += a->dissipated_power;
      if (i != kGround) loads[i].force += a->force_i, loads[i].torque += a->torque_i;
      if (j != kGround) loads[j].force += a->force_j, loads[j].torque += a->torque_j;
      return;
    }
    for (std::size_t p = 0; p < points.size(); ++p) {
      if (!pair.active(p)) continue;
      const ContactResult& r = points[p];
      const ContactForces f = pair.forces(p);
      const ContactWrench w = contact_wrench(r, f.normal, f.tangential, bi.pose, bj.pose);
      // The work the contact takes: friction's at the slip of the point where the wrench acts, so
      // that E + W stays E0 (the slip between point_i and point_j differs by omega x delta / 2).
      const Eigen::Vector3d slip = bi.point_velocity(w.application_point) - bj.point_velocity(w.application_point);
      power_[c] += (f.normal - f.elastic) * r.indentation_rate - f.tangential.dot(slip);
      if (i != kGround) {
        loads[i].force += w.force_i;
        loads[i].torque += w.torque_i;
      }
      if (j != kGround) {
        loads[j].force += w.force_j;
        loads[j].torque += w.torque_j;
      }
    }
  });
}

// The stages of one evaluation in order: the bodies' states, the broad phase, detection and the
// contacts' loads; the surface joints' equations; the dynamics; the rates of the contacts'
// dissipated energies and of the surface joints' parameters.
void Simulation::derivative(double t, const double* y, double* ydot) {
  std::fill(loads_.begin(), loads_.end(), BodyLoad{});
  add_contact_loads(y, loads_);  // the bodies' states at y first
  if (!rows_.empty()) surface_rows(y, rows_);
  dynamics_.derivative(t, y, ydot, loads_, rows_);
  surface_forces_known_ = true;
  for (std::size_t k = 0; k < contacts_.size(); ++k) ydot[dynamics_.state_size() + k] = power_[k];
  if (parameter_states_ > 0) surface_joint_derivatives(ydot);
}

void Simulation::start_surface_joints(double* y) {
  if (parameter_states_ == 0) return;
  update_body_states(y);
  for (std::size_t k = 0; k < surface_joints_.size(); ++k) {
    SurfaceJoint& s = surface_joints_[k];
    if (parameter_first_[k] >= 0) s.start(state_of(s.spec().body_i), state_of(s.spec().body_j), y + parameter_first_[k]);
  }
}

void Simulation::accept(double t, const double* y) {
  update_body_states(y);
  for (ContactGroup& c : contacts_) c.begin_accept(t);
  for_each_pair([&](std::size_t c, int si, int sj) {
    ContactPair& pair = contacts_[c].pair(si, sj);
    const int i = pair.spec().body_i, j = pair.spec().body_j;
    const BodyState &bi = state_of(i), &bj = state_of(j);
    pair.detect(bi, bj);
    contacts_[c].accept(t, si, sj, bi, bj);
  });
  for (ContactGroup& c : contacts_) c.end_accept();
  if (!surface_joints_.empty()) accept_surface_joints(t, y);
}

namespace {
std::string vector_text(const Eigen::Vector3d& v) {
  char text[96];
  std::snprintf(text, sizeof text, "[%.9g, %.9g, %.9g]", v.x(), v.y(), v.z());
  return text;
}
}  // namespace

void Simulation::check_surface_joints(const double* y) {
  if (surface_joints_.empty()) return;
  update_body_states(y);
  ConstraintSet set(model_);  // the model's equations, every joint's (the surface joints' last)
  evaluate_constraints(model_, 0, y, set);
  for (std::size_t k = 0; k < surface_joints_.size(); ++k) {
    SurfaceJoint& joint = surface_joints_[k];
    const SurfaceJointSpec& s = joint.spec();
    const ConstraintRow row = joint.row(state_of(s.body_i), state_of(s.body_j));
    write_row(set, model_.surface_joint_row(static_cast<int>(k)), y, s.body_i, s.body_j, row);
    if (std::abs(row.phi) <= s.initial_gap_tolerance) continue;
    // Moving body i by -Phi n (or body j by +Phi n) closes the gap to first order.
    const Eigen::Vector3d& n = joint.plane().normal;
    const bool move_i = s.body_i != kGround;
    const int body = move_i ? s.body_i : s.body_j;
    const Eigen::Vector3d to = state_of(body).pose.r + (move_i ? -row.phi : row.phi) * n;
    char depth[64], tolerance[32];
    std::snprintf(depth, sizeof depth, "%.6g m", std::abs(row.phi));
    std::snprintf(tolerance, sizeof tolerance, "%.3g m", s.initial_gap_tolerance);
    throw std::invalid_argument(
        "surface joint '" + s.name + "': its surfaces '" + surfaces_[static_cast<std::size_t>(s.surface_i)].name +
        "' and '" + surfaces_[static_cast<std::size_t>(s.surface_j)].name + "' are " +
        (row.phi > 0 ? "apart by " : "inside each other by ") + depth + " at t = 0 along the common normal " +
        vector_text(n) + " (tolerance " + tolerance + "): place body '" +
        model_.bodies[static_cast<std::size_t>(body)].name + "' at " + vector_text(to) + " so that they touch");
  }
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(set.jacobian);
  if (lu.rank() < set.jacobian.rows())
    throw std::invalid_argument("joints: " + std::to_string(set.jacobian.rows()) + " constraint equations but only " +
                                std::to_string(lu.rank()) + " independent (surface joints included): some joints are " +
                                "redundant or contradictory");
}

// A held joint's force is its multiplier at the accepted state. The last evaluation's stands for
// it while clearly compressive (it was made at or near this state); near zero, and before any
// evaluation, the derivative is evaluated at the state itself, so that lift-off is decided there.
void Simulation::accept_surface_joints(double t, const double* y) {
  constexpr double kNearZero = 0.05;  // of the largest force so far
  const auto force = [&](std::size_t k) { return -dynamics_.multipliers()[dynamics_.surface_row(static_cast<int>(k))]; };
  bool exact = !surface_forces_known_;
  for (std::size_t k = 0; k < surface_joints_.size() && !exact; ++k) {
    const SurfaceJoint& s = surface_joints_[k];
    exact = !s.released() && !(force(k) > kNearZero * std::max(0.0, s.statistics().max_force));
  }
  if (exact) derivative(t, y, scratch_.data());
  update_body_states(y);
  for (std::size_t k = 0; k < surface_joints_.size(); ++k) {
    SurfaceJoint& s = surface_joints_[k];
    const double* parameters = parameter_first_[k] < 0 ? nullptr : y + parameter_first_[k];
    if (s.accept(t, state_of(s.spec().body_i), state_of(s.spec().body_j), force(k), parameters)) {
      idle_[static_cast<std::size_t>(s.spec().release_to)] = 0;
      find_joint_groups();  // its bodies part: the Jacobian's blocks follow
    }
  }
}

double Simulation::mechanical_energy(const double* y) const {
  double e = dynamics_.kinetic_energy(y) + dynamics_.potential_energy(y);
  for (const ContactGroup& c : contacts_) e += c.output().elastic_energy;
  return e;
}

double Simulation::dissipated_energy(const double* y) const {
  double e = 0;
  for (std::size_t k = 0; k < contacts_.size(); ++k) e += y[dynamics_.state_size() + k];
  return e;
}

}  // namespace surfdb
