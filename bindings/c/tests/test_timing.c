/* Timing semantics through the C ABI (docs/timing.md): Web Animations'
 * vocabulary, reading attached animations back, computed timing, layer
 * time, path keyframes, spring parameterisations, decay, velocity and
 * retargeting. Expected values are derived in the comments. */
#include <stdlib.h>
#include "check.h"
#include "scene.h"

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

/* Core Animation's animation(forKey:) copy: duration 0 becomes 0.25 s when
 * added, beginTime 0 is stamped at the next tick; the copy is read-only. */
TEST(attached_read_back) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, inst = 0, found = 0;
    animrt_layer_create(rt, 0, &layer);
    CHECK_OK(animrt_runtime_tick(rt, 3));
    animrt_id a = basic(rt, "position.x", 1, 3, 0);
    CHECK_OK(animrt_animation_set_timing_function(rt, a, "linear(0, 0.25 75%, 1)"));
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "x", 0, &inst));
    CHECK_OK(animrt_layer_animation_for_key(rt, layer, "x", &found));
    CHECK(found == inst);
    CHECK_STATUS(animrt_layer_animation_for_key(rt, layer, "none", &found), ANIMRT_E_NOT_FOUND);
    {   /* "" is a key like any other, as in Core Animation: a second add under it replaces the first. */
        animrt_id first = 0, second = 0, under = 0;
        size_t count = 0;
        CHECK_OK(animrt_layer_add_animation(rt, layer, a, "", 0, &first));
        CHECK_OK(animrt_layer_add_animation(rt, layer, a, "", 0, &second));
        CHECK(first != second);
        CHECK_OK(animrt_layer_animation_for_key(rt, layer, "", &under));
        CHECK(under == second);
        CHECK_OK(animrt_layer_animation_count(rt, layer, &count));
        CHECK(count == 2);  /* "x" and "" */
        int removed = 0;
        CHECK_OK(animrt_layer_remove_animation(rt, layer, "", &removed));
        CHECK(removed == 1);
        CHECK_STATUS(animrt_layer_animation_for_key(rt, layer, "", &under), ANIMRT_E_NOT_FOUND);
    }
    double v = -1;
    CHECK_OK(animrt_animation_get_timing(rt, inst, ANIMRT_TIMING_BEGIN_TIME, &v));
    CHECK(v == 0);
    CHECK_OK(animrt_animation_get_timing(rt, inst, ANIMRT_TIMING_DURATION, &v));
    CHECK(v == 0.25);
    CHECK_OK(animrt_runtime_tick(rt, 5));
    CHECK_OK(animrt_animation_get_timing(rt, inst, ANIMRT_TIMING_BEGIN_TIME, &v));
    CHECK(v == 5);
    char text[64]; size_t needed = 0;
    CHECK_OK(animrt_animation_get_key_path(rt, inst, text, sizeof text, &needed));
    CHECK(strcmp(text, "position.x") == 0 && needed == 11);
    CHECK_OK(animrt_animation_get_timing_function(rt, inst, text, sizeof text, &needed));
    CHECK(strcmp(text, "linear(0 0%, 0.25 75%, 1 100%)") == 0);
    CHECK_STATUS(animrt_animation_get_timing_function(rt, inst, text, 4, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 31);
    double ends[2] = {0, 0}; size_t n = 9;
    CHECK_OK(animrt_animation_get_value(rt, inst, ANIMRT_TO, ends, 2, &n));
    CHECK(n == 1 && ends[0] == 3);
    CHECK_OK(animrt_animation_get_value(rt, inst, ANIMRT_BY, ends, 2, &n));
    CHECK(n == 0);
    animrt_animation_kind kind = ANIMRT_ANIMATION_GROUP;
    CHECK_OK(animrt_animation_get_kind(rt, inst, &kind));
    CHECK(kind == ANIMRT_ANIMATION_BASIC);
    int flag = -1;
    CHECK_OK(animrt_animation_get_flag(rt, inst, ANIMRT_FLAG_REMOVED_ON_COMPLETION, &flag));
    CHECK(flag == 1);
    CHECK_STATUS(animrt_animation_get_flag(rt, inst, ANIMRT_FLAG_ALLOWS_OVERDAMPING, &flag), ANIMRT_E_KIND);
    /* Read-only: a setter refuses the attached handle and changes nothing. */
    CHECK_STATUS(animrt_animation_set_timing(rt, inst, ANIMRT_TIMING_SPEED, 2), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("read-only");
    CHECK_OK(animrt_animation_get_timing(rt, inst, ANIMRT_TIMING_SPEED, &v));
    CHECK(v == 1);
    /* Keyframes: values and key times as set. */
    animrt_id k = 0, kinst = 0;
    double values[3] = {0, 1, 0.5}, times[3] = {0, 0.2, 1}, back[4];
    animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &k);
    animrt_keyframe_set_values(rt, k, values, 3, 1);
    animrt_keyframe_set_key_times(rt, k, times, 3);
    CHECK_OK(animrt_layer_add_animation(rt, layer, k, "k", 0, &kinst));
    CHECK_OK(animrt_keyframe_get_values(rt, kinst, back, 4, &needed));
    CHECK(needed == 3 && back[1] == 1 && back[2] == 0.5);
    CHECK_STATUS(animrt_keyframe_get_key_times(rt, kinst, back, 2, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 3);
    CHECK_STATUS(animrt_keyframe_get_values(rt, inst, back, 4, &needed), ANIMRT_E_KIND);
    /* Removed: the handle is stale. */
    CHECK_OK(animrt_layer_remove_animation(rt, layer, "x", NULL));
    CHECK_STATUS(animrt_animation_get_timing(rt, inst, ANIMRT_TIMING_BEGIN_TIME, &v), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("is stale (it finished and was removed, or was removed or replaced)");
    animrt_runtime_destroy(rt);
}

/* WA1: duration 1, 3 iterations, delay 0.5, alternate, begin 10: active
 * duration 3, end time 3.5; at 11.75 local 1.75, active 1.25, iteration 1
 * played reversed, progress 0.75. */
TEST(computed_timing) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, inst = 0;
    animrt_layer_create(rt, 0, &layer);
    CHECK_OK(animrt_runtime_tick(rt, 9));
    animrt_id a = basic(rt, "opacity", 0, 1, 0);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_ITERATION_DURATION, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_ITERATIONS, 3);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DELAY, 0.5);
    animrt_animation_set_direction(rt, a, ANIMRT_DIRECTION_ALTERNATE);
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "a", 0, &inst));
    animrt_computed_timing c;
    CHECK_OK(animrt_animation_get_computed_timing(rt, inst, &c));
    CHECK(c.phase == ANIMRT_PHASE_IDLE && isnan(c.local_time) && c.in_effect == 0);
    /* Not in effect: the unresolved fields are NaN, not 0 (0 is the first iteration, progress 0 its start). */
    CHECK(isnan(c.active_time) && isnan(c.current_iteration) && isnan(c.progress));
    CHECK(c.active_duration == 3 && c.end_time == 3.5);
    CHECK_OK(animrt_runtime_tick(rt, 10));
    CHECK_OK(animrt_runtime_tick(rt, 11.75));
    CHECK_OK(animrt_animation_get_computed_timing(rt, inst, &c));
    CHECK(c.phase == ANIMRT_PHASE_ACTIVE && c.in_effect == 1);
    CHECK(c.local_time == 1.75 && c.active_time == 1.25 && c.current_iteration == 1 && c.progress == 0.75);
    CHECK_STATUS(animrt_animation_get_computed_timing(rt, a, &c), ANIMRT_E_HANDLE);  /* a description */
    CHECK_MESSAGE("names an animation description, not an attached animation: use the handle "
                  "animrt_layer_add_animation gave");
    /* And the other way round: a setter given the attached copy says it is read-only, once. */
    CHECK_STATUS(animrt_animation_set_timing(rt, inst, ANIMRT_TIMING_SPEED, 2), ANIMRT_E_HANDLE);
    CHECK_MESSAGE(" is read-only: it is the copy a layer holds");
    CHECK(strstr(animrt_last_error_message(), "is an attached animation") == NULL);
    CHECK_STATUS(animrt_animation_get_computed_timing(rt, inst, NULL), ANIMRT_E_NULL);
    animrt_runtime_destroy(rt);
}

