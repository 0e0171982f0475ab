/* Four threads on one runtime with an event callback set: 240 000 mixed
 * calls over both halves of the runtime (make tsan runs it under
 * ThreadSanitizer, against a library built with it).
 *
 * Animations: layers, attached animations, barriers, timers, readers,
 * ticks. Machines and plugins: definitions loaded from text, from the
 * library by name (the shipped ones, the host's, the plugin's) and
 * exported; machines created, sent events (by id and as JSON), read
 * (state, context, parts), snapshotted and restored, replaced and
 * destroyed while other threads use them; their `after` and named timers
 * firing in the ticks; host functions called from guards, assignments and
 * actions and by animrt_function_call; the example plugin loaded and
 * unloaded while machines made from its definition come and go, and a
 * plugin whose init registers from four threads of its own; the callback
 * cleared and set again; runtimes of a thread's own created and destroyed
 * meanwhile. Transactions, one or two deep, each thread's own while the
 * others open and commit theirs.
 *
 * Checks the delivery rules of animrt.h (R0.5): the callback is never entered by
 * two threads at once; every attached animation (the host's and those the
 * machines start) gets at most one STARTED, before exactly one STOPPED;
 * nothing arrives after animrt_runtime_destroy() returns. And for machines:
 * every machine event names a machine that was created; none arrives for a
 * machine after the event the host queued once its destroy returned; host
 * functions run one at a time and a call back into the runtime from one is
 * refused (not a deadlock); a registrar kept past its init is refused;
 * every load of the example plugin is finished once the runtime is
 * destroyed. And for transactions: a thread's current one is always the
 * one it began last, and every one committed completes.
 *
 * First, a batch split across the runtime's evaluation threads must equal a
 * one-thread runtime's values to the bit (and race with nothing).
 *
 * With a trace path, the batch is left out and the run is recorded: the
 * trace (the four threads' calls as the runtime serialised them) must
 * replay into a fresh runtime with the same events and values.
 *
 *   stress_threads [calls per thread] [folder of the plugins make plugins builds] [trace]
 *   (default 60 000, .build/c, no trace)
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "animrt.h"

enum { THREADS = 4, SHARED_LAYERS = 32, TRACK = 1 << 21, MTRACK = 1 << 20 };
enum { SHARED_GATES = 6, SHARED_MACHINES = 8, OWN_MACHINES = 4, SHIPPED = 4 };

static animrt_runtime *rt;
static animrt_id shared_layers[SHARED_LAYERS], reader;
static animrt_keypath opacity, position_x;
static long clock_ticks;
static long total_calls, ok_calls, events, machine_events;
static int inside, concurrent, after_destroy, destroyed, problems;
/* Transactions the threads committed, and TRANSACTION_COMPLETED events delivered. */
static long commits, completed;

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

/* Per machine: seen in an event, destroyed (the host's marker for it was
 * delivered), created (filled in after the threads end). Written by the
 * deliverer only, then by main. */
typedef struct { animrt_id object; unsigned char seen, dead, created; } mentry;
static mentry *mtrack;

static mentry *mfind(animrt_id object) {
    size_t i = (size_t)(object * 0x9E3779B97F4A7C15ULL >> 44) & (MTRACK - 1);
    while (mtrack[i].object != 0 && mtrack[i].object != object) i = (i + 1) & (MTRACK - 1);
    mtrack[i].object = object;
    return &mtrack[i];
}

static void problem(const char *what, animrt_id object) {
    if (__atomic_add_fetch(&problems, 1, __ATOMIC_SEQ_CST) <= 10) fprintf(stderr, "PROBLEM: %s (%llu)\n", what, (unsigned long long)object);
}

