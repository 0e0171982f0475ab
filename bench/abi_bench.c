/* Costs seen through the C ABI.
 *
 *   abi_bench read          ns per animrt_layer_get_presentation call
 *   abi_bench frame N F     ns per animation per frame for tick + reader_read of
 *                           N basic animations built through the ABI (the same
 *                           generator and scene as the core benchmark), frames
 *                           at 60 Hz from t = 0; ANIMRT_THREADS=n sets the
 *                           runtime's evaluation threads
 *   abi_bench add N         ns per full add: create a description, set its
 *                           begin time, duration, timing function, from and
 *                           to, add it to a layer, destroy the description
 *   abi_bench bulk N        ns per animation of animrt_layer_add_animations
 *                           (begin time, duration, from and to columns)
 *   abi_bench churn N       a frame (tick, events polled, bulk read) of N
 *                           mid-flight animations, steady, against the same
 *                           frame when 1 % finish (removed on completion) and
 *                           1 % are added through the bulk call: prints both
 *                           and their ratio. The animations that end in a
 *                           frame are spread over the layers (every 100th:
 *                           lifetimes independent of the layer). With
 *                           `scattered`, both runtimes have their values
 *                           made in a random order of the layers first (the
 *                           state churn itself leads to); with `clustered`,
 *                           those ending in a frame are neighbours instead
 *                           (rows of a list, say). Also prints how long
 *                           destroying each runtime took (best of three),
 *                           and the best frame of each split into its
 *                           steps: tick, events polled, bulk add, read.
 *                           ABI_BENCH_CHURN=steady or churned runs that
 *                           runtime alone, once, for a profiler: the two
 *                           profiles' difference is what the churn costs
 *   abi_bench sets N M      N layers with an opacity and nothing animating;
 *                           each frame the host sets M of them (every N/M-th
 *                           layer, a different set each frame) and ticks: ns
 *                           per value set for the tick that shows them; and
 *                           ns per value of the sets themselves, made one
 *                           call a layer and in one animrt_layer_set_values
 *   abi_bench fills N       a tick with N finished animations that fill
 *                           (kept after they end), against a tick of the same
 *                           layers with nothing attached: ns per fill per tick
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "animrt.h"
#include "bench.h"

static int bench_read(void) {
    animrt_runtime *rt;
    animrt_id layer, a;
    animrt_keypath kp;
    double from = 0, to = 1, v, sink = 0;
    size_t n;
    CHECK(animrt_runtime_create(0, &rt));
    CHECK(animrt_layer_create(rt, 0, &layer));
    CHECK(animrt_keypath_id(rt, "opacity", &kp));
    CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
    CHECK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));
    CHECK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
    CHECK(animrt_layer_add_animation(rt, layer, a, "a", 0, NULL));
    CHECK(animrt_runtime_tick(rt, 0));
    CHECK(animrt_runtime_tick(rt, 0.1));
    const int calls = 20000000;
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        double t0 = now_s();
        for (int i = 0; i < calls; i++) {
            animrt_layer_get_presentation(rt, layer, kp, &v, 1, &n);
            sink += v;
        }
        double ns = (now_s() - t0) * 1e9 / calls;
        if (ns < best) best = ns;
    }
    printf("sink %g\nns_per_read %.2f\n", sink, best);
    animrt_runtime_destroy(rt);
    return 0;
}

static int bench_frame(size_t n, int frames) {
    static const char *curves[5] = {"linear", "easeIn", "easeOut", "easeInEaseOut", "default"};
    animrt_runtime *rt;
    CHECK(animrt_runtime_create(0, &rt));
    animrt_keypath kp;
    CHECK(animrt_keypath_id(rt, "opacity", &kp));
    animrt_id *layers = malloc(n * sizeof *layers);
    animrt_keypath *kps = malloc(n * sizeof *kps);
    double *out = malloc(n * sizeof *out), zero = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(animrt_layer_create(rt, 0, &layers[i]));
        CHECK(animrt_layer_set_value(rt, layers[i], kp, &zero, 1));
        kps[i] = kp;
    }
    for (size_t i = 0; i < n; i++) {
        double begin = (next_rand() % 1000) / 1000.0, dur = 0.25 + (next_rand() % 1000) / 500.0;
        double from = next_rand() % 100, to = next_rand() % 100;
        unsigned c = next_rand() % 5;
        animrt_id a;
        CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
        CHECK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));
        CHECK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
        CHECK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, begin == 0 ? 1e-300 : begin));
        CHECK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, dur));
        CHECK(animrt_animation_set_timing_function(rt, a, curves[c]));
        CHECK(animrt_animation_set_fill_mode(rt, a, ANIMRT_FILL_BOTH));
        CHECK(animrt_animation_set_flag(rt, a, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
        CHECK(animrt_layer_add_animation(rt, layers[i], a, NULL, 0, NULL));
        CHECK(animrt_animation_destroy(rt, a));
    }
    animrt_id reader;
    CHECK(animrt_reader_create(rt, layers, kps, n, &reader));
    size_t needed;
    if (getenv("ANIMRT_THREADS")) CHECK(animrt_runtime_set_threads(rt, (uint32_t)atoi(getenv("ANIMRT_THREADS"))));
    double t0 = now_s();
    for (int f = 0; f < frames; f++) {
        CHECK(animrt_runtime_tick(rt, f / 60.0));  /* the clock only moves forwards */
        CHECK(animrt_reader_read(rt, reader, out, n, &needed));
    }
    double ns = (now_s() - t0) * 1e9 / ((double)n * frames);
    printf("sink %g\nns_per_animation_frame %.3f\n", out[n / 2], ns);
    animrt_runtime_destroy(rt);
    free(layers); free(kps); free(out);
    return 0;
}

