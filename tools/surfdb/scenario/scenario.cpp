#include "scenario.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <map>
#include <optional>
#include <toml++/toml.h>

#include "surfdb/runtime/joint_constraints.hpp"
#include "surfdb/runtime/multibody_state.hpp"

namespace surfdb::cli {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// Field access with messages that name the file, the line and the field.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const toml::node& at, const std::string& field, const std::string& what) const {
    throw ScenarioError(file_ + ":" + std::to_string(at.source().begin.line) + ": " + field + ": " + what);
  }

  const toml::node* find(const toml::table& t, const char* key) const { return t.get(key); }

  double number(const toml::table& t, const char* key, const std::string& where, std::optional<double> fallback = {}) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(t, where + "." + key, "missing");
    }
    if (auto v = n->value<double>()) {
      if (!std::isfinite(*v)) fail(*n, where + "." + key, "must be a finite number");
      return *v;
    }
    fail(*n, where + "." + key, "must be a number");
  }

  double positive(const toml::table& t, const char* key, const std::string& where, std::optional<double> fallback = {}) const {
    const double v = number(t, key, where, fallback);
    if (!(v > 0)) fail(t.get(key) ? *t.get(key) : static_cast<const toml::node&>(t), where + "." + key, "must be positive");
    return v;
  }

  std::string text(const toml::table& t, const char* key, const std::string& where, std::optional<std::string> fallback = {}) const {
    const toml::node* n = t.get(key);
    if (!n) {
      if (fallback) return *fallback;
      fail(t, where + "." + key, "missing");
    }
    if (auto v = n->value<std::string>()) return *v;
    fail(*n, where + "." + key, "must be a string");
  }

  std::vector<double> numbers(const toml::table& t, const char* key, const std::string& where, std::size_t count) const {
    const toml::node* n = t.get(key);
    if (!n) fail(t, where + "." + key, "missing");
    const toml::array* a = n->as_array();
    if (!a || a->size() != count) fail(*n, where + "." + key, "must be an array of " + std::to_string(count) + " numbers");
    std::vector<double> out;
    for (const toml::node& e : *a) {
      auto v = e.value<double>();
      if (!v || !std::isfinite(*v)) fail(e, where + "." + key, "must hold finite numbers");
      out.push_back(*v);
    }
    return out;
  }

  Vector3d vec3(const toml::table& t, const char* key, const std::string& where, std::optional<Vector3d> fallback = {}) const {
    if (!t.get(key) && fallback) return *fallback;
    const auto v = numbers(t, key, where, 3);
    return {v[0], v[1], v[2]};
  }

  Vector3d direction(const toml::table& t, const char* key, const std::string& where, std::optional<Vector3d> fallback = {}) const {
    const Vector3d v = vec3(t, key, where, fallback);
    if (!(v.norm() > 0)) fail(t.get(key) ? *t.get(key) : static_cast<const toml::node&>(t), where + "." + key, "must not be zero");
    return v.normalized();
  }

  void only(const toml::table& t, std::initializer_list<const char*> allowed, const std::string& where) const {
    for (const auto& [key, value] : t) {
      bool known = false;
      for (const char* a : allowed) known = known || key.str() == a;
      if (!known) fail(value, where, "unknown key '" + std::string(key.str()) + "'");
    }
  }

  const toml::array* tables(const toml::table& root, const char* key) const {
    const toml::node* n = root.get(key);
    if (!n) return nullptr;
    const toml::array* a = n->as_array();
    if (!a || !a->is_array_of_tables()) fail(*n, key, "must be a list of tables ([[" + std::string(key) + "]])");
    return a;
  }

 private:
  std::string file_;
};

struct SurfaceSpec {
  int body = kGround;
  SurfaceMount mount;
  enum class Kind { table, sphere, cavity, plane } kind = Kind::table;
  std::shared_ptr<const Database> table;
  WindowSize window;
  Residency residency = Residency::direct_mapping;
  double radius = 0;
  Vector3d normal = Vector3d::UnitZ();
  std::optional<Material> material;
};

