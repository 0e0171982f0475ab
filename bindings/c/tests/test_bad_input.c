/* docs/bad-input.md, row by row, from C: each row makes its bad calls,
 * checks the status, the message and untouched out-parameters, and then
 * checks that nothing changed (the same rows run from Python in
 * bindings/python/tests/test_bad_input.py). */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"

/* A small world every row starts from. */
typedef struct {
    animrt_runtime *rt, *other;
    animrt_id layer, foreign, anim, barrier, kf;
    animrt_keypath opacity, position;
} world;

/* Everything a refused call could have changed, read back from the library. */
typedef struct {
    double model, presentation, duration, speed, time, position[2];
    size_t animations, barrier;
} snapshot;

static world make_world(void) {
    world w;
    memset(&w, 0, sizeof w);
    animrt_runtime_create(0, &w.rt);
    animrt_runtime_create(0, &w.other);
    animrt_layer_create(w.rt, 0, &w.layer);
    animrt_layer_create(w.other, 0, &w.foreign);
    animrt_keypath_id(w.rt, "opacity", &w.opacity);
    animrt_keypath_id(w.rt, "position", &w.position);
    double half = 0.5, from = 0, to = 1, p[2] = {3, 4};
    animrt_layer_set_value(w.rt, w.layer, w.opacity, &half, 1);
    animrt_layer_set_value(w.rt, w.layer, w.position, p, 2);
    animrt_animation_create(w.rt, ANIMRT_ANIMATION_BASIC, "opacity", &w.anim);
    animrt_animation_set_value(w.rt, w.anim, ANIMRT_FROM, &from, 1);
    animrt_animation_set_value(w.rt, w.anim, ANIMRT_TO, &to, 1);
    animrt_animation_set_timing(w.rt, w.anim, ANIMRT_TIMING_DURATION, 1);
    animrt_animation_create(w.rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &w.kf);
    double values[2] = {0, 1};
    animrt_keyframe_set_values(w.rt, w.kf, values, 2, 1);
    animrt_barrier_create(w.rt, &w.barrier);
    animrt_runtime_tick(w.rt, 1);
    return w;
}

static snapshot snap(const world *w) {
    snapshot s;
    memset(&s, 0, sizeof s);
    size_t n = 0;
    animrt_layer_get_value(w->rt, w->layer, w->opacity, &s.model, 1, &n);
    animrt_layer_get_presentation(w->rt, w->layer, w->opacity, &s.presentation, 1, &n);
    animrt_layer_get_value(w->rt, w->layer, w->position, s.position, 2, &n);
    animrt_animation_get_timing(w->rt, w->anim, ANIMRT_TIMING_DURATION, &s.duration);
    animrt_animation_get_timing(w->rt, w->anim, ANIMRT_TIMING_SPEED, &s.speed);
    animrt_runtime_time(w->rt, &s.time);
    animrt_layer_animation_count(w->rt, w->layer, &s.animations);
    animrt_barrier_count(w->rt, w->barrier, &s.barrier);
    return s;
}

static int same(snapshot a, snapshot b) {
    return a.model == b.model && a.presentation == b.presentation && a.duration == b.duration && a.speed == b.speed
        && a.time == b.time && a.position[0] == b.position[0] && a.position[1] == b.position[1]
        && a.animations == b.animations && a.barrier == b.barrier;
}

/* Nothing changed, no event was queued, and the runtime still works. */
static void unchanged(world *w, snapshot before) {
    CHECK(same(snap(w), before));
    animrt_event ev[4];
    size_t n = 9;
    animrt_event_poll(w->rt, ev, 4, &n);
    CHECK(n == 0);
    double t = before.time + 1;
    CHECK_OK(animrt_runtime_tick(w->rt, t));
    snapshot after = snap(w);
    CHECK(after.model == before.model && after.animations == before.animations && after.time == t);
}

static void end_world(world *w) {
    animrt_runtime_destroy(w->other);
    animrt_runtime_destroy(w->rt);
}

/* Row n of the table; the title is its "bad call" column. */
#define ROW(n, title) static void row_##n(world *w, snapshot before)

