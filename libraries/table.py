#!/usr/bin/env python3
"""Checks every library row (libraries/CMakeLists.txt builds them) and
writes docs/libraries.md: one row per library, function and family, with
the Debian package's version, the contract, what the wrapper declares, the
verdict, the classes, the principal witness, cases/s and, for every BROKEN
class, the reviewed judgement below (ROWS). A BROKEN class no judgement
names is printed as UNREVIEWED and the command fails: a new finding must be
reviewed (a genuine defect, a documented limitation, a convention, or a bug
in isect, to be fixed there) before the table is committed.

usage: table.py ISECT LIBRARY_PLUGIN_DIR OUT.md [--cases N] [--row NAME]
Run through `./isect libraries`, which installs the packages and builds
the wrappers first.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field


@dataclass
class Row:
    library: str       # as the table names it
    package: str       # the Debian package whose version is shown
    plugin: str        # the wrapper's target (libraries/CMakeLists.txt)
    function: str      # what is called, as its documentation names it
    claim: str         # the contract its documentation claims, in its words ("none": tolerant=1 is asked)
    contract: str = "tolerant=1"
    args: list = field(default_factory=list)   # --domain, --precision: what the row adds to the wrapper's own
    review: dict = field(default_factory=dict)  # class text (a part of it) -> (kind, judgement)


D20 = ["--domain", "2^-20:2^20"]
D10 = ["--domain", "2^-10:2^10"]
DOUBLE = ["--precision", "double"]

GENUINE, LIMITATION, CONVENTION, DESIGN = "genuine defect", "documented limitation", "convention", "by design"
BOX_IMAGE = {"cuts box": (GENUINE, "rounding: the box cuts the exact image by up to 2 u·M (K = 2); a caller culling with it "
                                   "must pad it")}
GLM_SPHERE = {
    "output t_enter": (GENUINE, "t0 − t1 cancels for a far ball (the textbook root)"),
    "false ": (GENUINE, "\\|diff\\|² − t0² cancels (a far ball, a ray through the centre), and both epsilons are "
                        "absolute (FLT_EPSILON on t0 − t1 and on the distance)"),
}
CCD_TOLERANCE = {
    "false ": (LIMITATION, "CCD_INIT's tolerances are absolute (MPR 1e-4, distance 1e-6): shapes smaller or nearer "
                           "than that are decided by them; with every magnitude ≥ 2⁻² it holds (rows below)"),
    "hang": (GENUINE, "`ccdMPRIntersect` never returns (over 20 s) on a flat box (a half-extent 0) far from the origin"),
}

# Classes that appeared once the ray_triangle band stopped calling every ray
# whose det could reach 0 flippable (each witness checked by moving its
# near-degenerate vertex away: the library then answers right).
EMBREE_FLAT = (DESIGN, "float rounding where the triangle, seen along the ray, is flat to within an ulp (a sliver "
                       "whose vertex lies 2⁻²⁴ from the line of the other two, or a ray an ulp from parallel to an "
                       "edge): its edge functions are rounding noise, and a ray up to a unit beside it is hit (K about "
                       "10⁶); with that vertex moved 0.1 away every witness is a miss. Embree promises no precision")

ROWS = [
    Row("Embree 3", "libembree-dev", "embree_intersect1", "`rtcIntersect1`, default scene", "none", args=D20,
        review={"false hit": EMBREE_FLAT}),
    Row("Embree 3", "libembree-dev", "embree_robust", "`rtcIntersect1`, `RTC_SCENE_FLAG_ROBUST`", "none", args=D20,
        review={"output ": (GENUINE, "with the ray's origin on a vertex (a hit at t = 0) the robust intersector gives "
                                     "another vertex's barycentrics (u = 0 where the hit is b, u = 1)"),
                "false hit": EMBREE_FLAT}),
    Row("Bullet 3", "libbullet-dev", "bullet_ray_aabb2", "`btRayAabb2`", "none", args=D20),
    Row("Bullet 3", "libbullet-dev", "bullet_ray_aabb", "`btRayAabb` (double scalars)", "none", args=D10),
    Row("Bullet 3", "libbullet-dev", "bullet_aabb_aabb", "`TestAabbAgainstAabb2`", "none", args=D20),
    Row("Bullet 3", "libbullet-dev", "bullet_triangle_aabb", "`TestTriangleAgainstAabb2`", "none", args=D20,
        review={"false hit": (DESIGN, "it tests the triangle's bounding box, a prefilter: holds conservative (next row)")}),
    Row("Bullet 3", "libbullet-dev", "bullet_triangle_aabb", "`TestTriangleAgainstAabb2`", "none", "conservative", args=D20),
    Row("Bullet 3", "libbullet-dev", "bullet_transform_aabb", "`btTransformAabb`", "none", args=D20, review=BOX_IMAGE),
    Row("FCL 0.7", "libfcl-dev", "fcl_obb_overlap", "`OBB::overlap`", "none", args=D20 + DOUBLE,
        review={"false hit": (DESIGN, "conservative: `obbDisjoint` adds 1e-6 to \\|R\\| against near-parallel axes; "
                                      "holds conservative (next row)")}),
    Row("FCL 0.7", "libfcl-dev", "fcl_obb_overlap", "`OBB::overlap`", "none", "conservative", args=D20 + DOUBLE,
        review={"false miss": (GENUINE, "rounding: the padding covers the edge-edge axes only, so a contact along a "
                                        "face axis can be missed (a point box at the other's corner): neither "
                                        "conservative nor tolerant=1")}),
    Row("FCL 0.7", "libfcl-dev", "fcl_aabb_overlap", "`AABB::overlap`", "none", args=D20 + DOUBLE),
    Row("FCL 0.7", "libfcl-dev", "fcl_aabb_part", "`AABB::overlap(other, overlap_part)`", "none", args=D20 + DOUBLE),
    Row("FCL 0.7", "libfcl-dev", "fcl_triangles", "`Intersect::intersect_Triangle`", "none", args=D20 + DOUBLE,
        review={"false hit": (DESIGN, "rounding of its 11-axis separating test in double: the witness separates along "
                                      "the planes' common line, an edge-edge axis of nearly parallel edges, by about 10⁻¹¹ "
                                      "of its size (K 3.8·10⁵); one case in 200,000, and FCL promises no precision")}),
    Row("FCL 0.7", "libfcl-dev", "fcl_seg_points", "`TriangleDistance::segPoints`", "none", args=D10),
    Row("FCL 0.7", "libfcl-dev", "fcl_sphere_box", "`sphereBoxIntersect`", "\"colliding (including touching)\"", args=D10),
    Row("ODE 0.16", "libode-dev", "ode_ray_sphere", "`dCollide(ray, sphere)`", "none", args=D10),
    Row("ODE 0.16", "libode-dev", "ode_ray_box", "`dCollide(ray, box)`", "none", args=D10),
    Row("ODE 0.16", "libode-dev", "ode_sphere_box", "`dCollide(sphere, box)`", "none", args=D10),
    Row("ODE 0.16", "libode-dev", "ode_box_box", "`dCollide(box, box)`", "none", args=D10,
        review={"false miss": (GENUINE, "no contact for nearly parallel boxes (axes 3·10⁻⁶ rad apart) overlapping face "
                                        "to face by 0.5; with equal axes it finds 6")}),
    Row("glm 0.9.9", "libglm-dev", "glm_ray_triangle", "`intersectRayTriangle` (vec3)", "none", args=D20,
        review={"false miss": (GENUINE, "an absolute epsilon on the determinant (`epsilon<T>()`) misses small triangles"),
                "behind the origin": (GENUINE, "hits behind the origin: a negative distance is never rejected"),
                "false hit (beyond": (DESIGN, "Möller–Trumbore's rounding in float on a ray an ulp from parallel to "
                                              "the plane (d·n about 6·10⁻⁸ of \\|d\\|·\\|n\\|, its origin in the "
                                              "plane): u and v are rounding noise (K 8·10⁵); tilted to d·n of 10⁻² the "
                                              "same ray misses. The absolute epsilon lets it through where a bound "
                                              "relative to det's own rounding would not"),
                "false hit (coplanar": (DESIGN, "the same rounding on a ray lying in the triangle's plane (a vertical "
                                                "plane: the witness keeps it whatever the third vertex's z): with z "
                                                "−0.50000024 or −0.6 det's float products round to noise above the "
                                                "absolute epsilon and it hits; with z −0.5 or −0.625 (exact products) "
                                                "det is 0 and it misses, and tilted out of the plane it misses")}),
    Row("glm 0.9.9", "libglm-dev", "glm_ray_triangle", "`intersectRayTriangle` (dvec3)", "none", args=D20 + DOUBLE,
        review={"false miss": (GENUINE, "an absolute epsilon on the determinant (`epsilon<T>()`) misses small triangles"),
                "behind the origin": (GENUINE, "hits behind the origin: a negative distance is never rejected"),
                "false hit (beyond": (DESIGN, "Möller–Trumbore's rounding in double at a grazing angle (d·n about 10⁻⁶ of "
                                              "\|d\|·\|n\|): u + v is off by about 10⁵ roundings (K 8.7·10⁴), as any "
                                              "Möller–Trumbore in double is; glm promises no precision"),
                "false hit (coplanar": (DESIGN, "a ray in the triangle's plane whose det in double is rounding noise "
                                                "above the absolute epsilon: with the vertex y −0.9999999999999998 it "
                                                "hits; with −1 (exact products), or the ray tilted out of the plane "
                                                "(d.y 2.5), it misses")}),
    Row("glm 0.9.9", "libglm-dev", "glm_line_triangle", "`intersectLineTriangle` (vec3)", "none", args=D20,
        review={"false miss": (GENUINE, "an absolute epsilon on the determinant (`epsilon<T>()`) misses small triangles: "
                                        "the witness scaled by 2⁸ is a hit"),
                "false hit (beyond": (DESIGN, "Möller–Trumbore's rounding in float on a line an ulp from parallel to "
                                              "the plane (a vertex nudged by 2⁻²⁴ off the plane parallel to the line): "
                                              "u and v are rounding noise (K about 10⁶); with that vertex moved 0.1 "
                                              "away each witness is a miss. The absolute epsilon lets it through where "
                                              "a bound relative to det's own rounding would not"),
                "false hit (coplanar": (DESIGN, "the same rounding on a line in the triangle's plane: with the third "
                                                "vertex's z 0.50000024 det is noise above the absolute epsilon and it "
                                                "hits; with 0.5 (exact products) it misses")}),
    Row("glm 0.9.9", "libglm-dev", "glm_line_triangle", "`intersectLineTriangle` (dvec3)", "none", args=D20 + DOUBLE,
        review={"output ": (GENUINE, "the determinant is declared `float` in the template, so on dvec3 it is rounded to "
                                     "float: t, u and v are off by up to 2⁻²⁴ of their size (the witness with its vertex "
                                     "0.5000000596 set to 0.5, where that rounding is exact, gives the exact numbers)"),
                "false hit": (GENUINE, "the float determinant: u + v just above 1 comes out at most 1"),
                "false miss": (GENUINE, "an absolute epsilon on the determinant (`epsilon<T>()`) misses small triangles")}),
    Row("glm 0.9.9", "libglm-dev", "glm_ray_sphere_distance", "`intersectRaySphere`, distance (vec3)", "none", args=D20,
        review=GLM_SPHERE),
    Row("glm 0.9.9", "libglm-dev", "glm_ray_sphere_distance", "`intersectRaySphere`, distance (dvec3)", "none",
        args=D20 + DOUBLE, review=GLM_SPHERE),
    Row("glm 0.9.9", "libglm-dev", "glm_ray_sphere_point", "`intersectRaySphere`, position and normal (vec3)", "none",
        args=D20, review=GLM_SPHERE),
    Row("Eigen 3.4", "libeigen3-dev", "eigen_intersects", "`AlignedBox::intersects`", "none", args=D20),
    Row("Eigen 3.4", "libeigen3-dev", "eigen_intersection", "`AlignedBox::intersection`", "none", args=D20),
    Row("Eigen 3.4", "libeigen3-dev", "eigen_transform", "`AlignedBox::transform(Affine3f)`", "none", args=D20,
        review=BOX_IMAGE),
    Row("Eigen 3.4", "libeigen3-dev", "eigen_sphere", "`AlignedBox::squaredExteriorDistance`, `contains`", "none", args=D20),
    Row("Irrlicht 1.8", "libirrlicht-dev", "irrlicht_box_box", "`aabbox3d::intersectsWithBox`", "none", args=D20),
    Row("Irrlicht 1.8", "libirrlicht-dev", "irrlicht_plane_relation", "`aabbox3d::classifyPlaneRelation`", "none", args=D20),
    Row("Irrlicht 1.8", "libirrlicht-dev", "irrlicht_triangle_box", "`triangle3d::isTotalOutsideBox`",
        "\"true if triangle is outside the box\"", args=D20,
        review={"false hit": (LIMITATION, "it tests the triangle's bounding box against the box, axis by axis: "
                                          "holds conservative (next row)")}),
    Row("Irrlicht 1.8", "libirrlicht-dev", "irrlicht_triangle_box", "`triangle3d::isTotalOutsideBox`",
        "\"true if triangle is outside the box\"", "conservative", args=D20),
    Row("OpenSceneGraph 3.6", "libopenscenegraph-dev", "osg_box_intersects", "`BoundingBox::intersects`", "none", args=D20),
    Row("OpenSceneGraph 3.6", "libopenscenegraph-dev", "osg_box_intersect", "`BoundingBox::intersect`", "none", args=D20),
    Row("OpenSceneGraph 3.6", "libopenscenegraph-dev", "osg_plane_box", "`Plane::intersect(BoundingBox)`", "none", args=D20),
    Row("OpenSceneGraph 3.6", "libopenscenegraph-dev", "osg_segment_box", "`LineSegment::intersect(BoundingBox)`", "none",
        args=D10),
    Row("OpenSceneGraph 3.6", "libopenscenegraph-dev", "osg_segment_ratios", "`LineSegment::intersectAndComputeRatios`",
        "none", args=D10),
    Row("Coin3D 4.0", "libcoin-dev", "coin_box_closest", "`SbBox3f::getClosestPoint`",
        "\"the point on the box closest to the given point\"", args=D20,
        review={"output closest": (GENUINE, "the face is the one of the axis where the point deviates most from the box's "
                                            "centre, not the nearest: inside a box that is not a cube the point lands on a "
                                            "farther face, and outside beside a long face it is moved onto an end face, "
                                            "then clamped"),
                "false miss": (GENUINE, "the same choice of face: the wrapper answers from Coin's point, which for a "
                                        "ball beside a long face lies on an end face, farther than the radius")}),
    Row("Coin3D 4.0", "libcoin-dev", "coin_box_intersect", "`SbBox3f::intersect(SbBox3f)`", "none", args=D20),
    Row("OGRE 1.12", "libogre-1.12-dev", "ogre_box_box", "`AxisAlignedBox::intersects(AxisAlignedBox)`", "none", args=D20),
    Row("OGRE 1.12", "libogre-1.12-dev", "ogre_sphere_box", "`Math::intersects(Sphere, AxisAlignedBox)`", "none", args=D20),
    Row("OGRE 1.12", "libogre-1.12-dev", "ogre_plane_box", "`Plane::getSide(AxisAlignedBox)`", "none", args=D20),
    Row("OGRE 1.12", "libogre-1.12-dev", "ogre_ray_box", "`Math::intersects(Ray, AxisAlignedBox, d1, d2)`",
        "\"0 <= d1 <= d2\"", args=D20),
    Row("OGRE 1.12", "libogre-1.12-dev", "ogre_ray_sphere", "`Math::intersects(Ray, Sphere)`", "none", args=D20,
        review={"false hit (the ball is behind": (GENUINE, "no test that a root lies ahead: where the line meets the ball "
                                                          "behind the origin it answers hit with a negative distance (a ball "
                                                          "at z = −5, the ray from 0 along +z: hit, t = −4; along −z: t = 4)"),
                "output t_enter": (GENUINE, "the textbook root (−b − √(b² − 4ac)) / 2a in float: b² − 4ac and −b − √d "
                                            "cancel for a far ball"),
                "false ": (GENUINE, "b² − 4ac cancels in float (a far ball, a ray grazing it, a ball of radius 0 beside "
                                    "the ray): its sign is rounding")}),
    Row("OGRE 1.12", "libogre-1.12-dev", "ogre_ray_triangle", "`Math::intersects(Ray, a, b, c)`", "none", args=D20,
        review={"false miss": (GENUINE, "an absolute epsilon: a ray is missed wherever n · d ≤ FLT_EPSILON (1.19·10⁻⁷), n = "
                                        "(b − a) × (c − a) unnormalised, so a triangle of legs 10⁻⁴ is never hit by a unit "
                                        "ray straight on (legs 10⁻³ are); checked on the Debian library by scaling the "
                                        "witness"),
                "false hit": (DESIGN, "a tolerance of 10⁻⁶ on the barycentrics: a point up to 10⁻⁶ of the triangle's size "
                                      "beyond an edge is hit at every scale (0.99·10⁻⁶ below an edge of the unit "
                                      "triangle: hit; 1.01·10⁻⁶: miss; the same at sizes 2⁻¹⁰ and 2¹⁰), which for a "
                                      "sliver is far wider than its width. OGRE promises no precision")}),
    Row("Ignition Math 6", "libignition-math-dev", "ignition_box_box", "`AxisAlignedBox::Intersects`", "none",
        args=DOUBLE + D20),
    Row("Ignition Math 6", "libignition-math-dev", "ignition_plane_box", "`Planed::Side(AxisAlignedBox)`", "none",
        args=DOUBLE + D20),
    Row("Ignition Math 6", "libignition-math-dev", "ignition_segment_box", "`AxisAlignedBox::Intersect(Line3d)`", "none",
        args=D10),
    Row("GTS 0.7", "libgts-dev", "gts_box_box", "`gts_bboxes_are_overlapping`", "none", args=DOUBLE + D20),
    Row("GTS 0.7", "libgts-dev", "gts_box_triangle", "`gts_bbox_overlaps_triangle`",
        "\"TRUE if bb overlaps with t\"", args=DOUBLE + D20,
        review={"false ": (GENUINE, "it decides to float precision inside a double API: an overlap or a gap thinner than "
                                    "about 2⁻²³ of the inputs' size is decided wrong at every scale (a triangle's edge "
                                    "2⁻²⁴ of the size into a unit box: disjoint; 2⁻²²: overlap; the same at sizes 2⁻¹⁰ "
                                    "and 2¹⁰, on the Debian library)")}),
    Row("OpenVDB 10", "libopenvdb-dev", "openvdb_box_box", "`math::BBox::hasOverlap`", "none", args=D20,
        review={"false hit": (GENUINE, "an absolute tolerance (Tolerance<float> = 10⁻⁸) on every comparison: boxes of size "
                                       "10⁻⁶ that are 5·10⁻⁹ apart overlap, the same scaled by 2¹⁰ or 2²⁰ do not; above "
                                       "about 0.1 the tolerance is below an ulp and touching boxes are disjoint "
                                       "(strict comparisons, inside the band)")}),
    Row("OpenVDB 10", "libopenvdb-dev", "openvdb_ray_box", "`math::Ray::intersects(BBox, t0, t1)`", "none", args=D20),
    Row("OpenVDB 10", "libopenvdb-dev", "openvdb_ray_sphere", "`math::Ray::intersects(center, radius, t0, t1)`", "none",
        args=D20,
        review={"origin": (GENUINE, "t1 = C/Q is 0/0 where C = |o − c|² − r² is 0 (the origin on the sphere, or within "
                                    "rounding of it) and the ray heads in (Q = 0): NaN, and the ray misses (origin 0, "
                                    "direction +z, a ball of radius 1 at (0, 0, 1): miss, t1 NaN, on the Debian library)"),
                "output t_": (GENUINE, "the discriminant B² − 4AC cancels in float for a far ball: t off by about 200 "
                                       "ulps on the witness, and by far more on others (E up to 2.2·10⁶ on the row's "
                                       "200,000 cases)"),
                "false ": (GENUINE, "B² − 4AC cancels in float (a far ball, a grazing ray, a ball of radius 0 beside "
                                    "the ray): its sign is rounding")}),
    Row("Open3D 0.16", "libopen3d-dev", "open3d_box_box", "`IntersectionTest::AABBAABB`", "none", args=DOUBLE + D20),
    Row("Open3D 0.16", "libopen3d-dev", "open3d_triangle_box", "`IntersectionTest::TriangleAABB`", "none", args=D10),
    Row("libccd 2.1", "libccd-dev", "ccd_gjk_obb", "`ccdGJKIntersect` (boxes)", "none", args=D20, review=CCD_TOLERANCE),
    Row("libccd 2.1", "libccd-dev", "ccd_gjk_obb", "`ccdGJKIntersect` (boxes)", "none", args=["--domain", "2^-2:2^10"]),
    Row("libccd 2.1", "libccd-dev", "ccd_mpr_obb", "`ccdMPRIntersect` (boxes)", "none", args=D20, review=CCD_TOLERANCE),
    Row("libccd 2.1", "libccd-dev", "ccd_mpr_obb", "`ccdMPRIntersect` (boxes)", "none", args=["--domain", "2^-2:2^10"]),
    Row("libccd 2.1", "libccd-dev", "ccd_mpr_sphere", "`ccdMPRIntersect` (ball, box)", "none", args=D10,
        review=CCD_TOLERANCE),
] + [
    Row("CGAL 5.5", "libcgal-dev", "cgal_epick", f"Epick `do_intersect`: {what}", "exact predicates", "exact",
        args=["--family", family] + (D10 if family in ("segment_aabb", "ray_aabb", "ray_triangle", "ray_sphere") else []))
    for family, what in [("aabb_aabb", "`Iso_cuboid_3`, `Iso_cuboid_3`"), ("aabb_triangle", "`Iso_cuboid_3`, `Triangle_3`"),
                         ("aabb_plane_overlap", "`Iso_cuboid_3`, `Plane_3`"), ("sphere_aabb", "`Sphere_3`, `Iso_cuboid_3`"),
                         ("ray_aabb", "`Ray_3`, `Iso_cuboid_3`"), ("segment_aabb", "`Segment_3`, `Iso_cuboid_3`"),
                         ("ray_triangle", "`Ray_3`, `Triangle_3`"), ("ray_sphere", "`Ray_3`, `Sphere_3`"),
                         ("triangle_triangle", "`Triangle_3`, `Triangle_3`"), ("segment_segment", "`Segment_3`, `Segment_3`")]
]


def machine():
    model = "unknown cpu"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{model}, {os.cpu_count()} cpus"


def package_version(package):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return out.stdout.strip() or "not installed"


def run_row(isect, plugins, row, cases, work):
    out = os.path.join(work, "-".join([row.plugin, row.contract, *row.args]).replace("/", "_").replace(":", "_"))
    cmd = [isect, "check", "--plugin", os.path.join(plugins, row.plugin + ".so"), "--contract", row.contract,
           "--cases", str(cases), "--seed", "1", "--jobs", "1", "--quiet", "--format", "json", "--out", out, *row.args]
    start = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{row.plugin}: isect exited {proc.returncode}: {proc.stderr.strip()[:400]}")
    report = json.loads(proc.stdout)
    with open(os.path.join(out, "report.json"), "w") as f:
        f.write(proc.stdout)
    shown = ["isect", "check", "--plugin", f"build/libraries/{row.plugin}.so", "--contract", row.contract,
             "--cases", str(cases), "--seed", "1", *row.args]
    return report, time.time() - start, " ".join(shown)


def witness_text(family, cls):
    """The minimised witness as its case file's key lines, joined."""
    path = cls.get("case")
    if not path or not os.path.exists(path):
        return ""
    keep = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#") and not line.startswith("family") and not line.startswith("expect."):
            keep.append(" ".join(line.split()))
    return "; ".join(keep)


REPORTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reports")


def write_report(isect, plugins, row, cls, corpus_case):
    """isect report on the class's witness: libraries/reports/STEM-repro.cpp
    and STEM-issue.md, STEM the corpus case's name."""
    manifest = json.load(open(os.path.join(plugins, "rows.json")))[row.plugin]
    out = os.path.join(os.path.dirname(cls["case"]), "report")
    cmd = [isect, "report", cls["case"], "--plugin", os.path.join(plugins, row.plugin + ".so"), "--contract", row.contract,
           "--source", manifest["source"], "--from", os.path.join(os.path.dirname(cls["case"]), "report.json"),
           "--title", f"{row.library} ({row.package} {package_version(row.package)}), {row.function.replace('`', '')}",
           "--out", out]
    for d in manifest["defines"]:
        cmd += ["--define", d]
    if manifest["build"]:
        cmd += ["--build", manifest["build"]]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    # The issue body is kept beside the sources; the reproducer, which
    # inlines the wrapper, is written (again) beside the plugins: ctest
    # writes and runs each on its own (reproducer_test.sh).
    os.makedirs(REPORTS, exist_ok=True)
    os.makedirs(os.path.join(plugins, "reports"), exist_ok=True)
    stem = os.path.splitext(os.path.basename(corpus_case))[0]
    found = os.path.splitext(os.path.basename(cls["case"]))[0]
    for suffix, folder in (("-repro.cpp", os.path.join(plugins, "reports")), ("-issue.md", REPORTS)):
        text = open(os.path.join(out, found + suffix)).read().replace(found, stem)
        with open(os.path.join(folder, stem + suffix), "w") as f:
            f.write(text)
    return stem