Matrix3d rotation_from(const Reader& r, const toml::table& t, const char* key, const std::string& where) {
  if (!t.get(key)) return Matrix3d::Identity();
  const toml::array* rows = t.get(key)->as_array();
  if (!rows || rows->size() != 3) r.fail(*t.get(key), where + "." + key, "must be three rows of three numbers");
  Matrix3d m;
  for (int i = 0; i < 3; ++i) {
    const toml::array* row = (*rows)[static_cast<std::size_t>(i)].as_array();
    if (!row || row->size() != 3) r.fail(*t.get(key), where + "." + key, "must be three rows of three numbers");
    for (int j = 0; j < 3; ++j) {
      auto v = (*row)[static_cast<std::size_t>(j)].value<double>();
      if (!v) r.fail(*t.get(key), where + "." + key, "must hold numbers");
      m(i, j) = *v;
    }
  }
  if (!(m.transpose() * m).isIdentity(1e-9) || m.determinant() < 0)
    r.fail(*t.get(key), where + "." + key, "must be a rotation (orthonormal rows, determinant +1)");
  return m;
}

NormalLaw law_from(const Reader& r, const toml::table& t, const std::string& where, double stiffness) {
  const std::string name = r.text(t, "law", where, std::string("hertz"));
  const double n = r.positive(t, "exponent", where, 1.5);
  if (name == "hertz") return Hertz{stiffness, n};
  const double cr = r.number(t, "restitution", where);
  if (!(cr > 0 && cr <= 1)) r.fail(*t.get("restitution"), where + ".restitution", "must be in (0, 1]");
  if (name == "hunt_crossley") return HuntCrossley{stiffness, n, cr};
  if (name == "lankarani_nikravesh") return LankaraniNikravesh{stiffness, n, cr};
  if (name == "flores") return FloresEtAl{stiffness, n, cr};
  if (name == "gonthier") return Gonthier{stiffness, n, cr};
  r.fail(*t.get("law"), where + ".law", "unknown law '" + name + "' (hertz, hunt_crossley, lankarani_nikravesh, flores, gonthier)");
}

}  // namespace

