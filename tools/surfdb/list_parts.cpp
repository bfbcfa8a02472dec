#include "list_parts.hpp"

#include <cstdio>
#include <string>

#include "log.hpp"
#include "number_format.hpp"

namespace surfdb::cli {
namespace {

nlohmann::ordered_json vector_json(const Eigen::Vector3d& v) { return {v[0], v[1], v[2]}; }

nlohmann::ordered_json rows_json(const Eigen::Matrix3d& m) {
  return {vector_json(m.row(0)), vector_json(m.row(1)), vector_json(m.row(2))};
}

std::string vector_text(const double* v) {
  const auto number = [](double x) { return format_number(x == 0 ? 0.0 : x); };  // no "-0"
  return "[" + number(v[0]) + ", " + number(v[1]) + ", " + number(v[2]) + "]";
}

std::string vector_text(const Eigen::Vector3d& v) { return vector_text(v.data()); }

std::string rows_text(const Eigen::Matrix3d& m) {
  return "[" + vector_text(Eigen::Vector3d(m.row(0))) + ", " + vector_text(Eigen::Vector3d(m.row(1))) + ", " +
         vector_text(Eigen::Vector3d(m.row(2))) + "]";
}

void print_text(const CadAssembly& assembly) {
  const std::string unit = length_unit_name(assembly.unit());
  std::printf("%s (%s, length unit %s): %s, %s\n", assembly.file_name().c_str(), assembly.kind().c_str(), unit.c_str(),
              count_of(assembly.parts().size(), "part").c_str(), count_of(assembly.instances().size(), "instance").c_str());
  for (std::size_t p = 0; p < assembly.parts().size(); ++p) {
    const AssemblyPart& part = assembly.parts()[p];
    std::printf("part %s: product '%s', %s, %s (%s:1..%s:%u), volume %s %s^3, box %s to %s %s\n", part.name.c_str(),
                part.product_name.c_str(), count_of(part.solids, "solid").c_str(), count_of(part.faces, "face").c_str(),
                part.name.c_str(), part.name.c_str(), part.faces, format_number(part.volume).c_str(), unit.c_str(),
                vector_text(part.bounding_box.min.data()).c_str(), vector_text(part.bounding_box.max.data()).c_str(),
                unit.c_str());
    if (part.file_density > 0)
      std::printf("  material density %s kg/m^3 (the file's)\n", format_number(part.file_density).c_str());
    for (const AssemblyInstance& i : assembly.instances()) {
      if (i.part != p) continue;
      std::printf("  instance %s in '%s': position %s %s, rotation %s\n", i.name.c_str(), i.path.c_str(),
                  vector_text(i.placement.translation).c_str(), unit.c_str(), rows_text(i.placement.rotation).c_str());
    }
  }
}

}  // namespace

nlohmann::ordered_json assembly_structure_json(const CadAssembly& assembly) {
  nlohmann::ordered_json j;
  j["file"] = assembly.file_name();
  j["kind"] = assembly.kind();
  j["length_unit"] = length_unit_name(assembly.unit());
  j["parts"] = nlohmann::ordered_json::array();
  for (std::size_t p = 0; p < assembly.parts().size(); ++p) {
    const AssemblyPart& part = assembly.parts()[p];
    nlohmann::ordered_json names = nlohmann::ordered_json::array();
    for (const AssemblyInstance& i : assembly.instances())
      if (i.part == p) names.push_back(i.name);
    j["parts"].push_back({{"name", part.name},
                          {"product_name", part.product_name},
                          {"solids", part.solids},
                          {"faces", part.faces},
                          {"volume", part.volume},
                          {"density", part.file_density > 0 ? nlohmann::ordered_json(part.file_density) : nlohmann::ordered_json()},
                          {"bounding_box",
                           {{"min", {part.bounding_box.min[0], part.bounding_box.min[1], part.bounding_box.min[2]}},
                            {"max", {part.bounding_box.max[0], part.bounding_box.max[1], part.bounding_box.max[2]}}}},
                          {"instances", names}});
  }
  j["instances"] = nlohmann::ordered_json::array();
  for (const AssemblyInstance& i : assembly.instances())
    j["instances"].push_back({{"name", i.name},
                              {"part", assembly.parts()[i.part].name},
                              {"path", i.path},
                              {"position", vector_json(i.placement.translation)},
                              {"rotation", rows_json(i.placement.rotation)}});
  return j;
}

void list_parts(const CadAssembly& assembly, bool json) {
  for (const std::string& w : assembly.warnings()) spdlog::warn("{}", w);
  if (json) {
    std::printf("%s\n", assembly_structure_json(assembly).dump(2).c_str());
    return;
  }
  print_text(assembly);
}

}  // namespace surfdb::cli
