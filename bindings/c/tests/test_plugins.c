/* Plugins and bound functions through the C ABI (SPEC §4, R4.1–R4.4): the
 * example plugin's curves in animations and in the batch, its machine and
 * guard, one init per runtime and unloading; C functions bound with libffi
 * as curves, guards and for direct calls; the host's own C callbacks; block
 * curves, from the host and from the plugin, in an old library and a new; and
 * every error row of docs/bad-input.md for plugins, with nothing left
 * half-registered and the runtime still usable.
 *
 * Usage: test_plugins DIR, where DIR holds libexamples.so and the
 * libfaulty_*.so variants built from tests/plugins/faulty.c. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "scene.h"

static const char *dir = ".";

static const char *lib(const char *name) {
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static animrt_value number(double d) { animrt_value v = {ANIMRT_TYPE_NUMBER, 0, d, 0, NULL, NULL}; return v; }
static animrt_value integer(int64_t i) { animrt_value v = {ANIMRT_TYPE_INTEGER, 0, 0, i, NULL, NULL}; return v; }
static animrt_value text(const char *s) { animrt_value v = {ANIMRT_TYPE_STRING, 0, 0, 0, s, NULL}; return v; }

static double curve(animrt_runtime *rt, const char *name, double x) {
    double y = NAN;
    if (animrt_timing_function_evaluate(rt, name, x, &y) != ANIMRT_OK) return NAN;
    return y;
}

/* How many loads of libexamples.so are initialised and not finished, as the
 * library itself counts them (read through a bound function). */
static int32_t live_loads(animrt_runtime *rt) {
    animrt_value r = {0, 0, 0, 0, NULL, NULL};
    if (animrt_function_call(rt, "liveLoads", NULL, 0, &r, NULL, 0, NULL) != ANIMRT_OK) return -1;
    return (int32_t)r.integer;
}

/* Expects the calling thread's last error message to be exactly `expected`. */
#define CHECK_MESSAGE_IS(expected) do { \
    const char *got_ = animrt_last_error_message(); \
    if (strcmp(got_, (expected)) == 0) check_passed++; \
    else { check_failed++; fprintf(stderr, "FAIL %s:%d [%s] message\n  got:      %s\n  expected: %s\n", \
        __FILE__, __LINE__, check_test, got_, (expected)); } \
} while (0)

static int64_t call_integer(animrt_runtime *rt, const char *name);

/* Copies the file `from` to `to`; whether it could. */
static bool copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    bool ok = in && out;
    char buf[8192];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    ok = ok && !ferror(in);
    if (out && fclose(out) != 0) ok = false;
    if (in) fclose(in);
    return ok;
}

/* ---- the example plugin ------------------------------------------------ */

TEST(example_plugin_curves) {
    animrt_runtime *rt = rt_new();
    animrt_id plugin = 0;
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &plugin));
    CHECK(plugin != 0);
    char name[32];
    size_t needed = 0;
    CHECK_OK(animrt_plugin_name(rt, plugin, name, sizeof name, &needed));
    CHECK(strcmp(name, "examples") == 0 && needed == 9);
    /* Its version, as ANIMRT_PLUGIN_DEFINE gives it; strings out as ever:
     * too small a buffer is left alone, NULL with 0 asks the size (and is
     * ANIMRT_E_BUFFER too). */
    char version[8] = "xxxxxxx";
    CHECK_STATUS(animrt_plugin_version(rt, plugin, version, 3, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 4 && strcmp(version, "xxxxxxx") == 0);
    needed = 0;
    CHECK_STATUS(animrt_plugin_version(rt, plugin, NULL, 0, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 4);
    CHECK_OK(animrt_plugin_version(rt, plugin, version, sizeof version, &needed));
    CHECK(strcmp(version, "1.0") == 0 && needed == 4);
    CHECK_STATUS(animrt_plugin_version(rt, plugin + 1, version, sizeof version, &needed), ANIMRT_E_HANDLE);
    /* R4.1: the curves start at 0, end at 1; parameters change them. */
    CHECK(curve(rt, "bounce", 0) == 0);
    CHECK(curve(rt, "bounce", 1) == 1);
    CHECK(curve(rt, "elastic(0.3)", 0) == 0);
    CHECK(curve(rt, "elastic(0.3)", 1) == 1);
    CHECK(curve(rt, "elastic(0.3)", 0.1) > 1);              /* it overshoots */
    CHECK(curve(rt, "bounce(4)", 0.5) == curve(rt, "bounce", 0.5)); /* 4 is the default */
    CHECK(curve(rt, "bounce(1)", 0.5) != curve(rt, "bounce(4)", 0.5));
    /* The first fall of bounce(4) lasts 1/(1 + 2(1/2 + 1/4 + 1/8 + 1/16)) = 16/46. */
    CHECK_NEAR(curve(rt, "bounce(4)", 8.0 / 46), 0.25, 1e-12);
    CHECK_NEAR(curve(rt, "bounce(4)", 16.0 / 46), 1.0, 1e-12);
    /* Parameters are checked against the ranges the plugin declared. */
    double y = 7;
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "elastic(5)", 0.5, &y), ANIMRT_E_RANGE);
    CHECK_MESSAGE("parameter 1 of timing function 'elastic' is 5;");
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "bounce(1, 2)", 0.5, &y), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "timing function 'bounce' takes at most 1 parameter; 2 were given") == 0);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "elastic(soft)", 0.5, &y), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "elastic(nan)", 0.5, &y), ANIMRT_E_INVALID);
    CHECK(y == 7);
    animrt_runtime_destroy(rt);
}

/* The batch evaluates a plugin curve per animation exactly as the curve says. */
TEST(plugin_curve_in_the_batch) {
    animrt_runtime *rt = rt_new();
    animrt_id plugin = 0, anim = 0;
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &plugin));
    CHECK_OK(animrt_timing_function_bind(rt, lib("libexamples.so"), "example_elastic", "f64(f64)", "ffiElastic"));
    const char *curves[] = {"bounce(3)", "elastic(0.4)", "ffiElastic", "easeInEaseOut"};
    enum { N = 64 };
    animrt_id layers[N];
    animrt_keypath opacity = 0;
    CHECK_OK(animrt_keypath_id(rt, "opacity", &opacity));
    for (int i = 0; i < N; i++) {
        CHECK_OK(animrt_layer_create(rt, 0, &layers[i]));
        CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
        double from = i, to = i + 10;
        CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_FROM, &from, 1));
        CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_TO, &to, 1));
        CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_BEGIN_TIME, 1));
        CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_DURATION, 2));
        CHECK_OK(animrt_animation_set_timing_function(rt, anim, curves[i % 4]));
        CHECK_OK(animrt_layer_add_animation(rt, layers[i], anim, "fade", 0, NULL));
        CHECK_OK(animrt_animation_destroy(rt, anim));
    }
    int worst = 0;
    for (double t = 1.0; t <= 3.0; t += 0.125) {
        CHECK_OK(animrt_runtime_tick(rt, t));
        for (int i = 0; i < N; i++) {
            double v = 0;
            size_t n = 0;
            CHECK_OK(animrt_layer_get_presentation(rt, layers[i], opacity, &v, 1, &n));
            double expected = i + 10 * curve(rt, curves[i % 4], (t - 1) / 2);
            if (t >= 3.0) expected = 1; /* removed on completion: the model value */
            if (v != expected) worst++;
        }
    }
    CHECK(worst == 0);
    animrt_runtime_destroy(rt);
}

/* Large batches run on several threads: a plugin curve gives the same
 * values, to the bit, as on one. */
TEST(plugin_curve_on_several_threads) {
    enum { N = 70000 };
    static double one[N], two[N];
    double *outs[2] = {one, two};
    for (int r = 0; r < 2; r++) {
        animrt_runtime *rt = rt_new();
        animrt_id plugin = 0, anim = 0, reader = 0;
        static animrt_id layers[N];
        static animrt_keypath paths[N];
        CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &plugin));
        CHECK_OK(animrt_runtime_set_threads(rt, r == 0 ? 1 : 2));
        CHECK_OK(animrt_keypath_id(rt, "opacity", &paths[0]));
        CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
        CHECK_OK(animrt_animation_set_timing_function(rt, anim, "bounce(3)"));
        for (int i = 0; i < N; i++) {
            double from = i % 7, to = 10 + i % 13, duration = 1 + (i % 101) / 50.0;
            CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_FROM, &from, 1));
            CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_TO, &to, 1));
            CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_DURATION, duration));
            CHECK_OK(animrt_layer_create(rt, 0, &layers[i]));
            CHECK_OK(animrt_layer_add_animation(rt, layers[i], anim, NULL, 0, NULL));
            paths[i] = paths[0];
        }
        CHECK_OK(animrt_reader_create(rt, layers, paths, N, &reader));
        CHECK_OK(animrt_runtime_tick(rt, 0));
        CHECK_OK(animrt_runtime_tick(rt, 0.7));
        size_t needed = 0;
        CHECK_OK(animrt_reader_read(rt, reader, outs[r], N, &needed));
        animrt_runtime_destroy(rt);
    }
    CHECK(memcmp(one, two, sizeof one) == 0);
    CHECK(one[1] > 1 && one[1] < 11);
}

static animrt_send_outcome tap(animrt_runtime *rt, animrt_id machine, int32_t event) {
    animrt_send_outcome o = (animrt_send_outcome)99;
    animrt_machine_send(rt, machine, event, NULL, 0, &o);
    return o;
}

static const char *state_name(animrt_runtime *rt, animrt_id def, animrt_id machine) {
    static char buf[64];
    int32_t s = -1;
    size_t needed = 0;
    animrt_machine_state(rt, machine, &s);
    animrt_definition_name(rt, def, ANIMRT_NAME_STATE, s, buf, sizeof buf, &needed);
    return buf;
}

/* R4.3: the plugin's machine, with the plugin's guard and curves. */
TEST(like_button) {
    animrt_runtime *rt = rt_new();
    animrt_id plugin = 0, def = 0, machine = 0, heart = 0;
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &plugin));
    CHECK_OK(animrt_definition_load_named(rt, "likeButton", &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, "{\"config\": {\"likes\": 41, \"maxToggles\": 2}}", &machine));
    int32_t tap_id = -1, likes = -1;
    CHECK_OK(animrt_definition_id(rt, def, ANIMRT_NAME_EVENT, "tap", &tap_id));
    CHECK_OK(animrt_definition_id(rt, def, ANIMRT_NAME_CONTEXT, "likes", &likes));
    CHECK_OK(animrt_machine_part(rt, machine, "heart", &heart));
    CHECK(strcmp(state_name(rt, def, machine), "unliked") == 0);
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK(tap(rt, machine, tap_id) == ANIMRT_SEND_TAKEN);
    CHECK(strcmp(state_name(rt, def, machine), "liked") == 0);
    CHECK_OK(animrt_runtime_tick(rt, 1)); /* the pop begins at this tick */
    animrt_value v = {0, 0, 0, 0, NULL, NULL};
    CHECK_OK(animrt_machine_get(rt, machine, likes, &v, NULL, 0, NULL));
    CHECK(v.type == ANIMRT_TYPE_NUMBER && v.number == 42);
    /* The pop runs on "bounce(3)": at 0.3 s of 0.6 s, scale 0.5 + 0.5·bounce(3)(0.5). */
    animrt_keypath scale = 0;
    CHECK_OK(animrt_keypath_id(rt, "transform.scale", &scale));
    CHECK_OK(animrt_runtime_tick(rt, 1.3));
    double s = 0;
    size_t n = 0;
    CHECK_OK(animrt_layer_get_presentation(rt, heart, scale, &s, 1, &n));
    CHECK_NEAR(s, 0.5 + 0.5 * curve(rt, "bounce(3)", 0.5), 1e-12);
    CHECK(s > 0.5 && s < 1);
    CHECK(tap(rt, machine, tap_id) == ANIMRT_SEND_TAKEN);
    CHECK(strcmp(state_name(rt, def, machine), "unliked") == 0);
    /* Two toggles allowed: the guard now says no, and the button locks. */
    CHECK(tap(rt, machine, tap_id) == ANIMRT_SEND_TAKEN);
    CHECK(strcmp(state_name(rt, def, machine), "locked") == 0);
    CHECK(tap(rt, machine, tap_id) == ANIMRT_SEND_IGNORED);
    CHECK_OK(animrt_machine_get(rt, machine, likes, &v, NULL, 0, NULL));
    CHECK(v.number == 41);
    animrt_runtime_destroy(rt);
}

/* R4.1: a library loaded by two runtimes is initialised for each, and
 * finished with each; unloading is refused while something uses it. */
/* Adds to `layer` under `key` an opacity animation to 1 on the plugin's
 * curve bounce(2); its description is destroyed (the attached one stays).
 * Returns the description's id, which the animation's events carry. */
static animrt_id add_bounce(animrt_runtime *rt, animrt_id layer, const char *key) {
    animrt_id anim = 0;
    double to = 1;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_TO, &to, 1));
    CHECK_OK(animrt_animation_set_timing_function(rt, anim, "bounce(2)"));
    CHECK_OK(animrt_layer_add_animation(rt, layer, anim, key, 0, NULL));
    CHECK_OK(animrt_animation_destroy(rt, anim));
    return anim;
}

