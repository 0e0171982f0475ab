/* A libFuzzer target for the whole C ABI (make fuzz).
 *
 * The input is a program: each step is one byte choosing a function of
 * animrt.h, followed by the bytes its arguments are drawn from — handles
 * from pools of live objects or hostile ones (0, stale, foreign, made up,
 * one bit off), doubles from a table of edge values or raw bits, names from
 * a dictionary or raw bytes (invalid UTF-8, past ANIMRT_NAME_MAX), sizes
 * from small to SIZE_MAX. An event callback may be set that calls back
 * in: ticks, removals, adds, polls, destroying the runtime.
 *
 * After every call it checks what the header promises:
 *  - the status is a known one, a failure has a message, and out-parameters
 *    of a failed call are untouched;
 *  - every value read (model, presentation, reader) is finite;
 *  - per attached animation (R0.5): at most one STARTED, before exactly one
 *    STOPPED (checked in full when the runtime is destroyed, unless the
 *    queue overflowed);
 *  - nothing reaches the callback after animrt_runtime_destroy() returned,
 *    and the callback is never re-entered except by destroy itself.
 * A broken promise aborts, which libFuzzer reports with the input.
 * The library under test is built with ASan (and the harness with UBSan). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "animrt.h"

/* ---- reading the program -------------------------------------------------- */

typedef struct { const uint8_t *p; size_t n; } program;

static uint8_t u8(program *in) {
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}
static uint64_t u64(program *in) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | u8(in);
    return v;
}

