/* R0.3, R0.4 from C: inputs the library accepted never take the host down,
 * handles never come back to life, events keep their order around
 * callbacks, and every cost and table is bounded. Sections 1–11 each test
 * one way a hostile host could once break the library; then each limit of
 * docs/limits.md at and past its edge. Run as built and under ASan/UBSan
 * against an instrumented library. */
#include <float.h>
#include <pthread.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "scene.h"

#if defined(__SANITIZE_ADDRESS__)
#define ANIMRT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ANIMRT_TEST_ASAN 1
#endif
#endif
#ifdef ANIMRT_TEST_ASAN
#include <sanitizer/allocator_interface.h>
/* Bytes the program has allocated and not freed (ASan's own count). */
static size_t heap_bytes(void) { return __sanitizer_get_current_allocated_bytes(); }
#else
#include <malloc.h>
static size_t heap_bytes(void) {
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
#endif

static void pause_us(long us) {
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static animrt_id keyframes(animrt_runtime *rt, const double *values, size_t n, animrt_calculation_mode mode) {
    animrt_id a = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "position.x", &a);
    animrt_keyframe_set_values(rt, a, values, n, 1);
    animrt_keyframe_set_calculation_mode(rt, a, mode);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, 1);
    return a;
}

static size_t attached(animrt_runtime *rt, animrt_id layer) {
    size_t n = 99;
    animrt_layer_animation_count(rt, layer, &n);
    return n;
}

/* ---- lifecycle bookkeeping ----------------------------------------------
 * Per attached animation: STARTED at most once, STOPPED exactly once, the
 * first before the second. An open-addressing table keyed by handle. */

#define TRACK_SLOTS (1 << 16)
typedef struct { animrt_id object; int started, stopped, started_after_stop; } track_entry;
typedef struct {
    track_entry slots[TRACK_SLOTS];
    int events, after_destroy, concurrent, inside, overflow;
    int destroyed;  /* set by the test once animrt_runtime_destroy returned */
} tracker;

static track_entry *track_find(tracker *t, animrt_id object) {
    size_t i = (size_t)(object * 0x9E3779B97F4A7C15ULL >> 48) & (TRACK_SLOTS - 1);
    while (t->slots[i].object != 0 && t->slots[i].object != object) i = (i + 1) & (TRACK_SLOTS - 1);
    t->slots[i].object = object;
    return &t->slots[i];
}

static void track_event(tracker *t, const animrt_event *e) {
    t->events++;
    if (t->destroyed) t->after_destroy++;
    if (e->type == ANIMRT_EVENT_OVERFLOW) t->overflow++;
    if (e->type != ANIMRT_EVENT_ANIMATION_STARTED && e->type != ANIMRT_EVENT_ANIMATION_STOPPED) return;
    track_entry *s = track_find(t, e->object);
    if (e->type == ANIMRT_EVENT_ANIMATION_STARTED) {
        s->started++;
        if (s->stopped) s->started_after_stop++;
    } else {
        s->stopped++;
    }
}

/* Every tracked animation (and each of `expected`) started at most once,
 * stopped exactly once, never started after it stopped. */
static int track_ok(tracker *t, const animrt_id *expected, size_t n) {
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        track_entry *s = track_find(t, expected[i]);
        if (s->stopped != 1) { fprintf(stderr, "  animation %llu stopped %d times\n", (unsigned long long)expected[i], s->stopped); ok = 0; }
    }
    for (size_t i = 0; i < TRACK_SLOTS; i++) {
        track_entry *s = &t->slots[i];
        if (s->object == 0) continue;
        if (s->stopped > 1 || s->started > 1 || s->started_after_stop) {
            fprintf(stderr, "  animation %llu: started %d, stopped %d, started after stop %d\n",
                    (unsigned long long)s->object, s->started, s->stopped, s->started_after_stop);
            ok = 0;
        }
    }
    return ok;
}

static tracker *tracker_new(void) { return calloc(1, sizeof(tracker)); }

/* ---- 1. traps in tick on accepted keyframes ---------------------------- */