/* One add with its configuration, as a host builds an animation. */
static void full_add(animrt_runtime *rt, animrt_id layer, double begin, double dur, double from, double to,
                     const char *curve) {
    animrt_id a;
    CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
    CHECK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_BEGIN_TIME, begin));
    CHECK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, dur));
    CHECK(animrt_animation_set_timing_function(rt, a, curve));
    CHECK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));
    CHECK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
    CHECK(animrt_layer_add_animation(rt, layer, a, NULL, 0, NULL));
    CHECK(animrt_animation_destroy(rt, a));
}

static int bench_add(size_t n) {
    static const char *curves[5] = {"linear", "easeIn", "easeOut", "easeInEaseOut", "default"};
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        animrt_runtime *rt;
        CHECK(animrt_runtime_create(0, &rt));
        animrt_id *layers = malloc(n * sizeof *layers);
        for (size_t i = 0; i < n; i++) CHECK(animrt_layer_create(rt, 0, &layers[i]));
        seed_rand(1);
        double t0 = now_s();
        for (size_t i = 0; i < n; i++) {
            double begin = 1 + (next_rand() % 1000) / 1000.0, dur = 0.25 + (next_rand() % 1000) / 500.0;
            double from = next_rand() % 100, to = next_rand() % 100;
            full_add(rt, layers[i], begin, dur, from, to, curves[next_rand() % 5]);
        }
        double ns = (now_s() - t0) * 1e9 / (double)n;
        if (ns < best) best = ns;
        animrt_runtime_destroy(rt);
        free(layers);
    }
    printf("ns_per_add %.1f\n", best);
    return 0;
}

/* The columns of n animations, mid-flight from t0 for at least `window` s. */
static void active_columns(size_t n, double t0, double window, double *begin, double *dur, double *from, double *to) {
    for (size_t i = 0; i < n; i++) {
        double u = (next_rand() % 1000000) / 1e6, v = (next_rand() % 1000000) / 1e6;
        dur[i] = 2 + 3 * u;
        begin[i] = t0 - v * (dur[i] - window - 2e-3) - 1e-3;
        from[i] = next_rand() % 100;
        to[i] = next_rand() % 100;
    }
}

