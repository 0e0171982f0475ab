/* Costs of machines through the C ABI.
 *
 *   machine_bench send     ns per animrt_machine_send of an event whose
 *                          transition has a guard and an assign; the cost of
 *                          a bare ABI call (animrt_runtime_time) in the same run
 *   machine_bench idle     ns per animrt_runtime_tick with 100 and with 10^4
 *                          machines each waiting on a 1000 s timer (nothing due),
 *                          and with no machine at all
 *   machine_bench spin     ns per tick with 10^4 shipped network buttons spinning
 *                          (linesCount arcs each, the default 2) against the same
 *                          number of plain transform.rotation.z animations on
 *                          bare layers, measured alternately; the ratio
 *   machine_bench load     ms to load a definition of 4096 states (state "a" with
 *                          4094 children, and "z") and 20 000 transitions, their
 *                          targets written by the last part of their names
 *                          ("c17"), against the same definition with full names
 *                          ("a.c17"), measured alternately; the ratio
 * Best of five runs. MACHINE_BENCH_N=n sends n events once (for callgrind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "animrt.h"
#include "bench.h"

static const char *COUNTER =
    "{\"name\": \"counter\", \"context\": {\"count\": {\"type\": \"number\", \"initial\": 0}},"
    " \"events\": {\"add\": {\"payload\": [{\"name\": \"amount\", \"type\": \"number\"}]}},"
    " \"initial\": \"counting\","
    " \"states\": {\"counting\": {\"on\": {\"add\": {\"guard\": \"event.amount > 0 and context.count < 1e15\","
    "                                               \"actions\": [{\"assign\": {\"count\": \"context.count + event.amount\"}}]}}}}}";

static const char *WAITER =
    "{\"name\": \"waiter\", \"events\": {\"poke\": {}}, \"initial\": \"waiting\","
    " \"states\": {\"waiting\": {\"after\": [{\"delay\": 1000, \"target\": \"done\"}], \"on\": {\"poke\": \"done\"}}, \"done\": {}}}";

static int bench_send(void) {
    animrt_runtime *rt;
    animrt_id def, m;
    int32_t add;
    CHECK(animrt_runtime_create(0, &rt));
    CHECK(animrt_definition_load(rt, COUNTER, &def));
    CHECK(animrt_machine_create(rt, def, 0, NULL, &m));
    CHECK(animrt_definition_id(rt, def, ANIMRT_NAME_EVENT, "add", &add));
    animrt_value amount = {ANIMRT_TYPE_NUMBER, 0, 1.0, 0, NULL, NULL};
    const int n = getenv("MACHINE_BENCH_N") ? atoi(getenv("MACHINE_BENCH_N")) : 1000000;
    double best_send = 1e9, best_call = 1e9, t;
    const int reps = getenv("MACHINE_BENCH_N") ? 1 : 5;
    for (int rep = 0; rep < reps; rep++) {
        t = now_s();
        for (int i = 0; i < n; i++) CHECK(animrt_machine_send(rt, m, add, &amount, 1, NULL));
        t = (now_s() - t) / n;
        if (t < best_send) best_send = t;
        double sink = 0, v;
        t = now_s();
        for (int i = 0; i < n; i++) { animrt_runtime_time(rt, &v); sink += v; }
        t = (now_s() - t) / n;
        if (t < best_call) best_call = t;
        if (sink < 0) printf("%f", sink);
    }
    animrt_value count;
    CHECK(animrt_machine_get(rt, m, 0, &count, NULL, 0, NULL));
    if (count.number != (double)reps * n) { fprintf(stderr, "count is %f, not %f\n", count.number, (double)reps * n); return 1; }
    printf("machine send with a guard and an assign, through the C ABI: %.0f ns, %.2f million per second"
           " (target >= 2); a bare ABI call in the same run: %.1f ns\n", best_send * 1e9, 1e-6 / best_send, best_call * 1e9);
    animrt_runtime_destroy(rt);
    return 0;
}

/* ns per tick with `machines` waiters (nothing due). */
static double idle_tick(int machines) {
    animrt_runtime *rt;
    animrt_id def, m;
    CHECK(animrt_runtime_create(0, &rt));
    CHECK(animrt_definition_load(rt, WAITER, &def));
    CHECK(animrt_runtime_tick(rt, 0));
    for (int i = 0; i < machines; i++) CHECK(animrt_machine_create(rt, def, 0, NULL, &m));
    animrt_event ev[64];
    size_t got;
    do { CHECK(animrt_event_poll(rt, ev, 64, &got)); } while (got > 0);
    const int ticks = 200000;
    double best = 1e9, time = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t = now_s();
        for (int i = 0; i < ticks; i++) { time += 1e-4; CHECK(animrt_runtime_tick(rt, time)); }
        t = (now_s() - t) / ticks;
        if (t < best) best = t;
    }
    animrt_runtime_destroy(rt);
    return best * 1e9;
}