/* A status that is one of the allowed ones (a bit per status), else a problem. */
#define BIT(s) (1u << (s))
static int allowed(animrt_status s, unsigned mask, const char *call) {
    if (s == ANIMRT_OK) return 1;
    if (s < 0 || s > 31 || !(mask & BIT(s))) {
        char what[512];
        snprintf(what, sizeof what, "%s: %s: %s", call, animrt_status_name(s), animrt_last_error_message());
        problem(what, (animrt_id)s);
    }
    return 0;
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

/* ---- the machine half --------------------------------------------------- */

/* A gate: its guard, an assignment and an entry action call the host's
 * functions; entering "busy" starts an animation on its part, emits, issues
 * a request (the callback answers it) and starts an `after` timer; a second
 * "go" while busy starts a named timer that sends "stop". Every state takes
 * or ignores every event, so a send is never refused for the state. */
static const char *GATE =
    "{\"name\": \"stressGate\","
    " \"config\": {\"limit\": {\"type\": \"number\", \"default\": 4, \"min\": 1}},"
    " \"context\": {\"n\": {\"type\": \"number\", \"initial\": 0}, \"label\": {\"type\": \"string\", \"initial\": \"'idle'\"},"
    "              \"probed\": {\"type\": \"number\", \"initial\": 0}},"
    " \"requests\": {\"probe\": {}},"
    " \"events\": {\"go\": {\"payload\": [{\"name\": \"step\", \"type\": \"number\", \"default\": 1}]}, \"stop\": {},"
    "             \"probed\": {\"resultOf\": \"probe\", \"payload\": [{\"name\": \"v\", \"type\": \"number\"}]}},"
    " \"emits\": {\"flip\": {\"payload\": [{\"name\": \"message\", \"type\": \"string\"}]}},"
    " \"parts\": [{\"name\": \"dot\", \"properties\": {\"opacity\": 0}}],"
    " \"animations\": {\"fade\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"from\": 0, \"to\": 1, \"duration\": 0.004}},"
    " \"initial\": \"idle\","
    " \"states\": {"
    "   \"idle\": {\"ignore\": [\"stop\", \"probed\"], \"on\": {\"go\": ["
    "       {\"guard\": \"hostAllow(context.n, config.limit)\", \"target\": \"busy\","
    "        \"actions\": [{\"assign\": {\"n\": \"context.n + event.step\", \"label\": \"hostLabel(context.n)\"}}]},"
    "       {\"target\": \"idle\", \"actions\": [{\"assign\": {\"n\": \"0\"}}]}]}},"
    "   \"busy\": {\"entry\": [{\"animate\": \"fade\", \"part\": \"dot\", \"key\": \"fade\"},"
    "                        {\"emit\": \"flip\", \"payload\": {\"message\": \"context.label\"}},"
    "                        {\"request\": \"probe\"}, {\"call\": \"hostNote\", \"args\": [\"context.n\"]}],"
    "            \"after\": [{\"delay\": 0.003, \"target\": \"idle\"}],"
    "            \"on\": {\"stop\": \"idle\","
    "                   \"go\": {\"actions\": [{\"startTimer\": \"t\", \"delay\": 0.002, \"event\": \"stop\"}]},"
    "                   \"probed\": {\"actions\": [{\"assign\": {\"probed\": \"context.probed + event.v\"}}]}}}"
    " }}";

static const char *SHIPPED_NAMES[SHIPPED] = {"progressCard", "networkButton", "streakCard", "indicatorBar"};
/* Events without payload fields each shipped machine declares (a state may refuse them). */
static const char *SHIPPED_EVENTS[SHIPPED][4] = {
    {"appear", "fetch", "retry", "hide"}, {"tap", "startAnimate", "stopAnimate", "resetToReady"},
    {"infoTap", "recalculateTap", "unlockTap", "infoTap"}, {"unknown", "unknown", "unknown", "unknown"}};

/* The plugins `make plugins` builds: the example, and two test plugins: one
 * whose init registers from four threads of its own, one that keeps its
 * registrar to call it after init returned (always refused). */
static const char *plugin_dir = ".build/c";
static char example_path[4096], threaded_path[4096], keep_path[4096];
static animrt_status (*late_add)(void);
static animrt_id gate_definition, marker;
static int32_t go_id, stop_id, n_field, label_field;
/* Machines every thread uses: gates in the first slots, then shipped ones.
 * Read and swapped atomically: a thread may replace one at any time. */
static animrt_id shared_machines[SHARED_MACHINES];
static int shared_kind[SHARED_MACHINES];  /* -1: a gate, else the SHIPPED_NAMES index */
static animrt_id plugins[2];              /* the example and the threaded plugin while loaded, else 0 (atomic) */
static long plugin_loads, plugin_unloads, restores, replaced;

/* Host functions: called under the runtime's lock, so one at a time (the
 * plain counters below would race otherwise), and any call they make back
 * into the runtime is refused. */
static long host_calls, host_notes, host_inside;
static char host_label[32];

/* user_data is the runtime that calls the function. */
static void host_enter(void *user) {
    if (host_inside++ != 0) problem("two host functions ran at once", 0);
    host_calls++;
    double t = 0;
    if (animrt_runtime_time(user, &t) != ANIMRT_E_STATE) problem("a host function's call back into its runtime was not refused", 0);
}

static animrt_status host_allow(void *user, const animrt_value *args, size_t count, animrt_value *result) {
    host_enter(user);
    if (count != 2) problem("hostAllow got the wrong argument count", count);
    result->boolean = args[0].number < args[1].number;
    host_inside--;
    return ANIMRT_OK;
}

static animrt_status host_label_fn(void *user, const animrt_value *args, size_t count, animrt_value *result) {
    (void)count;
    host_enter(user);
    snprintf(host_label, sizeof host_label, "n=%g", args[0].number);
    result->string = host_label;
    host_inside--;
    return ANIMRT_OK;
}

static animrt_status host_note(void *user, const animrt_value *args, size_t count, animrt_value *result) {
    (void)args; (void)count; (void)result;
    host_enter(user);
    host_notes++;
    host_inside--;
    return ANIMRT_OK;
}

static animrt_value number(double d) { animrt_value v = {ANIMRT_TYPE_NUMBER, 0, d, 0, NULL, NULL}; return v; }

/* After destroying a machine: a marker queued behind everything it queued.
 * Nothing of that machine may be delivered after the marker. */
static void destroyed_machine(animrt_id m) {
    animrt_status s = animrt_barrier_notify(rt, marker, m);
    allowed(s, 0, "marking a destroyed machine");
}

static void machine_event(const animrt_event *e) {
    machine_events++;
    mentry *m = mfind(e->object);
    m->seen = 1;
    if (m->dead) problem("a machine event after the machine's destroy returned", e->object);
    for (uint32_t i = 0; i < e->payload_count; i++)  /* the payload is readable during the callback */
        if (e->payload[i].type == ANIMRT_TYPE_STRING && strlen(e->payload[i].string) > 4096) problem("a payload string is too long", e->object);
    if (e->type == ANIMRT_EVENT_MACHINE_STATE && e->to_state >= 0) {
        char name[128];
        size_t needed = 0;
        /* From the callback: the machine may be gone since (HANDLE), or the runtime closing (STATE). */
        animrt_status s = animrt_definition_name(rt, e->object, ANIMRT_NAME_STATE, e->to_state, name, sizeof name, &needed);
        if (allowed(s, BIT(ANIMRT_E_HANDLE) | BIT(ANIMRT_E_STATE), "naming a machine's state from the callback") && !name[0])
            problem("a state without a name", e->object);
    } else if (e->type == ANIMRT_EVENT_MACHINE_REQUEST && (e->token & 1)) {
        /* Answer half the requests from the callback (the others go stale). */
        char payload[64];
        snprintf(payload, sizeof payload, "{\"request\": %llu, \"v\": 1}", (unsigned long long)e->token);
        animrt_status s = animrt_machine_send_json(rt, e->object, "probed", payload, NULL);
        allowed(s, BIT(ANIMRT_E_HANDLE) | BIT(ANIMRT_E_STATE) | BIT(ANIMRT_E_NOT_FOUND), "answering a request from the callback");
    }
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
    } else if (e->type == ANIMRT_EVENT_TRANSACTION_COMPLETED) {
        completed++;
    } else if (e->type == ANIMRT_EVENT_BARRIER_NOTIFIED && e->object == marker) {
        mentry *m = mfind((animrt_id)e->token);
        if (m->dead) problem("a machine destroyed twice", e->token);
        m->dead = 1;
    } else if (e->type >= ANIMRT_EVENT_MACHINE_STATE && e->type <= ANIMRT_EVENT_MACHINE_ERROR) {
        machine_event(e);
    }
    __atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
}