static int bench_bulk(size_t n) {
    double *begin = malloc(n * sizeof *begin), *dur = malloc(n * sizeof *dur);
    double *from = malloc(n * sizeof *from), *to = malloc(n * sizeof *to);
    animrt_id *layers = malloc(n * sizeof *layers);
    seed_rand(1);
    active_columns(n, 10, 1.9, begin, dur, from, to);
    animrt_column cols[4] = {{ANIMRT_COLUMN_BEGIN_TIME, begin}, {ANIMRT_COLUMN_DURATION, dur},
                             {ANIMRT_COLUMN_FROM, from}, {ANIMRT_COLUMN_TO, to}};
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        animrt_runtime *rt;
        animrt_id a;
        CHECK(animrt_runtime_create(0, &rt));
        CHECK(animrt_layer_create_many(rt, 0, n, layers));
        CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
        CHECK(animrt_animation_set_timing_function(rt, a, "easeInEaseOut"));
        double t0 = now_s();
        CHECK(animrt_layer_add_animations(rt, a, layers, n, cols, 4, NULL, 0, NULL));
        double ns = (now_s() - t0) * 1e9 / (double)n;
        if (ns < best) best = ns;
        animrt_runtime_destroy(rt);
    }
    printf("ns_per_bulk_animation %.1f\n", best);
    free(begin); free(dur); free(from); free(to); free(layers);
    return 0;
}

static size_t drain(animrt_runtime *rt) {
    static animrt_event events[4096];
    size_t count, total = 0;
    do {
        CHECK(animrt_event_poll(rt, events, 4096, &count));
        total += count;
    } while (count == 4096);
    return total;
}

/* N layers; animation i (in group i % 100, or i * 100 / N when clustered)
 * ends at T0 + (group + 0.5) / 60 when `churn`, else long after the frames
 * measured. 200 frames: in the first 100 the animations added in bulk at
 * the start finish, in the next 100 those added in bulk during the run. */
enum churn_layout { CHURN_SPREAD, CHURN_SCATTERED, CHURN_CLUSTERED };

static size_t churn_group(size_t i, size_t n, int groups, enum churn_layout layout) {
    return layout == CHURN_CLUSTERED ? i * (size_t)groups / n : i % (size_t)groups;
}

