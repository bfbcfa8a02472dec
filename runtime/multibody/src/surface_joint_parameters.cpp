#include "surfdb/multibody/surface_joint_parameters.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace surfdb {

SurfaceJointParameters::Side SurfaceJointParameters::side(const std::shared_ptr<const TableSet>& tables,
                                                          const SurfaceMount& mount, WindowSize window,
                                                          Residency residency, Interpolation interpolation) {
  Side s{tables, {}, mount, tables->meters_per_unit()};
  s.faces.reserve(tables->size());
  for (const TableFace& f : tables->faces()) s.faces.emplace_back(f.table, window, residency, interpolation);
  return s;
}

SurfaceJointParameters::SurfaceJointParameters(std::string joint, const FreeformSurfaces& f)
    : joint_(std::move(joint)),
      i_(side(f.surface_i, f.mount_i, f.options.window_i, f.options.residency_i, f.options.interpolation)),
      j_(side(f.surface_j, f.mount_j, f.options.window_j, f.options.residency_j, f.options.interpolation)) {}

// The face's jet at (u, v), placed in the world by the mount and the body's pose (metres).
SurfaceJet SurfaceJointParameters::world_jet(Side& side, std::size_t face, double u, double v, const Pose& pose) {
  const SurfaceJet jet = surface_jet(side.faces[face], u, v);
  return placed(jet, pose.A * side.mount.rotation, pose.r + pose.A * side.mount.offset, side.scale);
}

void SurfaceJointParameters::start(std::size_t slot, const ContactResult& contact, const BodyState& body_i,
                                   const BodyState& body_j, double* s) {
  face_i_ = slot / j_.faces.size();
  face_j_ = slot % j_.faces.size();
  ContactJets jets{world_jet(i_, face_i_, contact.u_i, contact.v_i, body_i.pose),
                   world_jet(j_, face_j_, contact.u_j, contact.v_j, body_j.pose)};
  // The rates from the smooth surfaces' derivatives, not the cells': those jump at the cells' edges,
  // and c' = 0 with them would hold at this phase of the cell only, leaving c' a cell-periodic
  // error whose mean is not zero (a drift of c that Baumgarte takes 1 / alpha to stop).
  for (SurfaceJet* jet : {&jets.i, &jets.j}) {
    jet->p_u = jet->p_u_mean, jet->p_v = jet->p_v_mean;
    jet->n_u = jet->n_u_mean, jet->n_v = jet->n_v_mean;
  }
  bool singular = false;
  const Eigen::Vector4d rates = parameter_rates(jets, body_i, body_j, singular);
  if (singular)
    throw std::runtime_error("surface joint '" + joint_ + "': the surfaces' relative curvature is singular at the " +
                             "contact point at t = 0 (line or conforming contact): their parameters' rates are not " +
                             "determined; use formulation = \"sliding_plane\"");
  const double values[kStates] = {contact.u_i, contact.v_i, contact.u_j, contact.v_j,
                                  rates[0],    rates[1],    rates[2],    rates[3]};
  std::copy(values, values + kStates, s);
}

ConstraintRow SurfaceJointParameters::row(const double* s, const BodyState& body_i, const BodyState& body_j) {
  jets_.i = world_jet(i_, face_i_, s[0], s[1], body_i.pose);
  jets_.j = world_jet(j_, face_j_, s[2], s[3], body_j.pose);
  jets_.rates = Eigen::Vector4d(s[4], s[5], s[6], s[7]);
  parameters_ = Eigen::Vector4d(s[0], s[1], s[2], s[3]);
  plane_ = sliding_plane(jets_.i.p, jets_.j.p, jets_.j.n, contact_slides(jets_), body_i, body_j);
  contact_.status = plane_.phi < 0 ? ContactStatus::touching : ContactStatus::separated;
  contact_.u_i = jets_.i.u, contact_.v_i = jets_.i.v, contact_.u_j = jets_.j.u, contact_.v_j = jets_.j.v;
  contact_.point_i = jets_.i.p;
  contact_.point_j = jets_.j.p;
  contact_.normal = jets_.j.n;
  contact_.indentation = std::max(0.0, -plane_.phi);
  contact_.gap = std::max(0.0, plane_.phi);
  ConstraintRow row;
  row.phi = plane_.phi;
  row.gamma = plane_.gamma;
  row.dr_i = plane_.dr_i, row.dth_i = plane_.dth_i;
  row.dr_j = plane_.dr_j, row.dth_j = plane_.dth_j;
  return row;
}

void SurfaceJointParameters::derivative(const BodyState& body_i, const BodyState& body_j, const BodyAcceleration& acc_i,
                                        const BodyAcceleration& acc_j, double alpha, double beta, double* sdot) {
  const Eigen::Vector4d acc = parameter_accelerations(jets_, body_i, body_j, acc_i, acc_j, alpha, beta, singular_);
  for (int k = 0; k < 4; ++k) sdot[k] = jets_.rates[k], sdot[4 + k] = acc[k];
}

TangentialEquations SurfaceJointParameters::tangential(const BodyState& body_i, const BodyState& body_j) const {
  return tangential_equations(jets_, body_i, body_j);
}

void SurfaceJointParameters::check_domain(double t) const {
  const auto check = [&](const Side& side, std::size_t face, const SurfaceJet& jet, double u, double v,
                         const char* which) {
    if (jet.status != QueryStatus::outside_domain) return;
    const Header& h = side.faces[face].database().header();
    char text[320];
    std::snprintf(text, sizeof text,
                  "': at t = %.9g s the contact point left surface %s's face %u (u = %.9g, v = %.9g beyond "
                  "[%.9g, %.9g] x [%.9g, %.9g]); formulation = \"five_equations\" holds one pair of faces: "
                  "use \"sliding_plane\", which goes on to the neighbour face",
                  t, which, static_cast<unsigned>((*side.tables)[face].face), u, v, h.u0, h.u1, h.v0, h.v1);
    throw std::runtime_error("surface joint '" + joint_ + text);
  };
  check(i_, face_i_, jets_.i, parameters_[0], parameters_[1], "i");
  check(j_, face_j_, jets_.j, parameters_[2], parameters_[3], "j");
}

}  // namespace surfdb
