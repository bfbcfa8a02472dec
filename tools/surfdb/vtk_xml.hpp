// The pieces of VTK XML PolyData text (.vtp) the animation writes: the file's frame and DataArray
// elements in the "binary" inline format, i.e. base64 of a UInt64 byte count followed by the
// values as they lie in memory, little-endian (VTK's "XML File Formats"; ParaView reads them, as
// does any reader with base64 and struct). Appending only: a frame's text is built in a reused
// buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace surfdb::cli::vtk {

/// Appends the content of an inline binary DataArray holding `bytes`: base64 of their count (UInt64)
/// followed by them.
void append_binary(std::string& out, std::span<const std::byte> bytes);

/// VTK's name of an element type.
template <class T>
constexpr const char* type_name();
template <>
constexpr const char* type_name<double>() { return "Float64"; }
template <>
constexpr const char* type_name<float>() { return "Float32"; }
template <>
constexpr const char* type_name<std::int32_t>() { return "Int32"; }

/// The opening tag of a DataArray of T named `name` with `components` per tuple, up to its content.
template <class T>
void append_array_start(std::string& out, std::string_view name, int components) {
  out.append("        <DataArray type=\"").append(type_name<T>()).append("\" Name=\"").append(name);
  out.append("\" NumberOfComponents=\"").append(std::to_string(components)).append("\" format=\"binary\">");
}

inline void append_array_end(std::string& out) { out.append("</DataArray>\n"); }

/// A whole DataArray element: `values` hold the tuples one after the other.
template <class T>
void append_array(std::string& out, std::string_view name, int components, std::span<const T> values) {
  append_array_start<T>(out, name, components);
  append_binary(out, std::as_bytes(values));
  append_array_end(out);
}

/// The file's opening up to the start of its one Piece's content, with the piece's counts of
/// points, vertex cells and polygons.
void append_poly_data_start(std::string& out, std::size_t points, std::size_t verts, std::size_t polys);
/// Closes the Piece and the file.
void append_poly_data_end(std::string& out);

}  // namespace surfdb::cli::vtk