typedef struct { animrt_id handle; int kind; } owned;  /* kind: -2 like button, -1 gate, else shipped */

typedef struct {
    int id; long calls; animrt_id *added; long added_n; unsigned long long seed;
    animrt_id *created; long created_n;    /* every machine this thread created or restored */
    owned own[OWN_MACHINES];
    animrt_id definition;                 /* the gate, loaded from this thread's registered name */
    long properties;                      /* host properties this thread defined */
    char *buf; size_t cap;                /* snapshots and exports */
} worker;

static unsigned rnd(worker *w) {
    w->seed = w->seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(w->seed >> 33);
}

/* A string out of the runtime into the worker's buffer, grown on
 * ANIMRT_E_BUFFER (a shared machine's snapshot may grow again between the
 * calls: other threads change it). */
typedef animrt_status (*string_out)(worker *w, animrt_id object, int arg, char *buf, size_t cap, size_t *needed);

static animrt_status into_buffer(worker *w, string_out call, animrt_id object, int arg) {
    size_t needed = 0;
    animrt_status s = call(w, object, arg, w->buf, w->cap, &needed);
    for (int tries = 0; s == ANIMRT_E_BUFFER && needed > w->cap && tries < 8; tries++) {
        w->cap = needed + needed / 4;
        w->buf = realloc(w->buf, w->cap);
        s = call(w, object, arg, w->buf, w->cap, &needed);
    }
    if (s == ANIMRT_OK && strlen(w->buf) + 1 != needed) problem("a string's size is not what *needed said", needed);
    return s;
}

static animrt_status snapshot_call(worker *w, animrt_id m, int arg, char *buf, size_t cap, size_t *needed) {
    (void)w; (void)arg;
    return animrt_machine_snapshot(rt, m, buf, cap, needed);
}

static animrt_status export_call(worker *w, animrt_id d, int format, char *buf, size_t cap, size_t *needed) {
    (void)w;
    return animrt_definition_export(rt, d, (animrt_export_format)format, buf, cap, needed);
}

/* Keeps machine `m` in one of the thread's own slots, destroying the one it evicts. */
static void keep(worker *w, animrt_id m, int kind) {
    w->created[w->created_n++] = m;
    owned *slot = &w->own[rnd(w) % OWN_MACHINES];
    if (slot->handle) {
        allowed(animrt_machine_destroy(rt, slot->handle), 0, "destroying an own machine");
        destroyed_machine(slot->handle);
    }
    *slot = (owned){m, kind};
}