TEST(one_init_per_runtime_and_unloading) {
    animrt_runtime *a = rt_new(), *b = rt_new();
    animrt_id pa = 0, pb = 0, anim = 0;
    CHECK_OK(animrt_function_bind(a, lib("libexamples.so"), "example_live_loads", "i32()", "liveLoads"));
    int32_t before = live_loads(a);
    CHECK(before == 0);
    CHECK_OK(animrt_plugin_load(a, lib("libexamples.so"), &pa));
    CHECK(live_loads(a) == before + 1);
    CHECK_OK(animrt_plugin_load(b, lib("libexamples.so"), &pb));
    CHECK(live_loads(a) == before + 2);
    /* Loaded twice into one runtime: its names exist already. */
    animrt_id again = 77;
    CHECK_STATUS(animrt_plugin_load(a, lib("libexamples.so"), &again), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("plugin 'examples' (");
    CHECK_MESSAGE("libexamples.so) is loaded into this runtime already");
    CHECK(again == 77 && live_loads(a) == before + 2);
    /* Handles are per runtime. */
    CHECK_STATUS(animrt_plugin_unload(a, pb), ANIMRT_E_HANDLE);
    /* In use by an animation description: refused, and nothing changes. */
    CHECK_OK(animrt_animation_create(a, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK_OK(animrt_animation_set_timing_function(a, anim, "elastic(0.5)"));
    CHECK_STATUS(animrt_plugin_unload(a, pa), ANIMRT_E_STATE);
    CHECK_MESSAGE("libexamples.so) is in use: its timing function 'elastic' is used by 1 animation description; "
                  "destroy the animation descriptions first");
    CHECK(!isnan(curve(a, "bounce(2)", 0.5)));
    /* The message counts each kind of holder, for each name held. */
    animrt_id def = 0, def2 = 0, machine = 0;
    CHECK_OK(animrt_definition_load_named(a, "likeButton", &def));
    CHECK_OK(animrt_definition_load_named(a, "likeButton", &def2));
    CHECK_STATUS(animrt_plugin_unload(a, pa), ANIMRT_E_STATE);
    CHECK_MESSAGE("is in use: its timing function 'bounce' is used by 2 loaded definitions ('likeButton'); "
                  "its timing function 'elastic' is used by 1 animation description and 2 loaded definitions ('likeButton'); "
                  "its function 'canToggle' is used by 2 loaded definitions ('likeButton'); "
                  "destroy the animation descriptions and the definitions first");
    CHECK_OK(animrt_animation_destroy(a, anim));
    CHECK_OK(animrt_definition_destroy(a, def2));
    /* A machine holds its definition, destroyed or not. */
    CHECK_OK(animrt_machine_create(a, def, 0, NULL, &machine));
    CHECK_OK(animrt_definition_destroy(a, def));
    CHECK_STATUS(animrt_plugin_unload(a, pa), ANIMRT_E_STATE);
    CHECK_MESSAGE("its function 'canToggle' is used by 1 machine (of 'likeButton'); destroy the machines first");
    CHECK_OK(animrt_machine_destroy(a, machine));
    CHECK_OK(animrt_plugin_unload(a, pa));
    CHECK(live_loads(a) == before + 1);
    CHECK(isnan(curve(a, "bounce", 0.5)));
    CHECK_STATUS(animrt_definition_load_named(a, "likeButton", &def), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_plugin_unload(a, pa), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("is stale (the plugin was unloaded)");  /* a host unloads a plugin, never destroys one */
    /* b is untouched, and destroying it finishes its load. */
    CHECK(curve(b, "bounce", 1) == 1);
    animrt_runtime_destroy(b);
    CHECK(live_loads(a) == before);
    /* Loaded again after an unload: a fresh init. */
    CHECK_OK(animrt_plugin_load(a, lib("libexamples.so"), &pa));
    CHECK(live_loads(a) == before + 1);
    /* An attached animation on its curve, in the batch, holds it; once
     * that animation is gone, the plugin unloads. */
    animrt_id layer = 0;
    CHECK_OK(animrt_layer_create(a, 0, &layer));
    add_bounce(a, layer, "drop");
    CHECK_OK(animrt_runtime_tick(a, 10));
    CHECK_OK(animrt_runtime_tick(a, 10.1));
    CHECK_STATUS(animrt_plugin_unload(a, pa), ANIMRT_E_STATE);
    CHECK_MESSAGE("is in use: its timing function 'bounce' is used by 1 attached animation; "
                  "remove the attached animations (or destroy their layers) first");
    CHECK_OK(animrt_runtime_tick(a, 11)); /* it finishes and is removed */
    CHECK_OK(animrt_plugin_unload(a, pa));
    CHECK(live_loads(a) == before);
    animrt_runtime_destroy(a);
}

/* A refused unload changes nothing, the plugin's definitions included:
 * one that uses another plugin's curve, unloaded since, is kept as it was
 * (not checked again and dropped), and loads once that plugin is back. */
TEST(a_refused_unload_keeps_the_plugins_definitions) {
    animrt_runtime *rt = rt_new();
    animrt_id pe = 0, pf = 0, desc = 0, def = 77;
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &pe));
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_uses.so"), &pf));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &desc));
    CHECK_OK(animrt_animation_set_timing_function(rt, desc, "halfway"));  /* the faulty plugin is in use */
    CHECK_OK(animrt_plugin_unload(rt, pe));  /* "faultyBounce" is only text: bounce is not in use */
    CHECK_STATUS(animrt_plugin_unload(rt, pf), ANIMRT_E_STATE);
    CHECK_MESSAGE("timing function 'halfway'");
    /* Its functions are the host's to call still, as before the unload was asked for. */
    animrt_value r = {0, 0, 0, 0, NULL, NULL}, a[1] = {number(0.75)};
    CHECK_OK(animrt_function_call(rt, "halfGuard", a, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_BOOL && r.boolean == 1);
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &pe));
    CHECK_OK(animrt_definition_load_named(rt, "faultyBounce", &def));
    CHECK(def != 77);
    CHECK_STATUS(animrt_definition_register(rt, "faultyBounce", "{}"), ANIMRT_E_EXISTS);
    CHECK_OK(animrt_definition_destroy(rt, def));
    CHECK_OK(animrt_animation_destroy(rt, desc));
    CHECK_OK(animrt_plugin_unload(rt, pf));
    CHECK_STATUS(animrt_definition_load_named(rt, "faultyBounce", &def), ANIMRT_E_NOT_FOUND);
    animrt_runtime_destroy(rt);
}

/* R4.1: what holds a plugin's curve is counted and, once it goes, the
 * plugin unloads: a group's child read as a new description holds it as a
 * description (the group's or the attached group's), and a keyframe's
 * per-segment curves hold it; a finished animation whose events are not
 * polled yet, a definition refused mid-load and a definition registered by
 * name (text until loaded) hold nothing. */
TEST(unload_follows_every_holder) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 0, layer = 0, kf = 0, group = 0, child = 0, attached = 0, fade = 0, def = 77;
    double values[3] = {0, 1, 0};
    const char *curves[2] = {"bounce", "elastic(0.4)"};
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &p));
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    /* A finished animation, removed, its events not polled: nothing holds the curve. */
    fade = add_bounce(rt, layer, "fade");
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 5));
    /* A definition refused after its template resolved the curve, and one registered as text. */
    CHECK_STATUS(animrt_definition_load(rt,
        "{\"name\": \"x\", \"events\": {\"go\": {}}, \"initial\": \"a\", \"animations\": {\"k\": {\"type\": \"basic\","
        " \"keyPath\": \"opacity\", \"to\": 1, \"timingFunction\": \"bounce(2)\"}}, \"states\": {\"a\": {\"on\": {\"go\": \"nowhere\"}}}}",
        &def), ANIMRT_E_NOT_FOUND);
    CHECK(def == 77);
    CHECK_OK(animrt_definition_register(rt, "mine",
        "{\"name\": \"mine\", \"events\": {\"go\": {}}, \"initial\": \"a\", \"animations\": {\"k\": {\"type\": \"basic\","
        " \"keyPath\": \"opacity\", \"to\": 1, \"timingFunction\": \"elastic\"}}, \"states\": {\"a\": {\"on\": {\"go\": \"a\"}}}}"));
    /* A keyframe animation easing its segments with both curves, in a group. */
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &kf));
    CHECK_OK(animrt_keyframe_set_values(rt, kf, values, 3, 1));
    CHECK_OK(animrt_keyframe_set_timing_functions(rt, kf, curves, 2));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_GROUP, NULL, &group));
    CHECK_OK(animrt_animation_set_timing(rt, group, ANIMRT_TIMING_DURATION, 2));
    CHECK_OK(animrt_group_add(rt, group, kf));
    CHECK_OK(animrt_layer_add_animation(rt, layer, group, "g", 0, &attached));
    CHECK_OK(animrt_animation_destroy(rt, kf));
    CHECK_OK(animrt_group_get_child(rt, group, 0, &child));
    CHECK_OK(animrt_runtime_tick(rt, 5.5));
    CHECK_STATUS(animrt_plugin_unload(rt, p), ANIMRT_E_STATE);
    CHECK_MESSAGE("is in use: its timing function 'bounce' is used by 2 animation descriptions and 1 attached animation; "
                  "its timing function 'elastic' is used by 2 animation descriptions and 1 attached animation; "
                  "destroy the animation descriptions and remove the attached animations (or destroy their layers) first");
    CHECK_OK(animrt_animation_destroy(rt, group));
    CHECK_OK(animrt_animation_destroy(rt, child));
    /* The attached group's child, read as a description, holds it once the layer is gone. */
    CHECK_OK(animrt_group_get_child(rt, attached, 0, &child));
    CHECK_OK(animrt_layer_destroy(rt, layer));
    CHECK_STATUS(animrt_plugin_unload(rt, p), ANIMRT_E_STATE);
    CHECK_MESSAGE("is in use: its timing function 'bounce' is used by 1 animation description; "
                  "its timing function 'elastic' is used by 1 animation description; destroy the animation descriptions first");
    CHECK_OK(animrt_animation_destroy(rt, child));
    CHECK_OK(animrt_plugin_unload(rt, p));
    CHECK_STATUS(animrt_definition_load_named(rt, "mine", &def), ANIMRT_E_NOT_FOUND);  /* its curve went with the plugin */
    CHECK(def == 77);
    /* The finished animation's events were still queued through all of it. */
    animrt_event events[64];
    size_t n = 0;
    int stopped = 0;
    CHECK_OK(animrt_event_poll(rt, events, 64, &n));
    for (size_t i = 0; i < n; i++) stopped += events[i].type == ANIMRT_EVENT_ANIMATION_STOPPED && events[i].animation == fade;
    CHECK(stopped == 1);
    animrt_runtime_destroy(rt);
}

/* A plugin whose function a loaded definition calls is in use, though none
 * of its curves is: its unload is refused until that definition goes. */
TEST(a_plugin_function_in_use_holds_its_plugin) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 0, def = 0;
    animrt_value r = {0, 0, 0, 0, NULL, NULL}, a[1] = {number(0.75)};
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_emptyversion.so"), &p));
    CHECK_OK(animrt_definition_load(rt,
        "{\"name\": \"g\", \"events\": {\"go\": {}}, \"initial\": \"a\","
        " \"states\": {\"a\": {\"on\": {\"go\": {\"guard\": \"halfGuard(1)\", \"target\": \"b\"}}}, \"b\": {}}}", &def));
    CHECK_STATUS(animrt_plugin_unload(rt, p), ANIMRT_E_STATE);
    CHECK_MESSAGE("plugin 'faulty' (");
    CHECK_MESSAGE("is in use: its function 'halfGuard' is used by 1 loaded definition ('g'); destroy the definitions first");
    CHECK_OK(animrt_function_call(rt, "halfGuard", a, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_BOOL && r.boolean == 1);
    CHECK_OK(animrt_definition_destroy(rt, def));
    CHECK_OK(animrt_plugin_unload(rt, p));
    CHECK_STATUS(animrt_function_call(rt, "halfGuard", a, 1, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
    animrt_runtime_destroy(rt);
}

/* A plugin's fini runs once for every init that returned ANIMRT_OK, its
 * load refused or not, and never for one that failed; a runtime destroyed
 * finishes its plugins the last loaded first (R4.1). */
TEST(fini_follows_each_init_that_succeeded) {
    animrt_runtime *rt = rt_new(), *reader = rt_new();
    animrt_id p = 77;
    CHECK_OK(animrt_function_bind(reader, lib("libfaulty_finiignores.so"), "faulty_fini_calls", "i32()", "ignoresFini"));
    CHECK_OK(animrt_function_bind(reader, lib("libfaulty_finifails.so"), "faulty_fini_calls", "i32()", "failsFini"));
    CHECK_OK(animrt_function_bind(reader, lib("libfaulty_finirefused.so"), "faulty_fini_calls", "i32()", "refusedFini"));
    /* init returned OK, a registration of it refused: the load fails, and fini gets the state init set. */
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_finiignores.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("nothing of it was loaded");
    CHECK(p == 77 && call_integer(reader, "ignoresFini") == 1);
    /* init failed, by its own say or with a refused registration's status:
     * nothing of the plugin is called after it. */
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_finifails.so"), &p), ANIMRT_E_CALLBACK);
    CHECK(p == 77 && call_integer(reader, "failsFini") == 0);
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_finirefused.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("'easeIn' is a built-in timing function");
    CHECK(p == 77 && call_integer(reader, "refusedFini") == 0);
    animrt_runtime_destroy(rt);
    CHECK(call_integer(reader, "ignoresFini") == 1 && call_integer(reader, "failsFini") == 0);
    CHECK(call_integer(reader, "refusedFini") == 0);

    /* Two copies of one plugin, each its own library, loaded first and second. */
    char copies[] = "/tmp/animrt_fini_XXXXXX", first[64], second[64];
    CHECK(mkdtemp(copies) != NULL);
    snprintf(first, sizeof first, "%s/first.so", copies);
    snprintf(second, sizeof second, "%s/second.so", copies);
    CHECK(copy_file(lib("libfaulty_finiorder.so"), first) && copy_file(lib("libfaulty_finiorder.so"), second));
    CHECK_OK(animrt_function_bind(reader, first, "faulty_fini_order", "i32()", "firstOrder"));
    CHECK_OK(animrt_function_bind(reader, second, "faulty_fini_order", "i32()", "secondOrder"));
    unsetenv("ANIMRT_FAULTY_FINI_COUNT");
    rt = rt_new();
    animrt_id a = 0, b = 0;
    CHECK_OK(animrt_plugin_load(rt, first, &a));
    CHECK_OK(animrt_plugin_load(rt, second, &b));
    CHECK(call_integer(reader, "firstOrder") == 0 && call_integer(reader, "secondOrder") == 0);
    animrt_runtime_destroy(rt);
    CHECK(call_integer(reader, "secondOrder") == 1);
    CHECK(call_integer(reader, "firstOrder") == 2);
    unsetenv("ANIMRT_FAULTY_FINI_COUNT");
    animrt_runtime_destroy(reader);
    unlink(first);
    unlink(second);
    rmdir(copies);
}

/* A library loads once per runtime, whatever it registers: a second load
 * into the same runtime is refused before its init runs, under any path
 * that names the same file; another runtime, or the same one after an
 * unload, loads it again. */
TEST(a_library_loads_once_per_runtime) {
    animrt_runtime *a = rt_new(), *b = rt_new();
    animrt_id first = 0, again = 77, other = 0;
    CHECK_OK(animrt_plugin_load(a, lib("libfaulty_empty.so"), &first));
    CHECK_STATUS(animrt_plugin_load(a, lib("libfaulty_empty.so"), &again), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("plugin 'faulty' (");
    CHECK_MESSAGE("libfaulty_empty.so) is loaded into this runtime already");
    CHECK(again == 77);
    CHECK_STATUS(animrt_plugin_load(a, lib("./libfaulty_empty.so"), &again), ANIMRT_E_EXISTS);
    CHECK(again == 77);
    CHECK_OK(animrt_plugin_load(b, lib("libfaulty_empty.so"), &other));
    CHECK_OK(animrt_plugin_unload(a, first));
    CHECK_OK(animrt_plugin_load(a, lib("libfaulty_empty.so"), &again));
    CHECK(again != 77);
    char name[32];
    size_t needed = 0;
    CHECK_OK(animrt_plugin_name(a, again, name, sizeof name, &needed));
    CHECK(strcmp(name, "faulty") == 0);
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(b);
}

/* Bulk adds take every curve the batch has a lane for: a plugin family's
 * members (called directly), a function bound with libffi, and a curve of
 * the general lane. Each copy gives what the same add made alone gives, and
 * holds its plugin curve as any attached animation does: the plugin does
 * not unload while one runs, nor while one that finished fills forwards. */
TEST(bulk_adds_on_plugin_curves) {
    animrt_runtime *rt = rt_new();
    animrt_id plugin = 0, anim = 0;
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &plugin));
    CHECK_OK(animrt_timing_function_bind(rt, lib("libexamples.so"), "example_elastic", "f64(f64)", "ffiElastic"));
    enum { N = 40, C = 4 };
    const char *curves[C] = {"bounce(3)", "elastic", "ffiElastic", "steps(4)"};
    static animrt_id one[C][N], many[C][N];
    double begin[N], duration[N], from[N], to[N];
    for (int i = 0; i < N; i++) {
        begin[i] = 1 + 0.01 * i;
        duration[i] = 1 + 0.05 * i;
        from[i] = i;
        to[i] = 100 - i;
    }
    animrt_column cols[4] = {{ANIMRT_COLUMN_BEGIN_TIME, begin}, {ANIMRT_COLUMN_DURATION, duration},
                             {ANIMRT_COLUMN_FROM, from}, {ANIMRT_COLUMN_TO, to}};
    animrt_keypath opacity = 0;
    CHECK_OK(animrt_keypath_id(rt, "opacity", &opacity));
    for (int c = 0; c < C; c++) {
        CHECK_OK(animrt_layer_create_many(rt, 0, N, one[c]));
        CHECK_OK(animrt_layer_create_many(rt, 0, N, many[c]));
        CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
        CHECK_OK(animrt_animation_set_timing_function(rt, anim, curves[c]));
        CHECK_OK(animrt_animation_set_fill_mode(rt, anim, ANIMRT_FILL_FORWARDS));
        CHECK_OK(animrt_animation_set_flag(rt, anim, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
        CHECK_OK(animrt_layer_add_animations(rt, anim, many[c], N, cols, 4, "fade", 0, NULL));
        for (int i = 0; i < N; i++) {
            CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_BEGIN_TIME, begin[i]));
            CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_DURATION, duration[i]));
            CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_FROM, &from[i], 1));
            CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_TO, &to[i], 1));
            CHECK_OK(animrt_layer_add_animation(rt, one[c][i], anim, "fade", 0, NULL));
        }
        CHECK_OK(animrt_animation_destroy(rt, anim));
    }
    int differ = 0, off_curve = 0, checked = 0;
    for (double t = 1.0; t <= 5.0; t += 0.0625) {
        CHECK_OK(animrt_runtime_tick(rt, t));
        for (int c = 0; c < C; c++) {
            for (int i = 0; i < N; i++) {
                double a = 0, b = 0;
                size_t n = 0;
                CHECK_OK(animrt_layer_get_presentation(rt, one[c][i], opacity, &a, 1, &n));
                CHECK_OK(animrt_layer_get_presentation(rt, many[c][i], opacity, &b, 1, &n));
                if (a != b) differ++;
                double x = (t - begin[i]) / duration[i];
                if (x >= 0 && x < 1) {
                    checked++;
                    if (b != from[i] + (to[i] - from[i]) * curve(rt, curves[c], x)) off_curve++;
                } else if (x >= 1 && b != to[i]) {
                    off_curve++; /* filled forwards: the end value */
                }
            }
        }
        if (t == 2.0) {
            /* Mid-flight: the plugin's curves are in use. */
            CHECK_STATUS(animrt_plugin_unload(rt, plugin), ANIMRT_E_STATE);
            CHECK_MESSAGE("is in use: its timing function 'bounce' is used by 80 attached animations; "
                          "its timing function 'elastic' is used by 80 attached animations; "
                          "remove the attached animations (or destroy their layers) first");
        }
    }
    CHECK(differ == 0 && off_curve == 0 && checked > C * N * 10);
    /* Every animation has finished and fills: still in use (out of the lanes a tick evaluates, counted all the same). */
    CHECK_STATUS(animrt_plugin_unload(rt, plugin), ANIMRT_E_STATE);
    CHECK_MESSAGE("is in use: its timing function 'bounce' is used by 80 attached animations; "
                  "its timing function 'elastic' is used by 80 attached animations;");
    for (int i = 0; i < N; i++) {
        CHECK_OK(animrt_layer_remove_all_animations(rt, one[0][i]));
        CHECK_OK(animrt_layer_remove_all_animations(rt, many[0][i]));
    }
    CHECK_STATUS(animrt_plugin_unload(rt, plugin), ANIMRT_E_STATE);
    CHECK_MESSAGE("is in use: its timing function 'elastic' is used by 80 attached animations; remove");
    for (int i = 0; i < N; i++) {
        CHECK_OK(animrt_layer_remove_all_animations(rt, one[1][i]));
        CHECK_OK(animrt_layer_remove_all_animations(rt, many[1][i]));
    }
    CHECK_OK(animrt_plugin_unload(rt, plugin));
    /* Its names are gone, even the ones just used by name. */
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK_STATUS(animrt_animation_set_timing_function(rt, anim, "elastic"), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_animation_set_timing_function(rt, anim, "bounce(3)"), ANIMRT_E_NOT_FOUND);
    /* The bound curve and the built-in ones still run in bulk. */
    CHECK_OK(animrt_runtime_tick(rt, 5.5));
    double v = 0;
    size_t n = 0;
    CHECK_OK(animrt_layer_get_presentation(rt, many[2][3], opacity, &v, 1, &n));
    CHECK(v == to[3]);
    animrt_runtime_destroy(rt);
}

/* A trace of a session with a plugin and a bound curve replays bit for bit:
 * the replay loads and binds them again by path and symbol. */
