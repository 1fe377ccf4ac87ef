/* isect plugin ABI, version 2.
 *
 * A plugin is a shared library exporting isect_abi_version and any subset of
 * the family functions below; `isect check --plugin PATH` checks every
 * family it exports against the exact references, under the contract given
 * on the command line. All sets are closed: touching counts as meeting.
 * Inputs are floats; a function must not keep pointers past its return.
 *
 * Version 2 adds a double-precision entry point for every family,
 * isect_FAMILY_d, with the same arguments as doubles (declared at the end);
 * `isect check --precision double` checks those, with contracts in units
 * of 2^-53. Version 1 plugins (floats only) load as before.
 * Outputs a kernel does not compute (an exit parameter, say) may be left
 * untouched: isect then does not check them. It
 * runs in a child process of the checker, so a crash, a hang or a bad
 * answer becomes a finding, never the checker's failure.
 *
 * Any family may also have a batch entry, isect_FAMILY_batch (and
 * isect_FAMILY_batch_d), for kernels that test 4 or 8 inputs at once: see
 * ISECT_BATCH at the end. isect then hands it up to ISECT_BATCH_MAX (1024)
 * inputs per call, never more.
 *
 * Build one with isect's CMake package:
 *     find_package(isect REQUIRED)
 *     isect_add_plugin(my_kernels my_kernels.c)
 */
#ifndef ISECT_PLUGIN_H
#define ISECT_PLUGIN_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define ISECT_PLUGIN_EXPORT __declspec(dllexport)
#else
#define ISECT_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#define ISECT_ABI_VERSION 2

/* Required. Returns ISECT_ABI_VERSION (2; 1 for a plugin of floats only
   built against version 1). */
ISECT_PLUGIN_EXPORT int isect_abi_version(void);

/* Optional: a name for reports (default: the file name). */
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void);

/* Optional: the domain the kernels are meant for. Every nonzero input of a
   judged case then has a magnitude in [*lo, *hi] (zeros always stay in);
   `isect check --domain LO:HI` overrides it. Without it, every finite float. */
ISECT_PLUGIN_EXPORT void isect_domain(double* lo, double* hi);

/* Optional: the preconditions the kernels declare, comma-separated, as
   `isect check --require` takes them ("nonzero_direction,proper_triangle";
   `isect kernels` lists each family's). Only inputs that meet those a
   family has are generated and judged; `--require` overrides it. */
ISECT_PLUGIN_EXPORT const char* isect_requires(void);

/* Optional: the conventions the kernels follow, comma-separated, as
   `isect check --convention` takes them: "surface" (ray_sphere: the
   sphere's first and last crossings in [0, tmax], so from inside the ball
   the exit, as glm and three.js answer), "cull_back" (ray_triangle: only
   the front face, whose normal (b - a) x (c - a) points against dir, counts;
   a ray in the plane misses), "line" (ray_sphere, ray_triangle, ray_aabb:
   the whole line, t over all reals, tmax not read), "touching_straddles"
   (aabb_plane: a box touching the plane is on both sides),
   "volume_overlap" (aabb_aabb: a meet without volume is no overlap),
   "inward_normal" (ray_aabb, segment_aabb: the entry normal points into
   the box, as Bullet's btRayAabb). A convention changes the exact answer
   the kernel is judged against; `--convention` overrides it; `isect
   kernels` says each. */
ISECT_PLUGIN_EXPORT const char* isect_conventions(void);

/* Optional: the relations between calls the kernels claim besides their
   contract, comma-separated, as `isect check --relation` takes them:
   "symmetric" (two-object families: the same answer with the arguments
   swapped), "monotone" (ray_triangle, ray_sphere: a hit at tmax stays a
   hit, with the same entry, at every larger tmax), "watertight"
   (ray_triangle: a ray through the interior of an edge two triangles share
   hits at least one of them). Each is judged like the contract;
   `--relation` overrides it. */
ISECT_PLUGIN_EXPORT const char* isect_relations(void);

/* aabb_triangle. Closed box [lo, hi] vs closed triangle a = tri[0..2],
   b = tri[3..5], c = tri[6..8]. Returns 1 if they share a point, 0 if not. */