/* One call (or a short sequence) on the machine or plugin half. Returns 1 when it went as it may. */
static int machine_call(worker *w, long i) {
    const unsigned HANDLE = BIT(ANIMRT_E_HANDLE);
    int slot = (int)(rnd(w) % SHARED_MACHINES);
    animrt_id shared = __atomic_load_n(&shared_machines[slot], __ATOMIC_SEQ_CST);
    int kind = shared_kind[slot];
    /* The heavy calls (parsing a snapshot or a definition, loading the
     * plugin: milliseconds under TSan, with the lock held) are rare. */
    static const unsigned char OPERATIONS[64] = {
        6, 11, 8, 8, 13, 7, 7, 7,
        0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,      /* send by id */
        2, 2, 2, 2, 3, 3, 3, 3,                  /* send as JSON */
        4, 4, 4, 4, 17, 5, 5, 5, 5, 5,           /* reads, misspelled names */
        9, 9, 9, 9, 9, 9, 10, 10, 10,            /* own machines */
        12, 12, 12, 12, 12, 18,                  /* host and plugin functions, a kept registrar */
        14, 14, 14, 14, 19, 15, 15, 15, 15, 15, 16};     /* ticks, the callback off and on, a runtime of its own */
    switch (OPERATIONS[rnd(w) % 64]) {
    case 0: case 1: {  /* send by id (a gate) */
        if (kind >= 0) slot = (int)(rnd(w) % SHARED_GATES), shared = __atomic_load_n(&shared_machines[slot], __ATOMIC_SEQ_CST);
        animrt_value step = number(1 + rnd(w) % 3);
        animrt_send_outcome outcome = ANIMRT_SEND_TAKEN;
        animrt_status s = rnd(w) % 3 ? animrt_machine_send(rt, shared, go_id, &step, 1, &outcome)
                                     : animrt_machine_send(rt, shared, stop_id, NULL, 0, &outcome);
        if (s == ANIMRT_OK && outcome != ANIMRT_SEND_TAKEN && outcome != ANIMRT_SEND_IGNORED) problem("a gate's event had an odd outcome", outcome);
        return allowed(s, HANDLE, "animrt_machine_send");
    }
    case 2: case 3: {  /* send as JSON: to a gate, or a shipped machine (whose state may refuse the event) */
        if (kind < 0)
            return allowed(rnd(w) % 2 ? animrt_machine_send_json(rt, shared, "go", "{\"step\": 2}", NULL)
                                      : animrt_machine_send_json(rt, shared, "stop", NULL, NULL), HANDLE, "animrt_machine_send_json");
        return allowed(animrt_machine_send_json(rt, shared, SHIPPED_EVENTS[kind][rnd(w) % 4], "{}", NULL),
                       HANDLE | BIT(ANIMRT_E_STATE), "animrt_machine_send_json (shipped)");
    }
    case 4: case 5: {  /* read state, context and parts */
        int32_t state = -1;
        animrt_status s = animrt_machine_state(rt, shared, &state);
        if (!allowed(s, HANDLE, "animrt_machine_state")) return 1;
        int in = 0;
        s = animrt_machine_in_state(rt, shared, state, &in);
        if (s == ANIMRT_OK && !in && kind < 0) { /* another thread may have moved it on; a gate has no nesting */ }
        if (!allowed(s, HANDLE, "animrt_machine_in_state")) return 1;
        if (kind >= 0) {
            char name[128];
            size_t needed = 0;
            return allowed(animrt_definition_name(rt, shared, ANIMRT_NAME_STATE, state, name, sizeof name, &needed), HANDLE, "animrt_definition_name");
        }
        animrt_value v;
        char text[64];
        size_t needed = 0;
        s = animrt_machine_get(rt, shared, n_field, &v, NULL, 0, NULL);
        if (s == ANIMRT_OK && (v.type != ANIMRT_TYPE_NUMBER || !(v.number >= 0))) problem("a gate's count is not a number", (animrt_id)v.type);
        if (!allowed(s, HANDLE, "animrt_machine_get")) return 1;
        s = animrt_machine_get(rt, shared, label_field, &v, text, sizeof text, &needed);
        if (s == ANIMRT_OK && (v.type != ANIMRT_TYPE_STRING || v.string != text)) problem("a gate's label is not a string in the buffer", 0);
        if (!allowed(s, HANDLE, "animrt_machine_get (string)")) return 1;
        animrt_id part = 0;
        size_t count = 0;
        s = animrt_machine_part(rt, shared, "dot", &part);
        if (!allowed(s, HANDLE, "animrt_machine_part")) return 1;
        double value[2];
        s = animrt_layer_get_presentation(rt, part, opacity, value, 2, &count);
        if (s == ANIMRT_OK && !(value[0] >= 0 && value[0] <= 1)) problem("a gate's part shows an opacity out of [0, 1]", 0);
        if (!allowed(s, HANDLE, "animrt_layer_get_presentation (part)")) return 1;
        return allowed(animrt_machine_part_count(rt, shared, "dot", &count), HANDLE, "animrt_machine_part_count");
    }
    case 6: {  /* snapshot a shared machine, restore it as an own one */
        animrt_status s = into_buffer(w, snapshot_call, shared, 0);
        if (!allowed(s, HANDLE, "animrt_machine_snapshot")) return 1;
        animrt_id m = 0;
        /* Another thread's tick since the snapshot moves the clock on: ANIMRT_E_TIME. */
        s = animrt_machine_restore(rt, w->buf, 0, &m);
        if (!allowed(s, BIT(ANIMRT_E_TIME), "animrt_machine_restore")) return 1;
        __atomic_add_fetch(&restores, 1, __ATOMIC_SEQ_CST);
        keep(w, m, kind);
        return 1;
    }
    case 7: {  /* replace a shared gate while the others use it */
        slot = (int)(rnd(w) % SHARED_GATES);
        animrt_id m = 0;
        animrt_status s = animrt_machine_create(rt, gate_definition, 0, rnd(w) % 2 ? "{\"config\": {\"limit\": 3}}" : NULL, &m);
        if (!allowed(s, 0, "animrt_machine_create (shared)")) return 0;
        w->created[w->created_n++] = m;
        animrt_id old = __atomic_exchange_n(&shared_machines[slot], m, __ATOMIC_SEQ_CST);
        s = animrt_machine_destroy(rt, old);
        if (allowed(s, 0, "animrt_machine_destroy (shared)")) destroyed_machine(old);
        __atomic_add_fetch(&replaced, 1, __ATOMIC_SEQ_CST);
        return s == ANIMRT_OK;
    }
    case 8: {  /* a machine of the thread's own: a gate, a shipped one or a like button */
        unsigned what = rnd(w) % 4;
        animrt_id d = w->definition, m = 0;
        int k = -1;
        animrt_status s = ANIMRT_OK;
        if (what == 1) { k = (int)(rnd(w) % SHIPPED); s = animrt_definition_load_named(rt, SHIPPED_NAMES[k], &d); }
        else if (what == 2) { k = -2; s = animrt_definition_load_named(rt, "likeButton", &d); }
        /* The like button is there only while the plugin is loaded. */
        if (!allowed(s, what == 2 ? BIT(ANIMRT_E_NOT_FOUND) : 0, "animrt_definition_load_named")) return 1;
        s = animrt_machine_create(rt, d, 0, NULL, &m);
        if (d != w->definition) allowed(animrt_definition_destroy(rt, d), 0, "animrt_definition_destroy");
        if (!allowed(s, 0, "animrt_machine_create")) return 0;
        keep(w, m, k);
        return 1;
    }
    case 9: {  /* send to an own machine */
        owned *o = &w->own[rnd(w) % OWN_MACHINES];
        if (!o->handle) return 1;
        if (o->kind == -1) return allowed(animrt_machine_send(rt, o->handle, go_id, NULL, 0, NULL), 0, "animrt_machine_send (own)");
        if (o->kind == -2) return allowed(animrt_machine_send_json(rt, o->handle, "tap", NULL, NULL), 0, "animrt_machine_send_json (like)");
        return allowed(animrt_machine_send_json(rt, o->handle, SHIPPED_EVENTS[o->kind][rnd(w) % 4], NULL, NULL),
                       BIT(ANIMRT_E_STATE), "animrt_machine_send_json (own shipped)");
    }
    case 10: {  /* destroy an own machine */
        owned *o = &w->own[rnd(w) % OWN_MACHINES];
        if (!o->handle) return 1;
        animrt_status s = animrt_machine_destroy(rt, o->handle);
        if (s == ANIMRT_OK) destroyed_machine(o->handle);
        o->handle = 0;
        return allowed(s, 0, "animrt_machine_destroy");
    }
    case 11: {  /* definitions: from text or a shipped name, read, exported, forgotten */
        animrt_id d = 0;
        animrt_status s = rnd(w) % 2 ? animrt_definition_load(rt, GATE, &d)
                                     : animrt_definition_load_named(rt, SHIPPED_NAMES[rnd(w) % SHIPPED], &d);
        if (!allowed(s, 0, "loading a definition")) return 0;
        size_t states = 0;
        s = animrt_definition_count(rt, d, ANIMRT_NAME_STATE, &states);
        if (s == ANIMRT_OK && states < 2) problem("a definition with fewer than two states", states);
        int ok = allowed(s, 0, "animrt_definition_count");
        if (rnd(w) % 4 == 0) {
            s = into_buffer(w, export_call, d, (int)(rnd(w) % 2));
            if (s == ANIMRT_OK && strlen(w->buf) < 100) problem("an export shorter than 100 bytes", strlen(w->buf));
            ok &= allowed(s, 0, "animrt_definition_export");
        }
        return ok & allowed(animrt_definition_destroy(rt, d), 0, "animrt_definition_destroy");
    }
    case 12: {  /* the host's functions, called by the host */
        animrt_value args[2] = {number(rnd(w) % 8), number(4)}, result;
        char text[32];
        size_t needed = 0;
        if (rnd(w) % 2) {
            animrt_status s = animrt_function_call(rt, "hostAllow", args, 2, &result, NULL, 0, NULL);
            if (s == ANIMRT_OK && result.boolean != (args[0].number < 4)) problem("hostAllow gave a wrong result", (animrt_id)args[0].number);
            return allowed(s, 0, "animrt_function_call");
        }
        animrt_status s = animrt_function_call(rt, "hostLabel", args, 1, &result, text, sizeof text, &needed);
        if (s == ANIMRT_OK && strncmp(text, "n=", 2) != 0) problem("hostLabel gave a wrong string", 0);
        return allowed(s, 0, "animrt_function_call (string)");
    }
    case 13: {  /* a plugin: loaded, or unloaded (the example's is refused while a like button or its definition is alive) */
        int which = (int)(rnd(w) % 2);
        animrt_id p = __atomic_load_n(&plugins[which], __ATOMIC_SEQ_CST);
        if (p == 0) {
            animrt_status s = animrt_plugin_load(rt, which ? threaded_path : example_path, &p);
            /* Another thread's load got there first: its names exist. */
            if (!allowed(s, BIT(ANIMRT_E_EXISTS), "animrt_plugin_load")) return 1;
            __atomic_store_n(&plugins[which], p, __ATOMIC_SEQ_CST);
            __atomic_add_fetch(&plugin_loads, 1, __ATOMIC_SEQ_CST);
            return 1;
        }
        animrt_status s = animrt_plugin_unload(rt, p);
        /* In use (STATE), or another thread unloaded it first (HANDLE). */
        if (!allowed(s, BIT(ANIMRT_E_STATE) | HANDLE, "animrt_plugin_unload")) return 1;
        __atomic_compare_exchange_n(&plugins[which], &p, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&plugin_unloads, 1, __ATOMIC_SEQ_CST);
        return 1;
    }
    case 16: {  /* a runtime of the thread's own meanwhile: separate runtimes share nothing */
        animrt_runtime *mine = NULL;
        animrt_id d = 0, m = 0;
        if (!allowed(animrt_runtime_create(0, &mine), 0, "animrt_runtime_create")) return 0;
        int ok = allowed(animrt_definition_load_named(mine, SHIPPED_NAMES[rnd(w) % SHIPPED], &d), 0, "load_named (own runtime)")
                 && allowed(animrt_machine_create(mine, d, 0, NULL, &m), 0, "animrt_machine_create (own runtime)")
                 && allowed(animrt_runtime_tick(mine, 1), 0, "animrt_runtime_tick (own runtime)");
        /* A handle of this runtime names nothing in the shared one. */
        if (ok && animrt_machine_state(rt, m, &(int32_t){0}) != ANIMRT_E_HANDLE) problem("a machine handle of another runtime was accepted", m);
        animrt_runtime_destroy(mine);
        return ok;
    }
    case 17: {  /* misspelled names: refused with a suggestion, worked out as the others go on */
        int32_t id = -1;
        animrt_keypath kp = 0;
        char misspelled[64], suggestion[80];
        const char *event = kind < 0 ? "stop" : SHIPPED_EVENTS[kind][0];
        snprintf(misspelled, sizeof misspelled, "%sx", event);
        snprintf(suggestion, sizeof suggestion, "did you mean '%s'", event);
        animrt_status s = animrt_definition_id(rt, shared, ANIMRT_NAME_EVENT, misspelled, &id);
        if (s == ANIMRT_E_NOT_FOUND && !strstr(animrt_last_error_message(), suggestion)) problem(animrt_last_error_message(), 0);
        if (s != ANIMRT_E_NOT_FOUND && s != ANIMRT_E_HANDLE) problem("a misspelled event was not refused", (animrt_id)s);
        /* Suggestions are worked out once the lock is released, from what
         * the call saw: other threads meanwhile define properties and load
         * and unload the plugin's curves. */
        if (rnd(w) % 2) {
            char property[32];
            double zero = 0;
            snprintf(property, sizeof property, "host%d_%ld", w->id, w->properties++);
            if (!allowed(animrt_property_define(rt, property, ANIMRT_VALUE_SCALAR, &zero, 1), 0, "animrt_property_define")) return 0;
        }
        s = animrt_keypath_id(rt, "opacty", &kp);
        if (s != ANIMRT_E_NOT_FOUND || !strstr(animrt_last_error_message(), "did you mean 'opacity'")) problem("a misspelled key path got no suggestion", (animrt_id)s);
        double y = 0;
        s = animrt_timing_function_evaluate(rt, "elastc", 0.5, &y);
        if (s != ANIMRT_E_NOT_FOUND || !strstr(animrt_last_error_message(), "no timing function named 'elastc'")) problem("a misspelled curve was not refused", (animrt_id)s);
        /* The plugin's curve, while it is loaded. */
        return allowed(animrt_timing_function_evaluate(rt, "bounce(3)", 0.5, &y), BIT(ANIMRT_E_NOT_FOUND), "evaluating the plugin's curve");
    }
    case 18: {  /* a function the threaded plugin registered (there while it is loaded); a registrar used after its init */
        animrt_value arg = number(0.75), result;
        char name[32];
        snprintf(name, sizeof name, "t%u_%u", rnd(w) % 4, rnd(w) % 200);
        animrt_status s = animrt_function_call(rt, name, &arg, 1, &result, NULL, 0, NULL);
        if (s == ANIMRT_OK && result.boolean != 1) problem("a plugin's function gave a wrong result", 0);
        if (late_add() != ANIMRT_E_STATE) problem("a registrar kept past its init was not refused", 0);
        return allowed(s, BIT(ANIMRT_E_NOT_FOUND), "animrt_function_call (threaded plugin)");
    }
    case 19: {  /* the callback cleared and set again: what is queued meanwhile waits for the next delivery */
        int ok = allowed(animrt_event_set_callback(rt, NULL, NULL), 0, "clearing the callback");
        double now = __atomic_fetch_add(&clock_ticks, 1, __ATOMIC_SEQ_CST) * 0.001;
        ok &= allowed(animrt_runtime_tick(rt, now), BIT(ANIMRT_E_TIME), "a tick without a callback");
        return ok & allowed(animrt_event_set_callback(rt, on_event, NULL), 0, "setting the callback again");
    }
    default: {  /* ticks: the machines' timers fire in them */
        double now = __atomic_fetch_add(&clock_ticks, 1, __ATOMIC_SEQ_CST) * 0.001;
        (void)i;
        return allowed(animrt_runtime_tick(rt, now), BIT(ANIMRT_E_TIME), "animrt_runtime_tick");
    }
    }
}