TEST(accepted_keyframes_never_trap) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0;
    animrt_layer_create(rt, 0, &layer);
    /* Far apart but measurable: accepted, and every frame is finite. */
    double far[2] = {0, 1e160};
    CHECK_OK(animrt_layer_add_animation(rt, layer, keyframes(rt, far, 2, ANIMRT_CALC_CUBIC_PACED), "far", 0, NULL));
    double huge_tension[3] = {-1e308, -1e308, -1e308};
    double small[3] = {0, 1, 2};
    animrt_id tense = keyframes(rt, small, 3, ANIMRT_CALC_CUBIC_PACED);
    CHECK_OK(animrt_keyframe_set_spline(rt, tense, huge_tension, NULL, NULL, 3));
    animrt_id other = 0;
    animrt_layer_create(rt, 0, &other);
    CHECK_OK(animrt_layer_add_animation(rt, other, tense, "tense", 0, NULL));
    for (double t = 0; t <= 1.0; t += 0.125) {
        CHECK_OK(animrt_runtime_tick(rt, t));
        double v = presentation(rt, layer, "position.x"), w = presentation(rt, other, "position.x");
        CHECK(isfinite(v) && v >= 0 && v <= 1e160);
        CHECK(isfinite(w));
    }
    /* What cannot be evaluated is refused when added, and nothing is attached. */
    animrt_id third = 0;
    animrt_layer_create(rt, 0, &third);
    animrt_id overflowing = keyframes(rt, far, 2, ANIMRT_CALC_CUBIC_PACED);
    CHECK_OK(animrt_keyframe_set_spline(rt, overflowing, huge_tension, NULL, NULL, 2));
    CHECK_STATUS(animrt_layer_add_animation(rt, third, overflowing, "x", 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("tangent overflows");
    double wild[4] = {0, 1, 1e308, -1e308};
    CHECK_STATUS(animrt_layer_add_animation(rt, third, keyframes(rt, wild, 4, ANIMRT_CALC_CUBIC_PACED), "x", 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("too far apart");
    CHECK(attached(rt, third) == 0);
    CHECK_OK(animrt_runtime_tick(rt, 2));
    animrt_runtime_destroy(rt);
}

/* ---- 2. presentation values are always finite -------------------------- */

TEST(presentation_always_finite) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, spring = 0;
    animrt_layer_create(rt, 0, &layer);
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &spring));
    CHECK_STATUS(animrt_animation_set_spring(rt, spring, 1e-300, 1e300, 10, 0), ANIMRT_E_RANGE);
    double paced[3] = {-1e308, 1e308, 0};
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, keyframes(rt, paced, 3, ANIMRT_CALC_PACED), NULL, 0, NULL), ANIMRT_E_RANGE);
    double wide_from = -1e308, wide_to = 1e308;
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, basic(rt, "opacity", wide_from, wide_to, 1), NULL, 0, NULL), ANIMRT_E_RANGE);
    /* A Bézier whose y control points are so far apart that its polynomial
     * overflows would give NaN at every x (the curve itself is finite, 0.125
     * at x = 0.5): refused, as values that cannot be evaluated are; 1e306
     * apart it is evaluated. */
    animrt_id curved = basic(rt, "opacity", 0, 1, 1);
    CHECK_STATUS(animrt_animation_set_cubic_bezier(rt, curved, 0, 1e308, 1, -1e308), ANIMRT_E_RANGE);
    CHECK_MESSAGE("cubic-bezier y1 = 1e+308, y2 = -1e+308: the curve's polynomial overflows a double");
    CHECK_STATUS(animrt_animation_set_timing_function(rt, curved, "cubic-bezier(0, 1e308, 1, -1e308)"), ANIMRT_E_RANGE);
    double eased = -7;
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "cubic-bezier(0, 6e307, 1, 0)", 0.5, &eased), ANIMRT_E_RANGE);
    CHECK(eased == -7);
    CHECK_OK(animrt_timing_function_evaluate(rt, "cubic-bezier(0, 1e306, 1, -1e306)", 0.5, &eased));
    CHECK(isfinite(eased));
    CHECK_OK(animrt_timing_function_evaluate(rt, "cubic-bezier(0, 1e306, 1, -1e306)", 1, &eased));
    CHECK(eased == 1);  /* the curve's end is exact, whatever rounding did to its coefficients */
    CHECK_OK(animrt_animation_set_cubic_bezier(rt, curved, 0, 1e306, 1, -1e306));
    /* Past [0, 1] a curve follows its end tangents; where they pass the
     * largest double (or meet an infinite x) the call is refused, *out untouched. */
    eased = -7;
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "easeIn", 1.7e308, &eased), ANIMRT_E_RANGE);
    CHECK_MESSAGE("'easeIn' at x = 1.7e+308 gives inf");
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "easeOut", -1.7e308, &eased), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "easeIn", INFINITY, &eased), ANIMRT_E_RANGE);
    CHECK_MESSAGE("'easeIn' at x = inf gives inf");
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "linear", -INFINITY, &eased), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "steps(3)", 1e308, &eased), ANIMRT_E_RANGE);
    CHECK(eased == -7);
    /* A flat end tangent stays at its end however far x goes, infinity too
     * (0 times infinity is no value of the tangent's). */
    CHECK_OK(animrt_timing_function_evaluate(rt, "easeInEaseOut", INFINITY, &eased));
    CHECK(eased == 1);
    CHECK_OK(animrt_timing_function_evaluate(rt, "easeInEaseOut", -INFINITY, &eased));
    CHECK(eased == 0);
    CHECK_OK(animrt_timing_function_evaluate(rt, "cubic-bezier(0.5, 0, 0.5, 1)", -INFINITY, &eased));
    CHECK(eased == 0);
    CHECK_OK(animrt_timing_function_evaluate(rt, "easeIn", 1e307, &eased));
    CHECK(isfinite(eased) && eased > 1e307);
    /* y values past 2^53: Horner's y(1) = ay + by + cy loses the 1 and gave
     * 0, so a forwards fill ended at its from value. */
    animrt_runtime *filling = rt_new();
    animrt_id layer2 = 0, filled = basic(filling, "position.x", 0, 100, 1);
    CHECK_OK(animrt_layer_create(filling, 0, &layer2));
    CHECK_OK(animrt_animation_set_cubic_bezier(filling, filled, 0.5, 1e20, 0.5, 1));
    CHECK_OK(animrt_animation_set_fill_mode(filling, filled, ANIMRT_FILL_FORWARDS));
    CHECK_OK(animrt_animation_set_flag(filling, filled, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
    CHECK_OK(animrt_layer_add_animation(filling, layer2, filled, NULL, 0, NULL));
    CHECK_OK(animrt_runtime_tick(filling, 0));
    CHECK_OK(animrt_runtime_tick(filling, 1));
    CHECK(presentation(filling, layer2, "position.x") == 100);
    CHECK_OK(animrt_runtime_tick(filling, 2));
    CHECK(presentation(filling, layer2, "position.x") == 100);
    animrt_runtime_destroy(filling);
    /* A curve overshooting past the doubles: the batch and the general path. */
    animrt_id a = basic(rt, "opacity", 0, 1e300, 1), b = basic(rt, "cornerRadius", 0, 1e300, 1);
    CHECK_OK(animrt_animation_set_cubic_bezier(rt, a, 0.5, 1e300, 0.5, 1e300));
    CHECK_OK(animrt_animation_set_cubic_bezier(rt, b, 0.5, 1e300, 0.5, 1e300));
    CHECK_OK(animrt_animation_set_flag(rt, b, ANIMRT_FLAG_ADDITIVE, 1));
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "a", 0, NULL));
    CHECK_OK(animrt_layer_add_animation(rt, layer, b, "b", 0, NULL));
    /* Only the model end known: checked where the value is written. */
    double model = -1e308, to = 1e308;
    CHECK_OK(animrt_layer_set_value(rt, layer, kp(rt, "position.x"), &model, 1));
    animrt_id c = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "position.x", &c);
    animrt_animation_set_value(rt, c, ANIMRT_TO, &to, 1);
    CHECK_OK(animrt_layer_add_animation(rt, layer, c, "c", 0, NULL));
    animrt_id targets[3] = {layer, layer, layer};
    animrt_keypath paths[3] = {kp(rt, "opacity"), kp(rt, "cornerRadius"), kp(rt, "position.x")};
    animrt_id reader = 0;
    CHECK_OK(animrt_reader_create(rt, targets, paths, 3, &reader));
    for (double t = 0; t < 1; t += 0.0625) {
        CHECK_OK(animrt_runtime_tick(rt, t));
        double out[3];
        size_t n = 0;
        CHECK_OK(animrt_reader_read(rt, reader, out, 3, &n));
        CHECK(isfinite(out[0]) && isfinite(out[1]) && isfinite(out[2]));
    }
    CHECK(presentation(rt, layer, "opacity") == DBL_MAX);
    animrt_runtime_destroy(rt);
}

/* ---- 3. runtime tags never trap ------------------------------------------ */

