/* Traces (R3.0.3): a session recorded from C replays into a fresh runtime
 * with the same events and values, bit for bit; a trace that no longer fits
 * says where; every refusal leaves the runtime as it was. */
#define _GNU_SOURCE  /* sched_setaffinity, for one test */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "scene.h"

static const char *TOGGLE =
    "{\"name\": \"toggle\", \"context\": {\"n\": {\"type\": \"number\", \"initial\": 0}},"
    " \"events\": {\"tap\": {\"payload\": [{\"name\": \"by\", \"type\": \"number\", \"default\": 1}]}},"
    " \"parts\": [{\"name\": \"knob\", \"properties\": {\"position\": [0, 0]}}],"
    " \"animations\": {\"slide\": {\"type\": \"spring\", \"keyPath\": \"position.x\", \"to\": \"context.n * 10\", \"damping\": 12,"
    "                              \"stiffness\": 180, \"fromPresentation\": true}},"
    " \"initial\": \"off\","
    " \"states\": {\"off\": {\"on\": {\"tap\": {\"target\": \"on\", \"actions\": [{\"assign\": {\"n\": \"context.n + event.by\"}}]}}},"
    "            \"on\": {\"entry\": [{\"animate\": \"slide\", \"part\": \"knob\", \"key\": \"slide\"}], \"after\": [{\"delay\": 0.4, \"target\": \"off\"}],"
    "                    \"on\": {\"tap\": \"off\"}}}}";

/* The session: layers, every kind of animation, a barrier, a timer, a
 * transaction, a machine with sends; `log` gets every event and value. */
static void session(animrt_runtime *rt, FILE *log) {
    animrt_id root, dot, fade, spin, keys, group, child, barrier, timer, def, m, knob;
    animrt_keypath opacity, x, rotation;
    double v0 = 0, v1 = 1, keyframes[] = {0, 5, 2, 9};
    animrt_layer_create(rt, 0, &root);
    animrt_layer_create(rt, root, &dot);
    animrt_keypath_id(rt, "opacity", &opacity);
    animrt_keypath_id(rt, "position.x", &x);
    animrt_keypath_id(rt, "transform.rotation.z", &rotation);
    animrt_layer_set_value(rt, dot, opacity, &v1, 1);
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &fade);
    animrt_animation_set_value(rt, fade, ANIMRT_FROM, &v0, 1);
    animrt_animation_set_value(rt, fade, ANIMRT_TO, &v1, 1);
    animrt_animation_set_timing(rt, fade, ANIMRT_TIMING_DURATION, 0.5);
    animrt_animation_set_timing_function(rt, fade, "easeInEaseOut");
    animrt_barrier_create(rt, &barrier);
    animrt_barrier_notify(rt, barrier, 7);
    animrt_layer_add_animation(rt, dot, fade, "fade", barrier, NULL);
    animrt_id dots[3];
    double begins[3] = {0.1, 0.2, 0.3}, tos[3] = {0.25, 0.5, 0.75};
    animrt_column columns[2] = {{ANIMRT_COLUMN_BEGIN_TIME, begins}, {ANIMRT_COLUMN_TO, tos}};
    animrt_layer_create_many(rt, root, 3, dots);
    animrt_layer_add_animations(rt, fade, dots, 3, columns, 2, "dots", barrier, NULL);
    double xs[3] = {4, 8, 16};
    animrt_layer_set_values(rt, dots, 3, x, xs, 3);
    animrt_layer_set_values(rt, NULL, 0, x, NULL, 0);  /* nothing set: recorded with no arrays, replayed so */
    animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "position.x", &keys);
    animrt_keyframe_set_values(rt, keys, keyframes, 4, 1);
    animrt_keyframe_set_calculation_mode(rt, keys, ANIMRT_CALC_CUBIC);
    animrt_animation_set_timing(rt, keys, ANIMRT_TIMING_REPEAT_COUNT, 2.5);
    animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "transform.rotation.z", &spin);
    animrt_animation_set_value(rt, spin, ANIMRT_BY, &v1, 1);
    animrt_animation_set_timing(rt, spin, ANIMRT_TIMING_REPEAT_COUNT, INFINITY);
    animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group);
    animrt_group_add(rt, group, spin);
    animrt_id copy = 0;  /* a description a getter makes: the replay makes it too, with the same handle */
    animrt_group_get_child(rt, group, 0, &copy);
    animrt_layer_add_animation(rt, dot, copy, "copy", 0, NULL);
    animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "opacity", &child);
    animrt_animation_set_spring(rt, child, 1, 120, 9, 0);
    animrt_transaction_begin(rt, 0.8);
    animrt_layer_add_animation(rt, root, keys, "keys", 0, NULL);
    animrt_layer_add_animation(rt, root, group, NULL, 0, NULL);
    animrt_transaction_commit(rt, 3);
    animrt_timer_start(rt, 0.35, 11, &timer);
    animrt_definition_load(rt, TOGGLE, &def);
    animrt_machine_create(rt, def, root, NULL, &m);
    animrt_machine_part(rt, m, "knob", &knob);
    animrt_value by = {ANIMRT_TYPE_NUMBER, 0, 2.0, 0, NULL, NULL};
    for (int i = 0; i <= 40; i++) {
        double t = i * 0.05;
        if (i == 3) animrt_machine_send(rt, m, 0, &by, 1, NULL);
        if (i == 9) animrt_machine_send_json(rt, m, "tap", "{\"by\": 3}", NULL);
        if (i == 12) animrt_layer_add_animation(rt, dot, child, "fade", 0, NULL);
        if (i == 20) animrt_layer_remove_animation(rt, root, "keys", NULL);
        animrt_runtime_tick(rt, t);
        double a, b, c, d, e;
        size_t n;
        animrt_layer_get_presentation(rt, dot, opacity, &a, 1, &n);
        animrt_layer_get_presentation(rt, root, x, &b, 1, &n);
        animrt_layer_get_presentation(rt, root, rotation, &c, 1, &n);
        animrt_layer_get_presentation(rt, knob, x, &d, 1, &n);
        animrt_layer_get_presentation(rt, dots[2], x, &e, 1, &n);
        fprintf(log, "%.17g %.17g %.17g %.17g %.17g\n", a, b, c, d, e);
        animrt_event ev[64];
        size_t got;
        animrt_event_poll(rt, ev, 64, &got);
        for (size_t k = 0; k < got; k++)
            fprintf(log, "  event %d %d %.17g %llx %llx %d %d %d %u\n", ev[k].type, ev[k].reason, ev[k].time,
                    (unsigned long long)(ev[k].object & 0xffffffffffffULL), (unsigned long long)ev[k].token,
                    ev[k].name, ev[k].from_state, ev[k].to_state, ev[k].payload_count);
    }
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    s[fread(s, 1, (size_t)n, f)] = 0;
    fclose(f);
    return s;
}

