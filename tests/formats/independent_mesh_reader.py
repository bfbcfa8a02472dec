#!/usr/bin/env python3
"""A mesh file (.mesh) reader written from docs/format.md ("Mesh files (.mesh)") alone, checked
against `surfdb info --json`, closed forms and a golden file. Standard library only.

Usage: independent_mesh_reader.py SURFDB PROJECT_DIR

Nothing here comes from surfdb's code: the header's offsets and types and the magic are parsed
from the text's "Mesh header" table, the header, vertex and triangle sizes from its "Layout"
table, and the refusals are the text's steps 1-12 in its order. Checks:

1. The golden file tests/formats/data/golden_box.mesh (848 bytes: `surfdb mesh golden_box.stl`, a
   4 x 2 x 1 mm box whose corners are distinct in x, y and z) read at the offsets the text gives,
   written here as numbers: so a change of the text's table, of the writer or of the file fails.
   Its vertices and triangles are those of golden_box.stl (vertices in the order the STL first
   gives them, the text's "Writing a mesh file"), and `surfdb mesh` writes the same bytes again.
2. Meshes surfdb makes of samples/parts_in_contact/ball.step (R = 10 mm) at two deflections and of
   samples/cam_follower/follower_flat.step: every field and both hashes, then counts, bounds, area
   and volume against `surfdb info --json`, and for the ball closed forms: vertices on the sphere,
   every triangle within the deflection of it, volume between 4/3 pi (R - d)^3 and 4/3 pi R^3,
   every edge in exactly two triangles running along it in opposite directions, Euler's V - E + F
   = 2, normals (b - a) x (c - a) outwards.
3. Damaged copies of the golden file, one per step (a byte flipped in the header, the vertex block
   and the triangle block; two header fields swapped and the header hash recomputed; ...): this
   reader refuses each at the step the text names, and `surfdb verify` refuses it too, with the
   words the text gives; files the text says a reader must accept (reserved bytes, an unused vertex,
   an open mesh) are accepted by both.
"""

import json
import math
import os
import re
import struct
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_reading import Checks, run, section, tables  # noqa: E402
from xxh64 import xxh64  # noqa: E402

STRUCT = {"u32": "<I", "u64": "<Q", "f64": "<d"}
MAX_COUNT = 4294967295


class Refused(Exception):
    def __init__(self, step, what):
        super().__init__(f"step {step}: {what}")
        self.step = step


# --- the text ---------------------------------------------------------------------------------


class Spec:
    """What docs/format.md says of mesh files, parsed from its tables and sentences."""

    def __init__(self, text):
        layout = {row[0]: row for row in tables(section(text, "Layout"))[0]}
        self.header_bytes = int(layout["header"][1])
        assert int(layout["header"][2]) == 0, "the header starts at byte 0"
        self.vertex_bytes = int(re.fullmatch(r"(\d+) V", layout["vertex block"][1]).group(1))
        self.triangle_bytes = int(re.fullmatch(r"(\d+) T", layout["triangle block"][1]).group(1))
        prose = " ".join(section(text, "Layout"))
        assert "three f64 x, y, z" in prose and "three u32 vertex indices a, b, c" in prose, \
            "the text no longer says vertices are three f64 and triangles three u32"
        assert self.vertex_bytes == 3 * 8 and self.triangle_bytes == 3 * 4
        self.fields, self.magic = {}, None
        for offset, kind, name, meaning in tables(section(text, "Mesh header"))[0]:
            if kind in ("—", "-"):  # the reserved bytes: "zero up to 504"
                self.reserved = int(offset), int(re.search(r"up to (\d+)", meaning).group(1))
                continue
            self.fields[name] = (int(offset), kind)
            if name == "magic":
                self.magic = bytes(int(h, 16) for h in re.search(r"`((?:[0-9A-Fa-f]{2} ?)+)`", meaning).group(1).split())
        steps = section(text, "Reading and validating a mesh file")
        self.steps = " ".join(steps)

    def read(self, data, name):
        offset, kind = self.fields[name]
        m = re.fullmatch(r"char\[(\d+)\]", kind)
        if m:
            return data[offset:offset + int(m.group(1))]
        return struct.unpack_from(STRUCT[kind], data, offset)[0]


