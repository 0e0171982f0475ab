/* A plugin that goes wrong in one chosen way, for the error rows of
 * docs/bad-input.md. Built several times by `make test`:
 *   -DABI=0 / -DABI=2      an entry point for another plugin ABI version
 *   -DFAIL_INIT            init registers some things, then refuses
 *   -DDUPLICATE='"easeIn"' registers a name the runtime already has (built as
 *                          libfaulty_duplicate; _again registers its own
 *                          "halfway" twice, _clash the example plugin's "bounce")
 *   -DDUPLICATE_FUNCTION   registers its own function "halfGuard" twice
 *   -DDUPLICATE_BLOCK='"easeOut"' registers a block curve "halfBlock", then a
 *                          block curve under a name the runtime already has
 *   -DBAD_DEFINITION       registers a definition naming an unbound function
 *   -DNO_ENTRY             exports no entry point at all
 *   -DNO_ENTRY -DDEPENDS_ON_EXAMPLES
 *                          exports no entry point but is linked against
 *                          libexamples.so, whose entry point dlsym finds
 *                          through it (built apart: see the Makefile)
 *   -DEMPTY                a plugin that loads and registers nothing
 *   -DENTRY_FUNCTION       defines animrt_plugin_entry as a function
 *   -DSHORT_ENTRY          its entry point is 8 bytes (the version and a size
 *                          of 8), the last of a readable page: the page after
 *                          it is made unreadable when the library loads, so
 *                          a loader that reads a whole animrt_plugin faults
 *   -DKEEP_REGISTRAR       keeps its registrar and calls it later, through
 *                          faulty_late_add, after init returned
 *   -DTHREADED_INIT        init starts four threads that register 200
 *                          functions each ("t0_0" … "t3_199") at once, and
 *                          waits for them (not a fault: calls are serialised)
 *   -DNAME_NULL            its entry point names no plugin (NULL)
 *   -DNAME_LONG            its entry point's name is 256 bytes, one past 255
 *   -DNAME_NOT_UTF8        its entry point's name is not valid UTF-8
 *   -DNAME_EMPTY           its entry point's name is "" (names nothing)
 *   -DVERSION_NULL         its entry point's version is NULL
 *   -DVERSION_LONG         its entry point's version is 256 bytes, one past 255
 *   -DVERSION_NOT_UTF8     its entry point's version is not valid UTF-8
 *   -DVERSION_EMPTY        its entry point's version is "" (not a fault: it loads)
 *   -DLONGEST              its entry point's name and version are 255 bytes
 *                          each, the longest allowed (not a fault: it loads)
 *   -DDEFINITION_NAME      registers a definition under a name no definition
 *                          may have ("faulty machine"), and refuses to start
 *                          if the registrar took it
 *   -DUSES_EXAMPLES        registers a definition "faultyBounce" whose
 *                          animation eases with the example plugin's
 *                          "bounce" (not a fault: it loads where that is)
 *   -DIGNORES_FAILURES     registers a definition "twice" twice, a curve
 *                          "easeIn" and a function "bad name" (each refused),
 *                          notes whether animrt_last_error_message() told
 *                          why "easeIn" was (faulty_saw_message), and
 *                          returns ANIMRT_OK all the same
 *   -DHOST_API             notes the table's size, abi_version and version()
 *                          (faulty_api_size, faulty_api_abi,
 *                          faulty_api_version), sets *state, and has a fini
 *                          that counts the calls given that state
 *                          (faulty_fini_calls; not a fault: it loads)
 *   -DUNDEFINED            calls example_bounce without being linked to the
 *                          library that has it: a symbol the loader cannot
 *                          bind, whatever else is loaded
 *   -DCALLS_ANIMRT         registers a function "refuses" (f64(f64)) that fails
 *                          through animrt_error_set, animrt's own function,
 *                          not api->error_set: it loads into a host linked
 *                          with -lanimrt, not into one that loaded animrt
 *                          privately (Python), where that symbol is missing
 *   -DSILENT               init fails with ANIMRT_E_STATE and no message
 *   -DCHDIR_ON_LOAD        a constructor changes the working directory to
 *                          "/" as the library is opened, between dlopen and
 *                          the loader's look at what it opened, as another
 *                          thread's chdir could (not a fault: it loads)
 *   -DNO_INIT              its entry point's init is NULL
 *   -DNULL_REGISTRAR       calls each of the registrar's four add_ functions
 *                          with a NULL registrar, counts those refused with
 *                          ANIMRT_E_NULL and a message that says so
 *                          (faulty_null_refusals), and returns the last
 *                          refusal's status without a message of its own
 *   -DFINI_AFTER_FAILURES  -DHOST_API and -DIGNORES_FAILURES together: init
 *                          sets *state, its registrations are refused, and
 *                          it returns ANIMRT_OK; its fini counts as HOST_API's
 *   -DFINI_AFTER_FAIL_INIT -DHOST_API and -DFAIL_INIT together: init sets
 *                          *state, then refuses to start; its fini, never to
 *                          be called, counts as HOST_API's
 *   -DFINI_AFTER_REFUSAL   -DHOST_API and -DDUPLICATE='"easeIn"' together:
 *                          init sets *state, and fails with the status of
 *                          its refused registration; its fini, never to be
 *                          called, counts as HOST_API's
 *   -DFINI_ORDER           registers nothing, and its fini notes when it ran:
 *                          it counts the fini calls of every copy of this
 *                          library in the environment variable
 *                          ANIMRT_FAULTY_FINI_COUNT and keeps its own place
 *                          in that count (faulty_fini_order; 0 before it ran)
 *   -DREENTRANT            its init and fini call back into the runtime the
 *                          host named with faulty_reenter (a tick, a read, a
 *                          layer, a destroy, then a read again), and keep
 *                          each call's status (faulty_reentry(i); -1 before
 *                          the call): each must be refused, the runtime
 *                          left as it was (not a fault: it loads)
 * Before failing, each registers a timing function "halfway" and a function
 * "halfGuard", which must not be left behind. */