TEST(record_and_replay) {
    const char *trace = "/tmp/animrt-test.trace", *log1 = "/tmp/animrt-test-1.log", *log2 = "/tmp/animrt-test-2.log";
    animrt_runtime *a = rt_new();
    CHECK_OK(animrt_trace_start(a, trace));
    CHECK_STATUS(animrt_trace_start(a, trace), ANIMRT_E_STATE);
    FILE *f = fopen(log1, "w");
    session(a, f);
    fclose(f);
    CHECK_OK(animrt_trace_stop(a));
    CHECK_STATUS(animrt_trace_stop(a), ANIMRT_E_STATE);
    animrt_runtime_destroy(a);

    animrt_runtime *b = rt_new();
    /* Each call was made again and left the recorded digests: the same
     * events (every field, payloads included) and, after every tick, the
     * same presentation values, to the bit. */
    size_t calls = 0, lines = 0;
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    char *recorded = slurp(trace);
    for (char *p = recorded; p && *p; p++) lines += *p == '\n';
    CHECK(recorded && strstr(recorded, "\"animrt_layer_set_values\""));
    free(recorded);
    CHECK(calls == lines - 1 && calls > 70);  /* every line but the header */
    animrt_runtime_destroy(b);

    /* The same session run from scratch in a runtime that replays nothing
     * prints the same as the original (determinism); the replay itself was
     * checked call by call against the recorded digests. */
    animrt_runtime *c = rt_new();
    f = fopen(log2, "w");
    session(c, f);
    fclose(f);
    animrt_runtime_destroy(c);
    char *x = slurp(log1), *y = slurp(log2);
    CHECK(x && y && strcmp(x, y) == 0 && strlen(x) > 1000);
    free(x);
    free(y);

    animrt_runtime *d = rt_new();
    animrt_id layer;
    CHECK_OK(animrt_layer_create(d, 0, &layer));
    CHECK_STATUS(animrt_trace_replay(d, trace, &calls), ANIMRT_E_STATE);
    CHECK_MESSAGE("fresh runtime");
    CHECK_STATUS(animrt_trace_start(d, "/tmp/animrt-other.trace"), ANIMRT_E_STATE);
    CHECK_MESSAGE("before the runtime is used");
    animrt_runtime_destroy(d);
    /* A loaded definition uses the runtime as much as a layer: the trace would replay without it. */
    animrt_runtime *used = rt_new();
    animrt_id def = 0;
    CHECK_OK(animrt_definition_load(used, TOGGLE, &def));
    CHECK_STATUS(animrt_trace_start(used, "/tmp/animrt-other.trace"), ANIMRT_E_STATE);
    CHECK_MESSAGE("before the runtime is used");
    CHECK_STATUS(animrt_trace_stop(used), ANIMRT_E_STATE);
    animrt_runtime_destroy(used);
    animrt_runtime *e = rt_new();
    CHECK_STATUS(animrt_trace_replay(e, "/nonexistent/x.trace", &calls), ANIMRT_E_NOT_FOUND);
    /* A device is refused before a read that would never end. */
    CHECK_STATUS(animrt_trace_replay(e, "/dev/zero", &calls), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("cannot read the trace '/dev/zero': it is not a regular file");
    CHECK_STATUS(animrt_trace_replay(e, log1, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("not an animrt trace");
    CHECK_STATUS(animrt_trace_start(e, "/nonexistent/dir/x.trace"), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_trace_start(e, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_trace_replay(NULL, trace, &calls), ANIMRT_E_NULL);
    animrt_runtime_destroy(e);
}

/* Edits line `line` (1-based) of `path`: the first occurrence of `from` becomes `to`. */
static int edit_line(const char *path, int line, const char *from, const char *to) {
    char *text = slurp(path);
    if (!text) return 0;
    char *p = text;
    for (int i = 1; i < line && p; i++) { p = strchr(p, '\n'); if (p) p++; }
    char *end = p ? strchr(p, '\n') : NULL;
    char *hit = p ? strstr(p, from) : NULL;
    int ok = hit && (!end || hit < end);
    if (ok) {
        FILE *f = fopen(path, "wb");
        fwrite(text, 1, (size_t)(hit - text), f);
        fputs(to, f);
        fputs(hit + strlen(from), f);
        fclose(f);
    }
    free(text);
    return ok;
}

TEST(divergence_is_named) {
    const char *trace = "/tmp/animrt-diverge.trace";
    animrt_runtime *a = rt_new();
    CHECK_OK(animrt_trace_start(a, trace));
    animrt_id layer, anim;
    animrt_keypath opacity;
    double from = 0, to = 1;
    animrt_layer_create(a, 0, &layer);                                      /* line 2 */
    animrt_keypath_id(a, "opacity", &opacity);                              /* line 3 */
    animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &anim);   /* line 4 */
    animrt_animation_set_value(a, anim, ANIMRT_FROM, &from, 1);             /* line 5 */
    animrt_animation_set_value(a, anim, ANIMRT_TO, &to, 1);                 /* line 6 */
    animrt_layer_add_animation(a, layer, anim, "fade", 0, NULL);            /* line 7 */
    animrt_runtime_tick(a, 0);                                              /* line 8 */
    animrt_runtime_tick(a, 0.125);                                          /* line 9 */
    animrt_runtime_destroy(a);
    animrt_runtime *b = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    CHECK(calls == 8);
    animrt_runtime_destroy(b);
    /* A different end value: the presentation after the second tick differs. */
    CHECK(edit_line(trace, 6, "{\"D\":[1]}", "{\"D\":[0.75]}"));
    b = rt_new();
    CHECK_STATUS(animrt_trace_replay(b, trace, &calls), ANIMRT_E_STATE);
    CHECK_MESSAGE("diverges at trace line 9 (animrt_runtime_tick): the presentation values differ");
    CHECK(calls == 7);
    animrt_runtime_destroy(b);
    /* A call that now fails. */
    CHECK(edit_line(trace, 4, "\"opacity\"", "\"opacty\""));
    b = rt_new();
    CHECK_STATUS(animrt_trace_replay(b, trace, &calls), ANIMRT_E_STATE);
    CHECK_MESSAGE("diverges at trace line 4: animrt_animation_create succeeded when recorded and now fails");
    CHECK(calls == 2);
    animrt_runtime_destroy(b);
}

/* An edited argument of another kind than the call takes (a handle written
 * as a number, a time as a text) would reach the call as 0, NaN or NULL: a
 * parent of 0 makes a root layer, and the replay would go on with a tree the
 * recording never had. Each is refused before the call, naming its line,
 * the argument and both kinds. */
TEST(an_argument_of_another_kind_is_refused) {
    const char *trace = "/tmp/animrt-argument-kind.trace";
    animrt_runtime *a = rt_new();
    CHECK_OK(animrt_trace_start(a, trace));
    animrt_id parent, child;
    animrt_layer_create(a, 0, &parent);                                     /* line 2 */
    animrt_layer_create(a, parent, &child);                                 /* line 3 */
    animrt_runtime_set_threads(a, 1);                                       /* line 4 */
    animrt_runtime_tick(a, 0.5);                                            /* line 5 */
    animrt_runtime_destroy(a);
    struct { int line; const char *from, *to, *message; } edits[] = {
        {3, "{\"h\":", "{\"d\":", "trace line 3 is not a recorded call: argument 1 of animrt_layer_create is a number, where the call takes a handle"},
        {4, "{\"i\":", "{\"d\":", "trace line 4 is not a recorded call: argument 1 of animrt_runtime_set_threads is a number, where the call takes a whole number"},
        {5, "{\"d\":0.5}", "{\"s\":\"0.5\"}", "trace line 5 is not a recorded call: argument 1 of animrt_runtime_tick is a text, where the call takes a number"},
        {5, "{\"d\":0.5}", "{\"D\":[0.5]}", "trace line 5 is not a recorded call: argument 1 of animrt_runtime_tick is a list of numbers, where the call takes a number"},
    };
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
        CHECK(edit_line(trace, edits[k].line, edits[k].from, edits[k].to));
        animrt_runtime *b = rt_new();
        size_t calls = 99;
        CHECK_STATUS(animrt_trace_replay(b, trace, &calls), ANIMRT_E_INVALID);
        CHECK_MESSAGE(edits[k].message);
        CHECK(calls == (size_t)edits[k].line - 2);
        animrt_runtime_destroy(b);
        /* Put back, so that the next edit is the only one. */
        CHECK(edit_line(trace, edits[k].line, edits[k].to, edits[k].from));
    }
    /* Unedited again, it replays whole, the child under its parent. */
    animrt_runtime *c = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(c, trace, &calls));
    CHECK(calls == 4);
    animrt_runtime_destroy(c);
    remove(trace);
}

/* Rewrites `path` with a blank line after each line, and `extra` more at its end. */
static int double_space(const char *path, int extra) {
    char *text = slurp(path);
    if (!text) return 0;
    FILE *f = fopen(path, "wb");
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n') fputc('\n', f);
    }
    for (int i = 0; i < extra; i++) fputc('\n', f);
    fclose(f);
    free(text);
    return 1;
}

