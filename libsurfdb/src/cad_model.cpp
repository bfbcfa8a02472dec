#include "surfdb/libsurfdb/cad_model.hpp"

#include <BRepAdaptor_Surface.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepGProp.hxx>
#include <BRepTools.hxx>
#include <BRep_Builder.hxx>
#include <GProp_GProps.hxx>
#include <IGESControl_Reader.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <Precision.hxx>
#include <STEPControl_Reader.hxx>
#include <Standard_Failure.hxx>
#include <TopExp.hxx>
#include <TopTools_IndexedMapOfShape.hxx>
#include <TopoDS.hxx>

#include <algorithm>
#include <fstream>
#include <mutex>

#include "nurbs_text.hpp"
#include "occt_face_source.hpp"

namespace surfdb {

struct CadModel::Impl {
  std::filesystem::path path;
  std::string kind;  // "step", "iges", "brep" or "nurbs"
  LengthUnit unit = LengthUnit::millimetre;
  TopTools_IndexedMapOfShape faces;
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
  if (std::filesystem::file_size(path, ec) == 0) throw CadError(name + ": file is empty");
  if (!std::ifstream(path)) throw CadError(name + ": cannot open for reading");
}

TopoDS_Shape read_step(const std::filesystem::path& path) {
  STEPControl_Reader reader;
  if (reader.ReadFile(path.c_str()) != IFSelect_RetDone)
    throw CadError(path.string() + ": OpenCASCADE cannot read this as a STEP file");
  reader.TransferRoots();
  return reader.OneShape();
}

TopoDS_Shape read_iges(const std::filesystem::path& path) {
  IGESControl_Reader reader;
  if (reader.ReadFile(path.c_str()) != IFSelect_RetDone)
    throw CadError(path.string() + ": OpenCASCADE cannot read this as an IGES file");
  reader.TransferRoots();
  return reader.OneShape();
}

TopoDS_Shape read_brep(const std::filesystem::path& path) {
  TopoDS_Shape shape;
  BRep_Builder builder;
  if (!BRepTools::Read(shape, path.c_str(), builder))
    throw CadError(path.string() + ": OpenCASCADE cannot read this as a BREP file");
  return shape;
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
      shape = read_step(path);
    } else if (ext == ".iges" || ext == ".igs") {
      impl->kind = "iges";
      shape = read_iges(path);
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
  TopExp::MapShapes(shape, TopAbs_FACE, impl->faces);
  if (impl->faces.Extent() == 0) throw CadError(path.string() + ": the shape has no faces");
  CadModel model;
  model.impl_ = std::move(impl);
  return model;
}

std::uint32_t CadModel::face_count() const { return static_cast<std::uint32_t>(impl_->faces.Extent()); }

FaceInfo CadModel::face_info(std::uint32_t index) const {
  if (index < 1 || index > face_count())
    throw CadError(impl_->path.string() + ": face " + std::to_string(index) +
                   " does not exist (faces are 1.." + std::to_string(face_count()) + ")");
  const TopoDS_Face& face = TopoDS::Face(impl_->faces(static_cast<int>(index)));
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
  return info;
}

std::unique_ptr<SurfaceSource> CadModel::face(std::uint32_t index) const {
  const FaceInfo f = face_info(index);
  SourceInfo s;
  s.kind = impl_->kind;
  s.name = impl_->path.filename().string();
  s.surface_type = f.surface_type;
  s.face_index = index;
  s.orientation = f.orientation;
  return std::make_unique<OcctFaceSource>(TopoDS::Face(impl_->faces(static_cast<int>(index))), s,
                                          impl_->unit);
}

}  // namespace surfdb