TEST(runtime_tags) {
    /* A host creating a runtime per document, 70 000 times. */
    for (int i = 0; i < 70000; i++) {
        animrt_runtime *rt = NULL;
        animrt_status s = animrt_runtime_create(4, &rt);
        if (s != ANIMRT_OK) { CHECK_OK(s); break; }
        animrt_runtime_destroy(rt);
    }
    check_passed++;
    /* Runtimes alive at once never share a tag: a foreign handle is refused. */
    animrt_runtime *a = rt_new(), *b = rt_new();
    animrt_id la = 0, out = 0;
    animrt_layer_create(a, 0, &la);
    CHECK_STATUS(animrt_layer_create(b, la, &out), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("another runtime");
    animrt_runtime_destroy(b);
    animrt_runtime_destroy(a);
    /* At the limit: ANIMRT_RUNTIMES_MAX alive, the next one refused. */
    animrt_runtime **all = calloc(ANIMRT_RUNTIMES_MAX + 1, sizeof *all);
    int made = 0;
    while (made <= ANIMRT_RUNTIMES_MAX && animrt_runtime_create(2, &all[made]) == ANIMRT_OK) made++;
    CHECK(made == ANIMRT_RUNTIMES_MAX);
    animrt_runtime *refused = (animrt_runtime *)&made;
    CHECK_STATUS(animrt_runtime_create(2, &refused), ANIMRT_E_NOMEM);
    CHECK_MESSAGE("65535 runtimes are alive, the most at once; destroy one first");
    CHECK(refused == (animrt_runtime *)&made);  /* untouched */
    animrt_runtime_destroy(all[made / 2]);
    CHECK_OK(animrt_runtime_create(2, &all[made / 2]));
    for (int i = 0; i < made; i++) animrt_runtime_destroy(all[i]);
    free(all);
}

/* ---- 4. a destroyed handle never becomes valid again -------------------- */

TEST(stale_handles_stay_stale) {
    animrt_runtime *rt = rt_new();
    animrt_id first = 0, h = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &first));
    CHECK_OK(animrt_layer_destroy(rt, first));
    int reused = 0, failures = 0;
    /* ANIMRT_GENERATIONS_MAX objects in all go through the first slot. */
    for (long i = 1; i < ANIMRT_GENERATIONS_MAX; i++) {
        if (animrt_layer_create(rt, 0, &h) != ANIMRT_OK) failures++;
        if (h == first) reused++;
        animrt_layer_destroy(rt, h);
    }
    CHECK(failures == 0 && reused == 0);
    CHECK_OK(animrt_layer_create(rt, 0, &h));
    CHECK(h != first);
    CHECK_STATUS(animrt_layer_destroy(rt, first), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("stale");
    animrt_runtime_destroy(rt);
}

/* ---- 5. readers never read someone else's value ------------------------- */

