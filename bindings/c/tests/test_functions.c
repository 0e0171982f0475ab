/* Every function of include/animrt.h, one test each, named after it: a call
 * with good input whose effect is checked (values read back from the
 * library, events, counts), and calls with bad input whose status is checked
 * along with the fact that they changed nothing. bindings/c/tests/
 * check_calls.py fails `make test` when a function of the header is called
 * by no C test, so a function added later needs a test here too. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "scene.h"

/* The test of function f is test_f; it reports as "f". */
#define FN_TEST(f) static void test_##f(void)
#define RUN_FN(f) do { check_test = #f; test_##f(); } while (0)

/* ---- helpers ----------------------------------------------------------- */

static double model(animrt_runtime *rt, animrt_id layer, const char *path) {
    double v = NAN;
    size_t n = 0;
    animrt_layer_get_value(rt, layer, kp(rt, path), &v, 1, &n);
    return v;
}

static void set1(animrt_runtime *rt, animrt_id layer, const char *path, double v) {
    animrt_layer_set_value(rt, layer, kp(rt, path), &v, 1);
}

/* A basic animation of a scalar from `from` to `to`, beginning at `begin`
 * (in the layer's time; not 0, which would mean "at the next tick"). */
static animrt_id basic_at(animrt_runtime *rt, const char *path, double from, double to, double begin, double duration) {
    animrt_id a = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, path, &a);
    animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1);
    animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, begin);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, duration);
    return a;
}

static animrt_id new_layer(animrt_runtime *rt, animrt_id parent) {
    animrt_id l = 0;
    animrt_layer_create(rt, parent, &l);
    return l;
}

static animrt_id attach(animrt_runtime *rt, animrt_id layer, animrt_id anim, const char *key) {
    animrt_id inst = 0;
    CHECK_OK(animrt_layer_add_animation(rt, layer, anim, key, 0, &inst));
    return inst;
}

static size_t animation_count(animrt_runtime *rt, animrt_id layer) {
    size_t n = 999;
    animrt_layer_animation_count(rt, layer, &n);
    return n;
}

static double timing(animrt_runtime *rt, animrt_id a, animrt_timing_param p) {
    double v = NAN;
    animrt_animation_get_timing(rt, a, p, &v);
    return v;
}

/* Drains the queue; returns how many events, copying up to `cap`. */
static size_t drain(animrt_runtime *rt, animrt_event *out, size_t cap) {
    animrt_event buf[64];
    size_t total = 0, n = 0;
    do {
        animrt_event_poll(rt, buf, 64, &n);
        for (size_t i = 0; i < n; i++, total++) if (total < cap) out[total] = buf[i];
    } while (n == 64);
    return total;
}

/* The value at `t` of a 0 → 1 animation configured by `configure`, begun
 * at 1 on a fresh layer whose model is -1 (so "not in effect" reads -1). */
typedef void (*configure_fn)(animrt_runtime *, animrt_id);
static double value_at(configure_fn configure, double t) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    set1(rt, layer, "opacity", -1);
    animrt_id a = basic_at(rt, "opacity", 0, 1, 1, 1);
    if (configure) configure(rt, a);
    animrt_layer_add_animation(rt, layer, a, "a", 0, NULL);
    animrt_runtime_tick(rt, t);
    double v = presentation(rt, layer, "opacity");
    animrt_runtime_destroy(rt);
    return v;
}

/* ---- versions and errors ----------------------------------------------- */

FN_TEST(animrt_version) {
    /* No arguments, so no bad input: the number matches the header. */
    CHECK(animrt_version() == ANIMRT_VERSION_NUMBER);
    CHECK(animrt_version() == ANIMRT_VERSION_MAJOR * 10000u + ANIMRT_VERSION_MINOR * 100u + ANIMRT_VERSION_PATCH);
}

FN_TEST(animrt_version_string) {
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", ANIMRT_VERSION_MAJOR, ANIMRT_VERSION_MINOR, ANIMRT_VERSION_PATCH);
    CHECK(strcmp(animrt_version_string(), expected) == 0);
    CHECK(animrt_version_string() == animrt_version_string());  /* static */
}