# --- the reader: steps 1-12 of "Reading and validating a mesh file" ---------------------------


def read_mesh(spec, data):
    """(header dict, vertices, triangles), or Refused naming the first failed step."""
    H = spec.header_bytes
    if len(data) < H or data[:8] != spec.magic:
        raise Refused(1, "not a mesh file")
    if data[12:16] == bytes([1, 2, 3, 4]):
        raise Refused(2, "other byte order")
    if data[12:16] != bytes([4, 3, 2, 1]):
        raise Refused(2, "byte-order mark damaged")
    h = {name: spec.read(data, name) for name in spec.fields}
    hash_at = spec.fields["header_hash"][0]
    header = bytearray(data[:H])
    header[hash_at:hash_at + 8] = bytes(8)
    if h["format_version"] != 1:
        raise Refused(3, "version %d %s" % (h["format_version"], "not supported" if xxh64(header) == h["header_hash"]
                                             else "unknown, or the header is damaged"))
    if xxh64(header) != h["header_hash"]:
        raise Refused(3, "header hash")
    if h["header_bytes"] != H:
        raise Refused(4, "header_bytes")
    if h["length_unit"] not in (1, 2):
        raise Refused(5, "length_unit")
    if h["meters_per_unit"] != {1: 0.001, 2: 1.0}[h["length_unit"]]:
        raise Refused(5, "meters_per_unit")
    V, T = h["vertex_count"], h["triangle_count"]
    if not 3 <= V <= MAX_COUNT:
        raise Refused(6, "vertex_count")
    if not 1 <= T <= MAX_COUNT:
        raise Refused(6, "triangle_count")
    for name, value in (("vertex_offset", H), ("triangle_offset", H + spec.vertex_bytes * V),
                        ("file_bytes", H + spec.vertex_bytes * V + spec.triangle_bytes * T)):
        if h[name] != value:
            raise Refused(7, name)
    if len(data) != h["file_bytes"]:
        raise Refused(8, "truncated" if len(data) < h["file_bytes"] else "trailing data")
    for name in ("source_kind", "source_name"):
        if b"\0" not in h[name]:
            raise Refused(9, f"{name} unterminated")
        h[name] = h[name].split(b"\0", 1)[0].decode("utf-8", "replace")
    vertex_block = data[H:H + spec.vertex_bytes * V]
    triangle_block = data[h["triangle_offset"]:h["file_bytes"]]
    if xxh64(vertex_block) != h["vertex_hash"]:
        raise Refused(10, "vertex_hash")
    if xxh64(triangle_block) != h["triangle_hash"]:
        raise Refused(10, "triangle_hash")
    vertices = list(struct.iter_unpack("<3d", vertex_block))
    for i, p in enumerate(vertices):
        if not all(math.isfinite(x) for x in p):
            raise Refused(11, f"vertex {i} not finite")
    triangles = list(struct.iter_unpack("<3I", triangle_block))
    for t, tri in enumerate(triangles):
        if max(tri) >= V:
            raise Refused(12, f"triangle {t} out of range")
        if len(set(tri)) != 3:
            raise Refused(12, f"triangle {t} repeats a corner")
    return h, vertices, triangles


# --- geometry ---------------------------------------------------------------------------------


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(a):
    return math.sqrt(dot(a, a))


def measures(vertices, triangles):
    """Area, the enclosed volume by the divergence theorem (sum of a . (b x c) / 6), bounds."""
    area = volume = 0.0
    for t in triangles:
        a, b, c = (vertices[k] for k in t)
        area += norm(cross(sub(b, a), sub(c, a))) / 2
        volume += dot(a, cross(b, c)) / 6
    used = sorted({k for t in triangles for k in t})
    lo = [min(vertices[k][i] for k in used) for i in range(3)]
    hi = [max(vertices[k][i] for k in used) for i in range(3)]
    return area, volume, lo, hi