TEST(readers_outlive_targets) {
    animrt_runtime *rt = rt_new();
    animrt_id a = 0, b = 0, c = 0, reader = 0;
    animrt_layer_create(rt, 0, &a);
    animrt_layer_create(rt, 0, &b);
    animrt_keypath op = kp(rt, "opacity");
    animrt_id layers[2] = {a, b};
    animrt_keypath paths[2] = {op, op};
    CHECK_OK(animrt_reader_create(rt, layers, paths, 2, &reader));
    double out[2] = {-1, -1};
    size_t n = 0;
    CHECK_OK(animrt_reader_read(rt, reader, out, 2, &n));
    CHECK(out[0] == 1 && out[1] == 1 && n == 2);
    CHECK_OK(animrt_layer_destroy(rt, b));
    out[0] = out[1] = -1;
    CHECK_STATUS(animrt_reader_read(rt, reader, out, 2, &n), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("target 1");
    CHECK(out[0] == -1 && out[1] == -1);
    /* A new layer takes b's slot and its values' place: still refused. */
    CHECK_OK(animrt_layer_create(rt, 0, &c));
    double quarter = 0.25;
    animrt_layer_set_value(rt, c, op, &quarter, 1);
    animrt_runtime_tick(rt, 0);
    CHECK_STATUS(animrt_reader_read(rt, reader, out, 2, &n), ANIMRT_E_HANDLE);
    CHECK(out[0] == -1 && out[1] == -1);
    CHECK_OK(animrt_reader_destroy(rt, reader));
    layers[1] = c;
    CHECK_OK(animrt_reader_create(rt, layers, paths, 2, &reader));
    CHECK_OK(animrt_reader_read(rt, reader, out, 2, &n));
    CHECK(out[0] == 1 && out[1] == 0.25);
    animrt_runtime_destroy(rt);
}

/* ---- 6. event delivery around callbacks ---------------------------------- */

typedef struct {
    tracker *t;
    animrt_runtime *rt;
    animrt_id layer, victim;
    int mode;             /* what the callback does; see each test */
    int acted;
    animrt_status inside; /* a status seen from inside the callback */
} delivery;

/* (a) The first STARTED destroys the runtime from inside the callback. */
static void destroy_inside(void *user, const animrt_event *e) {
    delivery *d = user;
    track_event(d->t, e);
    if (!d->acted && e->type == ANIMRT_EVENT_ANIMATION_STARTED) {
        d->acted = 1;
        animrt_runtime_destroy(d->rt);
        d->t->destroyed = 1;  /* nothing may arrive from here on */
        /* The memory stays valid until this callback returns: calls are refused. */
        d->inside = animrt_runtime_tick(d->rt, 100);
    }
}

TEST(delivery_destroy_inside_callback) {
    delivery d = {tracker_new(), rt_new(), 0, 0, 0, 0, 0};
    animrt_layer_create(d.rt, 0, &d.layer);
    animrt_id inst[6];
    for (int i = 0; i < 6; i++) {
        char key[8];
        snprintf(key, sizeof key, "k%d", i);
        /* Three finish in the first tick: STARTED and STOPPED are both pending. */
        animrt_layer_add_animation(d.rt, d.layer, basic(d.rt, i % 2 ? "opacity" : "position.x", 0, 1, i < 3 ? 0.5 : 5), key, 0, &inst[i]);
    }
    animrt_runtime_tick(d.rt, 0);
    animrt_event_set_callback(d.rt, destroy_inside, &d);
    CHECK_OK(animrt_runtime_tick(d.rt, 1));
    CHECK(d.acted == 1);
    CHECK(d.inside == ANIMRT_E_STATE);
    CHECK(d.t->after_destroy == 0);
    CHECK(track_ok(d.t, inst, 6));
    free(d.t);
}

/* (b) On a STARTED, remove another animation and tick again: that
 * animation's STARTED (already pending) still comes before its STOPPED. */
static void remove_and_tick(void *user, const animrt_event *e) {
    delivery *d = user;
    track_event(d->t, e);
    if (!d->acted && e->type == ANIMRT_EVENT_ANIMATION_STARTED && e->object != d->victim) {
        d->acted = 1;
        int removed = 0;
        animrt_layer_remove_animation(d->rt, d->layer, "victim", &removed);
        d->inside = animrt_runtime_tick(d->rt, 0.5);
    }
}

TEST(delivery_nested_tick_keeps_order) {
    delivery d = {tracker_new(), rt_new(), 0, 0, 0, 0, 0};
    animrt_layer_create(d.rt, 0, &d.layer);
    animrt_id inst[3];
    animrt_layer_add_animation(d.rt, d.layer, basic(d.rt, "opacity", 0, 1, 2), "first", 0, &inst[0]);
    animrt_layer_add_animation(d.rt, d.layer, basic(d.rt, "position.x", 0, 1, 2), "victim", 0, &inst[1]);
    animrt_layer_add_animation(d.rt, d.layer, basic(d.rt, "position.y", 0, 1, 0.25), "third", 0, &inst[2]);
    d.victim = inst[1];
    animrt_event_set_callback(d.rt, remove_and_tick, &d);
    CHECK_OK(animrt_runtime_tick(d.rt, 0));
    CHECK(d.acted == 1 && d.inside == ANIMRT_OK);
    track_entry *victim = track_find(d.t, inst[1]);
    CHECK(victim->started == 1 && victim->stopped == 1 && victim->started_after_stop == 0);
    CHECK(track_find(d.t, inst[2])->stopped == 1);  /* the nested tick's STOPPED, delivered after */
    animrt_runtime_destroy(d.rt);
    CHECK(track_ok(d.t, inst, 3));
    free(d.t);
}

/* (c) Calls made from the callbacks that destroy drives are refused. */
static void add_while_destroying(void *user, const animrt_event *e) {
    delivery *d = user;
    track_event(d->t, e);
    if (e->type == ANIMRT_EVENT_ANIMATION_STOPPED && e->reason == ANIMRT_STOP_RUNTIME_DESTROYED && !d->acted) {
        d->acted = 1;
        animrt_id out = 0;
        d->inside = animrt_layer_add_animation(d->rt, d->layer, d->victim, "late", 0, &out);
        CHECK(out == 0);
        CHECK_MESSAGE("being destroyed");
        size_t n = 7;
        animrt_event ev[2];
        CHECK_STATUS(animrt_event_poll(d->rt, ev, 2, &n), ANIMRT_E_STATE);
        CHECK_STATUS(animrt_event_set_callback(d->rt, NULL, NULL), ANIMRT_E_STATE);
        CHECK_STATUS(animrt_runtime_tick(d->rt, 50), ANIMRT_E_STATE);
        animrt_runtime_destroy(d->rt);  /* a second destroy from inside is ignored */
    }
}

TEST(delivery_calls_during_destroy_refused) {
    delivery d = {tracker_new(), rt_new(), 0, 0, 0, 0, 0};
    animrt_layer_create(d.rt, 0, &d.layer);
    animrt_id inst;
    d.victim = basic(d.rt, "opacity", 0, 1, 10);
    animrt_layer_add_animation(d.rt, d.layer, d.victim, "a", 0, &inst);
    animrt_event_set_callback(d.rt, add_while_destroying, &d);
    animrt_runtime_tick(d.rt, 0);
    animrt_runtime_destroy(d.rt);
    d.t->destroyed = 1;
    CHECK(d.acted == 1);
    CHECK(d.inside == ANIMRT_E_STATE);
    CHECK(track_ok(d.t, &inst, 1));
    CHECK(d.t->events == 2);  /* STARTED, then STOPPED (runtime destroyed); nothing for the refused add */
    free(d.t);
}

/* (d) Several threads ticking with a callback: one event at a time, in order. */
typedef struct { delivery *d; int thread; animrt_id *inst; int count; pthread_mutex_t *clock_lock; double *clock; } ticker;

static void serial_callback(void *user, const animrt_event *e) {
    delivery *d = user;
    if (__atomic_add_fetch(&d->t->inside, 1, __ATOMIC_SEQ_CST) != 1) __atomic_add_fetch(&d->t->concurrent, 1, __ATOMIC_SEQ_CST);
    track_event(d->t, e);
    if (e->type == ANIMRT_EVENT_ANIMATION_STARTED && (e->object & 7) == 0) pause_us(50);  /* widen the window */
    __atomic_sub_fetch(&d->t->inside, 1, __ATOMIC_SEQ_CST);
}

static void *tick_thread(void *p) {
    ticker *k = p;
    animrt_id layer = 0;
    animrt_layer_create(k->d->rt, 0, &layer);
    for (int i = 0; i < k->count; i++) {
        animrt_id a = basic(k->d->rt, i % 2 ? "opacity" : "position.x", 0, 1, 0.002 * (1 + i % 5));
        animrt_layer_add_animation(k->d->rt, layer, a, i % 3 ? NULL : "keyed", 0, &k->inst[i]);
        animrt_animation_destroy(k->d->rt, a);
        pthread_mutex_lock(k->clock_lock);
        double now = *k->clock += 0.001;
        pthread_mutex_unlock(k->clock_lock);
        animrt_status s = animrt_runtime_tick(k->d->rt, now);
        if (s != ANIMRT_OK && s != ANIMRT_E_TIME) k->d->inside = s;
    }
    return NULL;
}

TEST(delivery_two_threads_ticking) {
    delivery d = {tracker_new(), rt_new(), 0, 0, 0, 0, 0};
    enum { PER = 3000 };
    static animrt_id inst[2][PER];
    pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
    double clock = 0;
    animrt_event_set_callback(d.rt, serial_callback, &d);
    ticker k[2] = {{&d, 0, inst[0], PER, &clock_lock, &clock}, {&d, 1, inst[1], PER, &clock_lock, &clock}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, tick_thread, &k[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    animrt_runtime_destroy(d.rt);
    d.t->destroyed = 1;
    CHECK(d.inside == ANIMRT_OK);
    CHECK(d.t->concurrent == 0);
    CHECK(d.t->overflow == 0);
    CHECK(track_ok(d.t, inst[0], PER));
    CHECK(track_ok(d.t, inst[1], PER));
    free(d.t);
}

/* (e) Destroy from another thread while one is delivering: it waits for that
 * delivery, then delivers the last events itself; nothing arrives after. */
typedef struct { delivery *d; int entered; } slow_arg;

static void slow_callback(void *user, const animrt_event *e) {
    delivery *d = user;
    if (__atomic_add_fetch(&d->t->inside, 1, __ATOMIC_SEQ_CST) != 1) __atomic_add_fetch(&d->t->concurrent, 1, __ATOMIC_SEQ_CST);
    track_event(d->t, e);
    __atomic_store_n(&d->acted, 1, __ATOMIC_SEQ_CST);
    pause_us(2000);
    /* Once destroy has begun, calls are refused (the memory is still valid:
     * destroy waits for this delivery to end). */
    animrt_status s = animrt_layer_remove_all_animations(d->rt, d->layer);
    if (s != ANIMRT_OK && s != ANIMRT_E_STATE) d->inside = s;
    __atomic_sub_fetch(&d->t->inside, 1, __ATOMIC_SEQ_CST);
}

static void *slow_ticker(void *p) {
    delivery *d = p;
    animrt_runtime_tick(d->rt, 1);
    return NULL;
}

TEST(delivery_destroy_from_another_thread) {
    delivery d = {tracker_new(), rt_new(), 0, 0, 0, 0, 0};
    animrt_layer_create(d.rt, 0, &d.layer);
    enum { N = 20 };
    animrt_id inst[N];
    for (int i = 0; i < N; i++) {
        animrt_id other = 0;
        animrt_layer_create(d.rt, 0, &other);
        animrt_layer_add_animation(d.rt, other, basic(d.rt, "opacity", 0, 1, 10), NULL, 0, &inst[i]);
    }
    animrt_event_set_callback(d.rt, slow_callback, &d);
    pthread_t t;
    pthread_create(&t, NULL, slow_ticker, &d);
    while (!__atomic_load_n(&d.acted, __ATOMIC_SEQ_CST)) pause_us(100);
    animrt_runtime_destroy(d.rt);  /* while the other thread is inside the callback */
    d.t->destroyed = 1;
    pthread_join(t, NULL);
    CHECK(d.t->after_destroy == 0);
    CHECK(d.t->concurrent == 0);
    CHECK(d.inside == ANIMRT_OK);
    CHECK(track_ok(d.t, inst, N));
    free(d.t);
}

/* (f) A call another thread makes while destroy runs waits for the lock
 * destroy holds, and is then refused: destroy lets it in before the
 * runtime's memory goes. It used to free the lock under the waiting call,
 * which then never returned (or, under ASan, used freed memory). Stopping
 * 300 000 animations holds the lock for tens of milliseconds; the call
 * comes a millisecond after destroy begins. A watchdog turns a hang into a
 * failure. */
static struct { animrt_runtime *rt; int go; animrt_status got; } during;

static void *call_during_destroy(void *p) {
    (void)p;
    while (!__atomic_load_n(&during.go, __ATOMIC_SEQ_CST)) pause_us(50);
    pause_us(1000);
    double t = 0;
    during.got = animrt_runtime_time(during.rt, &t);
    return NULL;
}

TEST(calls_waiting_during_destroy_return) {
    enum { N = 300000 };
    animrt_id *layers = malloc(N * sizeof *layers);
    during.rt = rt_new();
    during.go = 0;
    during.got = -1;
    CHECK_OK(animrt_layer_create_many(during.rt, 0, N, layers));
    animrt_id fade = basic(during.rt, "opacity", 0, 1, 10);
    CHECK_OK(animrt_layer_add_animations(during.rt, fade, layers, N, NULL, 0, NULL, 0, NULL));
    CHECK_OK(animrt_runtime_tick(during.rt, 1));
    pthread_t t;
    pthread_create(&t, NULL, call_during_destroy, NULL);
    alarm(60);
    __atomic_store_n(&during.go, 1, __ATOMIC_SEQ_CST);
    animrt_runtime_destroy(during.rt);
    pthread_join(t, NULL);
    alarm(0);
    CHECK(during.got == ANIMRT_E_STATE);
    free(layers);
}

/* (g) A thread whose earlier call ran code from outside (a tick that ran a
 * host's timing function) is not left marked as inside its runtime: a later
 * call it makes while another thread holds the lock waits for it, and is
 * not refused as a call back from inside (R0.3). */
static struct { int slow; int inside; } slow_curve_state;

static double slow_curve(double x, const double *params, void *user) {
    (void)params; (void)user;
    if (__atomic_exchange_n(&slow_curve_state.slow, 0, __ATOMIC_SEQ_CST)) {
        __atomic_store_n(&slow_curve_state.inside, 1, __ATOMIC_SEQ_CST);
        pause_us(20000);
    }
    return x;
}

static void *tick_to_one(void *rt) {
    animrt_runtime_tick(rt, 1);
    return NULL;
}

TEST(call_after_a_callout_waits_for_another_thread) {
    animrt_runtime *rt = rt_new();
    CHECK_OK(animrt_timing_function_register(rt, "slowCurve", slow_curve, NULL, 0, NULL, NULL, NULL));
    animrt_id layer = 0, a = basic(rt, "opacity", 0, 1, 10);
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_animation_set_timing_function(rt, a, "slowCurve"));
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, NULL, 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 0));  /* this thread runs the curve */
    slow_curve_state.inside = 0;
    __atomic_store_n(&slow_curve_state.slow, 1, __ATOMIC_SEQ_CST);
    pthread_t t;
    pthread_create(&t, NULL, tick_to_one, rt);
    alarm(60);
    while (!__atomic_load_n(&slow_curve_state.inside, __ATOMIC_SEQ_CST)) pause_us(100);
    double now = -1;
    CHECK_OK(animrt_runtime_time(rt, &now));  /* the other thread holds the lock for 20 ms */
    CHECK(now == 1);
    pthread_join(t, NULL);
    alarm(0);
    animrt_runtime_destroy(rt);
}

