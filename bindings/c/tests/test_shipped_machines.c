/* The machines that come with animrt (SPEC R3.1–R3.4), through the C ABI:
 * each pitfall of the seeds as a named test, loading by name, repeated
 * parts, and a snapshot of a scripted session of each machine restored
 * into a fresh runtime and driven on, compared bit for bit. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "scene.h"

/* An instance of shipped machine `name` with `options` (NULL: defaults). */
static animrt_id shipped(animrt_runtime *rt, const char *name, const char *options) {
    animrt_id def = 0, m = 0;
    CHECK_OK(animrt_definition_load_named(rt, name, &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, options, &m));
    return m;
}

static void tick(animrt_runtime *rt, double t) { CHECK_OK(animrt_runtime_tick(rt, t)); }

static animrt_send_outcome send(animrt_runtime *rt, animrt_id m, const char *event, const char *payload) {
    animrt_send_outcome o = (animrt_send_outcome)-1;
    CHECK_OK(animrt_machine_send_json(rt, m, event, payload, &o));
    return o;
}

/* The active leaf state's full name (a static buffer), read through machine `machine`'s definition. */
static const char *state_name(animrt_runtime *rt, const char *machine, animrt_id m) {
    static char name[128];
    animrt_id def = 0;
    int32_t s = -1;
    animrt_definition_load_named(rt, machine, &def);
    animrt_machine_state(rt, m, &s);
    size_t needed = 0;
    if (animrt_definition_name(rt, def, ANIMRT_NAME_STATE, s, name, sizeof name, &needed) != ANIMRT_OK) name[0] = 0;
    animrt_definition_destroy(rt, def);
    return name;
}

static animrt_value context(animrt_runtime *rt, const char *machine, animrt_id m, const char *field, char *buf, size_t cap) {
    animrt_id def = 0;
    int32_t f = -1;
    animrt_value v = {0, 0, 0, 0, NULL, NULL};
    size_t needed = 0;
    animrt_definition_load_named(rt, machine, &def);
    CHECK_OK(animrt_definition_id(rt, def, ANIMRT_NAME_CONTEXT, field, &f));
    CHECK_OK(animrt_machine_get(rt, m, f, &v, buf, cap, &needed));
    animrt_definition_destroy(rt, def);
    return v;
}

static double number(animrt_runtime *rt, const char *machine, animrt_id m, const char *field) {
    return context(rt, machine, m, field, NULL, 0).number;
}

static int text_is(animrt_runtime *rt, const char *machine, animrt_id m, const char *field, const char *expected) {
    char buf[256];
    animrt_value v = context(rt, machine, m, field, buf, sizeof buf);
    return v.type == ANIMRT_TYPE_STRING && strcmp(v.string, expected) == 0;
}

/* Component `i` of the presentation (or model) value of `key_path` on part `part`. */
static double read_part(animrt_runtime *rt, animrt_id m, const char *part, const char *key_path, size_t i, int model) {
    animrt_id layer = 0;
    animrt_keypath kp = -1;
    double v[16] = {0};
    size_t n = 0;
    CHECK_OK(animrt_machine_part(rt, m, part, &layer));
    CHECK_OK(animrt_keypath_id(rt, key_path, &kp));
    if (model) CHECK_OK(animrt_layer_get_value(rt, layer, kp, v, 16, &n));
    else CHECK_OK(animrt_layer_get_presentation(rt, layer, kp, v, 16, &n));
    return v[i];
}
#define SHOWN(rt, m, part, kp) read_part(rt, m, part, kp, 0, 0)
#define MODEL(rt, m, part, kp) read_part(rt, m, part, kp, 0, 1)

static size_t animation_count(animrt_runtime *rt, animrt_id m, const char *part) {
    animrt_id layer = 0;
    size_t n = 99;
    CHECK_OK(animrt_machine_part(rt, m, part, &layer));
    CHECK_OK(animrt_layer_animation_count(rt, layer, &n));
    return n;
}

/* Drains the queue; returns how many events of `type` concern machine `m` (the last one's token in *token). */
static int count_events(animrt_runtime *rt, animrt_id m, int32_t type, uint64_t *token) {
    animrt_event ev[256];
    size_t n = 0;
    int count = 0;
    do {
        CHECK_OK(animrt_event_poll(rt, ev, 256, &n));
        for (size_t i = 0; i < n; i++) {
            if (ev[i].object == m && ev[i].type == type) { count++; if (token) *token = ev[i].token; }
        }
    } while (n == 256);
    return count;
}

static uint64_t last_request(animrt_runtime *rt, animrt_id m) {
    uint64_t token = 0;
    count_events(rt, m, ANIMRT_EVENT_MACHINE_REQUEST, &token);
    return token;
}

