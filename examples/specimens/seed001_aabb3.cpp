// Specimen: seed 001's AABB3 class, each routine ported faithfully in
// float, bugs and all, behind the plugin functions of its family:
//   rayIntersect           -> isect_segment_aabb (t_exit is not computed)
//   rayIntersectLimitless  -> isect_ray_aabb (a yes/no answer only)
//   classifyPlane          -> isect_aabb_plane
//   intersectPlane         -> isect_moving_aabb_plane
//   intersectAABBs         -> isect_aabb_aabb
//   intersectMovingAABB    -> isect_moving_aabb
//   intersectsSphere, closestPointTo, contains -> isect_sphere_aabb
//   setToTransformedBox    -> isect_transformed_aabb
// The seed's "no intersection" is a t above 1 (kNoIntersection = 1e30).
// Its asserts (unit n and dir) are compiled out, as in a release build.
#include <cmath>

#include "isect/plugin.h"

namespace {

struct Vector3 {
    float x, y, z;
    Vector3() : x(0), y(0), z(0) {}
    Vector3(float a, float b, float c) : x(a), y(b), z(c) {}
    explicit Vector3(const float* p) : x(p[0]), y(p[1]), z(p[2]) {}
    Vector3 operator-() const { return {-x, -y, -z}; }
    Vector3 operator-(const Vector3& o) const { return {x - o.x, y - o.y, z - o.z}; }
    float operator*(const Vector3& o) const { return x * o.x + y * o.y + z * o.z; }
    void normalize() {
        const float m = x * x + y * y + z * z;
        if (m > 0) {
            const float k = 1.0f / std::sqrt(m);
            x *= k, y *= k, z *= k;
        }
    }
};

float distanceSquared(const Vector3& a, const Vector3& b) {
    const Vector3 d = a - b;
    return d * d;
}

inline float mymax(float a, float b) { return a > b ? a : b; }
inline float mymin(float a, float b) { return a < b ? a : b; }
inline void myswap(float& a, float& b) {
    const float t = a;
    a = b;
    b = t;
}

struct AABB3 {
    Vector3 min, max;
    AABB3() = default;
    AABB3(const float* lo, const float* hi) : min(lo), max(hi) {}

    bool contains(const Vector3& p) const {
        return (p.x >= min.x && p.x <= max.x) && (p.y >= min.y && p.y <= max.y) && (p.z >= min.z && p.z <= max.z);
    }

    Vector3 closestPointTo(const Vector3& p) const {
        Vector3 r;
        if (p.x < min.x) r.x = min.x;
        else if (p.x > max.x) r.x = max.x;
        else r.x = p.x;
        if (p.y < min.y) r.y = min.y;
        else if (p.y > max.y) r.y = max.y;
        else r.y = p.y;
        if (p.z < min.z) r.z = min.z;
        else if (p.z > max.z) r.z = max.z;
        else r.z = p.z;
        return r;
    }

    bool intersectsSphere(const Vector3& center, float radius) const {
        const Vector3 closestPoint = closestPointTo(center);
        return distanceSquared(center, closestPoint) < radius * radius;
    }

