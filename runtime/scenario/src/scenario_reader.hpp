// The scenario reader's private interface: one reader per file, one method per TOML table, in the
// order a later table may refer to an earlier one. Its definitions are split by stage:
// scenario.cpp (simulation, bodies, joints, drivers), scenario_springs.cpp ([[spring]]),
// scenario_surfaces.cpp ([[surface]]), scenario_contacts.cpp ([[contact]]), scenario_surface_joints.cpp
// (surface_contact joints, read last: they name surfaces and contacts).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "surfdb/scenario/scenario.hpp"
#include "toml_reader.hpp"

namespace surfdb {

class ScenarioReader {
 public:
  /// `source` names the scenario in messages (its file), with its lines or not; tables' and
  /// meshes' paths are relative to `folder`.
  ScenarioReader(std::string source, std::filesystem::path folder, std::span<const std::string> overrides,
                 LineNumbers lines = LineNumbers::cite)
      : source_(std::move(source)), folder_(std::move(folder)), overrides_(overrides), r_(source_, lines) {}

  Scenario read(toml::table root);

 private:
  void read_simulation(const toml::table& root);
  void read_body(const toml::table& b);
  void read_joint(const toml::table& j);
  void read_driver(const toml::table& d);
  void check_joints_independent() const;
  void read_spring(const toml::table& t);
  void read_surface_joint(const toml::table& j);
  int surface_named(const toml::table& t, const char* key, const std::string& where) const;
  SurfaceJointFormulation formulation(const toml::table& j, const std::string& where, const ContactSurface& si,
                                      const ContactSurface& sj) const;

  void read_surface(const toml::table& t);
  void apply_densities();  // body_inertia.cpp: [[body]] density, once the surfaces are read
  void read_table(const toml::table& t, const std::string& where, ContactSurface& spec);
  void read_primitive(const toml::table& t, const std::string& where, ContactSurface& spec) const;
  void read_mesh(const toml::table& t, const std::string& where, ContactSurface& spec);
  void place_at_part_frame(const toml::table& t, const std::string& where, ContactSurface& spec);
  void mesh_table_grid(int surface);

  void read_contact(const toml::table& t);
  FrictionLaw read_friction(const toml::table& t, const std::string& where) const;
  ElasticFoundation read_foundation(const toml::table& t, const std::string& where, const ContactGroupSpec& c) const;
  std::vector<int> matching(const toml::table& t, const char* key, const std::string& where) const;
  void check_pairs(const toml::table& t, const std::string& where, const ContactGroupSpec& c) const;
  void check_cavities(const toml::table& t, const std::string& where, const ContactGroupSpec& c) const;

  int body_of(const toml::table& t, const char* key, const std::string& where) const;
  Pose pose_of(int body) const { return body == kGround ? Pose{} : poses_[static_cast<std::size_t>(body)]; }
  void check_finite(const toml::node& n, const std::string& field) const;

  std::string source_;
  std::filesystem::path folder_;
  std::span<const std::string> overrides_;
  Reader r_;
  Scenario s_;
  std::map<std::string, int> bodies_{{"ground", kGround}};
  std::vector<Pose> poses_;              // per body at t = 0
  std::vector<std::pair<int, const toml::table*>> density_bodies_;  // bodies given a density, not a mass
  std::map<std::string, int> surfaces_;  // index in s_.surfaces
  std::map<std::pair<std::string, std::vector<std::uint32_t>>, std::shared_ptr<const TableSet>> tables_;
  std::map<std::string, std::shared_ptr<const TriangleMesh>> meshes_;  // by canonical path
  std::map<int, std::uint32_t> mesh_strides_;                           // per table surface given one
  std::set<int> part_placed_;  // surfaces placed at their part's frame (placement = "part")
};

}  // namespace surfdb