static void fetched(animrt_runtime *rt, animrt_id m, uint64_t request, double progress, animrt_send_outcome expected) {
    char payload[128];
    snprintf(payload, sizeof payload, "{\"request\": %llu, \"progress\": %.17g}", (unsigned long long)request, progress);
    CHECK(send(rt, m, "fetched", payload) == expected);
}

/* A progress card fetched and ready at `progress` (the runtime ticked to 0 first). */
static animrt_id ready_card(animrt_runtime *rt, double progress, const char *options) {
    animrt_id m = shipped(rt, "progressCard", options);
    send(rt, m, "fetch", NULL);
    fetched(rt, m, last_request(rt, m), progress, ANIMRT_SEND_TAKEN);
    return m;
}

#define STATE(m, kind) state_name(rt, kind, m)

/* ---- seed 000: the progress card --------------------------------------- */

TEST(stale_result_ignored) {  /* seed 000 §5.1, R3.2.2 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = shipped(rt, "progressCard", NULL);
    send(rt, m, "fetch", NULL);
    uint64_t first = last_request(rt, m);
    send(rt, m, "fetch", NULL);
    uint64_t second = last_request(rt, m);
    CHECK(second > first);
    fetched(rt, m, first, 0.9, ANIMRT_SEND_STALE);
    CHECK(strcmp(STATE(m, "progressCard"), "loading") == 0);
    uint64_t stale = 0;
    CHECK(count_events(rt, m, ANIMRT_EVENT_MACHINE_STALE, &stale) == 1 && stale == first);
    fetched(rt, m, second, 0.4, ANIMRT_SEND_TAKEN);
    CHECK(strcmp(STATE(m, "progressCard"), "ready") == 0);
    CHECK(number(rt, "progressCard", m, "progress") == 0.4);
    animrt_runtime_destroy(rt);
}

TEST(jitter_small_change_is_set) {  /* seed 000 §5.2, R3.2.5 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = ready_card(rt, 0.35, NULL);
    tick(rt, 0.1);
    CHECK(send(rt, m, "progress", "{\"progress\": 0.38}") == ANIMRT_SEND_TAKEN);
    CHECK(animation_count(rt, m, "ring") == 0);
    tick(rt, 0.2);
    CHECK(SHOWN(rt, m, "ring", "strokeEnd") == 0.38);
    CHECK(send(rt, m, "progress", "{\"progress\": 0.72}") == ANIMRT_SEND_TAKEN);
    CHECK(animation_count(rt, m, "ring") == 1);
    CHECK(MODEL(rt, m, "ring", "strokeEnd") == 0.72);
    tick(rt, 0.3);
    tick(rt, 0.55);
    CHECK_NEAR(SHOWN(rt, m, "ring", "strokeEnd"), 0.55, 1e-6);  /* halfway, from what was on screen */
    animrt_runtime_destroy(rt);
}

TEST(throttle_at_most_60_per_second) {  /* seed 000 §5.2, R3.2.5 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = ready_card(rt, 0.1, "{\"config\": {\"jitterThreshold\": 1}}");
    double shown = MODEL(rt, m, "ring", "strokeEnd"), last = 0, previous_change = -1;
    int changes = 0, spaced = 1, throttled = 0;
    for (int i = 1; i <= 2000; i++) {
        double t = i / 2000.0;
        tick(rt, t);
        last = 0.1 + 0.8 * i / 2000.0;
        char payload[64];
        snprintf(payload, sizeof payload, "{\"progress\": %.17g}", last);
        throttled += send(rt, m, "progress", payload) == ANIMRT_SEND_THROTTLED;
        double now = MODEL(rt, m, "ring", "strokeEnd");
        if (now != shown) {
            if (previous_change >= 0 && t - previous_change < 1.0 / 60 - 1e-9) spaced = 0;
            previous_change = t;
            shown = now;
            changes++;
        }
    }
    tick(rt, 1.1);
    tick(rt, 1.2);
    CHECK(changes <= 61 && changes >= 55);
    CHECK(spaced);
    CHECK(throttled > 1900);
    CHECK(MODEL(rt, m, "ring", "strokeEnd") == last);  /* the last value is always shown */
    CHECK(SHOWN(rt, m, "ring", "strokeEnd") == last);
    animrt_runtime_destroy(rt);
}

