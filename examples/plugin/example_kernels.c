/* An example isect plugin in C: a box-box test and a ray-triangle test
 * (Möller-Trumbore in double, two-sided, no epsilon), and the box-box test
 * again four boxes at a time through the batch entry (ISECT_BATCH), as a
 * SIMD engine writes it. Build it with isect_add_plugin() from isect's
 * CMake package, then
 *     ./isect check --plugin build/examples/plugin/example_kernels.so
 */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }

const char* isect_kernel_name(void) { return "example_kernels"; }

int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3], const float b_hi[3],
                    float out_lo[3], float out_hi[3]) {
    for (int i = 0; i < 3; ++i) {
        if (a_lo[i] > b_hi[i] || b_lo[i] > a_hi[i]) return 0;
        out_lo[i] = a_lo[i] > b_lo[i] ? a_lo[i] : b_lo[i];
        out_hi[i] = a_hi[i] < b_hi[i] ? a_hi[i] : b_hi[i];
    }
    return 1;
}

/* Four lanes of floats, and the masks comparing them make (all bits set
   where true): gcc and clang's vector extensions, which become SSE or NEON
   where the target has them and plain code where not. */
typedef float f4 __attribute__((vector_size(16)));
typedef int i4 __attribute__((vector_size(16)));

/* Lanes i .. i+3 of a column; past the n-th input the last one again, so
   every lane holds a real input. */
static f4 lanes(const float* column, int i, int n) {
    f4 v;
    for (int l = 0; l < 4; ++l) v[l] = column[i + l < n ? i + l : n - 1];
    return v;
}

/* Where m is set a, else b. */
static f4 pick(i4 m, f4 a, f4 b) { return (f4)((m & (i4)a) | (~m & (i4)b)); }

/* isect_aabb_aabb on four inputs at once, lane by lane the same answer and
   the same box (a NaN separates nothing, as there). */
ISECT_BATCH(aabb_aabb) {
    for (int i = 0; i < n; i += 4) {
        i4 apart = {0, 0, 0, 0};
        f4 lo[3], hi[3];
        for (int a = 0; a < 3; ++a) {
            const f4 a_lo = lanes(in[a], i, n), a_hi = lanes(in[3 + a], i, n);
            const f4 b_lo = lanes(in[6 + a], i, n), b_hi = lanes(in[9 + a], i, n);
            apart |= (a_lo > b_hi) | (b_lo > a_hi);
            lo[a] = pick(a_lo > b_lo, a_lo, b_lo);
            hi[a] = pick(a_hi < b_hi, a_hi, b_hi);
        }
        for (int l = 0; l < 4 && i + l < n; ++l) {
            ret[i + l] = !apart[l];
            if (apart[l]) continue;  /* a miss writes no box, as the scalar test */
            for (int a = 0; a < 3; ++a) {
                out[a][i + l] = lo[a][l];
                out[3 + a][i + l] = hi[a][l];
            }
        }
    }
}

static void sub(const float* a, const float* b, double* out) {
    for (int i = 0; i < 3; ++i) out[i] = (double)a[i] - b[i];
}

static void cross(const double* a, const double* b, double* out) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The same products with every term's absolute value: a bound on the size
   of what a dot or cross product's rounding is relative to. */
static void abs_cross(const double* a, const double* b, double* out) {
    out[0] = fabs(a[1] * b[2]) + fabs(a[2] * b[1]);
    out[1] = fabs(a[2] * b[0]) + fabs(a[0] * b[2]);
    out[2] = fabs(a[0] * b[1]) + fabs(a[1] * b[0]);
}
static double abs_dot(const double* a, const double* b) { return fabs(a[0] * b[0]) + fabs(a[1] * b[1]) + fabs(a[2] * b[2]); }

int isect_ray_triangle(const float org[3], const float dir[3], float tmax, const float tri[9], float* t, float* u,
                       float* v) {
    double e1[3], e2[3], s[3], p[3], q[3];
    const double d[3] = {dir[0], dir[1], dir[2]};
    sub(tri + 3, tri, e1);
    sub(tri + 6, tri, e2);
    sub(org, tri, s);
    cross(d, e2, p);
    double det = dot(e1, p);
    if (det < 0) {
        det = -det;
        for (int i = 0; i < 3; ++i) s[i] = -s[i];
    }
    /* A ray nearly parallel to the plane has a det below the rounding of
       u's and v's numerators, whose noise would decide: with a subnormal
       coordinate beside units, triangles units away were hit (7 of 300,000
       cases over every float, seed 7). Such a ray is a miss here: one
       rounding of its direction can make it parallel, so the answer is
       within tolerant=1 either way. The bound is relative, where an
       absolute epsilon misses every small triangle. */
    double pm[3], qm[3];
    abs_cross(d, e2, pm);
    abs_cross(s, e1, qm);
    if (!(det > 0x1p-44 * (abs_dot(e1, pm) + abs_dot(s, pm) + abs_dot(d, qm)))) return 0;
    const double uu = dot(s, p);
    if (uu < 0 || uu > det) return 0;
    cross(s, e1, q);
    const double vv = dot(d, q);
    if (vv < 0 || uu + vv > det) return 0;
    const double tt = dot(e2, q);
    if (tt < 0 || tt > (double)tmax * det) return 0;
    *t = (float)(tt / det);
    *u = (float)(uu / det);
    *v = (float)(vv / det);
    return 1;
}