static int bench_idle(void) {
    double none = idle_tick(0), few = idle_tick(100), many = idle_tick(10000);
    printf("tick with machines waiting on timers, nothing due: none %.0f ns, 100 machines %.0f ns, 10^4 machines %.0f ns;"
           " ratio 10^4 / none %.2f (target: does not grow, about 1)\n", none, few, many, many / none);
    return 0;
}

#define BUTTONS 10000

static void set(animrt_runtime *rt, animrt_id layer, const char *key_path, double a, double b, double c, double d) {
    animrt_keypath kp;
    size_t n;
    animrt_value_kind kind;
    CHECK(animrt_keypath_id(rt, key_path, &kp));
    CHECK(animrt_keypath_info(rt, kp, &kind, &n));
    double v[4] = {a, b, c, d};
    CHECK(animrt_layer_set_value(rt, layer, kp, v, n));
}

/* Ticks every 1/20 s up to 0.55 s (the buttons have prepared by 0.25 s and
 * their arcs' fade-in is over); returns how many machines entered `spinning`. */
static int settle(animrt_runtime *rt, int32_t spinning) {
    animrt_event ev[4096];
    size_t got;
    int spun = 0;
    for (int i = 1; i <= 11; i++) {
        CHECK(animrt_runtime_tick(rt, i * 0.05));
        do {
            CHECK(animrt_event_poll(rt, ev, 4096, &got));
            for (size_t k = 0; k < got; k++) spun += ev[k].type == ANIMRT_EVENT_MACHINE_STATE && ev[k].to_state == spinning;
        } while (got > 0);
    }
    return spun;
}

/* 10^4 spinning network buttons (kind 0), the same layer trees with the
 * same values and rotations made by hand (kind 1), or only the rotating
 * layers, bare (kind 2). */