/* (h) A callback cleared or replaced from another thread while the
 * delivering thread is inside it: the call waits for that callback's call
 * to return, so the host may free the old user data as soon as it
 * returns. It used to return at once, and the callback went on with user
 * data its host had freed (R0.3). The callback from inside clears itself
 * without waiting on itself. */
typedef struct { int entered, freed, used_after_free, calls; } held_data;

static void held_callback(void *user, const animrt_event *e) {
    (void)e;
    held_data *h = user;
    __atomic_add_fetch(&h->calls, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&h->entered, 1, __ATOMIC_SEQ_CST);
    pause_us(50000);
    if (__atomic_load_n(&h->freed, __ATOMIC_SEQ_CST)) __atomic_store_n(&h->used_after_free, 1, __ATOMIC_SEQ_CST);
}

static void self_clearing_callback(void *user, const animrt_event *e) {
    (void)e;
    held_data *h = user;
    h->calls++;
}

static struct { animrt_runtime *rt; held_data *inner; animrt_status status; } self_clear;

static void clears_itself(void *user, const animrt_event *e) {
    (void)e; (void)user;
    self_clear.status = animrt_event_set_callback(self_clear.rt, self_clearing_callback, self_clear.inner);
}

static void *tick_to_two(void *rt) {
    animrt_runtime_tick(rt, 2);
    return NULL;
}

TEST(callback_cleared_from_another_thread_waits_for_its_call) {
    alarm(60);
    for (int replace = 0; replace < 2; replace++) {
        animrt_runtime *rt = rt_new();
        held_data *old = calloc(1, sizeof *old), fresh = {0, 0, 0, 0};
        CHECK_OK(animrt_runtime_tick(rt, 0));
        CHECK_OK(animrt_timer_start(rt, 1, 1, NULL));
        CHECK_OK(animrt_timer_start(rt, 1, 2, NULL));
        CHECK_OK(animrt_timer_start(rt, 1, 3, NULL));
        CHECK_OK(animrt_event_set_callback(rt, held_callback, old));
        pthread_t t;
        pthread_create(&t, NULL, tick_to_two, rt);
        while (!__atomic_load_n(&old->entered, __ATOMIC_SEQ_CST)) pause_us(100);
        CHECK_OK(replace ? animrt_event_set_callback(rt, held_callback, &fresh) : animrt_event_set_callback(rt, NULL, NULL));
        /* The old call has returned: its data may go now. */
        CHECK(__atomic_load_n(&old->calls, __ATOMIC_SEQ_CST) == 1);
        __atomic_store_n(&old->freed, 1, __ATOMIC_SEQ_CST);
        pthread_join(t, NULL);
        CHECK(old->used_after_free == 0);
        CHECK(old->calls == 1);
        /* Replaced: the two other timers reach the new callback; cleared:
         * they wait in the queue. */
        size_t n = 9;
        animrt_event ev[4];
        CHECK_OK(animrt_event_poll(rt, ev, 4, &n));
        CHECK(replace ? fresh.calls == 2 && n == 0 : fresh.calls == 0 && n == 2);
        free(old);
        animrt_runtime_destroy(rt);
    }
    /* From inside the callback, the delivering thread replaces it at once. */
    held_data inner = {0, 0, 0, 0};
    self_clear.rt = rt_new();
    self_clear.inner = &inner;
    self_clear.status = -1;
    CHECK_OK(animrt_runtime_tick(self_clear.rt, 0));
    CHECK_OK(animrt_timer_start(self_clear.rt, 1, 1, NULL));
    CHECK_OK(animrt_timer_start(self_clear.rt, 1, 2, NULL));
    CHECK_OK(animrt_event_set_callback(self_clear.rt, clears_itself, NULL));
    CHECK_OK(animrt_runtime_tick(self_clear.rt, 2));
    CHECK(self_clear.status == ANIMRT_OK);
    CHECK(inner.calls == 1);  /* the second timer, to the callback set from inside */
    animrt_runtime_destroy(self_clear.rt);
    alarm(0);
}

