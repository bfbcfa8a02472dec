#include "surfdb/libsurfdb/cad_model.hpp"

#include <BRepAdaptor_Surface.hxx>
#include <BRepBndLib.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepGProp.hxx>
#include <BRepTools.hxx>
#include <BRep_Builder.hxx>
#include <GProp_GProps.hxx>
#include <IGESControl_Reader.hxx>
#include <IGESData_GlobalSection.hxx>
#include <IGESData_IGESModel.hxx>
#include <Interface_CheckIterator.hxx>
#include <Interface_InterfaceModel.hxx>
#include <XSControl_TransferReader.hxx>
#include <XSControl_WorkSession.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <Precision.hxx>
#include <STEPControl_Reader.hxx>
#include <Standard_Failure.hxx>
#include <TopExp.hxx>
#include <Bnd_Box.hxx>
#include <TopTools_IndexedDataMapOfShapeListOfShape.hxx>
#include <TopTools_IndexedMapOfShape.hxx>
#include <TopTools_ListOfShape.hxx>
#include <TopoDS.hxx>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <mutex>

#include "cad_model_faces.hpp"
#include "nurbs_text.hpp"
#include "occt_face_source.hpp"

namespace surfdb {

struct CadModel::Impl {
  std::filesystem::path path;
  std::string kind;  // "step", "iges", "brep" or "nurbs"
  LengthUnit unit = LengthUnit::millimetre;
  TopoDS_Shape shape;
  TopTools_IndexedMapOfShape faces;
  std::vector<std::vector<std::uint32_t>> adjacent;  // per face (0-based), ascending face numbers
  std::vector<std::string> warnings;

