#include "surfdb/libsurfdb/cad_mesh.hpp"

#include <BRepMesh_IncrementalMesh.hxx>
#include <BRepTools.hxx>
#include <BRep_Builder.hxx>
#include <BRep_Tool.hxx>
#include <IMeshTools_Parameters.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <Message_ProgressIndicator.hxx>
#include <Message_ProgressScope.hxx>
#include <Poly_Triangulation.hxx>
#include <RWStl.hxx>
#include <Standard_Failure.hxx>
#include <TopLoc_Location.hxx>
#include <TopoDS_Compound.hxx>

#include <cmath>
#include <fstream>
#include <mutex>
#include <string>

#include "cad_model_faces.hpp"

namespace surfdb {
namespace {

// OpenCASCADE's progress, as a whole number of thousandths, passed on to the caller's callback.
class ProgressRelay final : public Message_ProgressIndicator {
 public:
  explicit ProgressRelay(const MeshProgress& progress) : progress_(progress) {}
  void Show(const Message_ProgressScope&, const Standard_Boolean) override {
    const auto permille = static_cast<std::uint64_t>(std::lround(GetPosition() * 1000));
    if (progress_ && permille != last_) progress_(permille, 1000);
    last_ = permille;
  }

 private:
  const MeshProgress& progress_;
  std::uint64_t last_ = UINT64_MAX;
};

// OpenCASCADE's readers report on standard output by default; surfdb's commands own that stream
// (CadModel::load does the same for the CAD readers).
void silence_occt_messages() {
  static std::once_flag once;
  std::call_once(once, [] { Message::DefaultMessenger()->ChangePrinters().Clear(); });
}

void check_options(const CadMeshOptions& o, const std::string& part) {
  if (!(o.linear_deflection > 0) || !std::isfinite(o.linear_deflection))
    throw CadError(part + ": the linear deflection must be a positive length, not " +
                   std::to_string(o.linear_deflection));
  if (!(o.angular_deflection > 0) || !std::isfinite(o.angular_deflection))
    throw CadError(part + ": the angular deflection must be a positive angle, not " +
                   std::to_string(o.angular_deflection));
}

// Appends the face's triangulation to the soup: nodes placed by the face's location, triangles
// turned over where the face is reversed in the part (or placed by a mirror), so that every
// triangle's (b - a) x (c - a) points out of the material. False when the face has no triangles.
bool append_face(const TopoDS_Face& face, MeshData& soup) {
  TopLoc_Location location;
  const Handle(Poly_Triangulation) t = BRep_Tool::Triangulation(face, location);
  if (t.IsNull() || t->NbTriangles() == 0) return false;
  const gp_Trsf placement = location.Transformation();
  const bool turn = (face.Orientation() == TopAbs_REVERSED) != placement.IsNegative();
  if (soup.vertices.size() + static_cast<std::uint64_t>(t->NbNodes()) > kMaxMeshElements)
    throw CadError(soup.source_name + ": more than " + std::to_string(kMaxMeshElements) +
                   " vertices, more than a mesh file holds; use a larger deflection");
  const auto base = static_cast<std::uint32_t>(soup.vertices.size());
  for (int n = 1; n <= t->NbNodes(); ++n) {
    const gp_Pnt p = location.IsIdentity() ? t->Node(n) : t->Node(n).Transformed(placement);
    soup.vertices.push_back({p.X(), p.Y(), p.Z()});
  }
  for (int k = 1; k <= t->NbTriangles(); ++k) {
    int a = 0, b = 0, c = 0;
    t->Triangle(k).Get(a, b, c);
    if (turn) std::swap(b, c);
    soup.triangles.push_back({base + static_cast<std::uint32_t>(a - 1), base + static_cast<std::uint32_t>(b - 1),
                              base + static_cast<std::uint32_t>(c - 1)});
  }
  return true;
}

// BRepMesh over the faces together, so that an edge two faces share is divided once and both
// faces end on the same nodes. Existing triangulations (a BREP file may carry some) are removed
// first: the result depends on the options alone.
void triangulate(const TopoDS_Shape& shape, const CadMeshOptions& o, const MeshProgress& progress) {
  BRepTools::Clean(shape);
  IMeshTools_Parameters p;
  p.Deflection = p.DeflectionInterior = o.linear_deflection;
  p.Angle = p.AngleInterior = o.angular_deflection;
  p.InParallel = false;  // the same nodes in the same order on every run
  p.Relative = false;
  Handle(ProgressRelay) relay = new ProgressRelay(progress);
  BRepMesh_IncrementalMesh mesher(shape, p, relay->Start());
}

MeshResult finish(MeshData soup) {
  MeshResult r;
  const double tolerance = default_merge_tolerance(soup.vertices);
  r.report = make_mesh(soup, tolerance);
  if (soup.triangles.empty())
    throw CadError(soup.source_name + ": every triangle is degenerate (no area), so there is no mesh");
  r.mesh = std::move(soup);
  return r;
}

}  // namespace

MeshResult mesh_cad_model(const CadModel& model, const CadMeshOptions& options, const MeshProgress& progress) {
  const std::string part = model.file_name();
  check_options(options, part);
  std::vector<std::uint32_t> faces;
  if (options.face != 0) {
    (void)CadModelFaces::face(model, options.face);  // a missing face is refused before meshing
    faces.push_back(options.face);
  } else if (!options.faces.empty()) {
    for (const std::uint32_t f : options.faces) (void)CadModelFaces::face(model, f);
    faces = options.faces;
  } else {
    for (std::uint32_t f = 1; f <= model.face_count(); ++f) faces.push_back(f);
  }
  BRep_Builder builder;
  TopoDS_Compound all;
  builder.MakeCompound(all);
  for (const std::uint32_t f : faces) builder.Add(all, CadModelFaces::face(model, f));
  MeshData soup;
  soup.length_unit = model.unit();
  soup.source_kind = model.kind();
  soup.source_name = part;
  std::vector<std::uint32_t> empty;
  try {
    triangulate(all, options, progress);
    for (const std::uint32_t f : faces)
      if (!append_face(CadModelFaces::face(model, f), soup)) empty.push_back(f);
  } catch (const Standard_Failure& e) {
    throw CadError(part + ": OpenCASCADE failed meshing it: " + e.GetMessageString());
  }
  if (soup.triangles.empty())
    throw CadError(part + (options.face ? ": face " + std::to_string(options.face) + " gives" : ": no face gives") +
                   " any triangle at this deflection");
  MeshResult r = finish(std::move(soup));
  r.faces_without_triangles = std::move(empty);
  return r;
}

MeshResult read_stl_mesh(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw CadError(name + ": no such file");
  if (!std::filesystem::is_regular_file(status)) throw CadError(name + ": not a regular file");
  if (!std::ifstream(path)) throw CadError(name + ": cannot open for reading");
  if (std::filesystem::file_size(path, ec) == 0) throw CadError(name + ": file is empty");
  silence_occt_messages();
  Handle(Poly_Triangulation) t;
  try {
    t = RWStl::ReadFile(path.c_str());
  } catch (const Standard_Failure& e) {
    throw CadError(name + ": OpenCASCADE failed reading it as STL: " + e.GetMessageString());
  }
  if (t.IsNull()) throw CadError(name + ": OpenCASCADE cannot read this as an STL file");
  if (t->NbTriangles() == 0) throw CadError(name + ": the STL file holds no triangles");
  MeshData soup;
  soup.source_kind = "stl";
  soup.source_name = path.filename().string();
  for (int n = 1; n <= t->NbNodes(); ++n) {
    const gp_Pnt p = t->Node(n);
    soup.vertices.push_back({p.X(), p.Y(), p.Z()});
  }
  for (int k = 1; k <= t->NbTriangles(); ++k) {
    int a = 0, b = 0, c = 0;
    t->Triangle(k).Get(a, b, c);
    soup.triangles.push_back(
        {static_cast<std::uint32_t>(a - 1), static_cast<std::uint32_t>(b - 1), static_cast<std::uint32_t>(c - 1)});
  }
  return finish(std::move(soup));
}

}  // namespace surfdb
