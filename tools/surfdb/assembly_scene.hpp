// The two text files `surfdb assemble` writes beside the parts: DIR/scene.toml, a scenario that
// runs as written (docs/scenario.md), and DIR/assembly.json, the contract for scripts
// (docs/assembly.md). Both in SI units; the same plan gives the same bytes.
#pragma once

#include <string>

#include "assembly_plan.hpp"

namespace surfdb::cli {

inline constexpr double kSinkPerSize = 1e-4;

/// The areal contact between the parts' meshes (the polygonal model) and the run's settings.
struct SceneSettings {
  /// c, N/m^3; 0: such that the heaviest loose body, resting on a patch of its own size (the area
  /// V^(2/3)), sinks by kSinkPerSize of its size V^(1/3): rigid to the eye, and a run of seconds.
  double foundation_stiffness = 0;
  double damping_ratio = 1;       // of critical, for the lightest loose body resting on its own size
  double friction = 0.3;
  double end_time = 1;            // s
  std::string command;            // the command line that wrote the scene, for its header comment
};

/// The part's files relative to DIR.
std::string part_set_path(const AssemblyPart& part);   // "parts/NAME.sdbs"
std::string part_mesh_path(const AssemblyPart& part);  // "parts/NAME.mesh"

std::string scene_toml(const CadAssembly& assembly, const AssemblyPlan& plan, const AssembleOptions& options,
                       const SceneSettings& settings);

std::string assembly_json(const CadAssembly& assembly, const AssemblyPlan& plan);

}  // namespace surfdb::cli