#ifdef FINI_AFTER_FAILURES
#define HOST_API
#define IGNORES_FAILURES
#endif
#ifdef FINI_AFTER_FAIL_INIT
#define HOST_API
#define FAIL_INIT
#endif
#ifdef FINI_AFTER_REFUSAL
#define HOST_API
#define DUPLICATE "easeIn"
#endif
#ifdef FINI_ORDER
#define EMPTY
#endif
#if defined(CHDIR_ON_LOAD) || defined(FINI_ORDER)
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdbool.h>
#include <string.h>
#include "animrt.h"

#ifndef ABI
#define ABI ANIMRT_PLUGIN_ABI_VERSION
#endif

#define TEN_BYTES "faultyname"
#define HUNDRED_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES
#define LONGEST_TEXT HUNDRED_BYTES HUNDRED_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES TEN_BYTES "12345"

#if defined(NAME_NULL)
#define NAME NULL
#elif defined(NAME_LONG)
#define NAME LONGEST_TEXT "6"
#elif defined(LONGEST)
#define NAME LONGEST_TEXT
#elif defined(NAME_NOT_UTF8)
#define NAME "faulty\xff"
#elif defined(NAME_EMPTY)
#define NAME ""
#else
#define NAME "faulty"
#endif

#if defined(VERSION_NULL)
#define VERSION NULL
#elif defined(VERSION_LONG)
#define VERSION LONGEST_TEXT "6"
#elif defined(LONGEST)
#define VERSION LONGEST_TEXT
#elif defined(VERSION_NOT_UTF8)
#define VERSION "0\xff"
#elif defined(VERSION_EMPTY)
#define VERSION ""
#else
#define VERSION "0"
#endif

static double halfway(double x, const double *params, void *user_data) {
    (void)params; (void)user_data;
    return x / 2;
}

#ifdef DUPLICATE_BLOCK
static void half_block(const double *x, double *y, size_t count, const double *params, void *user_data) {
    (void)params; (void)user_data;
    for (size_t i = 0; i < count; i++) y[i] = x[i] / 2;
}
#endif

static animrt_status half_guard(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data; (void)count;
    result->boolean = args[0].number > 0.5;
    return ANIMRT_OK;
}

#ifdef THREADED_INIT
#include <pthread.h>
#include <stdio.h>