/* (i) A clear waiting for the delivering thread's call while the runtime
 * is destroyed, by a third thread or by the callback itself: destroy lets
 * the waiting clear return before the runtime's memory goes, and the clear
 * took effect (it came first). A watchdog turns a hang into a failure. */
static struct { animrt_runtime *rt; int entered, clearing, destroy_inside; animrt_status cleared; } racing;

static void destroying_callback(void *user, const animrt_event *e) {
    (void)user; (void)e;
    __atomic_store_n(&racing.entered, 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&racing.clearing, __ATOMIC_SEQ_CST)) pause_us(100);
    pause_us(20000);  /* the clear is made meanwhile, and waits */
    if (racing.destroy_inside) animrt_runtime_destroy(racing.rt);
}

static void *clear_callback(void *p) {
    (void)p;
    __atomic_store_n(&racing.clearing, 1, __ATOMIC_SEQ_CST);
    racing.cleared = animrt_event_set_callback(racing.rt, NULL, NULL);
    return NULL;
}

TEST(callback_clear_waiting_while_the_runtime_is_destroyed) {
    alarm(60);
    for (int round = 0; round < 8; round++) {
        racing.rt = rt_new();
        racing.entered = racing.clearing = 0;
        racing.destroy_inside = round % 2;
        racing.cleared = -1;
        CHECK_OK(animrt_runtime_tick(racing.rt, 0));
        for (int i = 0; i < 3; i++) CHECK_OK(animrt_timer_start(racing.rt, 1, (uint64_t)i, NULL));
        CHECK_OK(animrt_event_set_callback(racing.rt, destroying_callback, NULL));
        pthread_t ticking, clearing;
        pthread_create(&ticking, NULL, tick_to_two, racing.rt);
        while (!__atomic_load_n(&racing.entered, __ATOMIC_SEQ_CST)) pause_us(100);
        pthread_create(&clearing, NULL, clear_callback, NULL);
        while (!__atomic_load_n(&racing.clearing, __ATOMIC_SEQ_CST)) pause_us(100);
        pause_us(2000);
        /* Destroy waits for the delivering thread's call, which outlasts the clear's start by 20 ms. */
        if (!racing.destroy_inside) animrt_runtime_destroy(racing.rt);
        pthread_join(ticking, NULL);
        pthread_join(clearing, NULL);
        CHECK(racing.cleared == ANIMRT_OK);
    }
    alarm(0);
}

/* ---- 7. names are bounded, and so is the suggestion --------------------- */

TEST(name_lengths) {
    animrt_runtime *rt = rt_new();
    char name[ANIMRT_NAME_MAX + 2];
    memset(name, 'p', sizeof name);
    name[ANIMRT_NAME_MAX] = 0;  /* ANIMRT_NAME_MAX bytes: accepted */
    double zero = 0;
    CHECK_OK(animrt_property_define(rt, name, ANIMRT_VALUE_SCALAR, &zero, 1));
    animrt_keypath id = -1;
    CHECK_OK(animrt_keypath_id(rt, name, &id));
    name[ANIMRT_NAME_MAX] = 'p';
    name[ANIMRT_NAME_MAX + 1] = 0;  /* one more: refused */
    CHECK_STATUS(animrt_property_define(rt, name, ANIMRT_VALUE_SCALAR, &zero, 1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_keypath_id(rt, name, &id), ANIMRT_E_RANGE);
    CHECK_MESSAGE("255 bytes");
    animrt_id layer = 0, a = basic(rt, "opacity", 0, 1, 1);
    animrt_layer_create(rt, 0, &layer);
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, a, name, 0, NULL), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_set_timing_function(rt, a, name), ANIMRT_E_RANGE);
    /* Looking an animation up by a key no animation can have is the same
     * mistake as adding under it: refused as too long, not "not found". */
    animrt_id found = 7;
    CHECK_STATUS(animrt_layer_animation_for_key(rt, layer, name, &found), ANIMRT_E_RANGE);
    CHECK_MESSAGE("key is longer than 255 bytes, the most a name may have");
    CHECK(found == 7);
    name[ANIMRT_NAME_MAX] = 0;
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, name, 0, NULL));
    CHECK_OK(animrt_layer_animation_for_key(rt, layer, name, &found));
    CHECK(found != 7);
    /* A 1 MiB key path is refused after reading 256 bytes of it. */
    size_t big = (size_t)1 << 20;
    char *huge = malloc(big + 1);
    memset(huge, 'x', big);
    huge[big] = 0;
    CHECK_STATUS(animrt_keypath_id(rt, huge, &id), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, huge, 0.5, &zero), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_animation_for_key(rt, layer, huge, &found), ANIMRT_E_RANGE);
    free(huge);
    /* The longest unknown name against the longest known one: a bounded suggestion. */
    name[0] = 'q';
    CHECK_STATUS(animrt_keypath_id(rt, name, &id), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'ppp");
    CHECK_STATUS(animrt_keypath_id(rt, "opacty", &id), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'opacity'?");
    animrt_runtime_destroy(rt);
}

/* A name of ANIMRT_NAME_MAX + 1 bytes with no NUL, right before a page that
 * cannot be read: a call that reads past the limit crashes. Each call that
 * takes a key path, property name or animation key refuses it with
 * ANIMRT_E_RANGE having read no more. */
TEST(names_read_no_further_than_the_limit) {
    long page = sysconf(_SC_PAGESIZE);
    int fd = open("/dev/zero", O_RDONLY);
    char *pages = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    CHECK(pages != MAP_FAILED);
    if (pages == MAP_FAILED) return;
    CHECK(mprotect(pages + page, (size_t)page, PROT_NONE) == 0);
    char *name = pages + page - (ANIMRT_NAME_MAX + 1);
    memset(name, 'k', ANIMRT_NAME_MAX + 1);
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0, a = basic(rt, "position.x", 0, 100, 1), attached = 0, out = 7;
    animrt_layer_create(rt, 0, &layer);
    CHECK_OK(animrt_layer_add_animation(rt, layer, a, "k", 0, &attached));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.5));
    animrt_keypath id = -1;
    double zero = 0, v[2] = {-1, -1};
    size_t count = 99;
    int removed = 7;
    CHECK_STATUS(animrt_keypath_id(rt, name, &id), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_property_define(rt, name, ANIMRT_VALUE_SCALAR, &zero, 1), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, name, &out), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_add_animation(rt, layer, a, name, 0, &out), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_remove_animation(rt, layer, name, &removed), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_animation_for_key(rt, layer, name, &out), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_animation_get_velocity(rt, attached, name, v, 2, &count), ANIMRT_E_RANGE);
    CHECK_MESSAGE("key_path is longer than 255 bytes, the most a name may have");
    CHECK(id == -1 && out == 7 && removed == 7 && count == 99 && v[0] == -1);
    animrt_runtime_destroy(rt);
    munmap(pages, 2 * (size_t)page);
}