ISECT_PLUGIN_EXPORT int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]);

/* ray_triangle. Ray org + t*dir, t in [0, tmax] (tmax may be +inf), vs
   closed triangle, two-sided. On a hit returns 1 and writes t and the
   barycentrics u (of b) and v (of c); else returns 0. */
ISECT_PLUGIN_EXPORT int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9],
                                           float* t, float* u, float* v);

/* ray_aabb: org + t*dir, t >= 0; segment_aabb: org + t*delta, t in [0, 1];
   vs the closed box [lo, hi]. On a hit return 1 and write the entry and exit
   parameters and the outward normal of the entry face ((0, 0, 0) when org is
   inside; at an edge or corner any face met there); else return 0. */
ISECT_PLUGIN_EXPORT int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3],
                                       float* t_enter, float* t_exit, float normal[3]);
ISECT_PLUGIN_EXPORT int isect_segment_aabb(const float org[3], const float delta[3], const float lo[3],
                                           const float hi[3], float* t_enter, float* t_exit, float normal[3]);

/* aabb_plane: the side of the plane n . x = d the closed box is on: 1 front
   (least n . x >= d, so touching from the front and lying in the plane are
   front), -1 back (greatest n . x <= d), 0 straddling. */
ISECT_PLUGIN_EXPORT int isect_aabb_plane(const float lo[3], const float hi[3], const float n[3], float d);

/* aabb_plane_overlap: 1 if the closed box meets the plane n . x = d. */
ISECT_PLUGIN_EXPORT int isect_aabb_plane_overlap(const float lo[3], const float hi[3], const float n[3], float d);

/* aabb_aabb: 1 if the closed boxes a and b meet, and then their
   intersection box in out_lo, out_hi; else 0. */
ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3],
                                        const float b_hi[3], float out_lo[3], float out_hi[3]);

/* sphere_aabb: 1 if the closed ball (c, r) meets the closed box; always
   writes the point of the box nearest c and whether c lies in the box. */
ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r,
                                          float closest[3], int* contains);

/* moving_aabb: the box [m_lo, m_hi] moves by t*d, t in [0, 1], against the
   stationary box [s_lo, s_hi]. Returns 1 and the first contact time, or 0. */
ISECT_PLUGIN_EXPORT int isect_moving_aabb(const float s_lo[3], const float s_hi[3], const float m_lo[3],
                                          const float m_hi[3], const float d[3], float* t);

/* moving_aabb_plane: the box moves by t*dir, t >= 0, against the plane
   n . x = d, from either side. Returns 1 and the first contact time, or 0. */
ISECT_PLUGIN_EXPORT int isect_moving_aabb_plane(const float lo[3], const float hi[3], const float n[3], float d,
                                                const float dir[3], float* t);

/* transformed_aabb: a box containing the image of [lo, hi] under
   p' = m p + t (m row-major: p'_i = m[3i] p_0 + m[3i+1] p_1 + m[3i+2] p_2 + t_i). */
ISECT_PLUGIN_EXPORT void isect_transformed_aabb(const float lo[3], const float hi[3], const float m[9],
                                                const float t[3], float out_lo[3], float out_hi[3]);

/* triangle_measures: returns 0 for a degenerate triangle, else 1 and writes
   out[0] area, out[1] u, out[2] v (barycentrics of p's projection: of b, of
   c), out[3..5] circumcentre, out[6] circumradius, out[7] the signed
   distance of p along (b - a) x (c - a). */
ISECT_PLUGIN_EXPORT int isect_triangle_measures(const float tri[9], const float p[3], float out[8]);

/* polygon_measures: a polygon of 5 vertices. Writes out[0..2] Newell's
   normal N, out[3] the plane offset (the average of p_i . N), out[4] the
   signed distance of q along N / |N|. Returns 1 if, seen along N, every
   vertex is on the left of or on every edge (convex), else 0. */
ISECT_PLUGIN_EXPORT int isect_polygon_measures(const float poly[15], const float q[3], float out[5]);