/* The lifecycle follows the events sent, and only forwards: a fade from
 * 0.25 to 1.75 in the time of a layer that plays 0 → 2 → 0 every 4 s,
 * kept after its end. At 2.5 the layer shows 1.5 (mid-way again) but went
 * past 1.75 in that tick: the fade finished, its phase says ACTIVE. At
 * 5.75 the layer passes 1.75 again: no second stop. */
TEST(lifecycle) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, kept = 0, gone = 0, other = 0;
    animrt_lifecycle state = 99;
    animrt_computed_timing c;
    animrt_event ev[4];
    size_t n = 0;
    animrt_layer_create(rt, 0, &layer);
    animrt_layer_create(rt, 0, &other);
    CHECK_OK(animrt_layer_set_timing_param(rt, layer, ANIMRT_TIMING_DURATION, 2));
    CHECK_OK(animrt_layer_set_timing_param(rt, layer, ANIMRT_TIMING_REPEAT_COUNT, INFINITY));
    CHECK_OK(animrt_layer_set_autoreverses(rt, layer, 1));
    animrt_id a = basic(rt, "opacity", 0, 1, 1.5);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, 0.25);
    animrt_animation_set_fill_mode(rt, a, ANIMRT_FILL_FORWARDS);
    animrt_animation_set_flag(rt, a, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0);
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "fade", 0, &kept));
    animrt_id b = basic(rt, "opacity", 0, 1, 1);  /* removed on completion: 0 → 1 on the plain layer */
    CHECK_OK(animrt_layer_add_animation(rt, other, b, "fade", 0, &gone));
    CHECK_OK(animrt_animation_get_lifecycle(rt, kept, &state));
    CHECK(state == ANIMRT_LIFECYCLE_WAITING);
    CHECK_OK(animrt_runtime_tick(rt, 0.5));
    CHECK_OK(animrt_event_poll(rt, ev, 4, &n));
    CHECK(n == 2 && ev[0].type == ANIMRT_EVENT_ANIMATION_STARTED && ev[1].type == ANIMRT_EVENT_ANIMATION_STARTED);
    CHECK_OK(animrt_animation_get_lifecycle(rt, kept, &state));
    CHECK(state == ANIMRT_LIFECYCLE_STARTED);
    CHECK_OK(animrt_animation_get_lifecycle(rt, gone, &state));
    CHECK(state == ANIMRT_LIFECYCLE_STARTED);
    CHECK_OK(animrt_runtime_tick(rt, 1.5));  /* the plain layer's fade ends at 1.5 */
    CHECK_OK(animrt_event_poll(rt, ev, 4, &n));
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_ANIMATION_STOPPED && ev[0].object == gone);
    CHECK_STATUS(animrt_animation_get_lifecycle(rt, gone, &state), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("is stale");
    CHECK_OK(animrt_animation_get_lifecycle(rt, kept, &state));
    CHECK(state == ANIMRT_LIFECYCLE_STARTED);
    CHECK_OK(animrt_runtime_tick(rt, 2.5));
    CHECK_OK(animrt_event_poll(rt, ev, 4, &n));
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_ANIMATION_STOPPED && ev[0].object == kept
          && ev[0].reason == ANIMRT_STOP_FINISHED);
    CHECK_OK(animrt_animation_get_computed_timing(rt, kept, &c));
    CHECK(c.phase == ANIMRT_PHASE_ACTIVE && c.local_time == 1.25);
    CHECK_OK(animrt_animation_get_lifecycle(rt, kept, &state));
    CHECK(state == ANIMRT_LIFECYCLE_FINISHED);
    CHECK_OK(animrt_runtime_tick(rt, 3.5));
    CHECK_OK(animrt_runtime_tick(rt, 5.75));
    CHECK_OK(animrt_event_poll(rt, ev, 4, &n));
    CHECK(n == 0);
    CHECK_OK(animrt_animation_get_lifecycle(rt, kept, &state));
    CHECK(state == ANIMRT_LIFECYCLE_FINISHED);
    CHECK_STATUS(animrt_animation_get_lifecycle(rt, a, &state), ANIMRT_E_HANDLE);  /* a description */
    CHECK_MESSAGE("names an animation description, not an attached animation");
    CHECK_STATUS(animrt_animation_get_lifecycle(rt, kept, NULL), ANIMRT_E_NULL);
    animrt_runtime_destroy(rt);
}

