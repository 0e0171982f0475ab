/* Random calls with random and hostile arguments — stale, foreign and made-up
 * handles, NaN and infinities, negative and huge numbers, invalid UTF-8, NULL
 * pointers, time going backwards — interleaved with valid work. Every call
 * must return a known status and the process must survive (run under
 * ASan/UBSan by make test). Deterministic: a fixed seed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "animrt.h"

static unsigned long long seed = 42;
static unsigned rnd(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(seed >> 33);
}
static double pick_double(void) {
    static const double special[] = {0, -0.0, 1, -1, 0.5, 2, 1e300, -1e300, 1e-300, 0.25, 100};
    switch (rnd() % 6) {
    case 0: return NAN;
    case 1: return rnd() % 2 ? INFINITY : -INFINITY;
    case 2: return special[rnd() % (sizeof special / sizeof *special)];
    default: return ((double)rnd() / 4294967296.0) * 4 - 1;
    }
}

#define POOL 64
static animrt_id pool[POOL];
static int pool_n;
static void remember(animrt_id id) { if (id) pool[pool_n++ % POOL] = id; }
static animrt_id pick_id(animrt_id foreign) {
    switch (rnd() % 8) {
    case 0: return 0;
    case 1: return ((animrt_id)rnd() << 32) | rnd();
    case 2: return foreign;
    default: return pool_n ? pool[rnd() % (pool_n < POOL ? pool_n : POOL)] : 0;
    }
}
static const char *pick_string(void) {
    static const char *names[] = {"opacity", "position", "position.x", "bounds.size.width", "transform",
        "transform.rotation.z", "transform.scale", "backgroundColor", "opacty", "", "easeIn", "steps(3, jump-both)",
        "cubic-bezier(0.1, 2, 0.9, -1)", "cubic-bezier(2, 0, 0, 1)", "steps(0)", "\xff\xfe", "k\xc3\x28", "progress",
        "a.b.c.d.e", "transform.rotation.w"};
    return names[rnd() % (sizeof names / sizeof *names)];
}

int main(void) {
    animrt_runtime *rt = NULL, *other = NULL;
    if (animrt_runtime_create(8, &rt) || animrt_runtime_create(0, &other)) return 2;
    animrt_id foreign = 0;
    animrt_layer_create(other, 0, &foreign);
    double zero = 0, now = 0;
    animrt_property_define(rt, "progress", ANIMRT_VALUE_SCALAR, &zero, 1);
    long calls = 0, bad_status = 0, ok = 0;
    double values[16];
    animrt_event events[8];
    char text[8];
    for (int i = 0; i < 200000; i++) {
        animrt_id out = 0, a = pick_id(foreign), b = pick_id(foreign);
        animrt_keypath kp = (animrt_keypath)(rnd() % 24) - 2;
        size_t n = 0;
        int count = (int)(rnd() % 18);
        size_t huge = rnd() % 2 ? SIZE_MAX : ((size_t)1 << 29) + rnd();
        for (int k = 0; k < 16; k++) values[k] = pick_double();
        animrt_status s;
        switch (rnd() % 29) {
        case 0: s = animrt_layer_create(rt, rnd() % 2 ? 0 : a, &out); break;
        case 1: s = animrt_layer_destroy(rt, a); break;
        case 2: s = animrt_layer_set_parent(rt, a, b); break;
        case 3: s = animrt_layer_set_timing(rt, a, pick_double(), pick_double(), pick_double()); break;
        case 4: s = animrt_keypath_id(rt, pick_string(), &kp); break;
        case 5: {
            animrt_id pair[2] = {a, b};
            s = rnd() % 4 ? animrt_layer_set_value(rt, a, kp, rnd() % 8 ? values : NULL, (size_t)count)
                          : animrt_layer_set_values(rt, rnd() % 8 ? pair : NULL, rnd() % 3, kp, rnd() % 8 ? values : NULL, (size_t)count);
            break;
        }
        case 6: s = animrt_layer_get_presentation(rt, a, kp, values, (size_t)(count < 16 ? count : 16), &n); break;
        case 7: s = animrt_layer_get_value(rt, a, kp, values, 16, &n); break;
        case 8: s = animrt_animation_create(rt, (animrt_animation_kind)(rnd() % 5), rnd() % 6 ? pick_string() : NULL, &out); break;
        case 9: s = animrt_animation_set_timing(rt, a, (animrt_timing_param)(rnd() % 10), pick_double()); break;
        case 10: s = animrt_animation_set_value(rt, a, (animrt_value_slot)(rnd() % 4), values, (size_t)count); break;
        case 11: s = animrt_animation_set_timing_function(rt, a, rnd() % 5 ? pick_string() : NULL); break;
        case 12: s = animrt_animation_set_cubic_bezier(rt, a, pick_double(), pick_double(), pick_double(), pick_double()); break;
        case 13: s = animrt_animation_set_spring(rt, a, pick_double(), pick_double(), pick_double(), pick_double()); break;
        case 14: s = animrt_keyframe_set_values(rt, a, values, (size_t)(count / 4), (size_t)(rnd() % 5)); break;
        case 15: s = animrt_keyframe_set_key_times(rt, a, values, (size_t)(count < 16 ? count : 16)); break;
        case 16: s = animrt_keyframe_set_calculation_mode(rt, a, (animrt_calculation_mode)(rnd() % 7)); break;
        case 17: s = animrt_group_add(rt, a, b); break;
        case 18: s = animrt_layer_add_animation(rt, a, b, rnd() % 2 ? pick_string() : NULL, pick_id(foreign), &out); break;
        case 19: s = animrt_layer_remove_animation(rt, a, pick_string(), NULL); break;
        case 20: s = animrt_layer_remove_all_animations(rt, a); break;
        case 21: s = animrt_barrier_create(rt, &out); break;
        case 22: s = rnd() % 2 ? animrt_barrier_enter(rt, a) : animrt_barrier_leave(rt, a); break;
        case 23: s = animrt_barrier_notify(rt, a, rnd()); break;
        case 24: s = rnd() % 2 ? animrt_transaction_begin(rt, pick_double()) : animrt_transaction_commit(rt, rnd()); break;
        case 25: s = animrt_timer_start(rt, pick_double(), rnd(), &out); break;
        case 26: s = animrt_layer_animation_key(rt, a, rnd() % 4, text, sizeof text, &n); break;
        case 27: s = rnd() % 2 ? animrt_keyframe_set_key_times(rt, a, values, huge)
                               : animrt_layer_set_value(rt, a, kp, values, huge); break;
        default:
            now += rnd() % 10 == 0 ? -0.5 : 0.016 * (rnd() % 4);
            s = animrt_runtime_tick(rt, rnd() % 50 ? now : pick_double());
            animrt_event_poll(rt, events, 8, &n);
            break;
        }
        calls++;
        if (s < ANIMRT_OK || s > ANIMRT_E_ENUM) { bad_status++; fprintf(stderr, "unknown status %d\n", s); }
        if (s == ANIMRT_OK) { ok++; remember(out); }
        if (rnd() % 3 == 0) remember(a);
    }
    animrt_runtime_destroy(other);
    animrt_runtime_destroy(rt);
    printf("chaos: %ld calls, %ld succeeded, the rest refused with a status; none crashed\n", calls, ok);
    printf("%ld passed, %ld failed\n", calls - bad_status, bad_status);
    return bad_status != 0;
}