FN_TEST(animrt_status_name) {
    static const struct { animrt_status s; const char *name; } names[] = {
        {ANIMRT_OK, "ANIMRT_OK"}, {ANIMRT_E_NULL, "ANIMRT_E_NULL"}, {ANIMRT_E_INVALID, "ANIMRT_E_INVALID"},
        {ANIMRT_E_RANGE, "ANIMRT_E_RANGE"}, {ANIMRT_E_HANDLE, "ANIMRT_E_HANDLE"}, {ANIMRT_E_NOT_FOUND, "ANIMRT_E_NOT_FOUND"},
        {ANIMRT_E_KIND, "ANIMRT_E_KIND"}, {ANIMRT_E_BUFFER, "ANIMRT_E_BUFFER"}, {ANIMRT_E_STATE, "ANIMRT_E_STATE"},
        {ANIMRT_E_EXISTS, "ANIMRT_E_EXISTS"}, {ANIMRT_E_NOMEM, "ANIMRT_E_NOMEM"}, {ANIMRT_E_TIME, "ANIMRT_E_TIME"},
        {ANIMRT_E_ENUM, "ANIMRT_E_ENUM"}, {ANIMRT_E_VERSION, "ANIMRT_E_VERSION"},
        {ANIMRT_E_CALLBACK, "ANIMRT_E_CALLBACK"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        CHECK(names[i].s == (animrt_status)i);
        CHECK(strcmp(animrt_status_name(names[i].s), names[i].name) == 0);
    }
    /* Bad input: values that are not statuses. */
    CHECK(strcmp(animrt_status_name(-1), "ANIMRT_E_UNKNOWN") == 0);
    CHECK(strcmp(animrt_status_name(1000), "ANIMRT_E_UNKNOWN") == 0);
    CHECK(strcmp(animrt_status_name(INT32_MAX), "ANIMRT_E_UNKNOWN") == 0);
}

static void *fresh_thread_message(void *out) {
    *(const char **)out = animrt_last_error_message();
    return NULL;
}

FN_TEST(animrt_last_error_message) {
    animrt_runtime *rt = rt_new();
    animrt_keypath id = 0;
    CHECK_STATUS(animrt_keypath_id(rt, "opacty", &id), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("'opacty'");
    CHECK_MESSAGE("did you mean 'opacity'");
    /* A later success leaves the message of the last failure. */
    CHECK_OK(animrt_keypath_id(rt, "opacity", &id));
    CHECK_MESSAGE("opacty");
    CHECK_STATUS(animrt_runtime_tick(rt, NAN), ANIMRT_E_TIME);
    CHECK_MESSAGE("nan");
    /* A thread that never failed reads "". */
    const char *other = NULL;
    pthread_t t;
    pthread_create(&t, NULL, fresh_thread_message, &other);
    pthread_join(t, NULL);
    CHECK(other != NULL && other[0] == 0);
    animrt_runtime_destroy(rt);
}

/* ---- runtime ------------------------------------------------------------ */

FN_TEST(animrt_runtime_create) {
    animrt_runtime *rt = NULL;
    CHECK_OK(animrt_runtime_create(3, &rt));
    CHECK(rt != NULL);
    /* A queue of 3 holds 2 events and the overflow notice. */
    for (uint64_t i = 0; i < 5; i++) CHECK_OK(animrt_timer_start(rt, 0, 10 + i, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    animrt_event ev[8];
    size_t n = drain(rt, ev, 8);
    CHECK(n == 3);
    CHECK(ev[0].type == ANIMRT_EVENT_TIMER_FIRED && ev[0].token == 10);
    CHECK(ev[1].type == ANIMRT_EVENT_TIMER_FIRED && ev[1].token == 11);
    CHECK(ev[2].type == ANIMRT_EVENT_OVERFLOW && ev[2].token == 3);
    animrt_runtime_destroy(rt);
    /* Capacity 0 means 65536: 1000 events fit. */
    CHECK_OK(animrt_runtime_create(0, &rt));
    for (uint64_t i = 0; i < 1000; i++) animrt_timer_start(rt, 0, i, NULL);
    animrt_runtime_tick(rt, 0);
    static animrt_event many[1024];
    CHECK(drain(rt, many, 1024) == 1000 && many[999].token == 999);
    animrt_runtime_destroy(rt);
    CHECK_STATUS(animrt_runtime_create(0, NULL), ANIMRT_E_NULL);
}

static int destroyed_seen;
static void count_destroyed(void *user, const animrt_event *e) {
    (void)user;
    if (e->type == ANIMRT_EVENT_ANIMATION_STOPPED && e->reason == ANIMRT_STOP_RUNTIME_DESTROYED) destroyed_seen++;
}

FN_TEST(animrt_runtime_destroy) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 10), "a");
    attach(rt, layer, basic_at(rt, "cornerRadius", 0, 1, 1, 10), "b");
    animrt_event_set_callback(rt, count_destroyed, NULL);
    animrt_runtime_tick(rt, 2);
    destroyed_seen = 0;
    animrt_runtime_destroy(rt);
    CHECK(destroyed_seen == 2);
    animrt_runtime_destroy(NULL);  /* bad input: ignored */
    CHECK(1);
}

FN_TEST(animrt_runtime_tick) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 2), "a");
    CHECK_OK(animrt_runtime_tick(rt, 2));
    CHECK(presentation(rt, layer, "opacity") == 0.5);
    CHECK_OK(animrt_runtime_tick(rt, 2));  /* the same time again is fine */
    double t = 0;
    CHECK_STATUS(animrt_runtime_tick(rt, 1.5), ANIMRT_E_TIME);
    CHECK_MESSAGE("earlier than the previous tick");
    CHECK_STATUS(animrt_runtime_tick(rt, NAN), ANIMRT_E_TIME);
    CHECK_STATUS(animrt_runtime_tick(rt, INFINITY), ANIMRT_E_TIME);
    CHECK_STATUS(animrt_runtime_tick(rt, -INFINITY), ANIMRT_E_TIME);
    CHECK_STATUS(animrt_runtime_tick(NULL, 3), ANIMRT_E_NULL);
    animrt_runtime_time(rt, &t);
    CHECK(t == 2 && presentation(rt, layer, "opacity") == 0.5);
    CHECK_OK(animrt_runtime_tick(rt, 2.5));
    CHECK(presentation(rt, layer, "opacity") == 0.75);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_runtime_time) {
    animrt_runtime *rt = rt_new();
    double t = -1;
    CHECK_OK(animrt_runtime_time(rt, &t));
    CHECK(t == 0);
    animrt_runtime_tick(rt, 7.25);
    CHECK_OK(animrt_runtime_time(rt, &t));
    CHECK(t == 7.25);
    CHECK_STATUS(animrt_runtime_time(rt, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_runtime_time(NULL, &t), ANIMRT_E_NULL);
    CHECK(t == 7.25);
    animrt_runtime_destroy(rt);
}

/* Enough batch entries that a second thread takes part (the batch splits
 * from 32768 entries per thread), on a runtime with `threads` threads;
 * returns a checksum of the bit patterns of every value over 5 frames and
 * of every event. */
static uint64_t threaded_run(uint32_t threads) {
    enum { N = 70000 };
    animrt_runtime *rt = rt_new();
    CHECK_OK(animrt_runtime_set_threads(rt, threads));
    static animrt_id layers[N];
    static animrt_keypath kps[N];
    animrt_keypath x = kp(rt, "position.x");
    const char *curves[] = {"linear", "easeIn", "steps(3)"};
    for (int i = 0; i < N; i++) {
        layers[i] = new_layer(rt, 0);
        kps[i] = x;
        animrt_id a = basic_at(rt, "position.x", i % 7, i % 11, 1 + (i % 13) * 0.01, 0.05 + (i % 17) * 0.01);
        animrt_animation_set_timing_function(rt, a, curves[i % 3]);
        animrt_layer_add_animation(rt, layers[i], a, NULL, 0, NULL);
        animrt_animation_destroy(rt, a);
    }
    animrt_id reader = 0;
    animrt_reader_create(rt, layers, kps, N, &reader);
    static double out[N];
    uint64_t sum = 1469598103934665603ull;
    size_t needed = 0;
    for (int f = 0; f < 5; f++) {
        animrt_runtime_tick(rt, 1 + f * 0.04);
        animrt_reader_read(rt, reader, out, N, &needed);
        for (int i = 0; i < N; i++) { uint64_t b; memcpy(&b, &out[i], 8); sum = (sum ^ b) * 1099511628211ull; }
        animrt_event ev[64];
        size_t n = 0;
        do {
            animrt_event_poll(rt, ev, 64, &n);
            /* Handles name their runtime in the top 16 bits: compare the rest. */
            for (size_t k = 0; k < n; k++) sum = (sum ^ ((ev[k].object & 0xFFFFFFFFFFFFull) + (uint64_t)ev[k].type)) * 1099511628211ull;
        } while (n == 64);
    }
    animrt_runtime_destroy(rt);
    return sum;
}

FN_TEST(animrt_runtime_set_threads) {
    uint64_t one = threaded_run(1);
    CHECK(threaded_run(2) == one);           /* the same bits and events */
    CHECK(threaded_run(0) == one);           /* 0: one per processor */
    CHECK(threaded_run(UINT32_MAX) == one);  /* any count is accepted (capped) */
    CHECK_STATUS(animrt_runtime_set_threads(NULL, 2), ANIMRT_E_NULL);
}

/* ---- key paths and properties ------------------------------------------- */

FN_TEST(animrt_keypath_id) {
    animrt_runtime *rt = rt_new();
    animrt_keypath a = -1, b = -1, c = -1;
    CHECK_OK(animrt_keypath_id(rt, "opacity", &a));
    CHECK_OK(animrt_keypath_id(rt, "position.x", &b));
    CHECK_OK(animrt_keypath_id(rt, "opacity", &c));
    CHECK(a >= 0 && b >= 0 && a != b && a == c);
    animrt_keypath untouched = 77;
    CHECK_STATUS(animrt_keypath_id(rt, "opacty", &untouched), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'opacity'");
    CHECK_STATUS(animrt_keypath_id(rt, "position.z", &untouched), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_keypath_id(rt, "opa\xff", &untouched), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_keypath_id(rt, NULL, &untouched), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keypath_id(rt, "opacity", NULL), ANIMRT_E_NULL);
    CHECK(untouched == 77);
    /* An id belongs to its runtime. Another runtime that resolved other key
     * paths first would have its own "glow" under the same index as this
     * one's opacity: every value call there refuses the id, nothing is written. */
    animrt_runtime *other = rt_new();
    double one = 1, quarter = 0.25, v = -1;
    animrt_keypath glow = -1, here = -1;
    size_t n = 9;
    CHECK_OK(animrt_property_define(other, "glow", ANIMRT_VALUE_SCALAR, &one, 1));
    CHECK_OK(animrt_keypath_id(other, "glow", &glow));
    animrt_id layer = 0, reader = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_STATUS(animrt_layer_set_value(rt, layer, glow, &quarter, 1), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("is not one this runtime gave");
    CHECK_STATUS(animrt_layer_get_value(rt, layer, glow, &v, 1, &n), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_layer_get_presentation(rt, layer, glow, &v, 1, &n), ANIMRT_E_NOT_FOUND);
    animrt_value_kind kind = ANIMRT_VALUE_COLOR;
    CHECK_STATUS(animrt_keypath_info(rt, glow, &kind, &n), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_reader_create(rt, &layer, &glow, 1, &reader), ANIMRT_E_NOT_FOUND);
    CHECK(v == -1 && n == 9 && kind == ANIMRT_VALUE_COLOR && reader == 0);
    CHECK_OK(animrt_layer_get_value(rt, layer, a, &v, 1, &n));
    CHECK(v == 1);  /* opacity untouched */
    CHECK_OK(animrt_keypath_id(other, "opacity", &here));
    CHECK(here != a);  /* the same key path has each runtime's own id */
    animrt_runtime_destroy(other);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_keypath_info) {
    animrt_runtime *rt = rt_new();
    static const struct { const char *path; animrt_value_kind kind; size_t n; } table[] = {
        {"opacity", ANIMRT_VALUE_SCALAR, 1}, {"position", ANIMRT_VALUE_POINT, 2}, {"bounds.size", ANIMRT_VALUE_SIZE, 2},
        {"bounds", ANIMRT_VALUE_RECT, 4}, {"backgroundColor", ANIMRT_VALUE_COLOR, 4},
        {"transform", ANIMRT_VALUE_TRANSFORM, 16}, {"transform.rotation.z", ANIMRT_VALUE_SCALAR, 1},
        {"transform.translation", ANIMRT_VALUE_SIZE, 2}, {"position.y", ANIMRT_VALUE_SCALAR, 1}};
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        animrt_value_kind kind = (animrt_value_kind)99;
        size_t n = 0;
        CHECK_OK(animrt_keypath_info(rt, kp(rt, table[i].path), &kind, &n));
        CHECK(kind == table[i].kind && n == table[i].n);
    }
    CHECK_OK(animrt_keypath_info(rt, kp(rt, "opacity"), NULL, NULL));  /* both outs are optional */
    animrt_value_kind kind = (animrt_value_kind)99;
    size_t n = 99;
    CHECK_STATUS(animrt_keypath_info(rt, 9999, &kind, &n), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_keypath_info(rt, -1, &kind, &n), ANIMRT_E_NOT_FOUND);
    CHECK(kind == (animrt_value_kind)99 && n == 99);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_property_define) {
    animrt_runtime *rt = rt_new();
    static const struct { const char *name; animrt_value_kind kind; size_t n; } kinds[] = {
        {"p_scalar", ANIMRT_VALUE_SCALAR, 1}, {"p_point", ANIMRT_VALUE_POINT, 2}, {"p_size", ANIMRT_VALUE_SIZE, 2},
        {"p_rect", ANIMRT_VALUE_RECT, 4}, {"p_color", ANIMRT_VALUE_COLOR, 4}, {"p_transform", ANIMRT_VALUE_TRANSFORM, 16}};
    double initial[16];
    for (int k = 0; k < 16; k++) initial[k] = k + 0.5;
    animrt_id layer = new_layer(rt, 0);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        CHECK_OK(animrt_property_define(rt, kinds[i].name, kinds[i].kind, initial, kinds[i].n));
        animrt_value_kind kind = (animrt_value_kind)99;
        size_t n = 0;
        CHECK_OK(animrt_keypath_info(rt, kp(rt, kinds[i].name), &kind, &n));
        CHECK(kind == kinds[i].kind && n == kinds[i].n);
        double v[16] = {0};
        CHECK_OK(animrt_layer_get_value(rt, layer, kp(rt, kinds[i].name), v, 16, &n));
        CHECK(n == kinds[i].n && v[0] == 0.5 && v[n - 1] == n - 0.5);
    }
    /* Sub-paths follow the kind: a point has .x and .y. */
    CHECK(model(rt, layer, "p_point.y") == 1.5);
    CHECK_STATUS(animrt_property_define(rt, "opacity", ANIMRT_VALUE_SCALAR, initial, 1), ANIMRT_E_EXISTS);
    CHECK_STATUS(animrt_property_define(rt, "p_new", (animrt_value_kind)99, initial, 1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_property_define(rt, "p_new", ANIMRT_VALUE_POINT, initial, 1), ANIMRT_E_KIND);
    double nan_value = NAN;
    CHECK_STATUS(animrt_property_define(rt, "p_new", ANIMRT_VALUE_SCALAR, &nan_value, 1), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_property_define(rt, "has.dot", ANIMRT_VALUE_SCALAR, initial, 1), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_property_define(rt, "", ANIMRT_VALUE_SCALAR, initial, 1), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_property_define(rt, NULL, ANIMRT_VALUE_SCALAR, initial, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_property_define(rt, "p_new", ANIMRT_VALUE_SCALAR, NULL, 1), ANIMRT_E_NULL);
    /* None of the refused names was defined. */
    animrt_keypath id = 0;
    CHECK_STATUS(animrt_keypath_id(rt, "p_new", &id), ANIMRT_E_NOT_FOUND);
    CHECK(model(rt, layer, "opacity") == 1);
    animrt_runtime_destroy(rt);
}

/* ---- layers ------------------------------------------------------------- */

FN_TEST(animrt_layer_create) {
    animrt_runtime *rt = rt_new(), *other = rt_new();
    animrt_id root = 0, child = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &root));
    CHECK_OK(animrt_layer_create(rt, root, &child));
    CHECK(root != 0 && child != 0 && root != child);
    /* A child lives in its parent's time. */
    CHECK_OK(animrt_layer_set_timing(rt, root, 0, 2, 0));
    attach(rt, child, basic_at(rt, "opacity", 0, 1, 2, 2), "a");
    animrt_runtime_tick(rt, 1.5);  /* child time 3 */
    CHECK(presentation(rt, child, "opacity") == 0.5);
    animrt_id out = 123, foreign = new_layer(other, 0), anim = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_STATUS(animrt_layer_create(rt, 0, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_create(rt, foreign, &out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_create(rt, anim, &out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_create(rt, 12345, &out), ANIMRT_E_HANDLE);
    CHECK(out == 123);
    animrt_runtime_destroy(other);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_create_many) {
    animrt_runtime *rt = rt_new(), *other = rt_new();
    animrt_id parent = new_layer(rt, 0), kids[5] = {0}, roots[3] = {0};
    CHECK_OK(animrt_layer_create_many(rt, parent, 5, kids));
    CHECK_OK(animrt_layer_create_many(rt, 0, 3, roots));
    int distinct = 1;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < i; j++) distinct &= kids[i] != 0 && kids[i] != kids[j] && kids[i] != parent;
    CHECK(distinct && roots[0] != 0 && roots[2] != 0 && roots[0] != roots[2]);
    /* The children live in the parent's time; the roots in the runtime's. */
    CHECK_OK(animrt_layer_set_timing(rt, parent, 0, 2, 0));
    attach(rt, kids[4], basic_at(rt, "opacity", 0, 1, 2, 2), "a");
    attach(rt, roots[1], basic_at(rt, "opacity", 0, 1, 1, 2), "a");
    animrt_runtime_tick(rt, 1.5); /* child time 3 */
    CHECK(presentation(rt, kids[4], "opacity") == 0.5);
    CHECK(presentation(rt, roots[1], "opacity") == 0.25);
    /* Destroying the parent makes them roots, as for layers made one by one. */
    CHECK_OK(animrt_layer_destroy(rt, parent));
    animrt_runtime_tick(rt, 2);
    CHECK(presentation(rt, kids[4], "opacity") == 0);
    /* No layer at all: nothing is read or written. */
    CHECK_OK(animrt_layer_create_many(rt, 0, 0, NULL));
    animrt_id out[2] = {123, 123}, foreign = new_layer(other, 0), anim = basic_at(rt, "opacity", 0, 1, 1, 1);
    new_layer(rt, 0); /* takes the destroyed parent's slot: the next ones are fresh */
    animrt_id last = new_layer(rt, 0);
    CHECK_STATUS(animrt_layer_create_many(rt, 0, 2, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_create_many(rt, foreign, 2, out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_create_many(rt, anim, 2, out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_create_many(rt, 12345, 2, out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_create_many(rt, parent, 2, out), ANIMRT_E_HANDLE); /* destroyed */
    /* More layers than a runtime holds (ANIMRT_OBJECTS_MAX), up to the
     * largest count accepted (2^28); past it, no count is read. */
    CHECK_STATUS(animrt_layer_create_many(rt, 0, (size_t)ANIMRT_OBJECTS_MAX + 1, out), ANIMRT_E_NOMEM);
    CHECK_MESSAGE("too many layers");
    CHECK_STATUS(animrt_layer_create_many(rt, 0, (size_t)1 << 28, out), ANIMRT_E_NOMEM);
    CHECK_STATUS(animrt_layer_create_many(rt, 0, ((size_t)1 << 28) + 1, out), ANIMRT_E_RANGE);
    CHECK_MESSAGE("at most");
    CHECK_STATUS(animrt_layer_create_many(rt, 0, SIZE_MAX, out), ANIMRT_E_RANGE);
    CHECK(out[0] == 123 && out[1] == 123);
    /* None of the refused calls made a layer: the next one takes the next slot. */
    CHECK(((new_layer(rt, 0) - last) & 0xFFFFFF) == 1);
    animrt_runtime_destroy(other);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_destroy) {
    animrt_runtime *rt = rt_new();
    animrt_id parent = new_layer(rt, 0), child = new_layer(rt, parent);
    animrt_layer_set_timing(rt, parent, 0, 2, 0);
    animrt_id inst = attach(rt, parent, basic_at(rt, "opacity", 0, 1, 1, 10), "a");
    attach(rt, child, basic_at(rt, "opacity", 0, 1, 1, 4), "b");
    animrt_runtime_tick(rt, 1);  /* child time 2 */
    CHECK(presentation(rt, child, "opacity") == 0.25);
    drain(rt, NULL, 0);
    CHECK_OK(animrt_layer_destroy(rt, parent));
    animrt_event ev[4];
    CHECK(drain(rt, ev, 4) == 1);
    CHECK(ev[0].type == ANIMRT_EVENT_ANIMATION_STOPPED && ev[0].reason == ANIMRT_STOP_LAYER_DESTROYED && ev[0].object == inst);
    /* The child is a root now: its time is the runtime's. */
    animrt_runtime_tick(rt, 3);
    CHECK(presentation(rt, child, "opacity") == 0.5);
    CHECK_STATUS(animrt_layer_destroy(rt, parent), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("stale");
    CHECK_STATUS(animrt_layer_destroy(rt, 0), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_destroy(rt, inst), ANIMRT_E_HANDLE);
    CHECK(animation_count(rt, child) == 1);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_set_parent) {
    animrt_runtime *rt = rt_new();
    animrt_id fast = new_layer(rt, 0), a = new_layer(rt, 0), b = new_layer(rt, a);
    animrt_layer_set_timing(rt, fast, 0, 2, 0);
    attach(rt, b, basic_at(rt, "opacity", 0, 1, 1, 4), "x");
    CHECK_OK(animrt_layer_set_parent(rt, a, fast));  /* b's time now runs twice as fast */
    animrt_runtime_tick(rt, 1);
    CHECK(presentation(rt, b, "opacity") == 0.25);
    CHECK_OK(animrt_layer_set_parent(rt, a, 0));      /* a root again */
    animrt_runtime_tick(rt, 3);
    CHECK(presentation(rt, b, "opacity") == 0.5);
    CHECK_STATUS(animrt_layer_set_parent(rt, a, b), ANIMRT_E_INVALID);  /* a cycle */
    CHECK_MESSAGE(" is inside layer ");
    CHECK_MESSAGE("; a layer cannot be its own ancestor");
    CHECK_STATUS(animrt_layer_set_parent(rt, a, a), ANIMRT_E_INVALID);
    CHECK_MESSAGE(" cannot be its own parent");
    CHECK_STATUS(animrt_layer_set_parent(rt, a, 999), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_set_parent(rt, 0, a), ANIMRT_E_HANDLE);
    animrt_runtime_tick(rt, 4);
    CHECK(presentation(rt, b, "opacity") == 0.75);  /* the refused calls moved nothing */
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_set_timing) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 0.25, 1), "a");
    /* Paused at local time 0.5: 0.25 s into the animation, whatever the clock. */
    CHECK_OK(animrt_layer_set_timing(rt, layer, 0, 0, 0.5));
    animrt_runtime_tick(rt, 10);
    CHECK(presentation(rt, layer, "opacity") == 0.25);
    /* local = (t − 10) × 0.5 + 0.5: at t = 11, local 1, progress 0.75. */
    CHECK_OK(animrt_layer_set_timing(rt, layer, 10, 0.5, 0.5));
    animrt_runtime_tick(rt, 11);
    CHECK(presentation(rt, layer, "opacity") == 0.75);
    CHECK_STATUS(animrt_layer_set_timing(rt, layer, 0, NAN, 0), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_layer_set_timing(rt, layer, INFINITY, 1, 0), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_layer_set_timing(rt, layer, 0, 1, -INFINITY), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_layer_set_timing(rt, 0, 0, 1, 0), ANIMRT_E_HANDLE);
    animrt_runtime_tick(rt, 11);
    CHECK(presentation(rt, layer, "opacity") == 0.75);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_set_value) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    double point[2] = {10, 20}, y = 25, half = 0.5, v[2];
    size_t n = 0;
    animrt_runtime_tick(rt, 0);  /* the layer is on screen from here on */
    CHECK_OK(animrt_layer_set_value(rt, layer, kp(rt, "opacity"), &half, 1));
    CHECK(model(rt, layer, "opacity") == 0.5);
    CHECK(presentation(rt, layer, "opacity") == 1);  /* the presentation follows at the next tick */
    animrt_runtime_tick(rt, 0);
    CHECK(presentation(rt, layer, "opacity") == 0.5);
    CHECK_OK(animrt_layer_set_value(rt, layer, kp(rt, "position"), point, 2));
    CHECK_OK(animrt_layer_set_value(rt, layer, kp(rt, "position.y"), &y, 1));
    CHECK_OK(animrt_layer_get_value(rt, layer, kp(rt, "position"), v, 2, &n));
    CHECK(n == 2 && v[0] == 10 && v[1] == 25);
    double nan_value = NAN;
    CHECK_STATUS(animrt_layer_set_value(rt, layer, kp(rt, "position"), point, 1), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_layer_set_value(rt, layer, kp(rt, "opacity"), &nan_value, 1), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_layer_set_value(rt, layer, kp(rt, "opacity"), NULL, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_set_value(rt, layer, 4242, &half, 1), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_layer_set_value(rt, layer, kp(rt, "opacity"), &half, SIZE_MAX), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_set_value(rt, 0, kp(rt, "opacity"), &half, 1), ANIMRT_E_HANDLE);
    animrt_runtime_tick(rt, 1);
    CHECK(model(rt, layer, "opacity") == 0.5 && presentation(rt, layer, "opacity") == 0.5);
    CHECK(model(rt, layer, "position.x") == 10 && model(rt, layer, "position.y") == 25);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_get_value) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    double rect[4] = {1, 2, 3, 4}, out[4] = {0}, small[2] = {-1, -1};
    animrt_layer_set_value(rt, layer, kp(rt, "bounds"), rect, 4);
    attach(rt, layer, basic_at(rt, "bounds.size.width", 0, 100, 1, 1), "w");
    animrt_runtime_tick(rt, 1.5);
    size_t n = 0;
    CHECK_OK(animrt_layer_get_value(rt, layer, kp(rt, "bounds"), out, 4, &n));
    CHECK(n == 4 && out[0] == 1 && out[2] == 3);  /* the model, not the animated 50 */
    CHECK_OK(animrt_layer_get_value(rt, layer, kp(rt, "bounds.size"), out, SIZE_MAX, &n));
    CHECK(n == 2 && out[0] == 3 && out[1] == 4);
    CHECK_STATUS(animrt_layer_get_value(rt, layer, kp(rt, "bounds"), small, 2, &n), ANIMRT_E_BUFFER);
    CHECK(n == 4 && small[0] == -1 && small[1] == -1);  /* *count says how many; nothing written */
    CHECK_STATUS(animrt_layer_get_value(rt, layer, kp(rt, "bounds"), NULL, 0, &n), ANIMRT_E_BUFFER);
    CHECK_MESSAGE("the value has 4 components; the buffer holds 0");
    CHECK_STATUS(animrt_layer_get_value(rt, layer, kp(rt, "opacity"), NULL, 0, &n), ANIMRT_E_BUFFER);
    CHECK(n == 1);
    CHECK_MESSAGE("the value has 1 component;");  /* one, not "1 components" */
    CHECK_STATUS(animrt_layer_get_value(rt, layer, kp(rt, "bounds"), out, 4, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_get_value(rt, layer, -3, out, 4, &n), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_layer_get_value(rt, 77, kp(rt, "bounds"), out, 4, &n), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_get_presentation) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    attach(rt, layer, basic_at(rt, "bounds.size.width", 0, 100, 1, 1), "w");
    attach(rt, layer, basic_at(rt, "transform.rotation.z", 0, 1, 1, 1), "r");
    animrt_runtime_tick(rt, 1.5);
    double out[16] = {0}, small[2] = {-1, -1};
    size_t n = 0;
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "bounds"), out, 4, &n));
    CHECK(n == 4 && out[2] == 50 && out[3] == 0);
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "transform.rotation.z"), out, 1, &n));
    CHECK(n == 1);
    CHECK_NEAR(out[0], 0.5, 1e-12);
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp(rt, "transform"), out, 16, &n));
    CHECK(n == 16);
    CHECK_NEAR(out[0], cos(0.5), 1e-12);
    CHECK_NEAR(out[1], sin(0.5), 1e-12);
    CHECK_STATUS(animrt_layer_get_presentation(rt, layer, kp(rt, "bounds"), small, 2, &n), ANIMRT_E_BUFFER);
    CHECK(n == 4 && small[0] == -1);
    CHECK_MESSAGE("the value has 4 components; the buffer holds 2");
    CHECK_STATUS(animrt_layer_get_presentation(rt, layer, kp(rt, "opacity"), NULL, 0, &n), ANIMRT_E_BUFFER);
    CHECK(n == 1);
    CHECK_MESSAGE("the value has 1 component;");
    CHECK_STATUS(animrt_layer_get_presentation(rt, layer, kp(rt, "transform"), small, 2, &n), ANIMRT_E_BUFFER);
    CHECK(n == 16 && small[0] == -1);
    CHECK_STATUS(animrt_layer_get_presentation(rt, layer, kp(rt, "bounds"), out, 4, NULL), ANIMRT_E_NULL);
    /* No buffer: a capacity that comes without one holds nothing (the size is still said). */
    n = 0;
    CHECK_STATUS(animrt_layer_get_presentation(rt, layer, kp(rt, "bounds"), NULL, 4, &n), ANIMRT_E_BUFFER);
    CHECK(n == 4);
    CHECK_STATUS(animrt_layer_get_presentation(rt, layer, kp(rt, "transform.rotation.z"), NULL, SIZE_MAX, &n), ANIMRT_E_BUFFER);
    CHECK(n == 1);
    CHECK_STATUS(animrt_layer_get_presentation(rt, layer, 999, out, 4, &n), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_layer_get_presentation(rt, 0, kp(rt, "bounds"), out, 4, &n), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

/* ---- bulk readers ------------------------------------------------------- */

FN_TEST(animrt_reader_create) {
    animrt_runtime *rt = rt_new();
    animrt_id layers[3], out = 123;
    animrt_keypath kps[3];
    for (int i = 0; i < 3; i++) {
        layers[i] = new_layer(rt, 0);
        kps[i] = kp(rt, "position");
        double p[2] = {i, 10 * i};
        animrt_layer_set_value(rt, layers[i], kps[i], p, 2);
    }
    animrt_id reader = 0, empty = 0;
    CHECK_OK(animrt_reader_create(rt, layers, kps, 3, &reader));
    CHECK_OK(animrt_reader_create(rt, NULL, NULL, 0, &empty));
    animrt_runtime_tick(rt, 0);
    double v[6] = {0};
    size_t needed = 0;
    CHECK_OK(animrt_reader_read(rt, reader, v, 6, &needed));
    CHECK(needed == 6 && v[0] == 0 && v[3] == 10 && v[4] == 2 && v[5] == 20);
    CHECK_OK(animrt_reader_read(rt, empty, NULL, 0, &needed));
    CHECK(needed == 0);
    animrt_keypath mixed[3] = {kps[0], kp(rt, "opacity"), kps[2]};
    CHECK_STATUS(animrt_reader_create(rt, layers, mixed, 3, &out), ANIMRT_E_KIND);
    CHECK_MESSAGE("target 1");
    animrt_keypath unknown[3] = {kps[0], 999, kps[2]};
    CHECK_STATUS(animrt_reader_create(rt, layers, unknown, 3, &out), ANIMRT_E_NOT_FOUND);
    animrt_id stale[3] = {layers[0], layers[1], 12345};
    CHECK_STATUS(animrt_reader_create(rt, stale, kps, 3, &out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_reader_create(rt, NULL, kps, 3, &out), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_reader_create(rt, layers, NULL, 3, &out), ANIMRT_E_NULL);
    CHECK_MESSAGE("key_paths is NULL but count is 3");
    CHECK_STATUS(animrt_reader_create(rt, layers, kps, 3, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_reader_create(rt, layers, kps, SIZE_MAX, &out), ANIMRT_E_RANGE);
    CHECK(out == 123);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_reader_read) {
    animrt_runtime *rt = rt_new();
    animrt_id layers[2] = {new_layer(rt, 0), new_layer(rt, 0)};
    animrt_keypath kps[2] = {kp(rt, "opacity"), kp(rt, "transform.scale")};
    attach(rt, layers[0], basic_at(rt, "opacity", 0, 1, 1, 1), "o");
    attach(rt, layers[1], basic_at(rt, "transform.scale", 1, 3, 1, 1), "s");
    animrt_id reader = 0;
    CHECK_OK(animrt_reader_create(rt, layers, kps, 2, &reader));
    animrt_runtime_tick(rt, 1.25);
    double v[2] = {-1, -1};
    size_t needed = 0;
    CHECK_OK(animrt_reader_read(rt, reader, v, 2, &needed));
    CHECK(needed == 2 && v[0] == 0.25);
    CHECK_NEAR(v[1], 1.5, 1e-12);  /* a computed transform part */
    v[0] = v[1] = -1;
    needed = 0;
    CHECK_OK(animrt_reader_read(rt, reader, v, SIZE_MAX, &needed));  /* SIZE_MAX: "enough", as every cap */
    CHECK(needed == 2 && v[0] == 0.25);
    CHECK_NEAR(v[1], 1.5, 1e-12);
    double small[1] = {-7};
    needed = 0;
    CHECK_STATUS(animrt_reader_read(rt, reader, small, 1, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 2 && small[0] == -7);
    CHECK_MESSAGE("the reader needs 2 doubles; the buffer holds 1");
    needed = 0;
    CHECK_STATUS(animrt_reader_read(rt, reader, NULL, 2, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 2);
    CHECK_STATUS(animrt_reader_read(rt, layers[0], v, 2, &needed), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_reader_read(NULL, reader, v, 2, &needed), ANIMRT_E_NULL);
    /* needed is required, as every array getter's count is: it says how many doubles were written. */
    CHECK_STATUS(animrt_reader_read(rt, reader, v, 2, NULL), ANIMRT_E_NULL);
    CHECK_MESSAGE("needed is NULL");
    /* A target's layer destroyed: a failed call leaves every out-parameter alone, needed too. */
    animrt_layer_destroy(rt, layers[1]);
    v[0] = v[1] = -7;
    needed = 99;
    CHECK_STATUS(animrt_reader_read(rt, reader, v, 2, &needed), ANIMRT_E_HANDLE);
    CHECK(needed == 99 && v[0] == -7 && v[1] == -7);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_reader_destroy) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), reader = 0;
    animrt_keypath o = kp(rt, "opacity");
    animrt_reader_create(rt, &layer, &o, 1, &reader);
    CHECK_OK(animrt_reader_destroy(rt, reader));
    double v = 0;
    size_t n = 0;
    CHECK_STATUS(animrt_reader_read(rt, reader, &v, 1, &n), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_reader_destroy(rt, reader), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_reader_destroy(rt, layer), ANIMRT_E_HANDLE);
    CHECK(model(rt, layer, "opacity") == 1);  /* the layer is untouched */
    animrt_runtime_destroy(rt);
}

/* ---- animation descriptions --------------------------------------------- */

FN_TEST(animrt_animation_create) {
    animrt_runtime *rt = rt_new();
    animrt_id basic_a = 0, keyframe = 0, spring = 0, group = 0, out = 123;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &basic_a));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &keyframe));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &spring));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group));
    /* Each is the kind asked for: each accepts its own setter and only it. */
    double values[2] = {0, 1};
    CHECK_OK(animrt_keyframe_set_values(rt, keyframe, values, 2, 1));
    CHECK_STATUS(animrt_keyframe_set_values(rt, basic_a, values, 2, 1), ANIMRT_E_KIND);
    CHECK_OK(animrt_animation_set_spring(rt, spring, 1, 100, 10, 0));
    CHECK_STATUS(animrt_animation_set_spring(rt, basic_a, 1, 100, 10, 0), ANIMRT_E_KIND);
    CHECK_OK(animrt_group_add(rt, group, basic_a));
    CHECK_STATUS(animrt_group_add(rt, spring, basic_a), ANIMRT_E_KIND);
    CHECK_OK(animrt_animation_set_value(rt, basic_a, ANIMRT_TO, values, 1));
    CHECK_STATUS(animrt_animation_set_value(rt, keyframe, ANIMRT_TO, values, 1), ANIMRT_E_KIND);
    /* Default timing: 0.25 s, linear, beginning at the next tick. */
    CHECK(timing(rt, basic_a, ANIMRT_TIMING_DURATION) == 0 && timing(rt, basic_a, ANIMRT_TIMING_SPEED) == 1);
    CHECK_STATUS(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, "opacity", &out), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, NULL, &out), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_create(rt, (animrt_animation_kind)99, "opacity", &out), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_create(rt, (animrt_animation_kind)-1, "opacity", &out), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacityy", &out), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", NULL), ANIMRT_E_NULL);
    CHECK(out == 123);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_destroy) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = basic_at(rt, "opacity", 0, 1, 1, 1);
    animrt_id copy = attach(rt, layer, a, "a");
    CHECK_STATUS(animrt_animation_destroy(rt, copy), ANIMRT_E_HANDLE);  /* the copy is the layer's */
    CHECK_MESSAGE("it is not destroyed or changed, it is removed from its layer (animrt_layer_remove_animation)");
    CHECK_OK(animrt_animation_destroy(rt, a));
    animrt_runtime_tick(rt, 1.5);
    CHECK(presentation(rt, layer, "opacity") == 0.5);  /* the attached copy runs on */
    CHECK_STATUS(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, 1), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_animation_destroy(rt, a), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_animation_destroy(rt, layer), ANIMRT_E_HANDLE);
    CHECK(animation_count(rt, layer) == 1);
    animrt_runtime_destroy(rt);
}