static animrt_runtime *spinners(int kind, size_t *arcs) {
    animrt_runtime *rt;
    animrt_id def, m, spin, layer, button;
    int32_t start, spinning;
    CHECK(animrt_runtime_create(1 << 20, &rt));
    CHECK(animrt_runtime_tick(rt, 0));
    CHECK(animrt_definition_load_named(rt, "networkButton", &def));
    CHECK(animrt_definition_id(rt, def, ANIMRT_NAME_EVENT, "startAnimate", &start));
    CHECK(animrt_definition_id(rt, def, ANIMRT_NAME_STATE, "loading.spinning", &spinning));
    CHECK(animrt_machine_create(rt, def, 0, NULL, &m));
    CHECK(animrt_machine_part_count(rt, m, "arc", arcs));
    CHECK(animrt_machine_destroy(rt, m));
    double turn = 6.283185307179586, forever = 1.0 / 0.0;
    CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "transform.rotation.z", &spin));
    CHECK(animrt_animation_set_value(rt, spin, ANIMRT_BY, &turn, 1));
    CHECK(animrt_animation_set_timing(rt, spin, ANIMRT_TIMING_DURATION, 1));
    CHECK(animrt_animation_set_timing(rt, spin, ANIMRT_TIMING_REPEAT_COUNT, forever));
    for (int i = 0; i < BUTTONS; i++) {
        if (kind == 0) {
            CHECK(animrt_machine_create(rt, def, 0, NULL, &m));
            CHECK(animrt_machine_send(rt, m, start, NULL, 0, NULL));
            continue;
        }
        if (kind == 2) {
            for (size_t k = 0; k < *arcs; k++) {
                CHECK(animrt_layer_create(rt, 0, &layer));
                CHECK(animrt_layer_add_animation(rt, layer, spin, "spin", 0, NULL));
            }
            continue;
        }
        /* The button's parts as the machine leaves them while it spins. */
        CHECK(animrt_layer_create(rt, 0, &button));
        set(rt, button, "bounds", 0, 0, 50, 50); set(rt, button, "position", 90, 25, 0, 0);
        set(rt, button, "cornerRadius", 25, 0, 0, 0); set(rt, button, "backgroundColor", 1, 1, 1, 1);
        CHECK(animrt_layer_create(rt, button, &layer));
        set(rt, layer, "bounds", 0, 0, 50, 50); set(rt, layer, "position", 25, 25, 0, 0); set(rt, layer, "cornerRadius", 25, 0, 0, 0);
        set(rt, layer, "borderWidth", 5, 0, 0, 0); set(rt, layer, "borderColor", 0.67, 0.67, 0.67, 1); set(rt, layer, "opacity", 1, 0, 0, 0);
        CHECK(animrt_layer_create(rt, button, &layer));
        set(rt, layer, "position", 90, 25, 0, 0); set(rt, layer, "opacity", 0, 0, 0, 0);
        CHECK(animrt_layer_create(rt, button, &layer));
        set(rt, layer, "bounds", 0, 0, 50, 50); set(rt, layer, "position", 25, 25, 0, 0); set(rt, layer, "strokeEnd", 0, 0, 0, 0);
        set(rt, layer, "lineWidth", 5, 0, 0, 0); set(rt, layer, "strokeColor", 0, 1, 0, 1); set(rt, layer, "opacity", 0, 0, 0, 0);
        for (size_t k = 0; k < *arcs; k++) {
            CHECK(animrt_layer_create(rt, button, &layer));
            set(rt, layer, "bounds", 0, 0, 50, 50); set(rt, layer, "position", 25, 25, 0, 0);
            set(rt, layer, "strokeStart", (double)k / *arcs, 0, 0, 0); set(rt, layer, "strokeEnd", (double)k / *arcs + 0.016, 0, 0, 0);
            set(rt, layer, "lineWidth", 5, 0, 0, 0); set(rt, layer, "strokeColor", 0, 1, 0, 1); set(rt, layer, "opacity", 1, 0, 0, 0);
            set(rt, layer, "transform.rotation.z", 0, 0, 0, 0);
            CHECK(animrt_layer_add_animation(rt, layer, spin, "spin", 0, NULL));
        }
        for (size_t k = 0; k < *arcs; k++) {
            CHECK(animrt_layer_create(rt, button, &layer));
            set(rt, layer, "bounds", 0, 0, 2, 2); set(rt, layer, "cornerRadius", 1, 0, 0, 0); set(rt, layer, "opacity", 0, 0, 0, 0);
            set(rt, layer, "backgroundColor", 0, 1, 0, 1); set(rt, layer, "position", 40, 25, 0, 0); set(rt, layer, "transform.scale", 1, 0, 0, 0);
        }
        for (int k = 0; k < 2; k++) {
            CHECK(animrt_layer_create(rt, button, &layer));
            set(rt, layer, "bounds", 0, 0, 50, 50); set(rt, layer, "position", 25, 25, 0, 0); set(rt, layer, "lineWidth", 2.5, 0, 0, 0);
            set(rt, layer, "strokeColor", 1, 1, 1, 1); set(rt, layer, "opacity", 0, 0, 0, 0);
        }
    }
    int spun = settle(rt, spinning);
    if (kind == 0 && spun != BUTTONS) { fprintf(stderr, "only %d of %d buttons spin\n", spun, BUTTONS); exit(1); }
    return rt;
}