static double pick_double(program *in) {
    static const double special[] = {
        0, -0.0, 1, -1, 0.5, 2, 0.25, 10, 100, 1e-300, -1e-300, 1e300, -1e300, 1e308, -1e308, DBL_MAX, -DBL_MAX,
        DBL_MIN, 5e-324, INFINITY, -INFINITY, NAN, 1e160, -1e160, 1e154, 0.001, 1e-9, 3.5, 1e15, 9007199254740992.0,
        1e6, 0.999999};
    uint8_t k = u8(in);
    if (k < sizeof special / sizeof *special) return special[k];
    if (k < 128) return (double)(k - 64) / 8;
    if (k < 200) return (double)(k - 128) * 0.05;
    uint64_t bits = u64(in);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* An element count: up to `cap` (the array really passed; a larger but
 * plausible count is a caller bug animrt cannot see, as in any C API), or
 * one no array can have, which must be refused before anything is read. */
static size_t pick_count(program *in, size_t cap) {
    uint8_t k = u8(in);
    if (k < 240) return k % (cap + 1);
    switch (k % 4) {
    case 0: return SIZE_MAX;
    case 1: return ((size_t)1 << 28) + 1;
    case 2: return (size_t)1 << 40;
    default: return (size_t)1 << 63;
    }
}

static const char *const dictionary[] = {
    "opacity", "position", "position.x", "position.y", "bounds", "bounds.size", "bounds.size.width", "bounds.origin.x",
    "transform", "transform.rotation.z", "transform.rotation", "transform.scale", "transform.scale.x",
    "transform.translation", "transform.translation.x", "backgroundColor", "backgroundColor.alpha", "cornerRadius",
    "anchorPoint", "zPosition", "strokeEnd", "progress", "tint", "opacity.", "position.", ".x", "position..x", "",
    "opacty", "linear", "easeIn", "easeOut", "easeInEaseOut", "default", "ease-in-out", "steps(3, jump-both)",
    "steps(1, jump-none)", "steps(0)", "cubic-bezier(0.1, 2, 0.9, -1)", "cubic-bezier(2, 0, 0, 1)",
    "cubic-bezier(0, 1e300, 1, -1e300)", "k", "key", "fade", "\xff\xfe", "k\xc3\x28", "a.b.c.d"};
#define DICT (sizeof dictionary / sizeof *dictionary)

/* Machine definitions: a small valid one, the example download button
 * (read from examples/machines when the fuzzer starts, so it stays the
 * real one), and one with an error; mutated copies are made from them. */
static char example[8192] = "{}";
static const char *const definitions[] = {
    "{\"name\": \"m\", \"initial\": \"a\", \"events\": {\"go\": {}}, \"states\": {\"a\": {\"on\": {\"go\": \"b\"}}, \"b\": {\"on\": {\"go\": \"a\"}}}}",
    example,
    "{\"name\": \"bad\", \"initial\": \"nowhere\", \"states\": {\"a\": {}}}"};
#define DEFS (sizeof definitions / sizeof *definitions)

static char document[8192];

/* A definition: one of the above, one mutated by a few bytes of the
 * program, or raw bytes. */
static const char *pick_definition(program *in) {
    uint8_t k = u8(in);
    if (k < 160) return definitions[k % DEFS];
    const char *base = definitions[k % DEFS];
    size_t n = strlen(base);
    if (k < 240) {
        memcpy(document, base, n + 1);
        for (int edits = u8(in) % 4 + 1; edits > 0; edits--) {
            size_t at = (size_t)u8(in) * 256 + u8(in);
            document[at % n] = (char)(u8(in) | 1);
        }
        return document;
    }
    n = u8(in);
    for (size_t i = 0; i < n; i++) { uint8_t c = u8(in); document[i] = (char)(c ? c : '{'); }
    document[n] = 0;
    return document;
}

static char text[4200];

static const char *pick_string(program *in) {
    uint8_t k = u8(in);
    if (k < DICT) return dictionary[k];
    if (k < 200) {
        size_t n = u8(in) % 40;
        for (size_t i = 0; i < n; i++) { uint8_t c = u8(in); text[i] = (char)(c ? c : 'x'); }
        text[n] = 0;
        return text;
    }
    if (k < 220) return NULL;
    /* Around the name limit, or far past it. */
    size_t n = k < 250 ? (size_t)ANIMRT_NAME_MAX - 2 + k % 5 : sizeof text - 1;
    memset(text, "pqk"[k % 3], n);
    text[n] = 0;
    return text;
}

/* ---- pools of handles -------------------------------------------------------- */

enum { LAYERS, ANIMATIONS, INSTANCES, BARRIERS, TIMERS, READERS, DEFINITIONS, MACHINES, STALE, KINDS };
#define POOL 64
typedef struct { animrt_id ids[KINDS][POOL]; int n[KINDS]; } pools;

static void remember(pools *p, int kind, animrt_id id) {
    if (id == 0) return;
    p->ids[kind][p->n[kind] % POOL] = id;
    p->n[kind]++;
}
static int pool_size(const pools *p, int kind) { return p->n[kind] < POOL ? p->n[kind] : POOL; }

/* Mostly a live handle of the wanted kind; sometimes any hostile one. */
static animrt_id pick_id(program *in, pools *mine, pools *foreign, int kind) {
    uint8_t k = u8(in);
    if (k < 180 && pool_size(mine, kind)) return mine->ids[kind][u8(in) % pool_size(mine, kind)];
    switch (k % 8) {
    case 0: return 0;
    case 1: return u64(in);
    case 2: return pool_size(foreign, kind) ? foreign->ids[kind][u8(in) % pool_size(foreign, kind)] : 1;
    case 3: return pool_size(mine, STALE) ? mine->ids[STALE][u8(in) % pool_size(mine, STALE)] : 0;
    case 4: {
        int other = u8(in) % STALE;
        animrt_id id = pool_size(mine, other) ? mine->ids[other][u8(in) % pool_size(mine, other)] : 0;
        return id ^ ((animrt_id)1 << (u8(in) % 64));
    }
    default: {
        int other = u8(in) % STALE;
        return pool_size(mine, other) ? mine->ids[other][u8(in) % pool_size(mine, other)] : 0;
    }
    }
}

/* ---- lifecycle bookkeeping ---------------------------------------------------- */

#define TRACK (1 << 14)
typedef struct { animrt_id object; uint8_t attached, started, stopped; } track_entry;

typedef struct {
    animrt_runtime *rt;
    pools p;
    track_entry track[TRACK];
    int tracked, overflowed, lost_track;
    /* callback state */
    int callback_mode;           /* 0 none, 1 record, 2 record and act */
    uint8_t script[16];          /* what the acting callback does, event by event */
    int script_pos, depth, destroyed_inside, delivered_after_destroy;
    int destroying;
    double now;
    animrt_keypath kps[32];  /* ids this runtime gave, to pass back */
    int nkps;
    char snapshot[1 << 16];  /* the last machine snapshot taken */
} world;

static world w;
/* FUZZ_TRACE=1 in the environment prints every call's status and every
 * event: run a crashing input alone with it to see the program it encodes. */
static int trace;
static pools foreign_pools;
static animrt_runtime *foreign_rt;
static animrt_keypath foreign_kp;  /* "opacity" in the other runtime: refused here */
static unsigned long long calls, ok_calls, executions;

static void fail(const char *what) {
    fprintf(stderr, "broken promise: %s (last error: %s)\n", what, animrt_last_error_message());
    abort();
}

static track_entry *track_find(animrt_id object, int insert) {
    size_t i = (size_t)(object * 0x9E3779B97F4A7C15ULL >> 50) & (TRACK - 1);
    for (size_t probes = 0; probes < TRACK; probes++, i = (i + 1) & (TRACK - 1)) {
        if (w.track[i].object == object) return &w.track[i];
        if (w.track[i].object == 0) {
            if (!insert) return NULL;
            if (w.tracked >= TRACK / 2) { w.lost_track = 1; return NULL; }
            w.tracked++;
            w.track[i].object = object;
            return &w.track[i];
        }
    }
    return NULL;
}

static void track_event(const animrt_event *e) {
    if (trace) fprintf(stderr, "  event %d reason %d object %llu\n", e->type, e->reason, (unsigned long long)e->object);
    if (e->type < ANIMRT_EVENT_ANIMATION_STARTED || e->type > ANIMRT_EVENT_MACHINE_ERROR) fail("unknown event type");
    if (e->type == ANIMRT_EVENT_OVERFLOW) { w.overflowed = 1; return; }
    /* A payload is readable for as long as the event is (ASan checks it). */
    if (e->payload_count > 0 && e->payload == NULL) fail("a payload count without a payload");
    for (uint32_t i = 0; i < e->payload_count && i < 4096; i++) {
        const animrt_value *v = &e->payload[i];
        if (v->type < ANIMRT_TYPE_NUMBER || v->type > ANIMRT_TYPE_POINTER) fail("a payload value of unknown type");
        if (v->type == ANIMRT_TYPE_NUMBER && !isfinite(v->number)) fail("a payload number that is not finite");
        if (v->type == ANIMRT_TYPE_STRING && (v->string == NULL || strlen(v->string) > (size_t)1 << 24)) fail("a payload string");
    }
    if (e->type != ANIMRT_EVENT_ANIMATION_STARTED && e->type != ANIMRT_EVENT_ANIMATION_STOPPED) return;
    if (e->object == 0) fail("animation event without an object");
    track_entry *t = track_find(e->object, 1);
    if (!t) return;
    if (e->type == ANIMRT_EVENT_ANIMATION_STARTED) {
        if (t->started || t->stopped) fail("STARTED twice, or after STOPPED");
        t->started = 1;
    } else {
        if (e->reason < ANIMRT_STOP_FINISHED || e->reason > ANIMRT_STOP_RUNTIME_DESTROYED) fail("unknown stop reason");
        if (t->stopped) fail("STOPPED twice");
        t->stopped = 1;
    }
}

static void check_status_at(animrt_status s, int line) {
    if (trace) fprintf(stderr, "  line %d -> %s %s\n", line, animrt_status_name(s), s ? animrt_last_error_message() : "");
    calls++;
    if (s < ANIMRT_OK || s > ANIMRT_E_CALLBACK) fail("unknown status");
    if (s == ANIMRT_OK) ok_calls++;
    else if (animrt_last_error_message()[0] == 0) fail("a failure without a message");
}

#define check_status(s) check_status_at((s), __LINE__)

static void check_finite(const double *v, size_t n) {
    for (size_t i = 0; i < n; i++) if (!isfinite(v[i])) fail("a value read is not finite");
}

/* ---- the callback --------------------------------------------------------------- */

static void runtime_gone(void);

static void on_event(void *user, const animrt_event *e) {
    (void)user;
    if (w.rt == NULL) { w.delivered_after_destroy = 1; fail("an event after animrt_runtime_destroy returned"); }
    if (w.depth > 0 && !w.destroying) fail("the callback was re-entered outside destroy");
    w.depth++;
    track_event(e);
    if (w.callback_mode == 2 && !w.destroying && w.script_pos < (int)sizeof w.script) {
        uint8_t act = w.script[w.script_pos++];
        animrt_id layer = pool_size(&w.p, LAYERS) ? w.p.ids[LAYERS][act % pool_size(&w.p, LAYERS)] : 0;
        switch (act % 8) {
        case 0: check_status(animrt_runtime_tick(w.rt, w.now += 0.05)); break;
        case 1: check_status(animrt_layer_remove_all_animations(w.rt, layer)); break;
        case 2: {
            animrt_id a = pool_size(&w.p, ANIMATIONS) ? w.p.ids[ANIMATIONS][act % pool_size(&w.p, ANIMATIONS)] : 0, out = 0;
            animrt_status s = animrt_layer_add_animation(w.rt, layer, a, (act & 16) ? "k" : NULL, 0, &out);
            check_status(s);
            if (s == ANIMRT_OK) { track_entry *t = track_find(out, 1); if (t) t->attached = 1; remember(&w.p, INSTANCES, out); }
            break;
        }
        case 3: {
            animrt_event ev[4];
            size_t n = 0;
            animrt_status s = animrt_event_poll(w.rt, ev, 4, &n);
            check_status(s);
            for (size_t i = 0; s == ANIMRT_OK && i < n; i++) track_event(&ev[i]);
            break;
        }
        case 4:
            if (act & 32) {
                animrt_runtime *rt = w.rt;
                w.destroying = 1;
                animrt_runtime_destroy(rt);
                w.destroying = 0;
                w.destroyed_inside = 1;
                runtime_gone();
                /* Still valid until this callback returns: every call is refused. */
                animrt_status s = animrt_runtime_tick(rt, 1e9);
                check_status(s);
                if (s != ANIMRT_E_STATE) fail("a call after destroy, from its callback, was not refused");
            }
            break;
        case 5: {
            animrt_status s = animrt_event_set_callback(w.rt, NULL, NULL);
            check_status(s);
            if (s == ANIMRT_OK) w.callback_mode = 0;  /* the rest waits in the queue */
            break;
        }
        default: break;
        }
    } else if (w.destroying) {
        /* Calls from the callbacks destroy drives are refused. */
        animrt_id out = 0;
        animrt_status s = animrt_layer_create(w.rt, 0, &out);
        check_status(s);
        if (s != ANIMRT_E_STATE || out != 0) fail("a call during destroy was not refused");
    }
    w.depth--;
}

/* The runtime is gone: every attached animation must have stopped once. */
static void runtime_gone(void) {
    if (!w.overflowed && !w.lost_track) {
        for (size_t i = 0; i < TRACK; i++) {
            if (w.track[i].object && w.track[i].attached && !w.track[i].stopped) fail("an attached animation never got STOPPED");
        }
    }
    w.rt = NULL;
}

static void destroy_runtime(void) {
    if (!w.rt) return;
    /* Let the last events reach a callback, so exactly-once can be checked. */
    if (w.callback_mode == 0) { check_status(animrt_event_set_callback(w.rt, on_event, NULL)); w.callback_mode = 1; }
    w.destroying = 1;
    animrt_runtime_destroy(w.rt);
    w.destroying = 0;
    runtime_gone();
}

static void new_runtime(uint32_t capacity) {
    memset(&w, 0, sizeof w);
    animrt_status s = animrt_runtime_create(capacity, &w.rt);
    check_status(s);
    if (s != ANIMRT_OK) { w.rt = NULL; return; }
}

/* Key path ids to pass back, resolved once the program is being recorded
 * (a trace starts from a runtime that has done nothing yet). */
static void seed_keypaths(void) {
    static const char *paths[] = {"opacity", "position", "position.x", "transform", "backgroundColor", "bounds"};
    for (size_t i = 0; w.rt && i < sizeof paths / sizeof *paths; i++)
        if (animrt_keypath_id(w.rt, paths[i], &w.kps[w.nkps]) == ANIMRT_OK) w.nkps++;
}

/* A key path id: mostly one this runtime gave, else any number or another runtime's. */
static animrt_keypath pick_keypath(program *in) {
    uint8_t k = u8(in);
    if (k < 192 && w.nkps > 0) return w.kps[k % w.nkps];
    if (k < 224) return foreign_kp;
    return k & 1 ? (animrt_keypath)(u8(in) % 40) - 4 : (animrt_keypath)(uint32_t)u64(in);
}

/* ---- one step of the program ------------------------------------------------------ */

static void extend(animrt_runtime *rt, program *in);

static void step(program *in) {
    animrt_runtime *rt = w.rt;
    pools *p = &w.p;
    double values[64];
    animrt_id out = 0x5a5a5a5a, ids[8];
    animrt_keypath kps[8];
    size_t n = 0;
    animrt_status s;
    uint8_t op = u8(in);
    for (int i = 0; i < 64; i++) values[i] = 0.25 * i;
    if (u8(in) & 1) for (int i = 0; i < 20; i++) values[i] = pick_double(in);
#define A(kind) pick_id(in, p, &foreign_pools, kind)
#define KEYPATH() pick_keypath(in)
    switch (op % 100) {
    case 0: {
        double d = pick_double(in);
        if (u8(in) & 15) {  /* forwards, by a sane step; otherwise any time at all */
            w.now += isfinite(d) && fabs(d) < 1e6 ? fabs(d) * 0.01 : 0.016;
            d = w.now;
        }
        check_status(animrt_runtime_tick(rt, d));
        break;
    }
    case 1: check_status(animrt_runtime_time(rt, u8(in) % 8 ? &values[0] : NULL)); break;
    case 2: check_status(animrt_runtime_set_threads(rt, u8(in) % 3)); break;
    case 3: {
        animrt_keypath id = 4321;
        s = animrt_keypath_id(rt, pick_string(in), u8(in) % 16 ? &id : NULL);
        check_status(s);
        if (s != ANIMRT_OK && id != 4321) fail("keypath_id wrote its out-parameter on failure");
        if (s == ANIMRT_OK && id != 4321 && w.nkps < 32) w.kps[w.nkps++] = id;
        break;
    }
    case 4: {
        animrt_value_kind kind = ANIMRT_VALUE_SCALAR;
        check_status(animrt_keypath_info(rt, KEYPATH(), &kind, &n));
        break;
    }
    case 5: check_status(animrt_property_define(rt, pick_string(in), (animrt_value_kind)(u8(in) % 8), values, pick_count(in, 17))); break;
    case 6:
    case 7:
        s = animrt_layer_create(rt, u8(in) % 3 ? 0 : A(LAYERS), u8(in) % 32 ? &out : NULL);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, LAYERS, out);
        else if (out != 0x5a5a5a5a) fail("layer_create wrote its out-parameter on failure");
        break;
    case 8: {
        animrt_id l = A(LAYERS);
        s = animrt_layer_destroy(rt, l);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, STALE, l);
        break;
    }
    case 9: check_status(animrt_layer_set_parent(rt, A(LAYERS), u8(in) % 4 ? A(LAYERS) : 0)); break;
    case 10: check_status(animrt_layer_set_timing(rt, A(LAYERS), pick_double(in), pick_double(in), pick_double(in))); break;
    case 11:
        if (u8(in) % 4) { check_status(animrt_layer_set_value(rt, A(LAYERS), KEYPATH(), u8(in) % 16 ? values : NULL, pick_count(in, 17))); break; }
        {   /* many layers at once (a layer may repeat, the count may not match) */
            size_t count = u8(in) % 6;
            for (size_t i = 0; i < count; i++) ids[i] = A(LAYERS);
            check_status(animrt_layer_set_values(rt, u8(in) % 16 ? ids : NULL, u8(in) % 32 ? count : pick_count(in, count), KEYPATH(),
                                                 u8(in) % 16 ? values : NULL, pick_count(in, 33)));
        }
        break;
    case 12:
    case 13: {
        size_t cap = u8(in) % 18;
        for (int i = 0; i < 16; i++) values[i] = NAN;
        s = op % 2 ? animrt_layer_get_value(rt, A(LAYERS), KEYPATH(), values, cap, &n)
                   : animrt_layer_get_presentation(rt, A(LAYERS), KEYPATH(), values, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK) { if (n > 16) fail("a value of more than 16 components"); check_finite(values, n); }
        break;
    }
    case 14: {
        size_t count = u8(in) % 6;
        for (size_t i = 0; i < count; i++) { ids[i] = A(LAYERS); kps[i] = KEYPATH(); }
        s = animrt_reader_create(rt, u8(in) % 16 ? ids : NULL, kps, u8(in) % 32 ? count : pick_count(in, count), &out);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, READERS, out);
        else if (out != 0x5a5a5a5a) fail("reader_create wrote its out-parameter on failure");
        break;
    }
    case 15: {
        for (int i = 0; i < 64; i++) values[i] = NAN;
        size_t cap = u8(in) % 8 ? 64 : u8(in) % 4;
        s = animrt_reader_read(rt, A(READERS), values, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK) { if (n > 64) fail("reader wrote past its capacity"); check_finite(values, n); }
        break;
    }
    case 16: {
        animrt_id r = A(READERS);
        s = animrt_reader_destroy(rt, r);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, STALE, r);
        break;
    }
    case 17:
    case 18:
        s = animrt_animation_create(rt, (animrt_animation_kind)(u8(in) % 6), pick_string(in), &out);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, ANIMATIONS, out);
        else if (out != 0x5a5a5a5a) fail("animation_create wrote its out-parameter on failure");
        break;
    case 19: {
        animrt_id a = A(ANIMATIONS);
        s = animrt_animation_destroy(rt, a);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, STALE, a);
        break;
    }
    case 20:
    case 21: check_status(animrt_animation_set_timing(rt, A(ANIMATIONS), (animrt_timing_param)(u8(in) % 13), pick_double(in))); break;
    case 22: {
        double v = 12345;
        s = animrt_animation_get_timing(rt, A(ANIMATIONS), (animrt_timing_param)(u8(in) % 13), &v);
        check_status(s);
        if (s != ANIMRT_OK && v != 12345) fail("get_timing wrote its out-parameter on failure");
        break;
    }
    case 23: check_status(animrt_animation_set_flag(rt, A(ANIMATIONS), (animrt_flag)(u8(in) % 9), u8(in) % 2)); break;
    case 24: check_status(animrt_animation_set_fill_mode(rt, A(ANIMATIONS), (animrt_fill_mode)(u8(in) % 6))); break;
    case 25: check_status(animrt_animation_set_direction(rt, A(ANIMATIONS), (animrt_direction)(u8(in) % 6))); break;
    case 26: check_status(animrt_animation_set_timing_function(rt, A(ANIMATIONS), pick_string(in))); break;
    case 27: check_status(animrt_animation_set_cubic_bezier(rt, A(ANIMATIONS), pick_double(in), pick_double(in), pick_double(in), pick_double(in))); break;
    case 28:
    case 29: check_status(animrt_animation_set_value(rt, A(ANIMATIONS), (animrt_value_slot)(u8(in) % 4), u8(in) % 16 ? values : NULL, pick_count(in, 17))); break;
    case 30: check_status(animrt_animation_set_spring(rt, A(ANIMATIONS), pick_double(in), pick_double(in), pick_double(in), pick_double(in))); break;
    case 31: {
        double v = 0;
        s = animrt_animation_get_settling_duration(rt, A(ANIMATIONS), &v);
        check_status(s);
        break;
    }
    case 32:
    case 33: check_status(animrt_keyframe_set_values(rt, A(ANIMATIONS), u8(in) % 16 ? values : NULL, pick_count(in, 8), u8(in) % 6)); break;
    case 34: check_status(animrt_keyframe_set_key_times(rt, A(ANIMATIONS), u8(in) % 16 ? values : NULL, pick_count(in, 9))); break;
    case 35: {
        const char *names[4];
        for (int i = 0; i < 4; i++) names[i] = pick_string(in);  /* raw ones share one buffer: the last one wins */
        check_status(animrt_keyframe_set_timing_functions(rt, A(ANIMATIONS), u8(in) % 16 ? names : NULL, pick_count(in, 4)));
        break;
    }
    case 36: check_status(animrt_keyframe_set_calculation_mode(rt, A(ANIMATIONS), (animrt_calculation_mode)(u8(in) % 7))); break;
    case 37: check_status(animrt_keyframe_set_spline(rt, A(ANIMATIONS), u8(in) % 2 ? values : NULL, u8(in) % 2 ? values + 8 : NULL, u8(in) % 2 ? values + 12 : NULL, u8(in) % 9)); break;
    case 38: {
        animrt_id g = u8(in) % 4 ? A(ANIMATIONS) : A(INSTANCES), child = 0x5a5a5a5a;
        check_status(animrt_group_get_count(rt, g, u8(in) % 16 ? &n : NULL));
        s = animrt_group_get_child(rt, g, pick_count(in, 4), u8(in) % 16 ? &child : NULL);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, ANIMATIONS, child);
        else if (child != 0x5a5a5a5a) fail("group_get_child wrote its out-parameter on failure");
        break;
    }
    case 39: check_status(animrt_group_add(rt, A(ANIMATIONS), A(ANIMATIONS))); break;
    case 40:
    case 41:
    case 42: {
        animrt_id inst = 0x5a5a5a5a;
        s = animrt_layer_add_animation(rt, A(LAYERS), A(ANIMATIONS), u8(in) % 2 ? pick_string(in) : NULL,
                                       u8(in) % 4 ? 0 : A(BARRIERS), u8(in) % 16 ? &inst : NULL);
        check_status(s);
        if (s == ANIMRT_OK && inst != 0x5a5a5a5a) {
            track_entry *t = track_find(inst, 1);
            if (t) { if (t->attached) fail("an attached animation's handle was handed out twice"); t->attached = 1; }
            remember(p, INSTANCES, inst);
        } else if (s != ANIMRT_OK && inst != 0x5a5a5a5a) fail("add_animation wrote its out-parameter on failure");
        break;
    }
    case 43: {
        int removed = 7;
        check_status(animrt_layer_remove_animation(rt, A(LAYERS), pick_string(in), u8(in) % 2 ? &removed : NULL));
        break;
    }
    case 44: check_status(animrt_layer_remove_all_animations(rt, A(LAYERS))); break;
    case 45: check_status(animrt_layer_animation_count(rt, A(LAYERS), u8(in) % 16 ? &n : NULL)); break;
    case 46: {
        char buf[300];
        size_t cap = u8(in) % 2 ? sizeof buf : u8(in) % 8;
        s = animrt_layer_animation_key(rt, A(LAYERS), pick_count(in, 20), u8(in) % 16 ? buf : NULL, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK && (n > cap || strlen(buf) + 1 != n)) fail("animation_key's needed size is wrong");
        break;
    }
    case 47:
        s = animrt_barrier_create(rt, &out);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, BARRIERS, out);
        break;
    case 48: {
        animrt_id b = A(BARRIERS);
        s = animrt_barrier_destroy(rt, b);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, STALE, b);
        break;
    }
    case 49: check_status(u8(in) % 2 ? animrt_barrier_enter(rt, A(BARRIERS)) : animrt_barrier_leave(rt, A(BARRIERS))); break;
    case 50: check_status(animrt_barrier_notify(rt, A(BARRIERS), u64(in))); break;
    case 51: check_status(animrt_barrier_count(rt, A(BARRIERS), u8(in) % 16 ? &n : NULL)); break;
    case 52:
        switch (u8(in) % 3) {
        case 0: check_status(animrt_transaction_begin(rt, pick_double(in))); break;
        case 1: check_status(animrt_transaction_commit(rt, u64(in))); break;
        default:
            s = animrt_transaction_current(rt, &out);
            check_status(s);
            if (s != ANIMRT_OK && out != 0x5a5a5a5a) fail("transaction_current wrote its out-parameter on failure");
        }
        break;
    case 53:
        s = animrt_timer_start(rt, pick_double(in), u64(in), &out);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, TIMERS, out);
        break;
    case 54:
        if (u8(in) % 2) { check_status(animrt_timer_cancel(rt, A(TIMERS))); break; }
        {
            int pending = 0x5a;
            s = animrt_timer_pending(rt, A(TIMERS), u8(in) % 16 ? &pending : NULL);
            check_status(s);
            if (s == ANIMRT_OK && pending != 0 && pending != 1) fail("timer_pending wrote neither 0 nor 1");
            if (s != ANIMRT_OK && pending != 0x5a) fail("timer_pending wrote its out-parameter on failure");
        }
        break;
    case 55: {
        animrt_event ev[16];
        size_t cap = u8(in) % 17;
        s = animrt_event_poll(rt, u8(in) % 16 ? ev : NULL, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK) { if (n > cap) fail("poll returned more than asked"); for (size_t i = 0; i < n; i++) track_event(&ev[i]); }
        break;
    }
    case 56: {
        uint8_t mode = u8(in) % 3;
        s = animrt_event_set_callback(rt, mode ? on_event : NULL, NULL);
        check_status(s);
        if (s == ANIMRT_OK) {
            w.callback_mode = mode;
            for (size_t i = 0; i < sizeof w.script; i++) w.script[i] = u8(in);
            w.script_pos = 0;
        }
        break;
    }
    /* ---- machines ---- */
    case 58:
    case 59: {
        switch (u8(in) % 4) {
        case 0: s = animrt_definition_load_file(rt, u8(in) % 2 ? "examples/machines/download_button.json" : pick_string(in), &out); break;
        case 1: s = animrt_definition_load_named(rt, u8(in) % 2 ? "button" : pick_string(in), &out); break;
        default: s = animrt_definition_load(rt, pick_definition(in), &out); break;
        }
        check_status(s);
        if (s == ANIMRT_OK) remember(p, DEFINITIONS, out);
        else if (out != 0x5a5a5a5a) fail("definition_load wrote its out-parameter on failure");
        break;
    }
    case 60: check_status(animrt_definition_register(rt, u8(in) % 2 ? "button" : pick_string(in), pick_definition(in))); break;
    case 61: {
        animrt_id d = A(DEFINITIONS);
        s = animrt_definition_destroy(rt, d);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, STALE, d);
        break;
    }
    case 62: {
        int32_t id = 777;
        s = animrt_definition_id(rt, A(DEFINITIONS), (animrt_name_kind)(u8(in) % 9), pick_string(in), &id);
        check_status(s);
        if (s != ANIMRT_OK && id != 777) fail("definition_id wrote its out-parameter on failure");
        break;
    }
    case 63:
    case 64: {
        char buf[300];
        size_t cap = u8(in) % 2 ? sizeof buf : u8(in) % 8;
        animrt_id d = A(DEFINITIONS);
        animrt_name_kind kind = (animrt_name_kind)(u8(in) % 9);
        int32_t id = (int32_t)(u8(in) % 12) - 2;
        switch (u8(in) % 4) {
        case 0: s = animrt_definition_name(rt, d, kind, id, u8(in) % 16 ? buf : NULL, cap, &n); break;
        case 1: s = animrt_definition_count(rt, d, kind, &n); break;
        case 2: s = animrt_definition_field_count(rt, d, kind, id, &n); break;
        default: s = animrt_definition_field_name(rt, d, kind, id, pick_count(in, 6), u8(in) % 16 ? buf : NULL, cap, &n); break;
        }
        check_status(s);
        break;
    }
    case 65: {
        static char page[1 << 16];
        size_t cap = u8(in) % 4 ? sizeof page : u8(in);
        s = animrt_definition_export(rt, A(DEFINITIONS), (animrt_export_format)(u8(in) % 3), page, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK && (n > cap || strlen(page) + 1 != n)) fail("definition_export's needed size is wrong");
        break;
    }
    case 66:
    case 67: {
        static const char *const options[] = {"{\"config\": {\"width\": 200}}", "{\"config\": {\"spinSeconds\": 70}}", "{}", "{\"locale\": \"fr\"}", "[", "{\"maxMicrosteps\": 0}"};
        const char *o = u8(in) % 3 ? NULL : (u8(in) % 2 ? options[u8(in) % 6] : pick_string(in));
        s = animrt_machine_create(rt, A(DEFINITIONS), u8(in) % 3 ? 0 : A(LAYERS), o, &out);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, MACHINES, out);
        else if (out != 0x5a5a5a5a) fail("machine_create wrote its out-parameter on failure");
        break;
    }
    case 68: {
        animrt_id m = A(MACHINES);
        s = animrt_machine_destroy(rt, m);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, STALE, m);
        break;
    }
    case 69:
    case 70: {
        animrt_value payload[3];
        for (int i = 0; i < 3; i++) {
            memset(&payload[i], 0, sizeof payload[i]);
            payload[i].type = (int32_t)(u8(in) % 7);
            payload[i].number = pick_double(in);
            payload[i].integer = (int64_t)u64(in);
            payload[i].boolean = u8(in) % 3;
            payload[i].string = u8(in) % 4 ? dictionary[u8(in) % DICT] : NULL;
        }
        animrt_send_outcome outcome = ANIMRT_SEND_TAKEN;
        s = animrt_machine_send(rt, A(MACHINES), (int32_t)(u8(in) % 8) - 1, u8(in) % 16 ? payload : NULL, pick_count(in, 3),
                                u8(in) % 8 ? &outcome : NULL);
        check_status(s);
        break;
    }
    case 71: {
        static const char *const events[] = {"tap", "progress", "finished", "cancel", "go", "error.execution", "tpa"};
        static const char *const payloads[] = {"{\"fraction\": 0.5}", "{\"fraction\": 2}", "{\"ok\": true}", "{\"fraction\": \"a\"}", "{", "[]", "{\"fraction\": 1e400}"};
        animrt_send_outcome outcome = ANIMRT_SEND_TAKEN;
        s = animrt_machine_send_json(rt, A(MACHINES), u8(in) % 4 ? events[u8(in) % 7] : pick_string(in),
                                     u8(in) % 3 ? payloads[u8(in) % 7] : NULL, &outcome);
        check_status(s);
        break;
    }
    case 72: {
        int32_t state = -5;
        int in_state = 7;
        s = u8(in) % 2 ? animrt_machine_state(rt, A(MACHINES), &state)
                       : animrt_machine_in_state(rt, A(MACHINES), (int32_t)(u8(in) % 8) - 1, &in_state);
        check_status(s);
        break;
    }
    case 73: {
        animrt_value v;
        char buf[64];
        size_t cap = u8(in) % 2 ? sizeof buf : u8(in) % 4;
        s = animrt_machine_get(rt, A(MACHINES), (int32_t)(u8(in) % 6) - 1, &v, u8(in) % 8 ? buf : NULL, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK && v.type == ANIMRT_TYPE_NUMBER && !isfinite(v.number)) fail("a context number that is not finite");
        break;
    }
    case 74:
        if (u8(in) % 4 == 0) {
            check_status(animrt_machine_part_count(rt, A(MACHINES), u8(in) % 2 ? "button" : pick_string(in),
                                                   u8(in) % 16 ? &n : NULL));
            break;
        }
        s = animrt_machine_part(rt, A(MACHINES), u8(in) % 2 ? "button" : pick_string(in), &out);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, LAYERS, out);
        break;
    case 75: {
        size_t cap = u8(in) % 8 ? sizeof w.snapshot : u8(in);
        s = animrt_machine_snapshot(rt, A(MACHINES), u8(in) % 16 ? w.snapshot : NULL, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK && (n > cap || strlen(w.snapshot) + 1 != n)) fail("machine_snapshot's needed size is wrong");
        break;
    }
    case 76: {
        /* The last snapshot as taken, or with a few bytes changed (numbers
         * become negative, huge or malformed; names change). */
        static char copy[sizeof w.snapshot];
        memcpy(copy, w.snapshot, sizeof copy);
        size_t len = strlen(copy);
        if (len > 0 && u8(in) % 2) {
            static const char edits[] = "-9e0.\"x}]";
            for (int k = u8(in) % 4 + 1; k > 0; k--) copy[((size_t)u8(in) * 256 + u8(in)) % len] = edits[u8(in) % (sizeof edits - 1)];
        }
        s = animrt_machine_restore(rt, len ? copy : pick_definition(in), u8(in) % 3 ? 0 : A(LAYERS), &out);
        check_status(s);
        if (s == ANIMRT_OK) remember(p, MACHINES, out);
        else if (out != 0x5a5a5a5a) fail("machine_restore wrote its out-parameter on failure");
        break;
    }
    /* ---- springs, decays, paths, layer timing, getters, retargeting ---- */
    case 77:
        check_status(u8(in) % 2 ? animrt_animation_set_spring_response(rt, A(ANIMATIONS), pick_double(in), pick_double(in))
                                : animrt_animation_set_spring_perceptual(rt, A(ANIMATIONS), pick_double(in), pick_double(in)));
        break;
    case 78: {
        double v = 0;
        s = animrt_animation_get_spring_param(rt, A(ANIMATIONS), (animrt_spring_param)(u8(in) % 11), u8(in) % 16 ? &v : NULL);
        check_status(s);
        break;
    }
    case 79: {
        double rate = 0, rest = 0;
        if (u8(in) % 2) check_status(animrt_animation_set_decay(rt, A(ANIMATIONS), pick_double(in), pick_double(in)));
        else check_status(animrt_animation_get_decay(rt, A(ANIMATIONS), u8(in) % 4 ? &rate : NULL, u8(in) % 4 ? &rest : NULL));
        break;
    }
    case 80:
    case 81: {
        int32_t commands[12];
        size_t count = u8(in) % 13;
        for (size_t i = 0; i < count; i++) commands[i] = (int32_t)(u8(in) % 7) - 1;
        if (count > 0 && u8(in) % 2) commands[0] = ANIMRT_PATH_MOVE;
        check_status(animrt_keyframe_set_path(rt, A(ANIMATIONS), u8(in) % 16 ? commands : NULL, pick_count(in, count),
                                              u8(in) % 16 ? values : NULL, pick_count(in, 40)));
        break;
    }
    case 82: {
        int32_t commands[8];
        size_t nc = 0, np = 0;
        s = animrt_keyframe_get_path(rt, A(ANIMATIONS), commands, u8(in) % 9, &nc, values, u8(in) % 65, &np);
        check_status(s);
        if (s == ANIMRT_OK) check_finite(values, np);
        break;
    }
    case 83: {
        animrt_rotation_mode mode = ANIMRT_ROTATE_NONE;
        if (u8(in) % 2) check_status(animrt_keyframe_set_rotation_mode(rt, A(ANIMATIONS), (animrt_rotation_mode)(u8(in) % 5)));
        else check_status(animrt_keyframe_get_rotation_mode(rt, A(ANIMATIONS), &mode));
        break;
    }
    case 84: {
        double v = 0;
        if (u8(in) % 2) check_status(animrt_layer_set_timing_param(rt, A(LAYERS), (animrt_timing_param)(u8(in) % 13), pick_double(in)));
        else check_status(animrt_layer_get_timing_param(rt, A(LAYERS), (animrt_timing_param)(u8(in) % 13), &v));
        break;
    }
    case 85:
        switch (u8(in) % 3) {
        case 0: check_status(animrt_layer_set_fill_mode(rt, A(LAYERS), (animrt_fill_mode)(u8(in) % 6))); break;
        case 1: check_status(animrt_layer_set_direction(rt, A(LAYERS), (animrt_direction)(u8(in) % 6))); break;
        default: check_status(animrt_layer_set_autoreverses(rt, A(LAYERS), u8(in) % 2)); break;
        }
        break;
    case 86: {
        double v = 0;
        s = animrt_layer_convert_time(rt, pick_double(in), u8(in) % 3 ? A(LAYERS) : 0, u8(in) % 3 ? A(LAYERS) : 0, &v);
        check_status(s);
        break;
    }
    case 87: {
        animrt_id inst = 0x5a5a5a5a;
        s = animrt_layer_animation_for_key(rt, A(LAYERS), pick_string(in), &inst);
        check_status(s);
        if (s != ANIMRT_OK && inst != 0x5a5a5a5a) fail("animation_for_key wrote its out-parameter on failure");
        break;
    }
    case 88: {
        animrt_animation_kind kind = ANIMRT_ANIMATION_BASIC;
        animrt_fill_mode fill = ANIMRT_FILL_REMOVED;
        animrt_direction direction = ANIMRT_DIRECTION_NORMAL;
        int flag = 0;
        animrt_id a = A(ANIMATIONS);
        switch (u8(in) % 4) {
        case 0: check_status(animrt_animation_get_kind(rt, a, &kind)); break;
        case 1: check_status(animrt_animation_get_flag(rt, a, (animrt_flag)(u8(in) % 9), &flag)); break;
        case 2: check_status(animrt_animation_get_fill_mode(rt, a, &fill)); break;
        default: check_status(animrt_animation_get_direction(rt, a, &direction)); break;
        }
        break;
    }
    case 89:
    case 90: {
        char buf[300];
        size_t cap = u8(in) % 2 ? sizeof buf : u8(in) % 8;
        s = u8(in) % 2 ? animrt_animation_get_key_path(rt, A(ANIMATIONS), u8(in) % 16 ? buf : NULL, cap, &n)
                       : animrt_animation_get_timing_function(rt, A(ANIMATIONS), u8(in) % 16 ? buf : NULL, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK && (n > cap || strlen(buf) + 1 != n)) fail("a string getter's needed size is wrong");
        break;
    }
    case 91:
    case 92: {
        for (int i = 0; i < 64; i++) values[i] = NAN;
        size_t cap = u8(in) % 65;
        switch (u8(in) % 3) {
        case 0: s = animrt_animation_get_value(rt, A(ANIMATIONS), (animrt_value_slot)(u8(in) % 4), values, cap, &n); break;
        case 1: s = animrt_keyframe_get_values(rt, A(ANIMATIONS), values, cap, &n); break;
        default: s = animrt_keyframe_get_key_times(rt, A(ANIMATIONS), values, cap, &n); break;
        }
        check_status(s);
        if (s == ANIMRT_OK) { if (n > cap) fail("a getter wrote past its capacity"); check_finite(values, n); }
        break;
    }
    case 93: {
        animrt_lifecycle l = (animrt_lifecycle)99;
        s = animrt_animation_get_lifecycle(rt, A(INSTANCES), u8(in) % 16 ? &l : NULL);
        check_status(s);
        if (s == ANIMRT_OK && (unsigned)l > ANIMRT_LIFECYCLE_FINISHED) fail("a lifecycle outside animrt_lifecycle");
        break;
    }
    case 94: {
        animrt_computed_timing t;
        s = animrt_animation_get_computed_timing(rt, A(INSTANCES), u8(in) % 16 ? &t : NULL);
        check_status(s);
        /* NaN means "not in effect" there; infinite durations are real (repeat forever). */
        if (s == ANIMRT_OK && (isinf(t.progress) || isinf(t.local_time))) fail("computed timing with an infinite progress or time");
        break;
    }
    case 95:
    case 96: {
        for (int i = 0; i < 16; i++) values[i] = NAN;
        size_t cap = u8(in) % 17;
        s = animrt_animation_get_velocity(rt, A(INSTANCES), u8(in) % 2 ? NULL : pick_string(in), values, cap, &n);
        check_status(s);
        if (s == ANIMRT_OK) { if (n > cap) fail("velocity wrote past its capacity"); check_finite(values, n); }
        break;
    }
    case 97:
    case 98: check_status(animrt_animation_retarget(rt, A(INSTANCES), u8(in) % 16 ? values : NULL, pick_count(in, 17))); break;
    default: {
        uint8_t which = u8(in);
        if (which % 4 == 1) {  /* many layers at once */
            size_t count = pick_count(in, 8);
            s = animrt_layer_create_many(rt, u8(in) % 3 ? 0 : A(LAYERS), count, u8(in) % 16 ? ids : NULL);
            check_status(s);
            if (s == ANIMRT_OK) for (size_t i = 0; i < count; i++) remember(p, LAYERS, ids[i]);
            break;
        }
        if (which % 4 == 2) {  /* one description to many layers, with columns of any field and value */
            size_t count = u8(in) % 5, m = u8(in) % 4;  /* values: 64 doubles, 4 animations of up to 16 components */
            animrt_column columns[4];
            for (size_t i = 0; i < count; i++) ids[i] = A(LAYERS);
            for (size_t c = 0; c < m; c++) {
                columns[c].field = (animrt_column_field)(u8(in) % 24);
                columns[c].values = u8(in) % 16 ? values : NULL;
            }
            animrt_id handles[8];
            s = animrt_layer_add_animations(rt, A(ANIMATIONS), u8(in) % 16 ? ids : NULL, u8(in) % 32 ? count : pick_count(in, count),
                                            u8(in) % 16 ? columns : NULL, m, u8(in) % 2 ? pick_string(in) : NULL,
                                            u8(in) % 4 ? 0 : A(BARRIERS), u8(in) % 2 ? handles : NULL);
            check_status(s);
            break;
        }
        double v = 0;
        s = animrt_timing_function_evaluate(rt, pick_string(in), pick_double(in), u8(in) % 16 ? &v : NULL);
        check_status(s);
        animrt_status_name((animrt_status)(int8_t)u8(in));
        if (u8(in) % 2) extend(rt, in);
        break;
    }
    }