/* Blank lines (a trace pasted into a report, edited by hand) are passed
 * over, but counted: a message names the line as the file numbers it. */
TEST(blank_lines_are_counted) {
    const char *trace = "/tmp/animrt-blank-lines.trace";
    animrt_runtime *a = rt_new();
    CHECK_OK(animrt_trace_start(a, trace));
    animrt_id layer, anim;
    double to = 1;
    animrt_layer_create(a, 0, &layer);                                      /* line 2, then 3 */
    animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &anim);   /* line 3, then 5 */
    animrt_animation_set_value(a, anim, ANIMRT_TO, &to, 1);                 /* line 4, then 7 */
    animrt_layer_add_animation(a, layer, anim, "fade", 0, NULL);            /* line 5, then 9 */
    animrt_runtime_tick(a, 0);                                              /* line 6, then 11 */
    animrt_runtime_destroy(a);
    CHECK(double_space(trace, 3));
    animrt_runtime *b = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    CHECK(calls == 5);
    animrt_runtime_destroy(b);
    CHECK(edit_line(trace, 5, "\"opacity\"", "\"opacty\""));
    b = rt_new();
    CHECK_STATUS(animrt_trace_replay(b, trace, &calls), ANIMRT_E_STATE);
    CHECK_MESSAGE("diverges at trace line 5: animrt_animation_create succeeded when recorded and now fails");
    CHECK(calls == 1);
    animrt_runtime_destroy(b);
    /* A line that is not a call, after the blank ones, by its own number. */
    CHECK(edit_line(trace, 9, "\"call\"", "\"cal\""));
    CHECK(edit_line(trace, 5, "\"opacty\"", "\"opacity\""));
    b = rt_new();
    CHECK_STATUS(animrt_trace_replay(b, trace, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("trace line 9 is not a recorded call: the member 'call' is missing");
    CHECK(calls == 3);
    animrt_runtime_destroy(b);
    remove(trace);
}

/* Rewrites `path` with each line ending in CRLF, and a blank CRLF line after the first. */
static int to_crlf(const char *path) {
    char *text = slurp(path);
    if (!text) return 0;
    FILE *f = fopen(path, "wb");
    int lines = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            fputs("\r\n", f);
            if (++lines == 1) fputs("\r\n", f);
        } else {
            fputc(*p, f);
        }
    }
    fclose(f);
    free(text);
    return 1;
}

/* A trace that went through a Windows editor, a mail or a checkout that
 * converts line ends has CRLF at the end of each line: it replays as it
 * was recorded, a blank CRLF line passed over and counted. */