/* triangle_triangle: 1 if the closed triangles t1 and t2 (each a, b, c;
   collinear ones are segments, repeated ones points) share a point, else
   0. Optionally, where both are proper, not coplanar and meet, the ends of
   the segment where they do in seg_p and seg_q (in either order; equal for
   a single point); leave them untouched otherwise. */
ISECT_PLUGIN_EXPORT int isect_triangle_triangle(const float t1[9], const float t2[9], float seg_p[3], float seg_q[3]);

/* obb_obb: 1 if the closed oriented boxes meet, else 0. A box is a centre
   c, three axes (axes[0..2], axes[3..5], axes[6..8]) and three half-extents
   h >= 0: the points c + s0 h0 a0 + s1 h1 a1 + s2 h2 a2, |s_i| <= 1 (the
   parallelepiped the axes span, a rectangular box when they are
   orthonormal; declare orthonormal_axes if your kernel assumes it). */
ISECT_PLUGIN_EXPORT int isect_obb_obb(const float a_c[3], const float a_axes[9], const float a_h[3], const float b_c[3],
                                      const float b_axes[9], const float b_h[3]);

/* ray_sphere: org + t*dir, t in [0, tmax] (tmax may be +inf), vs the
   closed ball of centre c and radius r >= 0. On a hit returns 1 and writes
   t_enter, the least such t (0 when org is in the ball), and t_exit, the
   greatest (tmax when the ball holds org + tmax*dir); else returns 0. A zero
   dir is the point org (declare nonzero_direction, or unit_direction, if
   your kernel assumes it). */
ISECT_PLUGIN_EXPORT int isect_ray_sphere(const float org[3], const float dir[3], float tmax, const float c[3], float r,
                                         float* t_enter, float* t_exit);

/* segment_segment: the closed segments [p1, q1] and [p2, q2] (equal ends
   make a point). Writes out[0] the least squared distance, out[1] s and
   out[2] t in [0, 1] that reach it (any pair does where it is not unique),
   out[3..5] c1 = p1 + s (q1 - p1), out[6..8] c2 = p2 + t (q2 - p2). Returns
   1 if the segments meet (the distance is 0), else 0. */
ISECT_PLUGIN_EXPORT int isect_segment_segment(const float p1[3], const float q1[3], const float p2[3], const float q2[3],
                                              float out[9]);

/* point_triangle: the closest point q of the closed triangle tri (a, b, c;
   collinear ones are segments, repeated ones points) to p. Writes out[0]
   the squared distance, out[1..3] q, out[4] v and out[5] w with q = a + v
   (b - a) + w (c - a). Returns q's Voronoi region: 0, 1, 2 the vertex a, b,
   c; 3, 4, 5 the edge ab, bc, ca; 6 the face (on a boundary either region
   is right; declare proper_triangle if your kernel assumes one). */
ISECT_PLUGIN_EXPORT int isect_point_triangle(const float tri[9], const float p[3], float out[6]);

/* Version 2: the same functions on doubles, for kernels whose scalar is
   double (three.js, Godot or Bullet built with double scalars, CAD code).
   Each takes and writes what its float form does. */
ISECT_PLUGIN_EXPORT int isect_aabb_triangle_d(const double lo[3], const double hi[3], const double tri[9]);
ISECT_PLUGIN_EXPORT int isect_ray_triangle_d(const double org[3], const double dir[3], double tmax, const double tri[9],
                                             double* t, double* u, double* v);
ISECT_PLUGIN_EXPORT int isect_ray_aabb_d(const double org[3], const double dir[3], const double lo[3], const double hi[3],
                                         double* t_enter, double* t_exit, double normal[3]);
ISECT_PLUGIN_EXPORT int isect_segment_aabb_d(const double org[3], const double delta[3], const double lo[3],
                                             const double hi[3], double* t_enter, double* t_exit, double normal[3]);
ISECT_PLUGIN_EXPORT int isect_aabb_plane_d(const double lo[3], const double hi[3], const double n[3], double d);
ISECT_PLUGIN_EXPORT int isect_aabb_plane_overlap_d(const double lo[3], const double hi[3], const double n[3], double d);
ISECT_PLUGIN_EXPORT int isect_aabb_aabb_d(const double a_lo[3], const double a_hi[3], const double b_lo[3],
                                          const double b_hi[3], double out_lo[3], double out_hi[3]);
