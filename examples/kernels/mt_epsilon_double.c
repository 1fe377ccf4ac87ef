/* Möller-Trumbore on doubles with the absolute determinant epsilon of the
 * float copies, |det| < 1e-6, as a double-scalar engine (Godot or Bullet
 * built with doubles, three.js) often keeps it: at unit scale it rejects
 * every triangle whose legs are under about 1e-2, so rays miss small
 * triangles they hit. Exported through ABI 2 as isect_ray_triangle_d and
 * checked with `isect check --plugin ... --precision double`.
 */
#include <math.h>

#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "mt_epsilon_double"; }

static void sub(const double* a, const double* b, double* o) {
    for (int i = 0; i < 3; ++i) o[i] = a[i] - b[i];
}
static void cross(const double* a, const double* b, double* o) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

int isect_ray_triangle_d(const double org[3], const double dir[3], double tmax, const double tri[9], double* t,
                         double* u, double* v) {
    double e1[3], e2[3], p[3], s[3], q[3];
    sub(tri + 3, tri, e1);
    sub(tri + 6, tri, e2);
    cross(dir, e2, p);
    const double det = dot(e1, p);
    if (det > -1e-6 && det < 1e-6) return 0;
    const double inv = 1.0 / det;
    sub(org, tri, s);
    const double uu = dot(s, p) * inv;
    if (uu < 0 || uu > 1) return 0;
    cross(s, e1, q);
    const double vv = dot(dir, q) * inv;
    if (vv < 0 || uu + vv > 1) return 0;
    const double tt = dot(e2, q) * inv;
    if (tt < 0 || tt > tmax) return 0;
    *t = tt;
    *u = uu;
    *v = vv;
    return 1;
}
