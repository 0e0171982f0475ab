/* Timing semantics through the C ABI (docs/timing.md): Web Animations'
 * vocabulary, reading attached animations back, computed timing, layer
 * time, path keyframes, spring parameterisations, decay, velocity and
 * retargeting. Expected values are derived in the comments. */
#include <stdlib.h>
#include "check.h"

static animrt_runtime *rt_new(void) {
    animrt_runtime *rt = NULL;
    if (animrt_runtime_create(0, &rt) != ANIMRT_OK) { fprintf(stderr, "cannot create a runtime\n"); exit(2); }
    return rt;
}

static animrt_keypath kp(animrt_runtime *rt, const char *path) {
    animrt_keypath id = -1;
    animrt_keypath_id(rt, path, &id);
    return id;
}

static double presentation(animrt_runtime *rt, animrt_id layer, const char *path) {
    double v = NAN;
    size_t n = 0;
    animrt_layer_get_presentation(rt, layer, kp(rt, path), &v, 1, &n);
    return v;
}

static animrt_id basic(animrt_runtime *rt, const char *path, double from, double to, double duration) {
    animrt_id a = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, path, &a);
    animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1);
    animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, duration);
    return a;
}

/* WA1: delay 0.5 after the begin time, zero iterations, zero-length
 * iterations; Core Animation's names replace the Web Animations ones. */
TEST(web_animations_vocabulary) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, zero = 0;
    animrt_layer_create(rt, 0, &layer);
    animrt_id a = basic(rt, "opacity", 0, 10, 0);
    CHECK_OK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_ITERATION_DURATION, 1));
    CHECK_OK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DELAY, 0.5));
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "a", 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 2));
    CHECK(presentation(rt, layer, "opacity") == 1);     /* before: the model */
    CHECK_OK(animrt_runtime_tick(rt, 3));
    CHECK(presentation(rt, layer, "opacity") == 5);     /* (3 - 2 - 0.5) / 1 */
    /* 2.5 zero-length iterations: overall progress 2.5, simple 0.5. */
    zero = basic(rt, "cornerRadius", 10, 20, 0);
    CHECK_OK(animrt_animation_set_timing(rt, zero, ANIMRT_TIMING_ITERATION_DURATION, 0));
    CHECK_OK(animrt_animation_set_timing(rt, zero, ANIMRT_TIMING_ITERATIONS, 2.5));
    CHECK_OK(animrt_animation_set_fill_mode(rt, zero, ANIMRT_FILL_FORWARDS));
    CHECK_OK(animrt_animation_set_flag(rt, zero, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
    double v = -1;
    CHECK_OK(animrt_animation_get_timing(rt, zero, ANIMRT_TIMING_ITERATIONS, &v));
    CHECK(v == 2.5);
    CHECK_OK(animrt_animation_get_timing(rt, zero, ANIMRT_TIMING_ITERATION_DURATION, &v));
    CHECK(v == 0);
    CHECK_OK(animrt_layer_add_animation(rt, layer, zero, "zero", 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 4));
    CHECK(presentation(rt, layer, "cornerRadius") == 15);
    /* DURATION replaces the exact iteration duration: 0 is 0.25 s again. */
    CHECK_OK(animrt_animation_set_timing(rt, zero, ANIMRT_TIMING_DURATION, 0));
    CHECK_OK(animrt_animation_get_timing(rt, zero, ANIMRT_TIMING_ITERATION_DURATION, &v));
    CHECK(v == 0.25);
    CHECK_OK(animrt_animation_set_timing(rt, zero, ANIMRT_TIMING_REPEAT_COUNT, 0));
    CHECK_OK(animrt_animation_get_timing(rt, zero, ANIMRT_TIMING_ITERATIONS, &v));
    CHECK(v == 1);
    /* Bad values change nothing. */
    CHECK_STATUS(animrt_animation_set_timing(rt, zero, ANIMRT_TIMING_ITERATIONS, -1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_timing(rt, zero, ANIMRT_TIMING_ITERATION_DURATION, INFINITY), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing(rt, zero, ANIMRT_TIMING_DELAY, NAN), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing(rt, zero, (animrt_timing_param)11, 1), ANIMRT_E_ENUM);
    CHECK_OK(animrt_animation_get_timing(rt, zero, ANIMRT_TIMING_ITERATIONS, &v));
    CHECK(v == 1);
    animrt_runtime_destroy(rt);
}

/* CSS Easing: step-start = steps(1, start); linear(0, 0.25 75%, 1) at 0.5
 * is 0.5 / 0.75 × 0.25 = 1/6. */
TEST(easing_keywords_and_linear_stops) {
    animrt_runtime *rt = rt_new();
    double y = -1;
    CHECK_OK(animrt_timing_function_evaluate(rt, "step-start", 0.1, &y));
    CHECK(y == 1);
    CHECK_OK(animrt_timing_function_evaluate(rt, "step-end", 0.9, &y));
    CHECK(y == 0);
    CHECK_OK(animrt_timing_function_evaluate(rt, "linear(0, 0.25 75%, 1)", 0.5, &y));
    CHECK_NEAR(y, 1.0 / 6.0, 1e-15);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "linear(1)", 0.5, &y), ANIMRT_E_INVALID);
    CHECK_MESSAGE("at least two stops");
    animrt_runtime_destroy(rt);
}

int main(void) {
    RUN(web_animations_vocabulary);
    RUN(easing_keywords_and_linear_stops);
    return check_report();
}