struct registering { const animrt_host_api *api; animrt_registrar *reg; int thread; animrt_status status; };

static void *register_many(void *arg) {
    struct registering *r = arg;
    char name[32];
    for (int i = 0; i < 200 && r->status == ANIMRT_OK; i++) {
        snprintf(name, sizeof name, "t%d_%d", r->thread, i);
        r->status = r->api->add_function(r->reg, name, "bool(f64)", half_guard, NULL);
    }
    return NULL;
}
#endif

#ifdef KEEP_REGISTRAR
static const animrt_host_api *kept_api;
static animrt_registrar *kept_registrar;

/* Registers a curve with the registrar init was given, long after init
 * returned (after the plugin was unloaded or its runtime destroyed, even). */
__attribute__((visibility("default"))) animrt_status faulty_late_add(void) {
    return kept_api->add_timing_function(kept_registrar, "late", halfway, NULL, 0, NULL, NULL, NULL);
}
#endif

#ifdef IGNORES_FAILURES
static int32_t saw_message;
/* 1 when animrt_last_error_message() said why "easeIn" was refused, right after it was. */
__attribute__((visibility("default"))) int32_t faulty_saw_message(void) { return saw_message; }
#endif

#ifdef HOST_API
static uint32_t api_size, api_abi, api_version;
static int32_t fini_calls;
static int state_marker;
__attribute__((visibility("default"))) uint32_t faulty_api_size(void) { return api_size; }
__attribute__((visibility("default"))) uint32_t faulty_api_abi(void) { return api_abi; }
__attribute__((visibility("default"))) uint32_t faulty_api_version(void) { return api_version; }
/* Calls of fini that were given the state init set (one given another counts -1000). */
__attribute__((visibility("default"))) int32_t faulty_fini_calls(void) { return fini_calls; }
static void fini(void *state) { fini_calls += state == &state_marker ? 1 : -1000; }
#define FINI fini
#endif
#ifdef FINI_ORDER
#include <stdio.h>
#include <stdlib.h>
static int32_t fini_order;
/* This copy's place among the fini calls of every copy (1 for the first); 0 before its fini ran. */
__attribute__((visibility("default"))) int32_t faulty_fini_order(void) { return fini_order; }
static void fini(void *state) {
    const char *count = getenv("ANIMRT_FAULTY_FINI_COUNT");
    char next[16];
    (void)state;
    fini_order = (count ? atoi(count) : 0) + 1;
    snprintf(next, sizeof next, "%d", (int)fini_order);
    setenv("ANIMRT_FAULTY_FINI_COUNT", next, 1);
}
#define FINI fini
#endif
#ifdef REENTRANT
/* The runtime init and fini call back into, and what each call gave:
 * slots 0-3 init's, 4-7 fini's (its last call); -1 before the call. */
