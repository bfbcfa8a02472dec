#!/usr/bin/env python3
"""Reads a `surfdb simulate --animation` output back, standard library only (xml.etree, base64,
struct), and checks it against the run's time_series.csv, the independent record of the same
instants: one instant per CSV row at the row's t; the bodies' surfaces where the CSV puts their
bodies, the ground's written once (ground.vtp, part 2 of every instant);
a contact point per point the CSV counts, at the midpoint of its points, with its indentation and
force.

The glTF scene (animation/scene.gltf and .bin, read by the rules of the glTF 2.0 specification:
accessors within their views, views within the buffer, positions within their min and max) against
the VTK frames: at every instant it keeps, each body's mesh moved by its translation and rotation
lies where the frame puts that body's surfaces, its translation where the CSV puts the body; the
ground's mesh is ground.vtp's.

Usage: check_animation.py OUTDIR SCENE
SCENE names what the test knows of the scenario: `drop` (animation_cli_test.sh's ball dropped on
a floor beside a spinning bob), `cup` (samples/slider_crank_cup_ball/hertz_analytic.toml) or
`cup_tables` (its hertz.toml: the same ball and cup as lookup tables).
Exits 1 naming the first failed check.
"""
import base64
import csv
import json
import math
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

FORMATS = {"Float64": "d", "Float32": "f", "Int32": "i", "UInt64": "Q"}


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def read_collection(outdir):
    """[(timestep text, surfaces file, contacts file, ground file or None)] in the collection's order."""
    root = ET.parse(outdir / "animation.pvd").getroot()
    check(root.get("type") == "Collection" and root.get("byte_order") == "LittleEndian", "collection header")
    rows = [(d.get("timestep"), d.get("part"), d.get("name"), d.get("file")) for d in root.iter("DataSet")]
    instants = []
    for row in rows:
        if row[1:3] == ("0", "surfaces"):
            instants.append([row[0], outdir / row[3], None, None])
            continue
        check(instants and row[0] == instants[-1][0], f"one timestep for the instant's parts: {row}")
        if row[1:3] == ("1", "contacts"):
            instants[-1][2] = outdir / row[3]
        else:
            check(row[1:4] == ("2", "ground", "animation/ground.vtp"), f"parts: {row}")
            instants[-1][3] = outdir / row[3]
    check(all(i[2] for i in instants), "a contacts part per instant")
    check(len({i[3] for i in instants}) == 1, "the ground part at every instant or none")
    return [tuple(i) for i in instants]


def with_ground(counts, arrays, ground):
    """The bodies' surfaces and the ground's (written once) as one mesh: the ground's points after
    the bodies', its triangles' vertices offset by their count."""
    if ground is None:
        return counts, arrays
    ground_counts, ground_arrays = ground
    n = counts["NumberOfPoints"]
    merged = {k: arrays[k] + ground_arrays[k] for k in ("Points", "Normals", "surface", "body")}
    merged["connectivity"] = arrays["connectivity"] + [(v + n,) for (v,) in ground_arrays["connectivity"]]
    polys = counts["NumberOfPolys"] + ground_counts["NumberOfPolys"]
    return {"NumberOfPoints": n + ground_counts["NumberOfPoints"], "NumberOfPolys": polys}, merged


def read_vtp(path):
    """The piece's counts and its arrays by name, each a list of tuples."""
    root = ET.parse(path).getroot()
    check(root.get("type") == "PolyData" and root.get("byte_order") == "LittleEndian", f"{path}: header")
    check(root.get("header_type") == "UInt64", f"{path}: header_type")
    piece = root.find("PolyData/Piece")
    counts = {k: int(piece.get(k)) for k in ("NumberOfPoints", "NumberOfVerts", "NumberOfPolys")}
    arrays = {}
    for a in piece.iter("DataArray"):
        check(a.get("format") == "binary", f"{path}: {a.get('Name')} not inline binary")
        raw = base64.b64decode(a.text.strip(), validate=True)
        (size,) = struct.unpack_from("<Q", raw)
        check(len(raw) == 8 + size, f"{path}: {a.get('Name')}: {len(raw) - 8} bytes after a header of {size}")
        code = FORMATS[a.get("type")]
        values = struct.unpack(f"<{size // struct.calcsize(code)}{code}", raw[8:])
        width = int(a.get("NumberOfComponents", "1"))
        arrays[a.get("Name")] = list(zip(*[iter(values)] * width))  # tuples of `width`
    check(len(arrays["Points"]) == counts["NumberOfPoints"], f"{path}: point count")
    return counts, arrays