/* QA1673 on a child of a layer with begin 1 and speed 2: the child's time
 * is (t - 1) × 2. A 10 s fade added at 2 is stamped at 2 (the child's time
 * at the tick); at 3 (child time
 * 4) it shows 0.2, held while paused; resumed at 5 (parent time 8, begin
 * time 8 - 4) it shows 0.4 at 6. */
TEST(layer_time_and_pause) {
    animrt_runtime *rt = rt_new();
    animrt_id parent = 0, child = 0, timed = 0;
    animrt_layer_create(rt, 0, &parent);
    animrt_layer_create(rt, parent, &child);
    CHECK_OK(animrt_layer_set_timing(rt, parent, 1, 2, 0));
    CHECK_OK(animrt_runtime_tick(rt, 2));
    CHECK_OK(animrt_layer_add_animation(rt, child, basic(rt, "opacity", 0, 1, 10), "fade", 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 2));   /* stamps the begin time: child time 2 */
    CHECK_OK(animrt_runtime_tick(rt, 3));
    CHECK_NEAR(presentation(rt, child, "opacity"), 0.2, 1e-15);
    double paused = 0, now = 0;
    CHECK_OK(animrt_layer_convert_time(rt, 3, 0, child, &paused));
    CHECK(paused == 4);
    CHECK_OK(animrt_layer_set_timing(rt, child, 0, 0, paused));
    CHECK_OK(animrt_runtime_tick(rt, 5));
    CHECK_NEAR(presentation(rt, child, "opacity"), 0.2, 1e-15);
    CHECK_OK(animrt_layer_set_timing(rt, child, 0, 1, 0));
    CHECK_OK(animrt_layer_convert_time(rt, 5, 0, child, &now));
    CHECK_OK(animrt_layer_set_timing(rt, child, now - paused, 1, 0));
    CHECK_OK(animrt_runtime_tick(rt, 6));
    CHECK_NEAR(presentation(rt, child, "opacity"), 0.4, 1e-15);
    CHECK_OK(animrt_layer_convert_time(rt, 6, 0, child, &now));
    CHECK_OK(animrt_layer_convert_time(rt, now, child, 0, &now));
    CHECK(now == 6);
    /* A timed layer: duration 1, begin 1, no fill: outside [1, 2) nothing
     * of it is in effect. */
    animrt_layer_create(rt, 0, &timed);
    CHECK_OK(animrt_layer_set_timing_param(rt, timed, ANIMRT_TIMING_DURATION, 1));
    CHECK_OK(animrt_layer_set_timing_param(rt, timed, ANIMRT_TIMING_BEGIN_TIME, 7));
    CHECK_OK(animrt_layer_add_animation(rt, timed, basic(rt, "opacity", 0, 1, 1), "f", 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 7));   /* stamped with the layer's time 0 */
    CHECK_OK(animrt_runtime_tick(rt, 7.5));
    CHECK(presentation(rt, timed, "opacity") == 0.5);
    CHECK_OK(animrt_runtime_tick(rt, 8.5));
    CHECK(presentation(rt, timed, "opacity") == 1);
    double v = 0;
    CHECK_OK(animrt_layer_get_timing_param(rt, child, ANIMRT_TIMING_ITERATION_DURATION, &v));
    CHECK(isinf(v));
    CHECK_OK(animrt_layer_set_fill_mode(rt, timed, ANIMRT_FILL_BOTH));
    CHECK_OK(animrt_layer_set_direction(rt, timed, ANIMRT_DIRECTION_REVERSE));
    CHECK_OK(animrt_layer_set_autoreverses(rt, timed, 1));
    CHECK_STATUS(animrt_layer_set_timing_param(rt, timed, ANIMRT_TIMING_DURATION, -1), ANIMRT_E_RANGE);
    /* A layer's zero duration is unbounded, not an animation's 0.25 s. */
    CHECK_MESSAGE("layer duration is -1; it must be 0 (unbounded, the default) or more");
    CHECK(strstr(animrt_last_error_message(), "0.25") == NULL);
    CHECK_STATUS(animrt_layer_set_fill_mode(rt, timed, (animrt_fill_mode)9), ANIMRT_E_ENUM);
    CHECK_OK(animrt_layer_get_timing_param(rt, timed, ANIMRT_TIMING_DURATION, &v));
    CHECK(v == 1);
    /* Out of a paused layer there is no answer. */
    CHECK_OK(animrt_layer_set_timing(rt, child, 0, 0, 3));
    CHECK_STATUS(animrt_layer_convert_time(rt, 3, child, 0, &v), ANIMRT_E_STATE);
    CHECK_STATUS(animrt_layer_convert_time(rt, NAN, 0, child, &v), ANIMRT_E_INVALID);
    animrt_runtime_destroy(rt);
}

