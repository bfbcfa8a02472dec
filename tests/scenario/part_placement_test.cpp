// A part's set placed at its frame (placement = "part") and its body's mass from a density: a
// block drawn off its file's origin and turned, converted with every face, is placed by the
// set's mass frame so that its body frame is its centre of mass and principal axes: the body's
// pose maps the part's own coordinates onto the world, its mass and inertia are the block's
// closed forms, and dropped on a plate it comes to rest level on its bottom face's edges, as a
// block drawn square does (its edges askew to the set's axes once gave an edge's stiffness from
// rounding: it sank 2.2 um onto its corners).
#include <BRepBuilderAPI_Transform.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <gp_Trsf.hxx>
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <fstream>
#include <iterator>
#include <numbers>
#include <sstream>

#include "set_scene.hpp"

using namespace surfdb;
using namespace surfdb::test;

namespace {

[[maybe_unused]] const bool quiet = (Message::DefaultMessenger()->ChangePrinters().Clear(), true);

constexpr double kDensity = 7850, kTurn = 0.5;   // kg/m^3; rad, about the file's z
const Eigen::Vector3d kSize(20, 10, 6);           // mm: the moments ascend along x, y, z
const Eigen::Vector3d kCentre(30, -12, 7);        // mm, the block's centre in the file

// The block centred at kCentre, its edges along the file's axes turned by kTurn about z.
TopoDS_Shape turned_block() {
  const TopoDS_Shape box = BRepPrimAPI_MakeBox(gp_Pnt(-kSize.x() / 2, -kSize.y() / 2, -kSize.z() / 2), kSize.x(),
                                               kSize.y(), kSize.z()).Shape();
  gp_Trsf turn, move;
  turn.SetRotation(gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), kTurn);
  move.SetTranslation(gp_Vec(kCentre.x(), kCentre.y(), kCentre.z()));
  return BRepBuilderAPI_Transform(box, move * turn, true).Shape();
}

// The block's body on its set placed at its frame, its mass from the density, at `position` (m)
// and `orientation`; a plate (top at z = 0) under it when `plate` is not empty.
std::string scene(const std::filesystem::path& block, const Eigen::Vector3d& position, const Eigen::Quaterniond& q,
                  const std::filesystem::path& plate = {}) {
  std::ostringstream f;
  f.precision(17);
  f << "[simulation]\nend_time = 0.01\nmax_step = 1e-4\nintegrator = \"bdf\"\n"
    << "[[body]]\nname = \"block\"\ndensity = " << kDensity << "\nposition = [" << position.x() << ", "
    << position.y() << ", " << position.z() << "]\norientation = [" << q.w() << ", " << q.x() << ", " << q.y() << ", "
    << q.z() << "]\n"
    << "[[surface]]\nname = \"block\"\nbody = \"block\"\ntable = \"" << block.string() << "\"\nplacement = \"part\"\n";
  if (!plate.empty())
    f << "[[surface]]\nname = \"plate\"\nbody = \"ground\"\ntable = \"" << plate.string() << "\"\n"
      << "[[contact]]\nname = \"c\"\nsurface_i = \"block\"\nsurface_j = \"plate\"\nstiffness = 1e9\n"
      << "law = \"hunt_crossley\"\nrestitution = 0.2\n";
  return f.str();
}

}  // namespace