def read_csv(outdir):
    with open(outdir / "time_series.csv", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [dict(zip(header, row)) for row in reader]
    return header, rows


def vector(row, prefix):
    return tuple(float(row[f"{prefix}{c}"]) for c in "xyz")


def distance(a, b):
    return math.dist(a, b)


def surface_vertices(arrays, surface):
    """The vertices (world, m) of the triangles of one surface, each once."""
    if "owner" not in arrays:  # the surface of each vertex, from the triangles that use it
        owner = [None] * len(arrays["Points"])
        connectivity = arrays["connectivity"]
        for k, (s,) in enumerate(arrays["surface"]):
            owner[connectivity[3 * k][0]] = owner[connectivity[3 * k + 1][0]] = owner[connectivity[3 * k + 2][0]] = s
        arrays["owner"] = owner
    return [p for p, s in zip(arrays["Points"], arrays["owner"]) if s == surface]


def centroid(points):
    return tuple(sum(p[i] for p in points) / len(points) for i in range(3))


def check_on_sphere(points, centre, radius, what):
    """Every point at `radius` from `centre`, to 1e-12 m."""
    worst = max(points, key=lambda p: abs(distance(p, centre) - radius))
    check(abs(distance(worst, centre) - radius) < 1e-12, f"{what}: vertex {worst} not at {radius} m from {centre}")


def check_sphere(points, centre, radius, what):
    c = centroid(points)
    check(distance(c, centre) <= 1e-9 * math.hypot(*centre), f"{what}: centroid {c}, body at {centre}")
    check_on_sphere(points, centre, radius, what)


def check_contacts(header, row, arrays, what):
    """A vertex per point the CSV counts; for a one-pair contact, its midpoint, indentation and force."""
    names = [h[: -len("_points")] for h in header if h.endswith("_points")]
    contact_of = [c[0] for c in arrays["contact"]]
    for c, name in enumerate(names):
        mine = [k for k, owner in enumerate(contact_of) if owner == c]
        check(len(mine) == int(float(row[f"{name}_points"])), f"{what}: {len(mine)} points of '{name}', the CSV {row[f'{name}_points']}")
        if f"{name}_touching" not in row or not mine:
            continue
        (k,) = mine
        middle = tuple((a + b) / 2 for a, b in zip(vector(row, f"{name}_point_i_"), vector(row, f"{name}_point_j_")))
        check(distance(arrays["Points"][k], middle) < 1e-15, f"{what}: '{name}' at {arrays['Points'][k]}, the CSV's midpoint {middle}")
        check(arrays["indentation"][k][0] == float(row[f"{name}_indentation"]), f"{what}: '{name}' indentation")
        force = math.hypot(*arrays["normal_force"][k])
        check(abs(force - float(row[f"{name}_normal_force"])) <= 1e-12 * force, f"{what}: '{name}' normal force {force}")


def check_drop(row, arrays, t, what):
    """The ball (surface 0) on its body, the floor (1) a square of half side 0.27 m round the origin,
    the bob (2) 20 mm off its spinning body (turning at 30 rad/s about z)."""
    ball = vector(row, "ball_")
    check_sphere(surface_vertices(arrays, 0), ball, 0.01, f"{what}: ball")
    floor = surface_vertices(arrays, 1)
    check(sorted((round(p[0], 15), round(p[1], 15), p[2]) for p in floor)
          == [(-0.27, -0.27, 0), (-0.27, 0.27, 0), (0.27, -0.27, 0), (0.27, 0.27, 0)], f"{what}: floor {floor}")
    body = vector(row, "spinner_")
    bob = surface_vertices(arrays, 2)
    c = centroid(bob)
    arm = tuple(a - b for a, b in zip(c, body))
    check(abs(math.hypot(*arm) - 0.02) < 1e-9 * 0.02 and abs(arm[2]) < 1e-12, f"{what}: bob arm {arm}")
    turned = math.atan2(arm[1], arm[0]) - 30 * t
    check(abs(math.remainder(turned, 2 * math.pi)) < 1e-6, f"{what}: bob turned {turned} rad off 30 t")
    check_sphere(bob, c, 0.005, f"{what}: bob")


def check_cup(row, arrays, t, what):
    """The ball (surface 0) on its body; the cup (1), a hemisphere of 50 mm below its body's origin
    (the cup only translates: its turn is the joints' drift, far below a nanometre at the rim)."""
    check_sphere(surface_vertices(arrays, 0), vector(row, "ball_"), 0.01, f"{what}: ball")
    cup = vector(row, "cup_")
    wall = surface_vertices(arrays, 1)
    check_on_sphere(wall, cup, 0.05, f"{what}: cup")
    check(abs(max(p[2] for p in wall) - cup[2]) < 1e-9, f"{what}: the cup's rim not at its centre's height")


def check_cup_tables(row, arrays, t, what):
    """The ball's table (surface 0) and the cup's (1): grid nodes on spheres round their bodies."""
    for surface, body, radius in ((0, "ball_", 0.01), (1, "cup_", 0.05)):
        check_on_sphere(surface_vertices(arrays, surface), vector(row, body), radius, f"{what}: {body[:-1]}")


GLTF_TYPES = {5126: "f", 5125: "I"}
GLTF_WIDTHS = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}