def edge_census(triangles):
    """(open, non-manifold, misoriented) edge counts: each directed edge a->b of each triangle."""
    directed = {}
    for t in triangles:
        for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            directed[(a, b)] = directed.get((a, b), 0) + 1
    undirected = {}
    for (a, b), n in directed.items():
        key = (min(a, b), max(a, b))
        undirected[key] = undirected.get(key, 0) + n
    open_edges = sum(1 for n in undirected.values() if n == 1)
    non_manifold = sum(1 for n in undirected.values() if n > 2)
    misoriented = sum(1 for (a, b), n in undirected.items()
                      if n == 2 and (directed.get((a, b), 0) != 1 or directed.get((b, a), 0) != 1))
    return open_edges, non_manifold, misoriented, len(undirected)


# --- the test harness -------------------------------------------------------------------------


def info_json(surfdb, path):
    r = run([surfdb, "info", path, "--json"])
    if r.returncode != 0:
        raise AssertionError(f"surfdb info {path}: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def close(a, b, rel=1e-12, abs_=1e-12):
    return abs(a - b) <= abs_ + rel * max(abs(a), abs(b))


def against_info(check, surfdb, path, spec, label):
    """Read path with this reader and compare with `surfdb info --json`; returns the mesh."""
    with open(path, "rb") as f:
        data = f.read()
    h, vertices, triangles = read_mesh(spec, data)
    info = info_json(surfdb, path)
    check(info["format_version"] == h["format_version"], f"{label}: format_version")
    check(info["length_unit"] == {1: "mm", 2: "m"}[h["length_unit"]], f"{label}: length_unit")
    check(info["source"] == {"kind": h["source_kind"], "name": h["source_name"]}, f"{label}: source {info['source']}")
    check(info["vertices"] == len(vertices) == h["vertex_count"], f"{label}: vertex count")
    check(info["triangles"] == len(triangles) == h["triangle_count"], f"{label}: triangle count")
    area, volume, lo, hi = measures(vertices, triangles)
    check(info["bounding_box"]["min"] == lo and info["bounding_box"]["max"] == hi,
          f"{label}: bounding box {info['bounding_box']} vs {lo} {hi}")
    check(close(info["area"], area, 1e-10), f"{label}: area {info['area']} vs {area}")
    open_edges, non_manifold, misoriented, _ = edge_census(triangles)
    check((info["open_edges"], info["non_manifold_edges"], info["misoriented_edges"])
          == (open_edges, non_manifold, misoriented), f"{label}: edge census")
    closed = open_edges == 0 and non_manifold == 0
    check(info["closed"] == closed and info["consistent"] == (non_manifold == 0 and misoriented == 0),
          f"{label}: closed, consistent")
    if closed and misoriented == 0:
        check(info["volume"] is not None and close(info["volume"], volume, 1e-10),
              f"{label}: volume {info['volume']} vs {volume}")
    else:
        check(info["volume"] is None, f"{label}: volume of an open mesh is null")
    return h, vertices, triangles


# --- 1. the golden file -----------------------------------------------------------------------


def stl_mesh(path):
    """Vertices in the order an ASCII STL first gives them, and its triangles by index."""
    vertices, index, triangles, corners = [], {}, [], []
    with open(path) as f:
        for line in f:
            words = line.split()
            if words and words[0] == "vertex":
                p = tuple(float(w) for w in words[1:4])
                if p not in index:
                    index[p] = len(vertices)
                    vertices.append(p)
                corners.append(index[p])
                if len(corners) == 3:
                    triangles.append(tuple(corners))
                    corners = []
    return vertices, triangles


def golden(check, surfdb, spec, data_dir, tmp):
    path = os.path.join(data_dir, "golden_box.mesh")
    with open(path, "rb") as f:
        f_ = f.read()
    u32 = lambda at: struct.unpack_from("<I", f_, at)[0]  # noqa: E731
    u64 = lambda at: struct.unpack_from("<Q", f_, at)[0]  # noqa: E731
    f64 = lambda at: struct.unpack_from("<d", f_, at)[0]  # noqa: E731
    # The text's table, as numbers: a field moved in the text fails here before the file is read.
    expected_fields = {"magic": (0, "char[8]"), "format_version": (8, "u32"), "byte_order_mark": (12, "u32"),
                       "header_bytes": (16, "u32"), "length_unit": (20, "u32"), "meters_per_unit": (24, "f64"),
                       "vertex_count": (32, "u64"), "triangle_count": (40, "u64"), "vertex_offset": (48, "u64"),
                       "triangle_offset": (56, "u64"), "file_bytes": (64, "u64"), "vertex_hash": (72, "u64"),
                       "triangle_hash": (80, "u64"), "source_kind": (88, "char[32]"),
                       "source_name": (120, "char[256]"), "header_hash": (504, "u64")}
    check(spec.fields == expected_fields, f"golden: the text's mesh header table is {spec.fields}")
    check(spec.reserved == (376, 504) and spec.header_bytes == 512, "golden: reserved bytes 376..503, header 512")
    # The file at those offsets (8 vertices, 12 triangles: 512 + 24 * 8 + 12 * 12 = 848 bytes).
    check(len(f_) == 848, "golden: 848 bytes")
    check(f_[0:8] == b"SURFMESH", "golden: magic at 0")
    check((u32(8), u32(12), u32(16), u32(20)) == (1, 0x01020304, 512, 1), "golden: version, mark, header, unit")
    check(f64(24) == 0.001, "golden: meters_per_unit at 24")
    check((u64(32), u64(40)) == (8, 12), "golden: vertex_count at 32, triangle_count at 40")
    check((u64(48), u64(56), u64(64)) == (512, 704, 848), "golden: vertex_offset, triangle_offset, file_bytes")
    check(u64(72) == xxh64(f_[512:704]) == 0x3883D222D6DF5E0C, "golden: vertex_hash at 72")
    check(u64(80) == xxh64(f_[704:848]) == 0x3C4626701B0E9043, "golden: triangle_hash at 80")
    check(f_[88:120] == b"stl".ljust(32, b"\0"), "golden: source_kind at 88")
    check(f_[120:376] == b"golden_box.stl".ljust(256, b"\0"), "golden: source_name at 120")
    check(f_[376:504] == bytes(128), "golden: reserved bytes zero")
    check(u64(504) == xxh64(f_[:504] + bytes(8)) == 0x5B82D754FB59AFB6, "golden: header_hash at 504")
    stl_vertices, stl_triangles = stl_mesh(os.path.join(data_dir, "golden_box.stl"))
    check([struct.unpack_from("<3d", f_, 512 + 24 * i) for i in range(8)] == stl_vertices,
          "golden: vertex i at 512 + 24 i is the STL's i-th new vertex (x, y, z in that order)")
    check([struct.unpack_from("<3I", f_, 704 + 12 * t) for t in range(12)] == stl_triangles,
          "golden: triangle t at 704 + 12 t is the STL's t-th facet (a, b, c in that order)")
    # This reader (from the parsed text) and surfdb read it alike, and the box's closed forms.
    h, vertices, triangles = against_info(check, surfdb, path, spec, "golden")
    area, volume, lo, hi = measures(vertices, triangles)
    check((area, volume, lo, hi) == (28.0, 8.0, [-1.0, 0.5, 0.25], [3.0, 2.5, 1.25]),
          f"golden: the 4 x 2 x 1 box: area 28, volume 8, corners: {area} {volume} {lo} {hi}")
    check(edge_census(triangles) == (0, 0, 0, 18), "golden: 18 edges, each in two triangles, opposite")
    # The writer still writes these bytes (docs/commands.md: the same PART gives a byte-identical file).
    again = os.path.join(tmp, "golden_box.mesh")
    r = run([surfdb, "mesh", os.path.join(data_dir, "golden_box.stl"), "-o", again])
    if check(r.returncode == 0, f"golden: surfdb mesh golden_box.stl: {r.stderr.strip()}"):
        with open(again, "rb") as f:
            check(f.read() == f_, "golden: surfdb mesh golden_box.stl writes the golden bytes again "
                                  "(if the format changed on purpose: new golden file, new version)")
    return f_


# --- 2. meshes of real parts ------------------------------------------------------------------


def ball(check, surfdb, spec, samples, tmp, deflection):
    R = 10.0
    path = os.path.join(tmp, f"ball_{deflection}.mesh")
    r = run([surfdb, "mesh", os.path.join(samples, "parts_in_contact", "ball.step"), "--deflection",
             str(deflection), "-o", path])
    if not check(r.returncode == 0, f"surfdb mesh ball.step: {r.stderr.strip()}"):
        return
    label = f"ball at deflection {deflection}"
    h, vertices, triangles = against_info(check, surfdb, path, spec, label)
    check(h["source_kind"] == "step" and h["source_name"] == "ball.step" and h["length_unit"] == 1,
          f"{label}: source and unit")
    worst_vertex = max(abs(norm(p) - R) for p in vertices)
    check(worst_vertex <= 1e-9 * R, f"{label}: vertices on the sphere, |r - R| up to {worst_vertex}")
    # The deflection bounds the distance between each triangle and the sphere: the centroid, inside
    # the triangle, is no further than that from the surface. A triangle's normal points outwards.
    worst_sag, outward = 0.0, True
    for t in triangles:
        a, b, c = (vertices[k] for k in t)
        centroid = tuple((a[i] + b[i] + c[i]) / 3 for i in range(3))
        worst_sag = max(worst_sag, R - norm(centroid))
        outward &= dot(cross(sub(b, a), sub(c, a)), centroid) > 0
    check(worst_sag <= deflection * (1 + 1e-9), f"{label}: every triangle within the deflection, sag {worst_sag}")
    check(outward, f"{label}: every normal (b - a) x (c - a) points out of the ball")
    area, volume, lo, hi = measures(vertices, triangles)
    sphere = 4 / 3 * math.pi
    check(sphere * (R - deflection) ** 3 <= volume <= sphere * R ** 3,
          f"{label}: volume {volume} between 4/3 pi (R - d)^3 and 4/3 pi R^3 = {sphere * R ** 3}")
    check(4 * math.pi * (R - deflection) ** 2 <= area <= 4 * math.pi * R ** 2, f"{label}: area {area}")
    open_edges, non_manifold, misoriented, edges = edge_census(triangles)
    check((open_edges, non_manifold, misoriented) == (0, 0, 0),
          f"{label}: every edge in exactly two triangles, opposite ({open_edges}, {non_manifold}, {misoriented})")
    used = len({k for t in triangles for k in t})
    check(used == len(vertices) and used - edges + len(triangles) == 2, f"{label}: V - E + F = 2")
    return len(triangles)


def follower(check, surfdb, spec, samples, tmp):
    path = os.path.join(tmp, "follower_flat.mesh")
    r = run([surfdb, "mesh", os.path.join(samples, "cam_follower", "follower_flat.step"), "--deflection", "0.05",
             "-o", path])
    if check(r.returncode == 0, f"surfdb mesh follower_flat.step: {r.stderr.strip()}"):
        h, vertices, triangles = against_info(check, surfdb, path, spec, "follower_flat")
        check(edge_census(triangles)[:3] == (0, 0, 0), "follower_flat: closed and consistently oriented")
        check(measures(vertices, triangles)[1] > 0, "follower_flat: positive volume (normals out of the material)")


# --- 3. damaged copies ------------------------------------------------------------------------


def rehash(spec, data):
    """Recompute both block hashes and the header hash, as a writer would, from the counts stored."""
    d = bytearray(data)
    V, T = struct.unpack_from("<QQ", d, 32)
    vo = spec.header_bytes
    to = vo + 24 * V
    struct.pack_into("<Q", d, spec.fields["vertex_hash"][0], xxh64(d[vo:to]))
    struct.pack_into("<Q", d, spec.fields["triangle_hash"][0], xxh64(d[to:to + 12 * T]))
    at = spec.fields["header_hash"][0]
    d[at:at + 8] = bytes(8)
    struct.pack_into("<Q", d, at, xxh64(d[:spec.header_bytes]))
    return bytes(d)


def damage_cases(spec, g):
    """(what, bytes, step this reader must refuse at or None, words surfdb's message must hold)."""
    F = {name: at for name, (at, _) in spec.fields.items()}

    def flip(data, at):
        d = bytearray(data)
        d[at] ^= 0x10
        return bytes(d)

    def put(data, fmt, at, value, hashed=True):
        d = bytearray(data)
        struct.pack_into(fmt, d, at, value)
        return rehash(spec, d) if hashed else bytes(d)

    def swap(data, a, b, size=8):
        d = bytearray(data)
        d[a:a + size], d[b:b + size] = d[b:b + size], d[a:a + size]
        return bytes(d)

    V, T = 8, 12
    tri0 = 512 + 24 * V
    cases = [
        ("shorter than a header", g[:511], 1, "not a mesh file"),
        ("wrong magic", flip(g, 3), 1, "not a mesh file"),
        ("big-endian byte-order mark", put(g, ">I", 12, 0x01020304, False), 2, "other byte order"),
        ("damaged byte-order mark", flip(g, 13), 2, None),
        ("version 2, header rehashed", put(g, "<I", F["format_version"], 2), 3, "is not supported"),
        ("version 2, header not rehashed", put(g, "<I", F["format_version"], 2, False), 3,
         "unknown to this reader (version 1), or the header is damaged"),
        ("a byte flipped in the header's checksummed bytes (source_name)", flip(g, F["source_name"] + 2), 3, None),
        ("a byte flipped in the reserved bytes", flip(g, 400), 3, None),
        ("a byte flipped in header_hash itself", flip(g, F["header_hash"] + 7), 3, None),
        ("header_bytes 1024", put(g, "<I", F["header_bytes"], 1024), 4, None),
        ("length_unit 3", put(g, "<I", F["length_unit"], 3), 5, None),
        ("millimetres said to be 1 m", put(g, "<d", F["meters_per_unit"], 1.0), 5, None),
        ("vertex_count 2", put(g, "<Q", F["vertex_count"], 2), 6, None),
        ("triangle_count 0", put(g, "<Q", F["triangle_count"], 0), 6, None),
        ("triangle_count 2^32", put(g, "<Q", F["triangle_count"], 2 ** 32), 6, None),
        ("vertex_count and triangle_count swapped", rehash(spec, swap(g, F["vertex_count"], F["triangle_count"])),
         7, None),
        ("vertex_offset 520", put(g, "<Q", F["vertex_offset"], 520), 7, None),
        ("triangle_offset and file_bytes swapped", rehash(spec, swap(g, F["triangle_offset"], F["file_bytes"])),
         7, None),
        ("truncated by one byte", g[:-1], 8, "truncated"),
        ("one trailing byte", g + b"\0", 8, "trailing data"),
        ("source_kind unterminated", rehash(spec, g[:88] + b"x" * 32 + g[120:]), 9, None),
        ("source_name unterminated", rehash(spec, g[:120] + b"y" * 256 + g[376:]), 9, None),
        ("a byte flipped in the vertex block", flip(g, 512 + 24 * 5 + 3), 10, None),
        ("a byte flipped in the triangle block", flip(g, tri0 + 12 * 7 + 1), 10, None),
        ("vertex_hash and triangle_hash swapped, header rehashed", swap_hashes(spec, g), 10, None),
        ("a NaN coordinate, hashes recomputed", put(g, "<d", 512 + 24 * 6 + 16, float("nan")), 11, None),
        ("an infinite coordinate, hashes recomputed", put(g, "<d", 512, float("-inf")), 11, None),
        ("a triangle index = V, hashes recomputed", put(g, "<I", tri0 + 12 * 11 + 8, V), 12, None),
        ("a repeated corner, hashes recomputed", put(g, "<I", tri0 + 4, 0), 12, None),
    ]
    # What the text says a reader must not refuse.
    reserved = put(g, "<B", 450, 0x5A)
    unused = bytearray(g[:tri0]) + struct.pack("<3d", 7.0, 8.0, 9.0) + g[tri0:]
    struct.pack_into("<QQQQ", unused, 32, V + 1, T, 512, tri0 + 24)
    struct.pack_into("<Q", unused, 64, len(unused))
    open_mesh = bytearray(g[:-12])
    struct.pack_into("<Q", open_mesh, 40, T - 1)
    struct.pack_into("<Q", open_mesh, 64, len(open_mesh))
    cases += [("reserved byte set, header rehashed", reserved, None, None),
              ("an unused vertex", rehash(spec, unused), None, None),
              ("an open mesh (a triangle left out)", rehash(spec, open_mesh), None, None)]
    return cases


def swap_hashes(spec, g):
    """vertex_hash and triangle_hash exchanged, the header hash recomputed over the exchange."""
    d = bytearray(g)
    a, b = spec.fields["vertex_hash"][0], spec.fields["triangle_hash"][0]
    d[a:a + 8], d[b:b + 8] = d[b:b + 8], d[a:a + 8]
    at = spec.fields["header_hash"][0]
    d[at:at + 8] = bytes(8)
    struct.pack_into("<Q", d, at, xxh64(d[:spec.header_bytes]))
    return bytes(d)


def damaged(check, surfdb, spec, g, tmp):
    for what, data, step, words in damage_cases(spec, g):
        path = os.path.join(tmp, "damaged.mesh")
        with open(path, "wb") as f:
            f.write(data)
        try:
            read_mesh(spec, data)
            got = None
        except Refused as e:
            got = e.step
        check(got == step, f"damaged golden, {what}: this reader {'refused at step %s' % got if got else 'accepted it'}"
                           f", the text says {'step %s' % step if step else 'accept'}")
        r = run([surfdb, "verify", path])
        if step is None:
            check(r.returncode == 0, f"damaged golden, {what}: surfdb verify refused a valid file: {r.stderr.strip()}")
        else:
            check(r.returncode == 1 and path in r.stderr,
                  f"damaged golden, {what}: surfdb verify exit {r.returncode}, {r.stderr.strip()!r}")
            if words:
                check(words in spec.steps, f"the text's steps no longer say '{words}'")
                check(words in r.stderr, f"damaged golden, {what}: surfdb's message lacks the text's '{words}': "
                                         f"{r.stderr.strip()}")


def main():
    surfdb, project = sys.argv[1], sys.argv[2]
    started = time.monotonic()
    with open(os.path.join(project, "docs", "format.md"), encoding="utf-8") as f:
        spec = Spec(f.read())
    check = Checks()
    data_dir = os.path.join(project, "tests", "formats", "data")
    samples = os.path.join(project, "samples")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            g = golden(check, surfdb, spec, data_dir, tmp)
            print(f"golden_box.mesh read at the text's offsets ({check.passed} checks)", flush=True)
            counts = [ball(check, surfdb, spec, samples, tmp, d) for d in (0.5, 0.05)]
            print(f"ball.step meshed into {counts} triangles: closed forms and surfdb info agree", flush=True)
            follower(check, surfdb, spec, samples, tmp)
            damaged(check, surfdb, spec, g, tmp)
        except (Refused, AssertionError) as e:
            check(False, f"stopped: {e}")
    print(f"{check.passed} passed, {check.failed} failed ({time.monotonic() - started:.1f} s)")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