/* ---- 8. groups are bounded --------------------------------------------- */

TEST(groups_bounded) {
    animrt_runtime *rt = rt_new();
    animrt_id g = 0, leaf = basic(rt, "opacity", 0, 1, 1);
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &g));
    CHECK_OK(animrt_group_add(rt, g, leaf));
    int doublings = 0;
    while (animrt_group_add(rt, g, g) == ANIMRT_OK) doublings++;
    CHECK(doublings == 9);  /* 1023 animations; the next would be 2047 */
    CHECK(animrt_group_add(rt, g, g) == ANIMRT_E_RANGE);
    CHECK_MESSAGE("at most 1024");
    CHECK_OK(animrt_group_add(rt, g, leaf));  /* 1024: at the limit */
    CHECK_STATUS(animrt_group_add(rt, g, leaf), ANIMRT_E_RANGE);
    animrt_id layer = 0;
    animrt_layer_create(rt, 0, &layer);
    CHECK_OK(animrt_layer_add_animation(rt, layer, g, "big", 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.1));
    /* Depth: ANIMRT_GROUP_DEPTH_MAX levels, not one more. */
    animrt_id inner = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &inner);
    animrt_group_add(rt, inner, leaf);
    for (int level = 1; level < ANIMRT_GROUP_DEPTH_MAX; level++) {
        animrt_id outer = 0;
        animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &outer);
        CHECK_OK(animrt_group_add(rt, outer, inner));
        inner = outer;
    }
    animrt_id top = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &top);
    CHECK_STATUS(animrt_group_add(rt, top, inner), ANIMRT_E_RANGE);
    CHECK_MESSAGE("levels");
    CHECK_OK(animrt_layer_add_animation(rt, layer, inner, "deep", 0, NULL));
    animrt_runtime_destroy(rt);
}

/* ---- 9. memory for things no longer used is released -------------------- */

TEST(memory_released) {
    animrt_runtime *rt = rt_new();
    animrt_id layer = 0;
    animrt_layer_create(rt, 0, &layer);
    double t = 0;
    size_t before = 0;
    int failures = 0;
    /* Distinct curves and distinct keys, each used by one animation that ends. */
    for (int i = 0; i < 22000; i++) {
        if (i == 2000) before = heap_bytes();
        animrt_id a = basic(rt, "opacity", 0, 1, 0.01);
        animrt_animation_set_cubic_bezier(rt, a, 0.25, i * 1e-5, 0.75, 1);
        char key[32];
        snprintf(key, sizeof key, "key %d", i);
        animrt_layer_add_animation(rt, layer, a, key, 0, NULL);
        animrt_animation_destroy(rt, a);
        animrt_runtime_tick(rt, t += 0.02);
        animrt_runtime_tick(rt, t += 0.02);
        animrt_event ev[4];
        size_t n = 0;
        animrt_event_poll(rt, ev, 4, &n);  /* STARTED, STOPPED */
        if (n != 2) failures++;
    }
    CHECK(failures == 0);
    size_t after = heap_bytes();
    long growth = (long)after - (long)before;
    /* Kept, 20 000 curves would hold ~220 MB and the keys ~1.4 MB. */
    printf("heap growth over 20 000 distinct curves and keys: %ld bytes\n", growth);
    CHECK(growth < 1 << 20);
    CHECK(attached(rt, layer) == 0);
    animrt_runtime_destroy(rt);
}

/* ---- 10. malformed key paths are refused -------------------------------- */

TEST(malformed_key_paths) {
    animrt_runtime *rt = rt_new();
    static const char *bad[] = {"opacity.", "position.", ".x", "position..x", "", ".", "bounds.size.", "position.x.", "position .x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        animrt_keypath id = 12345;
        CHECK_STATUS(animrt_keypath_id(rt, bad[i], &id), ANIMRT_E_NOT_FOUND);
        CHECK(id == 12345);
    }
    animrt_keypath first = -1;
    CHECK_OK(animrt_keypath_id(rt, "opacity", &first));
    CHECK((first & (ANIMRT_KEYPATHS_MAX - 1)) == 0);  /* index 0 (docs/limits.md): none was minted for the malformed ones */
    animrt_id a = 0;
    CHECK_STATUS(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity.", &a), ANIMRT_E_NOT_FOUND);
    animrt_runtime_destroy(rt);
}

/* ---- 11. deep trees do not overflow the stack ---------------------------- */

TEST(deep_trees) {
    animrt_runtime *rt = rt_new();
    enum { DEPTH = 1000000 };
    animrt_id root = 0, leaf = 0, parent = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &root));
    parent = root;
    int failures = 0;
    for (int i = 0; i < DEPTH; i++) {
        if (animrt_layer_create(rt, parent, &leaf) != ANIMRT_OK) failures++;
        parent = leaf;
    }
    CHECK(failures == 0);
    CHECK_OK(animrt_layer_add_animation(rt, leaf, basic(rt, "opacity", 0, 1, 1), "a", 0, NULL));
    CHECK_OK(animrt_layer_set_timing(rt, root, 0, 2, 0));  /* every layer below now runs on root's time */
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.25));
    CHECK(presentation(rt, leaf, "opacity") == 0.5);
    animrt_id middle = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &middle));
    CHECK_OK(animrt_layer_set_timing(rt, middle, 0, 1, 5));
    CHECK_OK(animrt_layer_set_parent(rt, root, middle));  /* re-parents the whole chain */
    CHECK_STATUS(animrt_layer_set_parent(rt, middle, leaf), ANIMRT_E_INVALID);  /* a cycle, found without recursion */
    CHECK_OK(animrt_layer_destroy(rt, root));
    CHECK_OK(animrt_runtime_tick(rt, 0.5));
    animrt_runtime_destroy(rt);
}

/* ---- limits (docs/limits.md), each at and past its edge ------------------ */