TEST(crlf_line_ends_replay) {
    const char *trace = "/tmp/animrt-crlf.trace";
    animrt_runtime *a = rt_new();
    CHECK_OK(animrt_trace_start(a, trace));
    animrt_id layer, anim;
    double to = 1;
    animrt_layer_create(a, 0, &layer);                                      /* line 2, then 3 */
    animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &anim);   /* line 3, then 4 */
    animrt_animation_set_value(a, anim, ANIMRT_TO, &to, 1);                 /* line 4, then 5 */
    animrt_layer_add_animation(a, layer, anim, "fade", 0, NULL);            /* line 5, then 6 */
    animrt_runtime_tick(a, 0);                                              /* line 6, then 7 */
    animrt_runtime_tick(a, 0.1);                                            /* line 7, then 8 */
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);
    CHECK(to_crlf(trace));
    animrt_runtime *b = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    CHECK(calls == 6);
    animrt_runtime_destroy(b);
    CHECK(edit_line(trace, 4, "\"opacity\"", "\"opacty\""));
    b = rt_new();
    CHECK_STATUS(animrt_trace_replay(b, trace, &calls), ANIMRT_E_STATE);
    CHECK_MESSAGE("diverges at trace line 4: animrt_animation_create succeeded when recorded and now fails");
    CHECK(calls == 1);
    animrt_runtime_destroy(b);
    remove(trace);
}

/* An event callback may destroy the runtime a trace replays into (the
 * header allows destroy from inside the callback): the replay stops there,
 * says so and how many calls it made, and reads nothing of the freed
 * runtime (under ASan, `make test` checks that last part). */
static animrt_runtime *replaying;
static int destroyed_in_callback;

static void destroy_on_first_event(void *user, const animrt_event *e) {
    (void)user; (void)e;
    if (!destroyed_in_callback) { destroyed_in_callback = 1; animrt_runtime_destroy(replaying); }
}

TEST(a_callback_that_destroys_the_runtime_stops_the_replay) {
    const char *trace = "/tmp/animrt-destroyed-replay.trace";
    animrt_runtime *a = rt_new();
    CHECK_OK(animrt_trace_start(a, trace));
    animrt_id layer, anim;
    double from = 0, to = 1;
    animrt_layer_create(a, 0, &layer);                                      /* line 2 */
    animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &anim);   /* line 3 */
    animrt_animation_set_value(a, anim, ANIMRT_FROM, &from, 1);             /* line 4 */
    animrt_animation_set_value(a, anim, ANIMRT_TO, &to, 1);                 /* line 5 */
    animrt_layer_add_animation(a, layer, anim, "fade", 0, NULL);            /* line 6 */
    animrt_runtime_tick(a, 1);                                              /* line 7: the first event */
    animrt_runtime_tick(a, 2);                                              /* line 8 */
    animrt_layer_create(a, 0, &layer);                                      /* line 9 */
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);
    CHECK_OK(animrt_runtime_create(0, &replaying));
    CHECK_OK(animrt_event_set_callback(replaying, destroy_on_first_event, NULL));
    size_t calls = 99;
    CHECK_STATUS(animrt_trace_replay(replaying, trace, &calls), ANIMRT_E_STATE);
    CHECK_MESSAGE("the runtime was destroyed during the replay, at trace line 7 (animrt_runtime_tick; by its event callback or another thread)");
    CHECK(destroyed_in_callback == 1);
    CHECK(calls == 6);  /* the tick that destroyed it counts: it succeeded */
    remove(trace);
}

/* Another thread may destroy the runtime a trace replays into at any
 * moment of the replay, as it may during any call: while the replay reads
 * its file (destroy waits for the lock) or between its calls. The replay
 * stops, says so, and reads nothing of the freed runtime. It used to keep
 * the runtime only after letting go of the lock it read the file under: a
 * destroy waiting for that lock freed the runtime first, and the replay
 * went on in freed memory. The window is a few instructions wide; on one
 * processor the destroying thread, woken as the lock is let go, runs
 * before the replaying one goes on, and then fills the memory destroy gave
 * back (the host's again), which the old replay crashed on. */
static void pause_us(long us) {
    struct timespec ts = {us / 1000000, us % 1000000 * 1000};
    nanosleep(&ts, NULL);
}

static struct { animrt_runtime *rt; const char *path; int started; animrt_status status; size_t calls; char message[512]; } across;

static void *replay_across(void *p) {
    (void)p;
    __atomic_store_n(&across.started, 1, __ATOMIC_SEQ_CST);
    across.status = animrt_trace_replay(across.rt, across.path, &across.calls);
    snprintf(across.message, sizeof across.message, "%s", animrt_last_error_message());
    return NULL;
}

TEST(another_thread_destroying_the_runtime_stops_the_replay) {
    across.path = "/tmp/animrt-destroyed-across.trace";
    enum { ADDS = 1500 };
    animrt_runtime *a = rt_new();
    CHECK_OK(animrt_trace_start(a, across.path));
    animrt_id layer = 0, anim = 0;
    double to = 1;
    CHECK_OK(animrt_layer_create(a, 0, &layer));
    CHECK_OK(animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK_OK(animrt_animation_set_value(a, anim, ANIMRT_TO, &to, 1));
    for (int i = 0; i < ADDS; i++) {
        CHECK_OK(animrt_layer_add_animation(a, layer, anim, i % 2 ? "fade" : NULL, 0, NULL));
        CHECK_OK(animrt_runtime_tick(a, i * 0.01));
    }
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);
    size_t whole = 2 * ADDS + 3;
    cpu_set_t all, one;
    CHECK(sched_getaffinity(0, sizeof all, &all) == 0);
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &all)) { CPU_SET(cpu, &one); break; }
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);  /* the replaying thread inherits it */
    alarm(120);
    for (int round = 0; round < 12; round++) {
        across.rt = rt_new();
        across.started = 0;
        across.status = -1;
        across.calls = 99999;
        pthread_t t;
        pthread_create(&t, NULL, replay_across, NULL);
        while (!__atomic_load_n(&across.started, __ATOMIC_SEQ_CST)) pause_us(50);
        pause_us(round % 2 ? 1000 + 300 * round : 100);  /* between its calls, or while it reads the file */
        animrt_runtime_destroy(across.rt);
        void *scribble[64];  /* small blocks of every size, as the runtime's own */
        for (int i = 0; i < 64; i++) {
            scribble[i] = malloc((size_t)(16 + 16 * (i % 16)));
            memset(scribble[i], 0xA5, (size_t)(16 + 16 * (i % 16)));
        }
        pthread_join(t, NULL);
        for (int i = 0; i < 64; i++) free(scribble[i]);
        CHECK(across.status == ANIMRT_E_STATE);
        CHECK(across.calls < whole);
        CHECK(strstr(across.message, "the runtime was destroyed during the replay, at trace line") != NULL
              || strstr(across.message, "the runtime is being destroyed") != NULL);
    }
    alarm(0);
    CHECK(sched_setaffinity(0, sizeof all, &all) == 0);
    /* Undisturbed, the same trace replays whole. */
    animrt_runtime *b = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, across.path, &calls));
    CHECK(calls == whole);
    animrt_runtime_destroy(b);
    remove(across.path);
}