#undef A
#undef KEYPATH
}

/* ---- extending: bound and registered functions ------------------------------------ */

static const char *const signatures[] = {
    "f64(f64)", "f64(f64, f64)", "i32(i32)", "u64(str)", "str(str)", "void()", "void(u32)", "bool(f64, f64)",
    "i8(i32)", "ptr(ptr)", "f64(f64,", "f64(f65)", "double(double)", "f64(void)", "", "f64 (f64) x",
    "void(f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64)"};
static const char *const symbols[] = {"pow", "sqrt", "abs", "strlen", "getenv", "srand", "toupper", "nowhere", ""};
static const char *const curve_names[] = {
    "wobble", "wobble(0.5)", "wobble(-1)", "wobble(2)", "wobble(1e308)", "wobble(nan)", "wobble(inf)", "wobble(,)",
    "wobble(1, 2, 3, 4, 5, 6, 7, 8, 9)", "wobble(", "wobble()", "root", "root(1)", "w2", "steps", "cubic-bezier"};
#define PICK(table) (table[u8(in) % (sizeof table / sizeof *table)])

/* A host curve: its parameters shape it, whatever they are. */
static double wobble(double x, const double *params, void *user) {
    (void)user;
    return x + params[0] * x * (1 - x);
}

/* The same curve over arrays, as a block timing function. */
static void wobble_block(const double *x, double *y, size_t count, const double *params, void *user) {
    (void)user;
    for (size_t i = 0; i < count; i++) y[i] = x[i] + params[0] * x[i] * (1 - x[i]);
}

