// surfdb assemble: a CAD assembly -> a directory of parts in their body frames, a scenario that
// runs as written and a JSON contract (docs/assembly.md).
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <memory>

#include "assembly_output.hpp"
#include "assembly_plan.hpp"
#include "assembly_scene.hpp"
#include "cad_commands.hpp"
#include "commands.hpp"
#include "deferred_signals.hpp"
#include "log.hpp"
#include "number_format.hpp"
#include "option_checks.hpp"
#include "output_checks.hpp"
#include "progress_bar.hpp"

namespace surfdb::cli {
namespace {

struct AssembleArgs {
  std::string input, output, material, max_size = "64G";
  std::vector<std::string> densities, masses, ground, contacts;
  std::vector<double> gravity{0, 0, -9.81};
  double spacing = 0, deflection = 0, foundation_stiffness = 0, damping_ratio = 1, friction = 0.3;
  double end_time = 1;
  double fasten_gap = 0.01;  // mm
  bool loose = false;
  unsigned threads = 0;
};

// The command as the scene's header comment repeats it: the input's file name and every option
// given but --threads, which changes no byte of the output.
std::string command_line(const AssembleArgs& a, const CLI::App& cmd) {
  std::string text = "surfdb assemble " + std::filesystem::path(a.input).filename().string() + " -o DIR";
  for (const CLI::Option* o : cmd.get_options()) {
    if (o->count() == 0 || o->get_lnames().empty() || o->get_lnames().front() == "output" ||
        o->get_lnames().front() == "threads")
      continue;
    for (const std::string& value : o->results()) text += " --" + o->get_lnames().front() + " " + value;
  }
  return text;
}

AssembleOptions options_from(const AssembleArgs& a) {
  AssembleOptions o;
  if (!a.material.empty()) o.material = material_named(a.material);
  o.densities = a.densities;
  o.masses = a.masses;
  o.ground = a.ground;
  o.contacts = a.contacts;
  o.fasten_gap = a.loose ? -1 : a.fasten_gap;
  o.gravity = Eigen::Vector3d(a.gravity[0], a.gravity[1], a.gravity[2]);
  return o;
}

SceneSettings settings_from(const AssembleArgs& a, const CLI::App& cmd) {
  SceneSettings s;
  s.foundation_stiffness = a.foundation_stiffness;
  s.damping_ratio = a.damping_ratio;
  s.friction = a.friction;
  if (a.friction < 0) throw UsageError("--friction " + format_number(a.friction) + ": must not be negative");
  s.end_time = a.end_time;
  s.command = command_line(a, cmd);
  return s;
}

PartOutputOptions part_options(const AssembleArgs& a) {
  PartOutputOptions o;
  if (a.spacing > 0) o.spacing = a.spacing;
  if (a.deflection > 0) o.deflection = a.deflection;
  o.threads = a.threads;
  return o;
}

// The whole output's size, checked against --max-size and the free space before writing.
std::uint64_t check_size(const std::vector<PartOutput>& parts, const AssembleArgs& a, std::size_t text_bytes) {
  std::uint64_t bytes = text_bytes;
  for (const PartOutput& p : parts) bytes += p.set_bytes + p.mesh_bytes;
  const std::uint64_t max_bytes = parse_size(a.max_size, "--max-size");
  if (bytes > max_bytes)
    throw std::runtime_error("cannot write " + a.output + ": it would take " + size_text(bytes) + ", more than --max-size " +
                             a.max_size);
  check_free_space(std::filesystem::absolute(a.output).parent_path(), bytes, "cannot write " + a.output + ": it", true);
  return bytes;
}

// One bar over the whole job: a thousand units per part meshed, then writing_work's units. Its
// label says the tables' size, known from their grids before anything is meshed or written.
std::uint64_t mesh_and_write(std::vector<PartOutput>& parts, const AssembleArgs& a, const std::string& scene,
                             const std::string& json) {
  constexpr std::uint64_t kMeshing = 1000;
  std::uint64_t table_bytes = 0;
  for (const PartOutput& p : parts) table_bytes += p.set_bytes;
  const std::uint64_t meshing = kMeshing * parts.size(), total = meshing + writing_work(parts);
  ProgressBar bar("assembling " + count_of(parts.size(), "part") + " into " + a.output + " (tables " +
                  format_size(table_bytes) + ")");
  const PartOutputOptions o = part_options(a);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    DeferredSignals::check();
    mesh_part(parts[k], o);
    bar.update((k + 1) * kMeshing, total);
  }
  const std::uint64_t bytes = check_size(parts, a, scene.size() + json.size());
  write_assembly_directory(a.output, parts, scene, json, [&](std::uint64_t done) { bar.update(meshing + done, total); });
  bar.finish();
  return bytes;
}

// A part hundreds of metres or microns across was most likely drawn in another unit than its file
// says (a motor of 280 m): said, not refused.
void warn_implausible_sizes(const CadAssembly& assembly) {
  constexpr double kLargest = 50, kSmallest = 1e-4;  // m, across the part's bounding box
  for (const AssemblyPart& p : assembly.parts()) {
    const Box3& b = p.bounding_box;
    const double across = std::hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) * meters_per(assembly.unit());
    if (across > kLargest || across < kSmallest)
      spdlog::warn("part '{}' is {} m across: is {}'s length unit right?", p.name, format_number(across), assembly.file_name());
  }
}

