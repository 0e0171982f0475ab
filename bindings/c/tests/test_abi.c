/* The C ABI, exercised from C as a host uses it: scenes with every value
 * kind, events by polling and by callback, bulk reads, and threads. Each
 * function on its own is in test_functions.c; the bad-input table of
 * docs/bad-input.md in test_bad_input.c. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "scene.h"

TEST(versions) {
    CHECK(animrt_version() == ANIMRT_VERSION_NUMBER);
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", ANIMRT_VERSION_MAJOR, ANIMRT_VERSION_MINOR, ANIMRT_VERSION_PATCH);
    CHECK(strcmp(animrt_version_string(), expected) == 0);
    CHECK(strcmp(animrt_status_name(ANIMRT_OK), "ANIMRT_OK") == 0);
    CHECK(strcmp(animrt_status_name(ANIMRT_E_HANDLE), "ANIMRT_E_HANDLE") == 0);
    CHECK(strcmp(animrt_status_name(ANIMRT_E_ENUM), "ANIMRT_E_ENUM") == 0);
    CHECK(strcmp(animrt_status_name(999), "ANIMRT_E_UNKNOWN") == 0);
}

/* Every event type and stop reason the header declares has its own name, and
 * a value that is none has the UNKNOWN one (never NULL). */
TEST(event_and_stop_names) {
#define NAMED(f, c) CHECK(strcmp(f(c), #c) == 0)
    NAMED(animrt_event_type_name, ANIMRT_EVENT_ANIMATION_STARTED);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_ANIMATION_STOPPED);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_BARRIER_NOTIFIED);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_TRANSACTION_COMPLETED);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_TIMER_FIRED);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_OVERFLOW);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_MACHINE_STATE);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_MACHINE_EMITTED);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_MACHINE_REQUEST);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_MACHINE_STALE);
    NAMED(animrt_event_type_name, ANIMRT_EVENT_MACHINE_ERROR);
    NAMED(animrt_stop_reason_name, ANIMRT_STOP_FINISHED);
    NAMED(animrt_stop_reason_name, ANIMRT_STOP_REMOVED);
    NAMED(animrt_stop_reason_name, ANIMRT_STOP_REPLACED);
    NAMED(animrt_stop_reason_name, ANIMRT_STOP_LAYER_DESTROYED);
    NAMED(animrt_stop_reason_name, ANIMRT_STOP_RUNTIME_DESTROYED);
#undef NAMED
    const int32_t outside[] = {0, 12, -1, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof outside / sizeof *outside; i++)
        CHECK(strcmp(animrt_event_type_name(outside[i]), "ANIMRT_EVENT_UNKNOWN") == 0);
    CHECK(strcmp(animrt_stop_reason_name(5), "ANIMRT_STOP_UNKNOWN") == 0);
    CHECK(strcmp(animrt_stop_reason_name(-1), "ANIMRT_STOP_UNKNOWN") == 0);
}

