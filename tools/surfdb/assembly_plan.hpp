// What `surfdb assemble` makes of an assembly before writing anything: each part's density, mass
// properties and body frame (origin at the centre of mass, principal axes), each instance's body
// pose in SI units, which instances are fixed to the ground and which pairs of parts touch.
// Every option naming a part is checked here, so a bad one is refused with nothing written.
#pragma once

#include <Eigen/Geometry>
#include <optional>
#include <string>
#include <vector>

#include "surfdb/libsurfdb/cad_assembly.hpp"

namespace surfdb::cli {

/// A material the parts may be made of, by its name.
struct Material {
  std::string name;
  double density = 0;  // kg/m^3
};

/// "steel", "aluminium", "brass", "titanium", "abs"; throws a usage error listing them otherwise.
Material material_named(const std::string& name);

struct AssembleOptions {
  std::optional<Material> material;
  std::vector<std::string> densities;      // "RHO" or "GLOB=RHO", kg/m^3; later entries win
  std::vector<std::string> masses;         // "GLOB=KG": the parts' masses, over their densities
  std::vector<std::string> ground;         // part or instance names (globs) fixed to the ground
  std::vector<std::string> contacts;       // "GLOB:GLOB" pairs of part names; none: every pair
  /// Instances whose shapes come within this of each other (mm) are fastened: welded by fixed
  /// joints, never in contact; negative: none fastened.
  double fasten_gap = 0.01;
  Eigen::Vector3d gravity{0, 0, -9.81};    // m/s^2
};

struct PartPlan {
  std::uint32_t part = 0;
  double density = 0;  // kg/m^3; 0 for a surface model given its mass
  MassProperties mass;
  Placement body_frame;  // body axes and origin in part coordinates (length unit of the file)
};

struct BodyPlan {
  std::uint32_t instance = 0;
  std::uint32_t part = 0;
  Eigen::Vector3d position;        // m, world: the centre of mass
  Eigen::Quaterniond orientation;  // body axes to world, e0 >= 0
  bool ground = false;
};

struct AssemblyPlan {
  std::vector<PartPlan> parts;    // one per part of the assembly, in its order
  std::vector<BodyPlan> bodies;   // one per instance, in its order
  /// Pairs of instances (indices) whose surfaces are in contact; empty with every_pair. Never two
  /// instances that fixed joints weld together.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> contact_pairs;
  bool every_pair = true;
  /// Fixed joints between instances (indices) that touch where the assembly places them: a
  /// spanning forest of the touching pairs, so that no joint is redundant; a grounded instance
  /// stands for the ground, and two grounded ones need none.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> welds;
};

/// Throws std::runtime_error naming the value for a density that is not positive and finite, a
/// pattern that matches no part (or instance, for --ground), a part without density or solid.
AssemblyPlan plan_assembly(const CadAssembly& assembly, const AssembleOptions& options);

}  // namespace surfdb::cli