    float rayIntersect(const Vector3& rayOrg, const Vector3& rayDelta, Vector3* returnNormal) const {
        const float kNoIntersection = 1e30f;
        bool inside = true;
        float xt, xn = 0;
        if (rayOrg.x < min.x) {
            xt = min.x - rayOrg.x;
            if (xt > rayDelta.x) return kNoIntersection;
            xt /= rayDelta.x;
            inside = false;
            xn = -1.0f;
        } else if (rayOrg.x > max.x) {
            xt = max.x - rayOrg.x;
            if (xt < rayDelta.x) return kNoIntersection;
            xt /= rayDelta.x;
            inside = false;
            xn = 1.0f;
        } else {
            xt = -1.0f;
        }
        float yt, yn = 0;
        if (rayOrg.y < min.y) {
            yt = min.y - rayOrg.y;
            if (yt > rayDelta.y) return kNoIntersection;
            yt /= rayDelta.y;
            inside = false;
            yn = -1.0f;
        } else if (rayOrg.y > max.y) {
            yt = max.y - rayOrg.y;
            if (yt < rayDelta.y) return kNoIntersection;
            yt /= rayDelta.y;
            inside = false;
            yn = 1.0f;
        } else {
            yt = -1.0f;
        }
        float zt, zn = 0;
        if (rayOrg.z < min.z) {
            zt = min.z - rayOrg.z;
            if (zt > rayDelta.z) return kNoIntersection;
            zt /= rayDelta.z;
            inside = false;
            zn = -1.0f;
        } else if (rayOrg.z > max.z) {
            zt = max.z - rayOrg.z;
            if (zt < rayDelta.z) return kNoIntersection;
            zt /= rayDelta.z;
            inside = false;
            zn = 1.0f;
        } else {
            zt = -1.0f;
        }
        if (inside) {
            if (returnNormal) {
                *returnNormal = -rayDelta;
                returnNormal->normalize();
            }
            return 0.0f;
        }
        int which = 0;
        float t = xt;
        if (yt > t) {
            which = 1;
            t = yt;
        }
        if (zt > t) {
            which = 2;
            t = zt;
        }
        switch (which) {
            case 0: {
                const float y = rayOrg.y + rayDelta.y * t;
                if (y < min.y || y > max.y) return kNoIntersection;
                const float z = rayOrg.z + rayDelta.z * t;
                if (z < min.z || z > max.z) return kNoIntersection;
                if (returnNormal) *returnNormal = Vector3(xn, 0, 0);
                break;
            }
            case 1: {
                const float x = rayOrg.x + rayDelta.x * t;
                if (x < min.x || x > max.x) return kNoIntersection;
                const float z = rayOrg.z + rayDelta.z * t;
                if (z < min.z || z > max.z) return kNoIntersection;
                if (returnNormal) *returnNormal = Vector3(0, yn, 0);
                break;
            }
            case 2: {
                const float x = rayOrg.x + rayDelta.x * t;
                if (x < min.x || x > max.x) return kNoIntersection;
                const float y = rayOrg.y + rayDelta.y * t;
                if (y < min.y || y > max.y) return kNoIntersection;
                if (returnNormal) *returnNormal = Vector3(0, 0, zn);
                break;
            }
        }
        return t;
    }

    static bool RayIntersectOneAxisOK(float minValue, float maxValue, float fRayOrg, float fRayDelta) {
        if (fRayOrg >= minValue && fRayOrg <= maxValue) return true;
        bool bIsOK = false;
        float nAxis = -1.0f;
        if (fRayOrg > maxValue) nAxis = 1.0f;
        if (nAxis < 0) {
            const float fXMax = fRayOrg + (maxValue - fRayOrg) * fRayDelta;
            if (fXMax >= minValue && fXMax <= maxValue) bIsOK = true;
        } else {
            const float fXMin = fRayOrg + (fRayOrg - minValue) * fRayDelta;
            if (fXMin >= minValue && fXMin <= maxValue) bIsOK = true;
        }
        return bIsOK;
    }

    bool rayIntersectLimitless(const Vector3& rayOrg, Vector3 rayDelta) const {
        rayDelta.normalize();
        return RayIntersectOneAxisOK(min.x, max.x, rayOrg.x, rayDelta.x) &&
               RayIntersectOneAxisOK(min.y, max.y, rayOrg.y, rayDelta.y) &&
               RayIntersectOneAxisOK(min.z, max.z, rayOrg.z, rayDelta.z);
    }

    int classifyPlane(const Vector3& n, float d) const {
        float minD, maxD;
        if (n.x > 0.0f) {
            minD = min.x * n.x;
            maxD = max.x * n.x;
        } else {
            minD = max.x * n.x;
            maxD = min.x * n.x;
        }
        if (n.y > 0.0f) {
            minD += min.y * n.y;
            maxD += max.y * n.y;
        } else {
            minD += max.y * n.y;
            maxD += min.y * n.y;
        }
        if (n.z > 0.0f) {
            minD += min.z * n.z;
            maxD += max.z * n.z;
        } else {
            minD += max.z * n.z;
            maxD += min.z * n.z;
        }
        if (minD >= d) return 1;
        if (maxD <= d) return -1;
        return 0;
    }