static void *run(void *p) {
    worker *w = p;
    animrt_id own = 0, barrier = 0, descriptions[4];
    animrt_layer_create(rt, 0, &own);
    animrt_barrier_create(rt, &barrier);
    for (int i = 0; i < 4; i++) descriptions[i] = basic(0, 10 + i, 0.005 * (i + 1), i % 2);
    /* Each thread's own name for the gate in the runtime's library. */
    char name[32];
    snprintf(name, sizeof name, "gate%d", w->id);
    allowed(animrt_definition_register(rt, name, GATE), 0, "animrt_definition_register");
    allowed(animrt_definition_load_named(rt, name, &w->definition), 0, "animrt_definition_load_named (registered)");
    long ok = 0;
    for (long i = 0; i < w->calls; i++) {
        animrt_status s = ANIMRT_OK;
        animrt_id layer = rnd(w) % 4 ? shared_layers[rnd(w) % SHARED_LAYERS] : own;
        double v[2];
        size_t n;
        if (rnd(w) % 4 == 0) { ok += machine_call(w, i); continue; }
        switch (rnd(w) % 17) {
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
            if (s == ANIMRT_OK) {
                /* Pending or fired by another thread's tick: 0 or 1, never an error. */
                int pending = -1;
                s = animrt_timer_pending(rt, timer, &pending);
                if (s == ANIMRT_OK && pending != 0 && pending != 1) problem("animrt_timer_pending wrote neither 0 nor 1", timer);
            }
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
        case 15: {
            /* Transactions of this thread's own, one or two deep, while the
             * others open and commit theirs: each thread's are its own, so
             * its current one is always the one it began, and it commits it. */
            int depth = rnd(w) % 4 ? 1 : 2, begun = 0;
            animrt_id mine[2] = {0, 0}, now = 0;
            for (; begun < depth && s == ANIMRT_OK; begun++) {
                s = animrt_transaction_begin(rt, rnd(w) % 2 ? 0 : 0.004);
                if (s != ANIMRT_OK) break;
                s = animrt_transaction_current(rt, &mine[begun]);
                if (s == ANIMRT_OK) {
                    animrt_id inst = 0;
                    s = animrt_layer_add_animation(rt, own, descriptions[rnd(w) % 4], NULL, 0, &inst);
                    if (s == ANIMRT_OK) w->added[w->added_n++] = inst;  /* at most two a call: room for 2 × calls */
                }
            }
            for (int k = begun - 1; k >= 0; k--) {
                if (animrt_transaction_current(rt, &now) != ANIMRT_OK || now != mine[k])
                    problem("a thread's current transaction is not the one it began last", now);
                animrt_status c = animrt_transaction_commit(rt, (uint64_t)i);
                if (c == ANIMRT_OK) __atomic_add_fetch(&commits, 1, __ATOMIC_SEQ_CST);
                else if (s == ANIMRT_OK) s = c;
            }
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
        for (int i = 0; i < BATCH; i++) durations[i] = 0.5 + (double)(((long)i * 7919 + c) % 1000) / 400;
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

/* The host's functions, which the machines call. */
static int host_functions(animrt_runtime *r) {
    return animrt_function_register(r, "hostAllow", "bool(f64, f64)", host_allow, r) == ANIMRT_OK
        && animrt_function_register(r, "hostLabel", "str(f64)", host_label_fn, r) == ANIMRT_OK
        && animrt_function_register(r, "hostNote", "void(f64)", host_note, r) == ANIMRT_OK;
}

/* The runtime's machine half before the threads start: the gate and its
 * ids, the marker barrier, the shared machines. */
static int machines_setup(animrt_id *created, long *created_n) {
    if (animrt_definition_load(rt, GATE, &gate_definition) != ANIMRT_OK
        || animrt_definition_id(rt, gate_definition, ANIMRT_NAME_EVENT, "go", &go_id) != ANIMRT_OK
        || animrt_definition_id(rt, gate_definition, ANIMRT_NAME_EVENT, "stop", &stop_id) != ANIMRT_OK
        || animrt_definition_id(rt, gate_definition, ANIMRT_NAME_CONTEXT, "n", &n_field) != ANIMRT_OK
        || animrt_definition_id(rt, gate_definition, ANIMRT_NAME_CONTEXT, "label", &label_field) != ANIMRT_OK
        || animrt_barrier_create(rt, &marker) != ANIMRT_OK) {
        fprintf(stderr, "setting up the machines: %s\n", animrt_last_error_message());
        return 0;
    }
    for (int i = 0; i < SHARED_MACHINES; i++) {
        animrt_id d = gate_definition;
        shared_kind[i] = i < SHARED_GATES ? -1 : i - SHARED_GATES;
        if (i >= SHARED_GATES && animrt_definition_load_named(rt, SHIPPED_NAMES[shared_kind[i]], &d) != ANIMRT_OK) return 0;
        if (animrt_machine_create(rt, d, 0, NULL, &shared_machines[i]) != ANIMRT_OK) {
            fprintf(stderr, "creating a shared machine: %s\n", animrt_last_error_message());
            return 0;
        }
        created[(*created_n)++] = shared_machines[i];
        if (d != gate_definition) animrt_definition_destroy(rt, d);
    }
    return 1;
}

/* The example plugin's loads still initialised and not finished (its own count). */
static int plugin_live_loads(void) {
    void *lib = dlopen(example_path, RTLD_NOW);
    if (!lib) { problem("the example plugin cannot be opened to count its loads", 0); return -1; }
    int32_t (*live)(void) = (int32_t (*)(void))(uintptr_t)dlsym(lib, "example_live_loads");
    int n = live ? live() : -1;
    dlclose(lib);
    return n;
}

int main(int argc, char **argv) {
    long per_thread = argc > 1 ? atol(argv[1]) : 60000;
    if (argc > 2) plugin_dir = argv[2];
    const char *trace = argc > 3 ? argv[3] : NULL;
    if (!trace) batch_workers();
    snprintf(example_path, sizeof example_path, "%s/libexamples.so", plugin_dir);
    snprintf(threaded_path, sizeof threaded_path, "%s/libfaulty_threaded.so", plugin_dir);
    snprintf(keep_path, sizeof keep_path, "%s/libfaulty_keep.so", plugin_dir);
    /* The registrar-keeping plugin, loaded into a runtime of its own (its
     * names are the threaded one's) that is gone before the threads start. */
    animrt_runtime *side = NULL;
    animrt_id kept = 0;
    void *keep = dlopen(keep_path, RTLD_NOW);
    late_add = keep ? (animrt_status (*)(void))(uintptr_t)dlsym(keep, "faulty_late_add") : NULL;
    if (!late_add || animrt_runtime_create(0, &side) != ANIMRT_OK || animrt_plugin_load(side, keep_path, &kept) != ANIMRT_OK) {
        fprintf(stderr, "%s/libfaulty_keep.so: %s (make plugins builds it)\n", plugin_dir, keep ? animrt_last_error_message() : dlerror());
        return 2;
    }
    animrt_runtime_destroy(side);
    track = calloc(TRACK, sizeof *track);
    mtrack = calloc(MTRACK, sizeof *mtrack);
    from_callback = calloc(100000, sizeof *from_callback);
    if (animrt_runtime_create(ANIMRT_EVENT_CAPACITY_MAX, &rt) != ANIMRT_OK || !host_functions(rt)) return 2;
    /* The whole run recorded as a trace: replayed into a fresh runtime, the
     * calls of four threads, serialised, give the same events and values. */
    if (trace && animrt_trace_start(rt, trace) != ANIMRT_OK) { fprintf(stderr, "%s\n", animrt_last_error_message()); return 2; }
    animrt_keypath_id(rt, "opacity", &opacity);
    animrt_keypath_id(rt, "position.x", &position_x);
    animrt_keypath paths[SHARED_LAYERS];
    for (int i = 0; i < SHARED_LAYERS; i++) { animrt_layer_create(rt, 0, &shared_layers[i]); paths[i] = opacity; }
    animrt_reader_create(rt, shared_layers, paths, SHARED_LAYERS, &reader);
    animrt_id first_machines[SHARED_MACHINES];
    long first_n = 0;
    if (!machines_setup(first_machines, &first_n)) return 2;
    animrt_event_set_callback(rt, on_event, NULL);
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){.id = i, .calls = per_thread, .added = calloc(2 * (size_t)per_thread, sizeof(animrt_id)),
                        .seed = 0x9E3779B97F4A7C15ULL * (i + 1), .created = calloc((size_t)per_thread, sizeof(animrt_id))};
        pthread_create(&t[i], NULL, run, &w[i]);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    if (trace) allowed(animrt_trace_stop(rt), 0, "animrt_trace_stop");
    animrt_runtime_destroy(rt);
    __atomic_store_n(&destroyed, 1, __ATOMIC_SEQ_CST);
    long animations = from_callback_n, unstopped = 0, machines = first_n, unknown = 0, unfinished = 0;
    for (int i = 0; i < THREADS; i++) {
        animations += w[i].added_n;
        for (long k = 0; k < w[i].added_n; k++) if (find(w[i].added[k])->stopped != 1) unstopped++;
        machines += w[i].created_n;
        for (long k = 0; k < w[i].created_n; k++) mfind(w[i].created[k])->created = 1;
        free(w[i].added);
        free(w[i].created);
        free(w[i].buf);
    }
    for (long k = 0; k < first_n; k++) mfind(first_machines[k])->created = 1;
    for (long k = 0; k < from_callback_n; k++) if (find(from_callback[k])->stopped != 1) unstopped++;
    /* Animations the machines started are tracked from their events alone. */
    for (long k = 0; k < TRACK; k++) if (track[k].object && track[k].started && !track[k].stopped) unfinished++;
    for (long k = 0; k < MTRACK; k++) if (mtrack[k].object && mtrack[k].seen && !mtrack[k].created) unknown++;
    int live = plugin_live_loads();
    size_t replayed = 0;
    if (trace) {
        animrt_runtime *again = NULL;
        if (animrt_runtime_create(ANIMRT_EVENT_CAPACITY_MAX, &again) != ANIMRT_OK || !host_functions(again)) return 2;
        allowed(animrt_trace_replay(again, trace, &replayed), 0, "replaying the run's trace");
        animrt_runtime_destroy(again);
        printf("trace: %zu calls replayed\n", replayed);
    }
    if (concurrent) problem("the callback was entered by two threads at once", (animrt_id)concurrent);
    if (after_destroy) problem("events arrived after destroy returned", (animrt_id)after_destroy);
    if (unstopped) problem("attached animations without exactly one STOPPED", (animrt_id)unstopped);
    if (unfinished) problem("animations that started and never stopped", (animrt_id)unfinished);
    if (unknown) problem("machine events for machines never created", (animrt_id)unknown);
    if (commits == 0 || completed != commits) problem("transactions committed and completed differ", (animrt_id)(commits - completed));
    if (live != 0) problem("loads of the plugin not finished after the runtime was destroyed", (animrt_id)live);
    dlclose(keep);
    if (host_calls == 0 || host_notes == 0 || machine_events == 0 || plugin_loads == 0)
        problem("the machine half was not exercised", 0);
    printf("stress: %d threads, %ld calls (%ld ok), %ld events delivered, %ld animations attached (%ld from the callback), "
           "%ld transactions committed and completed\n",
           THREADS, total_calls, ok_calls, events, animations, from_callback_n, commits);
    printf("machines: %ld created (%ld shared replaced, %ld restored from snapshots), %ld machine events, "
           "%ld host function calls, plugin loaded %ld times and unloaded %ld\n",
           machines, replaced, restores, machine_events, host_calls, plugin_loads, plugin_unloads);
    printf("%s\n", problems ? "FAILED" : "every animation started at most once and stopped exactly once; one delivery at a time; "
                                         "machine events only for live machines");
    printf("%d passed, %d failed\n", problems ? 0 : 1, problems ? 1 : 0);
    free(track);
    free(mtrack);
    free(from_callback);
    return problems != 0;
}