TEST(animate_and_read) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, anim = 0, inst = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK(layer != 0);
    animrt_keypath opacity = kp(rt, "opacity");
    animrt_value_kind kind = ANIMRT_VALUE_TRANSFORM;
    size_t comps = 0;
    CHECK_OK(animrt_keypath_info(rt, kp(rt, "position"), &kind, &comps));
    CHECK(kind == ANIMRT_VALUE_POINT && comps == 2);
    double one = 1;
    CHECK_OK(animrt_layer_set_value(rt, layer, opacity, &one, 1));
    anim = basic(rt, "opacity", 0, 0.5, 2);
    CHECK_OK(animrt_animation_set_timing_function(rt, anim, "easeInEaseOut"));
    CHECK_OK(animrt_layer_add_animation(rt, layer, anim, "fade", 0, &inst));
    CHECK(inst != 0);
    CHECK_OK(animrt_runtime_tick(rt, 10));
    CHECK_NEAR(presentation(rt, layer, "opacity"), 0, 1e-12);
    CHECK_OK(animrt_runtime_tick(rt, 11));
    CHECK_NEAR(presentation(rt, layer, "opacity"), 0.25, 1e-9);  /* easeInEaseOut(0.5) = 0.5 */
    double model = 0; size_t n = 0;
    CHECK_OK(animrt_layer_get_value(rt, layer, opacity, &model, 1, &n));
    CHECK(model == 1 && n == 1);
    CHECK_OK(animrt_runtime_tick(rt, 12.5));
    CHECK(presentation(rt, layer, "opacity") == 1);  /* removed on completion: the model shows */
    animrt_event ev[8];
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    CHECK(n == 2);
    CHECK(ev[0].type == ANIMRT_EVENT_ANIMATION_STARTED && ev[0].object == inst && ev[0].animation == anim && ev[0].layer == layer);
    CHECK(ev[1].type == ANIMRT_EVENT_ANIMATION_STOPPED && ev[1].reason == ANIMRT_STOP_FINISHED && ev[1].time == 12.5);
    double t = 0;
    CHECK_OK(animrt_runtime_time(rt, &t));
    CHECK(t == 12.5);
    animrt_runtime_destroy(rt);
}

TEST(points_transforms_keyframes_springs) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, a = 0;
    animrt_layer_create(rt, 0, &layer);
    double pos[2] = {10, 20};
    CHECK_OK(animrt_layer_set_value(rt, layer, kp(rt, "position"), pos, 2));
    /* Keyframes on position.x with a discrete mode. */
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "position.x", &a));
    double values[3] = {0, 100, 50}, times[4] = {0, 0.25, 0.5, 1};
    CHECK_OK(animrt_keyframe_set_values(rt, a, values, 3, 1));
    CHECK_OK(animrt_keyframe_set_key_times(rt, a, times, 4));
    CHECK_OK(animrt_keyframe_set_calculation_mode(rt, a, ANIMRT_CALC_DISCRETE));
    CHECK_OK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, 1));
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "kf", 0, NULL));
    /* A rotation by byValue, repeating forever. */
    animrt_id spin = 0;
    double turn = 6.283185307179586;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "transform.rotation.z", &spin));
    CHECK_OK(animrt_animation_set_value(rt, spin, ANIMRT_BY, &turn, 1));
    CHECK_OK(animrt_animation_set_timing(rt, spin, ANIMRT_TIMING_DURATION, 1));
    CHECK_OK(animrt_animation_set_timing(rt, spin, ANIMRT_TIMING_REPEAT_COUNT, INFINITY));
    CHECK_OK(animrt_layer_add_animation(rt, layer, spin, "spin", 0, NULL));
    /* A spring on cornerRadius. */
    animrt_id spring = 0;
    double radius = 8, settle = 0;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "cornerRadius", &spring));
    CHECK_OK(animrt_animation_set_spring(rt, spring, 1, 100, 10, 0));
    CHECK_OK(animrt_animation_set_value(rt, spring, ANIMRT_TO, &radius, 1));
    CHECK_OK(animrt_animation_get_settling_duration(rt, spring, &settle));
    CHECK(settle > 0.5 && settle < 2);
    CHECK_OK(animrt_animation_set_timing(rt, spring, ANIMRT_TIMING_DURATION, settle));
    CHECK_OK(animrt_layer_add_animation(rt, layer, spring, "spring", 0, NULL));

    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.3));
    double p[2]; size_t n = 0;
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "position"), p, 2, &n));
    CHECK(n == 2 && p[0] == 100 && p[1] == 20);
    CHECK_NEAR(presentation(rt, layer, "transform.rotation.z"), 0.3 * turn, 1e-9);
    double m[16];
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "transform"), m, 16, &n));
    CHECK(n == 16);
    CHECK_NEAR(m[0], cos(0.3 * turn), 1e-12);
    CHECK_NEAR(m[1], sin(0.3 * turn), 1e-12);
    CHECK(presentation(rt, layer, "cornerRadius") > 4);
    CHECK_OK(animrt_runtime_tick(rt, 0.75));
    CHECK(presentation(rt, layer, "position.x") == 50);
    size_t count = 0;
    CHECK_OK(animrt_layer_animation_count(rt, layer, &count));
    CHECK(count == 3);
    char key[16]; size_t needed = 0;
    CHECK_OK(animrt_layer_animation_key(rt, layer, 1, key, sizeof key, &needed));
    CHECK(strcmp(key, "spin") == 0 && needed == 5);
    animrt_runtime_destroy(rt);
}