/* SwiftUI's Spring(response: 0.5, dampingRatio: 0.825): k = (2π/0.5)²,
 * c = 4π × 0.825 / 0.5. Perceptual duration 0.5, bounce 0.3: ratio 0.7. The
 * bounce range is (-1, 1]: -1 would be an infinite damping ratio. */
TEST(spring_parameterisations) {
    animrt_runtime *rt = rt_new();
    animrt_id s = 0;
    double v = 0, pi = 3.141592653589793;
    animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &s);
    CHECK_OK(animrt_animation_set_spring(rt, s, 1, 100, 10, 2));
    CHECK_OK(animrt_animation_set_spring_response(rt, s, 0.5, 0.825));
    CHECK_OK(animrt_animation_get_spring_param(rt, s, ANIMRT_SPRING_STIFFNESS, &v));
    CHECK_NEAR(v, (2 * pi / 0.5) * (2 * pi / 0.5), 1e-9);
    CHECK_OK(animrt_animation_get_spring_param(rt, s, ANIMRT_SPRING_DAMPING, &v));
    CHECK_NEAR(v, 4 * pi * 0.825 / 0.5, 1e-12);
    CHECK_OK(animrt_animation_get_spring_param(rt, s, ANIMRT_SPRING_INITIAL_VELOCITY, &v));
    CHECK(v == 2);  /* kept */
    CHECK_OK(animrt_animation_set_spring_perceptual(rt, s, 0.5, 0.3));
    CHECK_OK(animrt_animation_get_spring_param(rt, s, ANIMRT_SPRING_DAMPING_RATIO, &v));
    CHECK_NEAR(v, 0.7, 1e-12);
    CHECK_OK(animrt_animation_get_spring_param(rt, s, ANIMRT_SPRING_PERCEPTUAL_DURATION, &v));
    CHECK_NEAR(v, 0.5, 1e-12);
    CHECK_OK(animrt_animation_get_spring_param(rt, s, ANIMRT_SPRING_BOUNCE, &v));
    CHECK_NEAR(v, 0.3, 1e-12);
    int over = 0, settle = 1;
    CHECK_OK(animrt_animation_get_flag(rt, s, ANIMRT_FLAG_ALLOWS_OVERDAMPING, &over));
    CHECK(over == 1);
    CHECK_OK(animrt_animation_get_flag(rt, s, ANIMRT_FLAG_SETTLING_DURATION, &settle));
    CHECK(settle == 0);
    CHECK_OK(animrt_animation_set_spring_perceptual(rt, s, 0.5, 1));     /* undamped: ratio 0 */
    CHECK_STATUS(animrt_animation_set_spring_perceptual(rt, s, 0.5, -1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_spring_perceptual(rt, s, 0.5, 1.000001), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_spring_response(rt, s, 0, 1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_spring_response(rt, s, 1e-200, 1), ANIMRT_E_INVALID);  /* k overflows */
    CHECK_STATUS(animrt_animation_set_spring_response(rt, s, 0.5, NAN), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_get_spring_param(rt, s, (animrt_spring_param)9, &v), ANIMRT_E_ENUM);
    CHECK_OK(animrt_animation_get_spring_param(rt, s, ANIMRT_SPRING_DAMPING_RATIO, &v));
    CHECK(v == 0);  /* the refused calls changed nothing */
    animrt_id b = basic(rt, "opacity", 0, 1, 1);
    CHECK_STATUS(animrt_animation_set_spring_response(rt, b, 0.5, 1), ANIMRT_E_KIND);
    animrt_runtime_destroy(rt);
}

/* Decay: v(t) = v0 · r^(1000 t), so x(t) = x0 + v0 (r^(1000 t) - 1) /
 * (1000 ln r), at rest when the speed is 0.5: D = ln(0.5 / v0) / (1000 ln r). */
TEST(decay) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, d = 0, inst = 0;
    animrt_layer_create(rt, 0, &layer);
    double v0 = 1000, x0 = 20, r = 0.99, rate = 0, rest = 0, dur = 0;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_DECAY, "position.x", &d));
    CHECK_OK(animrt_animation_get_decay(rt, d, &rate, &rest));
    CHECK(rate == 0.998 && rest == 0.5);
    CHECK_OK(animrt_animation_set_decay(rt, d, r, 0.5));
    CHECK_OK(animrt_animation_set_value(rt, d, ANIMRT_VELOCITY, &v0, 1));
    CHECK_OK(animrt_animation_set_value(rt, d, ANIMRT_FROM, &x0, 1));
    CHECK_STATUS(animrt_animation_set_value(rt, d, ANIMRT_TO, &x0, 1), ANIMRT_E_KIND);
    CHECK_OK(animrt_animation_get_settling_duration(rt, d, &dur));
    CHECK_NEAR(dur, log(0.5 / v0) / (1000 * log(r)), 1e-12);
    CHECK_OK(animrt_layer_add_animation(rt, layer, d, "fling", 0, &inst));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.25));
    CHECK_NEAR(presentation(rt, layer, "position.x"), x0 + v0 * (pow(r, 250) - 1) / (1000 * log(r)), 1e-9);
    double back = 0; size_t n = 0;
    CHECK_OK(animrt_animation_get_value(rt, inst, ANIMRT_VELOCITY, &back, 1, &n));
    CHECK(n == 1 && back == v0);
    CHECK_OK(animrt_animation_get_timing(rt, inst, ANIMRT_TIMING_ITERATION_DURATION, &back));
    CHECK_NEAR(back, dur, 1e-12);
    CHECK_STATUS(animrt_animation_set_decay(rt, d, 1, 0.5), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_decay(rt, d, 0.5, 0), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_decay(rt, d, NAN, 0.5), ANIMRT_E_INVALID);
    CHECK_OK(animrt_animation_get_decay(rt, d, &rate, NULL));
    CHECK(rate == r);
    animrt_id t = 0;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_DECAY, "transform", &t));
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, t, "t", 0, NULL), ANIMRT_E_KIND);
    animrt_runtime_destroy(rt);
}

