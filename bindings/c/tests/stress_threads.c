/* Four threads on one runtime with an event callback set: a million mixed
 * calls (make tsan runs it under ThreadSanitizer, against a library built
 * with it). Checks the delivery rules of animrt.h: the callback is never
 * entered by two threads at once; every attached animation gets at most
 * one STARTED, before exactly one STOPPED; nothing arrives after
 * animrt_runtime_destroy() returns.
 *
 * First, a batch split across the runtime's evaluation threads must equal a
 * one-thread runtime's values to the bit (and race with nothing).
 *
 *   stress_threads [calls per thread]   (default 250 000) */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "animrt.h"

enum { THREADS = 4, SHARED_LAYERS = 32, TRACK = 1 << 21 };

static animrt_runtime *rt;
static animrt_id shared_layers[SHARED_LAYERS], reader;
static animrt_keypath opacity, position_x;
static long clock_ticks;
static long total_calls, ok_calls, events;
static int inside, concurrent, after_destroy, destroyed, problems;

/* Lifecycle per attached animation, written only by the deliverer (one
 * thread at a time, handed over under the runtime's lock). */
typedef struct { animrt_id object; unsigned char started, stopped; } entry;
static entry *track;
static long tracked;

static entry *find(animrt_id object) {
    size_t i = (size_t)(object * 0x9E3779B97F4A7C15ULL >> 40) & (TRACK - 1);
    while (track[i].object != 0 && track[i].object != object) i = (i + 1) & (TRACK - 1);
    if (track[i].object == 0) { track[i].object = object; tracked++; }
    return &track[i];
}

static void problem(const char *what, animrt_id object) {
    if (__atomic_add_fetch(&problems, 1, __ATOMIC_SEQ_CST) <= 10) fprintf(stderr, "PROBLEM: %s (%llu)\n", what, (unsigned long long)object);
}

/* Animations added from the callback (serialised: one deliverer). */
static animrt_id *from_callback;
static long from_callback_n;

static animrt_id basic(double from, double to, double duration, int on_x) {
    animrt_id a = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, on_x ? "position.x" : "opacity", &a);
    animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1);
    animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, duration);
    return a;
}

static void on_event(void *user, const animrt_event *e) {
    (void)user;
    if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1) __atomic_add_fetch(&concurrent, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&destroyed, __ATOMIC_SEQ_CST)) __atomic_add_fetch(&after_destroy, 1, __ATOMIC_SEQ_CST);
    events++;
    if (e->type == ANIMRT_EVENT_OVERFLOW) problem("the event queue overflowed", e->token);
    if (e->type == ANIMRT_EVENT_ANIMATION_STARTED) {
        entry *t = find(e->object);
        if (t->started || t->stopped) problem("STARTED twice or after STOPPED", e->object);
        t->started = 1;
        if ((e->object & 31) == 0) {  /* a nested tick: its events queue behind these */
            double now = __atomic_fetch_add(&clock_ticks, 1, __ATOMIC_SEQ_CST) * 0.001;
            animrt_status s = animrt_runtime_tick(rt, now);
            if (s != ANIMRT_OK && s != ANIMRT_E_TIME && s != ANIMRT_E_STATE) problem("nested tick failed", (animrt_id)s);
        }
    } else if (e->type == ANIMRT_EVENT_ANIMATION_STOPPED) {
        entry *t = find(e->object);
        if (t->stopped) problem("STOPPED twice", e->object);
        t->stopped = 1;
        if (e->reason == ANIMRT_STOP_FINISHED && (e->object & 15) == 0 && from_callback_n < 100000) {
            animrt_id a = basic(0, 1, 0.01, 0), inst = 0;
            if (animrt_layer_add_animation(rt, e->layer, a, NULL, 0, &inst) == ANIMRT_OK) from_callback[from_callback_n++] = inst;
            animrt_animation_destroy(rt, a);
        }
    }
    __atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
}

typedef struct { int id; long calls; animrt_id *added; long added_n; unsigned long long seed; } worker;

static unsigned rnd(worker *w) {
    w->seed = w->seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(w->seed >> 33);
}