/* A host function answering with its declared type, or failing. */
static animrt_status echo(void *user, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user;
    if (count > 0 && args[0].type == ANIMRT_TYPE_NUMBER && args[0].number < 0)
        return animrt_error_set(ANIMRT_E_RANGE, "echo refuses negative numbers");
    result->number = 1; result->integer = 1; result->boolean = 1; result->string = "echo"; result->pointer = NULL;
    return ANIMRT_OK;
}

/* The plugin loaded last (by any program): its handle is stale in later runtimes. */
static animrt_id plugin_id;

static void extend(animrt_runtime *rt, program *in) {
    switch (u8(in) % 6) {
    case 0: {
        const char *lib = u8(in) % 2 ? "libm.so.6" : (u8(in) % 4 ? NULL : "libnowhere.so");
        if (u8(in) % 3) check_status(animrt_function_bind(rt, lib, PICK(symbols), PICK(signatures), pick_string(in)));
        else check_status(animrt_timing_function_bind(rt, lib, PICK(symbols), PICK(signatures), u8(in) % 2 ? "root" : NULL));
        break;
    }
    case 1: {
        double defaults[10], lo[10], hi[10];
        for (int i = 0; i < 10; i++) { defaults[i] = pick_double(in); lo[i] = pick_double(in); hi[i] = pick_double(in); }
        const char *name = u8(in) % 2 ? "wobble" : pick_string(in);
        int present = u8(in) % 8, block = u8(in) % 2;
        size_t count = pick_count(in, 10);
        const double *d = u8(in) % 8 ? defaults : NULL, *l = u8(in) % 2 ? lo : NULL, *h = u8(in) % 2 ? hi : NULL;
        if (block) check_status(animrt_timing_function_register_block(rt, name, present ? wobble_block : NULL, NULL, count, d, l, h));
        else check_status(animrt_timing_function_register(rt, name, present ? wobble : NULL, NULL, count, d, l, h));
        break;
    }
    case 2:
        check_status(animrt_function_register(rt, u8(in) % 2 ? "echo" : pick_string(in), PICK(signatures),
                                              u8(in) % 8 ? echo : NULL, NULL));
        break;
    case 3: {
        animrt_value args[17], result;
        char buf[16];
        size_t needed = 0, n = pick_count(in, 17);
        for (size_t i = 0; i < 17; i++) {
            memset(&args[i], 0, sizeof args[i]);
            args[i].type = u8(in) % 7;
            args[i].number = pick_double(in);
            args[i].integer = (int64_t)u64(in);
            args[i].boolean = u8(in);
            args[i].string = u8(in) % 4 ? dictionary[u8(in) % DICT] : NULL;
        }
        static const char *const callables[] = {"echo", "pow", "sqrt", "abs", "iabs", "strlen", "getenv", "nowhere"};
        check_status(animrt_function_call(rt, PICK(callables), u8(in) % 8 ? args : NULL, n, u8(in) % 8 ? &result : NULL,
                                          u8(in) % 2 ? buf : NULL, pick_count(in, sizeof buf), &needed));
        break;
    }
    case 4: {
        /* Plugins (built by make plugins; missing ones are refused like any bad path): the example, faulty
         * ones, a file that is not a shared library, nothing there, hostile names; then its name and unload. */
        static const char *const paths[] = {".build/c/libexamples.so", ".build/c/libfaulty_init.so",
                                            ".build/c/libfaulty_old.so", ".build/c/libfaulty_duplicate.so",
                                            ".build/c/libfaulty_noentry.so", "include/animrt.h", "/nonexistent/lib.so"};
        animrt_id id = 0;
        animrt_status s = animrt_plugin_load(rt, u8(in) % 8 ? PICK(paths) : (u8(in) % 2 ? NULL : pick_string(in)),
                                             u8(in) % 16 ? &id : NULL);
        check_status(s);
        if (s == ANIMRT_OK) plugin_id = id;
        animrt_id target = u8(in) % 4 ? plugin_id : u64(in);
        char name[16];
        size_t needed = 0;
        check_status(animrt_plugin_name(rt, target, u8(in) % 8 ? name : NULL, pick_count(in, sizeof name), &needed));
        check_status(animrt_plugin_version(rt, target, u8(in) % 8 ? name : NULL, pick_count(in, sizeof name), &needed));
        if (u8(in) % 2) check_status(animrt_plugin_unload(rt, target));
        break;
    }
    default: {
        double v = 0;
        check_status(animrt_timing_function_evaluate(rt, PICK(curve_names), pick_double(in), &v));
        if (isnan(v)) fail("a timing function evaluated to NaN");
        break;
    }
    }
}