/* A 0 -> 10 fade over 2 s under a layer at speed 2 moves at 10 per second.
 * Retargeting a spring keeps the value shown and the velocity. */
TEST(velocity_and_retarget) {
    animrt_runtime *rt = rt_new();
    animrt_id parent = 0, layer = 0, fade = 0, spring = 0, s = 0;
    animrt_layer_create(rt, 0, &parent);
    animrt_layer_create(rt, parent, &layer);
    CHECK_OK(animrt_layer_set_timing(rt, parent, 0, 2, 0));
    CHECK_OK(animrt_layer_add_animation(rt, layer, basic(rt, "opacity", 0, 10, 2), "fade", 0, &fade));
    double from[2] = {0, 0}, to[2] = {100, 0}, target[2] = {40, 30}, v[2] = {0, 0}, after[2] = {0, 0};
    double p[2] = {0, 0}, q[2] = {0, 0};
    animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "position", &s);
    animrt_animation_set_value(rt, s, ANIMRT_FROM, from, 2);
    animrt_animation_set_value(rt, s, ANIMRT_TO, to, 2);
    animrt_animation_set_timing(rt, s, ANIMRT_TIMING_DURATION, 5);
    CHECK_OK(animrt_layer_add_animation(rt, layer, s, "spring", 0, &spring));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.1));
    size_t n = 0;
    CHECK_OK(animrt_animation_get_velocity(rt, fade, NULL, v, 2, &n));
    CHECK(n == 1 && v[0] == 10);
    CHECK_STATUS(animrt_animation_get_velocity(rt, fade, "position", v, 2, &n), ANIMRT_E_NOT_FOUND);
    CHECK_OK(animrt_animation_get_velocity(rt, spring, "position", v, 2, &n));
    CHECK(n == 2 && v[0] > 0);
    CHECK_STATUS(animrt_animation_get_velocity(rt, spring, NULL, v, 1, &n), ANIMRT_E_BUFFER);
    CHECK(n == 2);
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "position"), p, 2, &n));
    CHECK_OK(animrt_animation_retarget(rt, spring, target, 2));
    CHECK_OK(animrt_animation_get_velocity(rt, spring, NULL, after, 2, &n));
    CHECK(after[0] == v[0] && after[1] == v[1]);
    CHECK_OK(animrt_runtime_tick(rt, 0.1));
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "position"), q, 2, &n));
    CHECK(p[0] == q[0] && p[1] == q[1]);
    CHECK_STATUS(animrt_animation_retarget(rt, fade, target, 1), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_retarget(rt, spring, target, 1), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_retarget(rt, spring, NULL, 2), ANIMRT_E_NULL);
    /* A group is no spring either: refused for its kind, as a fade is, not
     * for the key path it does not have. */
    animrt_id group = 0, grouped = 0;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group));
    CHECK_OK(animrt_group_add(rt, group, s));
    CHECK_OK(animrt_layer_add_animation(rt, layer, group, "group", 0, &grouped));
    CHECK_STATUS(animrt_animation_retarget(rt, grouped, target, 2), ANIMRT_E_KIND);
    CHECK(strstr(animrt_last_error_message(), "this one is a group animation") != NULL);
    animrt_event ev[8];
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    CHECK(n == 2);  /* two starts; the retarget sent nothing */
    animrt_runtime_destroy(rt);
}