static void set_param(animrt_runtime *rt, animrt_id a, animrt_timing_param p, double v) {
    CHECK_OK(animrt_animation_set_timing(rt, a, p, v));
}
static void cfg_begin(animrt_runtime *rt, animrt_id a) { set_param(rt, a, ANIMRT_TIMING_BEGIN_TIME, 2); }
static void cfg_duration(animrt_runtime *rt, animrt_id a) { set_param(rt, a, ANIMRT_TIMING_DURATION, 4); }
static void cfg_speed(animrt_runtime *rt, animrt_id a) { set_param(rt, a, ANIMRT_TIMING_SPEED, 2); }
static void cfg_offset(animrt_runtime *rt, animrt_id a) { set_param(rt, a, ANIMRT_TIMING_TIME_OFFSET, 0.5); }
static void cfg_repeat(animrt_runtime *rt, animrt_id a) { set_param(rt, a, ANIMRT_TIMING_REPEAT_COUNT, 2); }
static void cfg_repeat_duration(animrt_runtime *rt, animrt_id a) {
    set_param(rt, a, ANIMRT_TIMING_DURATION, 0.5);
    set_param(rt, a, ANIMRT_TIMING_REPEAT_DURATION, 1.25);  /* seconds: 2.5 iterations of 0.5 s */
}
static void cfg_iteration_start(animrt_runtime *rt, animrt_id a) { set_param(rt, a, ANIMRT_TIMING_ITERATION_START, 0.5); }
static void cfg_end_delay(animrt_runtime *rt, animrt_id a) { set_param(rt, a, ANIMRT_TIMING_END_DELAY, -0.5); }

FN_TEST(animrt_animation_set_timing) {
    /* What each parameter does to a 0 → 1 animation begun at 1 for 1 s (-1: not in effect). */
    CHECK(value_at(NULL, 1.25) == 0.25);
    CHECK(value_at(cfg_begin, 1.25) == -1 && value_at(cfg_begin, 2.25) == 0.25);
    CHECK(value_at(cfg_duration, 2) == 0.25);
    CHECK(value_at(cfg_speed, 1.25) == 0.5 && value_at(cfg_speed, 1.5) == -1);
    CHECK(value_at(cfg_offset, 1.25) == 0.75 && value_at(cfg_offset, 1.75) == 0.25);  /* wraps */
    CHECK(value_at(cfg_repeat, 2.25) == 0.25 && value_at(cfg_repeat, 3) == -1);
    CHECK(value_at(cfg_repeat_duration, 2.125) == 0.25 && value_at(cfg_repeat_duration, 2.25) == -1);
    CHECK(value_at(cfg_iteration_start, 1) == 0.5 && value_at(cfg_iteration_start, 1.75) == 0.25);
    CHECK(value_at(cfg_end_delay, 1.25) == 0.25 && value_at(cfg_end_delay, 1.6) == -1);  /* cut short */
    /* Each parameter round-trips, and only that one changes. */
    animrt_runtime *rt = rt_new();
    animrt_id a = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a);
    for (int p = ANIMRT_TIMING_BEGIN_TIME; p <= ANIMRT_TIMING_END_DELAY; p++) {
        CHECK_OK(animrt_animation_set_timing(rt, a, (animrt_timing_param)p, 10 + p));
        CHECK(timing(rt, a, (animrt_timing_param)p) == 10 + p);
    }
    for (int p = ANIMRT_TIMING_BEGIN_TIME; p <= ANIMRT_TIMING_END_DELAY; p++) CHECK(timing(rt, a, (animrt_timing_param)p) == 10 + p);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, (animrt_timing_param)99, 1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, (animrt_timing_param)-1, 1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_SPEED, NAN), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, INFINITY), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, -1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_REPEAT_COUNT, -1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_REPEAT_COUNT, NAN), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_REPEAT_DURATION, -1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_ITERATION_START, -0.5), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_timing(rt, 0, ANIMRT_TIMING_DURATION, 1), ANIMRT_E_HANDLE);
    CHECK_OK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_REPEAT_COUNT, INFINITY));  /* forever is fine */
    CHECK(timing(rt, a, ANIMRT_TIMING_DURATION) == 11 && timing(rt, a, ANIMRT_TIMING_SPEED) == 12);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_get_timing) {
    animrt_runtime *rt = rt_new();
    animrt_id a = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a);
    static const double defaults[] = {0, 0, 1, 0, 0, 0, 0, 0};
    for (int p = 0; p < 8; p++) {
        double v = -99;
        CHECK_OK(animrt_animation_get_timing(rt, a, (animrt_timing_param)p, &v));
        CHECK(v == defaults[p]);
    }
    double v = -99;
    CHECK_STATUS(animrt_animation_get_timing(rt, a, (animrt_timing_param)99, &v), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_get_timing(rt, a, ANIMRT_TIMING_SPEED, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_get_timing(rt, 5, ANIMRT_TIMING_SPEED, &v), ANIMRT_E_HANDLE);
    CHECK(v == -99);
    animrt_runtime_destroy(rt);
}

static void set_flag(animrt_runtime *rt, animrt_id a, animrt_flag f) { CHECK_OK(animrt_animation_set_flag(rt, a, f, 1)); }
static void cfg_autoreverses(animrt_runtime *rt, animrt_id a) { set_flag(rt, a, ANIMRT_FLAG_AUTOREVERSES); }
static void cfg_cumulative(animrt_runtime *rt, animrt_id a) {
    set_flag(rt, a, ANIMRT_FLAG_CUMULATIVE);
    set_param(rt, a, ANIMRT_TIMING_REPEAT_COUNT, 2);
}
static void cfg_retained(animrt_runtime *rt, animrt_id a) {
    CHECK_OK(animrt_animation_set_flag(rt, a, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
    CHECK_OK(animrt_animation_set_fill_mode(rt, a, ANIMRT_FILL_FORWARDS));
}
static void cfg_fill_forwards(animrt_runtime *rt, animrt_id a) { CHECK_OK(animrt_animation_set_fill_mode(rt, a, ANIMRT_FILL_FORWARDS)); }

/* The value of an over-damped spring (ζ = 2) at 0.1 s, with or without
 * allowsOverdamping. */
static double spring_at(int overdamping) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), s = 0;
    double zero = 0, one = 1;
    animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &s);
    animrt_animation_set_spring(rt, s, 1, 100, 40, 0);
    animrt_animation_set_value(rt, s, ANIMRT_FROM, &zero, 1);
    animrt_animation_set_value(rt, s, ANIMRT_TO, &one, 1);
    animrt_animation_set_timing(rt, s, ANIMRT_TIMING_BEGIN_TIME, 1);
    animrt_animation_set_timing(rt, s, ANIMRT_TIMING_DURATION, 5);
    CHECK_OK(animrt_animation_set_flag(rt, s, ANIMRT_FLAG_ALLOWS_OVERDAMPING, overdamping));
    animrt_layer_add_animation(rt, layer, s, NULL, 0, NULL);
    animrt_runtime_tick(rt, 1.1);
    double v = presentation(rt, layer, "opacity");
    animrt_runtime_destroy(rt);
    return v;
}

/* A critically damped spring (m 1, k 100, c 20) from 0 to 1 begun at 1 with
 * the default duration, read at 1.5 on a layer whose model is -1. */
static double settling_spring_at(int settle) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), s = 0;
    double zero = 0, one = 1;
    set1(rt, layer, "opacity", -1);
    animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &s);
    animrt_animation_set_spring(rt, s, 1, 100, 20, 0);
    animrt_animation_set_value(rt, s, ANIMRT_FROM, &zero, 1);
    animrt_animation_set_value(rt, s, ANIMRT_TO, &one, 1);
    animrt_animation_set_timing(rt, s, ANIMRT_TIMING_BEGIN_TIME, 1);
    CHECK_OK(animrt_animation_set_flag(rt, s, ANIMRT_FLAG_SETTLING_DURATION, settle));
    animrt_layer_add_animation(rt, layer, s, "s", 0, NULL);
    animrt_runtime_tick(rt, 1.5);
    double v = presentation(rt, layer, "opacity");
    animrt_runtime_destroy(rt);
    return v;
}

FN_TEST(animrt_animation_set_flag) {
    /* autoreverses: back from 1 towards 0 in the second second. */
    CHECK(value_at(cfg_autoreverses, 2.25) == 0.75 && value_at(NULL, 2.25) == -1);
    /* cumulative: the second repeat starts from the end of the first. */
    CHECK(value_at(cfg_cumulative, 2.5) == 1.5);
    /* removedOnCompletion off with a forwards fill holds the end; on, the model shows. */
    CHECK(value_at(cfg_retained, 5) == 1 && value_at(cfg_fill_forwards, 5) == -1);
    /* additive: adds to the model value. */
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), add = basic_at(rt, "opacity", 0, 0.25, 1, 1);
    set1(rt, layer, "opacity", 0.5);
    CHECK_OK(animrt_animation_set_flag(rt, add, ANIMRT_FLAG_ADDITIVE, 1));
    attach(rt, layer, add, "add");
    animrt_runtime_tick(rt, 1.5);
    CHECK(presentation(rt, layer, "opacity") == 0.625);
    /* fromPresentation: a replacement starts where the first one is on screen. */
    animrt_id next = 0;
    double two = 2;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &next);
    animrt_animation_set_value(rt, next, ANIMRT_TO, &two, 1);
    animrt_animation_set_timing(rt, next, ANIMRT_TIMING_BEGIN_TIME, 1.5);
    animrt_animation_set_timing(rt, next, ANIMRT_TIMING_DURATION, 1);
    CHECK_OK(animrt_animation_set_flag(rt, next, ANIMRT_FLAG_FROM_PRESENTATION, 1));
    attach(rt, layer, next, "add");  /* replaces the additive one */
    animrt_runtime_tick(rt, 2);
    CHECK(presentation(rt, layer, "opacity") == 1.3125);  /* from 0.625 to 2, half way */
    /* allowsOverdamping: ζ = 2 is slower than critically damped. */
    double critical = spring_at(0), over = spring_at(1);
    CHECK_NEAR(critical, 1 - 2 * exp(-1), 1e-12);
    CHECK(over < critical - 0.05);
    /* Turning a flag off again works (0 is off, any other value on). */
    animrt_id f = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_OK(animrt_animation_set_flag(rt, f, ANIMRT_FLAG_AUTOREVERSES, 7));
    CHECK_OK(animrt_animation_set_flag(rt, f, ANIMRT_FLAG_AUTOREVERSES, 0));
    animrt_id l2 = new_layer(rt, 0);
    set1(rt, l2, "opacity", -1);
    attach(rt, l2, f, "f");
    animrt_runtime_tick(rt, 2.25);
    CHECK(presentation(rt, l2, "opacity") == -1);  /* ended at 2: not autoreversing */
    /* settlingDuration: a spring runs until settled instead of its 0.25 s default. */
    double run_on = settling_spring_at(1), cut = settling_spring_at(0);
    CHECK_NEAR(run_on, 1 - 6 * exp(-5), 1e-12);  /* ζ = 1: 1 − (1 + 10t)e^(−10t) at t = 0.5 */
    CHECK(cut == -1);
    CHECK_STATUS(animrt_animation_set_flag(rt, f, ANIMRT_FLAG_SETTLING_DURATION, 1), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_set_flag(rt, f, (animrt_flag)99, 1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_flag(rt, f, (animrt_flag)-1, 1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_flag(rt, f, ANIMRT_FLAG_ALLOWS_OVERDAMPING, 1), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_set_flag(rt, 0, ANIMRT_FLAG_ADDITIVE, 1), ANIMRT_E_HANDLE);
    /* A flag that would do nothing is refused and left off: a group has no value
     * of its own, keyframes and decays start from their own values. */
    animrt_id group = 0, keyframes = 0, decay = 0, both = 0;
    int on = -1;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &keyframes));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_DECAY, "opacity", &decay));
    const animrt_flag group_flags[3] = {ANIMRT_FLAG_ADDITIVE, ANIMRT_FLAG_CUMULATIVE, ANIMRT_FLAG_FROM_PRESENTATION};
    for (int i = 0; i < 3; i++) {
        CHECK_STATUS(animrt_animation_set_flag(rt, group, group_flags[i], 1), ANIMRT_E_KIND);
        CHECK_MESSAGE("a group has no value of its own");
        CHECK_OK(animrt_animation_get_flag(rt, group, group_flags[i], &on));
        CHECK(on == 0);
        CHECK_OK(animrt_animation_set_flag(rt, group, group_flags[i], 0));
    }
    CHECK_STATUS(animrt_animation_set_flag(rt, keyframes, ANIMRT_FLAG_FROM_PRESENTATION, 1), ANIMRT_E_KIND);
    CHECK_MESSAGE("a keyframe animation starts from its first value");
    CHECK_STATUS(animrt_animation_set_flag(rt, decay, ANIMRT_FLAG_FROM_PRESENTATION, 1), ANIMRT_E_KIND);
    CHECK_MESSAGE("a decay starts from its fromValue");
    CHECK_OK(animrt_animation_set_flag(rt, keyframes, ANIMRT_FLAG_ADDITIVE, 1));  /* keyframes and decays add */
    CHECK_OK(animrt_animation_set_flag(rt, decay, ANIMRT_FLAG_CUMULATIVE, 1));
    /* additive and fromPresentation: whichever comes second is refused, the first kept. */
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &both));
    CHECK_OK(animrt_animation_set_flag(rt, both, ANIMRT_FLAG_ADDITIVE, 1));
    CHECK_STATUS(animrt_animation_set_flag(rt, both, ANIMRT_FLAG_FROM_PRESENTATION, 1), ANIMRT_E_INVALID);
    CHECK_MESSAGE("additive and fromPresentation do not combine");
    CHECK_OK(animrt_animation_get_flag(rt, both, ANIMRT_FLAG_FROM_PRESENTATION, &on));
    CHECK(on == 0);
    CHECK_OK(animrt_animation_set_flag(rt, both, ANIMRT_FLAG_ADDITIVE, 0));
    CHECK_OK(animrt_animation_set_flag(rt, both, ANIMRT_FLAG_FROM_PRESENTATION, 1));
    CHECK_STATUS(animrt_animation_set_flag(rt, both, ANIMRT_FLAG_ADDITIVE, 1), ANIMRT_E_INVALID);
    CHECK_OK(animrt_animation_get_flag(rt, both, ANIMRT_FLAG_ADDITIVE, &on));
    CHECK(on == 0);
    animrt_runtime_destroy(rt);
}