def keep_in_corpus(corpus, fam, row, cls, judgement):
    """The class's minimised witness as a corpus case, once: an existing
    case of the row and judgement is kept as it is. Returns its path."""
    folder = os.path.join(corpus, fam["family"])
    stem = f"lib-{row.plugin}-{row.contract.replace('=', '')}" + ("-double" if fam["precision"] == "double" else "")
    os.makedirs(folder, exist_ok=True)
    n = 1
    while os.path.exists(os.path.join(folder, f"{stem}-{n}.case")):
        if judgement in open(os.path.join(folder, f"{stem}-{n}.case")).read():
            return os.path.join(folder, f"{stem}-{n}.case")
        n += 1
    body = open(cls["case"]).read()
    header = (f"# {row.library} ({row.package} {package_version(row.package)}), {row.function.replace('`', '')}: "
              f"{describe(cls)}.\n# Genuine defect: {judgement}.\n# Kept by libraries/table.py; replayed against "
              f"the wrapper libraries/{row.plugin} (label libraries) and the built-in kernels.\n")
    with open(os.path.join(folder, f"{stem}-{n}.case"), "w") as f:
        f.write(header + "".join(l for l in body.splitlines(True) if not l.startswith("#")))
    return os.path.join(folder, f"{stem}-{n}.case")