TEST(limit_properties) {
    animrt_runtime *rt = rt_new();
    double zero = 0;
    int defined = 0;
    char name[32];
    for (;;) {
        snprintf(name, sizeof name, "p%d", defined);
        if (animrt_property_define(rt, name, ANIMRT_VALUE_SCALAR, &zero, 1) != ANIMRT_OK) break;
        defined++;
    }
    CHECK(defined == ANIMRT_PROPERTIES_MAX - 14);  /* 14 are built in */
    CHECK_STATUS(animrt_property_define(rt, "one-more", ANIMRT_VALUE_SCALAR, &zero, 1), ANIMRT_E_RANGE);
    CHECK_MESSAGE("cannot define 'one-more': a runtime holds at most 65536 properties (built-in ones included)");
    animrt_keypath id = -1;
    CHECK_STATUS(animrt_keypath_id(rt, "one-more", &id), ANIMRT_E_NOT_FOUND);  /* nothing was defined */
    CHECK_STATUS(animrt_keypath_id(rt, "p7000x", &id), ANIMRT_E_NOT_FOUND);  /* suggestion over 65 536 names */
    animrt_runtime_destroy(rt);
}

TEST(limit_keypaths) {
    animrt_runtime *rt = rt_new();
    double zero = 0, v = 1;
    char name[32];
    animrt_keypath first = -1, id = -1;
    int resolved = 0;
    for (int i = 0; i <= ANIMRT_KEYPATHS_MAX; i++) {
        snprintf(name, sizeof name, "k%d", i);
        CHECK_OK(animrt_property_define(rt, name, ANIMRT_VALUE_SCALAR, &zero, 1));
    }
    for (;;) {
        snprintf(name, sizeof name, "k%d", resolved);
        if (animrt_keypath_id(rt, name, &id) != ANIMRT_OK) break;
        if (resolved == 0) first = id;
        resolved++;
    }
    CHECK(resolved == ANIMRT_KEYPATHS_MAX);
    animrt_keypath untouched = 77;
    CHECK_STATUS(animrt_keypath_id(rt, "opacity", &untouched), ANIMRT_E_RANGE);  /* one more */
    CHECK_MESSAGE("a runtime resolves at most 32768 distinct key paths; 'opacity' would be one more");
    CHECK(untouched == 77);
    CHECK_OK(animrt_keypath_id(rt, "k0", &id));  /* one already given: the same id */
    CHECK(id == first);
    animrt_id layer = 0;
    size_t n = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_layer_set_value(rt, layer, id, &v, 1));
    v = 0;
    CHECK_OK(animrt_layer_get_value(rt, layer, id, &v, 1, &n));
    CHECK(v == 1 && n == 1);
    animrt_runtime_destroy(rt);
}

TEST(limit_transactions) {
    animrt_runtime *rt = rt_new();
    for (int i = 0; i < ANIMRT_TRANSACTION_DEPTH_MAX; i++) CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_STATUS(animrt_transaction_begin(rt, 0), ANIMRT_E_RANGE);
    CHECK_MESSAGE("256 transactions are open on this thread, the most at once; commit one first");
    CHECK_OK(animrt_transaction_commit(rt, 1));
    CHECK_OK(animrt_transaction_begin(rt, 0));
    animrt_runtime_destroy(rt);
}

/* ANIMRT_BARRIER_NOTIFIES_MAX notifies wait on a held barrier, not one
 * more; every one of them fires, in order, and the emptied list takes more. */
TEST(limit_barrier_notifies) {
    animrt_runtime *rt = NULL;
    animrt_id b;
    size_t count = 0, n = 0;
    CHECK_OK(animrt_runtime_create(2 * ANIMRT_BARRIER_NOTIFIES_MAX, &rt));
    CHECK_OK(animrt_barrier_create(rt, &b));
    CHECK_OK(animrt_barrier_enter(rt, b));
    for (uint64_t t = 0; t < ANIMRT_BARRIER_NOTIFIES_MAX; t++) CHECK_OK(animrt_barrier_notify(rt, b, t));
    CHECK_STATUS(animrt_barrier_notify(rt, b, 7), ANIMRT_E_RANGE);
    CHECK_MESSAGE("has 1048576 notifications waiting for its count to reach zero, the most a barrier holds");
    CHECK_OK(animrt_barrier_count(rt, b, &count));
    CHECK(count == 1);
    CHECK_OK(animrt_barrier_leave(rt, b));
    static animrt_event ev[4096];
    uint64_t next = 0;
    int in_order = 1;
    do {
        CHECK_OK(animrt_event_poll(rt, ev, 4096, &n));
        for (size_t k = 0; k < n; k++) {
            in_order &= ev[k].type == ANIMRT_EVENT_BARRIER_NOTIFIED && ev[k].token == next;
            next++;
        }
    } while (n > 0);
    CHECK(in_order && next == ANIMRT_BARRIER_NOTIFIES_MAX);  /* the refused one is not among them */
    CHECK_OK(animrt_barrier_enter(rt, b));
    CHECK_OK(animrt_barrier_notify(rt, b, 8));
    animrt_runtime_destroy(rt);
}

TEST(limit_event_capacity) {
    animrt_runtime *rt = NULL;
    CHECK_OK(animrt_runtime_create(ANIMRT_EVENT_CAPACITY_MAX, &rt));
    animrt_runtime_destroy(rt);
    rt = NULL;
    CHECK_STATUS(animrt_runtime_create(ANIMRT_EVENT_CAPACITY_MAX + 1, &rt), ANIMRT_E_RANGE);
    CHECK_MESSAGE("event capacity 16777217 is more than the 16777216 allowed");
    CHECK(rt == NULL);
    CHECK_STATUS(animrt_runtime_create(UINT32_MAX, &rt), ANIMRT_E_RANGE);
}

int main(void) {
    RUN(accepted_keyframes_never_trap);
    RUN(presentation_always_finite);
    RUN(runtime_tags);
    RUN(stale_handles_stay_stale);
    RUN(readers_outlive_targets);
    RUN(delivery_destroy_inside_callback);
    RUN(delivery_nested_tick_keeps_order);
    RUN(delivery_calls_during_destroy_refused);
    RUN(delivery_two_threads_ticking);
    RUN(delivery_destroy_from_another_thread);
    RUN(calls_waiting_during_destroy_return);
    RUN(call_after_a_callout_waits_for_another_thread);
    RUN(callback_cleared_from_another_thread_waits_for_its_call);
    RUN(callback_clear_waiting_while_the_runtime_is_destroyed);
    RUN(name_lengths);
    RUN(names_read_no_further_than_the_limit);
    RUN(groups_bounded);
    RUN(memory_released);
    RUN(malformed_key_paths);
    RUN(deep_trees);
    RUN(limit_properties);
    RUN(limit_keypaths);
    RUN(limit_transactions);
    RUN(limit_barrier_notifies);
    RUN(limit_event_capacity);
    return check_report();
}
