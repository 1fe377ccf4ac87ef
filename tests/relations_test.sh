#!/usr/bin/env bash
# Relations between calls (issue 35), for built-in kernels and plugins:
# planted bugs that keep their contracts break the relation they claim
# (strict edge tests leak, a tmax folded into the direction, a
# three-mesh-bvh #655 asymmetry); Woop's test and the exact kernels hold;
# the relation is in every report format; its witness names the relation,
# replays broken against the kernel that broke it and whole against one
# that keeps it, and promotes into a corpus that replays.
#
#   relations_test.sh ISECT EXAMPLE_KERNELS_DIR
set -u
isect=$1
kernels=$2
. "$(dirname "$0")/expect.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rt=(--family ray_triangle --cases 20000 --seed 1 --quiet)

# Built in: each claims its relations (isect kernels says which), judged by default.
expect 0 "broken:strict_edges .*claims watertight" -- "$isect" kernels
expect 1 "broken:strict_edges: watertight BROKEN on [1-9][0-9]* of 20000 cases" "a leak: misses both triangles of an edge the ray passes through" -- \
    "$isect" check "${rt[@]}" --kernel broken:strict_edges --out "$work/strict"
expect 1 "broken:segment_from_tmax: monotone BROKEN" -- "$isect" check "${rt[@]}" --kernel broken:segment_from_tmax --out "$work/tmax"
expect 1 "broken:first_plane_only: symmetric BROKEN" -- \
    "$isect" check --family triangle_triangle --kernel broken:first_plane_only --cases 20000 --seed 1 --quiet --out "$work/sym"
expect 0 "watertight: watertight holds on every one of" -- "$isect" check "${rt[@]}" --kernel watertight --out "$work/ok"
expect 0 "exact: symmetric holds on every one of" -- \
    "$isect" check --family triangle_triangle --kernel exact --relation symmetric --cases 20000 --seed 1 --quiet --out "$work/ok"

# Plugins: --relation, as the CMake gate's RELATION passes it.
plugin=(--family ray_triangle --relation watertight --domain 2^-20:2^20 --cases 20000 --seed 1 --quiet)
expect 1 "mt_strict_edges: watertight BROKEN" "the contract holds; a relation is BROKEN" -- \
    "$isect" check --plugin "$kernels/mt_strict_edges.so" "${plugin[@]}" --out "$work/p"
expect 0 "woop_watertight: watertight holds on every one of" -- \
    "$isect" check --plugin "$kernels/woop_watertight.so" "${plugin[@]}" --out "$work/w"

# isect diff: each side's relations beside the agreement.
expect 1 "broken:strict_edges: watertight BROKEN.*|watertight: watertight holds" -- \
    "$isect" diff broken:strict_edges watertight --family ray_triangle --cases 20000 --seed 1 --out "$work/d"
# (Möller–Trumbore leaks on 8 to 15 of 40,000 cases at seeds 1 to 5.)
expect 1 "moller_trumbore: watertight BROKEN" -- \
    "$isect" diff moller_trumbore exact --family ray_triangle --relation watertight --cases 40000 --seed 1 --out "$work/d"

# Every report format.
expect 1 '"relation": "watertight"' -- "$isect" check "${rt[@]}" --kernel broken:strict_edges --format json --out "$work/f"
expect 1 "\\| broken:strict_edges \\| watertight \\| 20000 \\| [1-9]" -- \
    "$isect" check "${rt[@]}" --kernel broken:strict_edges --format markdown --out "$work/f"
expect 1 'name="broken:strict_edges \(watertight\)"' -- \
    "$isect" check "${rt[@]}" --kernel broken:strict_edges --format junit --out "$work/f"

# The user's mesh (--mesh, OBJ or PLY): its shared edges and vertices are
# in the mix, and strict edge tests leak through them; Woop's test does not.
meshes=$(dirname "$0")/data/meshes
expect 1 "mix: mesh_edge 100%" "broken:strict_edges: watertight BROKEN" -- "$isect" check --family ray_triangle \
    --kernel broken:strict_edges --mesh "$meshes/terrain.obj" --gen mesh_edge --cases 2000 --seed 1 --quiet --out "$work/m"
