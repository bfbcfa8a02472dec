#include "surfdb/multibody/simulation.hpp"

#include <algorithm>
#include <cmath>

#include "surfdb/contact/contact_wrench.hpp"
#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb {

Simulation::Simulation(MultibodyModel model, std::vector<ContactPair> pairs, Stabilisation stabilisation)
    : model_(std::move(model)), dynamics_(model_, stabilisation), states_(model_.bodies.size()) {
  find_joint_groups();
  for (ContactPair& p : pairs) {
    p.default_effective_mass(effective_mass(model_, p.spec().body_i, p.spec().body_j));
    contacts_.emplace_back(std::move(p));
  }
  power_.resize(contacts_.size());
  loads_ = [this](double, const double* y, std::vector<BodyLoad>& loads) { add_contact_loads(y, loads); };
}

Simulation::Simulation(MultibodyModel model, std::vector<ContactSurface> surfaces, std::vector<ContactGroupSpec> contacts,
                       Stabilisation stabilisation)
    : model_(std::move(model)), dynamics_(model_, stabilisation), surfaces_(std::move(surfaces)),
      states_(model_.bodies.size()) {
  find_joint_groups();
  contacts_.reserve(contacts.size());
  for (ContactGroupSpec& c : contacts) {
    contacts_.emplace_back(std::move(c), surfaces_, model_);
    grouped_ |= contacts_.back().single() == nullptr;
  }
  for (std::size_t s = 0; s < surfaces_.size(); ++s)
    if (surfaces_[s].bounded()) bounded_.push_back(static_cast<int>(s));
  boxes_.resize(bounded_.size());
  spheres_.resize(bounded_.size());
  power_.resize(contacts_.size());
  loads_ = [this](double, const double* y, std::vector<BodyLoad>& loads) { add_contact_loads(y, loads); };
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
  for (const Joint& j : model_.joints)
    if (j.body_i != kGround && j.body_j != kGround) joint_group_[static_cast<std::size_t>(root(j.body_i))] = root(j.body_j);
  for (std::size_t b = 0; b < n; ++b) joint_group_[b] = root(static_cast<int>(b));
  std::vector<int> freedom(n, 0);
  for (std::size_t b = 0; b < n; ++b) freedom[static_cast<std::size_t>(joint_group_[b])] += 6;
  const auto group_of = [&](const Joint& j) { return joint_group_[static_cast<std::size_t>(j.body_i != kGround ? j.body_i : j.body_j)]; };
  for (const Joint& j : model_.joints) freedom[static_cast<std::size_t>(group_of(j))] -= constraint_count(j.type);
  for (const Driver& d : model_.drivers) freedom[static_cast<std::size_t>(group_of(model_.joints[static_cast<std::size_t>(d.joint)]))] -= 1;
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
  for (std::vector<int>& a : blocks.affects) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  return true;
}

void Simulation::update_body_states(const double* y) {
  for (std::size_t b = 0; b < states_.size(); ++b) states_[b] = body_view(y, static_cast<int>(b)).body_state();
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
    if (contacts_[c].single()) visit(c, -1, -1);
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
      if (!contacts_[c].single()) offer(c, bounded_[static_cast<std::size_t>(a)], bounded_[static_cast<std::size_t>(b)]);
  }
  for (std::size_t c = 0; c < contacts_.size(); ++c) {
    if (contacts_[c].single()) continue;
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
      power_[c] += (f.normal - f.elastic) * r.indentation_rate - f.tangential.dot(r.tangential_velocity);
      const ContactWrench w = contact_wrench(r, f.normal, f.tangential, bi.pose, bj.pose);
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

void Simulation::derivative(double t, const double* y, double* ydot) {
  dynamics_.derivative(t, y, ydot, loads_);
  for (std::size_t k = 0; k < contacts_.size(); ++k) ydot[dynamics_.state_size() + k] = power_[k];
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