static void *run(void *p) {
    worker *w = p;
    animrt_id own = 0, barrier = 0, descriptions[4];
    animrt_layer_create(rt, 0, &own);
    animrt_barrier_create(rt, &barrier);
    for (int i = 0; i < 4; i++) descriptions[i] = basic(0, 10 + i, 0.005 * (i + 1), i % 2);
    long ok = 0;
    for (long i = 0; i < w->calls; i++) {
        animrt_status s = ANIMRT_OK;
        animrt_id layer = rnd(w) % 4 ? shared_layers[rnd(w) % SHARED_LAYERS] : own;
        double v[2];
        size_t n;
        switch (rnd(w) % 16) {
        case 0: case 1: case 2: {
            animrt_id inst = 0;
            s = animrt_layer_add_animation(rt, layer, descriptions[rnd(w) % 4], rnd(w) % 2 ? "k" : NULL, rnd(w) % 8 ? 0 : barrier, &inst);
            if (s == ANIMRT_OK) w->added[w->added_n++] = inst;
            break;
        }
        case 3: s = animrt_layer_remove_animation(rt, layer, "k", NULL); break;
        case 4: case 5: case 6: {
            double now = __atomic_fetch_add(&clock_ticks, 1, __ATOMIC_SEQ_CST) * 0.001;
            s = animrt_runtime_tick(rt, now);
            if (s == ANIMRT_E_TIME) s = ANIMRT_OK;  /* another thread ticked later first */
            break;
        }
        case 7: case 8: s = animrt_layer_get_presentation(rt, layer, rnd(w) % 2 ? opacity : position_x, v, 2, &n); break;
        case 9: {
            double out[SHARED_LAYERS];
            s = animrt_reader_read(rt, reader, out, SHARED_LAYERS, &n);
            break;
        }
        case 10: v[0] = rnd(w) % 100; s = animrt_layer_set_value(rt, layer, position_x, v, 1); break;
        case 11: s = animrt_barrier_enter(rt, barrier); if (s == ANIMRT_OK) s = animrt_barrier_leave(rt, barrier); break;
        case 12: s = animrt_barrier_notify(rt, barrier, (uint64_t)i); break;
        case 13: {
            animrt_id timer = 0;
            s = animrt_timer_start(rt, 0.002, (uint64_t)i, &timer);
            if (s == ANIMRT_OK && rnd(w) % 2) {
                s = animrt_timer_cancel(rt, timer);
                if (s == ANIMRT_E_HANDLE) s = ANIMRT_OK;  /* another thread's tick fired it first */
            }
            break;
        }
        case 14: {
            /* A scratch layer of this thread: create, animate, destroy. */
            animrt_id scratch = 0, inst = 0;
            s = animrt_layer_create(rt, own, &scratch);
            if (s == ANIMRT_OK) s = animrt_layer_add_animation(rt, scratch, descriptions[0], NULL, 0, &inst);
            if (s == ANIMRT_OK) { w->added[w->added_n++] = inst; s = animrt_layer_destroy(rt, scratch); }
            break;
        }
        default: s = animrt_layer_remove_all_animations(rt, rnd(w) % 8 ? own : layer); break;
        }
        if (s == ANIMRT_OK) ok++;
        else problem(animrt_last_error_message(), (animrt_id)s);
    }
    __atomic_add_fetch(&total_calls, w->calls, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&ok_calls, ok, __ATOMIC_SEQ_CST);
    return NULL;
}

/* The batch split across evaluation threads (the runtime's own workers,
 * each running a share of the lanes, C curves among them, one called per
 * value and one per run of animations): under
 * ThreadSanitizer no race, and the values equal a one-thread runtime's to
 * the bit. */
enum { CURVES = 4, BATCH = CURVES * 70000, FRAMES = 6 };

static double wobble(double x, const double *params, void *user) {
    (void)params; (void)user;
    return x * x * (3 - 2 * x);
}

static void wobble_block(const double *x, double *y, size_t count, const double *params, void *user) {
    for (size_t i = 0; i < count; i++) y[i] = wobble(x[i], params, user);
}