static void cfg_fill(animrt_runtime *rt, animrt_id a, animrt_fill_mode m) {
    CHECK_OK(animrt_animation_set_flag(rt, a, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
    CHECK_OK(animrt_animation_set_fill_mode(rt, a, m));
}
static void cfg_fill_removed(animrt_runtime *rt, animrt_id a) { cfg_fill(rt, a, ANIMRT_FILL_REMOVED); }
static void cfg_fill_fwd(animrt_runtime *rt, animrt_id a) { cfg_fill(rt, a, ANIMRT_FILL_FORWARDS); }
static void cfg_fill_back(animrt_runtime *rt, animrt_id a) { cfg_fill(rt, a, ANIMRT_FILL_BACKWARDS); }
static void cfg_fill_both(animrt_runtime *rt, animrt_id a) { cfg_fill(rt, a, ANIMRT_FILL_BOTH); }

FN_TEST(animrt_animation_set_fill_mode) {
    /* Before the start (0.5) and after the end (5), retained: -1 is the model. */
    CHECK(value_at(cfg_fill_removed, 0.5) == -1 && value_at(cfg_fill_removed, 5) == -1);
    CHECK(value_at(cfg_fill_fwd, 0.5) == -1 && value_at(cfg_fill_fwd, 5) == 1);
    CHECK(value_at(cfg_fill_back, 0.5) == 0 && value_at(cfg_fill_back, 5) == -1);
    CHECK(value_at(cfg_fill_both, 0.5) == 0 && value_at(cfg_fill_both, 5) == 1);
    animrt_runtime *rt = rt_new();
    animrt_id a = basic_at(rt, "opacity", 0, 1, 1, 1), layer = new_layer(rt, 0);
    CHECK_STATUS(animrt_animation_set_fill_mode(rt, a, (animrt_fill_mode)99), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_fill_mode(rt, a, (animrt_fill_mode)-1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_fill_mode(rt, layer, ANIMRT_FILL_BOTH), ANIMRT_E_HANDLE);
    /* The refused calls left the default fill (removed). */
    set1(rt, layer, "opacity", -1);
    attach(rt, layer, a, "a");
    animrt_runtime_tick(rt, 0.5);
    CHECK(presentation(rt, layer, "opacity") == -1);
    animrt_runtime_destroy(rt);
}

static void cfg_dir(animrt_runtime *rt, animrt_id a, animrt_direction d) {
    CHECK_OK(animrt_animation_set_direction(rt, a, d));
    set_param(rt, a, ANIMRT_TIMING_REPEAT_COUNT, 2);
}
static void cfg_normal(animrt_runtime *rt, animrt_id a) { cfg_dir(rt, a, ANIMRT_DIRECTION_NORMAL); }
static void cfg_reverse(animrt_runtime *rt, animrt_id a) { cfg_dir(rt, a, ANIMRT_DIRECTION_REVERSE); }
static void cfg_alternate(animrt_runtime *rt, animrt_id a) { cfg_dir(rt, a, ANIMRT_DIRECTION_ALTERNATE); }
static void cfg_alt_reverse(animrt_runtime *rt, animrt_id a) { cfg_dir(rt, a, ANIMRT_DIRECTION_ALTERNATE_REVERSE); }

FN_TEST(animrt_animation_set_direction) {
    /* Two iterations of 1 s from 1: a quarter into each. */
    CHECK(value_at(cfg_normal, 1.25) == 0.25 && value_at(cfg_normal, 2.25) == 0.25);
    CHECK(value_at(cfg_reverse, 1.25) == 0.75 && value_at(cfg_reverse, 2.25) == 0.75);
    CHECK(value_at(cfg_alternate, 1.25) == 0.25 && value_at(cfg_alternate, 2.25) == 0.75);
    CHECK(value_at(cfg_alt_reverse, 1.25) == 0.75 && value_at(cfg_alt_reverse, 2.25) == 0.25);
    animrt_runtime *rt = rt_new();
    animrt_id a = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_STATUS(animrt_animation_set_direction(rt, a, (animrt_direction)99), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_direction(rt, 0, ANIMRT_DIRECTION_REVERSE), ANIMRT_E_HANDLE);
    animrt_id layer = new_layer(rt, 0);
    attach(rt, layer, a, "a");
    animrt_runtime_tick(rt, 1.25);
    CHECK(presentation(rt, layer, "opacity") == 0.25);  /* still normal */
    animrt_runtime_destroy(rt);
}

static double eased(const char *name, double x) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = basic_at(rt, "opacity", 0, 1, 1, 1);
    double v = NAN;
    if (animrt_animation_set_timing_function(rt, a, name) == ANIMRT_OK) {
        attach(rt, layer, a, "a");
        animrt_runtime_tick(rt, 1 + x);
        v = presentation(rt, layer, "opacity");
    }
    animrt_runtime_destroy(rt);
    return v;
}

FN_TEST(animrt_animation_set_timing_function) {
    CHECK(eased(NULL, 0.25) == 0.25);
    CHECK(eased("linear", 0.25) == 0.25);
    CHECK_NEAR(eased("easeIn", 0.5), 0.315357, 1e-6);
    CHECK_NEAR(eased("ease-out", 0.5), 0.684643, 1e-6);
    CHECK_NEAR(eased("easeInEaseOut", 0.25), 0.129162, 1e-6);
    CHECK_NEAR(eased("default", 0.5), 0.802403, 1e-6);
    CHECK(eased("steps(4)", 0.3) == 0.25);
    CHECK(eased("steps(4, jump-start)", 0.3) == 0.5);
    CHECK_NEAR(eased("cubic-bezier(0.42, 0, 0.58, 1)", 0.25), 0.129162, 1e-6);
    animrt_runtime *rt = rt_new();
    animrt_id a = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_STATUS(animrt_animation_set_timing_function(rt, a, "easeInOut"), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean");
    CHECK_STATUS(animrt_animation_set_timing_function(rt, a, "steps(0)"), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_timing_function(rt, a, "cubic-bezier(2, 0, 0, 1)"), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_timing_function(rt, a, "cubic-bezier(0, 0, 1)"), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing_function(rt, a, "ease\xff"), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_timing_function(rt, 0, "easeIn"), ANIMRT_E_HANDLE);
    animrt_id layer = new_layer(rt, 0);
    attach(rt, layer, a, "a");
    animrt_runtime_tick(rt, 1.25);
    CHECK(presentation(rt, layer, "opacity") == 0.25);  /* still linear */
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_set_cubic_bezier) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_OK(animrt_animation_set_cubic_bezier(rt, a, 0.42, 0, 0.58, 1));
    attach(rt, layer, a, "a");
    animrt_runtime_tick(rt, 1.25);
    double named = 0;
    animrt_timing_function_evaluate(rt, "easeInEaseOut", 0.25, &named);
    CHECK(presentation(rt, layer, "opacity") == named);
    CHECK_OK(animrt_animation_set_cubic_bezier(rt, a, 0, -5, 1, 6));  /* x at the edges, y anywhere */
    CHECK_STATUS(animrt_animation_set_cubic_bezier(rt, a, -0.1, 0, 0.5, 1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_cubic_bezier(rt, a, 0.1, 0, 1.5, 1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_cubic_bezier(rt, a, 0.1, NAN, 0.5, 1), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_cubic_bezier(rt, a, 0.1, 0, 0.5, INFINITY), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_cubic_bezier(rt, 0, 0.1, 0, 0.5, 1), ANIMRT_E_HANDLE);
    /* The last accepted curve is in place: (0, -5, 1, 6) is symmetric about (½, ½). */
    animrt_id l2 = new_layer(rt, 0);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, 2);
    attach(rt, l2, a, "a");
    animrt_runtime_tick(rt, 2.5);  /* half way */
    CHECK_NEAR(presentation(rt, l2, "opacity"), 0.5, 1e-9);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_set_value) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = 0;
    set1(rt, layer, "opacity", 0.5);
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, 1);
    double by = 0.25, from = 0, to = 1;
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_BY, &by, 1));   /* model … model + by */
    attach(rt, layer, a, "by");
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));  /* from … from + by */
    animrt_id l2 = new_layer(rt, 0);
    attach(rt, l2, a, "fromby");
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_BY, NULL, 0));  /* cleared: from … model */
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_FROM, NULL, 0));  /* model … to */
    animrt_id l3 = new_layer(rt, 0);
    set1(rt, l3, "opacity", 0.5);
    attach(rt, l3, a, "to");
    animrt_runtime_tick(rt, 1.5);
    CHECK(presentation(rt, layer, "opacity") == 0.625);
    CHECK(presentation(rt, l2, "opacity") == 0.125);
    CHECK(presentation(rt, l3, "opacity") == 0.75);
    double pair[2] = {1, 2}, nan_value = NAN;
    CHECK_STATUS(animrt_animation_set_value(rt, a, (animrt_value_slot)99, &to, 1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_set_value(rt, a, ANIMRT_TO, pair, 2), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_set_value(rt, a, ANIMRT_TO, &nan_value, 1), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_value(rt, a, ANIMRT_TO, NULL, 1), ANIMRT_E_NULL);
    /* Only NULL with count 0 clears: a value with count 0 is a count that does not match. */
    CHECK_STATUS(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 0), ANIMRT_E_KIND);
    double kept = -1;
    size_t kept_count = 0;
    CHECK_OK(animrt_animation_get_value(rt, a, ANIMRT_TO, &kept, 1, &kept_count));
    CHECK(kept_count == 1 && kept == 1);
    CHECK_STATUS(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, SIZE_MAX), ANIMRT_E_RANGE);
    animrt_id group = 0, kf = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group);
    animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &kf);
    CHECK_STATUS(animrt_animation_set_value(rt, group, ANIMRT_TO, &to, 1), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_set_value(rt, kf, ANIMRT_TO, &to, 1), ANIMRT_E_KIND);
    /* The description still animates model … 1: attached again, it gives the same value. */
    animrt_id l4 = new_layer(rt, 0);
    set1(rt, l4, "opacity", 0.5);
    attach(rt, l4, a, "again");
    animrt_runtime_tick(rt, 1.5);
    CHECK(presentation(rt, l4, "opacity") == 0.75);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_set_spring) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), s = 0;
    double zero = 0, one = 1;
    animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &s);
    CHECK_OK(animrt_animation_set_spring(rt, s, 1, 100, 20, 0));  /* ζ = 1: 1 − (1 + 10t)e^(−10t) */
    animrt_animation_set_value(rt, s, ANIMRT_FROM, &zero, 1);
    animrt_animation_set_value(rt, s, ANIMRT_TO, &one, 1);
    animrt_animation_set_timing(rt, s, ANIMRT_TIMING_BEGIN_TIME, 1);
    animrt_animation_set_timing(rt, s, ANIMRT_TIMING_DURATION, 3);
    attach(rt, layer, s, "s");
    animrt_runtime_tick(rt, 1.2);
    CHECK_NEAR(presentation(rt, layer, "opacity"), 1 - 3 * exp(-2), 1e-12);
    CHECK_STATUS(animrt_animation_set_spring(rt, s, 0, 100, 20, 0), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_spring(rt, s, 1, -1, 20, 0), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_spring(rt, s, 1, 100, -1, 0), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_spring(rt, s, NAN, 100, 20, 0), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_animation_set_spring(rt, s, 1, 100, 20, INFINITY), ANIMRT_E_INVALID);
    animrt_id b = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_STATUS(animrt_animation_set_spring(rt, b, 1, 100, 20, 0), ANIMRT_E_KIND);
    double settle = 0;
    CHECK_OK(animrt_animation_get_settling_duration(rt, s, &settle));
    CHECK(settle > 0.7 && settle < 1.2);  /* still the critically damped spring */
    /* New physics keep the spring's flags: over-damping allowed before is
     * allowed after. */
    int32_t over = 0;
    CHECK_OK(animrt_animation_set_flag(rt, s, ANIMRT_FLAG_ALLOWS_OVERDAMPING, 1));
    CHECK_OK(animrt_animation_set_spring(rt, s, 1, 100, 40, 0));
    CHECK_OK(animrt_animation_get_flag(rt, s, ANIMRT_FLAG_ALLOWS_OVERDAMPING, &over));
    CHECK(over == 1);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_get_settling_duration) {
    animrt_runtime *rt = rt_new();
    animrt_id s = 0, b = basic_at(rt, "opacity", 0, 1, 1, 1);
    animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &s);
    double d = 0;
    /* Apple's two published anchors (docs/timing.md). */
    animrt_animation_set_spring(rt, s, 1, 100, 5, 0);
    CHECK_OK(animrt_animation_get_settling_duration(rt, s, &d));
    CHECK_NEAR(d, 2.85, 0.05);
    animrt_animation_set_spring(rt, s, 1, 100, 15, 0);
    CHECK_OK(animrt_animation_get_settling_duration(rt, s, &d));
    CHECK(d > 1 && d < 1.1);
    double untouched = -1;
    CHECK_STATUS(animrt_animation_get_settling_duration(rt, b, &untouched), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_get_settling_duration(rt, s, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_get_settling_duration(rt, 0, &untouched), ANIMRT_E_HANDLE);
    CHECK(untouched == -1);
    animrt_runtime_destroy(rt);
}

/* A keyframe animation of `path` begun at 1 for 1 s. */
static animrt_id keyframes(animrt_runtime *rt, const char *path) {
    animrt_id a = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, path, &a);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, 1);
    return a;
}

/* The value at progress `p` of keyframes 0, 10, 30 in `mode`. */
static double keyframe_at(animrt_calculation_mode mode, double p) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = keyframes(rt, "position.x");
    double v[3] = {0, 10, 30};
    animrt_keyframe_set_values(rt, a, v, 3, 1);
    CHECK_OK(animrt_keyframe_set_calculation_mode(rt, a, mode));
    attach(rt, layer, a, "k");
    animrt_runtime_tick(rt, 1 + p);
    double out = presentation(rt, layer, "position.x");
    animrt_runtime_destroy(rt);
    return out;
}

