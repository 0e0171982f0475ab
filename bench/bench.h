/* What the C benchmarks share: a monotonic clock, a small deterministic
 * random sequence, and a CHECK that stops the benchmark on any error (a
 * figure measured after a failed call would mean nothing). */
#ifndef ANIMRT_BENCH_H
#define ANIMRT_BENCH_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "animrt.h"

/* Seconds on the monotonic clock. */
static inline double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The same sequence on every run (a 64-bit LCG's high bits). */
static unsigned long long bench_rand_state = 1;
static inline unsigned next_rand(void) {
    bench_rand_state = bench_rand_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(bench_rand_state >> 33);
}

/* Starts the sequence again from `seed`. */
static inline void seed_rand(unsigned long long seed) { bench_rand_state = seed; }

#define CHECK(call) do { animrt_status s_ = (call); if (s_) { \
    fprintf(stderr, "%s: %s\n", #call, animrt_last_error_message()); exit(1); } } while (0)
#endif