    float intersectPlane(const Vector3& n, float planeD, const Vector3& dir) const {
        const float kNoIntersection = 1e30f;
        const float dot = n * dir;
        if (dot >= 0.0f) return kNoIntersection;
        float minD, maxD;
        if (n.x > 0.0f) {
            minD = n.x * min.x;
            maxD = n.x * max.x;
        } else {
            minD = n.x * max.x;
            maxD = n.x * min.x;
        }
        if (n.y > 0.0f) {
            minD += n.y * min.y;
            maxD += n.y * max.y;
        } else {
            minD += n.y * max.y;
            maxD += n.y * min.y;
        }
        if (n.z > 0.0f) {
            minD += n.z * min.z;
            maxD += n.z * max.z;
        } else {
            minD += n.z * max.z;
            maxD += n.z * min.z;
        }
        if (maxD < planeD) return kNoIntersection;
        if (minD < planeD) return 0.0f;
        return (planeD - minD) / dot;
    }
};

bool intersectAABBs(const AABB3& box1, const AABB3& box2, AABB3* boxIntersect) {
    if (box1.min.x > box2.max.x) return false;
    if (box1.min.y > box2.max.y) return false;
    if (box1.min.z > box2.max.z) return false;
    if (box2.min.x > box1.max.x) return false;
    if (box2.min.y > box1.max.y) return false;
    if (box2.min.z > box1.max.z) return false;
    if (boxIntersect) {
        boxIntersect->min.x = mymax(box1.min.x, box2.min.x);
        boxIntersect->min.y = mymax(box1.min.y, box2.min.y);
        boxIntersect->min.z = mymax(box1.min.z, box2.min.z);
        boxIntersect->max.x = mymin(box1.max.x, box2.max.x);
        boxIntersect->max.y = mymin(box1.max.y, box2.max.y);
        boxIntersect->max.z = mymin(box1.max.z, box2.max.z);
    }
    return true;
}

float intersectMovingAABB(const AABB3& stationaryBox, const AABB3& movingBox, const Vector3& d) {
    const float kNoIntersection = 1e30f;
    float tEnter = 0.0f, tLeave = 1.0f;
    if (d.x == 0.0f) {
        if (stationaryBox.min.x > movingBox.max.x || movingBox.min.x > stationaryBox.max.x) return kNoIntersection;
    } else {
        const float oneOverD = 1.0f / d.x;
        float xEnter = (stationaryBox.min.x - movingBox.max.x) * oneOverD;
        float xLeave = (stationaryBox.max.x - movingBox.min.x) * oneOverD;
        if (xEnter > xLeave) myswap(xEnter, xLeave);
        if (xEnter > tEnter) tEnter = xEnter;
        if (xLeave < tLeave) tLeave = xLeave;
        if (tEnter > tLeave) return kNoIntersection;
    }
    if (d.y == 0.0f) {
        if ((stationaryBox.min.y > movingBox.max.y) || (stationaryBox.max.y < movingBox.min.y)) return kNoIntersection;
    } else {
        const float oneOverD = 1.0f / d.y;
        float yEnter = (stationaryBox.min.y - movingBox.max.y) * oneOverD;
        float yLeave = (stationaryBox.max.y - movingBox.min.y) * oneOverD;
        if (yEnter > yLeave) myswap(yEnter, yLeave);
        if (yEnter > tEnter) tEnter = yEnter;
        if (yLeave < tLeave) tLeave = yLeave;
        if (tEnter > tLeave) return kNoIntersection;
    }
    if (d.z == 0.0f) {
        if ((stationaryBox.min.z > movingBox.max.z) || (stationaryBox.max.z < movingBox.min.z)) return kNoIntersection;
    } else {
        const float oneOverD = 1.0f / d.z;
        float zEnter = (stationaryBox.min.z - movingBox.max.z) * oneOverD;
        float zLeave = (stationaryBox.max.z - movingBox.min.z) * oneOverD;
        if (zEnter > zLeave) myswap(zEnter, zLeave);
        if (zEnter > tEnter) tEnter = zEnter;
        if (zLeave < tLeave) tLeave = zLeave;
        if (zEnter > zLeave) return kNoIntersection;
    }
    return tEnter;
}

}  // namespace