FN_TEST(animrt_keyframe_set_values) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = keyframes(rt, "position");
    double points[6] = {0, 0, 10, 20, 30, 0};
    CHECK_OK(animrt_keyframe_set_values(rt, a, points, 3, 2));
    attach(rt, layer, a, "k");
    animrt_runtime_tick(rt, 1.25);
    double p[2];
    size_t n = 0;
    animrt_layer_get_presentation(rt, layer, kp(rt, "position"), p, 2, &n);
    CHECK(n == 2 && p[0] == 5 && p[1] == 10);
    double nan_values[2] = {0, NAN};
    animrt_id s = keyframes(rt, "opacity");
    CHECK_STATUS(animrt_keyframe_set_values(rt, a, points, 3, 1), ANIMRT_E_KIND);
    CHECK(strcmp(animrt_last_error_message(), "'position' takes 2 components per keyframe, not 1") == 0);
    CHECK_STATUS(animrt_keyframe_set_values(rt, a, points, 3, SIZE_MAX), ANIMRT_E_KIND);
    CHECK(strcmp(animrt_last_error_message(), "'position' takes 2 components per keyframe, not 18446744073709551615") == 0);
    CHECK_STATUS(animrt_keyframe_set_values(rt, s, nan_values, 2, 1), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_keyframe_set_values(rt, s, NULL, 2, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_values(rt, s, points, SIZE_MAX, 1), ANIMRT_E_RANGE);
    animrt_id b = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_STATUS(animrt_keyframe_set_values(rt, b, points, 2, 1), ANIMRT_E_KIND);
    /* No values: refused when added. */
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, s, "s", 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("no values");
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_keyframe_set_key_times) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = keyframes(rt, "opacity");
    double v[3] = {0, 10, 30}, times[3] = {0, 0.25, 1};
    animrt_keyframe_set_values(rt, a, v, 3, 1);
    CHECK_OK(animrt_keyframe_set_key_times(rt, a, times, 3));
    attach(rt, layer, a, "k");
    animrt_runtime_tick(rt, 1.125);
    CHECK(presentation(rt, layer, "opacity") == 5);    /* half of the first segment, [0, 0.25] */
    CHECK_OK(animrt_keyframe_set_key_times(rt, a, NULL, 0));  /* evenly spaced again */
    animrt_id l2 = new_layer(rt, 0);
    attach(rt, l2, a, "k");
    animrt_runtime_tick(rt, 1.5);
    CHECK(presentation(rt, l2, "opacity") == 10);
    double bad[3] = {0, 0.9, 0.5};
    CHECK_OK(animrt_keyframe_set_key_times(rt, a, bad, 3));  /* checked when added */
    CHECK_STATUS(animrt_layer_add_animation(rt, l2, a, "bad", 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("must not decrease");
    double one[1] = {0};  /* one key time for three values: the nouns agree with their counts */
    CHECK_OK(animrt_keyframe_set_key_times(rt, a, one, 1));
    CHECK_STATUS(animrt_layer_add_animation(rt, l2, a, "bad", 0, NULL), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "keyTimes for 'opacity' has 1 entry for 3 values; linear mode needs 3") == 0);
    CHECK_STATUS(animrt_keyframe_set_key_times(rt, a, NULL, 3), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_key_times(rt, a, times, (size_t)1 << 40), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_keyframe_set_key_times(rt, 0, times, 3), ANIMRT_E_HANDLE);
    CHECK(animation_count(rt, l2) == 1);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_keyframe_set_timing_functions) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = keyframes(rt, "opacity");
    double v[3] = {0, 10, 30};
    const char *names[2] = {"easeIn", NULL};
    animrt_keyframe_set_values(rt, a, v, 3, 1);
    CHECK_OK(animrt_keyframe_set_timing_functions(rt, a, names, 2));
    attach(rt, layer, a, "k");
    animrt_runtime_tick(rt, 1.25);   /* segment 0 at ½, eased */
    double y = 0;
    animrt_timing_function_evaluate(rt, "easeIn", 0.5, &y);
    CHECK(presentation(rt, layer, "opacity") == 10 * y);
    animrt_runtime_tick(rt, 1.75);   /* segment 1 at ½, linear */
    CHECK(presentation(rt, layer, "opacity") == 20);
    const char *unknown[1] = {"easeInOut"}, *invalid[1] = {"\xff"}, *three[3] = {NULL, NULL, NULL};
    CHECK_STATUS(animrt_keyframe_set_timing_functions(rt, a, unknown, 1), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_keyframe_set_timing_functions(rt, a, invalid, 1), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_keyframe_set_timing_functions(rt, a, NULL, 1), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_set_timing_functions(rt, a, names, SIZE_MAX), ANIMRT_E_RANGE);
    CHECK_OK(animrt_keyframe_set_timing_functions(rt, a, three, 3));  /* too many: refused when added */
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, a, "k2", 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("3 timing functions for 2 segments");
    animrt_keyframe_set_values(rt, a, v, 2, 1);  /* two keyframes: one segment, and the noun agrees */
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, a, "k2", 0, NULL), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(),
                 "keyframe animation on 'opacity' has 3 timing functions for 1 segment; give at most one per segment") == 0);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_keyframe_set_calculation_mode) {
    CHECK(keyframe_at(ANIMRT_CALC_LINEAR, 0.25) == 5);
    CHECK(keyframe_at(ANIMRT_CALC_LINEAR, 0.5) == 10);
    /* discrete: n + 1 key times 0, ⅓, ⅔, 1 — each value holds for a third. */
    CHECK(keyframe_at(ANIMRT_CALC_DISCRETE, 0.25) == 0);
    CHECK(keyframe_at(ANIMRT_CALC_DISCRETE, 0.5) == 10);
    CHECK(keyframe_at(ANIMRT_CALC_DISCRETE, 0.75) == 30);
    /* paced: key times by distance, 0, ⅓, 1: at ½, a quarter into the 10 → 30 segment. */
    CHECK_NEAR(keyframe_at(ANIMRT_CALC_PACED, 0.5), 15, 1e-12);
    /* cubic: through every keyframe, curved between them (Catmull-Rom
     * tangents 5 at 0 and 15 at 10: at ½ of segment 0, 5·⅛ + 10·½ − 15·⅛). */
    CHECK(keyframe_at(ANIMRT_CALC_CUBIC, 0.5) == 10);
    CHECK_NEAR(keyframe_at(ANIMRT_CALC_CUBIC, 0.25), 3.75, 1e-12);
    /* cubicPaced: the same curve re-timed by arc length: at ½, half of the 30. */
    CHECK_NEAR(keyframe_at(ANIMRT_CALC_CUBIC_PACED, 0.5), 15, 0.5);
    CHECK(keyframe_at(ANIMRT_CALC_CUBIC_PACED, 1.0 - 1e-9) > 29.9);
    animrt_runtime *rt = rt_new();
    animrt_id a = keyframes(rt, "opacity"), b = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_STATUS(animrt_keyframe_set_calculation_mode(rt, a, (animrt_calculation_mode)99), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_keyframe_set_calculation_mode(rt, a, (animrt_calculation_mode)-1), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_keyframe_set_calculation_mode(rt, b, ANIMRT_CALC_LINEAR), ANIMRT_E_KIND);
    animrt_runtime_destroy(rt);
}

/* Keyframes 0, 10, 0 in cubic mode at a quarter (the middle of segment 0),
 * with tension t on every keyframe. */
static double spline_at(double tension, int use_spline) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = keyframes(rt, "opacity");
    double v[3] = {0, 10, 0}, t[3] = {tension, tension, tension};
    animrt_keyframe_set_values(rt, a, v, 3, 1);
    animrt_keyframe_set_calculation_mode(rt, a, ANIMRT_CALC_CUBIC);
    if (use_spline) CHECK_OK(animrt_keyframe_set_spline(rt, a, t, NULL, NULL, 3));
    attach(rt, layer, a, "k");
    animrt_runtime_tick(rt, 1.25);
    double out = presentation(rt, layer, "opacity");
    animrt_runtime_destroy(rt);
    return out;
}

FN_TEST(animrt_keyframe_set_spline) {
    /* Catmull-Rom (tension 0): tangent 5 at keyframe 0, 0 at keyframe 1:
     * h01·10 + h10·5 at ½ = 5 + 0.625. Tension 1: flat tangents, 5. */
    CHECK(spline_at(0, 0) == 5.625);
    CHECK(spline_at(0, 1) == 5.625);
    CHECK(spline_at(1, 1) == 5);
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = keyframes(rt, "opacity"), b = basic_at(rt, "opacity", 0, 1, 1, 1);
    double v[2] = {0, 1}, ok[2] = {0.5, 0.5}, bad[2] = {0, NAN}, four[4] = {0, 0, 0, 0};
    animrt_keyframe_set_values(rt, a, v, 2, 1);
    CHECK_OK(animrt_keyframe_set_spline(rt, a, NULL, ok, ok, 2));
    CHECK_STATUS(animrt_keyframe_set_spline(rt, a, bad, NULL, NULL, 2), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_keyframe_set_spline(rt, a, NULL, NULL, bad, 2), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_keyframe_set_spline(rt, a, ok, NULL, NULL, SIZE_MAX), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_keyframe_set_spline(rt, b, ok, NULL, NULL, 2), ANIMRT_E_KIND);
    CHECK_OK(animrt_keyframe_set_spline(rt, a, four, NULL, NULL, 4));  /* 4 for 2 keyframes: refused when added */
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, a, "k", 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("4 tension values for 2 keyframes");
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_group_add) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), group = 0;
    animrt_id child = basic_at(rt, "opacity", 0, 1, 0.5, 4), other = basic_at(rt, "cornerRadius", 0, 8, 0.5, 1);
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group));
    CHECK_OK(animrt_group_add(rt, group, child));
    CHECK_OK(animrt_group_add(rt, group, other));
    animrt_animation_set_timing(rt, child, ANIMRT_TIMING_DURATION, 100);  /* the group kept a copy */
    animrt_animation_set_timing(rt, group, ANIMRT_TIMING_BEGIN_TIME, 1);
    animrt_animation_set_timing(rt, group, ANIMRT_TIMING_DURATION, 2);
    attach(rt, layer, group, "g");
    animrt_runtime_tick(rt, 2.5);  /* group time 1.5: each child 1 s in */
    CHECK(presentation(rt, layer, "opacity") == 0.25);
    CHECK(presentation(rt, layer, "cornerRadius") == 0);  /* its 1 s ended, fill removed: the model */
    animrt_runtime_tick(rt, 3.5);   /* the group ended at 3 */
    CHECK(presentation(rt, layer, "opacity") == 1);
    animrt_id b = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_STATUS(animrt_group_add(rt, b, child), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_group_add(rt, group, 9999), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_group_add(rt, group, layer), ANIMRT_E_HANDLE);
    animrt_id bad_child = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &bad_child);  /* no values */
    CHECK_OK(animrt_group_add(rt, group, bad_child));
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, group, "g2", 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("group child 2");
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_group_get_count) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), group = 0, outer = 0, attached = 0;
    size_t n = 99;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group));
    CHECK_OK(animrt_group_get_count(rt, group, &n));
    CHECK(n == 0);
    animrt_group_add(rt, group, basic_at(rt, "opacity", 0, 1, 0.5, 4));
    animrt_group_add(rt, group, basic_at(rt, "cornerRadius", 0, 8, 0.5, 1));
    CHECK_OK(animrt_group_get_count(rt, group, &n));
    CHECK(n == 2);
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &outer));
    animrt_group_add(rt, outer, group);  /* a nested group is one child */
    CHECK_OK(animrt_group_get_count(rt, outer, &n));
    CHECK(n == 1);
    animrt_animation_set_timing(rt, group, ANIMRT_TIMING_DURATION, 2);
    CHECK_OK(animrt_layer_add_animation(rt, layer, group, "g", 0, &attached));
    n = 99;
    CHECK_OK(animrt_group_get_count(rt, attached, &n));  /* the attached copy */
    CHECK(n == 2);
    n = 99;
    CHECK_STATUS(animrt_group_get_count(rt, basic_at(rt, "opacity", 0, 1, 1, 1), &n), ANIMRT_E_KIND);
    CHECK_MESSAGE("needs a group animation");
    CHECK(n == 99);
    CHECK_STATUS(animrt_group_get_count(rt, group, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_group_get_count(rt, layer, &n), ANIMRT_E_HANDLE);
    animrt_animation_destroy(rt, outer);
    CHECK_STATUS(animrt_group_get_count(rt, outer, &n), ANIMRT_E_HANDLE);
    CHECK(n == 99);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_group_get_child) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), other = new_layer(rt, 0), group = 0, outer = 0;
    animrt_id a = basic_at(rt, "opacity", 0, 1, 0.5, 4), b = basic_at(rt, "cornerRadius", 2, 8, 0.25, 1);
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group));
    animrt_group_add(rt, group, a);
    animrt_group_add(rt, group, b);
    animrt_id c0 = 0, c1 = 0;
    CHECK_OK(animrt_group_get_child(rt, group, 0, &c0));
    CHECK_OK(animrt_group_get_child(rt, group, 1, &c1));
    CHECK(c0 != 0 && c0 != a && c1 != 0 && c1 != b && c0 != c1);  /* new descriptions */
    animrt_animation_kind kind = ANIMRT_ANIMATION_GROUP;
    CHECK_OK(animrt_animation_get_kind(rt, c0, &kind));
    CHECK(kind == ANIMRT_ANIMATION_BASIC);
    char path[32];
    size_t needed = 0, count = 0;
    CHECK_OK(animrt_animation_get_key_path(rt, c1, path, sizeof path, &needed));
    CHECK(strcmp(path, "cornerRadius") == 0);
    double v = -1;
    CHECK_OK(animrt_animation_get_value(rt, c1, ANIMRT_FROM, &v, 1, &count));
    CHECK(count == 1 && v == 2);
    CHECK_OK(animrt_animation_get_value(rt, c1, ANIMRT_TO, &v, 1, &count));
    CHECK(count == 1 && v == 8);
    CHECK(timing(rt, c0, ANIMRT_TIMING_BEGIN_TIME) == 0.5 && timing(rt, c0, ANIMRT_TIMING_DURATION) == 4);
    CHECK(timing(rt, c1, ANIMRT_TIMING_BEGIN_TIME) == 0.25 && timing(rt, c1, ANIMRT_TIMING_DURATION) == 1);
    /* A copy: changing it changes neither the group nor the next copy. */
    CHECK_OK(animrt_animation_set_timing(rt, c0, ANIMRT_TIMING_DURATION, 9));
    animrt_id again = 0;
    CHECK_OK(animrt_group_get_child(rt, group, 0, &again));
    CHECK(timing(rt, again, ANIMRT_TIMING_DURATION) == 4);
    /* It is a description like any other: it animates on its own. */
    CHECK_OK(animrt_animation_set_timing(rt, c0, ANIMRT_TIMING_BEGIN_TIME, 1));
    attach(rt, other, c0, "alone");
    animrt_runtime_tick(rt, 1);
    animrt_runtime_tick(rt, 5.5);  /* 4.5 s of its 9 */
    CHECK(presentation(rt, other, "opacity") == 0.5);
    /* An attached group: its children as attached (a duration of 0 is the group's). */
    animrt_id zero = basic_at(rt, "opacity", 0, 1, 0, 0), g2 = 0, attached = 0, child = 0;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &g2));
    animrt_group_add(rt, g2, zero);
    animrt_animation_set_timing(rt, g2, ANIMRT_TIMING_DURATION, 2);
    CHECK_OK(animrt_layer_add_animation(rt, layer, g2, "g", 0, &attached));
    CHECK_OK(animrt_group_get_child(rt, attached, 0, &child));
    CHECK(timing(rt, child, ANIMRT_TIMING_DURATION) == 2);
    CHECK(timing(rt, zero, ANIMRT_TIMING_DURATION) == 0);
    /* Nested: the child is a group with its own children. */
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &outer));
    animrt_group_add(rt, outer, group);
    animrt_id inner = 0;
    CHECK_OK(animrt_group_get_child(rt, outer, 0, &inner));
    CHECK_OK(animrt_animation_get_kind(rt, inner, &kind));
    CHECK(kind == ANIMRT_ANIMATION_GROUP);
    CHECK_OK(animrt_group_get_count(rt, inner, &count));
    CHECK(count == 2);
    /* Bad input changes nothing: *out keeps what it held. */
    animrt_id out = 77;
    CHECK_STATUS(animrt_group_get_child(rt, group, 2, &out), ANIMRT_E_RANGE);
    CHECK(strcmp(animrt_last_error_message(), "index 2 is past the group's 2 children") == 0);
    /* The noun agrees with the count: one child, not "1 child(ren)". */
    CHECK_STATUS(animrt_group_get_child(rt, g2, 1, &out), ANIMRT_E_RANGE);
    CHECK(strcmp(animrt_last_error_message(), "index 1 is past the group's 1 child") == 0);
    CHECK_STATUS(animrt_group_get_child(rt, group, (size_t)-1, &out), ANIMRT_E_RANGE);
    /* The index is named as the host passed it, a size_t. */
    CHECK(strcmp(animrt_last_error_message(), "index 18446744073709551615 is past the group's 2 children") == 0);
    CHECK_STATUS(animrt_group_get_child(rt, a, 0, &out), ANIMRT_E_KIND);
    CHECK_MESSAGE("needs a group animation");
    CHECK_STATUS(animrt_group_get_child(rt, layer, 0, &out), ANIMRT_E_HANDLE);
    CHECK(out == 77);
    CHECK_STATUS(animrt_group_get_child(rt, group, 0, NULL), ANIMRT_E_NULL);
    animrt_animation_destroy(rt, c1);
    CHECK_STATUS(animrt_group_get_count(rt, c1, &count), ANIMRT_E_HANDLE);  /* destroyed like any description */
    animrt_runtime_destroy(rt);
}

/* ---- attaching ---------------------------------------------------------- */