static animrt_runtime *reentered;
static int32_t reentry[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
/* Names the runtime, and sets every slot back to -1. */
__attribute__((visibility("default"))) void faulty_reenter(void *rt) {
    reentered = rt;
    for (int i = 0; i < 8; i++) reentry[i] = -1;
}
__attribute__((visibility("default"))) int32_t faulty_reentry(int32_t i) { return i >= 0 && i < 8 ? reentry[i] : -2; }
/* Four calls back into the runtime, from slot `at` on. */
static void reenter(int at) {
    double now = 0;
    animrt_id layer = 0;
    reentry[at] = animrt_runtime_tick(reentered, 50);
    reentry[at + 1] = animrt_runtime_time(reentered, &now);
    reentry[at + 2] = animrt_layer_create(reentered, 0, &layer);
    animrt_runtime_destroy(reentered);  /* refused: nothing happens */
    reentry[at + 3] = animrt_runtime_time(reentered, &now);
}
static void fini(void *state) {
    (void)state;
    reenter(4);
}
#define FINI fini
#endif
#ifndef FINI
#define FINI NULL
#endif

#ifdef NULL_REGISTRAR
static int32_t null_refusals;
/* How many add_ calls given a NULL registrar were refused with ANIMRT_E_NULL,
 * animrt_last_error_message() saying why. */
__attribute__((visibility("default"))) int32_t faulty_null_refusals(void) { return null_refusals; }
static animrt_status refused(animrt_status s) {
    if (s == ANIMRT_E_NULL && strstr(animrt_last_error_message(), "the registrar is NULL") != NULL) null_refusals++;
    return s;
}
#endif

#ifdef UNDEFINED
/* In the example plugin, which this library is not linked against. */
double example_bounce(double x);
#endif

#ifdef CALLS_ANIMRT
static animrt_status refuses(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data, (void)args, (void)count, (void)result;
    return animrt_error_set(ANIMRT_E_RANGE, "refused through animrt_error_set");
}
#endif

#ifdef CHDIR_ON_LOAD
#include <unistd.h>
/* Runs inside dlopen, before the loader reads the entry point. */
__attribute__((constructor)) static void leave_directory(void) {
    if (chdir("/") != 0) return;
}
#endif

static animrt_status init(const animrt_host_api *api, animrt_registrar *reg, void **state) {
    animrt_status s;
    (void)state;
#ifdef KEEP_REGISTRAR
    kept_api = api;
    kept_registrar = reg;
#endif
#ifdef EMPTY
    (void)api; (void)reg;
    return ANIMRT_OK;
#endif
#ifdef HOST_API
    api_size = api->size;
    api_abi = api->abi_version;
    api_version = api->version();
    *state = &state_marker;
#endif
#ifdef UNDEFINED
    if (example_bounce(1) != 1) return api->error_set(ANIMRT_E_STATE, "example_bounce(1) is not 1");
#endif
#ifdef REENTRANT
    reenter(0);
#endif
#ifdef CALLS_ANIMRT
    return api->add_function(reg, "refuses", "f64(f64)", refuses, NULL);
#endif
#ifdef THREADED_INIT
    {
        struct registering r[4];
        pthread_t t[4];
        for (int k = 0; k < 4; k++) {
            r[k] = (struct registering){api, reg, k, ANIMRT_OK};
            if (pthread_create(&t[k], NULL, register_many, &r[k]) != 0) return api->error_set(ANIMRT_E_NOMEM, "no thread");
        }
        for (int k = 0; k < 4; k++) pthread_join(t[k], NULL);
        for (int k = 0; k < 4; k++) if (r[k].status != ANIMRT_OK) return r[k].status;
    }
#endif
    if ((s = api->add_timing_function(reg, "halfway", halfway, NULL, 0, NULL, NULL, NULL))) return s;
    if ((s = api->add_function(reg, "halfGuard", "bool(f64)", half_guard, NULL))) return s;
#ifdef SILENT
    return ANIMRT_E_STATE;
#endif
#ifdef NULL_REGISTRAR
    null_refusals = 0;
    refused(api->add_timing_function(NULL, "nullCurve", halfway, NULL, 0, NULL, NULL, NULL));
    refused(api->add_function(NULL, "nullGuard", "bool(f64)", half_guard, NULL));
    refused(api->add_definition(NULL, "nullMachine", "{\"name\": \"nullMachine\", \"initial\": \"a\", \"states\": {\"a\": {}}}"));
    return refused(api->add_timing_function_block(NULL, "nullBlock", NULL, NULL, 0, NULL, NULL, NULL));
#endif
#ifdef FAIL_INIT
    return api->error_set(ANIMRT_E_RANGE, "the faulty plugin refuses to start (built with FAIL_INIT)");
#endif
#ifdef DUPLICATE
    if ((s = api->add_timing_function(reg, DUPLICATE, halfway, NULL, 0, NULL, NULL, NULL))) return s;
#endif
#ifdef DUPLICATE_FUNCTION
    if ((s = api->add_function(reg, "halfGuard", "bool(f64)", half_guard, NULL))) return s;
#endif
#ifdef DUPLICATE_BLOCK
    if ((s = api->add_timing_function_block(reg, "halfBlock", half_block, NULL, 0, NULL, NULL, NULL))) return s;
    if ((s = api->add_timing_function_block(reg, DUPLICATE_BLOCK, half_block, NULL, 0, NULL, NULL, NULL))) return s;
#endif
#ifdef BAD_DEFINITION
    if ((s = api->add_definition(reg, "faultyMachine",
             "{\"name\": \"faultyMachine\", \"context\": {\"x\": {\"type\": \"number\", \"initial\": 0}},"
             " \"events\": {\"go\": {}}, \"initial\": \"a\","
             " \"states\": {\"a\": {\"on\": {\"go\": {\"guard\": \"nowhere(context.x)\", \"target\": \"b\"}}}, \"b\": {}}}")))
        return s;
#endif
#ifdef USES_EXAMPLES
    if ((s = api->add_definition(reg, "faultyBounce",
             "{\"name\": \"faultyBounce\", \"parts\": [{\"name\": \"dot\"}],"
             " \"animations\": {\"drop\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"to\": 1, \"duration\": 1,"
             " \"timingFunction\": \"bounce\"}},"
             " \"initial\": \"a\", \"states\": {\"a\": {\"entry\": [{\"animate\": \"drop\", \"part\": \"dot\"}]}}}")))
        return s;
#endif
#ifdef IGNORES_FAILURES
    {
        static const char *twice = "{\"name\": \"twice\", \"initial\": \"a\", \"states\": {\"a\": {}}}";
        if ((s = api->add_definition(reg, "twice", twice))) return s;
        (void)api->add_definition(reg, "twice", twice);
        s = api->add_timing_function(reg, "easeIn", halfway, NULL, 0, NULL, NULL, NULL);
        saw_message = s == ANIMRT_E_EXISTS && strstr(animrt_last_error_message(), "'easeIn' is a built-in") != NULL;
        (void)api->add_function(reg, "bad name", "bool(f64)", half_guard, NULL);
        return ANIMRT_OK;
    }
#endif
#ifdef DEFINITION_NAME
    s = api->add_definition(reg, "faulty machine", "{\"name\": \"faultyMachine\", \"initial\": \"a\", \"states\": {\"a\": {}}}");
    if (s == ANIMRT_OK) return api->error_set(ANIMRT_E_STATE, "the registrar took the definition name 'faulty machine'");
    return s;
#endif
    return ANIMRT_OK;
}

#if defined(ENTRY_FUNCTION)
/* The entry point written as a function returning the table: what the
 * loader finds under the name is code, not an animrt_plugin. */
__attribute__((visibility("default"))) const animrt_plugin *animrt_plugin_entry(void) {
    static const animrt_plugin entry = {ABI, sizeof(animrt_plugin), NAME, VERSION, init, NULL};
    return &entry;
}
#elif defined(SHORT_ENTRY)
#include <stdint.h>
#include <sys/mman.h>
/* Pages of up to 64 KiB: the entry ends where `guard` starts, on a page
 * boundary, and `guard` is a page (or several) of its own. */
#define SPAN 65536
static struct {
    char pad[SPAN - 8];
    uint32_t entry[2];
    char guard[SPAN];
} __attribute__((aligned(SPAN))) block = {{0}, {ABI, 8}, {0}};
__asm__(".globl animrt_plugin_entry\n.set animrt_plugin_entry, block + 65528");
__attribute__((constructor)) static void guard_entry(void) { mprotect(block.guard, SPAN, PROT_NONE); }
/* `init` unused but by the other variants. */
__attribute__((visibility("default"))) animrt_plugin_init_fn faulty_short_init = init;
#elif defined(NO_INIT)
__attribute__((visibility("default"))) const animrt_plugin animrt_plugin_entry = {
    ABI, sizeof(animrt_plugin), NAME, VERSION, NULL, FINI};
/* `init` unused but by the other variants. */
__attribute__((visibility("default"))) animrt_plugin_init_fn faulty_unused_init = init;
#elif !defined(NO_ENTRY)
__attribute__((visibility("default"))) const animrt_plugin animrt_plugin_entry = {
    ABI, sizeof(animrt_plugin), NAME, VERSION, init, FINI};
#else
/* The init exists, but nothing names it as an entry point. */
__attribute__((visibility("default"))) animrt_plugin_init_fn faulty_init = init;
#ifdef DEPENDS_ON_EXAMPLES
/* Uses the example plugin's curve, so that it depends on libexamples.so. */
double example_bounce(double x);
__attribute__((visibility("default"))) double faulty_bounce(double x) { return example_bounce(x); }
#endif
#endif