void assemble(const AssembleArgs& a, const CLI::App& cmd) {
  const AssembleOptions options = options_from(a);
  const SceneSettings settings = settings_from(a, cmd);
  check_assembly_destination(a.output);
  refuse_input_as_output(a.output, {a.input});
  const CadAssembly assembly = CadAssembly::load(a.input);
  for (const std::string& w : assembly.warnings()) spdlog::warn("{}", w);
  warn_implausible_sizes(assembly);
  const AssemblyPlan plan = plan_assembly(assembly, options);
  std::vector<PartOutput> parts;
  for (const PartPlan& p : plan.parts)
    parts.push_back(plan_part(assembly.parts()[p.part].name, assembly.part_model(p.part, p.body_frame), part_options(a)));
  const std::string scene = scene_toml(assembly, plan, options, settings), json = assembly_json(assembly, plan);
  const std::uint64_t bytes = mesh_and_write(parts, a, scene, json);
  std::size_t bodies = 0;
  for (const BodyPlan& b : plan.bodies) bodies += b.ground ? 0 : 1;
  spdlog::info("wrote {} ({}): {}, {} {} and {} fixed, {}; run it with: surfdb simulate {}/scene.toml -o OUT", a.output,
               format_size(bytes), count_of(parts.size(), "part"), bodies, bodies == 1 ? "body" : "bodies",
               plan.bodies.size() - bodies, count_of(plan.welds.size(), "fixed joint"), a.output);
}

void run(const AssembleArgs& a, const CLI::App& cmd) {
  try {
    const DeferredSignals deferred;
    assemble(a, cmd);
    DeferredSignals::check();  // a signal after the directory was put in place: it stays, the exit status says so
  } catch (const Interrupted& e) {
    e.resume();
  }
}

}  // namespace

void add_assemble_command(CLI::App& app) {
  auto args = std::make_shared<AssembleArgs>();
  CLI::App* cmd = app.add_subcommand(kAssembleCommand.name, kAssembleCommand.description);
  cmd->add_option("ASSEMBLY", args->input, "STEP or IGES assembly")->required();
  cmd->add_option("-o,--output", args->output, "Output directory DIR (missing or empty)")->required();
  cmd->add_option("--material", args->material, "steel, aluminium, brass, titanium or abs: the parts' density");
  cmd->add_option("--density", args->densities, "RHO (kg/m^3) for every part, or GLOB=RHO for the parts it matches; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--mass", args->masses, "GLOB=KG: the mass of the parts it matches (a surface model: a shell); repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--ground", args->ground, "Fix the parts or instances this glob names to the ground; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--contacts", args->contacts, "Only these pairs touch: \"A:B\" globs of part names; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--fasten-gap", args->fasten_gap,
                  "Instances this close (mm) are fastened: welded by fixed joints, not in contact")
      ->capture_default_str()->check(positive_number());
  cmd->add_flag("--loose", args->loose, "Fasten no instances: every pair may touch, those placed touching refuse to start");
  cmd->add_option("--gravity", args->gravity, "Gravity X Y Z, m/s^2")->expected(3)->check(finite_number())->capture_default_str();
  cmd->add_option("--spacing", args->spacing, "Table node spacing, mm (default: each part's box diagonal / 100)")
      ->check(positive_number());
  cmd->add_option("--deflection", args->deflection, "Mesh deflection, mm (default: each part's box diagonal / 500)")
      ->check(positive_number());
  cmd->add_option("--foundation-stiffness", args->foundation_stiffness,
                  "The areal contact's stiffness c, N/m^3 (default: the heaviest loose part sinks 1e-4 of its size)")
      ->check(positive_number());
  cmd->add_option("--damping-ratio", args->damping_ratio, "Contact damping, a multiple of critical for the lightest loose part")
      ->capture_default_str()->check(positive_number());
  cmd->add_option("--friction", args->friction, "Coulomb friction coefficient between parts (0: none)")
      ->capture_default_str()->check(finite_number());
  cmd->add_option("--end-time", args->end_time, "The scenario's end time, s")->capture_default_str()->check(positive_number());
  cmd->add_option("--max-size", args->max_size, "Refuse an output larger than this (K, M, G, T: powers of 1024)")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")->check(at_least(1));
  cmd->callback([args, cmd] { run(*args, *cmd); });
}

}  // namespace surfdb::cli