/* A trace file that stops taking lines is never lost unseen: one that
 * cannot take even the header (a full disk: /dev/full) is refused at the
 * start, and one that fills up on the way (a file size limit) makes the
 * stop fail, naming the first line not written. Recording ends either way,
 * and the runtime goes on as it was. */
TEST(a_trace_that_cannot_be_written_is_reported) {
    animrt_runtime *a = rt_new();
    CHECK_STATUS(animrt_trace_start(a, "/dev/full"), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("cannot write the trace file '/dev/full': No space left on device");
    CHECK_STATUS(animrt_trace_stop(a), ANIMRT_E_STATE);
    CHECK_MESSAGE("no trace is being recorded");
    const char *trace = "/tmp/animrt-full.trace";
    CHECK_OK(animrt_trace_start(a, trace));  /* still fresh: the refused start changed nothing */
    animrt_id layer;
    CHECK_OK(animrt_layer_create(a, 0, &layer));                            /* line 2 */
    struct rlimit old, small;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    small = old;
    small.rlim_cur = 2000;  /* the header and line 2 are written; ticks fill the rest */
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    for (int i = 0; i < 100; i++) CHECK_OK(animrt_runtime_tick(a, i * 0.01));  /* lines 3 … 102 */
    CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
    signal(SIGXFSZ, was);
    /* The file would take a line again: nothing more is written (a trace
     * with a hole would replay wrongly), and the message still names the
     * first line lost, the one after the last whole line in the file. */
    animrt_id other;
    CHECK_OK(animrt_layer_create(a, layer, &other));
    CHECK_STATUS(animrt_trace_stop(a), ANIMRT_E_NOT_FOUND);
    char *kept = slurp(trace), expected[256];
    int whole = 0;
    for (char *p = kept; p && *p; p++) whole += *p == '\n';
    CHECK(kept && whole >= 2 && whole < 20);
    char *first = kept ? strstr(kept, "animrt_layer_create") : NULL;  /* line 2's */
    CHECK(first && strstr(first + 1, "animrt_layer_create") == NULL);
    free(kept);
    snprintf(expected, sizeof expected, "the trace file '/tmp/animrt-full.trace' is incomplete: writing line %d "
             "(animrt_runtime_tick) failed: File too large; the calls from there on were not recorded", whole + 1);
    CHECK(strcmp(animrt_last_error_message(), expected) == 0);
    CHECK_STATUS(animrt_trace_stop(a), ANIMRT_E_STATE);
    CHECK_OK(animrt_runtime_tick(a, 2));
    animrt_runtime_destroy(a);
    remove(trace);
}

/* A replay refused before its first call made none, and `calls` says so
 * rather than keeping whatever the caller's variable held. */
TEST(a_refused_replay_says_no_call_was_made) {
    const char *trace = "/tmp/animrt-refused-replay.trace";
    animrt_runtime *a = rt_new();
    animrt_id layer;
    CHECK_OK(animrt_trace_start(a, trace));
    CHECK_OK(animrt_layer_create(a, 0, &layer));
    CHECK_OK(animrt_trace_stop(a));
    size_t calls = 99;
    CHECK_STATUS(animrt_trace_replay(a, trace, &calls), ANIMRT_E_STATE);  /* not fresh */
    CHECK_MESSAGE("a trace replays into a fresh runtime; this one has been used");
    CHECK(calls == 0);
    animrt_runtime_destroy(a);
    animrt_runtime *b = rt_new();
    calls = 99;
    CHECK_STATUS(animrt_trace_replay(b, "/nonexistent/dir/x.trace", &calls), ANIMRT_E_NOT_FOUND);
    CHECK(calls == 0);
    const char *log = "/tmp/animrt-not-a-trace.log";
    FILE *f = fopen(log, "w");
    CHECK(f != NULL);
    if (f) { fputs("started\n", f); fclose(f); }
    calls = 99;
    CHECK_STATUS(animrt_trace_replay(b, log, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("is not an animrt trace");
    CHECK(calls == 0);
    /* A trace saved in another encoding is refused where it first is not UTF-8. */
    f = fopen(log, "wb");
    CHECK(f != NULL);
    if (f) { fputs("{\"animrt\":\"trace\",\"format\":1,\"version\":\"0.3.0\"}\n{\"args\":[{\"s\":\"caf\xe9\"}]}\n", f); fclose(f); }
    calls = 99;
    CHECK_STATUS(animrt_trace_replay(b, log, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("is not UTF-8: at line 2, column 19 (the byte 0xe9)");
    CHECK(calls == 0);
    remove(log);
    calls = 99;
    CHECK_STATUS(animrt_trace_replay(b, NULL, &calls), ANIMRT_E_NULL);
    CHECK(calls == 0);
    calls = 99;
    CHECK_STATUS(animrt_trace_replay(NULL, trace, &calls), ANIMRT_E_NULL);
    CHECK(calls == 0);
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    CHECK(calls == 1);
    animrt_runtime_destroy(b);
    remove(trace);
}

/* A host may take the handles of a bulk add into the array of layers it
 * passed: the trace records the layers the call was given, not the handles
 * written over them, and replays. */
TEST(a_bulk_add_whose_handles_overwrite_its_layers_replays) {
    const char *trace = "/tmp/animrt-bulk-in-place.trace";
    animrt_runtime *a = rt_new();
    animrt_id ids[3], fade;
    double v0 = 0, tos[3] = {0.25, 0.5, 0.75};
    animrt_column column = {ANIMRT_COLUMN_TO, tos};
    CHECK_OK(animrt_trace_start(a, trace));
    CHECK_OK(animrt_layer_create_many(a, 0, 3, ids));
    CHECK_OK(animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &fade));
    CHECK_OK(animrt_animation_set_value(a, fade, ANIMRT_FROM, &v0, 1));
    CHECK_OK(animrt_layer_add_animations(a, fade, ids, 3, &column, 1, NULL, 0, ids));
    CHECK_OK(animrt_runtime_tick(a, 0));
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);
    animrt_runtime *b = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    CHECK(calls == 5);
    animrt_runtime_destroy(b);
    /* A tick's values digest past the range is refused saying so, before the call. */
    CHECK(edit_line(trace, 6, "\"values\":", "\"values\":-1,\"y\":"));
    b = rt_new();
    CHECK_STATUS(animrt_trace_replay(b, trace, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("trace line 6 is not a recorded call: values: -1.0 is out of range; a digest is a whole number from 0 to 2^64 - 1");
    CHECK(calls == 4);
    animrt_runtime_destroy(b);
    remove(trace);
}

/* Stops `a`'s trace at `trace`, destroys `a`, replays the trace in a fresh
 * runtime and returns how many calls it made (the file is removed). */
static size_t replayed_calls(animrt_runtime *a, const char *trace) {
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);
    animrt_runtime *b = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    animrt_runtime_destroy(b);
    remove(trace);
    return calls;
}

/* A bulk add's value column holds each layer's value, its key path's
 * components end to end: ANIMRT_COLUMN_FROM, the first value field, of
 * "position" is recorded as 2 numbers a layer, and replays. */
TEST(a_bulk_from_column_of_a_vector_key_path_replays) {
    const char *trace = "/tmp/animrt-bulk-from.trace";
    animrt_runtime *a = rt_new();
    animrt_id ids[2], slide;
    double froms[4] = {1, 2, 3, 4}, to[2] = {10, 20};
    animrt_column column = {ANIMRT_COLUMN_FROM, froms};
    CHECK_OK(animrt_trace_start(a, trace));
    CHECK_OK(animrt_layer_create_many(a, 0, 2, ids));
    CHECK_OK(animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "position", &slide));
    CHECK_OK(animrt_animation_set_value(a, slide, ANIMRT_TO, to, 2));
    CHECK_OK(animrt_layer_add_animations(a, slide, ids, 2, &column, 1, NULL, 0, NULL));
    CHECK_OK(animrt_runtime_tick(a, 0.1));
    CHECK(replayed_calls(a, trace) == 5);
}

/* animrt_animation_set_value with NULL and 0 clears a slot; the trace
 * records the NULL (as null, not as nothing) and the clear replays. */
TEST(a_cleared_value_replays) {
    const char *trace = "/tmp/animrt-cleared-value.trace";
    animrt_runtime *a = rt_new();
    animrt_id layer, fade;
    double quarter = 0.25, half = 0.5;
    CHECK_OK(animrt_trace_start(a, trace));
    CHECK_OK(animrt_layer_create(a, 0, &layer));
    CHECK_OK(animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &fade));
    CHECK_OK(animrt_animation_set_value(a, fade, ANIMRT_FROM, &quarter, 1));
    CHECK_OK(animrt_animation_set_value(a, fade, ANIMRT_TO, &half, 1));
    CHECK_OK(animrt_animation_set_value(a, fade, ANIMRT_FROM, NULL, 0));
    CHECK_OK(animrt_layer_add_animation(a, layer, fade, "fade", 0, NULL));
    CHECK_OK(animrt_runtime_tick(a, 0.1));
    CHECK(replayed_calls(a, trace) == 7);
}

/* A column's field is an animrt_column_field, 32 bits. A line whose field
 * is past them (-2^32 + 17 here, 17 in its low 32 bits: ANIMRT_COLUMN_TO)
 * is refused before the call: counted as a timing column of 4 numbers, it
 * would reach the call as a "to" column of 4 transforms, 64 numbers read
 * from an array of 4. */
TEST(a_bulk_column_field_past_32_bits_is_refused) {
    const char *trace = "/tmp/animrt-bulk-field.trace";
    animrt_runtime *a = rt_new();
    animrt_id ids[4], grow;
    double durations[4] = {1, 2, 3, 4};
    animrt_column column = {ANIMRT_COLUMN_DURATION, durations};
    CHECK_OK(animrt_trace_start(a, trace));
    CHECK_OK(animrt_layer_create_many(a, 0, 4, ids));
    CHECK_OK(animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "transform", &grow));
    CHECK_OK(animrt_layer_add_animations(a, grow, ids, 4, &column, 1, NULL, 0, NULL));
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);
    CHECK(edit_line(trace, 4, "{\"I\":[1]}", "{\"I\":[-4294967279]}"));
    animrt_runtime *b = rt_new();
    size_t calls = 99;
    CHECK_STATUS(animrt_trace_replay(b, trace, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("trace line 4 is not a recorded call: a column of animrt_layer_add_animations has the field -4294967279, "
                  "which no animrt_column_field is");
    CHECK(calls == 2);
    animrt_runtime_destroy(b);
    remove(trace);
}

/* The other thread of the two-thread session: its own transaction, with a
 * 2 s animation, opened and committed while the first thread has one open. */
typedef struct { animrt_runtime *rt; animrt_id layer, fade; animrt_status status; } second_thread;

static void *second_thread_run(void *p) {
    second_thread *s = p;
    animrt_id attached;
    double two = 2;
    s->status = animrt_transaction_begin(s->rt, 0);
    if (s->status == ANIMRT_OK) s->status = animrt_animation_set_timing(s->rt, s->fade, ANIMRT_TIMING_DURATION, two);
    if (s->status == ANIMRT_OK) s->status = animrt_layer_add_animation(s->rt, s->layer, s->fade, "b", 0, &attached);
    if (s->status == ANIMRT_OK) s->status = animrt_transaction_commit(s->rt, 7);
    return NULL;
}

/* The second thread again, ticking with its transaction open (its events
 * reach the callback then), and committing after. */
static void *second_thread_ticking_run(void *p) {
    second_thread *s = p;
    animrt_id attached;
    s->status = animrt_transaction_begin(s->rt, 0);
    if (s->status == ANIMRT_OK) s->status = animrt_layer_add_animation(s->rt, s->layer, s->fade, "b", 0, &attached);
    if (s->status == ANIMRT_OK) s->status = animrt_runtime_tick(s->rt, 0);
    if (s->status == ANIMRT_OK) s->status = animrt_transaction_commit(s->rt, 7);
    return NULL;
}

/* Transactions are each thread's: a trace says which thread made each call,
 * and the replay makes it as that thread. Replayed as one thread's calls,
 * the second thread's animation would join the first thread's transaction,
 * which would then complete a second later. */
TEST(transactions_of_two_threads_replay_as_theirs) {
    const char *trace = "/tmp/animrt-two-threads.trace";
    animrt_runtime *a = rt_new();
    animrt_id layers[2], fade, attached;
    double zero = 0, one = 1;
    animrt_event events[8];
    size_t count = 0;
    CHECK_OK(animrt_trace_start(a, trace));
    CHECK_OK(animrt_layer_create_many(a, 0, 2, layers));
    CHECK_OK(animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &fade));
    CHECK_OK(animrt_animation_set_value(a, fade, ANIMRT_TO, &zero, 1));
    CHECK_OK(animrt_animation_set_timing(a, fade, ANIMRT_TIMING_DURATION, one));
    CHECK_OK(animrt_transaction_begin(a, 0));
    CHECK_OK(animrt_layer_add_animation(a, layers[0], fade, "a", 0, &attached));
    second_thread s = {a, layers[1], fade, ANIMRT_E_STATE};  /* until the thread runs */
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, second_thread_run, &s) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_OK(s.status);
    CHECK_OK(animrt_transaction_commit(a, 8));
    CHECK_OK(animrt_runtime_tick(a, 0));
    CHECK_OK(animrt_runtime_tick(a, 1.5));
    uint64_t completed[2] = {0, 0};
    size_t n = 0;
    CHECK_OK(animrt_event_poll(a, events, 8, &count));
    for (size_t k = 0; k < count; k++)
        if (events[k].type == ANIMRT_EVENT_TRANSACTION_COMPLETED && n < 2) completed[n++] = events[k].token;
    CHECK(n == 1 && completed[0] == 8);  /* the first thread's, with its 1 s animation only */
    CHECK_OK(animrt_runtime_tick(a, 2.5));
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);

    /* The second thread's four calls are marked as thread 1; the rest are thread 0's, unmarked. */
    char *text = slurp(trace);
    size_t marked = 0;
    for (char *p = text; p && (p = strstr(p, "\"thread\":1")); p++) marked++;
    CHECK(marked == 4 && text && !strstr(text, "\"thread\":0") && !strstr(text, "\"thread\":2"));
    free(text);

    animrt_runtime *b = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    CHECK(calls == 14);
    /* The replaying thread keeps what thread 0 left open, and no other thread's. */
    animrt_id current;
    CHECK_STATUS(animrt_transaction_current(b, &current), ANIMRT_E_STATE);
    animrt_runtime_destroy(b);

    /* A thread that is not a recorded one is refused, naming the line. */
    CHECK(edit_line(trace, 8, "\"thread\":1", "\"thread\":-1"));
    animrt_runtime *c = rt_new();
    CHECK_STATUS(animrt_trace_replay(c, trace, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("trace line 8 is not a recorded call: its thread is -1; threads are numbered from 0");
    CHECK(calls == 6);
    animrt_runtime_destroy(c);
    CHECK(edit_line(trace, 8, "\"thread\":-1", "\"thread\":1.5"));
    c = rt_new();
    CHECK_STATUS(animrt_trace_replay(c, trace, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("trace line 8 is not a recorded call: thread: 1.5 is not a whole number; threads are numbered from 0");
    animrt_runtime_destroy(c);
    /* A thread past 2^53 is read whole, not rounded to its neighbour: thread
     * 2^53 + 1 begins, and thread 2^53's commit finds nothing to commit. */
    CHECK(edit_line(trace, 8, "\"thread\":1.5", "\"thread\":9007199254740993"));
    CHECK(edit_line(trace, 9, "\"thread\":1", "\"thread\":9007199254740993"));
    CHECK(edit_line(trace, 10, "\"thread\":1", "\"thread\":9007199254740993"));
    CHECK(edit_line(trace, 11, "\"thread\":1", "\"thread\":9007199254740992"));
    c = rt_new();
    CHECK_STATUS(animrt_trace_replay(c, trace, &calls), ANIMRT_E_STATE);
    CHECK_MESSAGE("diverges at trace line 11: animrt_transaction_commit succeeded when recorded and now fails");
    animrt_runtime_destroy(c);
    /* A whole number too large for a thread is out of range, not "not whole". */
    CHECK(edit_line(trace, 8, "\"thread\":9007199254740993", "\"thread\":9223372036854775808"));
    c = rt_new();
    CHECK_STATUS(animrt_trace_replay(c, trace, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("trace line 8 is not a recorded call: thread: 9.223372036854776e+18 is out of range; threads are numbered from 0");
    animrt_runtime_destroy(c);
    /* So are digests: a whole number from 0 to 2^64 - 1 (the recorded one moved to a member nothing reads). */
    CHECK(edit_line(trace, 2, "\"events\":", "\"events\":1.5,\"x\":"));
    c = rt_new();
    CHECK_STATUS(animrt_trace_replay(c, trace, &calls), ANIMRT_E_INVALID);
    CHECK_MESSAGE("trace line 2 is not a recorded call: events: 1.5 is not a whole number; a digest is a whole number from 0 to 2^64 - 1");
    CHECK(calls == 0);
    animrt_runtime_destroy(c);
    remove(trace);
}

/* What a thread that is not replaying does while the replaying thread is in
 * the event callback of a recorded thread's tick: look for a transaction of
 * its own and commit one. */
typedef struct { animrt_runtime *rt; sem_t go, done; animrt_status current, commit; int fired; } bystander;

static void *bystander_run(void *p) {
    bystander *b = p;
    animrt_id t;
    sem_wait(&b->go);
    b->current = animrt_transaction_current(b->rt, &t);
    b->commit = animrt_transaction_commit(b->rt, 99);
    sem_post(&b->done);
    return NULL;
}

static void bystander_calls_now(void *user, const animrt_event *event) {
    bystander *b = user;
    (void)event;
    if (b->fired++) return;
    sem_post(&b->go);
    sem_wait(&b->done);
}

/* A replay makes the recorded thread's calls as that thread, and only its
 * own: a thread calling meanwhile (here while the replaying thread is in the
 * event callback of a recorded thread's tick, the recorded thread's
 * transaction open) reaches its own transactions, of which it has none. */
TEST(another_threads_calls_during_a_replay_reach_its_own_transactions) {
    const char *trace = "/tmp/animrt-replay-bystander.trace";
    animrt_runtime *a = rt_new();
    animrt_id layers[2], fade;
    double zero = 0, one = 1;
    CHECK_OK(animrt_trace_start(a, trace));
    CHECK_OK(animrt_layer_create_many(a, 0, 2, layers));
    CHECK_OK(animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &fade));
    CHECK_OK(animrt_animation_set_value(a, fade, ANIMRT_TO, &zero, 1));
    CHECK_OK(animrt_animation_set_timing(a, fade, ANIMRT_TIMING_DURATION, one));
    /* Thread 1: a transaction, an animation and a tick with it open, then its commit. */
    second_thread s = {a, layers[1], fade, ANIMRT_E_STATE};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, second_thread_ticking_run, &s) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_OK(s.status);
    CHECK_OK(animrt_runtime_tick(a, 3));
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);

    animrt_runtime *b = rt_new();
    bystander by;
    memset(&by, 0, sizeof by);
    by.rt = b;
    sem_init(&by.go, 0, 0);
    sem_init(&by.done, 0, 0);
    by.current = by.commit = ANIMRT_OK;
    CHECK_OK(animrt_event_set_callback(b, bystander_calls_now, &by));
    pthread_t other;
    CHECK(pthread_create(&other, NULL, bystander_run, &by) == 0);
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, trace, &calls));
    CHECK(by.fired > 0);
    if (!by.fired) sem_post(&by.go);
    CHECK(pthread_join(other, NULL) == 0);
    CHECK(by.current == ANIMRT_E_STATE);
    CHECK(by.commit == ANIMRT_E_STATE);
    animrt_runtime_destroy(b);
    sem_destroy(&by.go);
    sem_destroy(&by.done);
    remove(trace);
}