extern "C" {

ISECT_PLUGIN_EXPORT int isect_abi_version(void) { return ISECT_ABI_VERSION; }
ISECT_PLUGIN_EXPORT const char* isect_kernel_name(void) { return "seed001_aabb3"; }

ISECT_PLUGIN_EXPORT int isect_segment_aabb(const float org[3], const float delta[3], const float lo[3],
                                           const float hi[3], float* t_enter, float*, float normal[3]) {
    Vector3 n;
    const float t = AABB3(lo, hi).rayIntersect(Vector3(org), Vector3(delta), &n);
    if (t > 1) return 0;  // the seed: "above 1 means no intersection"
    *t_enter = t;
    // From inside the seed returns t = 0 and -delta as the "normal", by its
    // own convention; isect's is (0, 0, 0). Left unchecked in that case.
    if (t != 0) normal[0] = n.x, normal[1] = n.y, normal[2] = n.z;
    return 1;
}

ISECT_PLUGIN_EXPORT int isect_ray_aabb(const float org[3], const float dir[3], const float lo[3], const float hi[3],
                                       float*, float*, float*) {
    return AABB3(lo, hi).rayIntersectLimitless(Vector3(org), Vector3(dir));
}

ISECT_PLUGIN_EXPORT int isect_aabb_plane(const float lo[3], const float hi[3], const float n[3], float d) {
    return AABB3(lo, hi).classifyPlane(Vector3(n), d);
}

ISECT_PLUGIN_EXPORT int isect_moving_aabb_plane(const float lo[3], const float hi[3], const float n[3], float d,
                                                const float dir[3], float* t) {
    const float r = AABB3(lo, hi).intersectPlane(Vector3(n), d, Vector3(dir));
    if (r >= 1e30f) return 0;
    *t = r;
    return 1;
}

ISECT_PLUGIN_EXPORT int isect_aabb_aabb(const float a_lo[3], const float a_hi[3], const float b_lo[3],
                                        const float b_hi[3], float out_lo[3], float out_hi[3]) {
    AABB3 r;
    if (!intersectAABBs(AABB3(a_lo, a_hi), AABB3(b_lo, b_hi), &r)) return 0;
    out_lo[0] = r.min.x, out_lo[1] = r.min.y, out_lo[2] = r.min.z;
    out_hi[0] = r.max.x, out_hi[1] = r.max.y, out_hi[2] = r.max.z;
    return 1;
}

ISECT_PLUGIN_EXPORT int isect_moving_aabb(const float s_lo[3], const float s_hi[3], const float m_lo[3],
                                          const float m_hi[3], const float d[3], float* t) {
    const float r = intersectMovingAABB(AABB3(s_lo, s_hi), AABB3(m_lo, m_hi), Vector3(d));
    if (r > 1) return 0;
    *t = r;
    return 1;
}

ISECT_PLUGIN_EXPORT int isect_sphere_aabb(const float lo[3], const float hi[3], const float c[3], float r,
                                          float closest[3], int* contains) {
    const AABB3 box(lo, hi);
    const Vector3 q = box.closestPointTo(Vector3(c));
    closest[0] = q.x, closest[1] = q.y, closest[2] = q.z;
    *contains = box.contains(Vector3(c));
    return box.intersectsSphere(Vector3(c), r);
}

// setToTransformedBox with the seed's Matrix4x3 (row vectors): its m_ij is
// isect's m[j][i], its translation isect's t.
ISECT_PLUGIN_EXPORT void isect_transformed_aabb(const float lo[3], const float hi[3], const float m[9],
                                                const float t[3], float out_lo[3], float out_hi[3]) {
    const AABB3 box(lo, hi);
    const float mm[3][3] = {{m[0], m[3], m[6]}, {m[1], m[4], m[7]}, {m[2], m[5], m[8]}};  // seed m11..m33
    Vector3 min(t), max(t);
    float* mn[3] = {&min.x, &min.y, &min.z};
    float* mx[3] = {&max.x, &max.y, &max.z};
    const float bl[3] = {box.min.x, box.min.y, box.min.z}, bh[3] = {box.max.x, box.max.y, box.max.z};
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) {
            if (mm[row][col] > 0.0f) {
                *mn[col] += mm[row][col] * bl[row];
                *mx[col] += mm[row][col] * bh[row];
            } else {
                *mn[col] += mm[row][col] * bh[row];
                *mx[col] += mm[row][col] * bl[row];
            }
        }
    out_lo[0] = min.x, out_lo[1] = min.y, out_lo[2] = min.z;
    out_hi[0] = max.x, out_hi[1] = max.y, out_hi[2] = max.z;
}

}  // extern "C"