TEST(traces_replay_plugins_and_bindings) {
    char path[] = "/tmp/animrt_plugins_trace_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    animrt_runtime *rt = rt_new();
    animrt_id plugin = 0, def = 0, like = 0, layer = 0, anim = 0;
    CHECK_OK(animrt_trace_start(rt, path));
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &plugin));
    CHECK_OK(animrt_timing_function_bind(rt, lib("libexamples.so"), "example_elastic", "f64(f64)", "ffiElastic"));
    CHECK_OK(animrt_definition_load_named(rt, "likeButton", &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &like));
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK_OK(animrt_animation_set_timing_function(rt, anim, "ffiElastic"));
    CHECK_OK(animrt_layer_add_animation(rt, layer, anim, NULL, 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK_OK(animrt_machine_send_json(rt, like, "tap", NULL, NULL));
    for (int i = 1; i <= 10; i++) CHECK_OK(animrt_runtime_tick(rt, 1 + 0.05 * i));
    CHECK_OK(animrt_trace_stop(rt));
    animrt_runtime_destroy(rt);
    animrt_runtime *again = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(again, path, &calls));
    CHECK(calls == 20); /* everything but the trace calls themselves */
    double y = 0;
    CHECK_OK(animrt_timing_function_evaluate(again, "bounce(3)", 1, &y));
    animrt_runtime_destroy(again);
    unlink(path);
}

/* ---- binding C functions with libffi ----------------------------------- */

