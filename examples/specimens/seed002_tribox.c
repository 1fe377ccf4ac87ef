/* Specimen: seed 002's C# box-triangle test (IsIntersecting), ported
 * faithfully: doubles, face axes with < and >, the triangle normal against
 * the box's eight vertices, and the nine edge axes with <= and >= (so a
 * triangle that only touches the box along an edge axis is "apart"). The
 * seed does not say how triangle.Normal is made; this port takes
 * (B - A) x (C - A), unnormalised, as an IVector implementation would. */
#include <math.h>

#include "isect/plugin.h"

typedef struct {
    double x[3];
} vec;

static vec minus(vec a, vec b) {
    vec r = {{a.x[0] - b.x[0], a.x[1] - b.x[1], a.x[2] - b.x[2]}};
    return r;
}
static vec cross(vec a, vec b) {
    vec r = {{a.x[1] * b.x[2] - a.x[2] * b.x[1], a.x[2] * b.x[0] - a.x[0] * b.x[2], a.x[0] * b.x[1] - a.x[1] * b.x[0]}};
    return r;
}
static double dot(vec a, vec b) { return a.x[0] * b.x[0] + a.x[1] * b.x[1] + a.x[2] * b.x[2]; }

static void project(const vec* points, int n, vec axis, double* min, double* max) {
    *min = INFINITY;
    *max = -INFINITY;
    for (int i = 0; i < n; ++i) {
        const double val = dot(axis, points[i]);
        if (val < *min) *min = val;
        if (val > *max) *max = val;
    }
}

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "seed002_tribox"; }

int isect_aabb_triangle(const float lo[3], const float hi[3], const float tri[9]) {
    const vec a = {{tri[0], tri[1], tri[2]}}, b = {{tri[3], tri[4], tri[5]}}, c = {{tri[6], tri[7], tri[8]}};
    const vec tv[3] = {a, b, c};
    vec bv[8];
    for (int i = 0; i < 8; ++i) {
        vec p = {{i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]}};
        bv[i] = p;
    }
    const vec normals[3] = {{{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
    double tmin, tmax, bmin, bmax;
    for (int i = 0; i < 3; ++i) {
        project(tv, 3, normals[i], &tmin, &tmax);
        if (tmax < lo[i] || tmin > hi[i]) return 0;
    }
    const vec normal = cross(minus(b, a), minus(c, a));
    const double offset = dot(normal, a);
    project(bv, 8, normal, &bmin, &bmax);
    if (bmax < offset || bmin > offset) return 0;
    const vec edges[3] = {minus(a, b), minus(b, c), minus(c, a)};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const vec axis = cross(edges[i], normals[j]);
            project(bv, 8, axis, &bmin, &bmax);
            project(tv, 3, axis, &tmin, &tmax);
            if (bmax <= tmin || bmin >= tmax) return 0;
        }
    return 1;
}