/* ---- libFuzzer entry points ------------------------------------------------------------ */

static void report(void) {
    fprintf(stderr, "fuzz_abi: %llu programs, %llu ABI calls (%llu returned ANIMRT_OK), every promise kept\n",
            executions, calls, ok_calls);
}

/* The runtime the programs name foreign handles from lives until exit and
 * is destroyed then, like every other runtime: what it holds is freed, and
 * LeakSanitizer sees no block that only a Swift enum's tagged pointer (which
 * it cannot read as an address) still refers to. */
static void destroy_foreign(void) { animrt_runtime_destroy(foreign_rt); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc; (void)argv;
    atexit(report);
    trace = getenv("FUZZ_TRACE") != NULL;
    FILE *f = fopen("examples/machines/download_button.json", "r");
    if (f) { size_t n = fread(example, 1, sizeof example - 1, f); example[n] = 0; fclose(f); }
    if (animrt_runtime_create(0, &foreign_rt) != ANIMRT_OK) abort();
    atexit(destroy_foreign);
    if (animrt_keypath_id(foreign_rt, "opacity", &foreign_kp) != ANIMRT_OK) abort();
    for (int i = 0; i < 4; i++) {
        animrt_id id = 0;
        animrt_layer_create(foreign_rt, 0, &id); remember(&foreign_pools, LAYERS, id);
        animrt_animation_create(foreign_rt, ANIMRT_ANIMATION_BASIC, "opacity", &id); remember(&foreign_pools, ANIMATIONS, id);
        animrt_barrier_create(foreign_rt, &id); remember(&foreign_pools, BARRIERS, id);
    }
    return 0;
}