FN_TEST(animrt_layer_add_animation) {
    animrt_runtime *rt = rt_new(), *other = rt_new();
    animrt_id layer = new_layer(rt, 0), a = basic_at(rt, "opacity", 0, 1, 1, 1), barrier = 0, i1 = 0, i2 = 0;
    animrt_barrier_create(rt, &barrier);
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "k", barrier, &i1));
    CHECK(i1 != 0 && i1 != a);
    size_t count = 0;
    animrt_barrier_count(rt, barrier, &count);
    CHECK(count == 1);
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "k", 0, &i2));  /* replaces i1 */
    animrt_event ev[4];
    CHECK(drain(rt, ev, 4) == 1 && ev[0].reason == ANIMRT_STOP_REPLACED && ev[0].object == i1 && ev[0].animation == a);
    animrt_barrier_count(rt, barrier, &count);
    CHECK(count == 0);  /* the replaced one left its barrier */
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, NULL, 0, NULL));  /* anonymous, no handle wanted */
    CHECK(animation_count(rt, layer) == 1);
    animrt_id out = 77, foreign_barrier = 0;
    animrt_barrier_create(other, &foreign_barrier);
    CHECK_STATUS(animrt_layer_add_animation(rt, 0, a, "x", 0, &out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_add_animation(rt, a, layer, "x", 0, &out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, a, "x", foreign_barrier, &out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, a, "x", layer, &out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, a, "\xc3\x28", 0, &out), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, 0, "x", 0, &out), ANIMRT_E_HANDLE);
    CHECK(out == 77 && animation_count(rt, layer) == 1);
    animrt_runtime_destroy(other);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_add_animations) {
    animrt_runtime *rt = rt_new(), *other = rt_new();
    animrt_id layers[3], handles[3] = {0}, barrier = 0, a = basic_at(rt, "opacity", 0, 1, 1, 1);
    CHECK_OK(animrt_layer_create_many(rt, 0, 3, layers));
    CHECK_OK(animrt_barrier_create(rt, &barrier));
    double duration[3] = {4, 2, 1}, to[3] = {10, 20, 40};
    animrt_column cols[2] = {{ANIMRT_COLUMN_DURATION, duration}, {ANIMRT_COLUMN_TO, to}};
    CHECK_OK(animrt_layer_add_animations(rt, a, layers, 3, cols, 2, "k", barrier, handles));
    CHECK(handles[0] != 0 && handles[0] != handles[1] && handles[1] != handles[2] && handles[0] != a);
    size_t count = 0;
    animrt_barrier_count(rt, barrier, &count);
    CHECK(count == 3);
    animrt_runtime_tick(rt, 1.5); /* half a second in */
    CHECK(presentation(rt, layers[0], "opacity") == 1.25 && presentation(rt, layers[1], "opacity") == 5 && presentation(rt, layers[2], "opacity") == 20);
    /* The description is unchanged. */
    CHECK(timing(rt, a, ANIMRT_TIMING_DURATION) == 1);
    /* Under a taken key, each copy replaces the animation of its layer. */
    drain(rt, NULL, 0);
    CHECK_OK(animrt_layer_add_animations(rt, a, &layers[1], 1, NULL, 0, "k", 0, NULL));
    animrt_event ev[4];
    CHECK(drain(rt, ev, 4) == 1 && ev[0].reason == ANIMRT_STOP_REPLACED && ev[0].object == handles[1]);
    CHECK(animation_count(rt, layers[1]) == 1);
    CHECK_OK(animrt_layer_add_animations(rt, a, NULL, 0, NULL, 0, NULL, 0, NULL)); /* nothing to add */
    /* A key of ANIMRT_NAME_MAX bytes is accepted; one more is not. */
    char name[ANIMRT_NAME_MAX + 2];
    memset(name, 'k', sizeof name - 1);
    name[ANIMRT_NAME_MAX + 1] = 0;
    animrt_id out[3] = {7, 7, 7}, foreign = 0, stale[3] = {layers[0], a, layers[2]};
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, cols, 2, name, 0, out), ANIMRT_E_RANGE);
    name[ANIMRT_NAME_MAX] = 0;
    CHECK_OK(animrt_layer_add_animations(rt, a, &layers[2], 1, NULL, 0, name, 0, NULL));
    CHECK(animation_count(rt, layers[2]) == 2);
    animrt_barrier_create(other, &foreign);
    double bad_duration[3] = {1, -1, 1}, bad_to[3] = {1, 2, INFINITY};
    animrt_column negative = {ANIMRT_COLUMN_DURATION, bad_duration}, infinite = {ANIMRT_COLUMN_TO, bad_to};
    animrt_column after_timing = {(animrt_column_field)(ANIMRT_COLUMN_ITERATION_DURATION + 1), to};
    animrt_column after_values = {(animrt_column_field)(ANIMRT_COLUMN_VELOCITY + 1), to};
    animrt_column no_values = {ANIMRT_COLUMN_TO, NULL}, velocity = {ANIMRT_COLUMN_VELOCITY, to};
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, &negative, 1, NULL, 0, out), ANIMRT_E_RANGE);
    CHECK_MESSAGE("item 1 of the duration column");
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, &infinite, 1, NULL, 0, out), ANIMRT_E_INVALID);
    CHECK_MESSAGE("item 2");
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, &after_timing, 1, NULL, 0, out), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, &after_values, 1, NULL, 0, out), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, &no_values, 1, NULL, 0, out), ANIMRT_E_NULL);
    CHECK_MESSAGE("columns[0].values is NULL");
    /* With no layers no item is read: a NULL column is no error (as NULL with count 0 never is). */
    CHECK_OK(animrt_layer_add_animations(rt, a, NULL, 0, &no_values, 1, NULL, 0, NULL));
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, &velocity, 1, NULL, 0, out), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, stale, 3, cols, 2, NULL, 0, out), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("layers[1]");
    CHECK_STATUS(animrt_layer_add_animations(rt, layers[0], layers, 3, cols, 2, NULL, 0, out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, cols, 2, NULL, foreign, out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, cols, 2, "\xc3\x28", 0, out), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, NULL, 3, cols, 2, NULL, 0, out), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, NULL, 2, NULL, 0, out), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, ((size_t)1 << 28) + 1, cols, 2, NULL, 0, out), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, SIZE_MAX, cols, 2, NULL, 0, out), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, 3, cols, SIZE_MAX, NULL, 0, out), ANIMRT_E_RANGE);
    CHECK_MESSAGE("column_count");
    CHECK(out[0] == 7 && out[1] == 7 && out[2] == 7);
    CHECK(animation_count(rt, layers[0]) == 1 && animation_count(rt, layers[1]) == 1 && animation_count(rt, layers[2]) == 2);
    animrt_barrier_count(rt, barrier, &count);
    CHECK(count == 2); /* the replaced copy left it; no refused call joined it */
    animrt_runtime_destroy(other);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_remove_animation) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    set1(rt, layer, "opacity", 0.5);
    animrt_id inst = attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 4), "k");
    animrt_runtime_tick(rt, 2);
    CHECK(presentation(rt, layer, "opacity") == 0.25);
    drain(rt, NULL, 0);
    int removed = -1;
    CHECK_OK(animrt_layer_remove_animation(rt, layer, "k", &removed));
    CHECK(removed == 1);
    animrt_event ev[4];
    CHECK(drain(rt, ev, 4) == 1 && ev[0].reason == ANIMRT_STOP_REMOVED && ev[0].object == inst);
    animrt_runtime_tick(rt, 2.5);
    CHECK(presentation(rt, layer, "opacity") == 0.5);
    CHECK_OK(animrt_layer_remove_animation(rt, layer, "k", &removed));
    CHECK(removed == 0);
    CHECK_OK(animrt_layer_remove_animation(rt, layer, "never", NULL));
    CHECK_STATUS(animrt_layer_remove_animation(rt, layer, NULL, &removed), ANIMRT_E_NULL);
    CHECK_MESSAGE("an animation added without a key is removed with animrt_layer_remove_all_animations");
    CHECK_STATUS(animrt_layer_remove_animation(rt, 0, "k", &removed), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_remove_animation(rt, layer, "\xff", &removed), ANIMRT_E_INVALID);
    CHECK(removed == 0);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_remove_all_animations) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), keep = new_layer(rt, 0);
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 4), "a");
    attach(rt, layer, basic_at(rt, "cornerRadius", 0, 1, 1, 4), NULL);
    attach(rt, keep, basic_at(rt, "opacity", 0, 1, 1, 4), "a");
    CHECK_OK(animrt_layer_remove_all_animations(rt, layer));
    animrt_event ev[4];
    CHECK(drain(rt, ev, 4) == 2 && ev[0].reason == ANIMRT_STOP_REMOVED && ev[1].reason == ANIMRT_STOP_REMOVED);
    CHECK(animation_count(rt, layer) == 0 && animation_count(rt, keep) == 1);
    CHECK_OK(animrt_layer_remove_all_animations(rt, layer));  /* nothing left: fine */
    CHECK_STATUS(animrt_layer_remove_all_animations(rt, 0), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_remove_all_animations(NULL, layer), ANIMRT_E_NULL);
    CHECK(animation_count(rt, keep) == 1);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_animation_count) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    size_t n = 9;
    CHECK_OK(animrt_layer_animation_count(rt, layer, &n));
    CHECK(n == 0);
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 1), "a");
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 1), NULL);  /* anonymous: not counted */
    attach(rt, layer, basic_at(rt, "position.x", 0, 1, 1, 1), "b");
    CHECK_OK(animrt_layer_animation_count(rt, layer, &n));
    CHECK(n == 2);
    animrt_runtime_tick(rt, 3);  /* all finished and removed */
    CHECK_OK(animrt_layer_animation_count(rt, layer, &n));
    CHECK(n == 0);
    n = 9;
    CHECK_STATUS(animrt_layer_animation_count(rt, layer, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_animation_count(rt, 0, &n), ANIMRT_E_HANDLE);
    CHECK(n == 9);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_animation_key) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 1), "first");
    attach(rt, layer, basic_at(rt, "position.x", 0, 1, 1, 1), "второй");  /* UTF-8 */
    char buf[32];
    size_t needed = 0;
    CHECK_OK(animrt_layer_animation_key(rt, layer, 0, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "first") == 0 && needed == 6);
    CHECK_OK(animrt_layer_animation_key(rt, layer, 1, buf, sizeof buf, NULL));
    CHECK(strcmp(buf, "второй") == 0);
    char small[6] = "zzzzz";
    CHECK_STATUS(animrt_layer_animation_key(rt, layer, 1, small, sizeof small, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == strlen("второй") + 1 && strcmp(small, "zzzzz") == 0);
    CHECK_STATUS(animrt_layer_animation_key(rt, layer, 0, NULL, 0, &needed), ANIMRT_E_BUFFER);  /* a size query */
    CHECK(needed == 6);
    CHECK_OK(animrt_layer_animation_key(rt, layer, 0, buf, 6, &needed));  /* exactly enough */
    CHECK_STATUS(animrt_layer_animation_key(rt, layer, 0, buf, 5, &needed), ANIMRT_E_BUFFER);  /* no room for the NUL */
    CHECK_STATUS(animrt_layer_animation_key(rt, layer, 2, buf, sizeof buf, &needed), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_animation_key(rt, layer, SIZE_MAX, buf, sizeof buf, &needed), ANIMRT_E_RANGE);
    CHECK(strcmp(animrt_last_error_message(), "index 18446744073709551615 is past the layer's 2 keyed animations") == 0);
    CHECK_STATUS(animrt_layer_animation_key(rt, 0, 0, buf, sizeof buf, &needed), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

/* ---- barriers, transactions, timers ------------------------------------- */

/* The tokens of queued notification events (barrier, transaction, timer). */
static size_t tokens(animrt_runtime *rt, uint64_t *out, size_t cap) {
    animrt_event ev[64];
    size_t n = drain(rt, ev, 64), k = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        if (ev[i].type != ANIMRT_EVENT_ANIMATION_STARTED && ev[i].type != ANIMRT_EVENT_ANIMATION_STOPPED && k < cap)
            out[k++] = ev[i].token;
    return k;
}

FN_TEST(animrt_barrier_create) {
    animrt_runtime *rt = rt_new();
    animrt_id a = 0, b = 0;
    CHECK_OK(animrt_barrier_create(rt, &a));
    CHECK_OK(animrt_barrier_create(rt, &b));
    CHECK(a != 0 && b != 0 && a != b);
    size_t n = 9;
    CHECK_OK(animrt_barrier_count(rt, a, &n));
    CHECK(n == 0);
    CHECK_STATUS(animrt_barrier_create(rt, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_create(NULL, &a), ANIMRT_E_NULL);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_barrier_destroy) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), b = 0;
    animrt_barrier_create(rt, &b);
    animrt_layer_add_animation(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 1), "a", b, NULL);
    animrt_barrier_notify(rt, b, 5);
    CHECK_OK(animrt_barrier_destroy(rt, b));
    animrt_runtime_tick(rt, 3);  /* the animation finishes: no notification */
    uint64_t t[4];
    CHECK(tokens(rt, t, 4) == 0);
    CHECK_STATUS(animrt_barrier_destroy(rt, b), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_barrier_destroy(rt, layer), ANIMRT_E_HANDLE);
    size_t n = 0;
    CHECK_STATUS(animrt_barrier_count(rt, b, &n), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_barrier_enter) {
    animrt_runtime *rt = rt_new();
    animrt_id b = 0, layer = new_layer(rt, 0);
    animrt_barrier_create(rt, &b);
    CHECK_OK(animrt_barrier_enter(rt, b));
    CHECK_OK(animrt_barrier_enter(rt, b));
    size_t n = 0;
    animrt_barrier_count(rt, b, &n);
    CHECK(n == 2);
    animrt_barrier_notify(rt, b, 1);
    animrt_barrier_leave(rt, b);
    uint64_t t[4];
    CHECK(tokens(rt, t, 4) == 0);  /* one enter still outstanding */
    animrt_barrier_leave(rt, b);
    CHECK(tokens(rt, t, 4) == 1 && t[0] == 1);
    CHECK_STATUS(animrt_barrier_enter(rt, layer), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("not a barrier");
    CHECK_STATUS(animrt_barrier_enter(rt, 0), ANIMRT_E_HANDLE);
    animrt_barrier_count(rt, b, &n);
    CHECK(n == 0);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_barrier_leave) {
    animrt_runtime *rt = rt_new();
    animrt_id b = 0;
    animrt_barrier_create(rt, &b);
    animrt_barrier_enter(rt, b);
    CHECK_OK(animrt_barrier_leave(rt, b));
    CHECK_STATUS(animrt_barrier_leave(rt, b), ANIMRT_E_STATE);
    CHECK_MESSAGE("without a matching enter");
    size_t n = 9;
    animrt_barrier_count(rt, b, &n);
    CHECK(n == 0);
    CHECK_STATUS(animrt_barrier_leave(rt, 0), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_barrier_notify) {
    animrt_runtime *rt = rt_new();
    animrt_id b = 0, layer = new_layer(rt, 0);
    animrt_barrier_create(rt, &b);
    CHECK_OK(animrt_barrier_notify(rt, b, 11));  /* at zero: at once, without a tick */
    uint64_t t[4];
    animrt_event ev[2];
    size_t n = 0;
    animrt_event_poll(rt, ev, 2, &n);
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_BARRIER_NOTIFIED && ev[0].object == b && ev[0].token == 11);
    animrt_layer_add_animation(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 1), "a", b, NULL);
    CHECK_OK(animrt_barrier_notify(rt, b, 12));
    CHECK_OK(animrt_barrier_notify(rt, b, 13));
    animrt_runtime_tick(rt, 1.5);
    CHECK(tokens(rt, t, 4) == 0);
    animrt_runtime_tick(rt, 2);
    CHECK(tokens(rt, t, 4) == 2 && t[0] == 12 && t[1] == 13);  /* in the order registered, once */
    animrt_barrier_enter(rt, b);
    animrt_barrier_leave(rt, b);
    CHECK(tokens(rt, t, 4) == 0);
    CHECK_STATUS(animrt_barrier_notify(rt, layer, 1), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_barrier_notify(rt, 0, 1), ANIMRT_E_HANDLE);
    CHECK(tokens(rt, t, 4) == 0);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_barrier_count) {
    animrt_runtime *rt = rt_new();
    animrt_id b = 0, layer = new_layer(rt, 0);
    animrt_barrier_create(rt, &b);
    animrt_layer_add_animation(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 1), "a", b, NULL);
    animrt_layer_add_animation(rt, layer, basic_at(rt, "cornerRadius", 0, 1, 1, 2), "b", b, NULL);
    animrt_barrier_enter(rt, b);
    size_t n = 0;
    CHECK_OK(animrt_barrier_count(rt, b, &n));
    CHECK(n == 3);
    animrt_runtime_tick(rt, 2);
    CHECK_OK(animrt_barrier_count(rt, b, &n));
    CHECK(n == 2);
    n = 9;
    CHECK_STATUS(animrt_barrier_count(rt, b, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_barrier_count(rt, layer, &n), ANIMRT_E_HANDLE);
    CHECK(n == 9);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_transaction_begin) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = 0;
    double to = 1;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "cornerRadius", &a);
    animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, 1);
    CHECK_OK(animrt_transaction_begin(rt, 2));  /* zero durations become 2 s */
    attach(rt, layer, a, "long");
    CHECK_OK(animrt_transaction_commit(rt, 1));
    CHECK_OK(animrt_transaction_begin(rt, 0));  /* 0: keep 0.25 s */
    animrt_id l2 = new_layer(rt, 0);
    attach(rt, l2, a, "short");
    CHECK_OK(animrt_transaction_commit(rt, 2));
    animrt_runtime_tick(rt, 1.125);
    CHECK(presentation(rt, layer, "cornerRadius") == 0.0625);
    CHECK(presentation(rt, l2, "cornerRadius") == 0.5);
    CHECK_STATUS(animrt_transaction_begin(rt, -1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_transaction_begin(rt, NAN), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_transaction_begin(rt, INFINITY), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_transaction_commit(rt, 3), ANIMRT_E_STATE);  /* none was opened */
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_transaction_commit) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    uint64_t t[4];
    CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_OK(animrt_transaction_commit(rt, 7));  /* empty: completes at once */
    CHECK(tokens(rt, t, 4) == 1 && t[0] == 7);
    CHECK_OK(animrt_transaction_begin(rt, 0));
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 2), "outer");
    CHECK_OK(animrt_transaction_begin(rt, 0));
    attach(rt, layer, basic_at(rt, "cornerRadius", 0, 1, 1, 1), "inner");
    CHECK_OK(animrt_transaction_commit(rt, 2));
    CHECK_OK(animrt_transaction_commit(rt, 1));
    animrt_runtime_tick(rt, 2);
    CHECK(tokens(rt, t, 4) == 1 && t[0] == 2);
    animrt_runtime_tick(rt, 3);
    animrt_event ev[8];
    size_t n = drain(rt, ev, 8);
    CHECK(n == 2 && ev[0].type == ANIMRT_EVENT_ANIMATION_STOPPED && ev[1].type == ANIMRT_EVENT_TRANSACTION_COMPLETED);
    CHECK(ev[1].token == 1 && ev[1].time == 3);
    CHECK_STATUS(animrt_transaction_commit(rt, 9), ANIMRT_E_STATE);
    CHECK_MESSAGE("without an open transaction");
    CHECK(tokens(rt, t, 4) == 0);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_transaction_current) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), outer = 0, inner = 0, again = 0, untouched = 7;
    CHECK_STATUS(animrt_transaction_current(rt, &untouched), ANIMRT_E_STATE);  /* none open */
    CHECK(untouched == 7);
    CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_OK(animrt_transaction_current(rt, &outer));
    attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 2), "a");
    CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_OK(animrt_transaction_current(rt, &inner));
    CHECK(outer != 0 && inner != 0 && inner != outer);
    attach(rt, layer, basic_at(rt, "cornerRadius", 0, 1, 1, 1), "b");
    CHECK_OK(animrt_transaction_commit(rt, 2));
    CHECK_OK(animrt_transaction_current(rt, &again));
    CHECK(again == outer);  /* the innermost open one again */
    CHECK_OK(animrt_transaction_commit(rt, 1));
    CHECK_STATUS(animrt_transaction_current(rt, &untouched), ANIMRT_E_STATE);
    CHECK_STATUS(animrt_transaction_current(rt, NULL), ANIMRT_E_NULL);
    animrt_runtime_tick(rt, 3);
    animrt_event ev[8];
    size_t n = drain(rt, ev, 8), completed = 0;
    for (size_t i = 0; i < n && i < 8; i++) {
        if (ev[i].type != ANIMRT_EVENT_TRANSACTION_COMPLETED) continue;
        CHECK((ev[i].token == 2 && ev[i].object == inner) || (ev[i].token == 1 && ev[i].object == outer));
        completed++;
    }
    CHECK(completed == 2 && untouched == 7);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_timer_start) {
    animrt_runtime *rt = rt_new();
    animrt_id timer = 0;
    animrt_runtime_tick(rt, 10);
    CHECK_OK(animrt_timer_start(rt, 1.5, 42, &timer));
    CHECK_OK(animrt_timer_start(rt, 0.5, 41, NULL));
    CHECK(timer != 0);
    animrt_runtime_tick(rt, 11.4);
    animrt_event ev[4];
    CHECK(drain(rt, ev, 4) == 1 && ev[0].token == 41);
    animrt_runtime_tick(rt, 11.5);
    CHECK(drain(rt, ev, 4) == 1 && ev[0].type == ANIMRT_EVENT_TIMER_FIRED && ev[0].object == timer && ev[0].token == 42);
    CHECK(ev[0].time == 11.5);
    animrt_id out = 5;
    CHECK_STATUS(animrt_timer_start(rt, -0.1, 1, &out), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_timer_start(rt, NAN, 1, &out), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_timer_start(rt, INFINITY, 1, &out), ANIMRT_E_INVALID);
    CHECK(out == 5);
    animrt_runtime_tick(rt, 100);
    CHECK(drain(rt, ev, 4) == 0);
    animrt_runtime_destroy(rt);
    /* Started before the first tick: counted from that tick, wherever the host's clock is. */
    rt = rt_new();
    CHECK_OK(animrt_timer_start(rt, 1.5, 43, &timer));
    animrt_runtime_tick(rt, 1000);
    CHECK(drain(rt, ev, 4) == 0);
    animrt_runtime_tick(rt, 1001.4);
    CHECK(drain(rt, ev, 4) == 0);
    animrt_runtime_tick(rt, 1001.5);
    CHECK(drain(rt, ev, 4) == 1 && ev[0].object == timer && ev[0].token == 43 && ev[0].time == 1001.5);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_timer_cancel) {
    animrt_runtime *rt = rt_new();
    animrt_id keep = 0, drop = 0, layer = new_layer(rt, 0);
    animrt_runtime_tick(rt, 0);  /* timers count from the first tick: make it 0 */
    animrt_timer_start(rt, 1, 1, &keep);
    animrt_timer_start(rt, 1, 2, &drop);
    CHECK_OK(animrt_timer_cancel(rt, drop));
    animrt_runtime_tick(rt, 2);
    uint64_t t[4];
    CHECK(tokens(rt, t, 4) == 1 && t[0] == 1);
    CHECK_STATUS(animrt_timer_cancel(rt, drop), ANIMRT_E_HANDLE);  /* cancelled already */
    CHECK_MESSAGE("is stale (the timer fired or was cancelled)");
    CHECK_STATUS(animrt_timer_cancel(rt, keep), ANIMRT_E_HANDLE);  /* fired already */
    CHECK_MESSAGE("is stale (the timer fired or was cancelled)");
    CHECK_STATUS(animrt_timer_cancel(rt, layer), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_timer_pending) {
    /* A queue of two: one event and the overflow notice. */
    animrt_runtime *rt = NULL, *other = rt_new();
    CHECK_OK(animrt_runtime_create(2, &rt));
    animrt_id soon = 0, lost = 0, third = 0, late = 0, dropped = 0, reused[4] = {0}, foreign = 0, layer = new_layer(rt, 0);
    animrt_runtime_tick(rt, 0);
    animrt_timer_start(rt, 0.5, 1, &soon);
    animrt_timer_start(rt, 0.5, 2, &lost);
    animrt_timer_start(rt, 0.5, 3, &third);
    animrt_timer_start(rt, 2, 4, &late);
    animrt_timer_start(rt, 1, 5, &dropped);
    animrt_timer_start(other, 1, 6, &foreign);
    int out = 7;
    CHECK_OK(animrt_timer_pending(rt, soon, &out));
    CHECK(out == 1);
    CHECK_OK(animrt_timer_cancel(rt, dropped));
    CHECK_OK(animrt_timer_pending(rt, dropped, &out));
    CHECK(out == 0);
    animrt_runtime_tick(rt, 0.5);
    /* Fired at this tick: not pending before the events are polled, nor once a full queue lost them. */
    CHECK_OK(animrt_timer_pending(rt, soon, &out));
    CHECK(out == 0);
    CHECK_OK(animrt_timer_pending(rt, lost, &out));
    CHECK(out == 0);
    CHECK_OK(animrt_timer_pending(rt, late, &out));
    CHECK(out == 1);
    animrt_event ev[4];
    CHECK(drain(rt, ev, 4) == 2 && ev[0].token == 1 && ev[1].type == ANIMRT_EVENT_OVERFLOW && ev[1].token == 2);
    /* New timers in the four slots freed: the old handles still read 0, the new ones 1. */
    animrt_id old[4] = {soon, lost, third, dropped};
    for (int i = 0; i < 4; i++) animrt_timer_start(rt, 1, 7, &reused[i]);
    for (int i = 0; i < 4; i++) {
        CHECK(((reused[i] ^ late) & 0xFFFFFF) != 0); /* not the slot of the timer still pending */
        CHECK_OK(animrt_timer_pending(rt, old[i], &out));
        CHECK(out == 0);
        CHECK_OK(animrt_timer_pending(rt, reused[i], &out));
        CHECK(out == 1);
    }
    out = 7;
    CHECK_STATUS(animrt_timer_pending(rt, layer, &out), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("names a layer, not a timer");
    CHECK_STATUS(animrt_timer_pending(rt, foreign, &out), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("belongs to another runtime");
    CHECK_STATUS(animrt_timer_pending(rt, 0, &out), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_timer_pending(rt, late + 5, &out), ANIMRT_E_HANDLE); /* a slot never used */
    CHECK_STATUS(animrt_timer_pending(rt, late, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_timer_pending(NULL, late, &out), ANIMRT_E_NULL);
    CHECK(out == 7);
    animrt_runtime_destroy(other);
    animrt_runtime_destroy(rt);
}

/* ---- events and timing functions ---------------------------------------- */

FN_TEST(animrt_event_poll) {
    animrt_runtime *rt = rt_new();
    for (uint64_t i = 1; i <= 3; i++) animrt_timer_start(rt, 0, i, NULL);
    animrt_runtime_tick(rt, 0);
    animrt_event ev[3];
    size_t n = 9;
    CHECK_OK(animrt_event_poll(rt, ev, 0, &n));  /* cap 0: nothing taken */
    CHECK(n == 0);
    CHECK_OK(animrt_event_poll(rt, NULL, 0, &n));
    CHECK_OK(animrt_event_poll(rt, ev, 1, &n));
    CHECK(n == 1 && ev[0].token == 1 && ev[0].type == ANIMRT_EVENT_TIMER_FIRED && ev[0].time == 0);
    n = 9;
    CHECK_STATUS(animrt_event_poll(rt, NULL, 2, &n), ANIMRT_E_NULL);
    CHECK(strcmp(animrt_last_error_message(), "out is NULL but cap is 2") == 0);
    CHECK_STATUS(animrt_event_poll(rt, NULL, SIZE_MAX, &n), ANIMRT_E_NULL);
    CHECK(strcmp(animrt_last_error_message(), "out is NULL but cap is 18446744073709551615") == 0);
    CHECK(n == 9);  /* a refused poll leaves *count as it was */
    CHECK_STATUS(animrt_event_poll(rt, ev, 2, NULL), ANIMRT_E_NULL);
    CHECK_OK(animrt_event_poll(rt, ev, 3, &n));  /* the refused polls took nothing */
    CHECK(n == 2 && ev[0].token == 2 && ev[1].token == 3);
    CHECK_OK(animrt_event_poll(rt, ev, 3, &n));
    CHECK(n == 0);
    /* cap SIZE_MAX means "enough" (the host knows how many it may get). */
    animrt_timer_start(rt, 0, 4, NULL);
    animrt_timer_start(rt, 0, 5, NULL);
    animrt_runtime_tick(rt, 1);
    CHECK_OK(animrt_event_poll(rt, ev, SIZE_MAX, &n));
    CHECK(n == 2 && ev[0].token == 4 && ev[1].token == 5);
    animrt_runtime_destroy(rt);
}

typedef struct { int count; uint64_t tokens[8]; } seen_events;
static void record(void *user, const animrt_event *e) {
    seen_events *s = user;
    if (s->count < 8) s->tokens[s->count] = e->token;
    s->count++;
}

FN_TEST(animrt_event_set_callback) {
    animrt_runtime *rt = rt_new();
    seen_events seen = {0, {0}};
    CHECK_OK(animrt_event_set_callback(rt, record, &seen));
    animrt_timer_start(rt, 0, 5, NULL);
    animrt_timer_start(rt, 0, 6, NULL);
    animrt_runtime_tick(rt, 0);
    CHECK(seen.count == 2 && seen.tokens[0] == 5 && seen.tokens[1] == 6);
    animrt_event ev[2];
    size_t n = 9;
    animrt_event_poll(rt, ev, 2, &n);
    CHECK(n == 0);
    CHECK_OK(animrt_event_set_callback(rt, NULL, &seen));  /* back to polling */
    animrt_timer_start(rt, 0, 7, NULL);
    animrt_runtime_tick(rt, 1);
    animrt_event_poll(rt, ev, 2, &n);
    CHECK(n == 1 && ev[0].token == 7 && seen.count == 2);
    CHECK_STATUS(animrt_event_set_callback(NULL, record, &seen), ANIMRT_E_NULL);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_timing_function_evaluate) {
    animrt_runtime *rt = rt_new();
    double y = -1;
    CHECK_OK(animrt_timing_function_evaluate(rt, "linear", 0.3, &y));
    CHECK(y == 0.3);
    CHECK_OK(animrt_timing_function_evaluate(rt, "easeInEaseOut", 0.25, &y));
    CHECK_NEAR(y, 0.129162, 1e-6);
    CHECK_OK(animrt_timing_function_evaluate(rt, "steps(2, jump-none)", 0.6, &y));
    CHECK(y == 1);
    CHECK_OK(animrt_timing_function_evaluate(rt, "easeOut", 1.5, &y));  /* extended by the end tangent */
    CHECK(y == 1);
    CHECK_OK(animrt_timing_function_evaluate(rt, "cubic-bezier(0.5, 2, 0.5, 1)", -1, &y));
    CHECK(y == -4);  /* start tangent y1/x1 = 4 */
    y = -1;
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "linear", NAN, &y), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "lienar", 0.5, &y), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'linear'");
    CHECK_STATUS(animrt_timing_function_evaluate(rt, NULL, 0.5, &y), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "linear", 0.5, NULL), ANIMRT_E_NULL);
    CHECK(y == -1);
    animrt_runtime_destroy(rt);
}

/* ---- reading animations back, layer time (more in test_timing.c) ------- */

FN_TEST(animrt_animation_get_kind) {
    animrt_runtime *rt = rt_new();
    static const animrt_animation_kind kinds[] = {ANIMRT_ANIMATION_BASIC, ANIMRT_ANIMATION_KEYFRAME,
                                                  ANIMRT_ANIMATION_SPRING, ANIMRT_ANIMATION_GROUP, ANIMRT_ANIMATION_DECAY};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        animrt_id a = 0;
        animrt_animation_kind k = (animrt_animation_kind)99;
        CHECK_OK(animrt_animation_create(rt, kinds[i], kinds[i] == ANIMRT_ANIMATION_GROUP ? NULL : "opacity", &a));
        CHECK_OK(animrt_animation_get_kind(rt, a, &k));
        CHECK(k == kinds[i]);
    }
    animrt_id layer = new_layer(rt, 0), inst = attach(rt, layer, basic_at(rt, "opacity", 0, 1, 1, 1), "a");
    animrt_animation_kind k = (animrt_animation_kind)99;
    CHECK_OK(animrt_animation_get_kind(rt, inst, &k));  /* an attached copy reads too */
    CHECK(k == ANIMRT_ANIMATION_BASIC);
    k = (animrt_animation_kind)99;
    CHECK_STATUS(animrt_animation_get_kind(rt, inst, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_get_kind(rt, layer, &k), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_animation_get_kind(rt, 0, &k), ANIMRT_E_HANDLE);
    CHECK(k == (animrt_animation_kind)99);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_get_key_path) {
    animrt_runtime *rt = rt_new();
    animrt_id a = basic_at(rt, "bounds.size.width", 0, 1, 1, 1), g = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &g);
    char buf[32] = "x";
    size_t needed = 0;
    CHECK_OK(animrt_animation_get_key_path(rt, a, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "bounds.size.width") == 0 && needed == 18);
    CHECK_OK(animrt_animation_get_key_path(rt, g, buf, sizeof buf, &needed));
    CHECK(buf[0] == 0 && needed == 1);  /* a group has none */
    char small[4] = "abc";
    CHECK_STATUS(animrt_animation_get_key_path(rt, a, small, sizeof small, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 18 && strcmp(small, "abc") == 0);
    CHECK(strcmp(animrt_last_error_message(), "the key path needs 18 bytes with its NUL; the buffer holds 4") == 0);
    /* A NULL buf holds nothing, whatever cap says. */
    needed = 0;
    CHECK_STATUS(animrt_animation_get_key_path(rt, a, NULL, sizeof buf, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 18);
    CHECK(strcmp(animrt_last_error_message(), "the key path needs 18 bytes with its NUL; the buffer holds 0") == 0);
    /* cap SIZE_MAX: "enough". */
    buf[0] = 'x';
    CHECK_OK(animrt_animation_get_key_path(rt, a, buf, SIZE_MAX, &needed));
    CHECK(strcmp(buf, "bounds.size.width") == 0 && needed == 18);
    CHECK_STATUS(animrt_animation_get_key_path(rt, 0, buf, sizeof buf, &needed), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

/* Each flag reads back as set, and only its own: a getter that read one
 * flag for another would pass a test that sets them all alike. */
FN_TEST(animrt_animation_get_flag) {
    animrt_runtime *rt = rt_new();
    static const animrt_flag general[5] = {ANIMRT_FLAG_AUTOREVERSES, ANIMRT_FLAG_REMOVED_ON_COMPLETION,
                                           ANIMRT_FLAG_ADDITIVE, ANIMRT_FLAG_CUMULATIVE, ANIMRT_FLAG_FROM_PRESENTATION};
    for (int on = 0; on < 5; on++) {
        animrt_id a = basic_at(rt, "opacity", 0, 1, 1, 1);
        /* Every flag off, then the one on. */
        for (int f = 0; f < 5; f++) CHECK_OK(animrt_animation_set_flag(rt, a, general[f], 0));
        CHECK_OK(animrt_animation_set_flag(rt, a, general[on], 1));
        for (int f = 0; f < 5; f++) {
            int32_t v = -1;
            CHECK_OK(animrt_animation_get_flag(rt, a, general[f], &v));
            CHECK(v == (f == on));
        }
        animrt_animation_destroy(rt, a);
    }
    /* The spring flags, likewise apart. */
    animrt_id s = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &s);
    int32_t over = -1, settle = -1;
    CHECK_OK(animrt_animation_set_flag(rt, s, ANIMRT_FLAG_SETTLING_DURATION, 1));
    CHECK_OK(animrt_animation_get_flag(rt, s, ANIMRT_FLAG_ALLOWS_OVERDAMPING, &over));
    CHECK_OK(animrt_animation_get_flag(rt, s, ANIMRT_FLAG_SETTLING_DURATION, &settle));
    CHECK(over == 0 && settle == 1);
    int32_t v = 5;
    CHECK_STATUS(animrt_animation_get_flag(rt, s, (animrt_flag)42, &v), ANIMRT_E_ENUM);
    CHECK_MESSAGE("42 is not a valid animrt_flag");
    CHECK_STATUS(animrt_animation_get_flag(rt, s, ANIMRT_FLAG_ADDITIVE, NULL), ANIMRT_E_NULL);
    CHECK(v == 5);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_get_fill_mode) {
    animrt_runtime *rt = rt_new();
    animrt_id a = basic_at(rt, "opacity", 0, 1, 1, 1);
    animrt_fill_mode m = (animrt_fill_mode)99;
    CHECK_OK(animrt_animation_get_fill_mode(rt, a, &m));
    CHECK(m == ANIMRT_FILL_REMOVED);
    for (int mode = ANIMRT_FILL_REMOVED; mode <= ANIMRT_FILL_BOTH; mode++) {
        animrt_animation_set_fill_mode(rt, a, (animrt_fill_mode)mode);
        CHECK_OK(animrt_animation_get_fill_mode(rt, a, &m));
        CHECK(m == (animrt_fill_mode)mode);
    }
    m = (animrt_fill_mode)99;
    CHECK_STATUS(animrt_animation_get_fill_mode(rt, a, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_get_fill_mode(rt, 0, &m), ANIMRT_E_HANDLE);
    CHECK(m == (animrt_fill_mode)99);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_get_direction) {
    animrt_runtime *rt = rt_new();
    animrt_id a = basic_at(rt, "opacity", 0, 1, 1, 1);
    animrt_direction d = (animrt_direction)99;
    CHECK_OK(animrt_animation_get_direction(rt, a, &d));
    CHECK(d == ANIMRT_DIRECTION_NORMAL);
    for (int dir = ANIMRT_DIRECTION_NORMAL; dir <= ANIMRT_DIRECTION_ALTERNATE_REVERSE; dir++) {
        animrt_animation_set_direction(rt, a, (animrt_direction)dir);
        CHECK_OK(animrt_animation_get_direction(rt, a, &d));
        CHECK(d == (animrt_direction)dir);
    }
    d = (animrt_direction)99;
    CHECK_STATUS(animrt_animation_get_direction(rt, a, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_animation_get_direction(rt, 0, &d), ANIMRT_E_HANDLE);
    CHECK(d == (animrt_direction)99);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_get_value) {
    animrt_runtime *rt = rt_new();
    animrt_id a = 0, kf = 0;
    double p[2] = {3, 4}, out[4] = {-1, -1, -1, -1};
    size_t n = 9;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "position", &a);
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_TO, p, 2));
    CHECK_OK(animrt_animation_get_value(rt, a, ANIMRT_TO, out, 4, &n));
    CHECK(n == 2 && out[0] == 3 && out[1] == 4);
    CHECK_OK(animrt_animation_get_value(rt, a, ANIMRT_FROM, out, 4, &n));
    CHECK(n == 0);  /* not set */
    double small[1] = {-1};
    CHECK_STATUS(animrt_animation_get_value(rt, a, ANIMRT_TO, small, 1, &n), ANIMRT_E_BUFFER);
    CHECK(n == 2 && small[0] == -1);
    CHECK_MESSAGE("2 doubles needed for the value; the buffer holds 1");
    animrt_id o = 0;
    double half = 0.5;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &o);
    CHECK_OK(animrt_animation_set_value(rt, o, ANIMRT_TO, &half, 1));
    CHECK_STATUS(animrt_animation_get_value(rt, o, ANIMRT_TO, NULL, 0, &n), ANIMRT_E_BUFFER);
    CHECK(n == 1);
    CHECK_MESSAGE("1 double needed for the value;");  /* one, not "1 doubles" */
    CHECK_STATUS(animrt_animation_get_value(rt, a, (animrt_value_slot)99, out, 4, &n), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_animation_get_value(rt, a, ANIMRT_TO, out, 4, NULL), ANIMRT_E_NULL);
    CHECK_MESSAGE("count is NULL");  /* the header's name for it */
    animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &kf);
    CHECK_STATUS(animrt_animation_get_value(rt, kf, ANIMRT_TO, out, 4, &n), ANIMRT_E_KIND);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_keyframe_get_key_times) {
    animrt_runtime *rt = rt_new();
    animrt_id a = keyframes(rt, "opacity");
    double v[3] = {0, 10, 30}, times[3] = {0, 0.25, 1}, out[3] = {-1, -1, -1};
    size_t needed = 9;
    animrt_keyframe_set_values(rt, a, v, 3, 1);
    CHECK_OK(animrt_keyframe_get_key_times(rt, a, out, 3, &needed));
    CHECK(needed == 0);  /* none set */
    animrt_keyframe_set_key_times(rt, a, times, 3);
    CHECK_OK(animrt_keyframe_get_key_times(rt, a, out, 3, &needed));
    CHECK(needed == 3 && out[0] == 0 && out[1] == 0.25 && out[2] == 1);
    double small[2] = {-1, -1};
    CHECK_STATUS(animrt_keyframe_get_key_times(rt, a, small, 2, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 3 && small[0] == -1);
    CHECK_STATUS(animrt_keyframe_get_key_times(rt, basic_at(rt, "opacity", 0, 1, 1, 1), out, 3, &needed), ANIMRT_E_KIND);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_keyframe_get_rotation_mode) {
    animrt_runtime *rt = rt_new();
    animrt_id a = keyframes(rt, "position");
    animrt_rotation_mode m = (animrt_rotation_mode)99;
    CHECK_OK(animrt_keyframe_get_rotation_mode(rt, a, &m));
    CHECK(m == ANIMRT_ROTATE_NONE);
    CHECK_OK(animrt_keyframe_set_rotation_mode(rt, a, ANIMRT_ROTATE_AUTO_REVERSE));
    CHECK_OK(animrt_keyframe_get_rotation_mode(rt, a, &m));
    CHECK(m == ANIMRT_ROTATE_AUTO_REVERSE);
    m = (animrt_rotation_mode)99;
    CHECK_STATUS(animrt_keyframe_get_rotation_mode(rt, a, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_keyframe_get_rotation_mode(rt, basic_at(rt, "opacity", 0, 1, 1, 1), &m), ANIMRT_E_KIND);
    CHECK(m == (animrt_rotation_mode)99);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_animation_get_decay) {
    animrt_runtime *rt = rt_new();
    animrt_id d = 0;
    double rate = 0, rest = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_DECAY, "position.x", &d);
    CHECK_OK(animrt_animation_get_decay(rt, d, &rate, &rest));
    CHECK(rate == 0.998 && rest == 0.5);  /* UIScrollView's normal rate, 0.5 units per second */
    CHECK_OK(animrt_animation_set_decay(rt, d, 0.99, 2));
    CHECK_OK(animrt_animation_get_decay(rt, d, &rate, NULL));
    CHECK(rate == 0.99);
    CHECK_OK(animrt_animation_get_decay(rt, d, NULL, &rest));
    CHECK(rest == 2);
    rate = -1;
    CHECK_STATUS(animrt_animation_get_decay(rt, basic_at(rt, "opacity", 0, 1, 1, 1), &rate, &rest), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_animation_get_decay(rt, 0, &rate, &rest), ANIMRT_E_HANDLE);
    CHECK(rate == -1);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_get_timing_param) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    double v = -1;
    CHECK_OK(animrt_layer_get_timing_param(rt, layer, ANIMRT_TIMING_SPEED, &v));
    CHECK(v == 1);
    CHECK_OK(animrt_layer_get_timing_param(rt, layer, ANIMRT_TIMING_ITERATION_DURATION, &v));
    CHECK(isinf(v) && v > 0);  /* unbounded */
    CHECK_OK(animrt_layer_get_timing_param(rt, layer, ANIMRT_TIMING_ITERATIONS, &v));
    CHECK(v == 1);
    CHECK_OK(animrt_layer_set_timing_param(rt, layer, ANIMRT_TIMING_SPEED, 2));
    CHECK_OK(animrt_layer_get_timing_param(rt, layer, ANIMRT_TIMING_SPEED, &v));
    CHECK(v == 2);
    v = -1;
    CHECK_STATUS(animrt_layer_get_timing_param(rt, layer, (animrt_timing_param)99, &v), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_layer_get_timing_param(rt, layer, ANIMRT_TIMING_SPEED, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_get_timing_param(rt, 0, ANIMRT_TIMING_SPEED, &v), ANIMRT_E_HANDLE);
    CHECK(v == -1);
    animrt_runtime_destroy(rt);
}

/* The opacity at parent time t of a 0 → 1 animation (begun at local 0.5,
 * for 1 s, fill both) on a layer timed like a group: 2 s, fill both, with
 * `configure` applied to the layer. */
typedef void (*layer_fn)(animrt_runtime *, animrt_id);
static double layer_timed_at(layer_fn configure, double t) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0), a = basic_at(rt, "opacity", 0, 1, 0.5, 1);
    animrt_layer_set_timing_param(rt, layer, ANIMRT_TIMING_DURATION, 2);
    animrt_layer_set_fill_mode(rt, layer, ANIMRT_FILL_BOTH);
    if (configure) configure(rt, layer);
    animrt_animation_set_fill_mode(rt, a, ANIMRT_FILL_BOTH);
    animrt_animation_set_flag(rt, a, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0);
    animrt_layer_add_animation(rt, layer, a, "a", 0, NULL);
    animrt_runtime_tick(rt, t);
    double v = presentation(rt, layer, "opacity");
    animrt_runtime_destroy(rt);
    return v;
}
static void layer_reverse(animrt_runtime *rt, animrt_id l) { CHECK_OK(animrt_layer_set_direction(rt, l, ANIMRT_DIRECTION_REVERSE)); }
static void layer_autoreverses(animrt_runtime *rt, animrt_id l) { CHECK_OK(animrt_layer_set_autoreverses(rt, l, 1)); }
/* On is any nonzero int, as C reads one; 0 turns it off again. */
static void layer_autoreverses_nonzero(animrt_runtime *rt, animrt_id l) { CHECK_OK(animrt_layer_set_autoreverses(rt, l, -1)); }
static void layer_autoreverses_off(animrt_runtime *rt, animrt_id l) {
    CHECK_OK(animrt_layer_set_autoreverses(rt, l, 2));
    CHECK_OK(animrt_layer_set_autoreverses(rt, l, 0));
}

