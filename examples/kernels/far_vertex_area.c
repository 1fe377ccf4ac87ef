/* The measures of a triangle with the area taken as three.js's
 * Triangle.getArea takes it, 0.5 |(c - b) x (a - b)| in double, but always at
 * the far vertex: the one three.js uses whenever a needle comes with its far
 * vertex as b. There both edges are long and nearly parallel and their cross
 * product cancels: the area is off by thousands of float ulps though the
 * arithmetic is double. From either near vertex the same formula is right.
 * isect judges the area by the scale of the best vertex, the same in every
 * vertex order, so this kernel is caught whichever order a needle comes in
 * (tests/classes_test.sh). The other measures are isect's own
 * (core/isect/triangle_measures.hpp), written in C.
 */
#include <math.h>
#include "isect/plugin.h"

int isect_abi_version(void) { return ISECT_ABI_VERSION; }
const char* isect_kernel_name(void) { return "far_vertex_area"; }

static void sub(const float* a, const float* b, double* o) {
    for (int i = 0; i < 3; ++i) o[i] = (double)a[i] - (double)b[i];
}
static void cross(const double* a, const double* b, double* o) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

int isect_triangle_measures(const float tri[9], const float p[3], float out[8]) {
    const float *a = tri, *b = tri + 3, *c = tri + 6;
    double e1[3], e2[3], ap[3], n[3];
    sub(b, a, e1);
    sub(c, a, e2);
    sub(p, a, ap);
    cross(e1, e2, n);
    const double nn = dot(n, n);
    if (!(nn > 0)) return 0;
    /* The far vertex: the largest product of the two edges that meet there. */
    int far = 0;
    double widest = -1;
    for (int k = 0; k < 3; ++k) {
        double x[3], y[3];
        sub(tri + 3 * ((k + 1) % 3), tri + 3 * k, x);
        sub(tri + 3 * ((k + 2) % 3), tri + 3 * k, y);
        if (dot(x, x) * dot(y, y) > widest) widest = dot(x, x) * dot(y, y), far = k;
    }
    /* three.js with b the far vertex: _v0.subVectors(c, b); _v1.subVectors(a, b). */
    const float *fb = tri + 3 * far, *fc = tri + 3 * ((far + 1) % 3), *fa = tri + 3 * ((far + 2) % 3);
    double cb[3], ab[3], m[3];
    sub(fc, fb, cb);
    sub(fa, fb, ab);
    cross(cb, ab, m);
    out[0] = (float)(0.5 * sqrt(dot(m, m)));
    double t[3];
    cross(ap, e2, t);
    out[1] = (float)(dot(t, n) / nn);
    cross(e1, ap, t);
    out[2] = (float)(dot(t, n) / nn);
    double c1[3], c2[3], rel[3];
    cross(e2, n, c1);
    cross(n, e1, c2);
    const double l1 = dot(e1, e1), l2 = dot(e2, e2);
    for (int i = 0; i < 3; ++i) rel[i] = (l1 * c1[i] + l2 * c2[i]) / (2 * nn);
    for (int i = 0; i < 3; ++i) out[3 + i] = (float)(a[i] + rel[i]);
    out[6] = (float)sqrt(dot(rel, rel));
    out[7] = (float)(dot(ap, n) / sqrt(nn));
    return 1;
}