def describe(cls):
    """The class as the text report names it: what went wrong, and the
    exact test that decides it."""
    return cls["what"] + (f" ({cls['decided']})" if cls.get("decided") else "")


def judge(row, cls):
    for part, (kind, text) in row.review.items():
        if part in describe(cls) or part in cls.get("why", ""):
            return kind, text
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("isect")
    ap.add_argument("plugins")
    ap.add_argument("out")
    ap.add_argument("--cases", type=int, default=200000)
    ap.add_argument("--row", action="append", help="only these plugins (the table is then not written)")
    ap.add_argument("--corpus", help="keep each genuine defect's minimised witness in CORPUS/FAMILY/lib-PLUGIN-CONTRACT-N.case")
    a = ap.parse_args()
    rows = [r for r in ROWS if not a.row or r.plugin in a.row]
    lines, commands, unreviewed, reports = [], [], [], []
    with tempfile.TemporaryDirectory() as work:
        for i, row in enumerate(rows, 1):
            if not os.path.exists(os.path.join(a.plugins, row.plugin + ".so")):
                lines.append(f"| {row.library} | {row.function} | - | - | - | not built: {row.package} is not installed | | | | |")
                continue
            report, seconds, command = run_row(a.isect, a.plugins, row, a.cases, work)
            fam = report["families"][0]
            k = fam["kernels"][0]
            family = fam["family"] + (" (double)" if fam["precision"] == "double" else "")
            declared = ", ".join(list(dict.fromkeys([*fam.get("requires", []), *fam.get("conventions", [])])) +
                                 ([] if fam["domain"].startswith("every finite") else ["domain " + fam["domain"]]))
            verdict = "holds" if k["verdict"] == "holds" else f"**BROKEN** ({k['violations']} of {k['cases']})"
            classes, judgements, witness = [], [], ""
            for c in k["classes"]:
                classes.append(f"{c['count']} × {describe(c)}")
                j = judge(row, c)
                if j is None:
                    judgements.append(f"UNREVIEWED: {describe(c)}")
                    unreviewed.append(f"{row.plugin} {' '.join(row.args)}: {describe(c)}: {c['why']}: {witness_text(fam['family'], c)}")
                elif j[1] not in judgements and f"{j[0]}: {j[1]}" not in judgements:
                    judgements.append(f"{j[0]}: {j[1]}")
                    if j[0] == GENUINE and a.corpus:
                        kept = keep_in_corpus(a.corpus, fam, row, c, j[1])
                        reports.append(write_report(a.isect, a.plugins, row, c, kept))
            if k["classes"]:
                witness = f"{k['classes'][0]['why']}: `{witness_text(fam['family'], k['classes'][0])}`"
                if a.corpus and not any((judge(row, c) or ("",))[0] == GENUINE for c in k["classes"]):
                    # No genuine defect to keep in the corpus: the principal
                    # witness and its report, so that every BROKEN row has a
                    # reproducer a maintainer can run.
                    stem = f"lib-{row.plugin}-{row.contract.replace('=', '')}" + \
                           ("-double" if fam["precision"] == "double" else "") + "-principal"
                    os.makedirs(REPORTS, exist_ok=True)
                    kept = os.path.join(REPORTS, stem + ".case")
                    with open(kept, "w") as out:
                        out.write(f"# {row.library}, {row.function.replace('`', '')}: {describe(k['classes'][0])}; "
                                  f"{(judge(row, k['classes'][0]) or ('unreviewed',))[0]}.\n" + open(k["classes"][0]["case"]).read())
                    reports.append(write_report(a.isect, a.plugins, row, k["classes"][0], kept))
            speed = f"{fam['cases_per_second']:.0f}"
            lines.append(f"| {row.library} {package_version(row.package)} | {row.function} | {family} | "
                         f"{row.contract} ({row.claim}) | {declared or '-'} | {verdict} | "
                         f"{'<br>'.join(classes) if classes else '-'} | {witness or '-'} | {speed} | "
                         f"{'<br>'.join(judgements) if judgements else '-'} | [{i}](#row-{i}) |")
            commands.append(f"<a id=\"row-{i}\"></a>{i}. `{command}`")
            print(f"{row.plugin}: {k['verdict']} ({len(k['classes'])} classes), {speed} cases/s", file=sys.stderr)
    if unreviewed:
        print("UNREVIEWED classes:\n  " + "\n  ".join(unreviewed), file=sys.stderr)
    if a.row:
        print("\n".join(lines))
        return 1 if unreviewed else 0
    header = open(os.path.join(os.path.dirname(__file__), "libraries.md.in")).read()
    with open(a.out, "w") as f:
        f.write(header.replace("@CASES@", str(a.cases)))
        libraries = sorted({r.library for r in rows})
        f.write(f"**{len(lines)} rows from {len(libraries)} libraries** ({', '.join(libraries)}); "
                f"{sum('**BROKEN**' in l for l in lines)} BROKEN, "
                f"{sum(GENUINE in l for l in lines)} with a genuine defect. Measured {time.strftime('%Y-%m-%d')} on "
                f"{machine()}.\n\n")
        f.write("| library (Debian version) | function | family | contract (documentation's claim) | declared | verdict | "
                "classes | principal witness | cases/s | judgement | command |\n")
        f.write("|---|---|---|---|---|---|---|---|---:|---|---|\n")
        f.write("\n".join(lines) + "\n\n## Commands\n\nEach row, from the project's root after `./isect libraries`:\n\n")
        f.write("\n".join(commands) + "\n")
        f.write("\n## Reports a maintainer can act on\n\nFor each genuine defect, and for the principal witness of "
                "every other BROKEN row, `isect report` wrote an issue body (below) and a reproducer that includes only "
                "the library (the wrapper's few lines inlined, the input as hexfloats) and prints its answer beside the "
                "exact one: `./isect libraries` writes each reproducer to `build/libraries/reports/NAME-repro.cpp`, "
                "and ctest writes, compiles and runs each (label `libraries`).\n\n")
        for stem in sorted(set(reports)):
            f.write(f"- [{stem}](../libraries/reports/{stem}-issue.md)\n")
    return 1 if unreviewed else 0


if __name__ == "__main__":
    sys.exit(main())