expect 0 "watertight: watertight holds on every one of 20000 cases" -- "$isect" check --family ray_triangle --kernel watertight \
    --mesh "$meshes/octahedron.ply" --gen mesh_vertex --cases 20000 --seed 1 --quiet --out "$work/m"
# isect diff takes the run's and the scope's flags as check does: two
# kernels on the mesh's shared edges alone.
expect 1 "mix: mesh_edge 100%" "the references side with A on [1-9]" -- "$isect" diff watertight broken:strict_edges \
    --family ray_triangle --mesh "$meshes/terrain.obj" --gen mesh_edge --cases 2000 --seed 1 --out "$work/dm"
# The mesh's own neighbours: the hinge across a shared edge, the closed fan
# of an inner vertex; the witness names the mesh it was drawn from.
expect 1 "misses every triangle around a vertex the ray passes through" -- "$isect" check --family ray_triangle \
    --kernel broken:strict_edges --mesh "$meshes/terrain.obj" --gen mesh_vertex --cases 2000 --seed 1 --quiet --out "$work/mv"
# The minimiser keeps a leak found on the mesh there (judged against the
# mesh's own fan, not one the relation builds), and the report names its
# faces by the file's own numbers: the OBJ's face and v lines.
if grep -qE "drawn from the mesh $meshes/terrain.obj: .*its triangle is face [0-9]+ \(line [0-9]+: vertices [0-9]+ [0-9]+ [0-9]+\); around its vertex" \
    "$work"/mv/*watertight*.case; then echo "ok: a mesh witness stays on the mesh and names its faces"
else echo "FAIL: the mesh witness left the mesh or names no face"; cat "$work"/mv/*watertight*.case; fail=1; fi
# What the run reached on the mesh, and the leak's faces in the report (a
# PLY's by its own indices, from 0).
expect 1 "note: on the mesh, rays passed exactly through [0-9]+ of its 12 shared edges and [1-9] of its 6 closed vertex fans" \
    "in the mesh's file: its triangle is face index [0-7] \(line [0-9]+: vertex indices [0-5] [0-5] [0-5]\); around its vertex" -- \
    "$isect" check --family ray_triangle --kernel broken:strict_edges --mesh "$meshes/octahedron.ply" --gen mesh_vertex \
    --cases 5000 --seed 1 --out "$work/mp"
# The JSON report's class holds its found case's triangles from the mesh
# (what it was judged against), and isect merge keeps them.
expect 1 '"found_neighbours": \[' '"in_file": "its triangle is face [0-9]+ \(line' -- "$isect" check --family ray_triangle \
    --kernel broken:strict_edges --mesh "$meshes/terrain.obj" --gen mesh_edge --cases 2000 --seed 1 --format json --out "$work/mj"
# A witness that holds the mesh's triangles around it (neighbour.N) replays
# against them without the mesh: the closed fan of eight at the vertex.
fan=$(dirname "$0")/../corpus/ray_triangle/terrain_vertex_fan.case
expect 1 "breaks the relation watertight: misses the triangle and the 7 closing it around its vertex a" -- \
    "$isect" replay "$fan" --kernel broken:strict_edges
expect 0 "1 passed" -- "$isect" replay "$fan" --kernel watertight
expect 0 "mesh_edge_pair [0-9]+% mesh_vertex_pair" -- "$isect" check --family triangle_triangle --mesh "$meshes/octahedron.ply" \
    --cases 20000 --seed 1 --quiet --out "$work/m"
expect 0 "mix: mesh_voxel 100%" -- "$isect" check --family aabb_triangle --mesh "$meshes/terrain.obj" --gen mesh_voxel \
    --cases 20000 --seed 1 --quiet --out "$work/m"
expect 2 "--mesh $work/none.obj: Unable to open file" -- "$isect" check --family ray_triangle --mesh "$work/none.obj" --cases 10
# Vertices are joined by position alone: two faces that give their shared
# vertices different normals still share the edge (assimp's own join kept
# them apart: no mesh_edge case at all), and strict edge tests leak there.
printf 'v 0 0 0\nv 1 0 0\nv 1 1 0.5\nv 0 1 0\nvn 0 -0.4472136 0.8944272\nvn -0.4472136 0 0.8944272\nf 1//1 2//1 3//1\nf 1//2 3//2 4//2\n' \
    >"$work/faceted.obj"
expect 1 "note: the mesh $work/faceted.obj: 2 triangles, 4 vertices joined by position, 1 shared edges, 4 border edges" -- \
    "$isect" check --family ray_triangle --kernel broken:strict_edges --mesh "$work/faceted.obj" --gen mesh_edge --cases 2000 --seed 1 --out "$work/m"
# A zero-area triangle in a closed fan covers nothing but hides nothing:
# the fan's other triangles still close it, and strict edges leak at the
# vertex (the degenerate one had turned the vertex check off).
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv -1 0 0\nv 0 -1 0\nv 2 0 0\nf 1 2 3\nf 1 3 4\nf 1 4 5\nf 1 5 6\nf 1 6 2\n' >"$work/fan.obj"
expect 1 "note: the mesh $work/fan.obj: 5 triangles, 6 vertices .* 1 degenerate triangles" "broken:strict_edges: watertight BROKEN" -- \
    "$isect" check --family ray_triangle --kernel broken:strict_edges --mesh "$work/fan.obj" --gen mesh_vertex --cases 2000 --seed 1 --out "$work/m"
expect 0 "watertight: watertight holds on every one of 20000 cases" -- "$isect" check --family ray_triangle --kernel watertight \
    --mesh "$work/fan.obj" --gen mesh_vertex --cases 20000 --seed 1 --quiet --out "$work/m"
# assimp's own test models (Debian's assimp-testmodels, which ./isect test
# installs): the sphere with a hole, an ASCII STL whose every facet has its
# own three vertices, shares 423 edges once they are joined by position
# (assimp's join found none), and strict edges leak through them.
sphere=/usr/share/assimp/models/STL/sphereWithHole.stl
if [ -f "$sphere" ]; then
    expect 1 "note: the mesh $sphere: 285 triangles, 146 vertices joined by position, 423 shared edges, 9 border edges" \
        "broken:strict_edges: watertight BROKEN" -- "$isect" check --family ray_triangle --kernel broken:strict_edges --mesh "$sphere" \
        --gen mesh_edge --cases 5000 --seed 1 --out "$work/s"
    # Asked for, a relation no kernel claims: Möller-Trumbore leaks through
    # the sphere's edges (38 of 5,000 cases; on generated cases about one in
    # 3,000, as isect diff above shows).
    expect 1 "moller_trumbore: watertight BROKEN" -- "$isect" check --family ray_triangle --kernel moller_trumbore \
        --relation watertight --mesh "$sphere" --gen mesh_edge --cases 5000 --seed 1 --quiet --out "$work/mt"
else
    echo "FAIL: $sphere is missing (apt-get install assimp-testmodels; ./isect test installs it)"; fail=1
fi
# A bad file is an error that names it (exit 2), never a crash of isect:
# assimp reads in a process of its own.
expect 2 "--mesh $work: is a directory, not a mesh file" -- "$isect" check --family ray_triangle --mesh "$work" --cases 10
# A text mesh's vertices and faces by the file's own lines and numbers.
printf 'v 0 0 0\nv 1 0 0\nv nan 1 0\nf 1 2 3\n' >"$work/nan.obj"
expect 2 "--mesh $work/nan.obj: line 3: vertex 3 \\(nan 1 0\\) is not finite" -- \
    "$isect" check --family ray_triangle --mesh "$work/nan.obj" --cases 10
printf 'v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1' >"$work/cut.obj"
expect 2 "--mesh $work/cut.obj: line 4: vertex 3 has 2 coordinates, not 3: the line is cut short" -- \
    "$isect" check --family ray_triangle --mesh "$work/cut.obj" --cases 10
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n' >"$work/range.obj"
expect 2 "--mesh $work/range.obj: line 4: face 1 names vertex 4, and the file has 3 vertices" -- \
    "$isect" check --family ray_triangle --mesh "$work/range.obj" --cases 10
sed 's/^-1 0 0$/-1 inf 0/' "$meshes/octahedron.ply" >"$work/inf.ply"
expect 2 "--mesh $work/inf.ply: line 14: vertex index 3 \\(-1 inf 0\\) is not finite" -- \
    "$isect" check --family ray_triangle --mesh "$work/inf.ply" --cases 10
head -c -3 "$meshes/octahedron.ply" >"$work/last_cut.ply"  # its last face loses its last index
expect 2 "--mesh $work/last_cut.ply: line 24: face index 7 ends before its property vertex_indices .*: the line is cut short" -- \
    "$isect" check --family ray_triangle --mesh "$work/last_cut.ply" --cases 10
python3 - "$work" <<'PLY'
import struct, sys
v = [(0, 0, 1.5), (1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, -1, 0), (0, 0, -1.5)]
f = [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 1), (5, 2, 1), (5, 3, 2), (5, 4, 3), (5, 1, 4)]
head = (b"ply\nformat binary_little_endian 1.0\nelement vertex 6\nproperty float x\nproperty float y\nproperty float z\n"
        b"element face 8\nproperty list uchar int vertex_indices\nend_header\n")
body = b"".join(struct.pack("<3f", *p) for p in v) + b"".join(struct.pack("<B3i", 3, *t) for t in f)
open(sys.argv[1] + "/binary_cut.ply", "wb").write(head + body[:80])
PLY
expect 2 "--mesh $work/binary_cut.ply: Validation failed: .* is out of range" -- \
    "$isect" check --family ray_triangle --mesh "$work/binary_cut.ply" --cases 10
head -c 300 "$meshes/octahedron.ply" >"$work/ascii_cut.ply"
expect 2 "--mesh $work/ascii_cut.ply: line 20 is its last: its header \\(vertex 6, face 8\\) declares 14 element lines" -- \
    "$isect" check --family ray_triangle --mesh "$work/ascii_cut.ply" --cases 10
head -c 200 "$meshes/octahedron.ply" >"$work/header_cut.ply"
expect 2 "--mesh $work/header_cut.ply: line 10 is its last, and its header has no end_header" -- \
    "$isect" check --family ray_triangle --mesh "$work/header_cut.ply" --cases 10
head -c 100 "$work/binary_cut.ply" >"$work/binary_header_cut.ply"  # assimp loops for ever on it
expect 2 "--mesh $work/binary_header_cut.ply: the mesh reader \\(assimp\\) did not finish within 10 s" -- \
    "$isect" check --family ray_triangle --mesh "$work/binary_header_cut.ply" --cases 10

# Usage errors name what is wrong.
expect 2 "--relation 'leaky' is not symmetric, monotone, watertight or rotation" -- "$isect" check --relation leaky --cases 10
expect 2 "--relation watertight applies to no family checked \\(aabb_aabb has no triangles" -- \
    "$isect" check --family aabb_aabb --relation watertight --cases 10 --out "$work/u"

# The witness: a case that names its relation; replayed, it breaks the
# kernel that broke it and no kernel that keeps it; promoted, the corpus
# replays (the built-ins that claim watertight hold it there).
witness=$(ls "$work/strict"/*watertight*.case | head -1)
if grep -q "^relation  watertight$" "$witness"; then echo "ok: the witness names its relation"
else echo "FAIL: no relation line in $witness"; cat "$witness"; fail=1; fi
expect 1 "breaks the relation watertight: misses the triangle and the [13] closing it around its (edge|vertex)" -- "$isect" replay "$witness" --kernel broken:strict_edges
expect 0 "1 passed" -- "$isect" replay "$witness" --kernel broken:strict_edges --expect-broken
expect 0 "1 passed" -- "$isect" replay "$witness" --kernel watertight
expect 1 "breaks the relation watertight" -- "$isect" replay "$witness" --plugin "$kernels/mt_strict_edges.so"
expect 0 "promoted .* -> $work/corpus/ray_triangle/" -- "$isect" promote "$witness" --corpus "$work/corpus"
expect 0 "1 passed" -- "$isect" replay "$work/corpus"
# The findings database: the next run replays the witness first, still failing.
expect 1 "findings replayed first: .*still failing" -- \
    "$isect" check --family ray_triangle --kernel broken:strict_edges --cases 10 --seed 2 --out "$work/strict"
exit $fail