ISECT_PLUGIN_EXPORT int isect_sphere_aabb_d(const double lo[3], const double hi[3], const double c[3], double r,
                                            double closest[3], int* contains);
ISECT_PLUGIN_EXPORT int isect_moving_aabb_d(const double s_lo[3], const double s_hi[3], const double m_lo[3],
                                            const double m_hi[3], const double d[3], double* t);
ISECT_PLUGIN_EXPORT int isect_moving_aabb_plane_d(const double lo[3], const double hi[3], const double n[3], double d,
                                                  const double dir[3], double* t);
ISECT_PLUGIN_EXPORT void isect_transformed_aabb_d(const double lo[3], const double hi[3], const double m[9],
                                                  const double t[3], double out_lo[3], double out_hi[3]);
ISECT_PLUGIN_EXPORT int isect_triangle_measures_d(const double tri[9], const double p[3], double out[8]);
ISECT_PLUGIN_EXPORT int isect_polygon_measures_d(const double poly[15], const double q[3], double out[5]);
ISECT_PLUGIN_EXPORT int isect_triangle_triangle_d(const double t1[9], const double t2[9], double seg_p[3], double seg_q[3]);
ISECT_PLUGIN_EXPORT int isect_obb_obb_d(const double a_c[3], const double a_axes[9], const double a_h[3], const double b_c[3],
                                        const double b_axes[9], const double b_h[3]);
ISECT_PLUGIN_EXPORT int isect_ray_sphere_d(const double org[3], const double dir[3], double tmax, const double c[3], double r,
                                           double* t_enter, double* t_exit);
ISECT_PLUGIN_EXPORT int isect_segment_segment_d(const double p1[3], const double q1[3], const double p2[3],
                                                const double q2[3], double out[9]);
ISECT_PLUGIN_EXPORT int isect_point_triangle_d(const double tri[9], const double p[3], double out[6]);

/* Optional, for any family: a batch entry point, for SIMD kernels (4 or 8
   lanes) and for anything cheaper per input in bulk. Write it with the macro:

       ISECT_BATCH(aabb_aabb) {            // n, in, ret, out as below
           for (int i = 0; i < n; i += 4) { ... lanes i .. i+3 ... }
       }

   It is called with n inputs (1 <= n <= ISECT_BATCH_MAX), structure of
   arrays (a kernel may size its scratch by ISECT_BATCH_MAX):
     in[k][i]   number k of input i, numbering the scalar function's input
                arguments in order with arrays flattened (aabb_aabb: a_lo
                x y z are 0 1 2, a_hi 3 4 5, b_lo 6 7 8, b_hi 9 10 11;
                ray_triangle: org 0..2, dir 3..5, tmax 6, tri 7..15);
     ret[i]     what the scalar function would return for input i;
     out[j][i]  output number j of input i, numbering what the scalar
                function writes in order with arrays flattened (aabb_aabb:
                out_lo 0..2, out_hi 3..5; sphere_aabb: closest 0..2, then
                contains as 0 or 1); null for a family without outputs.
                Each starts as a NaN marker: one left alone is not checked.
   isect calls it in the plugin's worker process, so a crash or a hang is
   still a finding: the batch is then run again one input at a time
   (through the scalar function, or this one with n = 1) to pin the input.
   A call that takes longer than --timeout-ms is run again that way too: a
   hang is an input that hangs alone; a batch that was only slow is said in
   the report. An answer that is none of the family's is asked again with
   n = 1 before it is called a finding (replay asks with n = 1). The scalar
   function may be left out where the batch entry is there. */
#define ISECT_BATCH_MAX 1024
#define ISECT_BATCH(family)                                                                                    \
    ISECT_PLUGIN_EXPORT void isect_##family##_batch(int n, const float* const* in, int* ret, float* const* out)
#define ISECT_BATCH_D(family)                                                                                  \
    ISECT_PLUGIN_EXPORT void isect_##family##_batch_d(int n, const double* const* in, int* ret, double* const* out)

#ifdef __cplusplus
}
#endif

#endif /* ISECT_PLUGIN_H */
