/* Costs of machines through the C ABI.
 *
 *   machine_bench send     ns per animrt_machine_send of an event whose
 *                          transition has a guard and an assign; the cost of
 *                          a bare ABI call (animrt_runtime_time) in the same run
 *   machine_bench idle     ns per animrt_runtime_tick with 100 and with 10^4
 *                          machines each waiting on a 1000 s timer (nothing due),
 *                          and with no machine at all
 * Best of five runs. MACHINE_BENCH_N=n sends n events once (for callgrind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "animrt.h"

#define CHECK(call) do { animrt_status s_ = (call); if (s_) { \
    fprintf(stderr, "%s: %s\n", #call, animrt_last_error_message()); exit(1); } } while (0)

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

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

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "send")) return bench_send();
    if (argc > 1 && !strcmp(argv[1], "idle")) return bench_idle();
    fprintf(stderr, "usage: machine_bench send|idle\n");
    return 2;
}