TEST(fill_then_celebrate) {  /* seed 000 §5.3, R3.2.3 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = ready_card(rt, 0.72, NULL);
    tick(rt, 1);
    send(rt, m, "fetch", NULL);
    fetched(rt, m, last_request(rt, m), 1, ANIMRT_SEND_TAKEN);
    CHECK(strcmp(STATE(m, "progressCard"), "filling") == 0);
    tick(rt, 1.1);
    tick(rt, 1.59);
    CHECK(strcmp(STATE(m, "progressCard"), "filling") == 0);
    CHECK(SHOWN(rt, m, "ring", "strokeEnd") < 1);
    tick(rt, 1.61);
    CHECK(strcmp(STATE(m, "progressCard"), "completed.celebrating") == 0);
    CHECK(SHOWN(rt, m, "ring", "strokeEnd") == 1);
    CHECK(context(rt, "progressCard", m, "celebrating", NULL, 0).boolean == 1);
    tick(rt, 4.62);
    CHECK(strcmp(STATE(m, "progressCard"), "completed.settled") == 0);
    CHECK(context(rt, "progressCard", m, "celebrating", NULL, 0).boolean == 0);
    animrt_runtime_destroy(rt);
}

TEST(no_timer_after_leaving_or_destroy) {  /* seed 000 §5.4, R3.2.4 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = ready_card(rt, 1, NULL);
    tick(rt, 0.1);
    tick(rt, 0.7);
    CHECK(strcmp(STATE(m, "progressCard"), "completed.celebrating") == 0);
    send(rt, m, "hide", NULL);
    count_events(rt, m, ANIMRT_EVENT_MACHINE_STATE, NULL);
    tick(rt, 100);
    CHECK(count_events(rt, m, ANIMRT_EVENT_MACHINE_STATE, NULL) == 0);  /* neither celebration nor auto-hide fired */
    CHECK(strcmp(STATE(m, "progressCard"), "hidden") == 0);
    animrt_id d = ready_card(rt, 1, NULL);
    tick(rt, 100.1);
    tick(rt, 100.7);
    CHECK_OK(animrt_machine_destroy(rt, d));
    count_events(rt, d, ANIMRT_EVENT_MACHINE_STATE, NULL);
    tick(rt, 1000);
    animrt_event ev[64];
    size_t n = 0;
    int of_d = 0;
    CHECK_OK(animrt_event_poll(rt, ev, 64, &n));
    for (size_t i = 0; i < n; i++) of_d += ev[i].object == d;
    CHECK(of_d == 0);
    CHECK_STATUS(animrt_machine_send_json(rt, d, "hide", NULL, NULL), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

TEST(refresh_policy) {  /* seed 000 §5.5, R3.2.6 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = ready_card(rt, 0.5, NULL);
    count_events(rt, m, ANIMRT_EVENT_MACHINE_REQUEST, NULL);
    tick(rt, 299);
    send(rt, m, "appear", NULL);
    CHECK(count_events(rt, m, ANIMRT_EVENT_MACHINE_REQUEST, NULL) == 0);  /* younger than 300 s: no fetch */
    CHECK(strcmp(STATE(m, "progressCard"), "ready") == 0);
    tick(rt, 300);
    send(rt, m, "appear", NULL);
    CHECK(count_events(rt, m, ANIMRT_EVENT_MACHINE_REQUEST, NULL) == 1);
    CHECK(strcmp(STATE(m, "progressCard"), "loading") == 0);
    /* A fetch runs: the data on its way is fresh, appear is ignored. */
    CHECK(send(rt, m, "appear", NULL) == ANIMRT_SEND_IGNORED);
    /* Completed is not ready: appear refreshes it at once. */
    send(rt, m, "fetch", NULL);
    fetched(rt, m, last_request(rt, m), 1, ANIMRT_SEND_TAKEN);
    tick(rt, 300.1);
    tick(rt, 300.7);
    CHECK(strcmp(STATE(m, "progressCard"), "completed.celebrating") == 0);
    count_events(rt, m, ANIMRT_EVENT_MACHINE_REQUEST, NULL);
    CHECK(send(rt, m, "appear", NULL) == ANIMRT_SEND_TAKEN);
    CHECK(count_events(rt, m, ANIMRT_EVENT_MACHINE_REQUEST, NULL) == 1);
    CHECK(strcmp(STATE(m, "progressCard"), "loading") == 0);
    animrt_runtime_destroy(rt);
}

TEST(disabled_and_nan) {  /* R3.2.2, R3.2.8 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = shipped(rt, "progressCard", NULL);
    send(rt, m, "fetch", "{\"eligible\": false, \"reason\": \"notLoggedIn\"}");
    CHECK(strcmp(STATE(m, "progressCard"), "disabled") == 0);
    CHECK(count_events(rt, m, ANIMRT_EVENT_MACHINE_REQUEST, NULL) == 0);
    CHECK(text_is(rt, "progressCard", m, "reason", "notLoggedIn"));
    animrt_id r = ready_card(rt, 0.5, NULL);
    animrt_id def = 0;
    int32_t progress = -1;
    CHECK_OK(animrt_definition_load_named(rt, "progressCard", &def));
    CHECK_OK(animrt_definition_id(rt, def, ANIMRT_NAME_EVENT, "progress", &progress));
    animrt_value nan_value = {ANIMRT_TYPE_NUMBER, 0, NAN, 0, NULL, NULL};
    CHECK_STATUS(animrt_machine_send(rt, r, progress, &nan_value, 1, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("is nan");
    CHECK(number(rt, "progressCard", r, "progress") == 0.5);
    animrt_value over = {ANIMRT_TYPE_NUMBER, 0, 7.5, 0, NULL, NULL};
    CHECK_OK(animrt_machine_send(rt, r, progress, &over, 1, NULL));  /* clamped to 1: the card fills */
    CHECK(strcmp(STATE(r, "progressCard"), "filling") == 0);
    animrt_runtime_destroy(rt);
}

/* ---- seed 001: the streak card ------------------------------------------ */

TEST(zero_shows_zero) {  /* seed 001, R3.3.3 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = shipped(rt, "streakCard", NULL);
    tick(rt, 0.1);
    CHECK(read_part(rt, m, "fill", "bounds", 2, 0) == 0);
    send(rt, m, "track", "{\"completedDays\": 3, \"remainingDays\": 4}");
    tick(rt, 0.2);
    CHECK(read_part(rt, m, "fill", "bounds", 2, 0) == 295 * (3.0 / 7));
    send(rt, m, "track", "{\"completedDays\": 0, \"remainingDays\": 7}");
    tick(rt, 0.3);
    CHECK(read_part(rt, m, "fill", "bounds", 2, 0) == 0);
    CHECK(text_is(rt, "streakCard", m, "title", "7 days to go"));
    send(rt, m, "infoTap", NULL);
    CHECK(count_events(rt, m, ANIMRT_EVENT_MACHINE_EMITTED, NULL) == 1);
    CHECK_STATUS(animrt_machine_send_json(rt, m, "unlockTap", NULL, NULL), ANIMRT_E_STATE);
    animrt_runtime_destroy(rt);
}

TEST(days_are_whole) {  /* R3.3.1: a count of days is a whole number */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = shipped(rt, "streakCard", NULL), def = 0;
    int32_t track = -1;
    CHECK_OK(animrt_definition_load_named(rt, "streakCard", &def));
    CHECK_OK(animrt_definition_id(rt, def, ANIMRT_NAME_EVENT, "track", &track));
    send(rt, m, "track", "{\"completedDays\": 1, \"remainingDays\": 6}");
    tick(rt, 0.1);
    count_events(rt, m, ANIMRT_EVENT_MACHINE_STATE, NULL);  /* drained */
    animrt_value days[2] = {{ANIMRT_TYPE_NUMBER, 0, 2.5, 0, NULL, NULL}, {ANIMRT_TYPE_NUMBER, 0, 1, 0, NULL, NULL}};
    CHECK_STATUS(animrt_machine_send(rt, m, track, days, 2, NULL), ANIMRT_E_RANGE);
    CHECK(strcmp(animrt_last_error_message(), "field 'completedDays' of 'track' is 2.5; it must be a whole number") == 0);
    CHECK_STATUS(animrt_machine_send_json(rt, m, "complete", "{\"completedDays\": 6.5}", NULL), ANIMRT_E_RANGE);
    CHECK(strcmp(animrt_last_error_message(), "field 'completedDays' of 'complete' is 6.5; it must be a whole number") == 0);
    tick(rt, 0.2);
    CHECK(count_events(rt, m, ANIMRT_EVENT_MACHINE_STATE, NULL) == 0);  /* the refusals changed nothing */
    CHECK(strcmp(STATE(m, "streakCard"), "tracking") == 0 && number(rt, "streakCard", m, "completedDays") == 1);
    days[0].number = 3;
    days[1] = (animrt_value){ANIMRT_TYPE_INTEGER, 0, 0, 4, NULL, NULL};
    CHECK_OK(animrt_machine_send(rt, m, track, days, 2, NULL));
    CHECK(number(rt, "streakCard", m, "completedDays") == 3 && text_is(rt, "streakCard", m, "title", "4 days to go"));
    animrt_definition_destroy(rt, def);
    animrt_runtime_destroy(rt);
}

/* ---- seed 002: the indicator bar ----------------------------------------- */

TEST(indicator_geometry) {  /* R3.4.1 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = shipped(rt, "indicatorBar", NULL);
    CHECK(MODEL(rt, m, "fill", "bounds.size.width") == 0 && text_is(rt, "indicatorBar", m, "label", "0%"));
    send(rt, m, "progress", "{\"fraction\": 0.3}");
    CHECK(MODEL(rt, m, "fill", "bounds.size.width") == 90);
    CHECK(MODEL(rt, m, "indicator", "position.x") == 70);
    CHECK(text_is(rt, "indicatorBar", m, "label", "30%"));
    send(rt, m, "unknown", NULL);
    CHECK(MODEL(rt, m, "fill", "bounds.size.width") == 0 && MODEL(rt, m, "indicator", "position.x") == -20);
    animrt_runtime_destroy(rt);
}

/* ---- seed 003: the network button ------------------------------------------ */

TEST(loading_waits_for_prepare_barrier) {  /* seed 003, R3.1.3 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = shipped(rt, "networkButton", NULL);
    CHECK(send(rt, m, "startAnimate", NULL) == ANIMRT_SEND_TAKEN);
    tick(rt, 0.1);
    tick(rt, 0.29);
    CHECK(strcmp(STATE(m, "networkButton"), "loading.preparing") == 0);
    CHECK(animation_count(rt, m, "arc[0]") == 0);
    tick(rt, 0.31);
    CHECK(strcmp(STATE(m, "networkButton"), "loading.spinning") == 0);
    CHECK(animation_count(rt, m, "arc[0]") == 2 && animation_count(rt, m, "arc[1]") == 2);
    /* The barrier, not a delay: stop the prepare animations early and the arcs spin at once. */
    animrt_id n = shipped(rt, "networkButton", NULL), button = 0, border = 0;
    send(rt, n, "startAnimate", NULL);
    tick(rt, 0.35);
    CHECK_OK(animrt_machine_part(rt, n, "button", &button));
    CHECK_OK(animrt_machine_part(rt, n, "border", &border));
    CHECK_OK(animrt_layer_remove_animation(rt, button, "shape", NULL));
    CHECK(strcmp(STATE(n, "networkButton"), "loading.preparing") == 0);
    CHECK_OK(animrt_layer_remove_animation(rt, border, "shape", NULL));
    CHECK(strcmp(STATE(n, "networkButton"), "loading.spinning") == 0);
    animrt_runtime_destroy(rt);
}

TEST(spinner_stops_from_presentation) {  /* seed 003, R3.1.3 */
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = shipped(rt, "networkButton", NULL);
    send(rt, m, "startAnimate", NULL);
    double t = 0;
    while (strcmp(STATE(m, "networkButton"), "loading.spinning") != 0 && t < 1) { t += 0.01; tick(rt, t); }
    t += 0.68;
    tick(rt, t);
    double before = SHOWN(rt, m, "arc[0]", "transform.rotation.z");
    CHECK(fabs(before) > 1);
    send(rt, m, "stopAnimate", NULL);
    tick(rt, t);  /* the same instant: no jump */
    CHECK(SHOWN(rt, m, "arc[0]", "transform.rotation.z") == before);
    double last = fabs(before);
    int monotonic = 1;
    for (int i = 1; i < 18; i++) {
        tick(rt, t + i / 60.0);
        double a = fabs(SHOWN(rt, m, "arc[0]", "transform.rotation.z"));
        monotonic &= a <= last + 1e-12 && last - a < fabs(before) / 4;
        last = a;
    }
    CHECK(monotonic);
    tick(rt, t + 0.31);
    CHECK(SHOWN(rt, m, "arc[0]", "transform.rotation.z") == 0);
    CHECK(strcmp(STATE(m, "networkButton"), "finishing.dotting") == 0);
    animrt_runtime_destroy(rt);
}

TEST(shipped_by_name_and_repeated_parts) {
    animrt_runtime *rt = rt_new();
    tick(rt, 0);
    animrt_id m = shipped(rt, "networkButton", "{\"config\": {\"linesCount\": 6}}"), layer = 0;
    size_t n = 0;
    CHECK_OK(animrt_machine_part_count(rt, m, "arc", &n));
    CHECK(n == 6);
    CHECK_OK(animrt_machine_part_count(rt, m, "button", &n));
    CHECK(n == 1);
    CHECK_OK(animrt_machine_part(rt, m, "arc[5]", &layer));
    CHECK(read_part(rt, m, "arc[5]", "strokeStart", 0, 1) == 5.0 / 6);
    CHECK_STATUS(animrt_machine_part(rt, m, "arc[6]", &layer), ANIMRT_E_RANGE);
    CHECK_MESSAGE("has 6 copies (0 to 5)");
    /* An index of more digits than any count is a copy past the last, too,
     * not a malformed name. */
    animrt_id before = layer;
    CHECK_STATUS(animrt_machine_part(rt, m, "arc[99999999999999999999]", &layer), ANIMRT_E_RANGE);
    CHECK(strcmp(animrt_last_error_message(), "'arc[99999999999999999999]': part 'arc' has 6 copies (0 to 5)") == 0);
    CHECK_STATUS(animrt_machine_part(rt, m, "arc[1000000000]", &layer), ANIMRT_E_RANGE);
    CHECK_MESSAGE("has 6 copies (0 to 5)");
    CHECK(layer == before);
    CHECK_STATUS(animrt_machine_part(rt, m, "arc[1x]", &layer), ANIMRT_E_INVALID);
    CHECK_MESSAGE("the copy index is a whole number");
    CHECK_STATUS(animrt_machine_part(rt, m, "arc", &layer), ANIMRT_E_INVALID);
    CHECK_MESSAGE("name one with its index, 'arc[0]'");
    CHECK_STATUS(animrt_machine_part_count(rt, m, "arcs", &n), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'arc'");
    CHECK_STATUS(animrt_machine_part_count(rt, m, NULL, &n), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_machine_part_count(rt, m, "arc", NULL), ANIMRT_E_NULL);
    animrt_id def = 0;
    CHECK_STATUS(animrt_definition_load_named(rt, "networkButon", &def), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'networkButton'");
    CHECK_STATUS(animrt_definition_register(rt, "streakCard", "{}"), ANIMRT_E_EXISTS);
    CHECK_MESSAGE("comes with animrt");
    CHECK_STATUS(animrt_machine_create(rt, 0, 0, NULL, &m), ANIMRT_E_HANDLE);
    CHECK_OK(animrt_definition_load_named(rt, "networkButton", &def));
    CHECK_STATUS(animrt_machine_create(rt, def, 0, "{\"config\": {\"linesCount\": 2.5}}", &m), ANIMRT_E_RANGE);
    /* The count is config.linesCount: the message gives the range it declares, not only the library's 0 to 4096. */
    CHECK(strcmp(animrt_last_error_message(), "part 'arc' would have 2.5 copies (config.linesCount); "
                 "a count is a whole number from 1 to 64 (config.linesCount declares 1 to 64)") == 0);
    /* One copy is "1 copy", in both messages that count them. */
    CHECK_OK(animrt_machine_create(rt, def, 0, "{\"config\": {\"linesCount\": 1}}", &m));
    CHECK_STATUS(animrt_machine_part(rt, m, "arc[1]", &layer), ANIMRT_E_RANGE);
    CHECK(strcmp(animrt_last_error_message(), "'arc[1]': part 'arc' has 1 copy (0 to 0)") == 0);
    CHECK_STATUS(animrt_machine_part(rt, m, "arc", &layer), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "'arc' is a repeated part with 1 copy; name one with its index, 'arc[0]'") == 0);
    animrt_runtime_destroy(rt);
}

TEST(computed_fields_and_config_refusals) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, m = 0, before = 0;
    CHECK_OK(animrt_definition_load(rt,
        "{\"name\": \"meter\", \"config\": {\"every\": {\"type\": \"number\", \"default\": 0.1}},"
        " \"context\": {\"done\": {\"type\": \"number\", \"initial\": 0},"
        "             \"inverse\": {\"type\": \"number\", \"computed\": \"1 / (context.done - 2)\"}},"
        " \"events\": {\"add\": {\"throttle\": \"config.every\"}}, \"initial\": \"a\","
        " \"states\": {\"a\": {\"on\": {\"add\": {\"actions\": [{\"assign\": {\"done\": \"context.done + 1\"}}]}}}}}", &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    int32_t inverse = -1;
    CHECK_OK(animrt_definition_id(rt, def, ANIMRT_NAME_CONTEXT, "inverse", &inverse));
    animrt_value v = {0, 0, 0, 0, NULL, NULL};
    CHECK_OK(animrt_machine_get(rt, m, inverse, &v, NULL, 0, NULL));
    CHECK(v.type == ANIMRT_TYPE_NUMBER && v.number == -0.5);
    tick(rt, 0);
    CHECK(send(rt, m, "add", NULL) == ANIMRT_SEND_TAKEN);
    CHECK(send(rt, m, "add", NULL) == ANIMRT_SEND_THROTTLED);
    tick(rt, 0.1);
    CHECK_STATUS(animrt_machine_get(rt, m, inverse, &v, NULL, 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("context.inverse computes to inf");
    CHECK(v.number == -0.5);  /* untouched */
    before = m;
    CHECK_STATUS(animrt_machine_create(rt, def, 0, "{\"config\": {\"every\": -1}}", &m), ANIMRT_E_RANGE);
    CHECK_MESSAGE("the throttle of 'add' is -1 s");
    CHECK(m == before);
    animrt_runtime_destroy(rt);
}

/* ---- snapshots of a session of each machine ------------------------------ */

/* Whether every layer of `ma` in `a` shows what the same layer of `mb` in `b` shows, bit for bit. */
static int same_layers(animrt_runtime *a, animrt_id ma, animrt_runtime *b, animrt_id mb, const char *machine) {
    static const char *key_paths[] = {"opacity", "bounds", "position", "transform", "strokeStart", "strokeEnd",
                                      "backgroundColor", "borderWidth", "borderColor"};
    animrt_id def = 0;
    size_t parts = 0;
    int same = 1;
    animrt_definition_load_named(a, machine, &def);
    animrt_definition_count(a, def, ANIMRT_NAME_PART, &parts);
    for (int32_t p = 0; p < (int32_t)parts; p++) {
        char name[128], copy[160];
        size_t needed = 0, copies = 0;
        animrt_definition_name(a, def, ANIMRT_NAME_PART, p, name, sizeof name, &needed);
        animrt_machine_part_count(a, ma, name, &copies);
        animrt_id probe = 0;
        int repeated = animrt_machine_part(a, ma, name, &probe) != ANIMRT_OK;
        for (size_t c = 0; c < copies; c++) {
            if (repeated) snprintf(copy, sizeof copy, "%s[%zu]", name, c);
            else snprintf(copy, sizeof copy, "%s", name);
            animrt_id la = 0, lb = 0;
            same &= animrt_machine_part(a, ma, copy, &la) == ANIMRT_OK && animrt_machine_part(b, mb, copy, &lb) == ANIMRT_OK;
            for (size_t k = 0; k < sizeof key_paths / sizeof *key_paths; k++) {
                animrt_keypath ka = -1, kb = -1;
                double va[16], vb[16];
                size_t na = 0, nb = 0;
                animrt_keypath_id(a, key_paths[k], &ka);
                animrt_keypath_id(b, key_paths[k], &kb);
                animrt_layer_get_presentation(a, la, ka, va, 16, &na);
                animrt_layer_get_presentation(b, lb, kb, vb, 16, &nb);
                same &= na == nb && memcmp(va, vb, na * sizeof *va) == 0;
            }
        }
    }
    animrt_definition_destroy(a, def);
    return same;
}

typedef struct { double t; const char *event; const char *payload; } step;

/* Runs `before` in runtime a, snapshots at the last step's time, restores
 * into a fresh runtime b ticked to that time, runs `after` in both and
 * compares every event and every layer after each step. */
static void session(const char *machine, const char *options, const step *before, size_t nb, const step *after, size_t na) {
    animrt_runtime *a = rt_new(), *b = rt_new();
    tick(a, 0);
    animrt_id ma = shipped(a, machine, options), mb = 0;
    double t = 0;
    for (size_t i = 0; i < nb; i++) {
        if (before[i].event) animrt_machine_send_json(a, ma, before[i].event, before[i].payload, NULL);
        else tick(a, t = before[i].t);
    }
    animrt_event ev[256], ew[256];
    size_t n = 0, m = 0;
    animrt_event_poll(a, ev, 256, &n);
    size_t needed = 0;
    CHECK_STATUS(animrt_machine_snapshot(a, ma, NULL, 0, &needed), ANIMRT_E_BUFFER);
    char *snapshot = malloc(needed);
    CHECK_OK(animrt_machine_snapshot(a, ma, snapshot, needed, &needed));
    tick(b, t);
    CHECK_OK(animrt_machine_restore(b, snapshot, 0, &mb));
    free(snapshot);
    int identical = same_layers(a, ma, b, mb, machine), events = 0;
    for (size_t i = 0; i < na; i++) {
        if (after[i].event) {
            animrt_status sa = animrt_machine_send_json(a, ma, after[i].event, after[i].payload, NULL);
            animrt_status sb = animrt_machine_send_json(b, mb, after[i].event, after[i].payload, NULL);
            identical &= sa == sb;
        } else {
            tick(a, after[i].t);
            tick(b, after[i].t);
        }
        animrt_event_poll(a, ev, 256, &n);
        animrt_event_poll(b, ew, 256, &m);
        identical &= n == m;
        for (size_t k = 0; k < n && k < m; k++) identical &= same_event(&ev[k], &ew[k]);
        events += (int)n;
        identical &= same_layers(a, ma, b, mb, machine);
    }
    if (!identical) fprintf(stderr, "%s: the restored copy differs\n", machine);
    CHECK(identical);
    CHECK(events > 0);
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(b);
}

#define STEPS(...) (const step[]){__VA_ARGS__}, sizeof (const step[]){__VA_ARGS__} / sizeof(step)
#define T(x) {x, NULL, NULL}

TEST(snapshot_of_each_session) {
    session("networkButton", "{\"config\": {\"linesCount\": 3}}",
            STEPS({0, "startAnimate", NULL}, T(0.1), T(0.3), T(0.35), T(0.734)),
            STEPS(T(0.8), {0, "stopAnimate", NULL}, T(0.9), T(1.15), T(1.3), T(1.4), T(1.6), T(1.9), T(2.2), T(2.5),
                  {0, "startAnimate", NULL}, T(2.6), T(2.9), {0, "stopByError", NULL}, T(3.5), T(4.5)));
    session("progressCard", NULL,
            STEPS({0, "fetch", NULL}, {0, "fetched", "{\"request\": 1, \"progress\": 0.35}"}, T(0.1),
                  {0, "progress", "{\"progress\": 0.38}"}, {0, "progress", "{\"progress\": 0.72}"}),
            STEPS(T(0.11), T(0.2), T(0.5), {0, "fetch", NULL}, {0, "fetch", NULL}, {0, "fetched", "{\"request\": 2, \"progress\": 0.9}"},
                  {0, "fetched", "{\"request\": 3, \"progress\": 1}"}, T(0.6), T(0.9), T(1.2), T(4.3), T(9.4), T(10)));
    session("streakCard", NULL,
            STEPS(T(1), {0, "track", "{\"completedDays\": 3, \"remainingDays\": 4}"}),
            STEPS({0, "infoTap", NULL}, T(2), {0, "complete", "{\"completedDays\": 7}"}, {0, "unlockTap", NULL}, T(3)));
    session("indicatorBar", NULL,
            STEPS(T(1), {0, "progress", "{\"fraction\": 0.42}"}),
            STEPS({0, "unknown", NULL}, T(2), {0, "progress", "{\"fraction\": 0.5}"}, T(3)));
}

/* Records the whole session (both halves) from a fresh runtime, then
 * replays the trace into another: every call succeeds again and leaves the
 * recorded event and presentation digests (R3.0.3). */
static void replayed(const char *machine, const char *options, const step *before, size_t nb, const step *after, size_t na) {
    char path[96];
    snprintf(path, sizeof path, "/tmp/animrt-%s-%ld.trace", machine, (long)getpid());
    animrt_runtime *a = rt_new();
    CHECK_OK(animrt_trace_start(a, path));
    tick(a, 0);
    animrt_id m = shipped(a, machine, options);
    for (int half = 0; half < 2; half++) {
        const step *s = half ? after : before;
        for (size_t i = 0; i < (half ? na : nb); i++) {
            if (s[i].event) animrt_machine_send_json(a, m, s[i].event, s[i].payload, NULL);
            else tick(a, s[i].t);
        }
    }
    CHECK_OK(animrt_trace_stop(a));
    animrt_runtime_destroy(a);
    animrt_runtime *b = rt_new();
    size_t calls = 0;
    CHECK_OK(animrt_trace_replay(b, path, &calls));
    CHECK(calls >= nb + na);
    animrt_runtime_destroy(b);
    remove(path);
}

TEST(replay_of_each_session) {
    replayed("networkButton", "{\"config\": {\"linesCount\": 3}}",
             STEPS({0, "startAnimate", NULL}, T(0.1), T(0.3), T(0.35), T(0.734)),
             STEPS(T(0.8), {0, "stopAnimate", NULL}, T(0.9), T(1.15), T(1.3), T(1.4), T(1.6), T(1.9), T(2.2), T(2.5),
                   {0, "startAnimate", NULL}, T(2.6), T(2.9), {0, "stopByError", NULL}, T(3.5), T(4.5)));
    replayed("progressCard", NULL,
             STEPS({0, "fetch", NULL}, {0, "fetched", "{\"request\": 1, \"progress\": 0.35}"}, T(0.1),
                   {0, "progress", "{\"progress\": 0.38}"}, {0, "progress", "{\"progress\": 0.72}"}),
             STEPS(T(0.11), T(0.2), T(0.5), {0, "fetch", NULL}, {0, "fetch", NULL}, {0, "fetched", "{\"request\": 2, \"progress\": 0.9}"},
                   {0, "fetched", "{\"request\": 3, \"progress\": 1}"}, T(0.6), T(0.9), T(1.2), T(4.3), T(9.4), T(10)));
    replayed("streakCard", NULL,
             STEPS(T(1), {0, "track", "{\"completedDays\": 3, \"remainingDays\": 4}"}),
             STEPS({0, "infoTap", NULL}, T(2), {0, "complete", "{\"completedDays\": 7}"}, {0, "unlockTap", NULL}, T(3)));
    replayed("indicatorBar", NULL,
             STEPS(T(1), {0, "progress", "{\"fraction\": 0.42}"}),
             STEPS({0, "unknown", NULL}, T(2), {0, "progress", "{\"fraction\": 0.5}"}, T(3)));
}

int main(void) {
    RUN(stale_result_ignored);
    RUN(jitter_small_change_is_set);
    RUN(throttle_at_most_60_per_second);
    RUN(fill_then_celebrate);
    RUN(no_timer_after_leaving_or_destroy);
    RUN(refresh_policy);
    RUN(disabled_and_nan);
    RUN(zero_shows_zero);
    RUN(days_are_whole);
    RUN(indicator_geometry);
    RUN(loading_waits_for_prepare_barrier);
    RUN(spinner_stops_from_presentation);
    RUN(shipped_by_name_and_repeated_parts);
    RUN(computed_fields_and_config_refusals);
    RUN(snapshot_of_each_session);
    RUN(replay_of_each_session);
    return check_report();
}