static int bench_churn(size_t n, enum churn_layout layout) {
    const int scattered = layout == CHURN_SCATTERED;
    const double t0 = 10, dt = 1.0 / 60;
    const int frames = 200, groups = 100;
    static const char *curves[5] = {"linear", "easeIn", "easeOut", "easeInEaseOut", "default"};
    double *begin = malloc(n * sizeof *begin), *dur = malloc(n * sizeof *dur);
    double *from = malloc(n * sizeof *from), *to = malloc(n * sizeof *to), *out = malloc(n * sizeof *out);
    animrt_id *layers = malloc(n * sizeof *layers), *group_layers = malloc((n / groups + 1) * sizeof *layers);
    animrt_keypath *kps = malloc(n * sizeof *kps);
    double best[2] = {1e30, 1e30}, best_destroy[2] = {1e30, 1e30};
    /* The best run's frame per step (ms): tick, events polled, bulk add, read. */
    double split[2][4] = {{0}};
    /* ABI_BENCH_CHURN=steady or churned: that runtime alone, once (for a profiler). */
    const char *only = getenv("ABI_BENCH_CHURN");
    const int first = only && strcmp(only, "churned") == 0 ? 1 : 0, last = only ? first : 1, runs = only ? 1 : 3;
    if (only && strcmp(only, "steady") != 0 && strcmp(only, "churned") != 0) {
        fprintf(stderr, "ABI_BENCH_CHURN is '%s'; it is steady or churned\n", only);
        return 2;
    }
    for (int r = 0; r < runs; r++) {
        for (int churn = first; churn <= last; churn++) {  /* interleaved: steady, churn, steady, churn, ... */
            animrt_runtime *rt;
            animrt_id a[5], reader;
            animrt_keypath kp;
            size_t needed;
            CHECK(animrt_runtime_create(0, &rt));
            CHECK(animrt_keypath_id(rt, "opacity", &kp));
            CHECK(animrt_layer_create_many(rt, 0, n, layers));
            for (size_t i = 0; i < n; i++) kps[i] = kp;
            if (scattered) {
                /* Values made in a random order of the layers, as a scene's
                 * history leaves them: neighbouring entries no longer write
                 * neighbouring values. */
                size_t *order = malloc(n * sizeof *order);
                double one = 1;
                for (size_t i = 0; i < n; i++) order[i] = i;
                seed_rand(3);
                for (size_t i = n - 1; i > 0; i--) {
                    size_t j = next_rand() % (i + 1), t = order[i];
                    order[i] = order[j]; order[j] = t;
                }
                for (size_t i = 0; i < n; i++) CHECK(animrt_layer_set_value(rt, layers[order[i]], kp, &one, 1));
                free(order);
            }
            seed_rand(7);
            active_columns(n, t0, 1.9, begin, dur, from, to);
            for (size_t i = 0; i < n; i++) {
                double end = churn ? t0 + ((double)churn_group(i, n, groups, layout) + 0.5) * dt
                                   : begin[i] + dur[i] + 2;  /* past frame 200 */
                dur[i] = end - begin[i];
            }
            for (int c = 0; c < 5; c++) {
                CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a[c]));
                CHECK(animrt_animation_set_timing_function(rt, a[c], curves[c]));
            }
            /* Five curves: each fifth of the layers gets one of them. */
            for (int c = 0; c < 5; c++) {
                size_t lo = n * c / 5, hi = n * (c + 1) / 5;
                animrt_column cols[4] = {{ANIMRT_COLUMN_BEGIN_TIME, begin + lo}, {ANIMRT_COLUMN_DURATION, dur + lo},
                                         {ANIMRT_COLUMN_FROM, from + lo}, {ANIMRT_COLUMN_TO, to + lo}};
                CHECK(animrt_layer_add_animations(rt, a[c], layers + lo, hi - lo, cols, 4, NULL, 0, NULL));
            }
            CHECK(animrt_reader_create(rt, layers, kps, n, &reader));
            CHECK(animrt_runtime_tick(rt, t0 - dt));
            drain(rt);
            double spent = 0, steps[4] = {0};
            for (int f = 0; f < frames; f++) {
                double now = t0 + f * dt, t = now_s();
                CHECK(animrt_runtime_tick(rt, now));
                double tp = now_s();
                drain(rt);
                steps[0] += tp - t;
                steps[1] += now_s() - tp;
                if (churn && f > 0) {
                    /* Group f - 1 ended in this tick (removed); its layers get new animations ending in the
                     * middle of the frame 100 frames on (so from frame 101 the bulk-added ones finish too). */
                    size_t m = 0;
                    size_t g = (size_t)((f - 1) % groups);
                    if (layout == CHURN_CLUSTERED) {
                        /* The i with i * groups / n == g. */
                        for (size_t i = (g * n + groups - 1) / groups; i < n && i * groups / n == g; i++)
                            group_layers[m++] = layers[i];
                    } else {
                        for (size_t i = g; i < n; i += groups) group_layers[m++] = layers[i];
                    }
                    double *b = begin, *d = dur;  /* reuse the first m entries as columns */
                    for (size_t k = 0; k < m; k++) { b[k] = now - 0.5; d[k] = ((double)groups - 0.5) * dt + 0.5; }
                    animrt_column cols[4] = {{ANIMRT_COLUMN_BEGIN_TIME, b}, {ANIMRT_COLUMN_DURATION, d},
                                             {ANIMRT_COLUMN_FROM, from}, {ANIMRT_COLUMN_TO, to}};
                    double ta = now_s();
                    CHECK(animrt_layer_add_animations(rt, a[f % 5], group_layers, m, cols, 4, NULL, 0, NULL));
                    steps[2] += now_s() - ta;
                }
                double tr = now_s();
                CHECK(animrt_reader_read(rt, reader, out, n, &needed));
                steps[3] += now_s() - tr;
                spent += now_s() - t;
            }
            double ms = spent * 1e3 / frames;
            if (ms < best[churn]) {
                best[churn] = ms;
                for (int k = 0; k < 4; k++) split[churn][k] = steps[k] * 1e3 / frames;
            }
            double td = now_s();
            animrt_runtime_destroy(rt);  /* its 10^6 animations stop (events counted, not kept) */
            if ((now_s() - td) * 1e3 < best_destroy[churn]) best_destroy[churn] = (now_s() - td) * 1e3;
        }
    }
    if (only) {
        printf("%s_ms %.3f\n", first ? "churn" : "steady", best[first]);
    } else {
        printf("steady_ms %.3f\nchurn_ms %.3f\nchurn_ratio %.3f\n", best[0], best[1], best[1] / best[0]);
        static const char *step_names[4] = {"tick", "events", "add", "read"};
        for (int c = 0; c < 2; c++)
            for (int k = 0; k < 4; k++) printf("%s_%s_ms %.3f\n", c ? "churn" : "steady", step_names[k], split[c][k]);
        printf("destroy_steady_ms %.1f\ndestroy_churned_ms %.1f\n", best_destroy[0], best_destroy[1]);
    }
    free(begin); free(dur); free(from); free(to); free(out); free(layers); free(group_layers); free(kps);
    return 0;
}