ROW(1, "NULL runtime") {
    /* Every call that takes a runtime refuses NULL, and writes nothing. */
    animrt_id id = 77;
    animrt_keypath kpid = 77;
    double d = 77, v[2] = {1, 2};
    size_t n = 77;
    int removed = 77;
    animrt_value_kind kind = ANIMRT_VALUE_RECT;
    animrt_event ev[1];
    char buf[4] = "abc";
    const char *names[1] = {"linear"};
    CHECK_STATUS(animrt_runtime_tick(NULL, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_runtime_time(NULL, &d), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_runtime_set_threads(NULL, 2), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keypath_id(NULL, "opacity", &kpid), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keypath_info(NULL, w->opacity, &kind, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_property_define(NULL, "p", ANIMRT_VALUE_SCALAR, v, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_create(NULL, 0, &id), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_destroy(NULL, w->layer), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_set_parent(NULL, w->layer, 0), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_set_timing(NULL, w->layer, 0, 1, 0), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_set_value(NULL, w->layer, w->opacity, v, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_get_value(NULL, w->layer, w->opacity, &d, 1, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_get_presentation(NULL, w->layer, w->opacity, &d, 1, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_reader_create(NULL, &w->layer, &w->opacity, 1, &id), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_reader_read(NULL, 1, &d, 1, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_reader_destroy(NULL, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_create(NULL, ANIMRT_ANIMATION_BASIC, "opacity", &id), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_destroy(NULL, w->anim), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_timing(NULL, w->anim, ANIMRT_TIMING_DURATION, 2), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_get_timing(NULL, w->anim, ANIMRT_TIMING_DURATION, &d), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_flag(NULL, w->anim, ANIMRT_FLAG_ADDITIVE, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_fill_mode(NULL, w->anim, ANIMRT_FILL_BOTH), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_direction(NULL, w->anim, ANIMRT_DIRECTION_REVERSE), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_timing_function(NULL, w->anim, "easeIn"), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_cubic_bezier(NULL, w->anim, 0, 0, 1, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_value(NULL, w->anim, ANIMRT_TO, v, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_spring(NULL, w->anim, 1, 100, 10, 0), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_get_settling_duration(NULL, w->anim, &d), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_values(NULL, w->kf, v, 2, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_key_times(NULL, w->kf, v, 2), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_timing_functions(NULL, w->kf, names, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_calculation_mode(NULL, w->kf, ANIMRT_CALC_PACED), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_spline(NULL, w->kf, v, v, v, 2), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_group_add(NULL, w->anim, w->anim), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_group_get_count(NULL, w->anim, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_group_get_child(NULL, w->anim, 0, &id), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_add_animation(NULL, w->layer, w->anim, "k", 0, &id), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_remove_animation(NULL, w->layer, "k", &removed), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_remove_all_animations(NULL, w->layer), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_animation_count(NULL, w->layer, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_animation_key(NULL, w->layer, 0, buf, sizeof buf, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_create(NULL, &id), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_destroy(NULL, w->barrier), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_enter(NULL, w->barrier), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_leave(NULL, w->barrier), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_notify(NULL, w->barrier, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_count(NULL, w->barrier, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_transaction_begin(NULL, 0), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_transaction_commit(NULL, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_timer_start(NULL, 1, 1, &id), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_timer_cancel(NULL, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_event_poll(NULL, ev, 1, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_event_set_callback(NULL, NULL, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_timing_function_evaluate(NULL, "linear", 0.5, &d), ANIMRT_E_NULL);
    CHECK_MESSAGE("runtime pointer is NULL");
    CHECK(id == 77 && kpid == 77 && d == 77 && n == 77 && removed == 77 && kind == ANIMRT_VALUE_RECT);
    CHECK(strcmp(buf, "abc") == 0);
    unchanged(w, before);
}

ROW(2, "NULL out-pointer or input array") {
    CHECK_STATUS(animrt_layer_create(w->rt, 0, NULL), ANIMRT_E_NULL);
    CHECK_MESSAGE("out is NULL");
    CHECK_STATUS(animrt_runtime_create(0, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keypath_id(w->rt, NULL, &w->opacity), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_set_value(w->rt, w->layer, w->opacity, NULL, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_set_value(w->rt, w->anim, ANIMRT_TO, NULL, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_values(w->rt, w->kf, NULL, 2, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_count(w->rt, w->barrier, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_get_timing(w->rt, w->anim, ANIMRT_TIMING_SPEED, NULL), ANIMRT_E_NULL);
    /* A count pointer is named as the header names it. */
    double v = 9;
    CHECK_STATUS(animrt_animation_get_value(w->rt, w->anim, ANIMRT_TO, &v, 1, NULL), ANIMRT_E_NULL);
    CHECK_MESSAGE("count is NULL");
    CHECK(v == 9);
    unchanged(w, before);
}

ROW(3, "NaN or infinity where a finite number is required") {
    double nan_value = NAN, p[2] = {INFINITY, 0};
    CHECK_STATUS(animrt_layer_set_value(w->rt, w->layer, w->opacity, &nan_value, 1), ANIMRT_E_INVALID);
    CHECK_MESSAGE("must be finite");
    CHECK_STATUS(animrt_layer_set_value(w->rt, w->layer, w->position, p, 2), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing(w->rt, w->anim, ANIMRT_TIMING_SPEED, NAN), ANIMRT_E_INVALID);
    CHECK_MESSAGE("speed");
    CHECK_STATUS(animrt_layer_set_timing(w->rt, w->layer, 0, INFINITY, 0), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_timing_function_evaluate(w->rt, "linear", NAN, &p[1]), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_timer_start(w->rt, NAN, 1, NULL), ANIMRT_E_INVALID);
    unchanged(w, before);
}

ROW(4, "a tick time that is not finite") {
    CHECK_STATUS(animrt_runtime_tick(w->rt, INFINITY), ANIMRT_E_TIME);
    CHECK_STATUS(animrt_runtime_tick(w->rt, NAN), ANIMRT_E_TIME);
    CHECK_MESSAGE("finite");
    unchanged(w, before);
}

ROW(5, "negative duration, count or delay; x1 or x2 outside [0, 1]") {
    CHECK_STATUS(animrt_animation_set_timing(w->rt, w->anim, ANIMRT_TIMING_DURATION, -1), ANIMRT_E_RANGE);
    CHECK_MESSAGE("duration is -1");
    CHECK_STATUS(animrt_animation_set_timing(w->rt, w->anim, ANIMRT_TIMING_REPEAT_COUNT, -2), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_cubic_bezier(w->rt, w->anim, 1.5, 0, 0.5, 1), ANIMRT_E_RANGE);
    CHECK_MESSAGE("x coordinates");
    CHECK_STATUS(animrt_animation_set_cubic_bezier(w->rt, w->anim, 0.5, 0, -0.5, 1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_timer_start(w->rt, -1, 0, NULL), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_transaction_begin(w->rt, -1), ANIMRT_E_RANGE);
    unchanged(w, before);
}

ROW(6, "unknown enum value") {
    animrt_id out = 5;
    CHECK_STATUS(animrt_animation_set_timing(w->rt, w->anim, (animrt_timing_param)99, 1), ANIMRT_E_ENUM);
    CHECK_MESSAGE("99 is not a valid animrt_timing_param");
    CHECK_STATUS(animrt_animation_set_fill_mode(w->rt, w->anim, (animrt_fill_mode)7), ANIMRT_E_ENUM);
    /* The message lists the valid constants, as the header spells them. */
    CHECK_MESSAGE("7 is not a valid animrt_fill_mode; it is one of ANIMRT_FILL_REMOVED (0), ANIMRT_FILL_FORWARDS (1), "
                  "ANIMRT_FILL_BACKWARDS (2), ANIMRT_FILL_BOTH (3)");
    CHECK_STATUS(animrt_animation_set_direction(w->rt, w->anim, (animrt_direction)99), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_create(w->rt, (animrt_animation_kind)9, "opacity", &out), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_flag(w->rt, w->anim, (animrt_flag)42, 1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_value(w->rt, w->anim, (animrt_value_slot)99, &before.model, 1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_keyframe_set_calculation_mode(w->rt, w->kf, (animrt_calculation_mode)99), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_property_define(w->rt, "p", (animrt_value_kind)99, &before.model, 1), ANIMRT_E_ENUM);
    CHECK(out == 5);
    /* Values past INT32_MAX (a negative number cast to the enum) are refused alike, never trapped on. */
    double d = 5;
    CHECK_STATUS(animrt_animation_set_direction(w->rt, w->anim, (animrt_direction)-1), ANIMRT_E_ENUM);
    CHECK_MESSAGE("-1 is not a valid animrt_direction");
    CHECK_STATUS(animrt_layer_set_fill_mode(w->rt, w->layer, (animrt_fill_mode)INT32_MIN), ANIMRT_E_ENUM);
    CHECK_MESSAGE("-2147483648 is not a valid animrt_fill_mode");
    CHECK_STATUS(animrt_keyframe_set_rotation_mode(w->rt, w->kf, (animrt_rotation_mode)-2), ANIMRT_E_ENUM);
    CHECK_MESSAGE("-2 is not a valid animrt_rotation_mode");
    CHECK_STATUS(animrt_animation_get_spring_param(w->rt, w->anim, (animrt_spring_param)-1, &d), ANIMRT_E_ENUM);
    CHECK_MESSAGE("-1 is not a valid animrt_spring_param");
    CHECK(d == 5);
    unchanged(w, before);
}

ROW(7, "unknown key path") {
    animrt_keypath bad = 77;
    animrt_id out = 5;
    double v = 9;
    size_t n = 9;
    CHECK_STATUS(animrt_keypath_id(w->rt, "opacty", &bad), ANIMRT_E_NOT_FOUND);
    /* The README quotes this message whole. */
    CHECK(strcmp(animrt_last_error_message(), "key path 'opacty' is not animatable; did you mean 'opacity'?") == 0);
    CHECK(bad == 77);
    CHECK_STATUS(animrt_layer_get_value(w->rt, w->layer, 12345, &v, 1, &n), ANIMRT_E_NOT_FOUND);
    CHECK(v == 9);
    CHECK_STATUS(animrt_animation_create(w->rt, ANIMRT_ANIMATION_BASIC, "bounds.size.widht", &out), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("bounds.size.width");
    CHECK(out == 5);
    unchanged(w, before);
}

ROW(8, "wrong value kind or count") {
    double pair[2] = {1, 2};
    CHECK_STATUS(animrt_layer_set_value(w->rt, w->layer, w->position, pair, 1), ANIMRT_E_KIND);
    CHECK_MESSAGE("point has 2 components");
    CHECK_STATUS(animrt_animation_set_value(w->rt, w->anim, ANIMRT_TO, pair, 2), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_set_spring(w->rt, w->anim, 1, 100, 10, 0), ANIMRT_E_KIND);
    CHECK_MESSAGE("spring");
    CHECK_STATUS(animrt_keyframe_set_values(w->rt, w->kf, pair, 1, 2), ANIMRT_E_KIND);
    unchanged(w, before);
}

ROW(9, "invalid UTF-8") {
    animrt_keypath bad = 77;
    CHECK_STATUS(animrt_keypath_id(w->rt, "opac\xff" "ity", &bad), ANIMRT_E_INVALID);
    CHECK_MESSAGE("UTF-8");
    CHECK_STATUS(animrt_layer_add_animation(w->rt, w->layer, w->anim, "\xc3\x28", 0, NULL), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing_function(w->rt, w->anim, "ease\xe2\x82"), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_property_define(w->rt, "\xfe", ANIMRT_VALUE_SCALAR, &before.model, 1), ANIMRT_E_INVALID);
    CHECK(bad == 77);
    unchanged(w, before);
}

ROW(10, "too small a buffer") {
    double one = -3;
    size_t n = 0;
    CHECK_STATUS(animrt_layer_get_presentation(w->rt, w->layer, w->position, &one, 1, &n), ANIMRT_E_BUFFER);
    CHECK(n == 2 && one == -3);
    CHECK_STATUS(animrt_layer_get_value(w->rt, w->layer, w->position, &one, 1, &n), ANIMRT_E_BUFFER);
    CHECK(n == 2 && one == -3);
    /* A key needs its NUL: "longer" is 7 bytes. The animation is attached
     * here and removed again so that the row ends where it began. */
    animrt_layer_add_animation(w->rt, w->layer, w->anim, "longer", 0, NULL);
    char key[2] = {'x', 'y'};
    CHECK_STATUS(animrt_layer_animation_key(w->rt, w->layer, 0, key, sizeof key, &n), ANIMRT_E_BUFFER);
    CHECK(n == 7 && key[0] == 'x' && key[1] == 'y');
    animrt_layer_remove_all_animations(w->rt, w->layer);
    animrt_event ev[4];
    animrt_event_poll(w->rt, ev, 4, &n);  /* its "removed" stop */
    CHECK(n == 1 && ev[0].reason == ANIMRT_STOP_REMOVED);
    unchanged(w, before);
}

ROW(11, "leave without enter; commit without begin") {
    CHECK_STATUS(animrt_barrier_leave(w->rt, w->barrier), ANIMRT_E_STATE);
    CHECK_MESSAGE("without a matching enter");
    CHECK_STATUS(animrt_transaction_commit(w->rt, 1), ANIMRT_E_STATE);
    CHECK_MESSAGE("without an open transaction");
    unchanged(w, before);
}

ROW(12, "destroy twice; a stale handle") {
    animrt_id doomed = 0, b = 0, t = 0, r = 0;
    animrt_layer_create(w->rt, 0, &doomed);
    CHECK_OK(animrt_layer_destroy(w->rt, doomed));
    CHECK_STATUS(animrt_layer_destroy(w->rt, doomed), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("stale");
    animrt_barrier_create(w->rt, &b);
    CHECK_OK(animrt_barrier_destroy(w->rt, b));
    CHECK_STATUS(animrt_barrier_destroy(w->rt, b), ANIMRT_E_HANDLE);
    animrt_timer_start(w->rt, 5, 1, &t);
    CHECK_OK(animrt_timer_cancel(w->rt, t));
    CHECK_STATUS(animrt_timer_cancel(w->rt, t), ANIMRT_E_HANDLE);
    animrt_reader_create(w->rt, &w->layer, &w->opacity, 1, &r);
    CHECK_OK(animrt_reader_destroy(w->rt, r));
    CHECK_STATUS(animrt_reader_destroy(w->rt, r), ANIMRT_E_HANDLE);
    animrt_id a = 0;
    animrt_animation_create(w->rt, ANIMRT_ANIMATION_BASIC, "opacity", &a);
    CHECK_OK(animrt_animation_destroy(w->rt, a));
    CHECK_STATUS(animrt_animation_destroy(w->rt, a), ANIMRT_E_HANDLE);
    /* A new layer may reuse the slot; the old handle stays stale. */
    animrt_id reuse = 0;
    animrt_layer_create(w->rt, 0, &reuse);
    CHECK(reuse != doomed);
    CHECK_STATUS(animrt_layer_set_timing(w->rt, doomed, 0, 2, 0), ANIMRT_E_HANDLE);
    animrt_layer_destroy(w->rt, reuse);
    unchanged(w, before);
}

ROW(13, "a handle from another runtime, 0, or of the wrong kind") {
    double v = 9;
    size_t n = 9;
    CHECK_STATUS(animrt_layer_get_value(w->rt, w->foreign, w->opacity, &v, 1, &n), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("another runtime");
    CHECK_STATUS(animrt_layer_get_value(w->rt, 0, w->opacity, &v, 1, &n), ANIMRT_E_HANDLE);
    /* 0 is most often a handle a failed create never set: the message says so. */
    CHECK(strcmp(animrt_last_error_message(), "the layer handle is 0, which names no object (was it to be set by a "
                 "call that failed? a failed call leaves its out-parameter as it was)") == 0);
    CHECK_STATUS(animrt_layer_add_animation(w->rt, w->anim, w->layer, NULL, 0, NULL), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("not a layer");
    CHECK_STATUS(animrt_barrier_enter(w->rt, w->layer), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_add_animation(w->rt, w->layer, w->anim, "k", w->layer, NULL), ANIMRT_E_HANDLE);
    /* A number that was never a handle (an uninitialised variable, an index)
     * is said to be one, not "an unknown kind". */
    CHECK_STATUS(animrt_layer_add_animation(w->rt, w->layer, w->anim, "k", 12345, NULL), ANIMRT_E_HANDLE);
    CHECK(strcmp(animrt_last_error_message(), "handle 0x3039 is not one animrt gave out: it names no kind of object "
                 "(an uninitialised animrt_id, or a number that is not a handle?); a barrier handle is needed here") == 0);
    CHECK(v == 9 && n == 9);
    unchanged(w, before);
}

ROW(14, "invalid key times, checked when added") {
    double kt[2] = {0.7, 0.5};
    CHECK_OK(animrt_keyframe_set_key_times(w->rt, w->kf, kt, 2));
    CHECK_STATUS(animrt_layer_add_animation(w->rt, w->layer, w->kf, "kf", w->barrier, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("must not decrease");
    double out_of_range[2] = {0, 1.5};
    animrt_keyframe_set_key_times(w->rt, w->kf, out_of_range, 2);
    CHECK_STATUS(animrt_layer_add_animation(w->rt, w->layer, w->kf, "kf", w->barrier, NULL), ANIMRT_E_RANGE);
    animrt_keyframe_set_key_times(w->rt, w->kf, NULL, 0);
    unchanged(w, before);  /* nothing attached, the barrier not entered */
}

ROW(15, "time going backwards") {
    CHECK_STATUS(animrt_runtime_tick(w->rt, before.time - 0.5), ANIMRT_E_TIME);
    CHECK_MESSAGE("earlier than the previous tick");
    unchanged(w, before);
}

ROW(16, "a name already taken") {
    double one = 1;
    CHECK_STATUS(animrt_property_define(w->rt, "opacity", ANIMRT_VALUE_SCALAR, &one, 1), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("'opacity' is a built-in property; define yours under another name");
    CHECK_OK(animrt_property_define(w->rt, "progress", ANIMRT_VALUE_SCALAR, &one, 1));
    CHECK_STATUS(animrt_property_define(w->rt, "progress", ANIMRT_VALUE_SCALAR, &one, 1), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("property 'progress' is already defined");
    CHECK_STATUS(animrt_property_define(w->rt, "progress", ANIMRT_VALUE_POINT, &one, 2), ANIMRT_E_EXISTS);
    animrt_keypath id = 0;
    animrt_value_kind kind = ANIMRT_VALUE_RECT;
    animrt_keypath_id(w->rt, "progress", &id);
    animrt_keypath_info(w->rt, id, &kind, NULL);
    CHECK(kind == ANIMRT_VALUE_SCALAR);  /* the first definition stands */
    unchanged(w, before);
}

static double kv_probe[3] = {0, 1, 2};

ROW(17, "a count no buffer can have") {
    animrt_id out = 5;
    CHECK_STATUS(animrt_keyframe_set_values(w->rt, w->kf, kv_probe, SIZE_MAX, 1), ANIMRT_E_RANGE);
    CHECK_MESSAGE("at most");
    CHECK_STATUS(animrt_keyframe_set_key_times(w->rt, w->kf, kv_probe, (size_t)1 << 40), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_set_value(w->rt, w->layer, w->opacity, kv_probe, SIZE_MAX / 2 + 1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_reader_create(w->rt, &w->layer, &w->opacity, SIZE_MAX, &out), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_value(w->rt, w->anim, ANIMRT_TO, kv_probe, ((size_t)1 << 28) + 1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_create_many(w->rt, 0, SIZE_MAX, &out), ANIMRT_E_RANGE);
    /* The count is named as the host passed it, a size_t. */
    CHECK(strcmp(animrt_last_error_message(), "count is 18446744073709551615; at most 268435456 elements are accepted") == 0);
    CHECK_STATUS(animrt_layer_add_animations(w->rt, w->anim, &w->layer, SIZE_MAX, NULL, 0, NULL, 0, &out), ANIMRT_E_RANGE);
    CHECK(out == 5);
    /* An output capacity is never too large: SIZE_MAX just means "enough". */
    double v = 0;
    size_t n = 0;
    CHECK_OK(animrt_layer_get_presentation(w->rt, w->layer, w->opacity, &v, SIZE_MAX, &n));
    CHECK(n == 1 && v == before.presentation);
    v = 0;
    CHECK_OK(animrt_animation_get_value(w->rt, w->anim, ANIMRT_TO, &v, SIZE_MAX, &n));
    CHECK(n == 1 && v == 1);
    double keyframe_values[2] = {-1, -1};
    CHECK_OK(animrt_keyframe_get_values(w->rt, w->kf, keyframe_values, SIZE_MAX, &n));
    CHECK(n == 2 && keyframe_values[0] == 0 && keyframe_values[1] == 1);
    char key_path[16] = "";
    CHECK_OK(animrt_animation_get_key_path(w->rt, w->anim, key_path, SIZE_MAX, &n));
    CHECK(n == 8 && strcmp(key_path, "opacity") == 0);
    unchanged(w, before);
}

ROW(32, "repeatCount and repeatDuration both set, refused when the timing is checked") {
    /* Each setter takes its value (a value is checked on its own); the add refuses the pair. */
    CHECK_OK(animrt_animation_set_timing(w->rt, w->anim, ANIMRT_TIMING_REPEAT_COUNT, 2));
    CHECK_OK(animrt_animation_set_timing(w->rt, w->anim, ANIMRT_TIMING_REPEAT_DURATION, 3));
    animrt_id out = 7;
    CHECK_STATUS(animrt_layer_add_animation(w->rt, w->layer, w->anim, "k", w->barrier, &out), ANIMRT_E_INVALID);
    CHECK_MESSAGE("repeatCount (2) and repeatDuration (3) are both set");
    CHECK(out == 7);
    /* In bulk, a column meeting the description's other field; the item is named. */
    CHECK_OK(animrt_animation_set_timing(w->rt, w->anim, ANIMRT_TIMING_REPEAT_DURATION, 0));
    double repeat_durations[1] = {4};
    animrt_column column = {ANIMRT_COLUMN_REPEAT_DURATION, repeat_durations};
    CHECK_STATUS(animrt_layer_add_animations(w->rt, w->anim, &w->layer, 1, &column, 1, "k", w->barrier, &out),
                 ANIMRT_E_INVALID);
    CHECK_MESSAGE("item 0: repeatCount");
    CHECK(out == 7);
    /* A layer's timing is checked as it is set. */
    CHECK_OK(animrt_layer_set_timing_param(w->rt, w->layer, ANIMRT_TIMING_REPEAT_COUNT, 2));
    CHECK_STATUS(animrt_layer_set_timing_param(w->rt, w->layer, ANIMRT_TIMING_REPEAT_DURATION, 3), ANIMRT_E_INVALID);
    CHECK_MESSAGE("layer repeatCount");
    double v = 9;
    CHECK_OK(animrt_layer_get_timing_param(w->rt, w->layer, ANIMRT_TIMING_REPEAT_DURATION, &v));
    CHECK(v == 0);
    animrt_layer_set_timing_param(w->rt, w->layer, ANIMRT_TIMING_REPEAT_COUNT, 0);
    animrt_animation_set_timing(w->rt, w->anim, ANIMRT_TIMING_REPEAT_COUNT, 0);
    unchanged(w, before);  /* nothing attached, the barrier not entered */
}

typedef void (*row_fn)(world *, snapshot);

int main(void) {
    static const struct { const char *name; row_fn fn; } rows[] = {
        {"row 1", row_1}, {"row 2", row_2}, {"row 3", row_3}, {"row 4", row_4}, {"row 5", row_5}, {"row 6", row_6},
        {"row 7", row_7}, {"row 8", row_8}, {"row 9", row_9}, {"row 10", row_10}, {"row 11", row_11},
        {"row 12", row_12}, {"row 13", row_13}, {"row 14", row_14}, {"row 15", row_15}, {"row 16", row_16},
        {"row 17", row_17}, {"row 32", row_32}};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        world w = make_world();
        check_test = rows[i].name;
        rows[i].fn(&w, snap(&w));
        end_world(&w);
    }
    return check_report();
}
