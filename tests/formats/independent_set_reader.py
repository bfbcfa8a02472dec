#!/usr/bin/env python3
"""A surface set (NAME.sdbs) reader written from docs/surface-set.md and docs/format.md alone,
checked against `surfdb convert --list-faces`, `surfdb info --json`, `surfdb verify`, closed forms
and a golden set. Standard library only.

Usage: independent_set_reader.py SURFDB PROJECT_DIR

Nothing here comes from surfdb's code: the manifest's keys and their types are parsed from the
tables of docs/surface-set.md, the tables' header offsets and types and the magic from the
"Header record" table of docs/format.md. Checks:

1. The golden set tests/formats/data/golden_follower_flat.sdbs (`surfdb convert
   samples/cam_follower/follower_flat.step --all-faces --spacing 20`: six faces, a cylinder and
   five planes, one reversed, one trimmed; 22 KB) read field by field with the values written
   here as numbers and strings, the tables' headers at the byte offsets format.md gives; the
   manifest's bytes are those of sorted keys indented by two spaces with a final newline; and
   `surfdb convert` writes the same set again, byte for byte.
2. Sets surfdb converts of samples/cam_follower/follower_flat.step and
   samples/parts_in_contact/ball.step: every key the text defines, every table's header and
   checksums (XXH64, tests/formats/xxh64.py), each table's header against the manifest's entry
   and the header_xxh64 binding them; the faces against `--list-faces` (count, surface types,
   orientation, parameter ranges, unit); the set against `surfdb info --json`; each face's
   bounding box holding its valid nodes; adjacency symmetric; the ball's nodes on its sphere.
3. Damaged copies of the golden set (a table's header byte flipped, a data record's byte
   flipped, a manifest checksum changed, two tables exchanged, a stray file, a missing table,
   faces out of order, a missing key, a file name with a directory, ...): this reader refuses
   each one the text says a reader refuses, and so does `surfdb verify`; a manifest with other
   key order and whitespace is accepted by both.
"""

import json
import math
import os
import re
import shutil
import struct
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_reading import Checks, run, section, tables  # noqa: E402
from xxh64 import xxh64  # noqa: E402

STRUCT = {"u16": "<H", "u32": "<I", "u64": "<Q", "f64": "<d"}
HEADER_BYTES = 1024


class Refused(Exception):
    pass


# --- the texts --------------------------------------------------------------------------------


class Spec:
    def __init__(self, format_md, set_md):
        self.fields, self.magic = {}, None
        for offset, kind, name, meaning in tables(section(format_md, "Header record"))[0]:
            if name in ("—", "-"):
                continue
            self.fields[name] = (int(offset), kind)
            if name == "magic":
                self.magic = bytes(int(h, 16) for h in re.search(r"`((?:[0-9A-Fa-f]{2} ?)+)`", meaning).group(1).split())
        manifest_tables = tables(section(set_md, "manifest.json"))
        self.top = {row[0].strip("`"): (row[1], row[2]) for row in manifest_tables[0]}
        self.face = {row[0].strip("`"): (row[1], row[2]) for row in manifest_tables[1]}
        self.format_name = re.fullmatch(r'`"([^"]+)"`', self.top["format"][1]).group(1)
        # "`3`; a reader reads `1` (...), `2` (...) and `3`": the version written first, then those read.
        versions = [int(v) for v in re.findall(r"`(\d+)`", self.top["format_version"][1])]
        self.format_version, self.versions_read = versions[0], set(versions[1:])
        # Keys that manifests have from some version on ("from version 2 on: ..."), by that version.
        self.since = {k: int(re.match(r"from version (\d+) on", meaning).group(1))
                      for k, (_, meaning) in self.top.items() if meaning.startswith("from version")}
        # The mass frame's members: "`volume` (...), `centre` (...), `axes` (...) and `moments` (...)".
        self.mass_frame_keys = re.findall(r"`(\w+)` \(", self.top["mass_frame"][1])
        edges_tables = tables(section(set_md, "edges.json"))
        self.edges_top = {row[0].strip("`"): (row[1], row[2]) for row in edges_tables[0]}
        self.edge = {row[0].strip("`"): (row[1], row[2]) for row in edges_tables[1]}
        self.edges_format = re.fullmatch(r'`"([^"]+)"`', self.edges_top["format"][1]).group(1)
        self.edge_kinds = re.findall(r'`"(\w+)"` \(', self.edge["kind"][1])
        self.edge_step = re.search(r"at most `spacing`/(\d+) apart", self.edge["points"][1]).group(1)
        self.source_keys = re.findall(r"`(\w+)` \(", self.top["source"][1])
        self.length_units = re.findall(r'`"(\w+)"`', self.top["length_unit"][1])
        self.orientations = re.findall(r'`"(\w+)"`', self.face["orientation"][1])
        directory = " ".join(section(set_md, "Directory"))
        m = re.search(r"named `(face_N+\.sdb)` \(the face number, at least\s+(\w+) digits, zero-padded\)", directory)
        assert m, "docs/surface-set.md no longer names the tables face_NNNN.sdb"
        self.digits = {"four": 4}[m.group(2)]
        self.reading = " ".join(section(set_md, "Reading and validating"))

    def field(self, data, name):
        offset, kind = self.fields[name]
        m = re.fullmatch(r"char\[(\d+)\]", kind)
        if m:
            raw = data[offset:offset + int(m.group(1))]
            if b"\0" not in raw:
                raise Refused(f"{name} unterminated")
            return raw.split(b"\0", 1)[0].decode("utf-8")
        m = re.fullmatch(r"(u16|u32|u64|f64)(?:\[(\d+)\])?", kind)
        if m.group(2):
            return list(struct.unpack_from("<%d%s" % (int(m.group(2)), STRUCT[m.group(1)][1]), data, offset))
        return struct.unpack_from(STRUCT[m.group(1)], data, offset)[0]