  /// Throws CadError when `index` is not in 1..faces.Extent().
  const TopoDS_Face& face(std::uint32_t index) const;
};

namespace {

// OpenCASCADE reports on standard output by default; surfdb's commands own that stream.
void silence_occt_messages() {
  static std::once_flag once;
  std::call_once(once, [] {
    const Handle(Message_Messenger)& messenger = Message::DefaultMessenger();
    messenger->ChangePrinters().Clear();
  });
}

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

void check_readable(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw CadError(name + ": no such file");
  if (std::filesystem::is_directory(status)) throw CadError(name + ": is a directory, not a CAD file");
  if (!std::filesystem::is_regular_file(status))
    throw CadError(name + ": not a regular file (a FIFO, a device or a socket), not a CAD file");
  if (std::filesystem::file_size(path, ec) == 0) throw CadError(name + ": file is empty");
  if (!std::ifstream(path)) throw CadError(name + ": cannot open for reading");
}

// Entities whose check failed. Some check lists (an IGES whose unit name contradicts its flag)
// throw while they are walked; they are not counted (the unit check reports that file).
int failed_checks(const Interface_CheckIterator& checks) {
  int failed = 0;
  try {
    for (Interface_CheckIterator c = checks; c.More(); c.Next()) failed += c.Value()->HasFailed() ? 1 : 0;
  } catch (const Standard_Failure&) {
    failed = 0;
  }
  return failed;
}

// A STEP or IGES reader that could not convert some of what it read still gives a shape: the part
// may lack faces. Said in a warning, with the counts.
template <class Reader>
TopoDS_Shape transfer(Reader& reader, const std::filesystem::path& path, std::vector<std::string>& warnings) {
  const int entities = reader.WS()->Model()->NbEntities();
  const int unread = failed_checks(reader.WS()->ModelCheckList());
  reader.TransferRoots();
  const int unconverted = failed_checks(reader.WS()->TransferReader()->LastCheckList());
  if (unconverted > 0)  // entities unread alone are common (annotations, colours a reader skips)
    warnings.push_back(path.filename().string() + " is damaged or partly unsupported: " + std::to_string(unread) +
                       " of its " + std::to_string(entities) + " entities could not be read and " +
                       std::to_string(unconverted) + " could not be converted, so the part may lack faces");
  return reader.OneShape();
}

TopoDS_Shape read_step(const std::filesystem::path& path, std::vector<std::string>& warnings) {
  STEPControl_Reader reader;
  if (reader.ReadFile(path.c_str()) != IFSelect_RetDone)
    throw CadError(path.string() + ": OpenCASCADE cannot read this as a STEP file");
  return transfer(reader, path, warnings);
}

// The names IGES gives each unit flag (1..11; 3 means "the name says").
bool unit_name_matches(int flag, std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  static const char* const names[12][2] = {{"", ""},   {"IN", "INCH"}, {"MM", ""},   {"", ""},
                                           {"FT", ""}, {"MI", ""},     {"M", ""},    {"KM", ""},
                                           {"MIL", ""}, {"UM", "MICRON"}, {"CM", ""}, {"UIN", ""}};
  if (flag == 3 || name.empty()) return true;
  return name == names[flag][0] || name == names[flag][1];
}

// IGES states its length unit twice (a flag and a name); OpenCASCADE reads nothing when neither
// gives a unit it knows, and follows the flag when they disagree.
void check_iges_unit(const IGESControl_Reader& reader, const std::filesystem::path& path,
                     std::vector<std::string>& warnings) {
  const IGESData_GlobalSection& g = reader.IGESModel()->GlobalSection();
  const int flag = g.UnitFlag();
  const std::string name = g.UnitName().IsNull() ? std::string() : g.UnitName()->ToCString();
  if (flag < 1 || flag > 11 || g.UnitValue() <= 0)
    throw CadError(path.string() + ": the IGES global section's unit flag " + std::to_string(flag) + " and unit name '" +
                   name + "' give no length unit (flags are 1..11: 1 inch, 2 mm, ...)");
  if (!unit_name_matches(flag, name)) {
    char millimetres[32];
    std::snprintf(millimetres, sizeof(millimetres), "%g", g.UnitValue());
    warnings.push_back(path.filename().string() + ": the IGES unit flag " + std::to_string(flag) +
                       " and the unit name '" + name + "' disagree; the flag was used (1 unit = " + millimetres + " mm)");
  }
}

TopoDS_Shape read_iges(const std::filesystem::path& path, std::vector<std::string>& warnings) {
  IGESControl_Reader reader;
  if (reader.ReadFile(path.c_str()) != IFSelect_RetDone)
    throw CadError(path.string() + ": OpenCASCADE cannot read this as an IGES file");
  check_iges_unit(reader, path, warnings);
  return transfer(reader, path, warnings);
}

TopoDS_Shape read_brep(const std::filesystem::path& path) {
  TopoDS_Shape shape;
  BRep_Builder builder;
  if (!BRepTools::Read(shape, path.c_str(), builder))
    throw CadError(path.string() + ": OpenCASCADE cannot read this as a BREP file");
  return shape;
}

// Faces that share an edge, from the B-rep topology: each edge's ancestor faces are neighbours of
// one another (a seam edge's only face is not its own neighbour).
std::vector<std::vector<std::uint32_t>> adjacency(const TopoDS_Shape& shape, const TopTools_IndexedMapOfShape& faces) {
  TopTools_IndexedDataMapOfShapeListOfShape edge_faces;
  TopExp::MapShapesAndAncestors(shape, TopAbs_EDGE, TopAbs_FACE, edge_faces);
  std::vector<std::vector<std::uint32_t>> adjacent(static_cast<std::size_t>(faces.Extent()));
  for (int e = 1; e <= edge_faces.Extent(); ++e) {
    std::vector<std::uint32_t> around;
    for (const TopoDS_Shape& face : edge_faces(e))
      if (const int index = faces.FindIndex(face); index > 0) around.push_back(static_cast<std::uint32_t>(index));
    for (const std::uint32_t a : around)
      for (const std::uint32_t b : around)
        if (a != b) adjacent[a - 1].push_back(b);
  }
  for (auto& list : adjacent) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return adjacent;
}

// AddOptimal (exact extrema of the trimmed face) where it succeeds, else the looser Add.
Box3 optimal_box(const TopoDS_Face& face) {
  Bnd_Box box;
  try {
    BRepBndLib::AddOptimal(face, box, /*useTriangulation=*/false, /*useShapeTolerance=*/false);
  } catch (const Standard_Failure&) {  // the extrema can fail on odd faces
    box.SetVoid();
    BRepBndLib::Add(face, box, false);
  }
  Box3 b;
  if (!box.IsVoid()) box.Get(b.min[0], b.min[1], b.min[2], b.max[0], b.max[1], b.max[2]);
  return b;
}

}  // namespace

CadModel CadModel::load(const std::filesystem::path& path) {
  silence_occt_messages();
  check_readable(path);
  auto impl = std::make_shared<Impl>();
  impl->path = path;
  const std::string ext = lower_extension(path);
  TopoDS_Shape shape;
  try {
    if (ext == ".step" || ext == ".stp") {
      impl->kind = "step";
      shape = read_step(path, impl->warnings);
    } else if (ext == ".iges" || ext == ".igs") {
      impl->kind = "iges";
      shape = read_iges(path, impl->warnings);
    } else if (ext == ".brep" || ext == ".brp") {
      impl->kind = "brep";
      shape = read_brep(path);
    } else if (ext == ".nurbs") {
      impl->kind = "nurbs";
      const NurbsText nurbs = read_nurbs_text(path);
      impl->unit = nurbs.unit;
      shape = BRepBuilderAPI_MakeFace(nurbs.surface, Precision::Confusion()).Face();
    } else {
      throw CadError(path.string() + ": unknown file type '" + ext +
                     "' (expected .step, .stp, .iges, .igs, .brep, .brp or .nurbs)");
    }
  } catch (const Standard_Failure& e) {
    throw CadError(path.string() + ": OpenCASCADE failed reading it: " + e.GetMessageString());
  }
  if (shape.IsNull()) throw CadError(path.string() + ": the file holds no shape");
  return CadModelFaces::from_shape(shape, std::move(impl));
}

CadModel CadModelFaces::from_shape(const TopoDS_Shape& shape, const std::string& name, const std::string& kind,
                                   LengthUnit unit) {
  auto impl = std::make_shared<CadModel::Impl>();
  impl->path = name;
  impl->kind = kind;
  impl->unit = unit;
  return from_shape(shape, std::move(impl));
}

CadModel CadModelFaces::from_shape(const TopoDS_Shape& shape, std::shared_ptr<CadModel::Impl> impl) {
  TopExp::MapShapes(shape, TopAbs_FACE, impl->faces);
  if (impl->faces.Extent() == 0) throw CadError(impl->path.string() + ": the shape has no faces");
  impl->adjacent = adjacency(shape, impl->faces);
  impl->shape = shape;
  CadModel model;
  model.impl_ = std::move(impl);
  return model;
}

std::uint32_t CadModel::face_count() const { return static_cast<std::uint32_t>(impl_->faces.Extent()); }
std::string CadModel::file_name() const { return impl_->path.filename().string(); }
std::string CadModel::kind() const { return impl_->kind; }
LengthUnit CadModel::unit() const { return impl_->unit; }
const std::vector<std::string>& CadModel::warnings() const { return impl_->warnings; }

const TopoDS_Face& CadModel::Impl::face(std::uint32_t index) const {
  if (index < 1 || index > static_cast<std::uint32_t>(faces.Extent()))
    throw CadError(path.string() + ": face " + std::to_string(index) + " does not exist (faces are 1.." +
                   std::to_string(faces.Extent()) + ")");
  return TopoDS::Face(faces(static_cast<int>(index)));
}

FaceInfo CadModel::face_info(std::uint32_t index) const {
  const TopoDS_Face& face = impl_->face(index);
  const BRepAdaptor_Surface surface(face, true);
  FaceInfo info;
  info.index = index;
  info.surface_type = surface_type_name(surface);
  info.bounds = face_bounds(face, surface);
  info.orientation =
      face.Orientation() == TopAbs_REVERSED ? FaceOrientation::reversed : FaceOrientation::forward;
  GProp_GProps props;
  BRepGProp::SurfaceProperties(face, props);
  info.area = props.Mass();
  info.adjacent = impl_->adjacent[index - 1];
  return info;
}

Box3 CadModel::bounding_box(std::uint32_t index) const { return optimal_box(impl_->face(index)); }

const TopoDS_Face& CadModelFaces::face(const CadModel& model, std::uint32_t index) { return model.impl_->face(index); }

const TopoDS_Shape& CadModelFaces::shape(const CadModel& model) { return model.impl_->shape; }

std::unique_ptr<SurfaceSource> CadModel::face(std::uint32_t index) const {
  const TopoDS_Face& face = impl_->face(index);
  SourceInfo s;
  s.kind = impl_->kind;
  s.name = impl_->path.filename().string();
  s.surface_type = surface_type_name(BRepAdaptor_Surface(face, true));
  s.face_index = index;
  s.orientation = face.Orientation() == TopAbs_REVERSED ? FaceOrientation::reversed : FaceOrientation::forward;
  return std::make_unique<OcctFaceSource>(face, s, impl_->unit);
}

}  // namespace surfdb