Scenario load_scenario(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path)) throw ScenarioError(path.string() + ": no such scenario file");
  toml::table root;
  try {
    root = toml::parse_file(path.string());
  } catch (const toml::parse_error& e) {
    throw ScenarioError(path.string() + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  const Reader r(path.string());
  const std::filesystem::path folder = path.parent_path();
  r.only(root, {"simulation", "body", "joint", "driver", "surface", "contact"}, "scenario");
  Scenario s;

  // [simulation]
  const toml::table* sim = root["simulation"].as_table();
  if (!sim) throw ScenarioError(path.string() + ": [simulation] is missing");
  r.only(*sim, {"end_time", "integrator", "step", "relative_tolerance", "absolute_tolerance", "max_step",
                "output_interval", "gravity"}, "simulation");
  s.end_time = r.positive(*sim, "end_time", "simulation");
  const std::string integrator = r.text(*sim, "integrator", "simulation", std::string("adams"));
  if (integrator == "ab4") s.integrator = IntegratorKind::ab4;
  else if (integrator == "rk4") s.integrator = IntegratorKind::rk4;
  else if (integrator == "adams") s.integrator = IntegratorKind::adams;
  else if (integrator == "bdf") s.integrator = IntegratorKind::bdf;
  else r.fail(*sim->get("integrator"), "simulation.integrator", "must be ab4, rk4, adams or bdf");
  s.step = r.positive(*sim, "step", "simulation", 1e-6);
  s.cvode.method = s.integrator == IntegratorKind::bdf ? CvodeMethod::bdf : CvodeMethod::adams;
  s.cvode.relative_tolerance = r.positive(*sim, "relative_tolerance", "simulation", 1e-9);
  s.cvode.absolute_tolerance = r.positive(*sim, "absolute_tolerance", "simulation", 1e-12);
  s.cvode.max_step = r.positive(*sim, "max_step", "simulation", 1e-4);
  s.output_interval = r.positive(*sim, "output_interval", "simulation", 1e-4);
  s.model.gravity = r.vec3(*sim, "gravity", "simulation", Vector3d(0, 0, -9.81));

  // [[body]]
  std::map<std::string, int> bodies{{"ground", kGround}};
  std::vector<Pose> poses;
  const toml::array* body_list = r.tables(root, "body");
  if (!body_list) throw ScenarioError(path.string() + ": no [[body]]");
  for (const toml::node& node : *body_list) {
    const toml::table& b = *node.as_table();
    const std::string name = r.text(b, "name", "body");
    const std::string where = "body '" + name + "'";
    r.only(b, {"name", "mass", "inertia", "position", "orientation", "velocity", "angular_velocity"}, where);
    if (bodies.count(name)) r.fail(b, where, "the name is used twice (or is 'ground')");
    RigidBody body{name, r.positive(b, "mass", where), Matrix3d::Identity()};
    const Vector3d inertia = r.vec3(b, "inertia", where);
    if (!(inertia.minCoeff() > 0))
      r.fail(*b.get("inertia"), where + ".inertia", "principal moments must be positive (a singular inertia)");
    if (inertia[0] > inertia[1] + inertia[2] || inertia[1] > inertia[0] + inertia[2] || inertia[2] > inertia[0] + inertia[1])
      r.fail(*b.get("inertia"), where + ".inertia", "violates the triangle inequality of principal moments");
    body.inertia = inertia.asDiagonal();
    Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
    if (b.get("orientation")) {
      const auto e = r.numbers(b, "orientation", where, 4);
      q = Eigen::Quaterniond(e[0], e[1], e[2], e[3]);
      if (std::abs(q.norm() - 1) > 1e-6) r.fail(*b.get("orientation"), where + ".orientation", "Euler parameters must have unit length");
    }
    const int index = static_cast<int>(s.model.bodies.size());
    bodies[name] = index;
    s.model.bodies.push_back(body);
    s.initial_state.resize(kBodyStateSize * (index + 1));
    const Vector3d r0 = r.vec3(b, "position", where), v0 = r.vec3(b, "velocity", where, Vector3d::Zero());
    const Vector3d w0 = r.vec3(b, "angular_velocity", where, Vector3d::Zero());
    set_body_state(s.initial_state.data(), index, r0, q, v0, q.normalized().toRotationMatrix().transpose() * w0);
    poses.push_back({r0, q.normalized().toRotationMatrix()});
  }
  const auto body_of = [&](const toml::table& t, const char* key, const std::string& where) {
    const std::string name = r.text(t, key, where);
    const auto it = bodies.find(name);
    if (it == bodies.end()) r.fail(*t.get(key), where + "." + key, "no body named '" + name + "'");
    return it->second;
  };
  const auto pose_of = [&](int body) { return body == kGround ? Pose{} : poses[static_cast<std::size_t>(body)]; };

  // [[joint]]: given in world axes at t = 0, stored as frames in each body.
  if (const toml::array* joints = r.tables(root, "joint")) {
    for (const toml::node& node : *joints) {
      const toml::table& j = *node.as_table();
      const std::string name = r.text(j, "name", "joint");
      const std::string where = "joint '" + name + "'";
      r.only(j, {"name", "type", "body_i", "body_j", "point", "axis", "reference", "reference_j"}, where);
      Joint joint;
      joint.name = name;
      const std::string type = r.text(j, "type", where);
      const std::map<std::string, JointType> types{{"spherical", JointType::spherical}, {"revolute", JointType::revolute},
                                                   {"universal", JointType::universal}, {"cylindrical", JointType::cylindrical},
                                                   {"translational", JointType::translational}, {"fixed", JointType::fixed}};
      if (!types.count(type)) r.fail(*j.get("type"), where + ".type", "unknown joint type '" + type + "'");
      joint.type = types.at(type);
      joint.body_i = body_of(j, "body_i", where);
      joint.body_j = body_of(j, "body_j", where);
      if (joint.body_i == joint.body_j) r.fail(j, where, "joins a body to itself");
      const Vector3d point = r.vec3(j, "point", where);
      // A universal joint is given by its two cross axes; its frames' z axes play no part.
      const bool universal = joint.type == JointType::universal;
      const Vector3d z = universal && !j.get("axis") ? r.direction(j, "reference", where).unitOrthogonal()
                                                     : r.direction(j, "axis", where, Vector3d::UnitZ());
      Vector3d x = r.direction(j, "reference", where, z.unitOrthogonal());
      x = (x - x.dot(z) * z);
      if (!(x.norm() > 1e-9)) r.fail(*j.get("reference"), where + ".reference", "must not be parallel to the axis");
      x.normalize();
      Matrix3d world_i;
      world_i << x, z.cross(x), z;
      Matrix3d world_j = world_i;
      if (universal) {
        const Vector3d xj = r.direction(j, "reference_j", where);
        if (std::abs(xj.dot(x)) > 1e-9) r.fail(*j.get("reference_j"), where + ".reference_j", "must be perpendicular to reference");
        const Vector3d zj = x.cross(xj);
        world_j << xj, zj.cross(xj), zj;
      }
      const Pose pi = pose_of(joint.body_i), pj = pose_of(joint.body_j);
      joint.frame_i = {pi.A.transpose() * (point - pi.r), pi.A.transpose() * world_i};
      joint.frame_j = {pj.A.transpose() * (point - pj.r), pj.A.transpose() * world_j};
      s.model.joints.push_back(joint);
    }
  }
  // [[driver]]: a prescribed joint angle or travel.
  if (const toml::array* drivers = r.tables(root, "driver")) {
    for (const toml::node& node : *drivers) {
      const toml::table& d = *node.as_table();
      const std::string name = r.text(d, "name", "driver");
      const std::string where = "driver '" + name + "'";
      r.only(d, {"name", "joint", "type", "motion", "amplitude", "frequency", "phase"}, where);
      const std::string joint = r.text(d, "joint", where);
      int index = -1;
      for (std::size_t k = 0; k < s.model.joints.size(); ++k)
        if (s.model.joints[k].name == joint) index = static_cast<int>(k);
      if (index < 0) r.fail(*d.get("joint"), where + ".joint", "no joint named '" + joint + "'");
      const std::string type = r.text(d, "type", where);
      const JointType kind = s.model.joints[static_cast<std::size_t>(index)].type;
      Driver driver{name, index, DriverType::angle, {}};
      if (type == "angle" && kind == JointType::revolute) {
        driver.type = DriverType::angle;
      } else if (type == "position" && (kind == JointType::translational || kind == JointType::cylindrical)) {
        driver.type = DriverType::position;
      } else {
        r.fail(*d.get("type"), where + ".type", "'angle' drives a revolute joint, 'position' a translational or cylindrical one");
      }
      const auto c = d.get("motion") ? r.numbers(d, "motion", where, 3) : std::vector<double>{0, 0, 0};
      driver.motion = {c[0], c[1], c[2], r.number(d, "amplitude", where, 0.0), r.number(d, "frequency", where, 0.0),
                       r.number(d, "phase", where, 0.0)};
      if (std::abs(driver.motion.value(0)) > 1e-12)
        r.fail(d, where + ".motion", "must start at 0: the joint is assembled at its zero at t = 0");
      s.model.drivers.push_back(driver);
    }
  }

  // The joints and drivers must be independent: a full-rank Jacobian at t = 0.
  if (s.model.constraint_count() > 0) {
    ConstraintSet c(s.model);
    evaluate_constraints(s.model, 0, s.initial_state.data(), c);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(c.jacobian);
    if (lu.rank() < c.jacobian.rows())
      throw ScenarioError(path.string() + ": joints: " + std::to_string(c.jacobian.rows()) + " constraint equations but only " +
                          std::to_string(lu.rank()) + " independent: some joints are redundant or contradictory");
  }

  // [[surface]]
  std::map<std::string, SurfaceSpec> surfaces;
  if (const toml::array* list = r.tables(root, "surface")) {
    for (const toml::node& node : *list) {
      const toml::table& t = *node.as_table();
      const std::string name = r.text(t, "name", "surface");
      const std::string where = "surface '" + name + "'";
      r.only(t, {"name", "body", "table", "sphere_radius", "cavity_radius", "plane_normal", "origin", "rotation", "window",
                 "residency", "youngs_modulus", "poisson_ratio"}, where);
      if (surfaces.count(name)) r.fail(t, where, "the name is used twice");
      SurfaceSpec spec;
      spec.body = body_of(t, "body", where);
      spec.mount.offset = r.vec3(t, "origin", where, Vector3d::Zero());
      spec.mount.rotation = rotation_from(r, t, "rotation", where);
      const int kinds = (t.get("table") != nullptr) + (t.get("sphere_radius") != nullptr) + (t.get("cavity_radius") != nullptr) +
                        (t.get("plane_normal") != nullptr);
      if (kinds != 1) r.fail(t, where, "give exactly one of table, sphere_radius, cavity_radius, plane_normal");
      if (t.get("table")) {
        spec.kind = SurfaceSpec::Kind::table;
        const std::filesystem::path file = folder / r.text(t, "table", where);
        try {
          spec.table = Database::open(file);
        } catch (const std::exception& e) {
          r.fail(*t.get("table"), where + ".table", e.what());
        }
        const auto w = t.get("window") ? r.numbers(t, "window", where, 2) : std::vector<double>{5, 5};
        if (w[0] < 1 || w[1] < 1 || w[0] != std::floor(w[0]) || w[1] != std::floor(w[1]))
          r.fail(*t.get("window"), where + ".window", "must be two whole numbers of records, at least 1");
        spec.window = {static_cast<std::uint32_t>(w[0]), static_cast<std::uint32_t>(w[1])};
        const std::string residency = r.text(t, "residency", where, std::string("direct"));
        if (residency == "direct") spec.residency = Residency::direct_mapping;
        else if (residency == "copy") spec.residency = Residency::window_copy;
        else if (residency == "full") spec.residency = Residency::full_load;
        else r.fail(*t.get("residency"), where + ".residency", "must be direct, copy or full");
      } else if (t.get("sphere_radius")) {
        spec.kind = SurfaceSpec::Kind::sphere;
        spec.radius = r.positive(t, "sphere_radius", where);
      } else if (t.get("cavity_radius")) {
        spec.kind = SurfaceSpec::Kind::cavity;
        spec.radius = r.positive(t, "cavity_radius", where);
      } else {
        spec.kind = SurfaceSpec::Kind::plane;
        spec.normal = r.direction(t, "plane_normal", where);
      }
      if (t.get("youngs_modulus") || t.get("poisson_ratio"))
        spec.material = Material{r.positive(t, "youngs_modulus", where), r.number(t, "poisson_ratio", where)};
      surfaces[name] = spec;
    }
  }

  // [[contact]]
  if (const toml::array* list = r.tables(root, "contact")) {
    for (const toml::node& node : *list) {
      const toml::table& t = *node.as_table();
      const std::string name = r.text(t, "name", "contact");
      const std::string where = "contact '" + name + "'";
      r.only(t, {"name", "surface_i", "surface_j", "law", "stiffness", "stiffness_from_curvature", "exponent", "restitution",
                 "friction", "friction_velocity"}, where);
      const auto surface = [&](const char* key) -> const SurfaceSpec& {
        const std::string s_name = r.text(t, key, where);
        if (!surfaces.count(s_name)) r.fail(*t.get(key), where + "." + key, "no surface named '" + s_name + "'");
        return surfaces.at(s_name);
      };
      const SurfaceSpec& si = surface("surface_i");
      const SurfaceSpec& sj = surface("surface_j");
      if (si.body == sj.body) r.fail(t, where, "both surfaces are on the same body");
      ContactPair pair{.name = name, .body_i = si.body, .body_j = sj.body, .detector = AnalyticContact{}};
      using Kind = SurfaceSpec::Kind;
      if (si.kind == Kind::table && sj.kind == Kind::table) {
        ContactOptions options;
        options.window_i = si.window;
        options.window_j = sj.window;
        options.residency = si.residency;
        pair.detector.emplace<FreeformContact>(si.table, si.mount, sj.table, sj.mount, options);
      } else if (si.kind == Kind::sphere && sj.kind != Kind::table) {
        AnalyticContact a;
        a.sphere = {si.mount.offset, si.radius};
        a.other = {sj.mount.offset, sj.radius};
        a.plane = {sj.mount.offset, sj.mount.rotation * sj.normal};
        a.shape = sj.kind == Kind::plane ? AnalyticContact::Shape::plane
                  : sj.kind == Kind::cavity ? AnalyticContact::Shape::cavity
                                            : AnalyticContact::Shape::sphere;
        pair.detector = a;
      } else {
        r.fail(t, where, "pairs a table with a table, or a sphere (surface_i) with a sphere, cavity or plane");
      }
      const bool from_curvature = t.get("stiffness_from_curvature") && t.get("stiffness_from_curvature")->value_or(false);
      double stiffness = 0;
      if (from_curvature) {
        if (!si.material || !sj.material) r.fail(t, where, "stiffness_from_curvature needs youngs_modulus and poisson_ratio on both surfaces");
        pair.curvature_stiffness = std::pair{*si.material, *sj.material};
      } else {
        stiffness = r.positive(t, "stiffness", where);
      }
      pair.law = law_from(r, t, where, stiffness);
      if (t.get("friction")) {
        const double mu = r.number(t, "friction", where);
        if (mu < 0) r.fail(*t.get("friction"), where + ".friction", "must not be negative");
        pair.friction = CoulombRegularised{mu, r.positive(t, "friction_velocity", where, 1e-4)};
      }
      s.pairs.push_back(std::move(pair));
      s.contact_surfaces.push_back({r.text(t, "surface_i", where), r.text(t, "surface_j", where)});
    }
  }
  return s;
}

}  // namespace surfdb::cli