TEST(bound_functions) {
    animrt_runtime *rt = rt_new();
    animrt_value r = {0, 0, 0, 0, NULL, NULL};
    CHECK_OK(animrt_function_bind(rt, "libm.so.6", "pow", "f64(f64, f64)", "power"));
    animrt_value two_ten[2] = {number(2), integer(10)};
    CHECK_OK(animrt_function_call(rt, "power", two_ten, 2, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_NUMBER && r.number == 1024);
    /* NULL library: the process (libc is loaded). */
    CHECK_STATUS(animrt_function_bind(rt, NULL, "abs", "i32(i32)", NULL), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("'abs' is a built-in of the expression language; register or bind the function under another name");
    CHECK_OK(animrt_function_bind(rt, NULL, "abs", "i32(i32)", "iabs"));
    animrt_value minus[1] = {integer(-7)};
    CHECK_OK(animrt_function_call(rt, "iabs", minus, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == 7);
    minus[0] = number(-9); /* a whole number is accepted for an integer */
    CHECK_OK(animrt_function_call(rt, "iabs", minus, 1, &r, NULL, 0, NULL));
    CHECK(r.integer == 9);
    CHECK_OK(animrt_function_bind(rt, NULL, "strlen", "u64(str)", "length"));
    animrt_value word[1] = {text("plugins")};
    CHECK_OK(animrt_function_call(rt, "length", word, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == 7);
    CHECK_OK(animrt_function_bind(rt, NULL, "getenv", "str(str)", NULL));
    char buf[8];
    size_t needed = 0;
    setenv("ANIMRT_PLUGIN_TEST", "hello, plugins", 1);
    animrt_value key[1] = {text("ANIMRT_PLUGIN_TEST")};
    /* No buffer: refused before the function runs (its result could go nowhere). */
    CHECK_STATUS(animrt_function_call(rt, "getenv", key, 1, &r, NULL, 0, &needed), ANIMRT_E_NULL);
    CHECK_MESSAGE("buf is NULL but 'getenv' returns a string: give a buffer (ANIMRT_STRING_MAX + 1 = 1048577 bytes always "
                  "suffice); it was not called");
    CHECK(needed == ANIMRT_STRING_MAX + 1);
    CHECK_STATUS(animrt_function_call(rt, "getenv", key, 1, &r, buf, 0, &needed), ANIMRT_E_BUFFER);
    CHECK_MESSAGE("cap is 0 but 'getenv' returns a string");
    CHECK_STATUS(animrt_function_call(rt, "getenv", key, 1, &r, buf, sizeof buf, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 15);
    char big[32];
    CHECK_OK(animrt_function_call(rt, "getenv", key, 1, &r, big, sizeof big, &needed));
    CHECK(r.type == ANIMRT_TYPE_STRING && r.string == big && strcmp(big, "hello, plugins") == 0);
    /* A NULL str result is refused with a message, not handed on. */
    key[0] = text("ANIMRT_NO_SUCH_VARIABLE_SET");
    CHECK_STATUS(animrt_function_call(rt, "getenv", key, 1, &r, big, sizeof big, &needed), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE("returned NULL where a string (str) was declared");
    /* Arguments are checked against the signature. */
    animrt_value wrong[1] = {text("7")};
    CHECK_STATUS(animrt_function_call(rt, "iabs", wrong, 1, &r, NULL, 0, NULL), ANIMRT_E_KIND);
    CHECK_MESSAGE("argument 1 of 'iabs' (i32(i32)) is i32");
    animrt_value huge[1] = {integer(INT64_C(1) << 40)};
    CHECK_STATUS(animrt_function_call(rt, "iabs", huge, 1, &r, NULL, 0, NULL), ANIMRT_E_RANGE);
    animrt_value half[1] = {number(2.5)};
    CHECK_STATUS(animrt_function_call(rt, "iabs", half, 1, &r, NULL, 0, NULL), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_function_call(rt, "iabs", NULL, 0, &r, NULL, 0, NULL), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "'iabs' (i32(i32)) takes 1 argument; 0 were given") == 0);
    /* The count is checked before any argument is read: one element past
     * the parameters is refused as a miscount, never read (it was: its bad
     * tag or NULL string was blamed instead, and a wild string pointer there
     * was read to its NUL and crashed). */
    animrt_value extra[2] = {integer(-7), {42, 0, 0, 0, NULL, NULL}};
    CHECK_STATUS(animrt_function_call(rt, "iabs", extra, 2, &r, NULL, 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("'iabs' (i32(i32)) takes 1 argument; 2 were given");
    extra[1] = text(NULL);
    CHECK_STATUS(animrt_function_call(rt, "iabs", extra, 2, &r, NULL, 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("takes 1 argument; 2 were given");
    CHECK_STATUS(animrt_function_call(rt, "iabz", extra, 2, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_function_call(rt, "iabz", minus, 1, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'iabs'?");
    CHECK_STATUS(animrt_function_call(rt, "iabs", minus, 1, NULL, NULL, 0, NULL), ANIMRT_E_NULL);
    /* Names are registered once. */
    CHECK_STATUS(animrt_function_bind(rt, NULL, "labs", "i64(i64)", "iabs"), ANIMRT_E_EXISTS);
    animrt_runtime_destroy(rt);
}

/* R4.2: a bound function as a curve, a guard and an action, no glue. */
TEST(bound_functions_in_machines) {
    animrt_runtime *rt = rt_new();
    CHECK_OK(animrt_function_bind(rt, lib("libexamples.so"), "example_can_toggle", "bool(f64, f64)", "allowed"));
    CHECK_OK(animrt_function_bind(rt, "libm.so.6", "trunc", "f64(f64)", NULL));
    CHECK_OK(animrt_function_bind(rt, NULL, "srand", "void(u32)", "seed"));
    CHECK_OK(animrt_timing_function_bind(rt, lib("libexamples.so"), "example_bounce", "f64(f64)", "ffiBounce"));
    const char *json =
        "{\"name\": \"counter\", \"context\": {\"n\": {\"type\": \"number\", \"initial\": 0}},"
        " \"events\": {\"add\": {\"payload\": [{\"name\": \"by\", \"type\": \"number\"}]}},"
        " \"parts\": [{\"name\": \"dot\", \"properties\": {\"opacity\": 0}}],"
        " \"animations\": {\"show\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"from\": 0, \"to\": 1, \"duration\": 1,"
        "                             \"timingFunction\": \"ffiBounce\"}},"
        " \"initial\": \"counting\","
        " \"states\": {\"counting\": {\"on\": {\"add\": ["
        "     {\"guard\": \"allowed(context.n, 3)\", \"actions\": [{\"assign\": {\"n\": \"context.n + trunc(event.by)\"}},"
        "        {\"call\": \"seed\", \"args\": [\"context.n\"]}, {\"animate\": \"show\", \"part\": \"dot\"}]},"
        "     {\"target\": \"full\"}]}},"
        "   \"full\": {\"ignore\": [\"add\"]}}}";
    animrt_id def = 0, m = 0, dot = 0;
    CHECK_OK(animrt_definition_load(rt, json, &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    CHECK_OK(animrt_machine_part(rt, m, "dot", &dot));
    animrt_value by[1] = {number(2.75)};
    animrt_value v = {0, 0, 0, 0, NULL, NULL};
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK_OK(animrt_machine_send(rt, m, 0, by, 1, NULL));
    CHECK_OK(animrt_machine_get(rt, m, 0, &v, NULL, 0, NULL));
    CHECK(v.number == 2);
    CHECK_OK(animrt_machine_send(rt, m, 0, by, 1, NULL));
    CHECK_OK(animrt_machine_get(rt, m, 0, &v, NULL, 0, NULL));
    CHECK(v.number == 4);
    CHECK_OK(animrt_machine_send(rt, m, 0, by, 1, NULL)); /* 4 < 3 is false: full */
    int32_t s = -1;
    CHECK_OK(animrt_machine_state(rt, m, &s));
    CHECK(s == 1);
    /* The show animation runs on the bound curve. */
    animrt_keypath opacity = 0;
    CHECK_OK(animrt_keypath_id(rt, "opacity", &opacity));
    CHECK_OK(animrt_runtime_tick(rt, 1)); /* the animations begin here */
    CHECK_OK(animrt_runtime_tick(rt, 1.25));
    double o = 0;
    size_t n = 0;
    CHECK_OK(animrt_layer_get_presentation(rt, dot, opacity, &o, 1, &n));
    /* 0.25 is in bounce(4)'s first fall, which lasts 16/46. */
    CHECK(o == curve(rt, "ffiBounce", 0.25));
    CHECK_NEAR(o, (0.25 * 46 / 16) * (0.25 * 46 / 16), 1e-12);
    animrt_runtime_destroy(rt);
}

/* ---- the host's own C functions ---------------------------------------- */

static int wobble_calls;

static double wobble(double x, const double *params, void *user_data) {
    (void)user_data;
    wobble_calls++;
    return x + params[0] * x * (1 - x);
}

static animrt_status clamp_to(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)count;
    double limit = *(double *)user_data;
    if (args[0].number < 0) return animrt_error_set(ANIMRT_E_RANGE, "clampTo: negative values are not allowed");
    result->number = args[0].number > limit ? limit : args[0].number;
    return ANIMRT_OK;
}

static animrt_status shout(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    static char out[64];
    (void)user_data; (void)count;
    snprintf(out, sizeof out, "%s!", args[0].string);
    result->string = out;
    return ANIMRT_OK;
}

/* A string of `*(size_t *)user_data` bytes of 'x'. */
static animrt_status long_text(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    static char *out = NULL;
    static size_t made = 0;
    size_t n = *(const size_t *)user_data;
    (void)args; (void)count;
    if (made != n) {
        free(out);
        out = malloc(n + 1);
        if (!out) return ANIMRT_E_NOMEM;
        memset(out, 'x', n);
        out[n] = 0;
        made = n;
    }
    result->string = out;
    return ANIMRT_OK;
}

/* A str() function that counts its calls (in *user_data) and returns "ran". */
static animrt_status counted_text(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)args; (void)count;
    ++*(int *)user_data;
    result->type = ANIMRT_TYPE_STRING;
    result->string = "ran";
    return ANIMRT_OK;
}

TEST(string_result_limit) {
    /* A buffer of ANIMRT_STRING_MAX + 1 bytes holds the longest result; one
     * byte longer is the function's failure, not a buffer too small after it ran. */
    animrt_runtime *rt = rt_new();
    size_t length = ANIMRT_STRING_MAX;
    char *buf = malloc(ANIMRT_STRING_MAX + 1);
    animrt_value r = {0, 0, 0, 0, NULL, NULL};
    size_t needed = 0;
    CHECK_OK(animrt_function_register(rt, "longText", "str()", long_text, &length));
    CHECK_OK(animrt_function_call(rt, "longText", NULL, 0, &r, buf, ANIMRT_STRING_MAX + 1, &needed));
    CHECK(r.type == ANIMRT_TYPE_STRING && r.string == buf && strlen(buf) == ANIMRT_STRING_MAX);
    length = ANIMRT_STRING_MAX + 1;
    r.type = ANIMRT_TYPE_STRING;
    r.string = NULL;
    CHECK_STATUS(animrt_function_call(rt, "longText", NULL, 0, &r, buf, ANIMRT_STRING_MAX + 1, &needed), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE("function 'longText' (str()) returned a string of 1048577 bytes; a string result is at most 1048576 (ANIMRT_STRING_MAX)");
    CHECK(r.string == NULL);
    /* With nowhere for a string to go, the function is not run for a result it would lose. */
    int calls = 0;
    CHECK_OK(animrt_function_register(rt, "counted", "str()", counted_text, &calls));
    CHECK_STATUS(animrt_function_call(rt, "counted", NULL, 0, &r, NULL, 0, &needed), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_function_call(rt, "counted", NULL, 0, &r, buf, 0, &needed), ANIMRT_E_BUFFER);
    CHECK(calls == 0 && needed == ANIMRT_STRING_MAX + 1);
    CHECK_OK(animrt_function_call(rt, "counted", NULL, 0, &r, buf, 4, &needed));
    CHECK(calls == 1 && strcmp(buf, "ran") == 0 && needed == 4);
    free(buf);
    animrt_runtime_destroy(rt);
}

static animrt_status truthy_two(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data; (void)args; (void)count;
    result->boolean = 2;  /* C's truth: any nonzero */
    return ANIMRT_OK;
}

/* Says whether its one argument arrived as the bool true (1) or false (0). */
static animrt_status echo_bool(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data;
    if (count != 1 || args[0].type != ANIMRT_TYPE_BOOL || (args[0].boolean != 0 && args[0].boolean != 1))
        return animrt_error_set(ANIMRT_E_INVALID, "echoBool: not one bool of 0 or 1");
    result->boolean = args[0].boolean;
    return ANIMRT_OK;
}

static animrt_status same_pointer(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data; (void)count;
    result->pointer = args[0].pointer;
    return ANIMRT_OK;
}

/* The host's registrations at their edges: a parameter count of SIZE_MAX,
 * a parameter range of one value, a name a host-only function holds, and
 * the values that cross a callback whole (bool, ptr) (R4.2, R0.4). */
TEST(host_registrations_at_their_edges) {
    animrt_runtime *rt = rt_new();
    double point[] = {0.25};
    CHECK_STATUS(animrt_timing_function_register(rt, "wmax", wobble, NULL, SIZE_MAX, point, NULL, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE_IS("timing function 'wmax' declares 18446744073709551615 parameters; at most 8 are allowed");
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "wmax", 0.5, &(double){0}), ANIMRT_E_NOT_FOUND);
    /* A range of one value is ordered: the parameter is pinned to it. */
    CHECK_OK(animrt_timing_function_register(rt, "pinned", wobble, NULL, 1, point, point, point));
    CHECK(curve(rt, "pinned", 0.5) == 0.5625);
    CHECK(curve(rt, "pinned(0.25)", 0.5) == 0.5625);
    CHECK(isnan(curve(rt, "pinned(0.3)", 0.5)));
    /* A name a host-only (ptr) function has is taken, by a bind or a registration. */
    CHECK_OK(animrt_function_bind(rt, NULL, "strlen", "u64(ptr)", "length"));
    CHECK_STATUS(animrt_function_bind(rt, NULL, "abs", "i32(ptr)", "length"), ANIMRT_E_EXISTS);
    CHECK_MESSAGE_IS("a function named 'length' is already registered");
    CHECK_STATUS(animrt_function_register(rt, "length", "bool()", truthy_two, NULL), ANIMRT_E_EXISTS);
    CHECK_MESSAGE_IS("a function named 'length' is already registered");
    animrt_value r = {0, 0, 0, 0, NULL, NULL}, a[1] = {{ANIMRT_TYPE_POINTER, 0, 0, 0, NULL, (void *)"four"}};
    CHECK_OK(animrt_function_call(rt, "length", a, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == 4);
    /* A bool result is C's truth; a bool argument arrives as 0 or 1; a pointer crosses unchanged. */
    CHECK_OK(animrt_function_register(rt, "truthy", "bool()", truthy_two, NULL));
    CHECK_OK(animrt_function_call(rt, "truthy", NULL, 0, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_BOOL && r.boolean == 1);
    CHECK_OK(animrt_function_register(rt, "echoBool", "bool(bool)", echo_bool, NULL));
    animrt_value yes[1] = {{ANIMRT_TYPE_BOOL, 1, 0, 0, NULL, NULL}}, no[1] = {{ANIMRT_TYPE_BOOL, 0, 0, 0, NULL, NULL}};
    CHECK_OK(animrt_function_call(rt, "echoBool", yes, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_BOOL && r.boolean == 1);
    CHECK_OK(animrt_function_call(rt, "echoBool", no, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_BOOL && r.boolean == 0);
    CHECK_OK(animrt_function_register(rt, "samePointer", "ptr(ptr)", same_pointer, NULL));
    CHECK_OK(animrt_function_call(rt, "samePointer", a, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_POINTER && r.pointer == a[0].pointer);
    animrt_runtime_destroy(rt);
}

TEST(host_functions) {
    animrt_runtime *rt = rt_new();
    double defaults[] = {0.5}, lo[] = {-1}, hi[] = {1};
    CHECK_OK(animrt_timing_function_register(rt, "wobble", wobble, NULL, 1, defaults, lo, hi));
    CHECK_NEAR(curve(rt, "wobble", 0.5), 0.625, 1e-15);
    CHECK_NEAR(curve(rt, "wobble(-1)", 0.5), 0.25, 1e-15);
    CHECK(isnan(curve(rt, "wobble(2)", 0.5)));
    CHECK(wobble_calls == 2);
    CHECK_STATUS(animrt_timing_function_register(rt, "wobble", wobble, NULL, 0, NULL, NULL, NULL), ANIMRT_E_EXISTS);
    CHECK_STATUS(animrt_timing_function_register(rt, "steps", wobble, NULL, 0, NULL, NULL, NULL), ANIMRT_E_EXISTS);
    CHECK_STATUS(animrt_timing_function_register(rt, "ease in", wobble, NULL, 0, NULL, NULL, NULL), ANIMRT_E_INVALID);
    /* ANIMRT_CURVE_PARAMS_MAX parameters: registered; one more is refused. */
    double eight[ANIMRT_CURVE_PARAMS_MAX + 1] = {0.5};
    CHECK_OK(animrt_timing_function_register(rt, "w8", wobble, NULL, ANIMRT_CURVE_PARAMS_MAX, eight, NULL, NULL));
    CHECK_NEAR(curve(rt, "w8(0.5, 0, 0, 0, 0, 0, 0, 0)", 0.5), 0.625, 1e-15);
    CHECK_STATUS(animrt_timing_function_register(rt, "w9", wobble, NULL, ANIMRT_CURVE_PARAMS_MAX + 1, eight, NULL, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("timing function 'w9' declares 9 parameters; at most 8 are allowed");
    /* Parameters without defaults: the count in the message agrees with its noun. */
    CHECK_STATUS(animrt_timing_function_register(rt, "w1", wobble, NULL, 1, NULL, NULL, NULL), ANIMRT_E_NULL);
    CHECK(strcmp(animrt_last_error_message(), "the defaults of timing function 'w1' are NULL but it has 1 parameter") == 0);
    CHECK_STATUS(animrt_timing_function_register(rt, "w2", wobble, NULL, 2, NULL, NULL, NULL), ANIMRT_E_NULL);
    CHECK(strcmp(animrt_last_error_message(), "the defaults of timing function 'w2' are NULL but it has 2 parameters") == 0);
    /* A family without parameters given one: "1 was given". */
    CHECK_OK(animrt_timing_function_register(rt, "w0", wobble, NULL, 0, NULL, NULL, NULL));
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "w0(1)", 0.5, &(double){0}), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "timing function 'w0' takes no parameters; 1 was given") == 0);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "w9", 0.5, &(double){0}), ANIMRT_E_NOT_FOUND);  /* nothing was registered */
    /* ANIMRT_FUNCTION_PARAMS_MAX parameters in a signature: registered; one more is refused. */
    char signature[8 + 5 * (ANIMRT_FUNCTION_PARAMS_MAX + 1)] = "f64(f64";
    for (int i = 1; i < ANIMRT_FUNCTION_PARAMS_MAX; i++) strcat(signature, ",f64");
    double limit16 = 1;
    CHECK_OK(animrt_function_register(rt, "sixteen", strcat(signature, ")"), clamp_to, &limit16));
    signature[strlen(signature) - 1] = 0;
    CHECK_STATUS(animrt_function_register(rt, "seventeen", strcat(signature, ",f64)"), clamp_to, &limit16), ANIMRT_E_INVALID);
    CHECK_MESSAGE("more than 16 parameters");
    CHECK_STATUS(animrt_timing_function_register(rt, "w2", wobble, NULL, 9, defaults, NULL, NULL), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_timing_function_register(rt, "w2", NULL, NULL, 0, NULL, NULL, NULL), ANIMRT_E_NULL);
    double nan_default[] = {NAN};
    CHECK_STATUS(animrt_timing_function_register(rt, "w3", wobble, NULL, 1, nan_default, NULL, NULL), ANIMRT_E_INVALID);
    double outside[] = {3};
    CHECK_STATUS(animrt_timing_function_register(rt, "w4", wobble, NULL, 1, outside, lo, hi), ANIMRT_E_RANGE);

    double limit = 10;
    CHECK_OK(animrt_function_register(rt, "clampTo", "f64(f64)", clamp_to, &limit));
    CHECK_OK(animrt_function_register(rt, "shout", "str(str)", shout, NULL));
    animrt_value r = {0, 0, 0, 0, NULL, NULL}, arg[1] = {number(12)};
    CHECK_OK(animrt_function_call(rt, "clampTo", arg, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_NUMBER && r.number == 10);
    arg[0] = number(-1);
    CHECK_STATUS(animrt_function_call(rt, "clampTo", arg, 1, &r, NULL, 0, NULL), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE("function 'clampTo' (f64(f64)) failed (ANIMRT_E_RANGE): clampTo: negative values are not allowed");
    char buf[32];
    size_t needed = 0;
    arg[0] = text("hey");
    CHECK_OK(animrt_function_call(rt, "shout", arg, 1, &r, buf, sizeof buf, &needed));
    CHECK(strcmp(r.string, "hey!") == 0);

    /* A failing guard raises error.execution with the function's message. */
    const char *json =
        "{\"name\": \"guarded\", \"events\": {\"go\": {\"payload\": [{\"name\": \"x\", \"type\": \"number\"}]}},"
        " \"initial\": \"a\", \"states\": {\"a\": {\"on\": {\"go\": {\"guard\": \"clampTo(event.x) > 5\", \"target\": \"b\"}}}, \"b\": {}}}";
    animrt_id def = 0, m = 0;
    CHECK_OK(animrt_definition_load(rt, json, &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    animrt_event ev[8];
    size_t n = 0;
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    animrt_value x[1] = {number(-3)};
    /* The guard counts as false: the event is not taken. */
    CHECK_STATUS(animrt_machine_send(rt, m, 0, x, 1, NULL), ANIMRT_E_STATE);
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].type == ANIMRT_EVENT_MACHINE_ERROR && ev[i].payload_count == 1 &&
            strstr(ev[i].payload[0].string, "clampTo: negative values are not allowed")) found = 1;
    }
    CHECK(found);
    int32_t s = -1;
    CHECK_OK(animrt_machine_state(rt, m, &s));
    CHECK(s == 0);
    x[0] = number(7);
    CHECK_OK(animrt_machine_send(rt, m, 0, x, 1, NULL));
    CHECK_OK(animrt_machine_state(rt, m, &s));
    CHECK(s == 1);
    animrt_runtime_destroy(rt);
}

/* A function or curve that calls back into its runtime is refused, not
 * deadlocked; the runtime carries on. */
static animrt_status reentry_status = -1, reentry_curve_status = -1;

static animrt_status reenter(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    animrt_id layer = 0;
    (void)args; (void)count;
    reentry_status = animrt_layer_create((animrt_runtime *)user_data, 0, &layer);
    result->boolean = 1;
    return ANIMRT_OK;
}

static double reentrant_curve(double x, const double *params, void *user_data) {
    (void)params;
    reentry_curve_status = animrt_runtime_tick((animrt_runtime *)user_data, 100);
    return x;
}

TEST(calls_back_into_the_runtime_are_refused) {
    animrt_runtime *rt = rt_new();
    CHECK_OK(animrt_function_register(rt, "reenter", "bool()", reenter, rt));
    animrt_value r;
    CHECK_OK(animrt_function_call(rt, "reenter", NULL, 0, &r, NULL, 0, NULL));
    CHECK(reentry_status == ANIMRT_E_STATE);
    CHECK_MESSAGE("called from inside a function it is running");
    CHECK_OK(animrt_timing_function_register(rt, "selfish", reentrant_curve, rt, 0, NULL, NULL, NULL));
    animrt_id layer = 0, anim = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK_OK(animrt_animation_set_timing_function(rt, anim, "selfish"));
    double zero = 0;
    CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_FROM, &zero, 1));
    CHECK_OK(animrt_layer_add_animation(rt, layer, anim, NULL, 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK_OK(animrt_runtime_tick(rt, 1.1));
    CHECK(reentry_curve_status == ANIMRT_E_STATE);
    double now = 0;
    CHECK_OK(animrt_runtime_time(rt, &now));
    CHECK(now == 1.1);
    animrt_runtime_destroy(rt);
}

/* A curve also runs outside a tick, under the runtime's lock: evaluated by
 * name, sampled for a velocity or a computed progress, or for a spring's
 * retarget. Its calls back are refused there too (each used to wait forever
 * for the lock its own thread held). */
static int outside_calls, outside_not_refused;

static double reentrant_outside_curve(double x, const double *params, void *user_data) {
    (void)params;
    double now = 0;
    outside_calls++;
    if (animrt_runtime_time((animrt_runtime *)user_data, &now) != ANIMRT_E_STATE) outside_not_refused++;
    return x;
}

TEST(calls_back_outside_a_tick_are_refused) {
    animrt_runtime *rt = rt_new();
    CHECK_OK(animrt_timing_function_register(rt, "selfishOutside", reentrant_outside_curve, rt, 0, NULL, NULL, NULL));
    double y = -1;
    CHECK_OK(animrt_timing_function_evaluate(rt, "selfishOutside", 0.25, &y));
    CHECK(y == 0.25 && outside_calls == 1 && outside_not_refused == 0);
    CHECK_MESSAGE("called from inside a function it is running");
    animrt_id layer = 0, basic = 0, spring = 0, fading = 0, springing = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    double zero = 0, one = 1, ten = 10;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &basic));
    CHECK_OK(animrt_animation_set_timing_function(rt, basic, "selfishOutside"));
    CHECK_OK(animrt_animation_set_value(rt, basic, ANIMRT_FROM, &zero, 1));
    CHECK_OK(animrt_animation_set_value(rt, basic, ANIMRT_TO, &one, 1));
    CHECK_OK(animrt_animation_set_timing(rt, basic, ANIMRT_TIMING_DURATION, 4));
    CHECK_OK(animrt_layer_add_animation(rt, layer, basic, "fade", 0, &fading));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "position.x", &spring));
    CHECK_OK(animrt_animation_set_timing_function(rt, spring, "selfishOutside"));
    CHECK_OK(animrt_animation_set_value(rt, spring, ANIMRT_FROM, &zero, 1));
    CHECK_OK(animrt_animation_set_value(rt, spring, ANIMRT_TO, &ten, 1));
    CHECK_OK(animrt_animation_set_timing(rt, spring, ANIMRT_TIMING_DURATION, 4));
    CHECK_OK(animrt_layer_add_animation(rt, layer, spring, "slide", 0, &springing));
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK_OK(animrt_runtime_tick(rt, 2));
    int before = outside_calls;
    double v[4];
    size_t n = 0;
    CHECK_OK(animrt_animation_get_velocity(rt, fading, NULL, v, 4, &n));
    CHECK(n == 1 && v[0] > 0);
    animrt_computed_timing c;
    CHECK_OK(animrt_animation_get_computed_timing(rt, fading, &c));
    CHECK(c.progress == 0.25);  /* the curve is the identity: one second of four */
    double target = 20;
    CHECK_OK(animrt_animation_retarget(rt, springing, &target, 1));
    CHECK(outside_calls > before + 2 && outside_not_refused == 0);
    double now = 0;
    CHECK_OK(animrt_runtime_time(rt, &now));  /* the runtime carries on */
    CHECK(now == 2);
    CHECK_OK(animrt_runtime_tick(rt, 3));
    animrt_runtime_destroy(rt);
}

/* The same from the batch's worker threads: a curve evaluated on a worker
 * while the tick holds the runtime is refused too (it used to wait forever
 * for the lock its own tick held). Written from several threads at once,
 * atomically (make tsan runs this test under ThreadSanitizer). */
static int worker_calls, worker_not_refused;

static double reentrant_worker_curve(double x, const double *params, void *user_data) {
    (void)params;
    double now = 0;
    if (animrt_runtime_time((animrt_runtime *)user_data, &now) != ANIMRT_E_STATE)
        __atomic_store_n(&worker_not_refused, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&worker_calls, 1, __ATOMIC_RELAXED);
    return x;
}

TEST(calls_back_from_batch_workers_are_refused) {
    animrt_runtime *rt = rt_new();
    enum { N = 80000 };  /* above two workers' minimum share (32 768 entries each) */
    CHECK_OK(animrt_runtime_set_threads(rt, 2));
    CHECK_OK(animrt_timing_function_register(rt, "selfishWorker", reentrant_worker_curve, rt, 0, NULL, NULL, NULL));
    static animrt_id layers[N];
    CHECK_OK(animrt_layer_create_many(rt, 0, N, layers));
    animrt_id anim = 0;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK_OK(animrt_animation_set_timing_function(rt, anim, "selfishWorker"));
    double zero = 0, one = 1;
    CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_FROM, &zero, 1));
    CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_TO, &one, 1));
    CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_DURATION, 10));
    CHECK_OK(animrt_layer_add_animations(rt, anim, layers, N, NULL, 0, NULL, 0, NULL));
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK_OK(animrt_runtime_tick(rt, 6));
    CHECK(__atomic_load_n(&worker_calls, __ATOMIC_RELAXED) == 1);
    CHECK(__atomic_load_n(&worker_not_refused, __ATOMIC_RELAXED) == 0);
    /* The curve's result still shows, on every layer: halfway through. */
    CHECK(presentation(rt, layers[0], "opacity") == 0.5);
    CHECK(presentation(rt, layers[N - 1], "opacity") == 0.5);
    animrt_runtime_destroy(rt);
}

/* ---- block curves ------------------------------------------------------ */

/* What a block curve was handed: calls, values, the largest count. */
typedef struct { int calls, values, largest; } block_calls;

/* y = x + k x (1 - x) over arrays, k the parameter (wobble's curve). */
static void wobble_block(const double *x, double *y, size_t count, const double *params, void *user_data) {
    block_calls *c = user_data;
    c->calls++;
    c->values += (int)count;
    if ((int)count > c->largest) c->largest = (int)count;
    for (size_t i = 0; i < count; i++) y[i] = x[i] + params[0] * x[i] * (1 - x[i]);
}

/* Whether timing function `name` is unknown to `rt`. */
static bool unknown_curve(animrt_runtime *rt, const char *name) {
    double y = 0;
    return animrt_timing_function_evaluate(rt, name, 0.5, &y) == ANIMRT_E_NOT_FOUND;
}

/* An f32 is a C float on both paths: a C function bound through libffi
 * and a function the host registered give the same bits for the same value,
 * and a registered one receives an f32 argument as a float's value. */
static animrt_status echo(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data; (void)count;
    result->number = args[0].number;
    return ANIMRT_OK;
}

/* An integer argument's value when it came as one: ANIMRT_TYPE_INTEGER, its
 * double beside it; NaN otherwise. */
static animrt_status integer_in(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data; (void)count;
    int whole = args[0].type == ANIMRT_TYPE_INTEGER && args[0].number == (double)args[0].integer;
    result->number = whole ? (double)args[0].integer : NAN;
    return ANIMRT_OK;
}

static double call_number(animrt_runtime *rt, const char *name, double x) {
    animrt_value r = {0, 0, NAN, 0, NULL, NULL}, args[2] = {number(x), number(x)};
    if (animrt_function_call(rt, name, args, 2, &r, NULL, 0, NULL) != ANIMRT_OK) return NAN;
    return r.number;
}

TEST(f32_is_a_float_bound_or_registered) {
    animrt_runtime *rt = rt_new();
    CHECK_OK(animrt_function_bind(rt, "libm.so.6", "copysignf", "f32(f32, f32)", "boundFloat"));
    CHECK_OK(animrt_function_register(rt, "hostFloat", "f32(f32, f32)", echo, NULL));
    CHECK_OK(animrt_function_register(rt, "floatIn", "f64(f32, f32)", echo, NULL));
    CHECK_OK(animrt_function_register(rt, "doubleIn", "f64(f64, f64)", echo, NULL));
    const double values[] = {0.1, 1.0 / 3, -1e-40, 16777217, 3.4028234663852886e38};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        double x = values[i], as_float = (double)(float)x;
        double bound = call_number(rt, "boundFloat", x), host = call_number(rt, "hostFloat", x);
        CHECK(memcmp(&bound, &as_float, sizeof bound) == 0);
        CHECK(memcmp(&host, &bound, sizeof host) == 0);
        double in = call_number(rt, "floatIn", x);
        CHECK(memcmp(&in, &as_float, sizeof in) == 0);
    }
    /* f64 stays whole. */
    double whole = call_number(rt, "doubleIn", 0.1);
    CHECK(whole == 0.1);
    /* A finite number no float holds is refused, not made infinite; infinity passes. */
    animrt_value r = {0, 0, 0, 0, NULL, NULL}, args[2] = {number(1e39), number(1)};
    CHECK_STATUS(animrt_function_call(rt, "boundFloat", args, 2, &r, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("argument 1 of 'boundFloat' (f32(f32, f32)) is 1e+39; f32 (float) holds -3.4028235e+38 to 3.4028235e+38");
    CHECK_STATUS(animrt_function_call(rt, "hostFloat", args, 2, &r, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK(isinf(call_number(rt, "boundFloat", INFINITY)) && isinf(call_number(rt, "hostFloat", INFINITY)));
    /* An integer argument arrives with its double beside it, as every
     * ANIMRT_TYPE_INTEGER animrt hands out does; so does an integer result. */
    CHECK_OK(animrt_function_register(rt, "signedIn", "f64(i64)", integer_in, NULL));
    CHECK_OK(animrt_function_register(rt, "unsignedIn", "f64(u64)", integer_in, NULL));
    args[0] = integer(-12);
    CHECK_OK(animrt_function_call(rt, "signedIn", args, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_NUMBER && r.number == -12);
    args[0] = integer(12);
    CHECK_OK(animrt_function_call(rt, "unsignedIn", args, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_NUMBER && r.number == 12);
    CHECK_OK(animrt_function_bind(rt, NULL, "labs", "i64(i64)", "longAbs"));
    args[0] = integer(-5);
    CHECK_OK(animrt_function_call(rt, "longAbs", args, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == 5 && r.number == 5);
    /* An i64 and a u64 pass through libffi whole, all 64 bits both ways: as
     * 32 bits, -5000000000 would reach labs as -705032704 (its low word), and
     * strtoull's 2^33 + 1 would come back as 1. */
    args[0] = integer(-INT64_C(5000000000));
    CHECK_OK(animrt_function_call(rt, "longAbs", args, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == INT64_C(5000000000));
    CHECK_OK(animrt_function_bind(rt, NULL, "strtoull", "u64(str, ptr, i32)", "parseUnsigned"));
    animrt_value parse[3] = {text("8589934593"), {ANIMRT_TYPE_POINTER, 0, 0, 0, NULL, NULL}, integer(10)};
    CHECK_OK(animrt_function_call(rt, "parseUnsigned", parse, 3, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == INT64_C(8589934593));
    animrt_runtime_destroy(rt);
}

/* A plugin's library leaves the process when the plugin is unloaded: the
 * load closes what it opened to tell which library holds the entry point
 * (RTLD_NOLOAD), and the unload closes the library itself (R4.3). */
TEST(an_unloaded_library_is_closed) {
    const char *path = lib("libfaulty_empty.so");
    void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    CHECK(h == NULL);  /* no runtime holds it now */
    if (h) dlclose(h);
    animrt_runtime *rt = rt_new();
    animrt_id p = 0;
    CHECK_OK(animrt_plugin_load(rt, path, &p));
    h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    CHECK(h != NULL);
    if (h) dlclose(h);
    CHECK_OK(animrt_plugin_unload(rt, p));
    h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    CHECK(h == NULL);
    if (h) dlclose(h);
    animrt_runtime_destroy(rt);
}

/* A call back into a runtime is refused however deep it comes: runtime a's
 * function calls runtime b's, which calls back into a. a is busy on this
 * thread though b's call is the innermost (R0.3). */
static animrt_status status_of_reentry_from_b = ANIMRT_OK;

static animrt_status inner_calls_a(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)args; (void)count;
    double now = 0;
    status_of_reentry_from_b = animrt_runtime_time((animrt_runtime *)user_data, &now);
    result->boolean = 1;
    return ANIMRT_OK;
}

static animrt_status outer_calls_b(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)args; (void)count;
    animrt_value r;
    animrt_status s = animrt_function_call((animrt_runtime *)user_data, "inner", NULL, 0, &r, NULL, 0, NULL);
    result->boolean = s == ANIMRT_OK && r.boolean;
    return ANIMRT_OK;
}

TEST(calls_back_through_another_runtime_are_refused) {
    animrt_runtime *a = rt_new(), *b = rt_new();
    CHECK_OK(animrt_function_register(a, "outer", "bool()", outer_calls_b, b));
    CHECK_OK(animrt_function_register(b, "inner", "bool()", inner_calls_a, a));
    animrt_value r;
    CHECK_OK(animrt_function_call(a, "outer", NULL, 0, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_BOOL && r.boolean == 1);
    CHECK(status_of_reentry_from_b == ANIMRT_E_STATE);
    double now = -1;
    CHECK_OK(animrt_runtime_time(a, &now));  /* a is free again */
    CHECK(now == 0);
    animrt_runtime_destroy(b);
    animrt_runtime_destroy(a);
}

/* A thread that never failed reads "" as its last error message, never
 * another thread's message (R0.3). */
static void *read_fresh_message(void *out) {
    const char *m = animrt_last_error_message();
    *(int *)out = m != NULL && m[0] == '\0';
    return NULL;
}

TEST(a_fresh_thread_has_no_last_error) {
    CHECK(animrt_error_set(ANIMRT_E_RANGE, "this thread's failure") == ANIMRT_E_RANGE);
    int empty = 0;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, read_fresh_message, &empty) == 0);
    pthread_join(t, NULL);
    CHECK(empty == 1);
    CHECK_MESSAGE("this thread's failure");
}

/* R4.1: a block curve registered by the host runs wherever a curve name
 * does; the batch hands it whole runs of animations, everything else one
 * value; its registration is checked like animrt_timing_function_register's. */
TEST(block_curves_from_the_host) {
    animrt_runtime *rt = rt_new();
    block_calls calls = {0, 0, 0};
    double defaults[] = {0.5}, lo[] = {-1}, hi[] = {1};
    CHECK_OK(animrt_timing_function_register_block(rt, "wobbleBlock", wobble_block, &calls, 1, defaults, lo, hi));
    CHECK_NEAR(curve(rt, "wobbleBlock", 0.5), 0.625, 1e-15);
    CHECK_NEAR(curve(rt, "wobbleBlock(-1)", 0.5), 0.25, 1e-15);
    CHECK(isnan(curve(rt, "wobbleBlock(2)", 0.5))); /* outside [-1, 1] */
    CHECK(calls.calls == 2 && calls.values == 2 && calls.largest == 1);

    enum { N = 600 };
    animrt_id layers[N], anim = 0;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
    CHECK_OK(animrt_animation_set_timing_function(rt, anim, "wobbleBlock(0.25)"));
    CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_BEGIN_TIME, 1));
    CHECK_OK(animrt_animation_set_fill_mode(rt, anim, ANIMRT_FILL_FORWARDS));
    CHECK_OK(animrt_animation_set_flag(rt, anim, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
    for (int i = 0; i < N; i++) {
        double from = i, to = i + 10, duration = 1 + i % 4;
        CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_FROM, &from, 1));
        CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_TO, &to, 1));
        CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_DURATION, duration));
        CHECK_OK(animrt_layer_create(rt, 0, &layers[i]));
        CHECK_OK(animrt_layer_add_animation(rt, layers[i], anim, "fade", 0, NULL));
    }
    CHECK_OK(animrt_animation_destroy(rt, anim));
    int off_curve = 0;
    for (double t = 1.5; t <= 5; t += 0.5) {
        calls = (block_calls){0, 0, 0};
        CHECK_OK(animrt_runtime_tick(rt, t));
        /* All 600 running animations in chunks of 256: three calls, not 600. */
        if (t == 1.5) CHECK(calls.calls == 3 && calls.values == N && calls.largest == 256);
        for (int i = 0; i < N; i++) {
            double x = (t - 1) / (1 + i % 4);
            x = x > 1 ? 1 : x;
            if (presentation(rt, layers[i], "opacity") != i + 10 * (x + 0.25 * x * (1 - x))) off_curve++;
        }
    }
    CHECK(off_curve == 0);

    /* Every row of animrt_timing_function_register, with nothing left behind. */
    CHECK_STATUS(animrt_timing_function_register_block(rt, "wobbleBlock", wobble_block, &calls, 0, NULL, NULL, NULL),
                 ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a timing function named 'wobbleBlock' is already registered");
    CHECK_STATUS(animrt_timing_function_register(rt, "wobbleBlock", wobble, NULL, 0, NULL, NULL, NULL), ANIMRT_E_EXISTS);
    CHECK_STATUS(animrt_timing_function_register_block(rt, "easeOut", wobble_block, &calls, 0, NULL, NULL, NULL),
                 ANIMRT_E_EXISTS);
    CHECK_STATUS(animrt_timing_function_register_block(rt, "ease out", wobble_block, &calls, 0, NULL, NULL, NULL),
                 ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_timing_function_register_block(rt, "b1(2)", wobble_block, &calls, 0, NULL, NULL, NULL),
                 ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_timing_function_register_block(rt, "b2", NULL, &calls, 0, NULL, NULL, NULL), ANIMRT_E_NULL);
    CHECK_MESSAGE("the timing function 'b2' is NULL");
    CHECK_STATUS(animrt_timing_function_register_block(rt, NULL, wobble_block, &calls, 0, NULL, NULL, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_timing_function_register_block(NULL, "b3", wobble_block, &calls, 0, NULL, NULL, NULL), ANIMRT_E_NULL);
    double nine[9] = {0};
    CHECK_STATUS(animrt_timing_function_register_block(rt, "b4", wobble_block, &calls, 9, nine, NULL, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("at most 8 are allowed");
    CHECK_STATUS(animrt_timing_function_register_block(rt, "b5", wobble_block, &calls, 1, NULL, NULL, NULL), ANIMRT_E_NULL);
    double nan_default[] = {NAN}, outside[] = {3}, backwards_lo[] = {1}, backwards_hi[] = {-1};
    CHECK_STATUS(animrt_timing_function_register_block(rt, "b6", wobble_block, &calls, 1, nan_default, NULL, NULL),
                 ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_timing_function_register_block(rt, "b7", wobble_block, &calls, 1, outside, lo, hi), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_timing_function_register_block(rt, "b8", wobble_block, &calls, 1, defaults, backwards_lo,
                                                       backwards_hi), ANIMRT_E_INVALID);
    CHECK_MESSAGE("it must be ordered");
    CHECK(unknown_curve(rt, "b2") && unknown_curve(rt, "b4") && unknown_curve(rt, "b5") && unknown_curve(rt, "b6")
          && unknown_curve(rt, "b7") && unknown_curve(rt, "b8"));
    CHECK(curve(rt, "easeOut", 1) == 1);
    CHECK_NEAR(curve(rt, "wobbleBlock", 0.5), 0.625, 1e-15); /* still the first one */
    animrt_runtime_destroy(rt);
}

/* The example plugin registers bounce and elastic as block curves; they
 * show what the same functions registered one value per call show, to the
 * bit, in the batch and outside it. */
TEST(example_plugin_registers_block_curves) {
    animrt_runtime *rt = rt_new();
    animrt_id plugin = 0, anim = 0;
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &plugin));
    CHECK_OK(animrt_function_bind(rt, lib("libexamples.so"), "example_block_curves", "i32()", "blockCurves"));
    animrt_value r = {0, 0, 0, 0, NULL, NULL};
    CHECK_OK(animrt_function_call(rt, "blockCurves", NULL, 0, &r, NULL, 0, NULL));
    CHECK(r.integer == 1); /* this library's table has add_timing_function_block */
    void *handle = dlopen(lib("libexamples.so"), RTLD_NOW | RTLD_LOCAL);
    void *each = handle ? dlsym(handle, "example_bounce_curve") : NULL, *block = handle ? dlsym(handle, "example_bounce_block") : NULL;
    CHECK(each != NULL && block != NULL);
    if (!each || !block) { animrt_runtime_destroy(rt); return; }
    animrt_curve_fn each_fn;
    animrt_curve_block_fn block_fn;
    memcpy(&each_fn, &each, sizeof each_fn);
    memcpy(&block_fn, &block, sizeof block_fn);
    double four[] = {4};
    CHECK_OK(animrt_timing_function_register(rt, "bounceEach", each_fn, NULL, 1, four, NULL, NULL));
    CHECK_OK(animrt_timing_function_register_block(rt, "bounceBlock", block_fn, NULL, 1, four, NULL, NULL));
    const char *curves[] = {"bounce(3)", "bounceEach(3)", "bounceBlock(3)"};
    enum { N = 301, C = 3 };
    static animrt_id layers[C][N];
    for (int c = 0; c < C; c++) {
        CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &anim));
        CHECK_OK(animrt_animation_set_timing_function(rt, anim, curves[c]));
        CHECK_OK(animrt_animation_set_fill_mode(rt, anim, ANIMRT_FILL_BOTH));
        CHECK_OK(animrt_animation_set_flag(rt, anim, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
        for (int i = 0; i < N; i++) {
            double from = i % 7, to = 10 + i % 13, duration = 1 + (i % 101) / 50.0;
            CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_FROM, &from, 1));
            CHECK_OK(animrt_animation_set_value(rt, anim, ANIMRT_TO, &to, 1));
            CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_DURATION, duration));
            CHECK_OK(animrt_layer_create(rt, 0, &layers[c][i]));
            CHECK_OK(animrt_layer_add_animation(rt, layers[c][i], anim, NULL, 0, NULL));
        }
        CHECK_OK(animrt_animation_destroy(rt, anim));
    }
    int differ = 0, off_curve = 0;
    for (double t = 0; t <= 3.5; t += 0.0625) {
        CHECK_OK(animrt_runtime_tick(rt, t));
        for (int i = 0; i < N; i++) {
            double a = presentation(rt, layers[0][i], "opacity"), b = presentation(rt, layers[1][i], "opacity");
            double c = presentation(rt, layers[2][i], "opacity");
            if (memcmp(&a, &b, sizeof a) != 0 || memcmp(&a, &c, sizeof a) != 0) differ++;
            double x = t / (1 + (i % 101) / 50.0), from = i % 7, to = 10 + i % 13;
            if (a != from + (to - from) * curve(rt, "bounce(3)", x > 1 ? 1 : x)) off_curve++;
        }
    }
    CHECK(differ == 0 && off_curve == 0);
    CHECK_NEAR(curve(rt, "bounce(4)", 16.0 / 46), 1.0, 1e-12);
    CHECK(curve(rt, "bounceBlock(2)", 0.3) == curve(rt, "bounce(2)", 0.3));
    CHECK(curve(rt, "elastic(0.3)", 0.1) > 1);
    animrt_runtime_destroy(rt);
    dlclose(handle);
}

/* A host API table as a library gives it, recording which registrations a plugin makes. */
static int element_adds, block_adds;

static uint32_t fake_version(void) { return 100; }
static animrt_status fake_add_curve(animrt_registrar *reg, const char *name, animrt_curve_fn fn, void *user_data,
                                    size_t count, const double *defaults, const double *minimum, const double *maximum) {
    (void)reg; (void)user_data; (void)count; (void)defaults; (void)minimum; (void)maximum;
    element_adds++;
    return name && fn && fn(1, defaults, user_data) == 1 ? ANIMRT_OK : ANIMRT_E_INVALID;
}
static animrt_status fake_add_block(animrt_registrar *reg, const char *name, animrt_curve_block_fn fn, void *user_data,
                                    size_t count, const double *defaults, const double *minimum, const double *maximum) {
    (void)reg; (void)count; (void)minimum; (void)maximum;
    double x[2] = {0, 1}, y[2] = {-1, -1};
    block_adds++;
    if (fn) fn(x, y, 2, defaults, user_data);
    return name && fn && y[0] == 0 && y[1] == 1 ? ANIMRT_OK : ANIMRT_E_INVALID;
}
static animrt_status fake_add_function(animrt_registrar *reg, const char *name, const char *signature,
                                       animrt_function_fn fn, void *user_data) {
    (void)reg; (void)name; (void)signature; (void)fn; (void)user_data;
    return ANIMRT_OK;
}
static animrt_status fake_add_definition(animrt_registrar *reg, const char *name, const char *json) {
    (void)reg; (void)name; (void)json;
    return ANIMRT_OK;
}
static animrt_status fake_error_set(animrt_status status, const char *message) { (void)message; return status; }

/* A plugin built against this header still loads into a library whose
 * table ends before add_timing_function_block (ANIMRT_HOST_API_HAS): the
 * example plugin then registers its curves one value per call. */
TEST(plugin_built_against_this_header_in_an_older_library) {
    void *handle = dlopen(lib("libexamples.so"), RTLD_NOW | RTLD_LOCAL);
    const animrt_plugin *entry = handle ? dlsym(handle, ANIMRT_PLUGIN_ENTRY_NAME) : NULL;
    void *sym = handle ? dlsym(handle, "example_block_curves") : NULL;
    CHECK(entry != NULL && sym != NULL);
    if (!entry || !sym) return;
    int32_t (*block_curves)(void);
    memcpy(&block_curves, &sym, sizeof block_curves);
    animrt_host_api api = {sizeof api, ANIMRT_PLUGIN_ABI_VERSION, fake_version, fake_add_curve, fake_add_function,
                           fake_add_definition, fake_error_set, fake_add_block};
    int registrar = 0;
    void *state = NULL;
    /* The older library: a table as long as before the field was added. */
    api.size = offsetof(animrt_host_api, add_timing_function_block);
    CHECK(!ANIMRT_HOST_API_HAS(&api, add_timing_function_block) && ANIMRT_HOST_API_HAS(&api, error_set));
    CHECK_OK(entry->init(&api, (animrt_registrar *)&registrar, &state));
    CHECK(element_adds == 2 && block_adds == 0 && block_curves() == 0);
    if (entry->fini) entry->fini(state);
    /* This library's. */
    api.size = sizeof api;
    CHECK(ANIMRT_HOST_API_HAS(&api, add_timing_function_block));
    CHECK_OK(entry->init(&api, (animrt_registrar *)&registrar, &state));
    CHECK(element_adds == 2 && block_adds == 2 && block_curves() == 1);
    if (entry->fini) entry->fini(state);
    dlclose(handle);
}

/* ---- a curve is asked for 0 <= x <= 1 only ------------------------------ */

static double seen_lo, seen_hi;

static void see(double x) {
    if (!(x >= seen_lo)) seen_lo = x;  /* NaN counts as out of range */
    if (!(x <= seen_hi)) seen_hi = x;
}

static double seen_curve(double x, const double *params, void *user_data) {
    (void)params; (void)user_data;
    see(x);
    return x;
}

static void seen_block(const double *x, double *y, size_t count, const double *params, void *user_data) {
    (void)params; (void)user_data;
    for (size_t i = 0; i < count; i++) { see(x[i]); y[i] = x[i]; }
}

/* The header promises a curve x in [0, 1] (a plugin may index a table with
 * it). animrt_timing_function_evaluate past the ends, and a keyframe
 * segment's curve under an animation curve that overshoots, clamp x rather
 * than pass -1, 2 or infinity on (they did). */
TEST(curves_are_asked_for_x_in_0_to_1) {
    animrt_runtime *rt = rt_new();
    CHECK_OK(animrt_timing_function_register(rt, "seen", seen_curve, NULL, 0, NULL, NULL, NULL));
    CHECK_OK(animrt_timing_function_register_block(rt, "seenBlock", seen_block, NULL, 0, NULL, NULL, NULL));
    const char *curves[] = {"seen", "seenBlock"};
    for (int c = 0; c < 2; c++) {
        seen_lo = 0.5, seen_hi = 0.5;
        CHECK(curve(rt, curves[c], -1) == 0);
        CHECK(curve(rt, curves[c], 2) == 1);
        CHECK(curve(rt, curves[c], INFINITY) == 1);
        CHECK(curve(rt, curves[c], -INFINITY) == 0);
        CHECK(curve(rt, curves[c], 0.25) == 0.25);
        CHECK(seen_lo == 0 && seen_hi == 1);
        /* cubic-bezier(0.5, -1, 0.5, 2) eases progress to about -0.2 … 1.2. */
        animrt_id layer = 0, anim = 0;
        double values[] = {0, 1, 2};
        const char *segments[] = {curves[c], curves[c]};
        CHECK_OK(animrt_layer_create(rt, 0, &layer));
        CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_KEYFRAME, "opacity", &anim));
        CHECK_OK(animrt_keyframe_set_values(rt, anim, values, 3, 1));
        CHECK_OK(animrt_keyframe_set_timing_functions(rt, anim, segments, 2));
        CHECK_OK(animrt_animation_set_timing_function(rt, anim, "cubic-bezier(0.5, -1, 0.5, 2)"));
        CHECK_OK(animrt_animation_set_timing(rt, anim, ANIMRT_TIMING_DURATION, 1));
        CHECK_OK(animrt_layer_add_animation(rt, layer, anim, "k", 0, NULL));
        CHECK_OK(animrt_animation_destroy(rt, anim));
        seen_lo = 0.5, seen_hi = 0.5;
        double start = 10.0 * c, lowest = 1, highest = 1;
        for (int k = 0; k <= 20; k++) {
            CHECK_OK(animrt_runtime_tick(rt, start + k * 0.05));
            double v = presentation(rt, layer, "opacity");
            if (v < lowest) lowest = v;
            if (v > highest) highest = v;
        }
        CHECK(seen_lo == 0 && seen_hi == 1);
        /* Past the ends the segment holds its end value (0 and 2). */
        CHECK(lowest == 0 && highest == 2);
        CHECK_OK(animrt_layer_destroy(rt, layer));
    }
    animrt_runtime_destroy(rt);
}

/* ---- the error rows (docs/bad-input.md, plugins) ----------------------- */

/* After a refused load, the faulty plugin's first registrations are gone
 * and the runtime works. */
static void nothing_left(animrt_runtime *rt) {
    double y = 0;
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "halfway", 0.5, &y), ANIMRT_E_NOT_FOUND);
    animrt_value r, a[1] = {number(1)};
    CHECK_STATUS(animrt_function_call(rt, "halfGuard", a, 1, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "halfBlock", 0.5, &y), ANIMRT_E_NOT_FOUND);
    animrt_id layer = 0;
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK(curve(rt, "easeIn", 1) == 1);
}