TEST_CASE("a part's set placed at its frame: its body's pose maps the part's coordinates, its mass and inertia the block's") {
  const TempDir dir;
  const std::filesystem::path block = convert_part(dir, turned_block(), "block", 2.0);
  // The block's principal axes in the file: its edges, turned; at that pose the body puts every
  // point of the part where the file has it.
  const Eigen::Matrix3d P = Eigen::AngleAxisd(kTurn, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  const std::shared_ptr<Model> model = parse_model(scene(block, 1e-3 * kCentre, Eigen::Quaterniond(P)), "placed", dir.path());
  const ContactSurface& s = model->surfaces.at(0);
  CHECK((s.mount.rotation - P.transpose()).cwiseAbs().maxCoeff() < 1e-12);
  const BodyState body = body_view(model->initial_state.data(), 0).body_state();
  for (const Eigen::Vector3d corner : {Eigen::Vector3d(10, 5, 3), Eigen::Vector3d(-10, 5, -3), Eigen::Vector3d(10, -5, 3)}) {
    const Eigen::Vector3d in_file = kCentre + P * corner;  // mm
    const Eigen::Vector3d world = body.pose.r + body.pose.A * (s.mount.offset + s.mount.rotation * (1e-3 * in_file));
    CHECK((world - 1e-3 * in_file).norm() < 1e-13);  // rounding of 40 mm; a wrong turn is millimetres
  }
  const Eigen::Vector3d e = 1e-3 * kSize;  // m
  const double mass = kDensity * e.prod();
  const RigidBody& b = model->multibody.bodies.at(0);
  CHECK(b.mass == doctest::Approx(mass).epsilon(1e-12));
  const Eigen::Vector3d moments = mass / 12 * Eigen::Vector3d(e.y() * e.y() + e.z() * e.z(), e.x() * e.x() + e.z() * e.z(),
                                                             e.x() * e.x() + e.y() * e.y());
  CHECK((b.inertia - Eigen::Matrix3d(moments.asDiagonal())).cwiseAbs().maxCoeff() < 1e-12 * moments.maxCoeff());
}

TEST_CASE("a part placed at its frame, dropped flat on a plate, rests level on its bottom edges") {
  const TempDir dir;
  const std::filesystem::path block = convert_part(dir, turned_block(), "block", 2.0);
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate", 1.0);
  // Body axes level (identity), its centre 3 mm (half its height) and 20 um above the plate's top,
  // between the hole (r 5 mm) and the plate's edge (x 30 mm): x from 7 to 27 mm.
  std::ofstream(dir / "scene.toml") << scene(block, {0.017, 0.0, 0.00302}, Eigen::Quaterniond::Identity(), plate);
  RunStatistics run;
  const std::vector<SceneSample> s = simulate_scene(dir / "scene.toml", run);
  CHECK(run.health.status() == RunStatus::ok);
  const SceneSample& end = s.back();
  // Each bottom edge's load per length, K delta^(1/2) / (sqrt(2R) B(1/2, 2)) on an edge: tens of
  // nanometres at most under a 9 g block (line_contact_test's closed form: 0.26 nm at K = 1e9).
  CHECK(std::abs(end.centre.z() - 0.003) < 1e-8);
  CHECK(end.orientation.angularDistance(Eigen::Quaterniond::Identity()) < 1e-5);
  const double weight = kDensity * 1e-9 * kSize.prod() * 9.81;
  CHECK(end.force == doctest::Approx(weight).epsilon(1e-3));
}


TEST_CASE("placement's bad input is refused naming the surface and the problem") {
  const TempDir dir;
  const std::filesystem::path block = convert_part(dir, turned_block(), "block", 2.0);
  const std::string good = scene(block, 1e-3 * kCentre, Eigen::Quaterniond::Identity());
  const auto refused = [&](const std::string& text, const std::string& words) {
    CHECK_THROWS_WITH_AS(parse_model(text, "scene", dir.path()), doctest::Contains(words.c_str()), ScenarioError);
  };
  refused(good + "origin = [0, 0, 0.001]\n", "surface 'block'.origin: placement = \"part\" places the surface in its body");
  std::string other = good;
  other.replace(other.find("placement = \"part\""), 18, "placement = \"file\"");
  refused(other, "surface 'block'.placement: must be \"part\"");
  // The set as an older surfdb wrote it (version 2: no mass frame).
  const std::filesystem::path old = dir / "old.sdbs";
  std::filesystem::copy(block, old);
  std::string manifest;
  {
    std::ifstream in(old / "manifest.json");
    manifest.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t from = manifest.find("  \"mass_frame\"");
  manifest.erase(from, manifest.find("  \"skipped_faces\"") - from);  // the keys are sorted
  manifest.replace(manifest.find("\"format_version\": 3"), 19, "\"format_version\": 2");
  std::ofstream(old / "manifest.json") << manifest;
  std::string older = good;
  older.replace(older.find(block.string()), block.string().size(), old.string());
  refused(older, "surface 'block'.placement: the table has no part frame");
  std::string sphere = good;
  sphere.replace(sphere.find("table = \""), sphere.find("placement") - sphere.find("table = \""), "sphere_radius = 0.01\n");
  refused(sphere, "surface 'block'.placement: applies to a table only");
}
