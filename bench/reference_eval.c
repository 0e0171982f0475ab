/* The floor the runtime's batch tick is measured against.
 *
 * N basic animations, each with a begin time, a duration, from and to values
 * and one of the five named Core Animation cubic-bezier curves, laid out as
 * structure-of-arrays. A frame computes local time, clamps it (fill both),
 * solves the curve (Newton from t = x, then bisection) and interpolates.
 * The data comes from the same seeded generator the Swift benchmark uses, so
 * both evaluate exactly the same animations at the same times.
 *
 * Usage: reference_eval N FRAMES [active]
 *   prints "ns_per_animation_frame <value>". With "active", every animation
 *   is mid-flight in every frame (the scene `active_scene` describes, shared
 *   with the runtime's benchmarks); otherwise begin times and durations are
 *   spread so that animations wait, run and finish, and the clock wraps every
 *   120 frames.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { double ax, bx, cx, ay, by, cy; } curve;

static curve curve_make(double x1, double y1, double x2, double y2) {
    curve c;
    c.cx = 3 * x1; c.bx = 3 * (x2 - x1) - c.cx; c.ax = 1 - c.cx - c.bx;
    c.cy = 3 * y1; c.by = 3 * (y2 - y1) - c.cy; c.ay = 1 - c.cy - c.by;
    return c;
}

static inline double curve_solve(const curve *c, double x) {
    const double eps = 1e-7;
    double t = x;
    for (int i = 0; i < 8; i++) {
        double e = ((c->ax * t + c->bx) * t + c->cx) * t - x;
        if (fabs(e) < eps) return ((c->ay * t + c->by) * t + c->cy) * t;
        double d = (3 * c->ax * t + 2 * c->bx) * t + c->cx;
        if (fabs(d) < 1e-6) break;
        t -= e / d;
    }
    double lo = 0, hi = 1;
    t = x;
    while (hi - lo > 1e-12) {
        double v = ((c->ax * t + c->bx) * t + c->cx) * t;
        if (fabs(v - x) < eps) break;
        if (x > v) lo = t; else hi = t;
        t = lo + (hi - lo) * 0.5;
    }
    return ((c->ay * t + c->by) * t + c->cy) * t;
}

/* The generator shared with the Swift benchmark (a 64-bit LCG, top bits). */
static unsigned long long state = 1;
static unsigned next_rand(void) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(state >> 33);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The mid-flight scene: durations of 2 to 5 s, begin times placed so that
 * each animation is active from ACTIVE_T0 through ACTIVE_T0 + ACTIVE_WINDOW. */
#define ACTIVE_T0 10.0
#define ACTIVE_WINDOW 1.9
static void active_scene(size_t i, double *begin, double *dur) {
    (void)i;
    double u = (next_rand() % 1000000) / 1e6, v = (next_rand() % 1000000) / 1e6;
    *dur = 2 + 3 * u;
    *begin = ACTIVE_T0 - v * (*dur - ACTIVE_WINDOW - 2e-3) - 1e-3;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 1000000;
    int frames = argc > 2 ? atoi(argv[2]) : 60;
    int active = argc > 3 && argv[3][0] == 'a';
    curve curves[5] = {
        curve_make(0, 0, 1, 1), curve_make(0.42, 0, 1, 1), curve_make(0, 0, 0.58, 1),
        curve_make(0.42, 0, 0.58, 1), curve_make(0.25, 0.1, 0.25, 1),
    };
    double *begin = malloc(n * sizeof *begin), *dur = malloc(n * sizeof *dur);
    double *from = malloc(n * sizeof *from), *to = malloc(n * sizeof *to);
    double *out = malloc(n * sizeof *out);
    unsigned char *kind = malloc(n);
    if (!begin || !dur || !from || !to || !out || !kind) { fprintf(stderr, "out of memory\n"); return 1; }
    for (size_t i = 0; i < n; i++) {
        if (active) active_scene(i, &begin[i], &dur[i]);
        else {
            begin[i] = (next_rand() % 1000) / 1000.0;
            dur[i] = 0.25 + (next_rand() % 1000) / 500.0;
        }
        from[i] = next_rand() % 100;
        to[i] = next_rand() % 100;
        kind[i] = (unsigned char)(next_rand() % 5);
    }
    double sink = 0, t0 = now_s();
    for (int f = 0; f < frames; f++) {
        double now = active ? ACTIVE_T0 + (f % 114) / 60.0 : (f % 120) / 60.0;
        for (size_t i = 0; i < n; i++) {
            double p = (now - begin[i]) / dur[i];
            p = p < 0 ? 0 : p > 1 ? 1 : p;
            out[i] = from[i] + (to[i] - from[i]) * curve_solve(&curves[kind[i]], p);
        }
        sink += out[f % n];
    }
    double dt = now_s() - t0;
    printf("sink %g\n", sink);
    printf("ns_per_animation_frame %.3f\n", dt * 1e9 / ((double)n * frames));
    return 0;
}