/* A path M(0,0) L(30,0) Q(60,0 60,30): paced, the line (30 long) takes
 * 30 / (30 + L) of the time; linear, each segment half. With rotation the
 * layer turns to the tangent: along the line, 0. */
TEST(keyframe_path) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, k = 0, inst = 0;
    animrt_layer_create(rt, 0, &layer);
    int32_t commands[3] = {ANIMRT_PATH_MOVE, ANIMRT_PATH_LINE, ANIMRT_PATH_QUAD};
    double points[8] = {0, 0, 30, 0, 60, 0, 60, 30};
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "position", &k));
    CHECK_OK(animrt_keyframe_set_path(rt, k, commands, 3, points, 8));
    CHECK_OK(animrt_keyframe_set_rotation_mode(rt, k, ANIMRT_ROTATE_AUTO));
    CHECK_OK(animrt_animation_set_timing(rt, k, ANIMRT_TIMING_DURATION, 2));
    CHECK_OK(animrt_layer_add_animation(rt, layer, k, "fly", 0, &inst));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.5));
    double p[2]; size_t n = 0;
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "position"), p, 2, &n));
    CHECK(p[0] == 15 && p[1] == 0);
    CHECK_NEAR(presentation(rt, layer, "transform.rotation.z"), 0, 1e-12);
    /* Quadratic at t = 1/2: (1/4)(30,0) + (1/2)(60,0) + (1/4)(60,30) = (52.5, 7.5). */
    CHECK_OK(animrt_runtime_tick(rt, 1.5));
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "position"), p, 2, &n));
    CHECK_NEAR(p[0], 52.5, 1e-12);
    CHECK_NEAR(p[1], 7.5, 1e-12);
    /* Read back. */
    int32_t cmds[4]; double pts[8]; size_t nc = 0, np = 0;
    CHECK_OK(animrt_keyframe_get_path(rt, inst, cmds, 4, &nc, pts, 8, &np));
    CHECK(nc == 3 && np == 8 && cmds[2] == ANIMRT_PATH_QUAD && pts[7] == 30);
    /* A capacity of SIZE_MAX means "enough", for either buffer, as for every array getter. */
    int32_t all_cmds[3] = {-7, -7, -7}; double all_pts[8] = {0};
    nc = np = 0;
    CHECK_OK(animrt_keyframe_get_path(rt, inst, all_cmds, SIZE_MAX, &nc, all_pts, SIZE_MAX, &np));
    CHECK(nc == 3 && np == 8 && all_cmds[0] == ANIMRT_PATH_MOVE && all_cmds[2] == ANIMRT_PATH_QUAD && all_pts[6] == 60);
    /* Both counts are said even when the command buffer is the one too small. */
    nc = np = 0;
    CHECK_STATUS(animrt_keyframe_get_path(rt, inst, cmds, 2, &nc, pts, 8, &np), ANIMRT_E_BUFFER);
    CHECK(nc == 3 && np == 8);
    /* The points buffer the short one: neither buffer is written. */
    int32_t cmds_kept[4] = {-7, -7, -7, -7};
    double few[2] = {-7, -7};
    nc = np = 0;
    CHECK_STATUS(animrt_keyframe_get_path(rt, inst, cmds_kept, 4, &nc, few, 2, &np), ANIMRT_E_BUFFER);
    CHECK(nc == 3 && np == 8 && cmds_kept[0] == -7 && cmds_kept[2] == -7 && few[0] == -7 && few[1] == -7);
    nc = np = 0;
    CHECK_STATUS(animrt_keyframe_get_path(rt, inst, NULL, 0, &nc, NULL, 0, &np), ANIMRT_E_BUFFER);
    CHECK(nc == 3 && np == 8);
    /* Neither count may be NULL, whichever buffer is short: refused by its name, nothing written. */
    nc = 77;
    CHECK_STATUS(animrt_keyframe_get_path(rt, inst, cmds, 4, &nc, pts, 8, NULL), ANIMRT_E_NULL);
    CHECK_MESSAGE("point_count is NULL");
    CHECK_STATUS(animrt_keyframe_get_path(rt, inst, cmds, 2, &nc, pts, 8, NULL), ANIMRT_E_NULL);
    CHECK(nc == 77);
    CHECK_STATUS(animrt_keyframe_get_path(rt, inst, cmds, 4, NULL, pts, 8, &np), ANIMRT_E_NULL);
    CHECK_MESSAGE("command_count is NULL");
    animrt_rotation_mode mode = ANIMRT_ROTATE_NONE;
    CHECK_OK(animrt_keyframe_get_rotation_mode(rt, inst, &mode));
    CHECK(mode == ANIMRT_ROTATE_AUTO);
    /* Bad paths change nothing. */
    int32_t bad_first[2] = {ANIMRT_PATH_LINE, ANIMRT_PATH_LINE}, unknown[2] = {ANIMRT_PATH_MOVE, 9};
    double nan_points[4] = {0, 0, NAN, 1};
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, bad_first, 2, points, 4), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, unknown, 2, points, 4), ANIMRT_E_ENUM);
    /* As for every enum, the message lists the constants the header has. */
    CHECK(strcmp(animrt_last_error_message(), "path command 1 is 9, not a valid animrt_path_command; it is one of "
                 "ANIMRT_PATH_MOVE (0), ANIMRT_PATH_LINE (1), ANIMRT_PATH_QUAD (2), ANIMRT_PATH_CUBIC (3), "
                 "ANIMRT_PATH_CLOSE (4)") == 0);
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, commands, 3, points, 7), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "path command 2 needs 4 numbers but only 3 are left of the 7 given") == 0);
    /* Counts in these messages agree with their nouns and verbs. */
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, commands, 1, points, 1), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "path command 0 needs 2 numbers but only 1 is left of the 1 given") == 0);
    double nine[9] = {0};
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, commands, 3, nine, 9), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "the path's commands take 8 numbers but 9 were given") == 0);
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, commands, 0, points, 1), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "the path's commands take 0 numbers but 1 was given") == 0);
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, commands, 2, nan_points, 4), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, NULL, 2, points, 4), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_rotation_mode(rt, k, (animrt_rotation_mode)3), ANIMRT_E_ENUM);
    CHECK_OK(animrt_keyframe_get_path(rt, k, cmds, 4, &nc, pts, 8, &np));
    CHECK(nc == 3);
    /* A path of one command: its count in the message takes the singular. */
    CHECK_OK(animrt_keyframe_set_path(rt, k, commands, 1, points, 2));
    CHECK_STATUS(animrt_keyframe_get_path(rt, k, NULL, 0, &nc, NULL, 0, &np), ANIMRT_E_BUFFER);
    CHECK(nc == 1 && np == 2);
    CHECK(strcmp(animrt_last_error_message(), "the path has 1 command; the buffer holds 0") == 0);
    CHECK_OK(animrt_keyframe_set_path(rt, k, NULL, 0, NULL, 0));
    CHECK_OK(animrt_keyframe_get_path(rt, k, NULL, 0, &nc, NULL, 0, &np));
    CHECK(nc == 0 && np == 0);
    /* The element limit, at and past its edge. */
    size_t limit = 16384;
    int32_t *many = malloc(sizeof(int32_t) * (limit + 1));
    double *xy = calloc(2 * (limit + 1), sizeof(double));
    for (size_t i = 0; i <= limit; i++) { many[i] = i == 0 ? ANIMRT_PATH_MOVE : ANIMRT_PATH_LINE; xy[2 * i] = (double)i; }
    CHECK_OK(animrt_keyframe_set_path(rt, k, many, limit, xy, 2 * limit));
    CHECK_STATUS(animrt_keyframe_set_path(rt, k, many, limit + 1, xy, 2 * (limit + 1)), ANIMRT_E_RANGE);
    free(many); free(xy);
    animrt_runtime_destroy(rt);
}