TEST(error_missing_library) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libnowhere.so"), &p), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("cannot load the library");
    CHECK_MESSAGE("libnowhere.so");
    CHECK(p == 77);
    CHECK_STATUS(animrt_function_bind(rt, "libnowhere.so", "f", "f64(f64)", NULL), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("libnowhere.so");
    /* An empty name is no library: dlopen("") would open the process (what
     * NULL asks for), so "" would bind from it, or look in it for a plugin,
     * without a word. */
    CHECK_STATUS(animrt_plugin_load(rt, "", &p), ANIMRT_E_INVALID);
    CHECK_MESSAGE("path is empty; name the plugin's shared library");
    CHECK(p == 77);
    CHECK_STATUS(animrt_function_bind(rt, "", "cos", "f64(f64)", "cosine"), ANIMRT_E_INVALID);
    CHECK_MESSAGE("library is empty;");
    CHECK_MESSAGE("or pass NULL for the process");
    CHECK_STATUS(animrt_timing_function_bind(rt, "", "cos", "f64(f64)", "cosine"), ANIMRT_E_INVALID);
    CHECK_MESSAGE("library is empty;");
    animrt_value r;
    CHECK_STATUS(animrt_function_call(rt, "cosine", NULL, 0, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
    CHECK(isnan(curve(rt, "cosine", 0.5)));
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

TEST(error_missing_symbol) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_noentry.so"), &p), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("is not an animrt plugin: it does not export animrt_plugin_entry");
    /* A library without an entry point of its own, linked against the example
     * plugin: dlsym on it finds libexamples.so's entry point too. It is no
     * plugin (it loaded as 'examples', and where that was loaded already ran
     * its init a second time in one runtime). */
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_dependent.so"), &p), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("libfaulty_dependent.so' is not an animrt plugin: it does not export animrt_plugin_entry itself "
                  "(the one found is '");
    CHECK_MESSAGE("/libexamples.so''s, a library it depends on: load that plugin by its own path); "
                  "define it with ANIMRT_PLUGIN_DEFINE");
    CHECK(p == 77);
    double y = 0;
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "bounce", 0.5, &y), ANIMRT_E_NOT_FOUND);
    animrt_id examples = 0;
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &examples));
    CHECK_OK(animrt_function_bind(rt, lib("libexamples.so"), "example_live_loads", "i32()", "liveLoads"));
    int32_t before = live_loads(rt);
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_dependent.so"), &p), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("it does not export animrt_plugin_entry itself");
    CHECK(live_loads(rt) == before && p == 77);
    CHECK_OK(animrt_plugin_unload(rt, examples));
    CHECK_STATUS(animrt_function_bind(rt, "libm.so.6", "cosine_of", "f64(f64)", NULL), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("no symbol 'cosine_of' in 'libm.so.6'");
    {
        /* The loader's own words follow, as dlsym gives them. */
        char said[600] = "";
        void *m = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
        CHECK(m != NULL);
        if (m) {
            (void)dlerror();
            const char *e = dlsym(m, "cosine_of") == NULL ? dlerror() : NULL;
            CHECK(e != NULL && strstr(e, "cosine_of") != NULL);
            snprintf(said, sizeof said, "no symbol 'cosine_of' in 'libm.so.6' (%s)", e ? e : "?");
            dlclose(m);
        }
        CHECK(strcmp(animrt_last_error_message(), said) == 0);
    }
    CHECK_STATUS(animrt_timing_function_bind(rt, NULL, "no_such_curve", "f64(f64)", NULL), ANIMRT_E_NOT_FOUND);
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

/* A relative path is read against the working directory once, as the load
 * starts (R4.1), and the library opened by the absolute path that gives.
 * Here the library's constructor changes the directory between dlopen and
 * the loader's check that the entry point is the library's own, as another
 * thread's chdir could. That check opens again the name dladdr reports:
 * opened by a relative name, a C library that finds a loaded object by its
 * file (musl) would look in the new directory and the plugin be refused as
 * one whose entry point is another's (glibc matches the name as a string;
 * test_plugins.py checks the name is absolute). Messages keep the path as
 * the host wrote it. */
TEST(a_relative_path_is_read_once) {
    char here[4096], moved[4096];
    CHECK(getcwd(here, sizeof here) != NULL);
    CHECK(chdir(dir) == 0);
    animrt_runtime *rt = rt_new();
    animrt_id p = 77, again = 77;
    animrt_status loaded = animrt_plugin_load(rt, "./libfaulty_chdir.so", &p);
    char message[512];
    snprintf(message, sizeof message, "%s", animrt_last_error_message());
    bool left = getcwd(moved, sizeof moved) != NULL && strcmp(moved, "/") == 0;
    CHECK(chdir(here) == 0);  /* before anything else can go wrong */
    CHECK(left);              /* the constructor ran inside the load */
    if (loaded != ANIMRT_OK) fprintf(stderr, "  the load: %s (%s)\n", animrt_status_name(loaded), message);
    CHECK(loaded == ANIMRT_OK && p != 77);
    CHECK(curve(rt, "halfway", 0.5) == 0.25);
    /* The same file by the path from here: the same library, named as written. */
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_chdir.so"), &again), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("plugin 'faulty' (./libfaulty_chdir.so) is loaded into this runtime already");
    CHECK_MESSAGE("libfaulty_chdir.so' is the same library)");
    CHECK(again == 77);
    CHECK_OK(animrt_plugin_unload(rt, p));
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

/* The registrar a plugin's init receives refuses calls once init returned,
 * whatever has happened since: its plugin unloaded, its runtime destroyed and
 * another made in its memory. It names no memory (a call never reads freed
 * memory: AddressSanitizer runs this too), and the refusal's message reaches
 * the plugin's thread, outside any call of the host. */
TEST(error_registrar_kept_after_init) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 0;
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_keep.so"), &p));
    void *handle = dlopen(lib("libfaulty_keep.so"), RTLD_NOW | RTLD_NOLOAD);
    CHECK(handle != NULL);
    animrt_status (*late_add)(void) = NULL;
    *(void **)&late_add = dlsym(handle, "faulty_late_add");  /* POSIX: a function pointer read as data */
    CHECK(late_add != NULL);
    if (late_add == NULL) return;
    CHECK_STATUS(late_add(), ANIMRT_E_STATE);
    CHECK_MESSAGE("called the registrar to add a timing function after its init returned; the registrar is valid only during init");
    CHECK(isnan(curve(rt, "late", 0.5)));  /* nothing registered */
    CHECK_OK(animrt_plugin_unload(rt, p));
    CHECK_STATUS(late_add(), ANIMRT_E_STATE);
    animrt_runtime_destroy(rt);
    for (int i = 0; i < 4; i++) {
        animrt_runtime *again = rt_new();
        CHECK_OK(animrt_plugin_load(again, lib("libexamples.so"), &p));
        CHECK_STATUS(late_add(), ANIMRT_E_STATE);
        CHECK_MESSAGE("after its init returned");
        CHECK(isnan(curve(again, "late", 0.5)));
        animrt_runtime_destroy(again);
        CHECK_STATUS(late_add(), ANIMRT_E_STATE);
    }
    dlclose(handle);
}

/* A plugin whose init registers from four threads at once: the calls with
 * one registrar are made one at a time, so each of the 800 functions is
 * registered and callable (unserialised, they raced on the staged tables:
 * functions went missing or the process crashed). */
TEST(registrar_calls_from_threads_are_serialised) {
    for (int round = 0; round < 20; round++) {
        animrt_runtime *rt = rt_new();
        animrt_id p = 0;
        CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_threaded.so"), &p));
        int callable = 0;
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 200; i++) {
                char name[32];
                animrt_value r = {0}, a = {.type = ANIMRT_TYPE_NUMBER, .number = 0.75};
                snprintf(name, sizeof name, "t%d_%d", k, i);
                if (animrt_function_call(rt, name, &a, 1, &r, NULL, 0, NULL) == ANIMRT_OK && r.type == ANIMRT_TYPE_BOOL && r.boolean)
                    callable++;
            }
        CHECK(callable == 800);
        CHECK_OK(animrt_plugin_unload(rt, p));
        animrt_runtime_destroy(rt);
    }
}

