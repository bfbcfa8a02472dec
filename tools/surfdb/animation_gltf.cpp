#include "animation_gltf.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>

#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb::cli {
namespace {

using Json = nlohmann::ordered_json;

// glTF's constants: component types, buffer view targets, the triangle mode.
constexpr int kFloat = 5126, kUnsignedInt = 5125, kArrayBuffer = 34962, kElementArrayBuffer = 34963, kTriangles = 4;
// A quarter turn about x, as (x, y, z, w): the run's z up becomes glTF's y up.
constexpr float kHalfRoot2 = 0.70710678118654752f;

// The buffer as it is laid out, and the views and accessors over it.
class Layout {
 public:
  // Appends `count` elements of `width` 4-byte values; returns the accessor's index.
  int add(const void* data, std::size_t count, int width, int component, int target = 0) {
    const std::size_t bytes = count * static_cast<std::size_t>(width) * 4;
    Json view = {{"buffer", 0}, {"byteOffset", buffer.size()}, {"byteLength", bytes}};
    if (target) view["target"] = target;
    views.push_back(view);
    buffer.append(static_cast<const char*>(data), bytes);
    static const char* const kTypes[] = {"", "SCALAR", "", "VEC3", "VEC4"};
    accessors.push_back({{"bufferView", views.size() - 1}, {"componentType", component}, {"count", count},
                         {"type", kTypes[width]}});
    return static_cast<int>(accessors.size()) - 1;
  }
  // The accessor's min and max per component (float32 data): required for positions and times.
  void bounds(int accessor, const float* data, std::size_t count, int width) {
    Json lo = Json::array(), hi = Json::array();
    for (int c = 0; c < width; ++c) {
      float a = data[c], b = data[c];
      for (std::size_t k = 1; k < count; ++k) a = std::min(a, data[k * width + c]), b = std::max(b, data[k * width + c]);
      lo.push_back(a), hi.push_back(b);
    }
    accessors[static_cast<std::size_t>(accessor)]["min"] = lo;
    accessors[static_cast<std::size_t>(accessor)]["max"] = hi;
  }

  std::string buffer;
  Json views = Json::array(), accessors = Json::array();
};

// The animation "run" of `moving` bodies (nodes first_node...) at instants `times`, their
// translations and rotations per instant, body after body; each node's own pose set to the first
// instant's, for viewers that do not play it.
Json animation(Layout& layout, Json& nodes, std::size_t first_node, const std::vector<float>& times,
               const std::vector<float>& translations, const std::vector<float>& rotations, std::size_t moving) {
  const std::size_t n = times.size();
  const int input = layout.add(times.data(), n, 1, kFloat);
  layout.bounds(input, times.data(), n, 1);
  Json samplers = Json::array(), channels = Json::array();
  std::vector<float> track;
  for (std::size_t b = 0; b < moving; ++b) {
    for (const int width : {3, 4}) {
      const std::vector<float>& all = width == 3 ? translations : rotations;
      const char* path = width == 3 ? "translation" : "rotation";
      track.resize(n * static_cast<std::size_t>(width));
      for (std::size_t k = 0; k < n; ++k)
        std::memcpy(&track[k * width], &all[(k * moving + b) * width], sizeof(float) * width);
      channels.push_back({{"sampler", samplers.size()}, {"target", {{"node", first_node + b}, {"path", path}}}});
      samplers.push_back({{"input", input}, {"output", layout.add(track.data(), n, width, kFloat)}, {"interpolation", "LINEAR"}});
      nodes[first_node + b][path] = std::vector<float>(track.begin(), track.begin() + width);
    }
  }
  return {{"name", "run"}, {"channels", channels}, {"samplers", samplers}};
}

}  // namespace

GltfAnimation::GltfAnimation(std::vector<Mesh> meshes) {
  for (Mesh& m : meshes)
    if (!m.indices.empty()) meshes_.push_back(std::move(m));
  std::stable_partition(meshes_.begin(), meshes_.end(), [](const Mesh& m) { return m.body < 0; });  // the ground first
  moving_ = static_cast<std::size_t>(std::count_if(meshes_.begin(), meshes_.end(), [](const Mesh& m) { return m.body >= 0; }));
}

void GltfAnimation::add(double t, const double* y) {
  const auto time = static_cast<float>(t);
  if (!times_.empty() && !(time > times_.back())) return;
  times_.push_back(time);
  for (const Mesh& m : meshes_) {
    if (m.body < 0) continue;
    const BodyStateView s = body_view(y, m.body);
    Eigen::Quaterniond q = s.orientation();
    // The same turn as the last instant's sign, so that interpolation takes the short way.
    if (rotations_.size() >= 4 * moving_) {
      const float* last = &rotations_[rotations_.size() - 4 * moving_];
      if (q.x() * last[0] + q.y() * last[1] + q.z() * last[2] + q.w() * last[3] < 0) q.coeffs() = -q.coeffs();
    }
    for (int c = 0; c < 3; ++c) translations_.push_back(static_cast<float>(s.r()[c]));
    for (const double v : {q.x(), q.y(), q.z(), q.w()}) rotations_.push_back(static_cast<float>(v));
  }
}

GltfAnimation::Files GltfAnimation::files(const std::string& bin_name) const {
  Layout layout;
  Json nodes = Json::array(), meshes = Json::array(), children = Json::array();
  nodes.push_back({{"name", "world"}, {"rotation", {-kHalfRoot2, 0.0f, 0.0f, kHalfRoot2}}, {"children", Json::array()}});
  for (const Mesh& m : meshes_) {
    const int points = layout.add(m.points.data(), m.points.size(), 3, kFloat, kArrayBuffer);
    layout.bounds(points, m.points.front().data(), m.points.size(), 3);
    const int normals = layout.add(m.normals.data(), m.normals.size(), 3, kFloat, kArrayBuffer);
    const int indices = layout.add(m.indices.data(), m.indices.size(), 1, kUnsignedInt, kElementArrayBuffer);
    meshes.push_back({{"name", m.name},
                      {"primitives", {{{"attributes", {{"POSITION", points}, {"NORMAL", normals}}},
                                       {"indices", indices}, {"mode", kTriangles}}}}});
    Json node = {{"name", m.name}, {"mesh", meshes.size() - 1}};
    children.push_back(nodes.size());
    nodes.push_back(node);
  }
  nodes[0]["children"] = children;
  Json gltf = {{"asset", {{"version", "2.0"}, {"generator", "surfdb simulate --animation"}}},
               {"scene", 0},
               {"scenes", {{{"name", "run"}, {"nodes", {0}}}}},
               {"nodes", nodes},
               {"meshes", meshes}};
  if (moving_ > 0 && !times_.empty()) gltf["animations"] = {animation(layout, gltf["nodes"], 1 + meshes_.size() - moving_, times_, translations_, rotations_, moving_)};
  gltf["accessors"] = layout.accessors;
  gltf["bufferViews"] = layout.views;
  gltf["buffers"] = {{{"uri", bin_name}, {"byteLength", layout.buffer.size()}}};
  return {gltf.dump(1) + "\n", std::move(layout.buffer)};
}

}  // namespace surfdb::cli