static void batch_scene(animrt_runtime *r, int threads, double *out) {
    static animrt_id layers[BATCH];
    static double durations[BATCH];
    animrt_runtime_set_threads(r, (uint32_t)threads);
    animrt_timing_function_register(r, "wobble", wobble, NULL, 0, NULL, NULL, NULL);
    animrt_timing_function_register_block(r, "wobbleBlock", wobble_block, NULL, 0, NULL, NULL, NULL);
    animrt_layer_create_many(r, 0, BATCH, layers);
    const char *curves[CURVES] = {"easeInEaseOut", "linear", "wobble", "wobbleBlock"};
    for (int c = 0; c < CURVES; c++) {
        animrt_id a = 0;
        double from = 0, to = 1;
        animrt_animation_create(r, ANIMRT_ANIMATION_BASIC, "opacity", &a);
        animrt_animation_set_value(r, a, ANIMRT_FROM, &from, 1);
        animrt_animation_set_value(r, a, ANIMRT_TO, &to, 1);
        animrt_animation_set_timing_function(r, a, curves[c]);
        for (int i = 0; i < BATCH; i++) durations[i] = 0.5 + (double)((i * 7919 + c) % 1000) / 400;
        animrt_column column = {ANIMRT_COLUMN_DURATION, durations};
        /* A quarter of the layers per curve: every lane has enough for two workers (32 768 each). */
        animrt_layer_add_animations(r, a, layers + c * (BATCH / CURVES), BATCH / CURVES, &column, 1, NULL, 0, NULL);
        animrt_animation_destroy(r, a);
    }
    animrt_keypath kp = 0;
    animrt_keypath_id(r, "opacity", &kp);
    for (int f = 0; f < FRAMES; f++) {
        animrt_runtime_tick(r, 1 + f * 0.4);
        for (int i = 0; i < BATCH; i += 97) {
            size_t n = 0;
            animrt_layer_get_presentation(r, layers[i], kp, &out[f * BATCH + i], 1, &n);
        }
    }
}

static int batch_workers(void) {
    double *one = calloc((size_t)BATCH * FRAMES, sizeof *one), *two = calloc((size_t)BATCH * FRAMES, sizeof *two);
    animrt_runtime *a = NULL, *b = NULL;
    if (!one || !two || animrt_runtime_create(0, &a) != ANIMRT_OK || animrt_runtime_create(0, &b) != ANIMRT_OK) return 1;
    batch_scene(a, 1, one);
    batch_scene(b, 2, two);
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(b);
    int same = memcmp(one, two, (size_t)BATCH * FRAMES * sizeof *one) == 0;
    int moved = one[(FRAMES - 1) * BATCH] != 0;
    free(one);
    free(two);
    if (!same) problem("two evaluation threads gave other values than one", 0);
    if (!moved) problem("the batch scene did not animate", 0);
    printf("batch: %d animations over %d frames, one evaluation thread and two: the same to the bit\n", BATCH, FRAMES);
    return !same || !moved;
}

int main(int argc, char **argv) {
    long per_thread = argc > 1 ? atol(argv[1]) : 250000;
    batch_workers();
    track = calloc(TRACK, sizeof *track);
    from_callback = calloc(100000, sizeof *from_callback);
    if (animrt_runtime_create(ANIMRT_EVENT_CAPACITY_MAX, &rt) != ANIMRT_OK) return 2;
    animrt_keypath_id(rt, "opacity", &opacity);
    animrt_keypath_id(rt, "position.x", &position_x);
    animrt_keypath paths[SHARED_LAYERS];
    for (int i = 0; i < SHARED_LAYERS; i++) { animrt_layer_create(rt, 0, &shared_layers[i]); paths[i] = opacity; }
    animrt_reader_create(rt, shared_layers, paths, SHARED_LAYERS, &reader);
    animrt_event_set_callback(rt, on_event, NULL);
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){i, per_thread, calloc((size_t)per_thread, sizeof(animrt_id)), 0, 0x9E3779B97F4A7C15ULL * (i + 1)};
        pthread_create(&t[i], NULL, run, &w[i]);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    animrt_runtime_destroy(rt);
    __atomic_store_n(&destroyed, 1, __ATOMIC_SEQ_CST);
    long animations = from_callback_n, unstopped = 0;
    for (int i = 0; i < THREADS; i++) {
        animations += w[i].added_n;
        for (long k = 0; k < w[i].added_n; k++) if (find(w[i].added[k])->stopped != 1) unstopped++;
        free(w[i].added);
    }
    for (long k = 0; k < from_callback_n; k++) if (find(from_callback[k])->stopped != 1) unstopped++;
    if (concurrent) problem("the callback was entered by two threads at once", (animrt_id)concurrent);
    if (after_destroy) problem("events arrived after destroy returned", (animrt_id)after_destroy);
    if (unstopped) problem("attached animations without exactly one STOPPED", (animrt_id)unstopped);
    printf("stress: %d threads, %ld calls (%ld ok), %ld events delivered, %ld animations attached (%ld from the callback)\n",
           THREADS, total_calls, ok_calls, events, animations, from_callback_n);
    printf("%s\n", problems ? "FAILED" : "every animation started at most once and stopped exactly once; one delivery at a time");
    printf("%d passed, %d failed\n", problems ? 0 : 1, problems ? 1 : 0);
    free(track);
    free(from_callback);
    return problems != 0;
}
