// --set PATH=VALUE overrides of a scenario's values (docs/commands.md), applied to the parsed file
// before it is read, so every check of the reader applies to the new values.
#pragma once

#include <span>
#include <string>
#include <toml++/toml.h>

namespace surfdb {

/// Applies overrides in order. PATH is `simulation.KEY` or `TABLE.NAME.KEY` for the entry of
/// [[TABLE]] with that name (a segment in double quotes may hold dots); VALUE is read as a TOML
/// value, a bare word as a string. A key absent from the file is added. The values keep their
/// override as source path (kOverrideOrigin), so the reader's errors about them name it. Throws
/// ScenarioError naming the override for an unknown table, key or entry, or a value that is not
/// TOML.
void apply_overrides(toml::table& root, std::span<const std::string> overrides);

}  // namespace surfdb