/* Hostile arguments to every timing call, interleaved with ticks that
 * evaluate whatever was accepted (R0.4: nothing accepted traps later, and
 * presentation values stay finite). Deterministic. */
static unsigned long long chaos_seed = 7;
static unsigned chaos_rnd(void) {
    chaos_seed = chaos_seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(chaos_seed >> 33);
}
static double chaos_double(void) {
    static const double special[] = {0, -0.0, 1, -1, 0.5, 2, 1e300, -1e300, 1e-300, 0.998, 0.25, 100, 16384};
    switch (chaos_rnd() % 6) {
    case 0: return NAN;
    case 1: return chaos_rnd() % 2 ? INFINITY : -INFINITY;
    case 2: return special[chaos_rnd() % (sizeof special / sizeof *special)];
    default: return ((double)chaos_rnd() / 4294967296.0) * 4 - 1;
    }
}

TEST(timing_chaos) {
    static const char *names[] = {"opacity", "position", "transform", "transform.rotation.z", "position.x",
        "linear(0, 1e308 50%, -1e308)", "linear(0, 0.5 150% -50%, 1)", "step-start", "steps(2, jump-none)", NULL};
    animrt_runtime *rt = rt_new();
    animrt_id pool[32] = {0};
    int pooled = 0;
    double values[16], now = 0, v = 0;
    /* Half the numbers are ordinary, so that much of the hostile work is accepted and then evaluated. */
    int32_t commands[8];
    long bad = 0, finite_checks = 0, infinite = 0;
    for (int i = 0; i < 60000; i++) {
        animrt_id a = pool[chaos_rnd() % 32], b = pool[chaos_rnd() % 32], out = 0;
        size_t n = 0;
        for (int k = 0; k < 16; k++) values[k] = chaos_rnd() % 2 ? chaos_double() : (double)(chaos_rnd() % 200) - 100;
        for (int k = 0; k < 8; k++) commands[k] = (int32_t)(chaos_rnd() % 6);
        animrt_computed_timing c;
        animrt_status s;
        switch (chaos_rnd() % 22) {
        case 0: s = animrt_layer_create(rt, chaos_rnd() % 2 ? 0 : a, &out); break;
        case 1: s = animrt_animation_create(rt, (animrt_animation_kind)(chaos_rnd() % 6), names[chaos_rnd() % 5], &out); break;
        case 2: s = animrt_animation_set_timing(rt, a, (animrt_timing_param)(chaos_rnd() % 12), chaos_double()); break;
        case 3: s = animrt_layer_set_timing_param(rt, a, (animrt_timing_param)(chaos_rnd() % 12), chaos_double()); break;
        case 4: s = animrt_layer_set_fill_mode(rt, a, (animrt_fill_mode)(chaos_rnd() % 5)); break;
        case 5: s = animrt_layer_set_autoreverses(rt, a, (int)(chaos_rnd() % 2)); break;
        case 6: s = animrt_animation_set_value(rt, a, (animrt_value_slot)(chaos_rnd() % 5), values, chaos_rnd() % 3); break;
        case 7: s = animrt_animation_set_timing_function(rt, a, names[5 + chaos_rnd() % 5]); break;
        case 8: s = animrt_animation_set_spring_response(rt, a, chaos_double(), chaos_double()); break;
        case 9: s = animrt_animation_set_spring_perceptual(rt, a, chaos_double(), chaos_double()); break;
        case 10: s = animrt_animation_set_decay(rt, a, chaos_double(), chaos_double()); break;
        case 11:
            if (chaos_rnd() % 2) {  /* well formed: move, line, quad, cubic, close, with hostile numbers */
                for (int k = 0; k < 5; k++) commands[k] = k;
                s = animrt_keyframe_set_path(rt, a, commands, 5, values, 14);
            } else {
                s = animrt_keyframe_set_path(rt, a, commands, chaos_rnd() % 8, values, chaos_rnd() % 17);
            }
            break;
        case 12: s = animrt_keyframe_set_rotation_mode(rt, a, (animrt_rotation_mode)(chaos_rnd() % 4)); break;
        case 13: s = animrt_layer_add_animation(rt, a, b, chaos_rnd() % 2 ? "k" : NULL, 0, &out); break;
        case 14: s = animrt_animation_get_computed_timing(rt, a, &c); break;
        case 15: s = animrt_animation_get_velocity(rt, a, chaos_rnd() % 2 ? NULL : names[chaos_rnd() % 5], values, 16, &n);
                 if (s == ANIMRT_OK) for (size_t k = 0; k < n; k++) if (isnan(values[k])) bad++;
                 break;
        case 16: s = animrt_animation_retarget(rt, a, values, chaos_rnd() % 3); break;
        case 17: s = animrt_layer_convert_time(rt, chaos_double(), a, b, &v);
                 if (s == ANIMRT_OK && !isfinite(v)) bad++;
                 break;
        case 18: s = animrt_layer_set_timing(rt, a, chaos_double(), chaos_double(), chaos_double()); break;
        case 19: s = animrt_animation_set_spring(rt, a, chaos_double(), chaos_double(), chaos_double(), chaos_double()); break;
        default:
            now += 0.05 * (chaos_rnd() % 4);
            s = animrt_runtime_tick(rt, now);
            for (int k = 0; k < 5; k++) {
                const char *path = names[k];
                double shown[16];
                if (animrt_layer_get_presentation(rt, a, kp(rt, path), shown, 16, &n) != ANIMRT_OK) continue;
                for (size_t j = 0; j < n; j++) { finite_checks++; if (!isfinite(shown[j])) infinite++; }
            }
            animrt_event events[16];
            animrt_event_poll(rt, events, 16, &n);
            break;
        }
        if (s < ANIMRT_OK || s > ANIMRT_E_ENUM) bad++;
        if (s == ANIMRT_OK && out) pool[pooled++ % 32] = out;
    }
    CHECK(bad == 0);
    CHECK(finite_checks > 1000);
    CHECK(infinite == 0);  /* presentation values stay finite */
    printf("timing chaos: %ld presentation components read, %ld not finite\n", finite_checks, infinite);
    animrt_runtime_destroy(rt);
}

int main(void) {
    RUN(timing_chaos);
    RUN(keyframe_path);
    RUN(velocity_and_retarget);
    RUN(decay);
    RUN(spring_parameterisations);
    RUN(layer_time_and_pause);
    RUN(attached_read_back);
    RUN(computed_timing);
    RUN(lifecycle);
    RUN(web_animations_vocabulary);
    RUN(easing_keywords_and_linear_stops);
    return check_report();
}