def read_gltf(outdir):
    """The scene's JSON and a function giving an accessor's elements as tuples."""
    gltf = json.loads((outdir / "animation" / "scene.gltf").read_text())
    check(gltf["asset"]["version"] == "2.0" and len(gltf["buffers"]) == 1, "glTF: version 2.0, one buffer")
    data = (outdir / "animation" / gltf["buffers"][0]["uri"]).read_bytes()
    check(len(data) == gltf["buffers"][0]["byteLength"], "glTF: the buffer's byteLength")

    def accessor(k):
        a = gltf["accessors"][k]
        view = gltf["bufferViews"][a["bufferView"]]
        width, code = GLTF_WIDTHS[a["type"]], GLTF_TYPES[a["componentType"]]
        check(view["byteOffset"] % 4 == 0 and view["byteOffset"] + view["byteLength"] <= len(data)
              and a["count"] * width * 4 <= view["byteLength"], f"glTF: accessor {k} within its view and the buffer")
        values = struct.unpack_from(f"<{a['count'] * width}{code}", data, view["byteOffset"])
        rows = list(zip(*[iter(values)] * width))
        if "min" in a:
            check([min(r[c] for r in rows) for c in range(width)] == a["min"]
                  and [max(r[c] for r in rows) for c in range(width)] == a["max"], f"glTF: accessor {k}'s min and max")
        return rows
    return gltf, accessor


def body_corners(arrays, body):
    """The corners (world, m) of one body's triangles, three a triangle, in their order."""
    return [arrays["Points"][arrays["connectivity"][3 * k + c][0]]
            for k, (b,) in enumerate(arrays["body"]) if b == body for c in range(3)]


def rotate(q, v):
    """v turned by the unit quaternion q = (x, y, z, w)."""
    x, y, z, w = q
    t = (2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0]))
    return (v[0] + w * t[0] + y * t[2] - z * t[1], v[1] + w * t[1] + z * t[0] - x * t[2],
            v[2] + w * t[2] + x * t[1] - y * t[0])


def near(a, b, what):
    """float32 against float64: a tenth of a micrometre per metre, a nanometre at least."""
    for p, q in zip(a, b):
        check(distance(p, q) <= 1e-7 * math.hypot(*q) + 1e-9, f"{what}: {p} against {q}")