/* A recorded program must replay: every call it recorded succeeds again with
 * the same event digests and presentation values. */
static char trace_path[64];

static void check_replay(void) {
    animrt_runtime *again = NULL;
    size_t calls = 0;
    if (animrt_runtime_create(0, &again) != ANIMRT_OK) return;
    animrt_status s = animrt_trace_replay(again, trace_path, &calls);
    if (s != ANIMRT_OK) {
        fprintf(stderr, "replay after %zu calls: %s\n", calls, animrt_last_error_message());
        fail("a recorded program does not replay");
    }
    animrt_runtime_destroy(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    program in = {data, size};
    executions++;
    uint8_t capacity = u8(&in);
    new_runtime(capacity < 128 ? (uint32_t)capacity % 9 : capacity < 250 ? 0 : (uint32_t)ANIMRT_EVENT_CAPACITY_MAX + capacity);
    /* One program in eight is recorded, then replayed (and the trace calls
     * themselves get hostile arguments now and then). */
    int recording = w.rt && (capacity & 7) == 3;
    if (!trace_path[0]) snprintf(trace_path, sizeof trace_path, "/tmp/animrt-fuzz-%ld.trace", (long)getpid());
    if (recording) check_status(animrt_trace_start(w.rt, trace_path));
    else if (w.rt && (capacity & 63) == 5) {
        check_status(animrt_trace_start(w.rt, NULL));
        check_status(animrt_trace_stop(w.rt));
        check_status(animrt_trace_replay(w.rt, "/nonexistent/trace", NULL));
    }
    seed_keypaths();
    for (int steps = 0; w.rt && in.n > 0 && steps < 400; steps++) {
        step(&in);
        if (w.rt == NULL && in.n > 0) {  /* destroyed from a callback: go on with a fresh one */
            if (recording) { check_replay(); recording = 0; }
            new_runtime(0);
            seed_keypaths();
        }
    }
    if (recording && w.rt) check_status(animrt_trace_stop(w.rt));
    destroy_runtime();
    if (recording) check_replay();
    animrt_runtime_destroy(NULL);
    if (animrt_version() != ANIMRT_VERSION_NUMBER || !animrt_version_string()) fail("version");
    return 0;
}
