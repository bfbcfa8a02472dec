// Which instances of an assembly touch where the assembly places them: the pairs whose placed
// shapes come within a gap of each other (BRepExtrema_DistShapeShape), boxes first.
#include <BRepBndLib.hxx>
#include <BRepExtrema_DistShapeShape.hxx>
#include <Bnd_Box.hxx>
#include <TopLoc_Location.hxx>

#include "cad_assembly_impl.hpp"

namespace surfdb {

std::vector<std::pair<std::uint32_t, std::uint32_t>> CadAssembly::touching_instances(double gap) const {
  const std::vector<AssemblyInstance>& instances = impl_->instances;
  std::vector<TopoDS_Shape> placed;
  std::vector<Bnd_Box> boxes(instances.size());
  for (std::size_t k = 0; k < instances.size(); ++k) {
    placed.push_back(impl_->shapes.at(instances[k].part).Moved(TopLoc_Location(transformation(instances[k].placement))));
    BRepBndLib::Add(placed[k], boxes[k]);
    boxes[k].Enlarge(gap);
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> touching;
  for (std::uint32_t i = 0; i < instances.size(); ++i)
    for (std::uint32_t j = i + 1; j < instances.size(); ++j) {
      if (boxes[i].IsOut(boxes[j])) continue;
      BRepExtrema_DistShapeShape distance(placed[i], placed[j]);
      if (distance.IsDone() && distance.Value() <= gap) touching.emplace_back(i, j);
    }
  return touching;
}

}  // namespace surfdb
