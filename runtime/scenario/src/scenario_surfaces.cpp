// [[surface]] entries: a table or surface set, a triangle mesh, or an analytic primitive, placed in a body.
#include <limits>

#include "scenario_keys.hpp"
#include "scenario_reader.hpp"
#include "surfdb/contact/mesh_from_tables.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/header.hpp"
#include "surfdb/formats/mesh_file.hpp"
#include "surfdb/formats/surface_set.hpp"

namespace surfdb {
namespace {
// The keys that say what a surface is: exactly one per [[surface]].
constexpr std::array<const char*, 7> kShapeKeys{"table", "mesh", "sphere_radius", "cavity_radius", "plane_normal",
                                                 "box_size", "cylinder_radius"};

// A .mesh file's triangles in metres.
std::shared_ptr<const TriangleMesh> load_mesh(const std::filesystem::path& file) {
  const MeshData data = read_mesh_file(file);
  const double scale = meters_per(data.length_unit);
  std::vector<Eigen::Vector3d> vertices;
  vertices.reserve(data.vertices.size());
  for (const auto& v : data.vertices) vertices.emplace_back(scale * v[0], scale * v[1], scale * v[2]);
  try {
    return std::make_shared<const TriangleMesh>(std::move(vertices), data.triangles);
  } catch (const std::invalid_argument& e) {
    throw FormatError(file.string() + ": " + e.what());
  }
}
}  // namespace

void ScenarioReader::read_surface(const toml::table& t) {
  const std::string name = r_.text(t, "name", "surface");
  const std::string where = "surface '" + name + "'";
  r_.only(t, scenario_keys::kSurface, where);
  if (surfaces_.count(name)) r_.fail(t, where, "the name is used twice");
  ContactSurface spec;
  spec.name = name;
  spec.body = body_of(t, "body", where);
  spec.mount.offset = r_.vec3(t, "origin", where, Vector3d::Zero());
  spec.mount.rotation = rotation_from(r_, t, "rotation", where);
  const auto shapes = std::count_if(kShapeKeys.begin(), kShapeKeys.end(), [&](const char* k) { return t.get(k) != nullptr; });
  if (shapes != 1)
    r_.fail(t, where, "give exactly one of table, mesh, sphere_radius, cavity_radius, plane_normal, box_size, cylinder_radius");
  if (t.get("table")) read_table(t, where, spec);
  else if (t.get("mesh")) read_mesh(t, where, spec);
  else read_primitive(t, where, spec);
  if (t.get("mesh_stride") && spec.kind != ContactSurface::Kind::table)
    r_.fail(*t.get("mesh_stride"), where + ".mesh_stride", "applies to a table only (its grid as a mesh)");
  if (t.get("foundation_modulus") || t.get("layer_thickness"))
    spec.foundation_layer = std::pair{r_.positive(t, "foundation_modulus", where), r_.positive(t, "layer_thickness", where)};
  if (t.get("youngs_modulus") || t.get("poisson_ratio"))
    spec.material = Material{r_.positive(t, "youngs_modulus", where), r_.number(t, "poisson_ratio", where)};
  surfaces_[name] = static_cast<int>(s_.surfaces.size());
  s_.surfaces.push_back(std::move(spec));
}

// Sizes are checked where they are read (positive radii and lengths, a box of positive edges) and
// keys that belong to another shape are refused.
void ScenarioReader::read_primitive(const toml::table& t, const std::string& where, ContactSurface& spec) const {
  using Kind = ContactSurface::Kind;
  if (t.get("sphere_radius")) {
    spec.kind = Kind::sphere;
    spec.radius = r_.positive(t, "sphere_radius", where);
  } else if (t.get("cavity_radius")) {
    spec.kind = Kind::cavity;
    spec.radius = r_.positive(t, "cavity_radius", where);
    spec.cap_height = r_.positive(t, "cavity_cap_height", where, spec.cap_height);
    if (t.get("cavity_cap_height") && spec.cap_height > 2 * spec.radius)
      r_.fail(*t.get("cavity_cap_height"), where + ".cavity_cap_height", "must not exceed the cavity's diameter");
  } else if (t.get("plane_normal")) {
    spec.kind = Kind::plane;
    spec.normal = r_.direction(t, "plane_normal", where);
  } else if (t.get("box_size")) {
    spec.kind = Kind::box;
    const Vector3d size = r_.vec3(t, "box_size", where);
    if (!(size.minCoeff() > 0)) r_.fail(*t.get("box_size"), where + ".box_size", "must be three positive edge lengths, m");
    spec.half_extents = 0.5 * size;
  } else {
    const bool cavity = t.get("cylinder_cavity") && t.get("cylinder_cavity")->value_or(false);
    if (t.get("cylinder_cavity") && !t.get("cylinder_cavity")->is_boolean())
      r_.fail(*t.get("cylinder_cavity"), where + ".cylinder_cavity", "must be true or false");
    spec.kind = cavity ? Kind::cylinder_cavity : Kind::cylinder;
    spec.radius = r_.positive(t, "cylinder_radius", where);
    spec.length = r_.positive(t, "cylinder_length", where);
  }
  const auto only_with = [&](const char* key, Kind kind, const char* owner) {
    if (t.get(key) && spec.kind != kind && !(kind == Kind::cylinder && spec.kind == Kind::cylinder_cavity))
      r_.fail(*t.get(key), where + "." + key, std::string("applies to ") + owner + " only");
  };
  only_with("cavity_cap_height", Kind::cavity, "a cavity (cavity_radius)");
  only_with("cylinder_length", Kind::cylinder, "a cylinder (cylinder_radius)");
  only_with("cylinder_cavity", Kind::cylinder, "a cylinder (cylinder_radius)");
  for (const char* key : {"window", "residency", "faces", "placement"})
    if (t.get(key)) r_.fail(*t.get(key), where + "." + key, "applies to a table only");
}

void ScenarioReader::read_mesh(const toml::table& t, const std::string& where, ContactSurface& spec) {
  spec.kind = ContactSurface::Kind::mesh;
  const std::filesystem::path file = folder_ / r_.text(t, "mesh", where);
  auto& shared = meshes_[std::filesystem::weakly_canonical(file).string()];
  try {
    if (!shared) shared = load_mesh(file);
  } catch (const std::exception& e) {
    r_.fail(*t.get("mesh"), where + ".mesh", e.what());
  }
  spec.mesh = shared;
  for (const char* key : {"window", "residency", "faces", "placement"})
    if (t.get(key)) r_.fail(*t.get(key), where + "." + key, "applies to a table only");
}

// A table in a polygonal contact gets its grid as a mesh (every mesh_stride-th line), once.
void ScenarioReader::mesh_table_grid(int surface) {
  ContactSurface& spec = s_.surfaces[static_cast<std::size_t>(surface)];
  if (spec.mesh || spec.kind != ContactSurface::Kind::table) return;
  const auto stride = mesh_strides_.count(surface) ? mesh_strides_.at(surface) : 1u;
  spec.mesh = mesh_from_tables(*spec.tables, stride);
}

void ScenarioReader::read_table(const toml::table& t, const std::string& where, ContactSurface& spec) {
  spec.kind = ContactSurface::Kind::table;
  const std::filesystem::path file = folder_ / r_.text(t, "table", where);
  if (std::error_code ec; !std::filesystem::exists(file, ec))
    r_.fail(*t.get("table"), where + ".table", "no such file or directory: " + file.string());
  std::vector<std::uint32_t> faces;
  if (t.get("faces")) {
    const toml::array* list = t.get("faces")->as_array();
    if (!list || list->empty()) r_.fail(*t.get("faces"), where + ".faces", "must be a list of face numbers");
    for (const toml::node& e : *list) {
      const auto face = e.value<std::int64_t>();
      if (!face || *face < 1 || *face > std::numeric_limits<std::uint32_t>::max())
        r_.fail(e, where + ".faces", "must hold face numbers (whole numbers from 1)");
      faces.push_back(static_cast<std::uint32_t>(*face));
    }
    if (!is_surface_set_path(file))
      r_.fail(*t.get("faces"), where + ".faces", "applies to a surface set (.sdbs), not to the single table " + file.string());
  }
  // Surfaces naming the same file and faces share one mapping (each contact binds it anew).
  auto& shared = tables_[{std::filesystem::weakly_canonical(file).string(), faces}];
  try {
    if (!shared) shared = TableSet::open(file, faces);
  } catch (const std::exception& e) {
    r_.fail(*t.get("table"), where + ".table", e.what());
  }
  spec.tables = shared;
  const auto w = t.get("window") ? r_.numbers(t, "window", where, 2) : std::vector<double>{5, 5};
  if (w[0] < 1 || w[1] < 1 || w[0] != std::floor(w[0]) || w[1] != std::floor(w[1]) || w[0] > 1e6 || w[1] > 1e6)
    r_.fail(*t.get("window"), where + ".window", "must be two whole numbers of records, at least 1");
  spec.window = {static_cast<std::uint32_t>(w[0]), static_cast<std::uint32_t>(w[1])};
  const std::map<std::string, Residency> residencies{
      {"direct", Residency::direct_mapping}, {"copy", Residency::window_copy}, {"full", Residency::full_load}};
  const std::string residency = r_.text(t, "residency", where, std::string("direct"));
  if (!residencies.count(residency)) r_.fail(*t.get("residency"), where + ".residency", "must be direct, copy or full");
  spec.residency = residencies.at(residency);
  if (t.get("mesh_stride")) {
    const double stride = r_.positive(t, "mesh_stride", where);
    if (stride != std::floor(stride) || stride > 1e6)
      r_.fail(*t.get("mesh_stride"), where + ".mesh_stride", "must be a whole number of grid lines, at least 1");
    mesh_strides_[static_cast<int>(s_.surfaces.size())] = static_cast<std::uint32_t>(stride);
  }
  if (t.get("placement")) place_at_part_frame(t, where, spec);
}

// placement = "part": the set's part in its body frame, x_body = P^T (x_part - c), the centre of
// mass c and the principal axes P (columns) from the set's manifest.
void ScenarioReader::place_at_part_frame(const toml::table& t, const std::string& where, ContactSurface& spec) {
  const toml::node& key = *t.get("placement");
  if (r_.text(t, "placement", where) != "part") r_.fail(key, where + ".placement", "must be \"part\"");
  for (const char* other : {"origin", "rotation"})
    if (t.get(other))
      r_.fail(*t.get(other), where + "." + other, "placement = \"part\" places the surface in its body; give one or the other");
  const std::optional<SetMassFrame>& frame = spec.tables->mass_frame();
  if (!frame)
    r_.fail(key, where + ".placement",
            "the table has no part frame: it needs a surface set of a part with closed solids, written by this surfdb "
            "(surfdb convert PART --all-faces); an older set or a single table is placed by origin and rotation");
  Matrix3d P;
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 3; ++c) P(c, k) = frame->axes[static_cast<std::size_t>(k)][static_cast<std::size_t>(c)];
  const Vector3d centre(frame->centre[0], frame->centre[1], frame->centre[2]);
  spec.mount.rotation = P.transpose();
  spec.mount.offset = -spec.tables->meters_per_unit() * (P.transpose() * centre);
  part_placed_.insert(static_cast<int>(s_.surfaces.size()));
}

}  // namespace surfdb