TEST(error_abi_too_old_and_too_new) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_old.so"), &p), ANIMRT_E_VERSION);
    CHECK_MESSAGE("is too old: it was built for plugin ABI version 0, and this animrt (0.3.0) loads version 1");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_new.so"), &p), ANIMRT_E_VERSION);
    CHECK_MESSAGE("is too new: it was built for plugin ABI version 2, and this animrt (0.3.0) loads version 1");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_function.so"), &p), ANIMRT_E_VERSION);
    CHECK_MESSAGE("animrt_plugin_entry does not hold an animrt_plugin (its first field reads as ABI version ");
    CHECK_MESSAGE("is it a function?); define it with ANIMRT_PLUGIN_DEFINE");
    /* An entry point smaller than an animrt_plugin, ending where the readable
     * memory ends: its size is read before the rest, which is never read. */
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_short.so"), &p), ANIMRT_E_VERSION);
    CHECK_MESSAGE("libfaulty_short.so': its entry point is 8 bytes, smaller than an animrt_plugin of ABI version 1 (40)");
    CHECK(p == 77);
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

TEST(error_malformed_signature) {
    animrt_runtime *rt = rt_new();
    CHECK_STATUS(animrt_function_bind(rt, "libm.so.6", "pow", "f64(f64, f65)", NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("column 10: unknown type 'f65'");
    CHECK_STATUS(animrt_function_bind(rt, "libm.so.6", "pow", "double(double, double)", NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("write 'f64' for double");
    CHECK_STATUS(animrt_function_bind(rt, "libm.so.6", "pow", "f64(f64, f64", NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("expected ')' but the signature ends");
    CHECK_STATUS(animrt_function_bind(rt, "libm.so.6", "pow", "f64(void)", NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("void is only a result type");
    CHECK_STATUS(animrt_function_register(rt, "f", "f64 f64", clamp_to, NULL), ANIMRT_E_INVALID);
    animrt_value r, a[2] = {number(2), number(3)};
    CHECK_STATUS(animrt_function_call(rt, "pow", a, 2, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

TEST(error_signature_does_not_fit) {
    animrt_runtime *rt = rt_new();
    CHECK_STATUS(animrt_timing_function_bind(rt, "libm.so.6", "pow", "f64(f64, f64)", "power"), ANIMRT_E_KIND);
    CHECK_MESSAGE("a timing function must be f64(f64)");
    CHECK_STATUS(animrt_timing_function_bind(rt, "libm.so.6", "lround", "i64(f64)", NULL), ANIMRT_E_KIND);
    /* A function with a result that is not a bool cannot be a guard. */
    CHECK_OK(animrt_function_bind(rt, "libm.so.6", "trunc", "f64(f64)", NULL));
    animrt_id def = 77;
    CHECK_STATUS(animrt_definition_load(rt,
        "{\"name\": \"g\", \"events\": {\"go\": {}}, \"initial\": \"a\","
        " \"states\": {\"a\": {\"on\": {\"go\": {\"guard\": \"trunc(1.5)\", \"target\": \"b\"}}}, \"b\": {}}}", &def), ANIMRT_E_KIND);
    /* A function with a pointer cannot be named by a machine. */
    CHECK_OK(animrt_function_bind(rt, NULL, "free", "void(ptr)", "release"));
    CHECK_STATUS(animrt_definition_load(rt,
        "{\"name\": \"g\", \"events\": {\"go\": {}}, \"initial\": \"a\","
        " \"states\": {\"a\": {\"on\": {\"go\": {\"actions\": [{\"call\": \"release\"}]}}}}}", &def), ANIMRT_E_NOT_FOUND);
    CHECK(def == 77);
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

TEST(error_definition_names_an_unbound_function) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 77, p = 77;
    CHECK_STATUS(animrt_definition_load(rt,
        "{\"name\": \"g\", \"events\": {\"go\": {}}, \"initial\": \"a\","
        " \"states\": {\"a\": {\"on\": {\"go\": {\"guard\": \"canToggle(1, 2)\", \"target\": \"b\"}}}, \"b\": {}}}", &def),
        ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("unknown function 'canToggle'");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_definition.so"), &p), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("unknown function 'nowhere'");
    CHECK_MESSAGE("nothing of it was loaded");
    CHECK(def == 77 && p == 77);
    CHECK_STATUS(animrt_definition_load_named(rt, "faultyMachine", &def), ANIMRT_E_NOT_FOUND);
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

/* add_definition checks the name as animrt_definition_register does, as it
 * goes: the plugin hears of a name no definition may have from the call
 * itself (and can say which of its registrations failed), not only from a
 * load refused after its init returned. */
TEST(error_plugin_registers_a_definition_under_a_bad_name) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 77, p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_definitionname.so"), &p), ANIMRT_E_INVALID);
    CHECK_MESSAGE("plugin 'faulty'");
    CHECK_MESSAGE("ASCII letters, digits and '_', not starting with a digit; 'faulty machine' is not one");
    CHECK_MESSAGE("nothing of it was loaded");
    CHECK(p == 77);
    CHECK_STATUS(animrt_definition_load_named(rt, "faulty machine", &def), ANIMRT_E_NOT_FOUND);
    CHECK(def == 77);
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

TEST(error_plugin_registers_a_name_that_exists) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_duplicate.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("plugin 'faulty'");
    CHECK_MESSAGE("'easeIn' is a built-in timing function; register yours under another name");
    CHECK(p == 77);
    nothing_left(rt);
    CHECK(curve(rt, "easeIn", 0.5) < 0.5); /* still Core Animation's */
    /* The same through add_timing_function_block: its block curve "halfBlock" goes too. */
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_duplicate_block.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("'easeOut' is a built-in timing function; register yours under another name");
    CHECK(p == 77);
    nothing_left(rt);
    CHECK(curve(rt, "easeOut", 0.5) > 0.5);
    animrt_runtime_destroy(rt);
}

TEST(error_plugin_fails_its_init) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_init.so"), &p), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE("failed to initialise (ANIMRT_E_RANGE): the faulty plugin refuses to start (built with FAIL_INIT)");
    CHECK(p == 77);
    nothing_left(rt);
    /* A good plugin still loads. */
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &p));
    animrt_runtime_destroy(rt);
}

/* A registration that fails fails the load, whatever init returns: the
 * first failure is the one reported, and nothing of the plugin stays. While
 * init runs, animrt_last_error_message() says why the call it just made was
 * refused, as after any failed call (R4.4, R0.3). */
TEST(error_plugin_ignores_its_failed_registrations) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77, def = 77;
    animrt_value r = {0, 0, 0, 0, NULL, NULL};
    /* Bound first: the library stays mapped (and its record with it) when the load lets it go. */
    CHECK_OK(animrt_function_bind(rt, lib("libfaulty_ignores.so"), "faulty_saw_message", "i32()", "sawMessage"));
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_ignores.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("plugin 'faulty' (");
    CHECK_MESSAGE("libfaulty_ignores.so): a machine definition named 'twice' is registered already; nothing of it was loaded");
    CHECK(p == 77);
    nothing_left(rt);
    CHECK_STATUS(animrt_definition_load_named(rt, "twice", &def), ANIMRT_E_NOT_FOUND);
    CHECK(def == 77);
    CHECK_OK(animrt_function_call(rt, "sawMessage", NULL, 0, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == 1);
    animrt_runtime_destroy(rt);
}

static int64_t call_integer(animrt_runtime *rt, const char *name) {
    animrt_value r = {0, 0, 0, 0, NULL, NULL};
    if (animrt_function_call(rt, name, NULL, 0, &r, NULL, 0, NULL) != ANIMRT_OK || r.type != ANIMRT_TYPE_INTEGER) return -1;
    return r.integer;
}

/* A plugin's init and fini run while the runtime holds its lock: calls
 * they make back into that runtime (a tick, a read, a new layer, a
 * destroy) are refused with ANIMRT_E_STATE, not left waiting on the lock,
 * and change nothing; the load, the unload and the destroy that ran them
 * go on as if they had not been made (R0.3). */
static int64_t plugin_reentry(animrt_runtime *reader, int32_t slot) {
    animrt_value arg = {ANIMRT_TYPE_INTEGER, 0, slot, slot, NULL, NULL}, r = {0, 0, 0, 0, NULL, NULL};
    if (animrt_function_call(reader, "reentry", &arg, 1, &r, NULL, 0, NULL) != ANIMRT_OK) return -3;
    return r.integer;
}

static void reenter_into(animrt_runtime *reader, animrt_runtime *rt) {
    animrt_value arg = {ANIMRT_TYPE_POINTER, 0, 0, 0, NULL, rt};
    CHECK_OK(animrt_function_call(reader, "reenter", &arg, 1, NULL, NULL, 0, NULL));
}

TEST(init_and_fini_calling_back_into_the_runtime_are_refused) {
    animrt_runtime *rt = rt_new(), *reader = rt_new();
    const char *path = lib("libfaulty_reentrant.so");
    CHECK_OK(animrt_function_bind(reader, path, "faulty_reenter", "void(ptr)", "reenter"));
    CHECK_OK(animrt_function_bind(reader, path, "faulty_reentry", "i32(i32)", "reentry"));
    reenter_into(reader, rt);
    animrt_id p = 0, layer = 0;
    CHECK_OK(animrt_plugin_load(rt, path, &p));
    for (int32_t i = 0; i < 4; i++) CHECK(plugin_reentry(reader, i) == ANIMRT_E_STATE);
    CHECK(plugin_reentry(reader, 4) == -1);  /* fini has not run */
    double now = -1, y = -1;
    CHECK_OK(animrt_runtime_time(rt, &now));
    CHECK(now == 0);  /* init's tick did not happen */
    CHECK_OK(animrt_timing_function_evaluate(rt, "halfway", 0.3, &y));  /* its registration did */
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_plugin_unload(rt, p));
    for (int32_t i = 4; i < 8; i++) CHECK(plugin_reentry(reader, i) == ANIMRT_E_STATE);
    CHECK_OK(animrt_runtime_tick(rt, 1));  /* the runtime fini called back into goes on */
    CHECK_OK(animrt_runtime_time(rt, &now));
    CHECK(now == 1);
    /* fini run by destroy: its calls, and its destroy, are refused too. */
    CHECK_OK(animrt_plugin_load(rt, path, &p));
    reenter_into(reader, rt);  /* the slots go back to -1 */
    CHECK(plugin_reentry(reader, 4) == -1);
    animrt_runtime_destroy(rt);
    for (int32_t i = 4; i < 8; i++) CHECK(plugin_reentry(reader, i) == ANIMRT_E_STATE);
    animrt_runtime_destroy(reader);
}

/* What init is given: this library's table (its size, its ABI version, its
 * version), and a state that fini gets back, once per load, at unload or
 * when the runtime goes. An unloaded plugin's functions are withdrawn with
 * its curves (R4.1). */
TEST(plugin_receives_the_host_api_and_its_state) {
    animrt_runtime *rt = rt_new(), *reader = rt_new();
    animrt_id p = 0;
    const char *path = lib("libfaulty_api.so");
    CHECK_OK(animrt_function_bind(reader, path, "faulty_api_size", "u32()", "apiSize"));
    CHECK_OK(animrt_function_bind(reader, path, "faulty_api_abi", "u32()", "apiAbi"));
    CHECK_OK(animrt_function_bind(reader, path, "faulty_api_version", "u32()", "apiVersion"));
    CHECK_OK(animrt_function_bind(reader, path, "faulty_fini_calls", "i32()", "finiCalls"));
    CHECK(call_integer(reader, "apiSize") == 0 && call_integer(reader, "finiCalls") == 0);
    CHECK_OK(animrt_plugin_load(rt, path, &p));
    CHECK(call_integer(reader, "apiSize") == (int64_t)sizeof(animrt_host_api));
    CHECK(call_integer(reader, "apiAbi") == ANIMRT_PLUGIN_ABI_VERSION);
    CHECK(call_integer(reader, "apiVersion") == ANIMRT_VERSION_NUMBER);
    CHECK(call_integer(reader, "finiCalls") == 0);
    animrt_value r = {0, 0, 0, 0, NULL, NULL}, a[1] = {number(0.75)};
    CHECK_OK(animrt_function_call(rt, "halfGuard", a, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_BOOL && r.boolean == 1);
    CHECK(curve(rt, "halfway", 0.5) == 0.25);
    CHECK_OK(animrt_plugin_unload(rt, p));
    CHECK(call_integer(reader, "finiCalls") == 1);
    CHECK_STATUS(animrt_function_call(rt, "halfGuard", a, 1, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
    CHECK(isnan(curve(rt, "halfway", 0.5)));
    CHECK_OK(animrt_plugin_load(rt, path, &p));
    CHECK(call_integer(reader, "finiCalls") == 1);
    animrt_runtime_destroy(rt);
    CHECK(call_integer(reader, "finiCalls") == 2);
    animrt_runtime_destroy(reader);
}

/* dlopen with RTLD_NOW | RTLD_LOCAL: a plugin calling a function no library
 * it is linked against has is refused when it loads, with the loader's
 * message, even where another plugin exports that function (R4.1). */
TEST(error_plugin_symbol_unresolved) {
    animrt_runtime *rt = rt_new();
    animrt_id examples = 0, p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_undefined.so"), &p), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("cannot load the library");
    CHECK_MESSAGE("example_bounce");
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &examples));
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_undefined.so"), &p), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("libfaulty_undefined.so");
    CHECK_MESSAGE("example_bounce");
    CHECK(p == 77);
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

/* A plugin that fails its function through animrt_error_set, animrt's own
 * function, rather than api->error_set: in a host linked with -lanimrt, as
 * this one is, the loader finds it, so the plugin loads and its message
 * arrives (Python, which loads animrt privately, refuses it: test_plugins.py,
 * docs/plugins.md "A whole plugin") (R4.1). */
TEST(plugin_calling_animrt_in_a_linked_host) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 0;
    animrt_value x = {.type = ANIMRT_TYPE_NUMBER, .number = 1}, out = {.type = ANIMRT_TYPE_NUMBER, .number = 5};
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_callsanimrt.so"), &p));
    CHECK_STATUS(animrt_function_call(rt, "refuses", &x, 1, &out, NULL, 0, NULL), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE("refused through animrt_error_set");
    CHECK_MESSAGE("(ANIMRT_E_RANGE)");
    CHECK(out.number == 5);
    CHECK_OK(animrt_plugin_unload(rt, p));
    nothing_left(rt);
    animrt_runtime_destroy(rt);
}

static animrt_status fail_silently(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data; (void)args; (void)count; (void)result;
    return ANIMRT_E_RANGE;
}

/* A function or an init that fails without animrt_error_set says it gave
 * no message, never the message something else left before it (R0.3). */
TEST(error_failure_without_a_message) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    animrt_value r;
    CHECK(animrt_error_set(ANIMRT_E_RANGE, "an earlier message of the host") == ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_silent.so"), &p), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE("failed to initialise (ANIMRT_E_STATE): it gave no message (api->error_set); nothing of it was loaded");
    CHECK(strstr(animrt_last_error_message(), "earlier") == NULL);
    CHECK(p == 77);
    nothing_left(rt);
    CHECK_OK(animrt_function_register(rt, "failSilently", "f64()", fail_silently, NULL));
    CHECK(animrt_error_set(ANIMRT_E_RANGE, "an earlier message of the host") == ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_function_call(rt, "failSilently", NULL, 0, &r, NULL, 0, NULL), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE("function 'failSilently' (f64()) failed (ANIMRT_E_RANGE): no message (use animrt_error_set)");
    CHECK(strstr(animrt_last_error_message(), "earlier") == NULL);
    animrt_runtime_destroy(rt);
}


/* What `misfit` sets its result to. */
struct misfit { int32_t type; const char *string; int64_t integer; };

/* A function whose result breaks its signature in the way `user_data` says. */
static animrt_status misfit(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    const struct misfit *m = user_data;
    (void)args; (void)count;
    result->type = m->type;
    result->string = m->string;
    result->integer = m->integer;
    result->number = 0.5;
    return ANIMRT_OK;
}

/* A function that reports success with a result its signature does not
 * allow fails the call with ANIMRT_E_CALLBACK, saying what it did; the
 * caller's result and buffer are left as they were, and a machine gets
 * error.execution, its context unchanged (R4.2, R0.3). */
TEST(error_function_result_breaks_its_signature) {
    animrt_runtime *rt = rt_new();
    struct misfit integer = {ANIMRT_TYPE_INTEGER, NULL, 3}, unknown = {99, NULL, 3},
                  latin1 = {ANIMRT_TYPE_STRING, "caf\xe9", 0},
                  big = {ANIMRT_TYPE_INTEGER, NULL, ((int64_t)1 << 53) + 1};
    CHECK_OK(animrt_function_register(rt, "typed", "f64()", misfit, &integer));
    CHECK_OK(animrt_function_register(rt, "untyped", "f64()", misfit, &unknown));
    CHECK_OK(animrt_function_register(rt, "latin1", "str()", misfit, &latin1));
    CHECK_OK(animrt_function_register(rt, "big", "u64()", misfit, &big));
    animrt_value r = {ANIMRT_TYPE_BOOL, 1, 0, 0, NULL, NULL};
    char buf[16] = "untouched";
    size_t needed = 77;
    CHECK_STATUS(animrt_function_call(rt, "typed", NULL, 0, &r, NULL, 0, NULL), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE_IS("function 'typed' (f64()) set a result of type integer (4) where number (1) was declared; "
                     "result->type holds the declared type when the function is called: leave it");
    CHECK_STATUS(animrt_function_call(rt, "untyped", NULL, 0, &r, NULL, 0, NULL), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE_IS("function 'untyped' (f64()) set a result of type 99, which is no animrt_value type, where number (1) "
                     "was declared; result->type holds the declared type when the function is called: leave it");
    CHECK_STATUS(animrt_function_call(rt, "latin1", NULL, 0, &r, buf, sizeof buf, &needed), ANIMRT_E_CALLBACK);
    CHECK_MESSAGE_IS("function 'latin1' (str()) returned a string that is not valid UTF-8");
    CHECK(r.type == ANIMRT_TYPE_BOOL && r.boolean == 1 && r.string == NULL);
    CHECK(strcmp(buf, "untouched") == 0 && needed == 77);
    /* Fixed, each returns what it declares. */
    integer.type = ANIMRT_TYPE_NUMBER;
    latin1.string = "caf\xc3\xa9";
    CHECK_OK(animrt_function_call(rt, "typed", NULL, 0, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_NUMBER && r.number == 0.5);
    CHECK_OK(animrt_function_call(rt, "latin1", NULL, 0, &r, buf, sizeof buf, &needed));
    CHECK(r.type == ANIMRT_TYPE_STRING && strcmp(buf, "caf\xc3\xa9") == 0 && needed == 6);

    /* A u64 result past 2^53, which the host gets whole, is no number a
     * machine holds exactly: error.execution, not a neighbour rounded to. */
    CHECK_OK(animrt_function_call(rt, "big", NULL, 0, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == ((int64_t)1 << 53) + 1);
    const char *json =
        "{\"name\": \"counter\", \"events\": {\"go\": {}}, \"context\": {\"v\": {\"type\": \"number\", \"initial\": 1}},"
        " \"initial\": \"a\", \"states\": {\"a\": {\"on\": {\"go\": {\"actions\": [{\"assign\": {\"v\": \"big()\"}}]}}}}}";
    animrt_id def = 0, m = 0;
    CHECK_OK(animrt_definition_load(rt, json, &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    animrt_event ev[8];
    size_t n = 0;
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    CHECK_OK(animrt_machine_send(rt, m, 0, NULL, 0, NULL));
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    int errors = 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].type != ANIMRT_EVENT_MACHINE_ERROR) continue;
        errors++;
        CHECK(ev[i].payload_count == 1 && ev[i].payload[0].type == ANIMRT_TYPE_STRING &&
              strcmp(ev[i].payload[0].string, "states.a.on.go.actions[0]: the result of 'big' (u64()) is 9007199254740993, "
                     "which a machine's number (a double) cannot hold exactly") == 0);
    }
    CHECK(errors == 1);
    animrt_value v = {0, 0, 0, 0, NULL, NULL};
    CHECK_OK(animrt_machine_get(rt, m, 0, &v, NULL, 0, NULL));
    CHECK(v.type == ANIMRT_TYPE_NUMBER && v.number == 1);
    /* 2^53 itself is a double: taken. */
    big.integer = (int64_t)1 << 53;
    CHECK_OK(animrt_machine_send(rt, m, 0, NULL, 0, NULL));
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    for (size_t i = 0; i < n; i++) CHECK(ev[i].type != ANIMRT_EVENT_MACHINE_ERROR);
    CHECK_OK(animrt_machine_get(rt, m, 0, &v, NULL, 0, NULL));
    CHECK(v.type == ANIMRT_TYPE_NUMBER && v.number == 9007199254740992.0);
    animrt_runtime_destroy(rt);
}

/* An entry point whose init is NULL: refused before anything of the plugin
 * runs, saying what is missing; nothing of it is recorded, so the same
 * plugin name loads from a library that has an init (R4.1, R0.3). */
TEST(error_plugin_entry_point_without_init) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    char expected[1024];
    const char *path = lib("libfaulty_noinit.so");
    CHECK_STATUS(animrt_plugin_load(rt, path, &p), ANIMRT_E_INVALID);
    snprintf(expected, sizeof expected, "'%s': its entry point has no init function (it is NULL); a plugin adds what it "
             "has from its init: give one to ANIMRT_PLUGIN_DEFINE (its third argument)", path);
    CHECK_MESSAGE_IS(expected);
    CHECK(p == 77);
    nothing_left(rt);
    /* Refused again, the same way: the first refusal left nothing behind. */
    CHECK_STATUS(animrt_plugin_load(rt, path, &p), ANIMRT_E_INVALID);
    CHECK_MESSAGE_IS(expected);
    CHECK(p == 77);
    /* A plugin of the same name with an init loads, and registers its own. */
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_emptyversion.so"), &p));
    CHECK(p != 77);
    CHECK(curve(rt, "halfway", 0.5) == 0.25);
    CHECK_OK(animrt_plugin_unload(rt, p));
    animrt_runtime_destroy(rt);
}

/* A registration given a NULL registrar is refused with ANIMRT_E_NULL, the
 * plugin reading why with animrt_last_error_message, as after any failed
 * call; an init that returns that status fails the load with the message,
 * and what it registered before is gone (R4.4, R0.3). */
TEST(error_plugin_calls_a_null_registrar) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77, def = 77;
    char expected[1024];
    const char *path = lib("libfaulty_nullregistrar.so");
    /* Bound first: the library stays mapped when the load lets it go. */
    CHECK_OK(animrt_function_bind(rt, path, "faulty_null_refusals", "i32()", "nullRefusals"));
    CHECK_STATUS(animrt_plugin_load(rt, path, &p), ANIMRT_E_CALLBACK);
    snprintf(expected, sizeof expected, "plugin 'faulty' (%s) failed to initialise (ANIMRT_E_NULL): the registrar is NULL "
             "(asked to add a block timing function); pass the registrar init was given (its second argument); "
             "nothing of it was loaded", path);
    CHECK_MESSAGE_IS(expected);
    CHECK(p == 77);
    /* Each of the four add_ functions refused it, and said why. */
    animrt_value r = {0, 0, 0, 0, NULL, NULL};
    CHECK_OK(animrt_function_call(rt, "nullRefusals", NULL, 0, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == 4);
    nothing_left(rt);
    double y = 0;
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "nullCurve", 0.5, &y), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "nullBlock", 0.5, &y), ANIMRT_E_NOT_FOUND);
    animrt_value a[1] = {number(1)};
    CHECK_STATUS(animrt_function_call(rt, "nullGuard", a, 1, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_definition_load_named(rt, "nullMachine", &def), ANIMRT_E_NOT_FOUND);
    CHECK(def == 77);
    /* A good plugin loads after it, its curves working. */
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &p));
    CHECK(curve(rt, "bounce", 1) == 1);
    animrt_runtime_destroy(rt);
}

/* A name that exists is refused naming who holds it when a plugin does: the
 * plugin itself, another plugin, for a plugin's registration and for the
 * host's registrations and binds alike (R4.4). */
TEST(error_name_taken_names_its_plugin) {
    animrt_runtime *rt = rt_new();
    animrt_id examples = 0, p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_again.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a timing function named 'halfway' is already registered, by this plugin; nothing of it was loaded");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_againfunction.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a function named 'halfGuard' is already registered, by this plugin; nothing of it was loaded");
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &examples));
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_clash.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a timing function named 'bounce' is already registered, by plugin 'examples' (");
    CHECK_MESSAGE("libexamples.so); nothing of it was loaded");
    CHECK(p == 77);
    CHECK_STATUS(animrt_timing_function_register(rt, "elastic", wobble, NULL, 0, NULL, NULL, NULL), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a timing function named 'elastic' is already registered, by plugin 'examples' (");
    CHECK_STATUS(animrt_timing_function_register_block(rt, "bounce", wobble_block, NULL, 0, NULL, NULL, NULL),
                 ANIMRT_E_EXISTS);
    CHECK_MESSAGE(", by plugin 'examples' (");
    CHECK_STATUS(animrt_timing_function_bind(rt, "libm.so.6", "cbrt", "f64(f64)", "bounce"), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a timing function named 'bounce' is already registered, by plugin 'examples' (");
    CHECK_STATUS(animrt_function_bind(rt, "libm.so.6", "cbrt", "f64(f64)", "canToggle"), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a function named 'canToggle' is already registered, by plugin 'examples' (");
    CHECK_STATUS(animrt_function_register(rt, "canToggle", "bool(f64, f64)", clamp_to, NULL), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a function named 'canToggle' is already registered, by plugin 'examples' (");
    /* A name the host holds is refused as before, with no plugin named. */
    CHECK_OK(animrt_timing_function_register(rt, "mine", wobble, NULL, 0, NULL, NULL, NULL));
    CHECK_STATUS(animrt_timing_function_register(rt, "mine", wobble, NULL, 0, NULL, NULL, NULL), ANIMRT_E_EXISTS);
    CHECK_MESSAGE_IS("a timing function named 'mine' is already registered");
    /* Once the plugin is unloaded, its names are free. */
    CHECK_OK(animrt_plugin_unload(rt, examples));
    CHECK_OK(animrt_timing_function_register(rt, "bounce", wobble, NULL, 0, NULL, NULL, NULL));
    animrt_runtime_destroy(rt);
}

/* A plugin's function may not take the name of one the host alone can call
 * (a pointer parameter: machines never see it): refused, nothing loaded. */
TEST(error_plugin_function_named_as_a_host_only_one) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    CHECK_OK(animrt_function_bind(rt, NULL, "strlen", "u64(ptr)", "halfGuard"));
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_emptyversion.so"), &p), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("a function named 'halfGuard' is already registered; nothing of it was loaded");
    CHECK(p == 77);
    double y = 0;
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "halfway", 0.5, &y), ANIMRT_E_NOT_FOUND);
    animrt_value r = {0, 0, 0, 0, NULL, NULL}, a[1] = {{ANIMRT_TYPE_POINTER, 0, 0, 0, NULL, (void *)"four"}};
    CHECK_OK(animrt_function_call(rt, "halfGuard", a, 1, &r, NULL, 0, NULL));
    CHECK(r.type == ANIMRT_TYPE_INTEGER && r.integer == 4);
    animrt_runtime_destroy(rt);
}

/* A plugin's entry point must name it: a name that is NULL, longer than
 * 255 bytes, not UTF-8 or empty is refused before its init runs, so nothing
 * of it is registered. Its version is held to the same rules, but may be "". */
TEST(error_plugin_name_refused) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_nameless.so"), &p), ANIMRT_E_NULL);
    CHECK_MESSAGE("libfaulty_nameless.so': its entry point's name is NULL");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_longname.so"), &p), ANIMRT_E_RANGE);
    CHECK_MESSAGE("libfaulty_longname.so': its entry point's name is longer than 255 bytes");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_badname.so"), &p), ANIMRT_E_INVALID);
    CHECK_MESSAGE("libfaulty_badname.so': its entry point's name is not valid UTF-8");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_emptyname.so"), &p), ANIMRT_E_INVALID);
    CHECK_MESSAGE("libfaulty_emptyname.so': its entry point's name is empty");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_versionless.so"), &p), ANIMRT_E_NULL);
    CHECK_MESSAGE("libfaulty_versionless.so': its entry point's version is NULL");
    CHECK_MESSAGE("ANIMRT_PLUGIN_DEFINE's second argument");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_longversion.so"), &p), ANIMRT_E_RANGE);
    CHECK_MESSAGE("libfaulty_longversion.so': its entry point's version is longer than 255 bytes");
    CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_badversion.so"), &p), ANIMRT_E_INVALID);
    CHECK_MESSAGE("libfaulty_badversion.so': its entry point's version is not valid UTF-8");
    CHECK(p == 77);
    nothing_left(rt);
    /* A name and a version of 255 bytes each, the longest: the plugin loads and says both whole. */
    char longest[ANIMRT_NAME_MAX + 1];
    size_t needed = 0;
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_longest.so"), &p));
    CHECK_OK(animrt_plugin_name(rt, p, longest, sizeof longest, &needed));
    CHECK(strlen(longest) == 255 && needed == 256 && strncmp(longest, "faultyname", 10) == 0 && longest[254] == '5');
    CHECK_OK(animrt_plugin_version(rt, p, longest, sizeof longest, &needed));
    CHECK(strlen(longest) == 255 && needed == 256 && longest[254] == '5');
    CHECK_OK(animrt_plugin_unload(rt, p));
    /* An empty version says nothing, and is no fault. */
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_emptyversion.so"), &p));
    char name[16];
    CHECK_OK(animrt_plugin_name(rt, p, name, sizeof name, &needed));
    CHECK(strcmp(name, "faulty") == 0 && needed == 7);
    CHECK_OK(animrt_plugin_version(rt, p, name, sizeof name, &needed));
    CHECK(strcmp(name, "") == 0 && needed == 1);
    CHECK_OK(animrt_plugin_unload(rt, p));
    /* An unloaded plugin has no version any more. */
    CHECK_STATUS(animrt_plugin_version(rt, p, name, sizeof name, &needed), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("stale");
    /* A good plugin still loads. */
    CHECK_OK(animrt_plugin_load(rt, lib("libexamples.so"), &p));
    animrt_runtime_destroy(rt);
}

/* Every table has a limit, with a status past it (R0.4). */
TEST(limits) {
    animrt_runtime *rt = rt_new();
    animrt_id plugins[ANIMRT_PLUGINS_MAX + 1];
    /* A library loads once per runtime: the plugins are copies of the empty
     * one, each its own file. */
    char copies[] = "/tmp/animrt_plugins_XXXXXX", path[ANIMRT_PLUGINS_MAX + 1][64];
    CHECK(mkdtemp(copies) != NULL);
    for (int i = 0; i <= ANIMRT_PLUGINS_MAX; i++) {
        snprintf(path[i], sizeof path[i], "%s/empty%d.so", copies, i);
        CHECK(copy_file(lib("libfaulty_empty.so"), path[i]));
    }
    for (int i = 0; i < ANIMRT_PLUGINS_MAX; i++) CHECK_OK(animrt_plugin_load(rt, path[i], &plugins[i]));
    CHECK_STATUS(animrt_plugin_load(rt, path[ANIMRT_PLUGINS_MAX], &plugins[ANIMRT_PLUGINS_MAX]), ANIMRT_E_RANGE);
    CHECK_MESSAGE("256 plugins are loaded already");
    CHECK_OK(animrt_plugin_unload(rt, plugins[0]));
    CHECK_OK(animrt_plugin_load(rt, path[ANIMRT_PLUGINS_MAX], &plugins[0]));
    char name[32];
    for (int i = 0; i < ANIMRT_FUNCTIONS_MAX; i++) {
        snprintf(name, sizeof name, "f%d", i);
        if (animrt_function_register(rt, name, "f64(f64)", clamp_to, NULL) != ANIMRT_OK) { CHECK(0); break; }
    }
    CHECK_STATUS(animrt_function_register(rt, "oneMore", "f64(f64)", clamp_to, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("65536 functions are registered or bound already, the most a runtime holds");
    CHECK_STATUS(animrt_function_bind(rt, NULL, "abs", "i32(i32)", "iabs"), ANIMRT_E_RANGE);
    CHECK_MESSAGE("65536 functions are registered or bound already");
    /* The table is full before any library is opened (its constructors would run): one that is
     * not there is not looked for. */
    CHECK_STATUS(animrt_function_bind(rt, "libnowhere.so", "f", "f64(f64)", "nowhere"), ANIMRT_E_RANGE);
    CHECK_MESSAGE("65536 functions are registered or bound already");
    for (int i = 0; i < ANIMRT_TIMING_FUNCTIONS_MAX; i++) {
        snprintf(name, sizeof name, "c%d", i);
        if (animrt_timing_function_register(rt, name, wobble, NULL, 0, NULL, NULL, NULL) != ANIMRT_OK) { CHECK(0); break; }
    }
    CHECK_STATUS(animrt_timing_function_register(rt, "oneMore", wobble, NULL, 0, NULL, NULL, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("65536 timing functions are registered already, the most a runtime holds");
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "oneMore", 0.5, &(double){0}), ANIMRT_E_NOT_FOUND);  /* nothing was registered */
    CHECK_STATUS(animrt_timing_function_bind(rt, "libm.so.6", "sqrt", "f64(f64)", NULL), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_timing_function_bind(rt, "libnowhere.so", "sqrt", "f64(f64)", NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("65536 timing functions are registered already");
    CHECK(curve(rt, "c65535", 1) == 1);
    animrt_runtime_destroy(rt);
    for (int i = 0; i <= ANIMRT_PLUGINS_MAX; i++) unlink(path[i]);
    rmdir(copies);
}

/* A plugin's functions count against the runtime's limit with the
 * functions it holds already, the ones the plugin registered before
 * included: libfaulty_threaded.so registers 801 (800 from its threads and
 * halfGuard). At the limit it loads; one past, it is refused whole (R0.4). */
TEST(limits_count_a_plugins_functions) {
    char name[32];
    for (int extra = 0; extra <= 1; extra++) {
        animrt_runtime *rt = rt_new();
        animrt_id p = 77;
        animrt_value r, a[1] = {number(1)};
        for (int i = 0; i < ANIMRT_FUNCTIONS_MAX - 801 + extra; i++) {
            snprintf(name, sizeof name, "f%d", i);
            if (animrt_function_register(rt, name, "f64(f64)", clamp_to, NULL) != ANIMRT_OK) { CHECK(0); break; }
        }
        if (extra == 0) {
            CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_threaded.so"), &p));
            CHECK_OK(animrt_function_call(rt, "t3_199", a, 1, &r, NULL, 0, NULL));
            CHECK_STATUS(animrt_function_register(rt, "oneMore", "f64(f64)", clamp_to, NULL), ANIMRT_E_RANGE);
        } else {
            CHECK_STATUS(animrt_plugin_load(rt, lib("libfaulty_threaded.so"), &p), ANIMRT_E_RANGE);
            CHECK_MESSAGE("65536 functions are registered or bound already, the most a runtime holds; nothing of it was loaded");
            CHECK(p == 77);
            CHECK_STATUS(animrt_function_call(rt, "t0_0", a, 1, &r, NULL, 0, NULL), ANIMRT_E_NOT_FOUND);
            nothing_left(rt);
            CHECK_OK(animrt_function_register(rt, "oneMore", "f64(f64)", clamp_to, NULL));
        }
        animrt_runtime_destroy(rt);
    }
}

TEST(bad_arguments) {
    animrt_runtime *rt = rt_new();
    animrt_id p = 77;
    CHECK_STATUS(animrt_plugin_load(NULL, lib("libexamples.so"), &p), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_plugin_load(rt, NULL, &p), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_plugin_load(rt, lib("libexamples.so"), NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_plugin_unload(rt, 0), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_function_bind(rt, NULL, NULL, "f64(f64)", NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_function_bind(rt, NULL, "abs", NULL, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_function_bind(rt, NULL, "abs", "i32(i32)", "not a name"), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_function_bind(rt, NULL, "abs", "i32(i32)", "context"), ANIMRT_E_EXISTS);
    CHECK_STATUS(animrt_function_register(rt, "f", "f64(f64)", NULL, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_function_call(rt, "f", NULL, 3, NULL, NULL, 0, NULL), ANIMRT_E_NULL);
    animrt_value bad[1] = {{42, 0, 0, 0, NULL, NULL}};
    CHECK_OK(animrt_function_bind(rt, NULL, "abs", "i32(i32)", "iabs"));
    animrt_value r;
    CHECK_STATUS(animrt_function_call(rt, "iabs", bad, 1, &r, NULL, 0, NULL), ANIMRT_E_ENUM);
    CHECK(p == 77);
    animrt_runtime_destroy(rt);
}

/* A trace holds every plugin load and binding (the replay makes them
 * again), so recording cannot start once one was made: that trace would
 * use curves and functions it never bound, and plugin handles its replay
 * does not give. A plugin loaded and unloaded counts too (its handle is
 * spent). Replay refuses such a runtime the same way. What the host
 * registers is not recorded, so it may come first. */
TEST(traces_start_before_plugins_and_bindings) {
    char path[600];
    snprintf(path, sizeof path, "%s/late.trace", dir);
    animrt_runtime *rt = rt_new();
    CHECK_OK(animrt_timing_function_bind(rt, lib("libexamples.so"), "example_bounce", "f64(f64)", "thud"));
    CHECK_STATUS(animrt_trace_start(rt, path), ANIMRT_E_STATE);
    CHECK_MESSAGE("start a trace before the runtime is used");
    CHECK_STATUS(animrt_trace_stop(rt), ANIMRT_E_STATE);
    animrt_runtime_destroy(rt);
    rt = rt_new();
    CHECK_OK(animrt_function_bind(rt, "libm.so.6", "pow", "f64(f64, f64)", NULL));
    CHECK_STATUS(animrt_trace_start(rt, path), ANIMRT_E_STATE);
    CHECK_MESSAGE("start a trace before the runtime is used");
    animrt_runtime_destroy(rt);
    /* A trace that loads and unloads a plugin, recorded from the start. */
    animrt_id plugin = 0, layer = 0;
    rt = rt_new();
    CHECK_OK(animrt_trace_start(rt, path));
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_empty.so"), &plugin));
    CHECK_OK(animrt_plugin_unload(rt, plugin));
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_trace_stop(rt));
    animrt_runtime_destroy(rt);
    rt = rt_new();
    CHECK_OK(animrt_plugin_load(rt, lib("libfaulty_empty.so"), &plugin));
    CHECK_OK(animrt_plugin_unload(rt, plugin));
    CHECK_STATUS(animrt_trace_start(rt, path), ANIMRT_E_STATE);
    CHECK_MESSAGE("start a trace before the runtime is used");
    size_t calls = 99;
    CHECK_STATUS(animrt_trace_replay(rt, path, &calls), ANIMRT_E_STATE);
    CHECK_MESSAGE("a trace replays into a fresh runtime; this one has been used");
    animrt_runtime_destroy(rt);
    /* The host's registrations are not recorded: they may come first. */
    rt = rt_new();
    double d = 0.5;
    CHECK_OK(animrt_timing_function_register(rt, "wobble", wobble, NULL, 1, &d, NULL, NULL));
    calls = 0;
    CHECK_OK(animrt_trace_replay(rt, path, &calls));
    CHECK(calls == 3);
    animrt_runtime_destroy(rt);
    rt = rt_new();
    CHECK_OK(animrt_timing_function_register(rt, "wobble", wobble, NULL, 1, &d, NULL, NULL));
    CHECK_OK(animrt_trace_start(rt, path));
    CHECK_OK(animrt_trace_stop(rt));
    animrt_runtime_destroy(rt);
    remove(path);
}

int main(int argc, char **argv) {
    if (argc > 1) dir = argv[1];
    RUN(example_plugin_curves);
    RUN(plugin_curve_in_the_batch);
    RUN(plugin_curve_on_several_threads);
    RUN(like_button);
    RUN(one_init_per_runtime_and_unloading);
    RUN(unload_follows_every_holder);
    RUN(a_library_loads_once_per_runtime);
    RUN(a_refused_unload_keeps_the_plugins_definitions);
    RUN(a_plugin_function_in_use_holds_its_plugin);
    RUN(fini_follows_each_init_that_succeeded);
    RUN(init_and_fini_calling_back_into_the_runtime_are_refused);
    RUN(bulk_adds_on_plugin_curves);
    RUN(traces_replay_plugins_and_bindings);
    RUN(traces_start_before_plugins_and_bindings);
    RUN(bound_functions);
    RUN(bound_functions_in_machines);
    RUN(host_functions);
    RUN(host_registrations_at_their_edges);
    RUN(string_result_limit);
    RUN(f32_is_a_float_bound_or_registered);
    RUN(an_unloaded_library_is_closed);
    RUN(calls_back_through_another_runtime_are_refused);
    RUN(a_fresh_thread_has_no_last_error);
    RUN(block_curves_from_the_host);
    RUN(example_plugin_registers_block_curves);
    RUN(plugin_built_against_this_header_in_an_older_library);
    RUN(calls_back_into_the_runtime_are_refused);
    RUN(calls_back_outside_a_tick_are_refused);
    RUN(calls_back_from_batch_workers_are_refused);
    RUN(curves_are_asked_for_x_in_0_to_1);
    RUN(error_missing_library);
    RUN(error_missing_symbol);
    RUN(a_relative_path_is_read_once);
    RUN(error_registrar_kept_after_init);
    RUN(registrar_calls_from_threads_are_serialised);
    RUN(error_abi_too_old_and_too_new);
    RUN(error_malformed_signature);
    RUN(error_signature_does_not_fit);
    RUN(error_definition_names_an_unbound_function);
    RUN(error_plugin_registers_a_definition_under_a_bad_name);
    RUN(error_plugin_registers_a_name_that_exists);
    RUN(error_plugin_fails_its_init);
    RUN(error_plugin_name_refused);
    RUN(error_plugin_ignores_its_failed_registrations);
    RUN(plugin_receives_the_host_api_and_its_state);
    RUN(error_plugin_symbol_unresolved);
    RUN(plugin_calling_animrt_in_a_linked_host);
    RUN(error_failure_without_a_message);
    RUN(error_plugin_entry_point_without_init);
    RUN(error_plugin_calls_a_null_registrar);
    RUN(error_function_result_breaks_its_signature);
    RUN(error_plugin_function_named_as_a_host_only_one);
    RUN(error_name_taken_names_its_plugin);
    RUN(limits);
    RUN(limits_count_a_plugins_functions);
    RUN(bad_arguments);
    return check_report();
}