TEST(groups_and_timing_functions) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, group = 0;
    animrt_layer_create(rt, 0, &layer);
    animrt_id child = basic(rt, "opacity", 0, 1, 5);
    CHECK_OK(animrt_animation_set_timing(rt, child, ANIMRT_TIMING_BEGIN_TIME, 0.5));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group));
    CHECK_OK(animrt_group_add(rt, group, child));
    CHECK_OK(animrt_animation_set_timing(rt, group, ANIMRT_TIMING_BEGIN_TIME, 1));
    CHECK_OK(animrt_animation_set_timing(rt, group, ANIMRT_TIMING_DURATION, 3));
    CHECK_OK(animrt_layer_add_animation(rt, layer, group, "g", 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 3.9));
    CHECK_NEAR(presentation(rt, layer, "opacity"), 0.48, 1e-12);  /* clipped to the group's 3 s */
    double y = 0;
    CHECK_OK(animrt_timing_function_evaluate(rt, "easeInEaseOut", 0.25, &y));
    CHECK_NEAR(y, 0.129162, 1e-6);
    CHECK_OK(animrt_timing_function_evaluate(rt, "steps(4, jump-start)", 0.3, &y));
    CHECK(y == 0.5);
    CHECK_OK(animrt_timing_function_evaluate(rt, "cubic-bezier(0, 1.5, 1, 1.5)", 0.5, &y));
    CHECK(y > 1);
    animrt_runtime_destroy(rt);
}

TEST(barriers_transactions_timers) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, b = 0;
    animrt_layer_create(rt, 0, &layer);
    CHECK_OK(animrt_barrier_create(rt, &b));
    CHECK_OK(animrt_layer_add_animation(rt, layer, basic(rt, "opacity", 0, 1, 1), "a", b, NULL));
    CHECK_OK(animrt_layer_add_animation(rt, layer, basic(rt, "position.x", 0, 1, 2), "b", b, NULL));
    size_t count = 0;
    CHECK_OK(animrt_barrier_count(rt, b, &count));
    CHECK(count == 2);
    CHECK_OK(animrt_barrier_notify(rt, b, 77));
    CHECK_OK(animrt_transaction_begin(rt, 0.5));
    animrt_id t = 0;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "cornerRadius", &t));
    double ten = 10;
    CHECK_OK(animrt_animation_set_value(rt, t, ANIMRT_TO, &ten, 1));
    CHECK_OK(animrt_layer_add_animation(rt, layer, t, "t", 0, NULL));
    CHECK_OK(animrt_transaction_commit(rt, 88));
    animrt_id timer = 0, cancelled = 0;
    CHECK_OK(animrt_timer_start(rt, 1.5, 99, &timer));
    CHECK_OK(animrt_timer_start(rt, 0.1, 100, &cancelled));
    CHECK_OK(animrt_timer_cancel(rt, cancelled));
    animrt_event ev[32]; size_t n = 0;
    uint64_t seen[8]; size_t k = 0;
    double times[] = {0, 0.5, 1, 1.5, 2};
    for (int i = 0; i < 5; i++) {
        CHECK_OK(animrt_runtime_tick(rt, times[i]));
        CHECK_OK(animrt_event_poll(rt, ev, 32, &n));
        for (size_t j = 0; j < n; j++)
            if (ev[j].type != ANIMRT_EVENT_ANIMATION_STARTED && ev[j].type != ANIMRT_EVENT_ANIMATION_STOPPED && k < 8)
                seen[k++] = ev[j].token;
    }
    CHECK(k == 3);
    CHECK(seen[0] == 88 && seen[1] == 99 && seen[2] == 77);  /* transaction at 0.5, timer at 1.5, barrier at 2 */
    animrt_runtime_destroy(rt);
}

