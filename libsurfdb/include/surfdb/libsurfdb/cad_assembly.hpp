// A CAD assembly's product structure: its distinct parts (products holding geometry) and every
// instance of them with its placement in the assembly, nested sub-assemblies resolved. Read with
// OpenCASCADE's XCAF (STEPCAFControl_Reader, IGESCAFControl_Reader, XCAFDoc_ShapeTool). No
// OpenCASCADE type crosses this header.
//
// Lengths are in the file's table unit, millimetres for STEP and IGES whatever unit the file was
// drawn in (OpenCASCADE converts as it reads), as convert's tables are.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "surfdb/formats/surface_set.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"

namespace surfdb {

/// A rigid placement x' = rotation x + translation (translation in the assembly's length unit).
struct Placement {
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();

  Placement then(const Placement& outer) const;  // this placement followed by `outer`
};

struct AssemblyPart {
  std::string name;          // sanitised and unique: lower case, [a-z0-9_-], "_2" etc. on repeats
  std::string product_name;  // as the file names the product ("" when it has none)
  std::uint32_t solids = 0;  // closed solids in the part
  std::uint32_t faces = 0;   // numbered 1..faces as PART:K, in TopExp::MapShapes order of the part
  Box3 bounding_box;         // in the part's own coordinates
  double volume = 0;         // of its solids (cubic length units); 0 without solids
  double file_density = 0;   // kg/m^3, of the material the file gives the part (STEP); 0 when none
};

struct AssemblyInstance {
  std::string name;       // the part's name and its occurrence: "bolt_1", "bolt_2", ...
  std::uint32_t part = 0;  // index into parts()
  std::string path;       // the products above it, outermost first, joined by '/'
  Placement placement;    // part coordinates to assembly coordinates
};

/// Mass properties of a part at a uniform density, SI units, in the part's own axes.
struct MassProperties {
  double volume = 0;                                      // m^3
  double mass = 0;                                        // kg
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();       // m, centre of mass in part coordinates
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();      // kg m^2 about the centre, part axes (products negative)
  Eigen::Vector3d principal_moments = Eigen::Vector3d::Zero();  // kg m^2, ascending
  /// Columns: the principal axes in part coordinates, right-handed, in the order of the moments.
  /// Where two moments agree to 1e-9 their plane's axes are the part axes nearest to it.
  Eigen::Matrix3d principal_axes = Eigen::Matrix3d::Identity();
};

class CadAssembly {
 public:
  /// Reads a STEP (.step/.stp) or IGES (.iges/.igs) file's product structure. A file without
  /// assembly structure is one part of one instance. Throws CadError (unreadable file, no shape,
  /// an instance placed with a scale or a mirror).
  static CadAssembly load(const std::filesystem::path& path);

  std::string file_name() const;
  std::string kind() const;  // "step" or "iges"
  LengthUnit unit() const;   // millimetres
  const std::vector<std::string>& warnings() const;
  const std::vector<AssemblyPart>& parts() const;
  const std::vector<AssemblyInstance>& instances() const;

  /// The part called `name` (sanitised); throws CadError listing the names when there is none.
  std::uint32_t part_index(const std::string& name) const;

  /// Volume, mass, centre and inertia of the part's solids at `density` (kg/m^3), from
  /// BRepGProp's volume integrals. Throws CadError for a density that is not positive and finite
  /// and for a part without closed solids (a surface model), naming the part.
  MassProperties mass_properties(std::uint32_t part, double density) const;

  /// The same of a part given its mass (kg) rather than a density: its solids' volume at the
  /// density that gives that mass or, for a part without closed solids (a surface model), its
  /// faces as a shell of uniform areal density (BRepGProp's surface integrals). Throws CadError
  /// for a mass that is not positive and finite, and for a part of no volume and no area.
  MassProperties mass_properties_for_mass(std::uint32_t part, double mass) const;

  /// Pairs of instances (indices, i < j) that touch or overlap where the assembly places them:
  /// their shapes come within `gap` (length unit) of each other (BRepExtrema_DistShapeShape, on
  /// the pairs whose boxes grown by `gap` overlap). Bolted parts touch (a bolt in its hole, a
  /// bracket on a plate); loose parts placed apart do not. A solid wholly inside another, its
  /// boundary apart from the other's, is not found.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> touching_instances(double gap) const;

  /// The part's geometry with every point x written as frame_inverse(x): `frame` places the new
  /// axes in part coordinates (a body frame: origin at the centre of mass, principal axes). Its
  /// faces keep the part's numbering; its file name is NAME.step.
  CadModel part_model(std::uint32_t part, const Placement& frame) const;

  struct Impl;  // the OpenCASCADE side, defined in the library's sources

 private:
  std::shared_ptr<const Impl> impl_;
};

/// A product name made into a part name: lower case, runs of characters other than a-z, 0-9,
/// '-' and '_' replaced by one '_', trimmed of '_'; "part" when nothing is left.
std::string sanitised_part_name(const std::string& product_name);

}  // namespace surfdb
