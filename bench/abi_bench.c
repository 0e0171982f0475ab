/* Costs seen through the C ABI.
 *
 *   abi_bench read          ns per animrt_layer_get_presentation call
 *   abi_bench frame N F     ns per animation per frame for tick + reader_read of
 *                           N basic animations built through the ABI (the same
 *                           generator and scene as the core benchmark), frames
 *                           at 60 Hz from t = 0; ANIMRT_THREADS=n sets the
 *                           runtime's evaluation threads
 *   abi_bench add N         ns per full add: create a description, set its
 *                           begin time, duration, timing function, from and
 *                           to, add it to a layer, destroy the description
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "animrt.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned long long state = 1;
static unsigned next_rand(void) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(state >> 33);
}

#define CHECK(call) do { animrt_status s_ = (call); if (s_) { \
    fprintf(stderr, "%s: %s\n", #call, animrt_last_error_message()); exit(1); } } while (0)

static int bench_read(void) {
    animrt_runtime *rt;
    animrt_id layer, a;
    animrt_keypath kp;
    double from = 0, to = 1, v, sink = 0;
    size_t n;
    CHECK(animrt_runtime_create(0, &rt));
    CHECK(animrt_layer_create(rt, 0, &layer));
    CHECK(animrt_keypath_id(rt, "opacity", &kp));
    CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
    CHECK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));
    CHECK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
    CHECK(animrt_layer_add_animation(rt, layer, a, "a", 0, NULL));
    CHECK(animrt_runtime_tick(rt, 0));
    CHECK(animrt_runtime_tick(rt, 0.1));
    const int calls = 20000000;
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        double t0 = now_s();
        for (int i = 0; i < calls; i++) {
            animrt_layer_get_presentation(rt, layer, kp, &v, 1, &n);
            sink += v;
        }
        double ns = (now_s() - t0) * 1e9 / calls;
        if (ns < best) best = ns;
    }
    printf("sink %g\nns_per_read %.2f\n", sink, best);
    animrt_runtime_destroy(rt);
    return 0;
}

static int bench_frame(size_t n, int frames) {
    static const char *curves[5] = {"linear", "easeIn", "easeOut", "easeInEaseOut", "default"};
    animrt_runtime *rt;
    CHECK(animrt_runtime_create(0, &rt));
    animrt_keypath kp;
    CHECK(animrt_keypath_id(rt, "opacity", &kp));
    animrt_id *layers = malloc(n * sizeof *layers);
    animrt_keypath *kps = malloc(n * sizeof *kps);
    double *out = malloc(n * sizeof *out), zero = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(animrt_layer_create(rt, 0, &layers[i]));
        CHECK(animrt_layer_set_value(rt, layers[i], kp, &zero, 1));
        kps[i] = kp;
    }
    for (size_t i = 0; i < n; i++) {
        double begin = (next_rand() % 1000) / 1000.0, dur = 0.25 + (next_rand() % 1000) / 500.0;
        double from = next_rand() % 100, to = next_rand() % 100;
        unsigned c = next_rand() % 5;
        animrt_id a;
        CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
        CHECK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));
        CHECK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
        CHECK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, begin == 0 ? 1e-300 : begin));
        CHECK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, dur));
        CHECK(animrt_animation_set_timing_function(rt, a, curves[c]));
        CHECK(animrt_animation_set_fill_mode(rt, a, ANIMRT_FILL_BOTH));
        CHECK(animrt_animation_set_flag(rt, a, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
        CHECK(animrt_layer_add_animation(rt, layers[i], a, NULL, 0, NULL));
        CHECK(animrt_animation_destroy(rt, a));
    }
    animrt_id reader;
    CHECK(animrt_reader_create(rt, layers, kps, n, &reader));
    size_t needed;
    if (getenv("ANIMRT_THREADS")) CHECK(animrt_runtime_set_threads(rt, (uint32_t)atoi(getenv("ANIMRT_THREADS"))));
    double t0 = now_s();
    for (int f = 0; f < frames; f++) {
        CHECK(animrt_runtime_tick(rt, f / 60.0));  /* the clock only moves forwards */
        CHECK(animrt_reader_read(rt, reader, out, n, &needed));
    }
    double ns = (now_s() - t0) * 1e9 / ((double)n * frames);
    printf("sink %g\nns_per_animation_frame %.3f\n", out[n / 2], ns);
    animrt_runtime_destroy(rt);
    free(layers); free(kps); free(out);
    return 0;
}

/* One add with its configuration, as a host builds an animation. */
static void full_add(animrt_runtime *rt, animrt_id layer, double begin, double dur, double from, double to,
                     const char *curve) {
    animrt_id a;
    CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
    CHECK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, begin));
    CHECK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, dur));
    CHECK(animrt_animation_set_timing_function(rt, a, curve));
    CHECK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));
    CHECK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
    CHECK(animrt_layer_add_animation(rt, layer, a, NULL, 0, NULL));
    CHECK(animrt_animation_destroy(rt, a));
}

static int bench_add(size_t n) {
    static const char *curves[5] = {"linear", "easeIn", "easeOut", "easeInEaseOut", "default"};
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        animrt_runtime *rt;
        CHECK(animrt_runtime_create(0, &rt));
        animrt_id *layers = malloc(n * sizeof *layers);
        for (size_t i = 0; i < n; i++) CHECK(animrt_layer_create(rt, 0, &layers[i]));
        state = 1;
        double t0 = now_s();
        for (size_t i = 0; i < n; i++) {
            double begin = 1 + (next_rand() % 1000) / 1000.0, dur = 0.25 + (next_rand() % 1000) / 500.0;
            double from = next_rand() % 100, to = next_rand() % 100;
            full_add(rt, layers[i], begin, dur, from, to, curves[next_rand() % 5]);
        }
        double ns = (now_s() - t0) * 1e9 / (double)n;
        if (ns < best) best = ns;
        animrt_runtime_destroy(rt);
        free(layers);
    }
    printf("ns_per_add %.1f\n", best);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "add") == 0) return bench_add(strtoull(argv[2], 0, 10));
    if (argc >= 2 && strcmp(argv[1], "read") == 0) return bench_read();
    if (argc >= 4 && strcmp(argv[1], "frame") == 0) return bench_frame(strtoull(argv[2], 0, 10), atoi(argv[3]));
    fprintf(stderr, "usage: abi_bench read | abi_bench frame N FRAMES\n");
    return 2;
}