FN_TEST(animrt_layer_set_direction) {
    /* Forwards, the layer's time at parent 1.25 is 1.25: the animation is 0.75 in.
     * Reversed, it is 2 − 1.25 = 0.75: 0.25 in. */
    CHECK(layer_timed_at(NULL, 1.25) == 0.75);
    CHECK(layer_timed_at(layer_reverse, 1.25) == 0.25);
    CHECK(layer_timed_at(layer_reverse, 0.25) == 1);   /* layer time 1.75: the animation has ended, filled */
    animrt_runtime *rt = rt_new();
    animrt_id layer = new_layer(rt, 0);
    CHECK_STATUS(animrt_layer_set_direction(rt, layer, (animrt_direction)99), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_layer_set_direction(rt, 0, ANIMRT_DIRECTION_REVERSE), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_layer_set_autoreverses) {
    /* With autoreverses the layer's 2 s play forwards, then backwards:
     * at parent 3.25 its time is 2 − 1.25 = 0.75, the animation 0.25 in. */
    CHECK(layer_timed_at(layer_autoreverses, 1.25) == 0.75);
    CHECK(layer_timed_at(layer_autoreverses, 3.25) == 0.25);
    CHECK(layer_timed_at(NULL, 3.25) == 1);  /* without it: past the end, filled */
    CHECK(layer_timed_at(layer_autoreverses_nonzero, 3.25) == 0.25);
    CHECK(layer_timed_at(layer_autoreverses_off, 3.25) == 1);
    animrt_runtime *rt = rt_new();
    CHECK_STATUS(animrt_layer_set_autoreverses(rt, 0, 1), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_set_autoreverses(NULL, 0, 1), ANIMRT_E_NULL);
    animrt_runtime_destroy(rt);
}

/* ---- plugins (the rest of them: bindings/c/tests/test_plugins.c) --------- */

/* Fails with a message in Latin-1, as a host on another locale may. */
static animrt_status fail_latin1(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data; (void)args; (void)count; (void)result;
    return animrt_error_set(ANIMRT_E_RANGE, "caf\xe9 is closed");
}

FN_TEST(animrt_error_set) {
    /* What a failing plugin or bound function returns: the status given, with the message set. */
    CHECK_STATUS(animrt_error_set(ANIMRT_E_RANGE, "x is 7; at most 5"), ANIMRT_E_RANGE);
    CHECK_MESSAGE("x is 7; at most 5");
    CHECK(animrt_error_set(ANIMRT_OK, "fine") == ANIMRT_OK);
    CHECK_MESSAGE("fine");
    /* As a plugin's api->error_set: a NULL message says there is none; one
     * that is not UTF-8 is kept, its stray bytes replaced (never dropped
     * whole); at most 4096 bytes are read. The status still comes back. */
    CHECK_STATUS(animrt_error_set(ANIMRT_E_INVALID, NULL), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "(no message)") == 0);
    CHECK_STATUS(animrt_error_set(ANIMRT_E_KIND, "bad \xff"), ANIMRT_E_KIND);
    CHECK(strcmp(animrt_last_error_message(), "bad \xef\xbf\xbd") == 0);
    static char longer[5000];
    memset(longer, 'x', sizeof longer - 1);
    CHECK_STATUS(animrt_error_set(ANIMRT_E_RANGE, longer), ANIMRT_E_RANGE);
    CHECK(strlen(animrt_last_error_message()) == 4096);
    /* A failing function's message reaches its caller the same way. */
    animrt_runtime *rt = rt_new();
    animrt_value result;
    CHECK_OK(animrt_function_register(rt, "closedCafe", "f64()", fail_latin1, NULL));
    CHECK_STATUS(animrt_function_call(rt, "closedCafe", NULL, 0, &result, NULL, 0, NULL), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE("function 'closedCafe' (f64()) failed (ANIMRT_E_RANGE): caf\xef\xbf\xbd is closed");
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_plugin_name) {
    animrt_runtime *rt = rt_new();
    animrt_id plugin = 0, layer = new_layer(rt, 0);
    /* The example plugin, built into .build/c by `make plugins`. */
    CHECK_OK(animrt_plugin_load(rt, ".build/c/libexamples.so", &plugin));
    char name[16] = "", small[4] = "abc";
    size_t needed = 0;
    CHECK_OK(animrt_plugin_name(rt, plugin, name, sizeof name, &needed));
    CHECK(strcmp(name, "examples") == 0 && needed == 9);
    CHECK_STATUS(animrt_plugin_name(rt, plugin, small, sizeof small, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 9 && strcmp(small, "abc") == 0);
    CHECK_STATUS(animrt_plugin_name(rt, layer, name, sizeof name, &needed), ANIMRT_E_HANDLE);
    CHECK_OK(animrt_plugin_unload(rt, plugin));
    CHECK_STATUS(animrt_plugin_name(rt, plugin, name, sizeof name, &needed), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

/* ---- state machines (the rest of them: bindings/c/tests/test_machines.c) -- */

static const char *BUTTON = "examples/machines/download_button.json";

FN_TEST(animrt_definition_load_file) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, untouched = 7;
    CHECK_OK(animrt_definition_load_file(rt, BUTTON, &def));
    CHECK(def != 0);
    /* Ids are positions in sorted order (docs/machines.md): cancel, finished, progress, tap. */
    int32_t tap = -1;
    CHECK_OK(animrt_definition_id(rt, def, ANIMRT_NAME_EVENT, "tap", &tap));
    CHECK(tap == 3);
    CHECK_STATUS(animrt_definition_load_file(rt, "examples/machines/no_such_machine.json", &untouched), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_definition_load_file(rt, "include/animrt.h", &untouched), ANIMRT_E_INVALID);  /* not JSON */
    CHECK_STATUS(animrt_definition_load_file(rt, NULL, &untouched), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_definition_load_file(rt, BUTTON, NULL), ANIMRT_E_NULL);
    CHECK(untouched == 7);
    /* A file that is not UTF-8 (a Latin-1 'é'): refused naming the first
     * byte that is no character and where it is; nothing loaded (R0.3). */
    char path[] = "/tmp/animrt_definition_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    const char *latin1 = "{\"name\": \"menu\", \"context\": {\"dish\": {\"type\": \"string\", \"initial\": \"'caf\xe9'\"}},"
                         " \"initial\": \"a\", \"states\": {\"a\": {}}}";
    CHECK(f != NULL && fputs(latin1, f) >= 0 && fclose(f) == 0);
    CHECK_STATUS(animrt_definition_load_file(rt, path, &untouched), ANIMRT_E_INVALID);
    char expected[256];
    snprintf(expected, sizeof expected, "the definition file '%s' is not valid UTF-8 at byte offset %d (0xE9); save it as UTF-8",
             path, (int)(strchr(latin1, '\xe9') - latin1));
    CHECK(strchr(latin1, '\xe9') - latin1 == 72);
    CHECK(strcmp(animrt_last_error_message(), expected) == 0);
    CHECK(untouched == 7);
    /* Saved as UTF-8, the same definition loads. */
    f = fopen(path, "w");
    CHECK(f != NULL && fputs("{\"name\": \"menu\", \"context\": {\"dish\": {\"type\": \"string\", \"initial\": \"'caf\xc3\xa9'\"}},"
                             " \"initial\": \"a\", \"states\": {\"a\": {}}}", f) >= 0 && fclose(f) == 0);
    CHECK_OK(animrt_definition_load_file(rt, path, &untouched));
    CHECK(untouched != 7);
    remove(path);
    animrt_runtime_destroy(rt);
}

FN_TEST(animrt_definition_count) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0;
    animrt_definition_load_file(rt, BUTTON, &def);
    size_t n = 0;
    /* The definition's four events, and error.execution, which every machine accepts. */
    CHECK_OK(animrt_definition_count(rt, def, ANIMRT_NAME_EVENT, &n));
    CHECK(n == 5);
    /* Every id below the count has a name, and the name has that id. */
    for (int kind = ANIMRT_NAME_STATE; kind <= ANIMRT_NAME_CONFIG; kind++) {
        CHECK_OK(animrt_definition_count(rt, def, (animrt_name_kind)kind, &n));
        for (size_t i = 0; i < n; i++) {
            char name[128];
            int32_t id = -1;
            CHECK_OK(animrt_definition_name(rt, def, (animrt_name_kind)kind, (int32_t)i, name, sizeof name, NULL));
            CHECK_OK(animrt_definition_id(rt, def, (animrt_name_kind)kind, name, &id));
            CHECK(id == (int32_t)i);
        }
    }
    size_t untouched = 99;
    CHECK_STATUS(animrt_definition_count(rt, def, (animrt_name_kind)99, &untouched), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_definition_count(rt, def, ANIMRT_NAME_EVENT, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_definition_count(rt, 12345, ANIMRT_NAME_EVENT, &untouched), ANIMRT_E_HANDLE);
    animrt_definition_destroy(rt, def);
    CHECK_STATUS(animrt_definition_count(rt, def, ANIMRT_NAME_EVENT, &untouched), ANIMRT_E_HANDLE);
    CHECK(untouched == 99);
    animrt_runtime_destroy(rt);
}

int main(void) {
    RUN_FN(animrt_version);
    RUN_FN(animrt_version_string);
    RUN_FN(animrt_status_name);
    RUN_FN(animrt_last_error_message);
    RUN_FN(animrt_runtime_create);
    RUN_FN(animrt_runtime_destroy);
    RUN_FN(animrt_runtime_tick);
    RUN_FN(animrt_runtime_time);
    RUN_FN(animrt_runtime_set_threads);
    RUN_FN(animrt_keypath_id);
    RUN_FN(animrt_keypath_info);
    RUN_FN(animrt_property_define);
    RUN_FN(animrt_layer_create);
    RUN_FN(animrt_layer_create_many);
    RUN_FN(animrt_layer_destroy);
    RUN_FN(animrt_layer_set_parent);
    RUN_FN(animrt_layer_set_timing);
    RUN_FN(animrt_layer_set_value);
    RUN_FN(animrt_layer_get_value);
    RUN_FN(animrt_layer_get_presentation);
    RUN_FN(animrt_reader_create);
    RUN_FN(animrt_reader_read);
    RUN_FN(animrt_reader_destroy);
    RUN_FN(animrt_animation_create);
    RUN_FN(animrt_animation_destroy);
    RUN_FN(animrt_animation_set_timing);
    RUN_FN(animrt_animation_get_timing);
    RUN_FN(animrt_animation_set_flag);
    RUN_FN(animrt_animation_set_fill_mode);
    RUN_FN(animrt_animation_set_direction);
    RUN_FN(animrt_animation_set_timing_function);
    RUN_FN(animrt_animation_set_cubic_bezier);
    RUN_FN(animrt_animation_set_value);
    RUN_FN(animrt_animation_set_spring);
    RUN_FN(animrt_animation_get_settling_duration);
    RUN_FN(animrt_keyframe_set_values);
    RUN_FN(animrt_keyframe_set_key_times);
    RUN_FN(animrt_keyframe_set_timing_functions);
    RUN_FN(animrt_keyframe_set_calculation_mode);
    RUN_FN(animrt_keyframe_set_spline);
    RUN_FN(animrt_group_add);
    RUN_FN(animrt_group_get_count);
    RUN_FN(animrt_group_get_child);
    RUN_FN(animrt_layer_add_animation);
    RUN_FN(animrt_layer_add_animations);
    RUN_FN(animrt_layer_remove_animation);
    RUN_FN(animrt_layer_remove_all_animations);
    RUN_FN(animrt_layer_animation_count);
    RUN_FN(animrt_layer_animation_key);
    RUN_FN(animrt_barrier_create);
    RUN_FN(animrt_barrier_destroy);
    RUN_FN(animrt_barrier_enter);
    RUN_FN(animrt_barrier_leave);
    RUN_FN(animrt_barrier_notify);
    RUN_FN(animrt_barrier_count);
    RUN_FN(animrt_transaction_begin);
    RUN_FN(animrt_transaction_commit);
    RUN_FN(animrt_transaction_current);
    RUN_FN(animrt_timer_start);
    RUN_FN(animrt_timer_cancel);
    RUN_FN(animrt_timer_pending);
    RUN_FN(animrt_event_poll);
    RUN_FN(animrt_event_set_callback);
    RUN_FN(animrt_timing_function_evaluate);
    RUN_FN(animrt_animation_get_kind);
    RUN_FN(animrt_animation_get_key_path);
    RUN_FN(animrt_animation_get_flag);
    RUN_FN(animrt_animation_get_fill_mode);
    RUN_FN(animrt_animation_get_direction);
    RUN_FN(animrt_animation_get_value);
    RUN_FN(animrt_keyframe_get_key_times);
    RUN_FN(animrt_keyframe_get_rotation_mode);
    RUN_FN(animrt_animation_get_decay);
    RUN_FN(animrt_layer_get_timing_param);
    RUN_FN(animrt_layer_set_direction);
    RUN_FN(animrt_layer_set_autoreverses);
    RUN_FN(animrt_error_set);
    RUN_FN(animrt_plugin_name);
    RUN_FN(animrt_definition_load_file);
    RUN_FN(animrt_definition_count);
    return check_report();
}