TEST(bulk_reader) {
    animrt_runtime *rt = rt_new();
    enum { N = 1000 };
    static animrt_id layers[N];
    static animrt_keypath kps[N];
    animrt_keypath x = kp(rt, "position.x");
    for (int i = 0; i < N; i++) {
        animrt_layer_create(rt, 0, &layers[i]);
        kps[i] = x;
        animrt_layer_add_animation(rt, layers[i], basic(rt, "position.x", 0, i, 1), NULL, 0, NULL);
    }
    animrt_id reader = 0;
    CHECK_OK(animrt_reader_create(rt, layers, kps, N, &reader));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.5));
    static double out[N];
    size_t needed = 0;
    CHECK_OK(animrt_reader_read(rt, reader, out, N, &needed));
    CHECK(needed == N);
    int exact = 1;
    for (int i = 0; i < N; i++) exact &= out[i] == i * 0.5;
    CHECK(exact);
    CHECK_STATUS(animrt_reader_read(rt, reader, out, N - 1, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == N);
    CHECK_OK(animrt_reader_destroy(rt, reader));
    CHECK_STATUS(animrt_reader_read(rt, reader, out, N, &needed), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

/* ---- callbacks ------------------------------------------------------- */

typedef struct { animrt_runtime *rt; animrt_id layer; int started, stopped; double read_inside; } cb_state;

static void on_event(void *user, const animrt_event *e) {
    cb_state *s = user;
    if (e->type == ANIMRT_EVENT_ANIMATION_STARTED) s->started++;
    if (e->type == ANIMRT_EVENT_ANIMATION_STOPPED) {
        s->stopped++;
        /* Calling back into animrt from the callback must work (no lock is held). */
        s->read_inside = presentation(s->rt, s->layer, "opacity");
        animrt_id next = basic(s->rt, "position.x", 0, 10, 1);
        animrt_layer_add_animation(s->rt, s->layer, next, "next", 0, NULL);
    }
}

TEST(callbacks) {
    animrt_runtime *rt = rt_new();
    cb_state s = {rt, 0, 0, 0, -1};
    animrt_layer_create(rt, 0, &s.layer);
    CHECK_OK(animrt_event_set_callback(rt, on_event, &s));
    CHECK_OK(animrt_layer_add_animation(rt, s.layer, basic(rt, "opacity", 0, 0.5, 1), "a", 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK(s.started == 1 && s.stopped == 0);
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK(s.stopped == 1);
    CHECK(s.read_inside == 1);
    size_t n = 9;
    animrt_event ev[4];
    CHECK_OK(animrt_event_poll(rt, ev, 4, &n));
    CHECK(n == 0);  /* delivered to the callback, not queued */
    /* Added from the callback, after the tick: it begins at the next tick. */
    CHECK_OK(animrt_runtime_tick(rt, 1.5));
    CHECK(presentation(rt, s.layer, "position.x") == 0);
    CHECK_OK(animrt_runtime_tick(rt, 2));
    CHECK(presentation(rt, s.layer, "position.x") == 5);
    CHECK_OK(animrt_event_set_callback(rt, NULL, NULL));
    animrt_runtime_destroy(rt);
}

static int destroyed_stops;
static void on_destroy(void *user, const animrt_event *e) {
    (void)user;
    if (e->type == ANIMRT_EVENT_ANIMATION_STOPPED && e->reason == ANIMRT_STOP_RUNTIME_DESTROYED) destroyed_stops++;
}

TEST(destroy_reports_last_stops) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0;
    animrt_layer_create(rt, 0, &layer);
    animrt_layer_add_animation(rt, layer, basic(rt, "opacity", 0, 1, 10), "a", 0, NULL);
    animrt_event_set_callback(rt, on_destroy, NULL);
    animrt_runtime_tick(rt, 0);
    animrt_runtime_destroy(rt);
    CHECK(destroyed_stops == 1);
    animrt_runtime_destroy(NULL);
}

/* With a callback, destroy delivers every last stop however small the
 * queue: 5000 animations in a queue with room for one event give 5000
 * STOPPED, one per animation, here in the order they were attached (no
 * slot was reused), and no OVERFLOW. Events already lost before (timers fired into a
 * full queue, never polled) are still reported first, in their place. */
static animrt_event last_events[8];
static animrt_id last_objects[5000];
static int last_count, last_overflows, last_stopped;
static void on_destroy_record(void *user, const animrt_event *e) {
    (void)user;
    if (last_count < 8) last_events[last_count] = *e;
    last_count++;
    if (e->type == ANIMRT_EVENT_OVERFLOW) last_overflows++;
    if (e->type == ANIMRT_EVENT_ANIMATION_STOPPED && e->reason == ANIMRT_STOP_RUNTIME_DESTROYED && last_stopped < 5000)
        last_objects[last_stopped++] = e->object;
}

TEST(destroy_delivers_every_last_stop) {
    animrt_runtime *rt = NULL;
    static animrt_id attached[5000];
    CHECK_OK(animrt_runtime_create(2, &rt));
    animrt_id layer = 0;
    animrt_layer_create(rt, 0, &layer);
    animrt_id fade = basic(rt, "opacity", 0, 1, 10);
    for (int i = 0; i < 5000; i++) CHECK_OK(animrt_layer_add_animation(rt, layer, fade, NULL, 0, &attached[i]));
    CHECK_OK(animrt_event_set_callback(rt, on_destroy_record, NULL));
    last_count = last_overflows = last_stopped = 0;
    animrt_runtime_destroy(rt);
    CHECK(last_count == 5000 && last_stopped == 5000 && last_overflows == 0);
    int in_order = 1;
    for (int i = 0; i < 5000; i++) in_order &= last_objects[i] == attached[i];
    CHECK(in_order);

    /* 10 timers fire into a queue of 4 (3 kept, 7 counted), nobody polls. */
    CHECK_OK(animrt_runtime_create(4, &rt));
    animrt_layer_create(rt, 0, &layer);
    for (int i = 0; i < 10; i++) CHECK_OK(animrt_timer_start(rt, 0, (uint64_t)i, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    for (int i = 0; i < 3; i++) CHECK_OK(animrt_layer_add_animation(rt, layer, basic(rt, "opacity", 0, 1, 10), NULL, 0, NULL));
    CHECK_OK(animrt_event_set_callback(rt, on_destroy_record, NULL));
    last_count = last_overflows = last_stopped = 0;
    animrt_runtime_destroy(rt);
    CHECK(last_count == 7 && last_overflows == 1 && last_stopped == 3);
    CHECK(last_events[0].type == ANIMRT_EVENT_TIMER_FIRED && last_events[0].token == 0);
    CHECK(last_events[2].type == ANIMRT_EVENT_TIMER_FIRED && last_events[2].token == 2);
    CHECK(last_events[3].type == ANIMRT_EVENT_OVERFLOW && last_events[3].token == 7);
    CHECK(last_events[4].type == ANIMRT_EVENT_ANIMATION_STOPPED && last_events[6].type == ANIMRT_EVENT_ANIMATION_STOPPED);
}

TEST(overflow) {
    animrt_runtime *rt = NULL;
    CHECK_OK(animrt_runtime_create(4, &rt));
    for (int i = 0; i < 10; i++) animrt_timer_start(rt, 0, (uint64_t)i, NULL);
    animrt_runtime_tick(rt, 0);
    animrt_event ev[16]; size_t n = 0;
    CHECK_OK(animrt_event_poll(rt, ev, 16, &n));
    CHECK(n == 4);
    CHECK(ev[3].type == ANIMRT_EVENT_OVERFLOW && ev[3].token == 7);
    animrt_runtime_destroy(rt);
}

/* ---- threads --------------------------------------------------------- */

typedef struct { animrt_runtime *rt; animrt_id layer; int failures; } thread_arg;

static void *reader_thread(void *p) {
    thread_arg *a = p;
    animrt_keypath x = kp(a->rt, "position.x");
    for (int i = 0; i < 20000; i++) {
        double v = -1; size_t n = 0;
        if (animrt_layer_get_presentation(a->rt, a->layer, x, &v, 1, &n) != ANIMRT_OK || v < 0 || v > 100) a->failures++;
    }
    return NULL;
}

static void *failing_thread(void *p) {
    thread_arg *a = p;
    animrt_keypath kp;
    if (animrt_keypath_id(a->rt, "bounds.size.widht", &kp) != ANIMRT_E_NOT_FOUND) a->failures++;
    if (!strstr(animrt_last_error_message(), "widht")) a->failures++;
    return NULL;
}

static void *own_runtime_thread(void *p) {
    thread_arg *a = p;
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0;
    animrt_layer_create(rt, 0, &layer);
    animrt_layer_add_animation(rt, layer, basic(rt, "opacity", 0, 1, 1), "a", 0, NULL);
    for (int i = 0; i <= 1000; i++) {
        if (animrt_runtime_tick(rt, i / 1000.0) != ANIMRT_OK) a->failures++;
        if (i == 500 && presentation(rt, layer, "opacity") != 0.5) a->failures++;
    }
    animrt_runtime_destroy(rt);
    return NULL;
}

TEST(threads) {
    animrt_runtime *rt = rt_new();
    thread_arg arg = {rt, 0, 0};
    animrt_layer_create(rt, 0, &arg.layer);
    animrt_id a = basic(rt, "position.x", 0, 100, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_REPEAT_COUNT, INFINITY);
    animrt_layer_add_animation(rt, arg.layer, a, "x", 0, NULL);
    pthread_t t1, t2, t3;
    thread_arg own = {NULL, 0, 0};
    pthread_create(&t1, NULL, reader_thread, &arg);
    pthread_create(&t2, NULL, reader_thread, &arg);
    pthread_create(&t3, NULL, own_runtime_thread, &own);
    int tick_failures = 0;
    for (int i = 0; i < 20000; i++) tick_failures += animrt_runtime_tick(rt, i * 0.001) != ANIMRT_OK;
    pthread_join(t1, NULL); pthread_join(t2, NULL); pthread_join(t3, NULL);
    CHECK(tick_failures == 0);
    CHECK(arg.failures == 0);
    CHECK(own.failures == 0);
    /* Error messages are per thread: another thread's failure does not replace ours. */
    animrt_keypath kp;
    CHECK_STATUS(animrt_keypath_id(rt, "opacty", &kp), ANIMRT_E_NOT_FOUND);
    thread_arg failing = {rt, 0, 0};
    pthread_t t4;
    pthread_create(&t4, NULL, failing_thread, &failing);
    pthread_join(t4, NULL);
    CHECK(failing.failures == 0);
    CHECK_MESSAGE("opacty");
    CHECK(strstr(animrt_last_error_message(), "widht") == NULL);
    animrt_runtime_destroy(rt);
}

int main(void) {
    RUN(versions);
    RUN(event_and_stop_names);
    RUN(animate_and_read);
    RUN(points_transforms_keyframes_springs);
    RUN(groups_and_timing_functions);
    RUN(barriers_transactions_timers);
    RUN(bulk_reader);
    RUN(callbacks);
    RUN(destroy_reports_last_stops);
    RUN(destroy_delivers_every_last_stop);
    RUN(overflow);
    RUN(threads);
    return check_report();
}