/* ns per tick over `ticks` ticks of 1/60 s from `*time`. */
static double spin_ticks(animrt_runtime *rt, double *time, int ticks) {
    double t = now_s();
    for (int i = 0; i < ticks; i++) { *time += 1.0 / 60; CHECK(animrt_runtime_tick(rt, *time)); }
    return (now_s() - t) / ticks * 1e9;
}

static int bench_spin(void) {
    size_t arcs = 0;
    animrt_runtime *rt[3];
    double time[3], best[3];
    for (int k = 0; k < 3; k++) { rt[k] = spinners(k, &arcs); time[k] = 0.55; best[k] = 1e18; }
    for (int rep = 0; rep < 5; rep++) {
        for (int k = 0; k < 3; k++) {
            double ns = spin_ticks(rt[k], &time[k], 20);
            if (ns < best[k]) best[k] = ns;
        }
    }
    printf("tick with 10^4 network buttons spinning (%zu arcs each): %.2f ms; the same layers and rotations made by hand:"
           " %.2f ms, ratio %.2f (what the machines add); %zu rotation animations on bare layers: %.2f ms, ratio %.2f\n",
           arcs, best[0] * 1e-6, best[1] * 1e-6, best[0] / best[1], BUTTONS * arcs, best[2] * 1e-6, best[0] / best[2]);
    for (int k = 0; k < 3; k++) animrt_runtime_destroy(rt[k]);
    return 0;
}

/* The definition `load` measures: 4094 children of state "a" and, in state
 * "z", one event's 20 000 transitions to them, each target written as
 * `prefix` + "c" + its number. */
static char *wide_definition(const char *prefix) {
    enum { CHILDREN = 4094, TARGETS = 20000 };
    size_t cap = 64 + CHILDREN * 16 + TARGETS * 24 + 256, n = 0;
    char *json = malloc(cap);
    if (!json) { fprintf(stderr, "out of memory\n"); exit(1); }
    n += (size_t)snprintf(json + n, cap - n, "{\"name\": \"wide\", \"events\": {\"go\": {}}, \"initial\": \"z\", "
                          "\"states\": {\"a\": {\"initial\": \"c0\", \"states\": {");
    for (int i = 0; i < CHILDREN; i++) n += (size_t)snprintf(json + n, cap - n, "%s\"c%d\": {}", i ? ", " : "", i);
    n += (size_t)snprintf(json + n, cap - n, "}}, \"z\": {\"on\": {\"go\": [");
    for (int i = 0; i < TARGETS; i++) n += (size_t)snprintf(json + n, cap - n, "%s\"%sc%d\"", i ? ", " : "", prefix, i % CHILDREN);
    snprintf(json + n, cap - n, "]}}}}");
    return json;
}

static int bench_load(void) {
    char *json[2] = {wide_definition(""), wide_definition("a.")};
    double best[2] = {1e30, 1e30};
    animrt_runtime *rt;
    CHECK(animrt_runtime_create(0, &rt));
    for (int rep = 0; rep < 5; rep++) {
        for (int k = 0; k < 2; k++) {  /* interleaved: short, full, short, full, ... */
            animrt_id def;
            double t = now_s();
            CHECK(animrt_definition_load(rt, json[k], &def));
            t = now_s() - t;
            CHECK(animrt_definition_destroy(rt, def));
            if (t < best[k]) best[k] = t;
        }
    }
    printf("load a definition of 4096 states and 20 000 transitions, targets by the last part of their names:"
           " %.1f ms; the same with full names: %.1f ms, ratio %.2f (target: about 1)\n",
           best[0] * 1e3, best[1] * 1e3, best[0] / best[1]);
    animrt_runtime_destroy(rt);
    free(json[0]); free(json[1]);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "send")) return bench_send();
    if (argc > 1 && !strcmp(argv[1], "idle")) return bench_idle();
    if (argc > 1 && !strcmp(argv[1], "spin")) return bench_spin();
    if (argc > 1 && !strcmp(argv[1], "load")) return bench_load();
    fprintf(stderr, "usage: machine_bench send|idle|spin|load\n");
    return 2;
}
