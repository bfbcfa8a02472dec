// The keys each table of a scenario file may hold (docs/scenario.md): the reader refuses any
// other, and a --set override may name only these.
#pragma once

#include <array>
#include <span>
#include <string_view>

namespace surfdb::scenario_keys {

inline constexpr std::array<std::string_view, 7> kTables{"simulation", "body", "joint", "driver", "spring", "surface",
                                                         "contact"};

inline constexpr std::array<std::string_view, 11> kSimulation{
    "end_time", "integrator",         "step",    "relative_tolerance", "absolute_tolerance", "max_step", "output_interval",
    "gravity",  "stabilisation_gain", "energy_gain_tolerance", "max_constraint_drift"};
inline constexpr std::array<std::string_view, 9> kBody{"name",     "mass",        "inertia",  "principal_axes",  "density",
                                                       "position", "orientation", "velocity", "angular_velocity"};
inline constexpr std::array<std::string_view, 14> kJoint{
    "name",      "type",      "body_i",         "body_j",                 "point",      "axis", "reference", "reference_j",
    "surface_i", "surface_j", "search_interval", "initial_gap_tolerance", "release_to", "formulation"};
/// A surface_contact joint's own keys (the others are the lower pairs').
inline constexpr std::array<std::string_view, 6> kSurfaceJointOnly{"surface_i", "surface_j", "search_interval",
                                                                   "initial_gap_tolerance", "release_to", "formulation"};
inline constexpr std::array<std::string_view, 7> kDriver{"name", "joint", "type", "motion", "amplitude", "frequency",
                                                         "phase"};
inline constexpr std::array<std::string_view, 7> kSpring{"name",    "body_i",    "body_j",     "point_i",
                                                         "point_j", "stiffness", "free_length"};
inline constexpr std::array<std::string_view, 23> kSurface{
    "name",      "body",           "table",           "sphere_radius",   "cavity_radius",  "cavity_cap_height",
    "plane_normal", "box_size",    "cylinder_radius", "cylinder_length", "cylinder_cavity", "origin",
    "rotation",  "window",         "residency",       "faces",           "youngs_modulus", "poisson_ratio",
    "mesh",      "mesh_stride",    "foundation_modulus", "layer_thickness", "placement"};
inline constexpr std::array<std::string_view, 17> kContact{
    "name",     "surface_i",         "surface_j",           "law",
    "stiffness", "stiffness_from_curvature", "exponent",   "restitution",
    "max_damping_ratio", "friction", "friction_model", "friction_velocity",
    "friction_velocities", "initial_penetration_tolerance", "foundation_stiffness", "damping", "damping_depth"};

/// The keys of a top-level table by its name ("body" for [[body]]); empty for an unknown name.
inline std::span<const std::string_view> of(std::string_view table) {
  if (table == "simulation") return kSimulation;
  if (table == "body") return kBody;
  if (table == "joint") return kJoint;
  if (table == "driver") return kDriver;
  if (table == "spring") return kSpring;
  if (table == "surface") return kSurface;
  if (table == "contact") return kContact;
  return {};
}

}  // namespace surfdb::scenario_keys