def check_gltf(outdir, rows, instants, names):
    gltf, accessor = read_gltf(outdir)
    world = gltf["nodes"][0]
    check(world["name"] == "world" and world["rotation"] == [-0.7071067690849304, 0.0, 0.0, 0.7071067690849304],
          "glTF: the root turns z up into y up")
    nodes = {gltf["nodes"][n]["name"]: gltf["nodes"][n] for n in world["children"]}
    meshes = {}
    for name, node in nodes.items():
        (primitive,) = gltf["meshes"][node["mesh"]]["primitives"]
        points, indices = accessor(primitive["attributes"]["POSITION"]), accessor(primitive["indices"])
        check(primitive["mode"] == 4 and len(indices) % 3 == 0 and all(i < len(points) for (i,) in indices),
              f"glTF: {name}'s triangles")
        check(len(accessor(primitive["attributes"]["NORMAL"])) == len(points), f"glTF: {name}'s normals")
        meshes[name] = [points[i] for (i,) in indices]  # the triangles' corners
    if "ground" in nodes:
        ground = read_vtp(instants[0][3])[1]
        corners = [ground["Points"][i] for (i,) in ground["connectivity"]]
        check(len(corners) == len(meshes["ground"]), "glTF: the ground's triangles, ground.vtp's")
        near(meshes["ground"], corners, "glTF: the ground against ground.vtp")
    (animation,) = gltf.get("animations", [{"channels": [], "samplers": []}])
    tracks = {}
    for channel in animation["channels"]:
        sampler = animation["samplers"][channel["sampler"]]
        name = gltf["nodes"][channel["target"]["node"]]["name"]
        tracks[name, channel["target"]["path"]] = (accessor(sampler["input"]), accessor(sampler["output"]))
    moving = [n for n in nodes if n != "ground"]
    check(sorted(k[0] for k in tracks) == sorted(moving * 2), f"glTF: a translation and a rotation per moving body {moving}")
    if not moving:
        return 0
    times = [t for (t,) in tracks[moving[0], "translation"][0]]
    check(all(a < b for a, b in zip(times, times[1:])), "glTF: instants increasing")
    float32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]  # noqa: E731
    kept, last = [], None
    for row, instant in zip(rows, instants):  # the instants whose float32 time increases
        if last is None or float32(float(row["t"])) > last:
            kept.append((row, instant))
            last = float32(float(row["t"]))
    check(len(kept) == len(times) and all(float32(float(r["t"])) == t for (r, _), t in zip(kept, times)),
          f"glTF: {len(times)} instants, the CSV's rows with increasing float32 times {len(kept)}")
    for k, (row, instant) in enumerate(kept):
        frame = read_vtp(instant[1])[1]
        for name in moving:
            translation, rotation = tracks[name, "translation"][1][k], tracks[name, "rotation"][1][k]
            near([translation], [vector(row, f"{name}_")], f"glTF t = {row['t']}: {name}'s translation")
            check(abs(math.hypot(*rotation) - 1) < 1e-6, f"glTF t = {row['t']}: {name}'s rotation not unit")
            placed = [tuple(a + b for a, b in zip(translation, rotate(rotation, v))) for v in meshes[name]]
            corners = body_corners(frame, names.index(name))
            check(len(placed) == len(corners), f"glTF: {name}'s triangles, its frame's")
            near(placed, corners, f"glTF t = {row['t']}: {name} against its frame")
    return len(times)


def main(outdir, scene):
    outdir = Path(outdir)
    header, rows = read_csv(outdir)
    instants = read_collection(outdir)
    check(len(instants) == len(rows), f"{len(instants)} instants, {len(rows)} CSV rows")
    ground = read_vtp(instants[0][3]) if instants and instants[0][3] else None
    for (timestep, surfaces, contacts, _), row in zip(instants, rows):
        check(timestep == row["t"], f"timestep {timestep}, CSV t {row['t']}")
        what = f"t = {timestep}"
        for counts, arrays in [read_vtp(surfaces)] + ([ground] if ground else []):
            check(len(arrays["surface"]) == len(arrays["body"]) == counts["NumberOfPolys"], f"{what}: cell data")
            check([o[0] for o in arrays["offsets"]] == list(range(3, 3 * counts["NumberOfPolys"] + 1, 3)), f"{what}: offsets")
            check(len(arrays["Normals"]) == counts["NumberOfPoints"], f"{what}: normals")
        check(all(b[0] >= 0 for b in read_vtp(surfaces)[1]["body"]), f"{what}: the ground's surfaces in a frame")
        still = {b for (b,) in ground[1]["body"]} if ground else set()  # the ground's, and bodies welded to it
        check(not still & {b for (b,) in read_vtp(surfaces)[1]["body"]}, f"{what}: a body both in ground.vtp and a frame")
        counts, arrays = with_ground(*read_vtp(surfaces), ground)
        {"drop": check_drop, "cup": check_cup, "cup_tables": check_cup_tables}[scene](row, arrays, float(timestep), what)
        counts, arrays = read_vtp(contacts)
        check(counts["NumberOfVerts"] == counts["NumberOfPoints"], f"{what}: a vertex cell per contact point")
        check_contacts(header, row, arrays, what)
    names = [h[: -len("_x")] for h in header if h.endswith("_x") and f"{h[:-2]}_e0" in header]
    kept = check_gltf(outdir, rows, instants, names)
    touching = sum(float(r[h]) > 0 for r in rows for h in header if h.endswith("_points"))
    print(f"{len(instants)} instants checked, {touching} with contact points; glTF: {kept} instants")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