/* A runtime that is not fresh is refused by its first use, named: a host
 * that resolved its key paths before starting a trace learns that this
 * counts (the ids are recorded), not only that the runtime "was used". */
TEST(a_used_runtime_is_refused_naming_its_first_use) {
    const char *trace = "/tmp/animrt-first-use.trace";
    const char *start = "start a trace before the runtime is used (%s before this start): a trace replays into a "
                        "fresh runtime, so it must hold every call; functions and timing functions the host "
                        "registers may come first";
    char expected[512];
    animrt_keypath opacity;
    double one = 1;
    size_t calls = 99;

    animrt_runtime *rt = rt_new();  /* an empty trace to replay */
    CHECK_OK(animrt_trace_start(rt, trace));
    CHECK_OK(animrt_trace_stop(rt));
    animrt_runtime_destroy(rt);

    rt = rt_new();
    CHECK_OK(animrt_keypath_id(rt, "opacity", &opacity));
    CHECK_STATUS(animrt_trace_start(rt, trace), ANIMRT_E_STATE);
    snprintf(expected, sizeof expected, start, "a key path was resolved (animrt_keypath_id)");
    CHECK(strcmp(animrt_last_error_message(), expected) == 0);
    CHECK_STATUS(animrt_trace_replay(rt, trace, &calls), ANIMRT_E_STATE);
    CHECK(strcmp(animrt_last_error_message(), "a trace replays into a fresh runtime; this one has been used: "
                                              "a key path was resolved (animrt_keypath_id)") == 0);
    CHECK(calls == 0);
    animrt_runtime_destroy(rt);

    rt = rt_new();
    CHECK_OK(animrt_property_define(rt, "glow", ANIMRT_VALUE_SCALAR, &one, 1));
    CHECK_STATUS(animrt_trace_start(rt, trace), ANIMRT_E_STATE);
    snprintf(expected, sizeof expected, start, "a property was defined (animrt_property_define)");
    CHECK(strcmp(animrt_last_error_message(), expected) == 0);
    animrt_runtime_destroy(rt);

    rt = rt_new();
    CHECK_OK(animrt_definition_register(rt, "toggle", TOGGLE));
    CHECK_STATUS(animrt_trace_start(rt, trace), ANIMRT_E_STATE);
    snprintf(expected, sizeof expected, start,
             "a machine definition was registered (animrt_definition_register)");
    CHECK(strcmp(animrt_last_error_message(), expected) == 0);
    animrt_runtime_destroy(rt);

    rt = rt_new();
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_STATUS(animrt_trace_start(rt, trace), ANIMRT_E_STATE);
    snprintf(expected, sizeof expected, start, "it was ticked");
    CHECK(strcmp(animrt_last_error_message(), expected) == 0);
    animrt_runtime_destroy(rt);

    /* Fresh but recording: the replay says so, not that it was used. */
    rt = rt_new();
    CHECK_OK(animrt_trace_start(rt, trace));
    CHECK_STATUS(animrt_trace_replay(rt, trace, &calls), ANIMRT_E_STATE);
    snprintf(expected, sizeof expected,
             "a trace replays into a fresh runtime; this one is recording a trace (to '%s')", trace);
    CHECK(strcmp(animrt_last_error_message(), expected) == 0);
    CHECK_OK(animrt_trace_stop(rt));
    animrt_runtime_destroy(rt);
}

int main(void) {
    RUN(record_and_replay);
    RUN(divergence_is_named);
    RUN(an_argument_of_another_kind_is_refused);
    RUN(blank_lines_are_counted);
    RUN(crlf_line_ends_replay);
    RUN(a_callback_that_destroys_the_runtime_stops_the_replay);
    RUN(another_thread_destroying_the_runtime_stops_the_replay);
    RUN(a_trace_that_cannot_be_written_is_reported);
    RUN(a_refused_replay_says_no_call_was_made);
    RUN(a_used_runtime_is_refused_naming_its_first_use);
    RUN(a_bulk_add_whose_handles_overwrite_its_layers_replays);
    RUN(a_bulk_column_field_past_32_bits_is_refused);
    RUN(a_bulk_from_column_of_a_vector_key_path_replays);
    RUN(a_cleared_value_replays);
    RUN(transactions_of_two_threads_replay_as_theirs);
    RUN(another_threads_calls_during_a_replay_reach_its_own_transactions);
    return check_report();
}