/* Ticks with N finished fills against ticks of the same layers with none. */
static int bench_fills(size_t n) {
    animrt_id *layers = malloc(n * sizeof *layers);
    double *begin = malloc(n * sizeof *begin), *dur = malloc(n * sizeof *dur);
    double *from = malloc(n * sizeof *from), *to = malloc(n * sizeof *to);
    double best[2] = {1e30, 1e30};
    const int ticks = 200;
    for (int r = 0; r < 3; r++) {
        for (int filled = 0; filled < 2; filled++) {
            animrt_runtime *rt;
            animrt_id a;
            CHECK(animrt_runtime_create(0, &rt));
            CHECK(animrt_layer_create_many(rt, 0, n, layers));
            if (filled) {
                seed_rand(3);
                active_columns(n, 1, 0.5, begin, dur, from, to);
                for (size_t i = 0; i < n; i++) { begin[i] = 0.5; dur[i] = 0.25 + 0.5 * (double)i / (double)n; }
                CHECK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
                CHECK(animrt_animation_set_timing_function(rt, a, "easeOut"));
                CHECK(animrt_animation_set_fill_mode(rt, a, ANIMRT_FILL_FORWARDS));
                CHECK(animrt_animation_set_flag(rt, a, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
                animrt_column cols[4] = {{ANIMRT_COLUMN_BEGIN_TIME, begin}, {ANIMRT_COLUMN_DURATION, dur},
                                         {ANIMRT_COLUMN_FROM, from}, {ANIMRT_COLUMN_TO, to}};
                CHECK(animrt_layer_add_animations(rt, a, layers, n, cols, 4, NULL, 0, NULL));
            }
            CHECK(animrt_runtime_tick(rt, 0));
            CHECK(animrt_runtime_tick(rt, 0.75));
            CHECK(animrt_runtime_tick(rt, 2));  /* every animation has finished and fills */
            drain(rt);
            double t = now_s();
            for (int k = 0; k < ticks; k++) CHECK(animrt_runtime_tick(rt, 2 + k / 60.0));
            double ns = (now_s() - t) * 1e9 / ticks;
            if (ns < best[filled]) best[filled] = ns;
            animrt_runtime_destroy(rt);
        }
    }
    printf("empty_tick_ns %.1f\nfilled_tick_ns %.1f\nns_per_fill_per_tick %.4f\n", best[0], best[1],
           (best[1] - best[0]) / (double)n);
    free(layers); free(begin); free(dur); free(from); free(to);
    return 0;
}

static int bench_sets(size_t n, size_t m) {
    animrt_runtime *rt;
    animrt_keypath kp;
    animrt_id *layers = malloc(n * sizeof *layers);
    const int frames = 50;
    double best = 1e30, one = 1, best_single = 1e30, best_bulk = 1e30;
    if (m == 0 || m > n) {
        fprintf(stderr, "sets: M is %zu; it is 1 to N (%zu)\n", m, n);
        free(layers);
        return 2;
    }
    animrt_id *chosen = malloc(m * sizeof *chosen);
    double *values = malloc(m * sizeof *values);
    CHECK(animrt_runtime_create(0, &rt));
    CHECK(animrt_keypath_id(rt, "opacity", &kp));
    CHECK(animrt_layer_create_many(rt, 0, n, layers));
    for (size_t i = 0; i < n; i++) CHECK(animrt_layer_set_value(rt, layers[i], kp, &one, 1));
    CHECK(animrt_runtime_tick(rt, 0));
    for (int r = 0; r < 5; r++) {
        double spent = 0, single = 0, bulk = 0;
        for (int f = 0; f < frames; f++) {
            const size_t step = n / m;
            for (size_t k = 0; k < m; k++) {
                chosen[k] = layers[(k * step + (size_t)f * 7919) % n];
                values[k] = 0.01 * f;
            }
            /* Alternate frames set the values one call a layer, or all in one call. */
            double t0 = now_s();
            if (f % 2) CHECK(animrt_layer_set_values(rt, chosen, m, kp, values, m));
            else for (size_t k = 0; k < m; k++) CHECK(animrt_layer_set_value(rt, chosen[k], kp, &values[k], 1));
            double t = now_s();
            *(f % 2 ? &bulk : &single) += t - t0;
            CHECK(animrt_runtime_tick(rt, 1 + r * frames + f));
            spent += now_s() - t;
        }
        if (spent / frames < best) best = spent / frames;
        if (single / (frames / 2) < best_single) best_single = single / (frames / 2);
        if (bulk / (frames / 2) < best_bulk) best_bulk = bulk / (frames / 2);
    }
    printf("tick_ms %.3f\nns_per_set_value %.1f\nns_per_value_set_one_by_one %.1f\nns_per_value_set_in_bulk %.1f\n",
           best * 1e3, best * 1e9 / (double)m, best_single * 1e9 / (double)m, best_bulk * 1e9 / (double)m);
    free(chosen);
    free(values);
    animrt_runtime_destroy(rt);
    free(layers);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "bulk") == 0) return bench_bulk(strtoull(argv[2], 0, 10));
    if (argc >= 3 && argc <= 4 && strcmp(argv[1], "churn") == 0) {
        const char *layout = argc == 4 ? argv[3] : "spread";
        if (strcmp(layout, "spread") == 0) return bench_churn(strtoull(argv[2], 0, 10), CHURN_SPREAD);
        if (strcmp(layout, "scattered") == 0) return bench_churn(strtoull(argv[2], 0, 10), CHURN_SCATTERED);
        if (strcmp(layout, "clustered") == 0) return bench_churn(strtoull(argv[2], 0, 10), CHURN_CLUSTERED);
    }
    if (argc >= 4 && strcmp(argv[1], "sets") == 0) return bench_sets(strtoull(argv[2], 0, 10), strtoull(argv[3], 0, 10));
    if (argc >= 3 && strcmp(argv[1], "fills") == 0) return bench_fills(strtoull(argv[2], 0, 10));
    if (argc >= 3 && strcmp(argv[1], "add") == 0) return bench_add(strtoull(argv[2], 0, 10));
    if (argc >= 2 && strcmp(argv[1], "read") == 0) return bench_read();
    if (argc >= 4 && strcmp(argv[1], "frame") == 0) return bench_frame(strtoull(argv[2], 0, 10), atoi(argv[3]));
    fprintf(stderr, "usage: abi_bench read | frame N FRAMES | add N | bulk N | churn N [scattered | clustered] | sets N M | fills N\n");
    return 2;
}