# --- a table (format.md) ----------------------------------------------------------------------


def ceil_div(a, b):
    return -(-a // b)


def read_table(spec, path, nodes=False):
    """The header of a table, checked as format.md says (header hash, sizes, length, checksum
    table, every data record's checksum), and with nodes=True its valid nodes' x, y, z."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < HEADER_BYTES or data[:8] != spec.magic:
        raise Refused("not a surface database")
    if data[12:16] != bytes([4, 3, 2, 1]):
        raise Refused("byte-order mark")
    h = {name: spec.field(data, name) for name in spec.fields if name != "magic"}
    header = bytearray(data[:HEADER_BYTES])
    at = spec.fields["header_hash"][0]
    header[at:at + 8] = bytes(8)
    if h["format_version"] != 1 or xxh64(header) != h["header_hash"]:
        raise Refused("table header: version or header hash")
    rb = h["record_bytes"]
    expect = h["u_record_points"] * h["v_record_points"] * h["column_count"] * h["scalar_bytes"]
    n = ceil_div(h["u_points"], h["u_record_points"]) * ceil_div(h["v_points"], h["v_record_points"])
    if rb != expect or h["data_records"] != n or h["header_records"] != ceil_div(HEADER_BYTES, rb) \
            or h["checksum_records"] != ceil_div(8 * n, rb) \
            or h["file_bytes"] != (h["header_records"] + n + h["checksum_records"]) * rb:
        raise Refused("table header: sizes")
    if len(data) != h["file_bytes"]:
        raise Refused("table length")
    table_at = (h["header_records"] + n) * rb
    if xxh64(data[table_at:table_at + 8 * n]) != h["checksum_table_hash"]:
        raise Refused("checksum table hash")
    sums = struct.unpack_from("<%dQ" % n, data, table_at)
    for k in range(1, n + 1):
        start = (h["header_records"] + k - 1) * rb
        if xxh64(data[start:start + rb]) != sums[k - 1]:
            raise Refused(f"data record {k} checksum")
    h["header_xxh64"] = "%016x" % xxh64(data[:HEADER_BYTES])
    h["bytes"] = len(data)
    if nodes:
        ids = h["column_ids"][:h["column_count"]]
        kind = {1: "d", 2: "f"}[h["scalar_type"]]
        pos = {c: ids.index(c) for c in (3, 4, 5, 19)}  # x, y, z, flags
        up, vp, vr = h["u_record_points"], h["v_record_points"], h["v_records"]
        points = []
        for i in range(h["u_points"]):
            for j in range(h["v_points"]):
                k = 1 + (i // up) * vr + j // vp
                s = (i % up) * vp + j % vp
                node = (h["header_records"] + k - 1) * rb + s * h["column_count"] * h["scalar_bytes"]
                values = struct.unpack_from("<%d%s" % (h["column_count"], kind), data, node)
                if int(values[pos[19]]) & 1:
                    points.append(tuple(values[pos[c]] for c in (3, 4, 5)))
        h["valid_nodes"] = points
    return h


# --- the set (surface-set.md) -----------------------------------------------------------------


def of_type(value, kind):
    """The text's types: string, integer, number or null, object, object or null, array, array of
    integers, [integer, integer], array of [x, y, z]."""
    is_int = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return {"string": isinstance(value, str),
            "integer": is_int,
            "number or null": value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)),
            "object": isinstance(value, dict),
            "object or null": value is None or isinstance(value, dict),
            "array of [x, y, z]": isinstance(value, list),
            "array": isinstance(value, list),
            "array of integers": isinstance(value, list) and all(of_type(v, "integer") for v in value),
            "[integer, integer]": isinstance(value, list) and len(value) == 2 and all(of_type(v, "integer") for v in value),
            }[kind]


def keys_of(obj, keys, where):
    if not isinstance(obj, dict):
        raise Refused(f"{where}: not an object")
    for key, (kind, _) in keys.items():
        if key not in obj:
            raise Refused(f"{where}: missing key {key}")
        if not of_type(obj[key], kind):
            raise Refused(f"{where}: {key} is not {kind}")


def mass_frame(spec, f):
    """Refused unless the mass frame has the text's members: a positive volume, a centre, three
    orthonormal right-handed unit vectors and three positive ascending moments."""
    if sorted(f) != sorted(spec.mass_frame_keys):
        raise Refused(f"mass_frame: keys {sorted(f)}, not {sorted(spec.mass_frame_keys)}")
    number = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)  # noqa: E731
    triple = lambda v: isinstance(v, list) and len(v) == 3 and all(number(x) for x in v)  # noqa: E731
    if not (number(f["volume"]) and f["volume"] > 0 and triple(f["centre"]) and triple(f["moments"])):
        raise Refused("mass_frame: volume, centre, moments")
    a, b, c = f["moments"]
    if not 0 < a <= b <= c:
        raise Refused("mass_frame: moments not positive and ascending")
    axes = f["axes"]
    if not (isinstance(axes, list) and len(axes) == 3 and all(triple(x) for x in axes)):
        raise Refused("mass_frame: axes")
    dot = lambda u, v: sum(x * y for x, y in zip(u, v))  # noqa: E731
    if any(abs(dot(axes[i], axes[j]) - (i == j)) > 1e-9 for i in range(3) for j in range(3)):
        raise Refused("mass_frame: axes not orthonormal")
    x, y, z = axes
    if dot(z, [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]]) <= 0:
        raise Refused("mass_frame: axes not right-handed")


def read_set(spec, directory, nodes=False):
    """(manifest, {face: table header}), or Refused: every rule of surface-set.md, then what the
    text defines the fields to be (the writer's side: grid, types, file names, units)."""
    path = os.path.join(directory, "manifest.json")
    if not os.path.isfile(path):
        raise Refused("no manifest.json")
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except ValueError as e:
        raise Refused(f"manifest.json is not valid JSON: {e}")
    if m.get("format_version") not in spec.versions_read:
        raise Refused("format_version")
    version_keys = {k: v for k, v in spec.top.items() if spec.since.get(k, 1) <= m["format_version"]}
    keys_of(m, version_keys, "manifest")
    if m.get("mass_frame") is not None:
        mass_frame(spec, m["mass_frame"])
    if m["format"] != spec.format_name:
        raise Refused("format")
    source = m["source"]
    if sorted(source) != sorted(spec.source_keys) or not isinstance(source["kind"], str) \
            or not isinstance(source["name"], str) or not of_type(source["faces"], "integer"):
        raise Refused("source: kind, name, faces")
    if "/" in source["name"]:
        raise Refused("source.name has directories")
    if m["length_unit"] not in spec.length_units:
        raise Refused("length_unit")
    if m["spacing"] is not None and not m["spacing"] > 0:
        raise Refused("spacing")
    part_faces = source["faces"]
    listed, previous = [], 0
    if not m["faces"]:
        raise Refused("the set holds no faces")
    for entry in m["faces"]:
        keys_of(entry, spec.face, "faces entry")
        face = entry["face"]
        if not 1 <= face <= part_faces:
            raise Refused(f"face {face} outside 1..{part_faces}")
        if face <= previous:
            raise Refused(f"face {face} out of order or repeated")
        previous = face
        name = entry["file"]
        if not name or "/" in name or name.startswith("."):
            raise Refused(f"face {face}: file {name!r} is not a plain name")
        if entry["orientation"] not in spec.orientations:
            raise Refused(f"face {face}: orientation")
        box = entry["bounding_box"]
        if not isinstance(box, dict) or sorted(box) != ["max", "min"] or not all(
                isinstance(box[k], list) and len(box[k]) == 3 and all(isinstance(x, (int, float)) for x in box[k])
                for k in box):
            raise Refused(f"face {face}: bounding_box")
        adjacent = entry["adjacent_faces"]
        if adjacent != sorted(set(adjacent)) or face in adjacent or not all(1 <= a <= part_faces for a in adjacent):
            raise Refused(f"face {face}: adjacent_faces not ascending, distinct, other faces of the part")
        if not re.fullmatch(r"[0-9a-f]{16}", entry["header_xxh64"]):
            raise Refused(f"face {face}: header_xxh64")
        listed.append(name)
    for skipped in m["skipped_faces"]:
        if not isinstance(skipped, dict) or not of_type(skipped.get("face"), "integer") \
                or not isinstance(skipped.get("reason"), str):
            raise Refused("skipped_faces entry")
    headers = {}
    for entry in m["faces"]:
        face, name = entry["face"], entry["file"]
        table = os.path.join(directory, name)
        if not os.path.lexists(table):
            raise Refused(f"face {face}: {name} missing")
        if os.path.islink(table) or not os.path.isfile(table):
            raise Refused(f"face {face}: {name} not a regular file")
        h = read_table(spec, table, nodes)
        if h["header_xxh64"] != entry["header_xxh64"]:
            raise Refused(f"face {face}: header checksum differs from the manifest's")
        if h["source_name"] != source["name"] or h["face_index"] != face:
            raise Refused(f"face {face}: the table holds face {h['face_index']} of {h['source_name']}")
        headers[face] = h
    has_edges = m["format_version"] >= 2 and m["edges"] is not None
    m["edge_list"] = read_edges(spec, directory, m) if has_edges else []
    if has_edges:
        listed.append(m["edges"]["file"])
    stray = sorted(set(os.listdir(directory)) - set(listed) - {"manifest.json"})
    if stray:
        raise Refused(f"stray files {stray}")
    # What the text defines the fields to be, which a writer must keep (the header checksum binds
    # the table, so surfdb's reader need not compare these).
    for entry in m["faces"]:
        face, h = entry["face"], headers[entry["face"]]
        if entry["file"] != "face_%0*d.sdb" % (spec.digits, face):
            raise Refused(f"face {face}: file name {entry['file']}")
        if entry["grid"] != [h["u_points"], h["v_points"]]:
            raise Refused(f"face {face}: grid {entry['grid']} but the header has {h['u_points']} x {h['v_points']}")
        if entry["surface_type"] != h["surface_type"]:
            raise Refused(f"face {face}: surface_type differs from the header's")
        if entry["orientation"] != spec.orientations[h["face_orientation"]]:
            raise Refused(f"face {face}: orientation differs from the header's face_orientation")
        if h["source_kind"] != source["kind"]:
            raise Refused(f"face {face}: source_kind differs from source.kind")
        if spec.length_units[h["length_unit"] - 1] != m["length_unit"]:
            raise Refused(f"face {face}: length_unit differs from the header's")
        if any(lo > hi for lo, hi in zip(entry["bounding_box"]["min"], entry["bounding_box"]["max"])):
            raise Refused(f"face {face}: bounding box min > max")
    return m, headers


def unit_vectors(value, count):
    return isinstance(value, list) and len(value) == count and all(
        isinstance(v, list) and len(v) == 3 and all(isinstance(x, (int, float)) for x in v)
        and abs(math.sqrt(sum(x * x for x in v)) - 1) <= 1e-6 for v in value)


def read_edges(spec, directory, m):
    """The edges file of a version 2 set, every rule of surface-set.md's edges.json."""
    entry = m["edges"]
    if not isinstance(entry, dict) or sorted(entry) != ["count", "file", "xxh64"] \
            or not re.fullmatch(r"[0-9a-f]{16}", str(entry["xxh64"])) or not of_type(entry["count"], "integer"):
        raise Refused("edges: {file, count, xxh64}")
    path = os.path.join(directory, str(entry["file"]))
    if os.path.islink(path) or not os.path.isfile(path):
        raise Refused("edges: the file is missing or not a regular file")
    with open(path, "rb") as f:
        data = f.read()
    if "%016x" % xxh64(data) != entry["xxh64"]:
        raise Refused("edges: XXH64 differs from the manifest's")
    try:
        e = json.loads(data)
    except ValueError:
        raise Refused("edges: not valid JSON")
    keys_of(e, spec.edges_top, "edges file")
    if e["format"] != spec.edges_format or len(e["edges"]) != entry["count"]:
        raise Refused("edges: format, or a count other than the manifest's")
    previous, part_faces = 0, m["source"]["faces"]
    for edge in e["edges"]:
        keys_of(edge, spec.edge, "edge")
        if edge["edge"] <= previous or edge["kind"] not in spec.edge_kinds:
            raise Refused(f"edge {edge['edge']}: out of order, repeated, or kind {edge['kind']!r}")
        previous = edge["edge"]
        points, sides = edge["points"], edge["sides"]
        if len(points) < 2 or not all(isinstance(p, list) and len(p) == 3 for p in points):
            raise Refused(f"edge {edge['edge']}: points")
        if len(sides) != (1 if edge["kind"] == "free" else 2) or \
                [s.get("face") for s in sides] != sorted(s.get("face") for s in sides):
            raise Refused(f"edge {edge['edge']}: sides")
        for side in sides:
            if not of_type(side.get("face"), "integer") or not 1 <= side["face"] <= part_faces \
                    or not unit_vectors(side.get("normal"), len(points)) \
                    or not unit_vectors(side.get("inward"), len(points)):
                raise Refused(f"edge {edge['edge']}: a side's face, normal or inward")
    return e["edges"]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def edge_geometry(check, spec, m, label):
    """What the text defines the edges to be: points within each side face's box, at most
    spacing/2 apart; normal and inward perpendicular, a step along inward staying inside the face's
    box (a step the other way leaves it where the edge bounds the box); the kind as the text's
    rule gives it."""
    boxes = {e["face"]: e["bounding_box"] for e in m["faces"]}
    step = m["spacing"] / int(spec.edge_step) if m["spacing"] else None
    for edge in m["edge_list"]:
        name = f"{label} edge {edge['edge']}"
        for side in edge["sides"]:
            box = boxes.get(side["face"])
            if box:
                check(all(box["min"][i] - 1e-6 <= p[i] <= box["max"][i] + 1e-6 for p in edge["points"] for i in range(3)),
                      f"{name}: points inside face {side['face']}'s bounding box")
                h = 1e-3 * (m["spacing"] or 1)
                check(all(box["min"][i] - h / 10 <= p[i] + h * w[i] <= box["max"][i] + h / 10
                          for p, w in zip(edge["points"], side["inward"]) for i in range(3)),
                      f"{name}: a step along face {side['face']}'s inward direction stays in its bounding box")
            check(all(abs(dot(n, w)) < 1e-9 for n, w in zip(side["normal"], side["inward"])),
                  f"{name}: face {side['face']}'s normal perpendicular to its inward direction")
        gaps = [math.dist(a, b) for a, b in zip(edge["points"], edge["points"][1:])]
        if step:
            check(max(gaps) <= step * (1 + 1e-9), f"{name}: points at most spacing/2 apart ({max(gaps)})")
        if len(edge["sides"]) == 2:
            s1, s2 = edge["sides"]
            apart = [math.degrees(math.acos(max(-1, min(1, dot(a, b))))) > 1 for a, b in zip(s1["normal"], s2["normal"])]
            convex = any(a and dot(w, n) < 0 for a, w, n in zip(apart, s1["inward"], s2["normal"]))
            want = "convex" if convex else "concave" if any(apart) else "smooth"
            check(edge["kind"] == want, f"{name}: kind {edge['kind']}, the rule gives {want}")


# --- the harness ------------------------------------------------------------------------------


def list_faces(surfdb, part):
    r = run([surfdb, "convert", part, "--list-faces"])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    head = lines[0].split(",")
    return [dict(zip(head, line.split(","))) for line in lines[1:]]


def against_surfdb(check, surfdb, spec, part, directory, m, headers, label):
    """The set against --list-faces, info --json and verify, and closed forms of its nodes."""
    faces = list_faces(surfdb, part)
    check(m["source"]["faces"] == len(faces), f"{label}: source.faces = --list-faces' {len(faces)} rows")
    check(m["source"]["name"] == os.path.basename(part), f"{label}: source.name is the part's file name")
    check(m["source"]["kind"] == os.path.splitext(part)[1][1:].lower(), f"{label}: source.kind")
    check([e["face"] for e in m["faces"]] == [int(f["face"]) for f in faces], f"{label}: --all-faces: every face")
    check(m["skipped_faces"] == [], f"{label}: no face skipped")
    for entry, row in zip(m["faces"], faces):
        face, h = entry["face"], headers[entry["face"]]
        check(entry["surface_type"] == row["surface_type"], f"{label} face {face}: surface_type as --list-faces")
        check(entry["orientation"] == row["orientation"], f"{label} face {face}: orientation as --list-faces")
        check(m["length_unit"] == row["length_unit"], f"{label} face {face}: length unit as --list-faces")
        for axis in "uv":  # the grid spans the face's parameter ranges
            lo, hi = float(row[axis + "_min"]), float(row[axis + "_max"])
            scale = 1e-12 * (abs(lo) + abs(hi) + 1)
            check(abs(h[axis + "0"] - lo) <= scale and abs(h[axis + "1"] - hi) <= scale,
                  f"{label} face {face}: header {axis}0, {axis}1 = {h[axis + '0']}, {h[axis + '1']};"
                  f" --list-faces {lo}, {hi}")
        # Every valid node lies in the face's bounding box (AddOptimal's box, up to the modelling
        # tolerance: 1e-7 of a 1e7 mm part), and the box is not larger than the nodes by more than
        # the spacing chosen.
        box = entry["bounding_box"]
        points = h["valid_nodes"]
        if check(points, f"{label} face {face}: has valid nodes"):
            for i in range(3):
                lo = min(p[i] for p in points)
                hi = max(p[i] for p in points)
                check(box["min"][i] - 1e-7 <= lo and hi <= box["max"][i] + 1e-7,
                      f"{label} face {face}: nodes along axis {i} in [{lo}, {hi}], box [{box['min'][i]}, {box['max'][i]}]")
                check(lo - box["min"][i] <= m["spacing"] and box["max"][i] - hi <= m["spacing"],
                      f"{label} face {face}: box along axis {i} larger than the nodes by more than the spacing")
        for other in entry["adjacent_faces"]:
            check(face in next(e for e in m["faces"] if e["face"] == other)["adjacent_faces"],
                  f"{label}: face {face} is adjacent to {other} but not {other} to {face}")
    info = json.loads(run([surfdb, "info", directory, "--json"]).stdout or "{}")
    check(info.get("format_version") == m["format_version"] and info.get("source") == m["source"]
          and info.get("length_unit") == m["length_unit"] and info.get("spacing") == m["spacing"]
          and info.get("skipped_faces") == m["skipped_faces"] and info.get("mass_frame") == m.get("mass_frame"),
          f"{label}: info --json's set fields")
    check(info.get("file_bytes") == sum(h["bytes"] for h in headers.values()),
          f"{label}: info's file_bytes = the tables' bytes")
    info_faces = info.get("faces", [])
    check(len(info_faces) == len(m["faces"]), f"{label}: info lists every face")
    for got, entry in zip(info_faces, m["faces"]):
        want = {k: entry[k] for k in ("face", "file", "surface_type", "orientation", "grid", "adjacent_faces",
                                      "bounding_box")}
        want["invalid_points"] = headers[entry["face"]]["invalid_points"]
        check(got == want, f"{label}: info's face {entry['face']}: {got} vs {want}")
    r = run([surfdb, "verify", directory])
    check(r.returncode == 0, f"{label}: surfdb verify: {r.stderr.strip()}")
    edge_geometry(check, spec, m, label)


def live(check, surfdb, spec, part, spacing, tmp):
    directory = os.path.join(tmp, os.path.splitext(os.path.basename(part))[0] + ".sdbs")
    r = run([surfdb, "convert", part, "--all-faces", "--spacing", str(spacing), "-o", directory])
    assert r.returncode == 0, r.stderr
    m, headers = read_set(spec, directory, nodes=True)
    check(m["spacing"] == spacing, f"{part}: spacing")
    against_surfdb(check, surfdb, spec, part, directory, m, headers, os.path.basename(part))
    return m, headers


# --- 1. the golden set ------------------------------------------------------------------------


def golden(check, surfdb, spec, data_dir, samples, tmp):
    directory = os.path.join(data_dir, "golden_follower_flat.sdbs")
    # format.md's offsets as numbers: a field moved in the text fails here.
    offsets = {"format_version": (8, "u32"), "length_unit": (180, "u32"), "u_points": (32, "u64"),
               "v_points": (40, "u64"), "invalid_points": (192, "u64"), "face_index": (208, "u32"),
               "face_orientation": (212, "u32"), "source_kind": (288, "char[32]"),
               "surface_type": (320, "char[32]"), "source_name": (352, "char[256]")}
    check(all(spec.fields[k] == v for k, v in offsets.items()), "golden: format.md's header offsets")
    with open(os.path.join(directory, "manifest.json"), "rb") as f:
        text = f.read()
    m = json.loads(text)
    check(text.decode("utf-8") == json.dumps(m, indent=2, sort_keys=True) + "\n",
          "golden: manifest.json in sorted keys, indented by two spaces, ending with a newline")
    check((m["format"], m["format_version"], m["source"], m["length_unit"], m["spacing"], m["skipped_faces"])
          == ("surfdb surface set", 3, {"kind": "step", "name": "follower_flat.step", "faces": 6}, "mm", 20.0, []),
          "golden: the set's fields")
    # The follower is a closed solid: its centre of mass inside the faces' box, its volume less
    # than the box's, its moments those of a body (each at most the sum of the other two).
    f, boxes = m["mass_frame"], [e["bounding_box"] for e in m["faces"]]
    lo = [min(b["min"][i] for b in boxes) for i in range(3)]
    hi = [max(b["max"][i] for b in boxes) for i in range(3)]
    check(f is not None and all(lo[i] < f["centre"][i] < hi[i] for i in range(3))
          and 0 < f["volume"] < (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
          and f["moments"][2] <= f["moments"][0] + f["moments"][1], f"golden: mass_frame {f} within the box {lo}, {hi}")
    want = [  # face, surface_type, orientation, grid, adjacent_faces, invalid_points, header_xxh64
        (1, "Cylinder", "forward", [2, 3], [2, 4, 5, 6], 0, "c73e81a281925c00"),
        (2, "Plane", "forward", [2, 3], [1, 3, 5, 6], 0, "40c01f9dd90f4246"),
        (3, "Plane", "forward", [2, 3], [2, 4, 5, 6], 0, "321945194c6250e6"),
        (4, "Plane", "forward", [2, 3], [1, 3, 5, 6], 0, "89623a5c0f69964a"),
        (5, "Plane", "forward", [2, 2], [1, 2, 3, 4], 2, "79ead4425bf4610d"),
        (6, "Plane", "reversed", [2, 2], [1, 2, 3, 4], 2, "fb34e1357ebac731")]
    check(len(m["faces"]) == 6, "golden: six faces")
    for entry, (face, kind, orientation, grid, adjacent, invalid, digest) in zip(m["faces"], want):
        check((entry["face"], entry["file"], entry["surface_type"], entry["orientation"], entry["grid"],
               entry["adjacent_faces"], entry["header_xxh64"])
              == (face, "face_%04d.sdb" % face, kind, orientation, grid, adjacent, digest), f"golden: face {face}")
        with open(os.path.join(directory, entry["file"]), "rb") as f:
            t = f.read()
        u32 = lambda at: struct.unpack_from("<I", t, at)[0]  # noqa: E731
        u64 = lambda at: struct.unpack_from("<Q", t, at)[0]  # noqa: E731
        text_at = lambda at, n: t[at:at + n].split(b"\0", 1)[0].decode()  # noqa: E731
        check("%016x" % xxh64(t[:1024]) == digest, f"golden face {face}: header_xxh64 is XXH64 of bytes 0..1023")
        check((u32(8), u32(180), u64(32), u64(40), u64(192), u32(208), u32(212))
              == (1, 1, grid[0], grid[1], invalid, face, ["forward", "reversed"].index(orientation)),
              f"golden face {face}: version, unit, u_points at 32, v_points at 40, invalid_points at 192,"
              f" face_index at 208, face_orientation at 212")
        check((text_at(288, 32), text_at(320, 32), text_at(352, 256)) == ("step", kind, "follower_flat.step"),
              f"golden face {face}: source_kind at 288, surface_type at 320, source_name at 352")
    # The text's reader accepts it, and surfdb reads it alike.
    m2, headers = read_set(spec, directory, nodes=True)
    part = os.path.join(samples, "cam_follower", "follower_flat.step")
    against_surfdb(check, surfdb, spec, part, directory, m2, headers, "golden")
    # The writer still writes these bytes ("the same set always has the same bytes").
    again = os.path.join(tmp, "again.sdbs")
    r = run([surfdb, "convert", part, "--all-faces", "--spacing", "20", "-o", again])
    if check(r.returncode == 0, f"golden: convert again: {r.stderr.strip()}"):
        names = sorted(os.listdir(directory))
        check(sorted(os.listdir(again)) == names, "golden: convert writes the same files")
        for name in names:
            with open(os.path.join(directory, name), "rb") as a, open(os.path.join(again, name), "rb") as b:
                check(a.read() == b.read(), f"golden: convert writes {name} byte for byte again (a change on "
                                            "purpose needs a new golden set, and a new version if readers differ)")
    return directory


# --- 3. damaged copies ------------------------------------------------------------------------


def damage_cases():
    """(what, change(dir), refused by the text's reader rules (surfdb too), refused as a field the
    text defines but surfdb's reader need not compare). Each change works on a copy of the set."""

    def manifest(change):
        def apply(d):
            p = os.path.join(d, "manifest.json")
            with open(p) as f:
                m = json.load(f)
            change(m)
            with open(p, "w") as f:
                f.write(json.dumps(m, indent=2, sort_keys=True) + "\n")
        return apply

    def flip(name, at):
        def apply(d):
            p = os.path.join(d, name)
            with open(p, "r+b") as f:
                f.seek(at)
                b = f.read(1)[0]
                f.seek(at)
                f.write(bytes([b ^ 0x10]))
        return apply

    def exchange(a, b):
        def apply(d):
            pa, pb = os.path.join(d, a), os.path.join(d, b)
            os.rename(pa, pa + ".x")
            os.rename(pb, pa)
            os.rename(pa + ".x", pb)
        return apply

    def write(name, data):
        return lambda d: open(os.path.join(d, name), "wb").write(data)

    def link(d):  # the table moved beside the set, a link to it in its place
        os.rename(os.path.join(d, "face_0003.sdb"), d + ".face_0003.sdb")
        os.symlink(d + ".face_0003.sdb", os.path.join(d, "face_0003.sdb"))

    def version_1(d):  # as written before edges were tabulated: read still
        os.remove(os.path.join(d, "edges.json"))
        manifest(lambda m: (m.pop("edges"), m.pop("mass_frame"), m.update(format_version=1)))(d)

    def reordered(d):  # other key order and whitespace, the same content: accepted
        p = os.path.join(d, "manifest.json")
        with open(p) as f:
            m = json.load(f)
        m = dict(reversed(list(m.items())))
        with open(p, "w") as f:
            f.write(json.dumps(m, separators=(",", ":")))

    return [
        ("a byte flipped in a table's header (reserved bytes, under the header hash)", flip("face_0002.sdb", 700),
         True, None),
        ("a byte flipped in a table's data record", flip("face_0001.sdb", 2 * 912 + 100), "verify", None),
        # The checksum table (format.md's step 15) is read by verify, not when the set is opened.
        ("a byte flipped in a table's checksum table", flip("face_0004.sdb", 3 * 912 + 3), "verify", None),
        ("a header_xxh64 changed", manifest(lambda m: m["faces"][2].update(header_xxh64="0" * 16)), True, None),
        ("two tables exchanged", exchange("face_0002.sdb", "face_0004.sdb"), True, None),
        ("a stray file", write("notes.txt", b"x"), True, None),
        ("a hidden stray file", write(".face_0007.sdb", b""), True, None),
        ("a table missing", lambda d: os.remove(os.path.join(d, "face_0005.sdb")), True, None),
        ("a table that is a symbolic link", link, True, None),
        ("manifest.json missing", lambda d: os.remove(os.path.join(d, "manifest.json")), True, None),
        ("manifest.json not JSON", write("manifest.json", b"{\"faces\": ["), True, None),
        ("format_version 4", manifest(lambda m: m.update(format_version=4)), True, None),
        ("a version 2 set: no mass_frame key", manifest(lambda m: (m.pop("mass_frame"), m.update(format_version=2))),
         False, None),
        ("the mass_frame key missing", manifest(lambda m: m.pop("mass_frame")), True, None),
        ("a mass frame's axes not right-handed",
         manifest(lambda m: m["mass_frame"].update(axes=[m["mass_frame"]["axes"][1], m["mass_frame"]["axes"][0],
                                                          m["mass_frame"]["axes"][2]])), True, None),
        ("a mass frame's moments not ascending", manifest(lambda m: m["mass_frame"]["moments"].reverse()), True, None),
        ("a version 1 manifest with the edges key",
         manifest(lambda m: (m.pop("mass_frame"), m.update(format_version=1))), True, None),
        ("the edges key missing", manifest(lambda m: m.pop("edges")), True, None),
        ("the edges file missing", lambda d: os.remove(os.path.join(d, "edges.json")), True, None),
        ("a byte of the edges file changed", flip("edges.json", 40), True, None),
        ("the edges' count changed", manifest(lambda m: m["edges"].update(count=m["edges"]["count"] + 1)), True, None),
        ("a version 1 set: no edges key, no edges file", version_1, False, None),
        ("format misnamed", manifest(lambda m: m.update(format="surfdb surface sets")), True, None),
        ("the key skipped_faces missing", manifest(lambda m: m.pop("skipped_faces")), True, None),
        ("a face's grid a string", manifest(lambda m: m["faces"][0].update(grid="2x3")), True, None),
        ("spacing negative", manifest(lambda m: m.update(spacing=-20.0)), True, None),
        ("faces out of order", manifest(lambda m: m["faces"].reverse()), True, None),
        ("a face listed twice", manifest(lambda m: m["faces"].insert(1, dict(m["faces"][0]))), True, None),
        ("a face number past source.faces", manifest(lambda m: m["source"].update(faces=5)), True, None),
        ("a file name with a directory", manifest(lambda m: m["faces"][1].update(file="../face_0002.sdb")),
         True, None),
        ("a hidden file name", manifest(lambda m: m["faces"][1].update(file=".face_0002.sdb")), True, None),
        ("the part's name changed", manifest(lambda m: m["source"].update(name="other.step")), True, None),
        ("no faces", manifest(lambda m: m.update(faces=[])), True, None),
        # Fields the text defines but the header checksum already binds (the writer's contract).
        ("a face's grid swapped", manifest(lambda m: m["faces"][0].update(grid=[3, 2])), False, "grid"),
        ("a face's surface type changed", manifest(lambda m: m["faces"][0].update(surface_type="Plane")),
         False, "surface_type"),
        ("a face's orientation changed", manifest(lambda m: m["faces"][5].update(orientation="forward")),
         False, "orientation"),
        ("the length unit changed", manifest(lambda m: m.update(length_unit="m")), False, "length_unit"),
        ("other key order and whitespace", reordered, False, None),
    ]


def damaged(check, surfdb, spec, golden_dir, tmp):
    for n, (what, change, refused, field) in enumerate(damage_cases()):
        d = os.path.join(tmp, f"damaged_{n}.sdbs")
        shutil.copytree(golden_dir, d)
        change(d)
        try:
            read_set(spec, d)
            got = None
        except Refused as e:
            got = str(e)
        should = refused is not False or field is not None
        check((got is not None) == should,
              f"damaged golden set, {what}: this reader {'refused it: ' + got if got else 'accepted it'}")
        if field is not None and got is not None:
            check(field in got, f"damaged golden set, {what}: refused for {got}, not for {field}")
        r = run([surfdb, "verify", d])
        if refused:
            check(r.returncode == 1 and d in r.stderr,
                  f"damaged golden set, {what}: surfdb verify exit {r.returncode}: {r.stderr.strip()}")
            if refused is True:  # info reads the structure as verify does, without the data records
                check(run([surfdb, "info", d]).returncode == 1, f"damaged golden set, {what}: surfdb info read it")
        else:  # accepted by surfdb: the text says its reader need not compare these fields
            check(r.returncode == 0, f"damaged golden set, {what}: surfdb verify refused it: {r.stderr.strip()}")


def main():
    surfdb, project = sys.argv[1], sys.argv[2]
    started = time.monotonic()
    with open(os.path.join(project, "docs", "format.md"), encoding="utf-8") as f:
        format_md = f.read()
    with open(os.path.join(project, "docs", "surface-set.md"), encoding="utf-8") as f:
        set_md = f.read()
    spec = Spec(format_md, set_md)
    check = Checks()
    data_dir = os.path.join(project, "tests", "formats", "data")
    samples = os.path.join(project, "samples")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            golden_dir = golden(check, surfdb, spec, data_dir, samples, tmp)
            print(f"golden_follower_flat.sdbs read at the texts' fields ({check.passed} checks)", flush=True)
            m, _ = live(check, surfdb, spec, os.path.join(samples, "cam_follower", "follower_flat.step"), 2.0, tmp)
            print(f"follower_flat.step at spacing 2: grids {[e['grid'] for e in m['faces']]} agree", flush=True)
            m, headers = live(check, surfdb, spec, os.path.join(samples, "parts_in_contact", "ball.step"), 2.0, tmp)
            worst = max(abs(math.sqrt(sum(x * x for x in p)) - 10) for p in headers[1]["valid_nodes"])
            check(worst <= 1e-9 and m["faces"][0]["adjacent_faces"] == [] and m["faces"][0]["bounding_box"]
                  == {"min": [-10.0, -10.0, -10.0], "max": [10.0, 10.0, 10.0]},
                  f"ball.sdbs: nodes on the sphere R = 10 (worst {worst}), box +-R, adjacent to no other face")
            # A solid ball R = 10 mm about the origin: V = 4/3 pi R^3, moments 2/5 V R^2 (unit density).
            f, volume = m["mass_frame"], 4 / 3 * math.pi * 1000
            check(f is not None and abs(f["volume"] / volume - 1) < 1e-9
                  and all(abs(c) < 1e-9 for c in f["centre"])
                  and all(abs(k / (0.4 * volume * 100) - 1) < 1e-9 for k in f["moments"]),
                  f"ball.sdbs: mass_frame {f} of a ball R = 10 mm about the origin")
            damaged(check, surfdb, spec, golden_dir, tmp)
        except (Refused, AssertionError) as e:
            check(False, f"stopped: {e}")
    print(f"{check.passed} passed, {check.failed} failed ({time.monotonic() - started:.1f} s)")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
