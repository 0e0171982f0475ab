/* What a curve from outside the library costs in the batch (SPEC §4).
 *
 *   plugin_bench PLUGIN [N]
 *
 * N (default 100000) basic opacity animations, each on its own layer, all on
 * one curve and all running, ticked for 60 frames at 60 Hz; prints ns per
 * animation per tick for a built-in curve (easeInEaseOut); the example
 * plugin's bounce as a block timing function, as the plugin registers it
 * (animrt_curve_block_fn: one call per run of animations); the same curve
 * one value per call (example_bounce_curve, an animrt_curve_fn, registered
 * with animrt_timing_function_register: the lane a plugin's
 * add_timing_function gives too); and bound with libffi (example_bounce,
 * "f64(f64)"); best of 7 rounds run interleaved, and their ratios. Then the
 * price of one libffi ffi_call of that function against a direct call,
 * which is what the batch avoids for f64(f64) bindings.
 */
#include <dlfcn.h>
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "animrt.h"
#include "bench.h"

enum { BUILTIN, BLOCK, PER_ENTRY, BOUND, KINDS };
static const char *labels[KINDS] = {"built-in easeInEaseOut", "native bounce, block", "native bounce, per animation",
                                    "ffi-bound example_bounce"};

/* example_bounce_curve of the plugin (an animrt_curve_fn). */
static animrt_curve_fn per_entry;

/* ns per animation per tick for N animations on curve `kind`. */
static double scene(const char *plugin, int kind, int n, int frames) {
    animrt_runtime *rt;
    animrt_id anim, layer, id;
    CHECK(animrt_runtime_create(0, &rt));
    const char *curve = "easeInEaseOut";
    if (kind == BLOCK) { CHECK(animrt_plugin_load(rt, plugin, &id)); curve = "bounce"; }
    if (kind == PER_ENTRY) {
        double bounces = 4;
        CHECK(animrt_timing_function_register(rt, "bounceEach", per_entry, NULL, 1, &bounces, NULL, NULL));
        curve = "bounceEach";
    }
    if (kind == BOUND) {
        CHECK(animrt_timing_function_bind(rt, plugin, "example_bounce", "f64(f64)", "thud"));
        curve = "thud";
    }
    CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK(animrt_animation_set_timing_function(rt, anim, curve));
    CHECK(animrt_animation_set_fill_mode(rt, anim, ANIMRT_FILL_BOTH));
    CHECK(animrt_animation_set_flag(rt, anim, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
    seed_rand(1);
    /* Every animation starts at the warm-up tick and runs through all the
     * timed frames, at spread-out progress: the frames measure evaluation
     * alone, not lifecycle events. */
    for (int i = 0; i < n; i++) {
        double begin = 1e-9, duration = 1.5 + (next_rand() % 1000) / 333.0;
        double from = next_rand() % 100, to = next_rand() % 100;
        CHECK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_BEGIN_TIME, begin));
        CHECK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_DURATION, duration));
        CHECK(animrt_animation_set_value(rt, anim, ANIMRT_FROM, &from, 1));
        CHECK(animrt_animation_set_value(rt, anim, ANIMRT_TO, &to, 1));
        CHECK(animrt_layer_create(rt, 0, &layer));
        CHECK(animrt_layer_add_animation(rt, layer, anim, NULL, 0, NULL));
    }
    CHECK(animrt_runtime_tick(rt, 1e-6)); /* every animation starts here */
    double t0 = now_s();
    for (int f = 1; f <= frames; f++) CHECK(animrt_runtime_tick(rt, f / 60.0));
    double ns = (now_s() - t0) * 1e9 / ((double)n * frames);
    animrt_runtime_destroy(rt);
    return ns;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: plugin_bench PLUGIN [N]\n"); return 2; }
    const char *plugin = argv[1];
    int n = argc > 2 ? atoi(argv[2]) : 100000, frames = 60;
    void *lib = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
    void *sym = lib ? dlsym(lib, "example_bounce_curve") : NULL;
    if (!sym) { fprintf(stderr, "plugin_bench: %s\n", dlerror()); return 1; }
    memcpy(&per_entry, &sym, sizeof per_entry);
    double best[KINDS] = {1e9, 1e9, 1e9, 1e9};
    for (int round = 0; round < 7; round++) {
        for (int k = 0; k < KINDS; k++) {
            double ns = scene(plugin, k, n, frames);
            if (ns < best[k]) best[k] = ns;
        }
    }
    printf("batch tick, N=%d animations on one curve, ns per animation per tick (best of 7, interleaved):\n", n);
    for (int k = 0; k < KINDS; k++) printf("  %-30s %6.2f\n", labels[k], best[k]);
    printf("native block / built-in          %.2f (target <= 1.3: the block entry point, as the plugin registers it)\n",
           best[BLOCK] / best[BUILTIN]);
    printf("native per animation / built-in  %.2f (one call per animation: animrt_curve_fn)\n",
           best[PER_ENTRY] / best[BUILTIN]);
    printf("ffi-bound / native per animation %.2f (target <= 2: both one call per animation)\n",
           best[BOUND] / best[PER_ENTRY]);
    printf("ns_builtin %.3f\nns_native_block %.3f\nns_native %.3f\nns_bound %.3f\n", best[BUILTIN], best[BLOCK],
           best[PER_ENTRY], best[BOUND]);

    /* One call of example_bounce through ffi_call with a prepared cif, and directly. */
    double (*fn)(double) = NULL;
    sym = dlsym(lib, "example_bounce");
    if (!sym) { fprintf(stderr, "plugin_bench: %s\n", dlerror()); return 1; }
    memcpy(&fn, &sym, sizeof fn);
    ffi_cif cif;
    ffi_type *args[1] = {&ffi_type_double};
    if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, 1, &ffi_type_double, args) != FFI_OK) return 1;
    const int calls = 20000000;
    double bestffi = 1e9, bestdirect = 1e9, sink = 0;
    for (int round = 0; round < 3; round++) {
        double t0 = now_s();
        for (int i = 0; i < calls; i++) {
            double x = (i & 1023) / 1024.0, y;
            void *values[1] = {&x};
            ffi_call(&cif, FFI_FN(fn), &y, values);
            sink += y;
        }
        double t1 = now_s();
        double (*volatile direct)(double) = fn;
        for (int i = 0; i < calls; i++) sink += direct((i & 1023) / 1024.0);
        double t2 = now_s();
        if ((t1 - t0) * 1e9 / calls < bestffi) bestffi = (t1 - t0) * 1e9 / calls;
        if ((t2 - t1) * 1e9 / calls < bestdirect) bestdirect = (t2 - t1) * 1e9 / calls;
    }
    printf("one call of example_bounce: ffi_call %.2f ns, direct %.2f ns (sink %g)\n", bestffi, bestdirect, sink);
    printf("ns_ffi_call %.3f\nns_direct_call %.3f\n", bestffi, bestdirect);
    return 0;
}
