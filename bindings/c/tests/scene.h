/* Helpers the C test programs share to build and read scenes: a runtime, key
 * paths, a basic animation, a presentation value, and event comparison. */
#ifndef ANIMRT_TEST_SCENE_H
#define ANIMRT_TEST_SCENE_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "animrt.h"

/* A runtime with the default number of threads; exits the test program if
 * it cannot be made (nothing else could be tested). */
static inline animrt_runtime *rt_new(void) {
    animrt_runtime *rt = NULL;
    if (animrt_runtime_create(0, &rt) != ANIMRT_OK) { fprintf(stderr, "cannot create a runtime\n"); exit(2); }
    return rt;
}

/* The id of a key path; -1 (and a message) if the runtime does not know it. */
static inline animrt_keypath kp(animrt_runtime *rt, const char *path) {
    animrt_keypath id = -1;
    if (animrt_keypath_id(rt, path, &id) != ANIMRT_OK) fprintf(stderr, "unknown key path %s\n", path);
    return id;
}

/* The first component of what `layer` shows for `path` (NAN if unreadable). */
static inline double presentation(animrt_runtime *rt, animrt_id layer, const char *path) {
    double v = NAN;
    size_t n = 0;
    animrt_layer_get_presentation(rt, layer, kp(rt, path), &v, 1, &n);
    return v;
}

/* A basic animation of a scalar from `from` to `to` over `duration` seconds. */
static inline animrt_id basic(animrt_runtime *rt, const char *path, double from, double to, double duration) {
    animrt_id a = 0;
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, path, &a);
    animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1);
    animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1);
    animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, duration);
    return a;
}

/* Whether two events are the same, bit for bit (times and numbers compared
 * as bytes, strings by content). */
static inline int same_event(const animrt_event *x, const animrt_event *y) {
    if (x->type != y->type || memcmp(&x->time, &y->time, sizeof x->time) != 0 || x->reason != y->reason
        || x->name != y->name || x->from_state != y->from_state || x->to_state != y->to_state || x->token != y->token
        || x->payload_count != y->payload_count) return 0;
    for (uint32_t i = 0; i < x->payload_count; i++) {
        const animrt_value *p = &x->payload[i], *q = &y->payload[i];
        if (p->type != q->type || p->boolean != q->boolean || memcmp(&p->number, &q->number, sizeof p->number) != 0) return 0;
        if (p->type == ANIMRT_TYPE_STRING && strcmp(p->string, q->string) != 0) return 0;
    }
    return 1;
}
#endif
