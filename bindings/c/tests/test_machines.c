/* State machines through the C ABI (SPEC §3, R4.3): loading definitions
 * and their errors, names and ids, creating, sending with tagged values and
 * JSON, context reads, parts, events with payloads (poll and callback),
 * stale results, exports, and every bad input with nothing changed. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "scene.h"

static const char *CARD =
    "{\"name\": \"card\","
    " \"config\": {\"jitter\": {\"type\": \"number\", \"default\": 0.05, \"min\": 0, \"max\": 1}},"
    " \"context\": {\"progress\": {\"type\": \"number\", \"initial\": 0}, \"title\": {\"type\": \"string\", \"initial\": \"'hidden'\"},"
    "             \"shown\": {\"type\": \"bool\", \"initial\": false}},"
    " \"requests\": {\"fetch\": {}},"
    " \"events\": {\"appear\": {}, \"result\": {\"resultOf\": \"fetch\", \"payload\": ["
    "                 {\"name\": \"progress\", \"type\": \"number\", \"min\": 0, \"max\": 1, \"clamp\": true},"
    "                 {\"name\": \"hint\", \"type\": \"string\", \"default\": \"\"}]},"
    "             \"hide\": {}},"
    " \"emits\": {\"celebrate\": {\"payload\": [{\"name\": \"message\", \"type\": \"string\"}]}},"
    " \"parts\": [{\"name\": \"ring\", \"properties\": {\"strokeEnd\": 0}}],"
    " \"animations\": {\"fill\": {\"type\": \"basic\", \"keyPath\": \"strokeEnd\", \"to\": \"context.progress\", \"duration\": 0.5}},"
    " \"initial\": \"hidden\","
    " \"states\": {"
    "   \"hidden\": {\"on\": {\"appear\": \"loading\"}, \"ignore\": [\"hide\"]},"
    "   \"loading\": {\"entry\": [{\"request\": \"fetch\"}],"
    "                \"on\": {\"result\": {\"target\": \"ready\", \"actions\": [{\"assign\": {\"progress\": \"event.progress\","
    "                          \"title\": \"event.hint == '' ? fixed(event.progress * 100, 0) + '%' : event.hint\", \"shown\": true}}]}}},"
    "   \"ready\": {\"values\": [\"progress\", \"title\"],"
    "              \"entry\": [{\"animate\": \"fill\", \"part\": \"ring\", \"key\": \"fill\"}, {\"emit\": \"celebrate\", \"payload\": {\"message\": \"context.title\"}}],"
    "              \"on\": {\"hide\": \"hidden\", \"appear\": \"loading\"}}"
    " }}";

static int32_t id_of(animrt_runtime *rt, animrt_id def, animrt_name_kind kind, const char *name) {
    int32_t id = -1;
    animrt_definition_id(rt, def, kind, name, &id);
    return id;
}

static animrt_value number(double d) { animrt_value v = {ANIMRT_TYPE_NUMBER, 0, d, 0, NULL, NULL}; return v; }
static animrt_value text(const char *s) { animrt_value v = {ANIMRT_TYPE_STRING, 0, 0, 0, s, NULL}; return v; }

static size_t drain(animrt_runtime *rt, animrt_event *ev, size_t cap) {
    size_t n = 0;
    animrt_event_poll(rt, ev, cap, &n);
    return n;
}

/* A machine's own handle names its definition's ids, even once the
 * definition handle is destroyed: an event's machine handle is enough. */
TEST(names_through_the_machine) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, m = 0, layer = 0;
    CHECK_OK(animrt_definition_load(rt, CARD, &def));
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_machine_create(rt, def, layer, NULL, &m));
    CHECK_OK(animrt_definition_destroy(rt, def));
    CHECK_STATUS(animrt_definition_count(rt, def, ANIMRT_NAME_STATE, &(size_t){0}), ANIMRT_E_HANDLE);
    size_t n = 0, needed = 0;
    char buf[64];
    int32_t state = -1, id = -1;
    CHECK_OK(animrt_definition_count(rt, m, ANIMRT_NAME_STATE, &n));
    CHECK(n == 3);
    CHECK_OK(animrt_machine_state(rt, m, &state));
    CHECK_OK(animrt_definition_name(rt, m, ANIMRT_NAME_STATE, state, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "hidden") == 0);
    /* Six bytes and no room for the NUL: refused, nothing written, not even past the end. */
    memset(buf, 'x', sizeof buf);
    CHECK_STATUS(animrt_definition_name(rt, m, ANIMRT_NAME_STATE, state, buf, 6, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 7 && buf[0] == 'x' && buf[6] == 'x');
    CHECK_OK(animrt_definition_name(rt, m, ANIMRT_NAME_STATE, state, buf, 7, &needed));
    CHECK(strcmp(buf, "hidden") == 0 && buf[7] == 'x');
    CHECK_OK(animrt_definition_id(rt, m, ANIMRT_NAME_EVENT, "appear", &id));
    CHECK_OK(animrt_definition_field_count(rt, m, ANIMRT_NAME_EVENT, id_of(rt, m, ANIMRT_NAME_EVENT, "result"), &n));
    CHECK(n == 3);
    CHECK_STATUS(animrt_definition_export(rt, m, ANIMRT_EXPORT_DOT, NULL, 0, &needed), ANIMRT_E_BUFFER);
    CHECK(needed > 100);  /* the whole picture, sized */
    CHECK_STATUS(animrt_definition_count(rt, layer, ANIMRT_NAME_STATE, &n), ANIMRT_E_HANDLE);  /* neither */
    CHECK_OK(animrt_machine_destroy(rt, m));
    CHECK_STATUS(animrt_definition_name(rt, m, ANIMRT_NAME_STATE, 0, buf, sizeof buf, &needed), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

TEST(load_and_names) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0;
    CHECK_OK(animrt_definition_load(rt, CARD, &def));
    CHECK(def != 0);
    size_t n = 0;
    CHECK_OK(animrt_definition_count(rt, def, ANIMRT_NAME_STATE, &n));
    CHECK(n == 3);
    CHECK_OK(animrt_definition_count(rt, def, ANIMRT_NAME_EVENT, &n));
    CHECK(n == 4); /* appear, hide, result, error.execution */
    CHECK(id_of(rt, def, ANIMRT_NAME_STATE, "ready") == 2);
    char buf[64];
    size_t needed = 0;
    CHECK_OK(animrt_definition_name(rt, def, ANIMRT_NAME_STATE, 1, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "loading") == 0 && needed == 8);
    CHECK_STATUS(animrt_definition_name(rt, def, ANIMRT_NAME_STATE, 1, buf, 4, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 8);
    CHECK_STATUS(animrt_definition_name(rt, def, ANIMRT_NAME_STATE, 3, buf, sizeof buf, &needed), ANIMRT_E_RANGE);
    CHECK_MESSAGE("state id 3 is out of range (0 to 2): 'card' has 3 states");
    /* A kind the definition has none of: said so, not as a range "0 to -1". */
    animrt_id bare = 0;
    CHECK_OK(animrt_definition_load(rt, "{\"name\": \"bare\", \"initial\": \"a\", \"states\": {\"a\": {}}}", &bare));
    CHECK_OK(animrt_definition_count(rt, bare, ANIMRT_NAME_REQUEST, &n));
    CHECK(n == 0);
    strcpy(buf, "untouched");
    needed = 99;
    CHECK_STATUS(animrt_definition_name(rt, bare, ANIMRT_NAME_REQUEST, 0, buf, sizeof buf, &needed), ANIMRT_E_RANGE);
    CHECK_MESSAGE("request id 0 is out of range: 'bare' has no requests");
    CHECK(strstr(animrt_last_error_message(), "-1") == NULL);
    CHECK(strcmp(buf, "untouched") == 0 && needed == 99);
    CHECK_STATUS(animrt_definition_name(rt, bare, ANIMRT_NAME_CONFIG, 0, buf, sizeof buf, &needed), ANIMRT_E_RANGE);
    CHECK_MESSAGE("config parameter id 0 is out of range: 'bare' has no config parameters");
    n = 5;
    CHECK_STATUS(animrt_definition_field_count(rt, bare, ANIMRT_NAME_EMIT, 0, &n), ANIMRT_E_RANGE);
    CHECK_MESSAGE("emitted event id 0 is out of range: 'bare' has no emitted events");
    CHECK(n == 5);
    int32_t id = 77;
    CHECK_STATUS(animrt_definition_id(rt, def, ANIMRT_NAME_EVENT, "apear", &id), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'appear'");
    CHECK(id == 77);
    /* A name nothing is close to is answered with the names there are (the events a host sends), or
       with there being none, as a send's message is. */
    CHECK_STATUS(animrt_definition_id(rt, def, ANIMRT_NAME_EVENT, "nope", &id), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'card' has no event named 'nope' (events: appear, hide, result)") == 0);
    CHECK_STATUS(animrt_definition_id(rt, bare, ANIMRT_NAME_REQUEST, "fetch", &id), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'bare' has no request named 'fetch'; it has no requests") == 0);
    CHECK(id == 77);
    /* A nested state given by the last parts of its name: its full names, not the list of states. */
    animrt_id nested = 0;
    CHECK_OK(animrt_definition_load(rt, "{\"name\": \"nested\", \"initial\": \"a\", \"states\": {"
                                        "\"a\": {\"initial\": \"x\", \"states\": {\"x\": {}, \"done\": {}}},"
                                        "\"b\": {\"initial\": \"done\", \"states\": {\"done\": {}}},"
                                        "\"c\": {\"initial\": \"p\", \"states\": {\"p\": {\"initial\": \"x\", \"states\": {\"x\": {}}}}}}}",
                                   &nested));
    CHECK_STATUS(animrt_definition_id(rt, nested, ANIMRT_NAME_STATE, "done", &id), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'nested' has no state named 'done'; states are named in full from the "
                                              "top: did you mean 'a.done' or 'b.done'?") == 0);
    CHECK_STATUS(animrt_definition_id(rt, nested, ANIMRT_NAME_STATE, "p.x", &id), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'nested' has no state named 'p.x'; states are named in full from the "
                                              "top: did you mean 'c.p.x'?") == 0);
    /* Only whole parts count: 'one' does not end 'a.done'. */
    CHECK_STATUS(animrt_definition_id(rt, nested, ANIMRT_NAME_STATE, "one", &id), ANIMRT_E_NOT_FOUND);
    CHECK(strstr(animrt_last_error_message(), "in full") == NULL);
    CHECK(id == 77);
    CHECK_STATUS(animrt_definition_id(rt, def, (animrt_name_kind)9, "appear", &id), ANIMRT_E_ENUM);
    CHECK(id_of(rt, def, ANIMRT_NAME_CONTEXT, "title") == 2);
    CHECK(id_of(rt, def, ANIMRT_NAME_EMIT, "celebrate") == 0);
    CHECK(id_of(rt, def, ANIMRT_NAME_REQUEST, "fetch") == 0);
    CHECK(id_of(rt, def, ANIMRT_NAME_PART, "ring") == 0);
    CHECK(id_of(rt, def, ANIMRT_NAME_CONFIG, "jitter") == 0);
    /* Fields: payloads in order (a result's first is its request id), a state's associated values. */
    CHECK_OK(animrt_definition_field_count(rt, def, ANIMRT_NAME_EVENT, id_of(rt, def, ANIMRT_NAME_EVENT, "result"), &n));
    CHECK(n == 3);
    CHECK_OK(animrt_definition_field_name(rt, def, ANIMRT_NAME_EVENT, id_of(rt, def, ANIMRT_NAME_EVENT, "result"), 0, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "request") == 0);
    CHECK_OK(animrt_definition_field_name(rt, def, ANIMRT_NAME_EVENT, id_of(rt, def, ANIMRT_NAME_EVENT, "result"), 2, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "hint") == 0);
    CHECK_OK(animrt_definition_field_count(rt, def, ANIMRT_NAME_STATE, id_of(rt, def, ANIMRT_NAME_STATE, "ready"), &n));
    CHECK(n == 2);
    CHECK_OK(animrt_definition_field_name(rt, def, ANIMRT_NAME_STATE, id_of(rt, def, ANIMRT_NAME_STATE, "ready"), 1, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "title") == 0);
    CHECK_OK(animrt_definition_field_count(rt, def, ANIMRT_NAME_EMIT, 0, &n));
    CHECK(n == 1);
    CHECK_OK(animrt_definition_field_count(rt, def, ANIMRT_NAME_REQUEST, 0, &n));
    CHECK(n == 0);
    CHECK_STATUS(animrt_definition_field_name(rt, def, ANIMRT_NAME_EMIT, 0, 1, buf, sizeof buf, &needed), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_definition_field_count(rt, def, ANIMRT_NAME_EVENT, 4, &n), ANIMRT_E_RANGE);
    CHECK_MESSAGE("event id 4 is out of range (0 to 3)");
    CHECK_STATUS(animrt_definition_field_count(rt, def, ANIMRT_NAME_PART, 0, &n), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_definition_field_count(rt, def, (animrt_name_kind)42, 0, &n), ANIMRT_E_ENUM);
    CHECK_STATUS(animrt_definition_field_count(rt, def, ANIMRT_NAME_EMIT, 0, NULL), ANIMRT_E_NULL);
    /* Exports: the buffer rules, then the texts. */
    CHECK_STATUS(animrt_definition_export(rt, def, ANIMRT_EXPORT_DOT, NULL, 0, &needed), ANIMRT_E_BUFFER);
    char *dot = malloc(needed);
    CHECK_OK(animrt_definition_export(rt, def, ANIMRT_EXPORT_DOT, dot, needed, &needed));
    CHECK(strstr(dot, "digraph \"card\"") != NULL && strstr(dot, "\"hidden\" -> \"loading\" [label=\"appear\"]") != NULL);
    free(dot);
    CHECK_STATUS(animrt_definition_export(rt, def, ANIMRT_EXPORT_MARKDOWN, NULL, 0, &needed), ANIMRT_E_BUFFER);
    char *md = malloc(needed);
    CHECK_OK(animrt_definition_export(rt, def, ANIMRT_EXPORT_MARKDOWN, md, needed, &needed));
    CHECK(strstr(md, "| `hidden` | → `loading` | *ignored* | *refused* |") != NULL);
    free(md);
    CHECK_STATUS(animrt_definition_export(rt, def, (animrt_export_format)5, buf, sizeof buf, &needed), ANIMRT_E_ENUM);
    CHECK_OK(animrt_definition_destroy(rt, def));
    CHECK_STATUS(animrt_definition_destroy(rt, def), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

TEST(load_errors) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 42;
    CHECK_STATUS(animrt_definition_load(rt, "{\"name\": \"x\", \"initial\": \"a\", \"states\": {\"a\": {\"on\": {\"go\": \"b\"}}}}", &def), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("states.a.on.go: 'go' is not a declared event");
    CHECK_STATUS(animrt_definition_load(rt, "{\"name\": \"x\", \"context\": {\"n\": {\"type\": \"number\", \"initial\": 0}}, \"events\": {\"go\": {}},"
                                            " \"initial\": \"a\", \"states\": {\"a\": {\"on\": {\"go\": {\"guard\": \"context.n + 'x'\"}}}}}", &def), ANIMRT_E_KIND);
    CHECK_MESSAGE("states.a.on.go.guard: column 13");
    /* XState's form of `after`, a map from delays to targets, gets the form this format takes. */
    CHECK_STATUS(animrt_definition_load(rt, "{\"name\": \"x\", \"initial\": \"a\", \"states\": {\"a\": {\"after\": {\"2\": \"b\"}},"
                                            " \"b\": {}}}", &def), ANIMRT_E_INVALID);
    CHECK_MESSAGE("states.a.after: an 'after' timer is an object {\"delay\": seconds, \"target\": state} (a list of them for "
                  "several), not a map from delays to targets: write [{\"delay\": 2, \"target\": …}], the delay in seconds");
    CHECK_STATUS(animrt_definition_load(rt, "{\"name\": ", &def), ANIMRT_E_INVALID);
    CHECK_MESSAGE("malformed");
    /* A value of the wrong length: the verb agrees with the count given. */
    CHECK_STATUS(animrt_definition_load(rt, "{\"name\": \"x\", \"parts\": [{\"name\": \"p\", \"properties\": {\"position\": [1]}}],"
                                            " \"initial\": \"a\", \"states\": {\"a\": {}}}", &def), ANIMRT_E_KIND);
    CHECK(strcmp(animrt_last_error_message(), "parts[0].properties.position: a point has 2 components; 1 is given") == 0);
    CHECK_STATUS(animrt_definition_load(rt, "{\"name\": \"x\", \"parts\": [{\"name\": \"p\", \"properties\": {\"position\": [1, 2, 3]}}],"
                                            " \"initial\": \"a\", \"states\": {\"a\": {}}}", &def), ANIMRT_E_KIND);
    CHECK_MESSAGE("a point has 2 components; 3 are given");
    CHECK_STATUS(animrt_definition_load(rt, NULL, &def), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_definition_load(rt, CARD, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_definition_load(rt, "\xff", &def), ANIMRT_E_INVALID);
    /* JSON may write a NUL (\u0000), but no C string can carry it: refused, placed. */
    CHECK_STATUS(animrt_definition_load(rt, "{\"name\": \"x\\u0000y\", \"initial\": \"a\", \"states\": {\"a\": {}}}", &def),
                 ANIMRT_E_INVALID);
    CHECK_MESSAGE("the JSON is refused at line 1, column 12: \\u0000 in a string: a NUL ends a C string");
    /* Half a surrogate pair is not text: the decoder refuses it, the message places it. */
    CHECK_STATUS(animrt_definition_load(rt, "{\"name\": \"x\\ud83dy\", \"initial\": \"a\", \"states\": {\"a\": {}}}", &def),
                 ANIMRT_E_INVALID);
    CHECK_MESSAGE("the JSON is malformed at line 1, column 12: a lone surrogate \\ud83d in a string");
    CHECK_OK(animrt_definition_load(rt, "{\"name\": \"x\", \"context\": {\"s\": {\"type\": \"string\", \"initial\": \"'\\ud83d\\ude00'\"}},"
                                        " \"initial\": \"a\", \"states\": {\"a\": {}}}", &def));
    CHECK_OK(animrt_definition_destroy(rt, def));
    def = 42;
    CHECK_STATUS(animrt_definition_load_file(rt, "/nonexistent/card.json", &def), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("cannot read the definition file '/nonexistent/card.json': No such file or directory");
    CHECK(strstr(animrt_last_error_message(), "working directory") == NULL);  /* an absolute path says no more */
    {   /* A relative path is looked for from the working directory, which the message names. */
        char cwd[4096], expected[4096 + 160];
        CHECK(getcwd(cwd, sizeof cwd) != NULL);
        snprintf(expected, sizeof expected, "cannot read the definition file 'no/such/card.json': No such file or "
                 "directory (a relative path, looked for in the working directory '%s')", cwd);
        CHECK_STATUS(animrt_definition_load_file(rt, "no/such/card.json", &def), ANIMRT_E_NOT_FOUND);
        CHECK(strcmp(animrt_last_error_message(), expected) == 0);
    }
    CHECK_STATUS(animrt_definition_load_file(rt, "/", &def), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("cannot read the definition file '/': it is a directory");
    CHECK_STATUS(animrt_definition_load_file(rt, "/dev/zero", &def), ANIMRT_E_NOT_FOUND);  /* never read: it has no end */
    CHECK_MESSAGE("cannot read the definition file '/dev/zero': it is not a regular file");
    CHECK_STATUS(animrt_definition_load_named(rt, "crd", &def), ANIMRT_E_NOT_FOUND);
    CHECK(def == 42);
    CHECK_OK(animrt_definition_register(rt, "card", CARD));
    CHECK_STATUS(animrt_definition_register(rt, "card", CARD), ANIMRT_E_EXISTS);
    /* Registered names are written as a definition's own name is; nothing is registered otherwise. */
    static const char *bad_names[] = {"", "bad name", "2cards", "carte-\xc3\xa9", "card\n"};
    for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
        CHECK_STATUS(animrt_definition_register(rt, bad_names[i], CARD), ANIMRT_E_INVALID);
        CHECK_MESSAGE("ASCII letters, digits and '_', not starting with a digit");
        CHECK_STATUS(animrt_definition_load_named(rt, bad_names[i], &def), ANIMRT_E_NOT_FOUND);
    }
    char long_name[130];
    memset(long_name, 'a', 129);
    long_name[129] = 0;
    CHECK_STATUS(animrt_definition_register(rt, long_name, CARD), ANIMRT_E_INVALID);
    CHECK_MESSAGE("a name of 129 bytes is not one");
    long_name[128] = 0;
    CHECK_OK(animrt_definition_register(rt, long_name, CARD));  /* 128: at the limit */
    CHECK_OK(animrt_definition_register(rt, "card_2", CARD));
    CHECK_STATUS(animrt_definition_load_named(rt, "crd", &def), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'card'");
    CHECK_OK(animrt_definition_load_named(rt, "card", &def));
    CHECK(def != 42);
    CHECK_STATUS(animrt_definition_load(NULL, CARD, &def), ANIMRT_E_NULL);
    animrt_runtime_destroy(rt);
}

TEST(run_a_card) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, m = 0, ring = 0;
    CHECK_OK(animrt_definition_load(rt, CARD, &def));
    CHECK_OK(animrt_runtime_tick(rt, 1));
    CHECK_OK(animrt_machine_create(rt, def, 0, "{\"config\": {\"jitter\": 0.1}}", &m));
    CHECK_OK(animrt_machine_part(rt, m, "ring", &ring));
    int32_t state = -1, active = 0;
    CHECK_OK(animrt_machine_state(rt, m, &state));
    CHECK(state == id_of(rt, def, ANIMRT_NAME_STATE, "hidden"));
    animrt_event ev[16];
    size_t n = drain(rt, ev, 16);
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_MACHINE_STATE && ev[0].object == m && ev[0].from_state == -1 && ev[0].to_state == state);
    animrt_send_outcome outcome = ANIMRT_SEND_QUEUED;
    int32_t appear = id_of(rt, def, ANIMRT_NAME_EVENT, "appear"), result = id_of(rt, def, ANIMRT_NAME_EVENT, "result");
    /* A result before any request of its operation: stale (no id is the latest), reported, nothing changes. */
    animrt_value early[2] = {number(1), number(0.5)};
    CHECK_OK(animrt_machine_send(rt, m, result, early, 2, &outcome));
    CHECK(outcome == ANIMRT_SEND_STALE);
    n = drain(rt, ev, 16);
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_MACHINE_STALE && ev[0].token == 1 && ev[0].name == result);
    CHECK_OK(animrt_machine_state(rt, m, &state));
    CHECK(state == id_of(rt, def, ANIMRT_NAME_STATE, "hidden"));
    CHECK_OK(animrt_machine_send(rt, m, appear, NULL, 0, &outcome));
    CHECK(outcome == ANIMRT_SEND_TAKEN);
    n = drain(rt, ev, 16);
    CHECK(n == 2);
    CHECK(ev[0].type == ANIMRT_EVENT_MACHINE_STATE && ev[0].to_state == id_of(rt, def, ANIMRT_NAME_STATE, "loading"));
    CHECK(ev[0].name == -1);  /* a state change does not name the event that caused it, as the header says */
    CHECK(ev[1].type == ANIMRT_EVENT_MACHINE_REQUEST && ev[1].token == 1 && ev[1].name == 0 && ev[1].payload_count == 0);
    /* An event the state does not take is refused, naming what it accepts. */
    CHECK_STATUS(animrt_machine_send_json(rt, m, "hide", NULL, &outcome), ANIMRT_E_STATE);
    CHECK_MESSAGE("'hide' is not accepted in state 'loading' (it accepts 'result'");
    /* A stale result: reported with what was sent, not processed. */
    animrt_value stale[2] = {number(7), number(0.5)};
    CHECK_OK(animrt_machine_send(rt, m, result, stale, 2, &outcome));
    CHECK(outcome == ANIMRT_SEND_STALE);
    n = drain(rt, ev, 16);
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_MACHINE_STALE && ev[0].token == 7 && ev[0].payload_count == 3);
    /* The request number is a whole number: an integer, its double beside it. */
    CHECK(ev[0].payload[0].type == ANIMRT_TYPE_INTEGER && ev[0].payload[0].integer == 7 && ev[0].payload[0].number == 7);
    CHECK(ev[0].payload[1].type == ANIMRT_TYPE_NUMBER && ev[0].payload[1].number == 0.5);
    CHECK(ev[0].payload[2].type == ANIMRT_TYPE_STRING && strcmp(ev[0].payload[2].string, "") == 0);
    /* The fresh result: clamped, with the title computed. */
    animrt_value fresh[2] = {number(1), number(0.724)};
    CHECK_OK(animrt_machine_send(rt, m, result, fresh, 2, &outcome));
    CHECK(outcome == ANIMRT_SEND_TAKEN);
    CHECK_OK(animrt_machine_in_state(rt, m, id_of(rt, def, ANIMRT_NAME_STATE, "ready"), &active));
    CHECK(active == 1);
    /* The state it left, and one it never entered, are not active. */
    active = 7;
    CHECK_OK(animrt_machine_in_state(rt, m, id_of(rt, def, ANIMRT_NAME_STATE, "loading"), &active));
    CHECK(active == 0);
    active = 7;
    CHECK_OK(animrt_machine_in_state(rt, m, id_of(rt, def, ANIMRT_NAME_STATE, "hidden"), &active));
    CHECK(active == 0);
    n = drain(rt, ev, 16);
    CHECK(n == 2);
    CHECK(ev[0].type == ANIMRT_EVENT_MACHINE_STATE && ev[0].payload_count == 2);
    CHECK(ev[0].payload[0].number == 0.724 && strcmp(ev[0].payload[1].string, "72%") == 0);
    CHECK(ev[1].type == ANIMRT_EVENT_MACHINE_EMITTED && ev[1].payload_count == 1 && strcmp(ev[1].payload[0].string, "72%") == 0);
    /* Context reads. */
    animrt_value v;
    char buf[16];
    size_t needed = 0;
    CHECK_OK(animrt_machine_get(rt, m, id_of(rt, def, ANIMRT_NAME_CONTEXT, "progress"), &v, NULL, 0, NULL));
    CHECK(v.type == ANIMRT_TYPE_NUMBER && v.number == 0.724);
    CHECK_OK(animrt_machine_get(rt, m, id_of(rt, def, ANIMRT_NAME_CONTEXT, "shown"), &v, NULL, 0, NULL));
    CHECK(v.type == ANIMRT_TYPE_BOOL && v.boolean == 1);
    CHECK_STATUS(animrt_machine_get(rt, m, id_of(rt, def, ANIMRT_NAME_CONTEXT, "title"), &v, buf, 2, &needed), ANIMRT_E_BUFFER);
    CHECK(needed == 4);
    CHECK_OK(animrt_machine_get(rt, m, id_of(rt, def, ANIMRT_NAME_CONTEXT, "title"), &v, buf, sizeof buf, &needed));
    CHECK(v.type == ANIMRT_TYPE_STRING && v.string == buf && strcmp(buf, "72%") == 0);
    /* The fill animation on the part, read like any layer. */
    animrt_keypath stroke = -1;
    animrt_keypath_id(rt, "strokeEnd", &stroke);
    CHECK_OK(animrt_runtime_tick(rt, 2));
    CHECK_OK(animrt_runtime_tick(rt, 2.25));
    double s = -1;
    CHECK_OK(animrt_layer_get_presentation(rt, ring, stroke, &s, 1, &n));
    CHECK_NEAR(s, 0.362, 1e-12);
    drain(rt, ev, 16);
    /* JSON sends; refusals change nothing. */
    CHECK_OK(animrt_machine_send_json(rt, m, "hide", NULL, &outcome));
    CHECK(outcome == ANIMRT_SEND_TAKEN);
    CHECK_OK(animrt_machine_send_json(rt, m, "hide", "{}", &outcome));
    CHECK(outcome == ANIMRT_SEND_IGNORED);
    CHECK_STATUS(animrt_machine_send_json(rt, m, "result", "{\"request\": 1, \"progres\": 1}", &outcome), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'progress'");
    CHECK_OK(animrt_machine_send(rt, m, result, fresh, 2, &outcome));
    CHECK(outcome == ANIMRT_SEND_STALE);  /* request 1 was answered already */
    CHECK_OK(animrt_machine_state(rt, m, &state));
    CHECK(state == id_of(rt, def, ANIMRT_NAME_STATE, "hidden"));
    n = drain(rt, ev, 16);  /* ready → hidden and the stale report; the fill runs on (states do not own animations) */
    CHECK(n == 2 && ev[0].type == ANIMRT_EVENT_MACHINE_STATE && ev[1].type == ANIMRT_EVENT_MACHINE_STALE);
    CHECK_OK(animrt_machine_destroy(rt, m));
    CHECK_STATUS(animrt_machine_destroy(rt, m), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_get_presentation(rt, ring, stroke, &s, 1, &n), ANIMRT_E_HANDLE);
    animrt_runtime_destroy(rt);
}

TEST(bad_sends) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, m = 0;
    CHECK_OK(animrt_definition_load(rt, CARD, &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    int32_t appear = id_of(rt, def, ANIMRT_NAME_EVENT, "appear"), result = id_of(rt, def, ANIMRT_NAME_EVENT, "result");
    CHECK_OK(animrt_machine_send(rt, m, appear, NULL, 0, NULL));
    animrt_event ev[8];
    drain(rt, ev, 8);
    animrt_value bad[3] = {number(1), text("0.5"), text("x")};
    CHECK_STATUS(animrt_machine_send(rt, m, result, bad, 2, NULL), ANIMRT_E_KIND);
    CHECK_MESSAGE("field 'progress' of 'result' is a number; a string was given");
    bad[1] = number(NAN);
    CHECK_STATUS(animrt_machine_send(rt, m, result, bad, 2, NULL), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_machine_send(rt, m, result, bad, 3, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("field 'progress' of 'result' is nan; it must be a finite number");
    animrt_value four[4] = {number(1), number(0.5), text(""), number(0)};
    CHECK_STATUS(animrt_machine_send(rt, m, result, four, 4, NULL), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "'result' has 3 payload fields; 4 values were given") == 0);
    CHECK_STATUS(animrt_machine_send(rt, m, result, bad, 1, NULL), ANIMRT_E_INVALID);
    CHECK(strcmp(animrt_last_error_message(), "'result' needs its field 'progress' (field 1); 1 value was given") == 0);
    CHECK_STATUS(animrt_machine_send(rt, m, result, NULL, 2, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_machine_send(rt, m, result, bad, SIZE_MAX, NULL), ANIMRT_E_RANGE);
    animrt_value weird = number(1);
    weird.type = 42;
    CHECK_STATUS(animrt_machine_send(rt, m, result, &weird, 1, NULL), ANIMRT_E_ENUM);
    /* As for every enum, the message lists the constants the header has. */
    CHECK(strcmp(animrt_last_error_message(), "payload[0].type is 42, not a valid animrt_value_type; it is one of "
                 "ANIMRT_TYPE_NUMBER (1), ANIMRT_TYPE_BOOL (2), ANIMRT_TYPE_STRING (3), ANIMRT_TYPE_INTEGER (4), "
                 "ANIMRT_TYPE_POINTER (5)") == 0);
    animrt_value badtext[2] = {number(1), number(0.5)};
    badtext[1] = text("\xff");
    CHECK_STATUS(animrt_machine_send(rt, m, result, badtext, 2, NULL), ANIMRT_E_INVALID);
    /* An id past the last is a number out of range, as in every call that takes one. */
    CHECK_STATUS(animrt_machine_send(rt, m, 99, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("event id 99 is out of range (0 to 2): 'card' has 3 events a host can send (id 3 is error.execution, "
                  "which the machine raises itself)");
    CHECK_STATUS(animrt_machine_send(rt, m, -1, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("event id -1 is out of range (0 to 2)");
    CHECK_STATUS(animrt_machine_send(rt, m, 4, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_machine_send(rt, def, appear, NULL, 0, NULL), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_machine_send(rt, 0, appear, NULL, 0, NULL), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_machine_send_json(rt, m, "result", "[1]", NULL), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_machine_send_json(rt, m, "result", "{\"request\": 1, \"progress\": \"x\"}", NULL), ANIMRT_E_KIND);
    CHECK_STATUS(animrt_machine_send_json(rt, m, NULL, NULL, NULL), ANIMRT_E_NULL);
    /* Nothing changed: still loading, no event queued. */
    int32_t state = -1;
    CHECK_OK(animrt_machine_state(rt, m, &state));
    CHECK(state == id_of(rt, def, ANIMRT_NAME_STATE, "loading"));
    CHECK(drain(rt, ev, 8) == 0);
    /* Reads with bad arguments. */
    animrt_value v;
    int active = 0;
    CHECK_STATUS(animrt_machine_get(rt, m, 9, &v, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("context field id 9 is out of range (0 to 2): 'card' has 3 context fields");
    CHECK_STATUS(animrt_machine_get(rt, m, 3, &v, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_machine_get(rt, m, 2, &v, NULL, 0, NULL), ANIMRT_E_BUFFER);  /* the last id: 'title', a string */
    CHECK_STATUS(animrt_machine_get(rt, m, 0, NULL, NULL, 0, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_machine_in_state(rt, m, -1, &active), ANIMRT_E_RANGE);
    CHECK_MESSAGE("state id -1 is out of range (0 to 2): 'card' has 3 states");
    CHECK_STATUS(animrt_machine_in_state(rt, m, 3, &active), ANIMRT_E_RANGE);
    CHECK_OK(animrt_machine_in_state(rt, m, 2, &active));
    CHECK_STATUS(animrt_machine_in_state(rt, m, 0, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_machine_state(rt, m, NULL), ANIMRT_E_NULL);
    animrt_id part = 5;
    CHECK_STATUS(animrt_machine_part(rt, m, "rng", &part), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'ring'");
    /* Nothing near: the message names the parts there are. */
    CHECK_STATUS(animrt_machine_part(rt, m, "spinner", &part), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'card' has no part 'spinner' (parts: ring)") == 0);
    CHECK(part == 5);
    /* Creation errors create nothing. */
    animrt_id other = 3;
    CHECK_STATUS(animrt_machine_create(rt, def, 0, "{\"config\": {\"jiter\": 0.1}}", &other), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'jitter'");
    CHECK_STATUS(animrt_machine_create(rt, def, 0, "{\"config\": {\"width\": 200}}", &other), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'card' has no config parameter 'width' (parameters: jitter)") == 0);
    CHECK_STATUS(animrt_machine_create(rt, def, 0, "{\"config\": {\"jitter\": 2}}", &other), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_machine_create(rt, def, 0, "{\"confg\": {}}", &other), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_machine_create(rt, def, 0, "{\"locale\": \"zh\"}", &other), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("'card' has no strings");
    CHECK_STATUS(animrt_machine_create(rt, def, m, NULL, &other), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_machine_create(rt, m, 0, NULL, &other), ANIMRT_E_HANDLE);
    CHECK(other == 3);
    /* A definition with no parts and no config says so, rather than listing nothing. */
    animrt_id toggle = 0, bare = 0;
    CHECK_OK(animrt_definition_load(rt, "{\"name\": \"toggle\", \"events\": {\"tap\": {}}, \"initial\": \"off\","
                                        " \"states\": {\"off\": {\"on\": {\"tap\": \"on\"}}, \"on\": {}}}", &toggle));
    CHECK_STATUS(animrt_machine_create(rt, toggle, 0, "{\"config\": {\"width\": 200}}", &other), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'toggle' has no config parameter 'width'; it has no config parameters") == 0);
    CHECK(other == 3);
    CHECK_OK(animrt_machine_create(rt, toggle, 0, NULL, &bare));
    CHECK_STATUS(animrt_machine_part(rt, bare, "ring", &part), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'toggle' has no part 'ring'; it has no parts") == 0);
    CHECK(part == 5);
    animrt_runtime_destroy(rt);
}

static int callback_count;
static int callback_ok;
static void on_event(void *user, const animrt_event *e) {
    (void)user;
    callback_count++;
    if (e->type == ANIMRT_EVENT_MACHINE_EMITTED && e->payload_count == 1 && e->payload[0].type == ANIMRT_TYPE_STRING
        && strcmp(e->payload[0].string, "40%") == 0) callback_ok++;
}

TEST(events_by_callback) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, m = 0;
    CHECK_OK(animrt_definition_load(rt, CARD, &def));
    CHECK_OK(animrt_event_set_callback(rt, on_event, NULL));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    CHECK_OK(animrt_machine_send_json(rt, m, "appear", NULL, NULL));
    CHECK_OK(animrt_machine_send_json(rt, m, "result", "{\"request\": 1, \"progress\": 0.4}", NULL));
    CHECK(callback_count == 0);          /* delivered at the next tick */
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK(callback_count == 6 && callback_ok == 1); /* 3 state changes, the request, the emit, the fill's start */
    animrt_runtime_destroy(rt);
}

/* Two runtimes: `a` runs the card until `t`, its snapshot is restored into
 * `b` (ticked to `t` first); both then get the same inputs and must report
 * the same events and show the same values, bit for bit. */
TEST(snapshot_and_restore) {
    animrt_runtime *a = rt_new(), *b = rt_new();
    animrt_id da = 0, ma = 0, db = 0, mb = 0, ra = 0, rb = 0;
    CHECK_OK(animrt_definition_load(a, CARD, &da));
    CHECK_OK(animrt_runtime_tick(a, 1));
    CHECK_OK(animrt_machine_create(a, da, 0, NULL, &ma));
    CHECK_OK(animrt_machine_send_json(a, ma, "appear", NULL, NULL));
    CHECK_OK(animrt_machine_send_json(a, ma, "result", "{\"request\": 1, \"progress\": 0.6}", NULL));
    CHECK_OK(animrt_runtime_tick(a, 1.2));  /* the fill runs from 1.2 for 0.5 s */
    CHECK_OK(animrt_runtime_tick(a, 1.35));
    animrt_event ev[32], ew[32];
    drain(a, ev, 32);
    size_t needed = 0;
    CHECK_STATUS(animrt_machine_snapshot(a, ma, NULL, 0, &needed), ANIMRT_E_BUFFER);
    char *snapshot = malloc(needed);
    CHECK_OK(animrt_machine_snapshot(a, ma, snapshot, needed, &needed));
    CHECK(strstr(snapshot, "\"leaf\":\"ready\"") != NULL);
    animrt_id none = 9;
    CHECK_STATUS(animrt_machine_restore(b, snapshot, 0, &none), ANIMRT_E_TIME);  /* b is not at 1.35 yet */
    CHECK_MESSAGE("tick it to the snapshot's time first");
    CHECK(none == 9);
    CHECK_OK(animrt_runtime_tick(b, 1.35));
    CHECK_OK(animrt_machine_restore(b, snapshot, 0, &mb));
    CHECK_STATUS(animrt_machine_restore(b, "{\"format\": 1}", 0, &none), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_machine_restore(b, NULL, 0, &none), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_machine_snapshot(a, da, snapshot, needed, &needed), ANIMRT_E_HANDLE);
    free(snapshot);
    CHECK_OK(animrt_machine_part(a, ma, "ring", &ra));
    CHECK_OK(animrt_machine_part(b, mb, "ring", &rb));
    CHECK_OK(animrt_definition_load(b, CARD, &db));
    animrt_keypath sa = -1, sb = -1;
    animrt_keypath_id(a, "strokeEnd", &sa);
    animrt_keypath_id(b, "strokeEnd", &sb);
    const double times[] = {1.4, 1.5, 1.69, 1.7, 2.0};
    int identical = 1, steps = 0;
    for (int i = 0; i < 5; i++) {
        if (i == 2) {
            CHECK_OK(animrt_machine_send_json(a, ma, "appear", NULL, NULL));
            CHECK_OK(animrt_machine_send_json(b, mb, "appear", NULL, NULL));
        }
        CHECK_OK(animrt_runtime_tick(a, times[i]));
        CHECK_OK(animrt_runtime_tick(b, times[i]));
        double va, vb;
        size_t n;
        animrt_layer_get_presentation(a, ra, sa, &va, 1, &n);
        animrt_layer_get_presentation(b, rb, sb, &vb, 1, &n);
        identical &= memcmp(&va, &vb, sizeof va) == 0;
        size_t na = 0, nb = 0;
        animrt_event_poll(a, ev, 32, &na);
        animrt_event_poll(b, ew, 32, &nb);
        identical &= na == nb;
        for (size_t k = 0; k < na && k < nb; k++) identical &= same_event(&ev[k], &ew[k]);
        steps += (int)na;
    }
    CHECK(identical);
    CHECK(steps == 3);  /* the state change and the request of the second appear, the fill's stop, in both */
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(b);
}

/* The bits of a handle below those naming its runtime: slot and generation. */
#define UNTAGGED(h) ((h) & 0xFFFFFFFFFFFFull)

/* A restore refused after it began making things (its part's value does not
 * fit the property it names, which is found once the part's layer exists)
 * is undone without spending a handle: however many times it is refused,
 * the next layer, and the machine then restored, get the handles of a
 * runtime that never tried (the same bits below the runtime's tag). Each
 * runtime has a destroyed layer, whose slot the part's layer takes. */
TEST(refused_restore_spends_no_handle) {
    animrt_runtime *a = rt_new(), *b = rt_new(), *untouched = rt_new();
    animrt_id d = 0, m = 0, none = 7, lb = 0, lu = 0, mb = 0, mu = 0;
    CHECK_OK(animrt_layer_create(b, 0, &lb));
    CHECK_OK(animrt_layer_destroy(b, lb));
    CHECK_OK(animrt_layer_create(untouched, 0, &lu));
    CHECK_OK(animrt_layer_destroy(untouched, lu));
    CHECK_OK(animrt_definition_load(a, CARD, &d));
    CHECK_OK(animrt_runtime_tick(a, 1));
    CHECK_OK(animrt_machine_create(a, d, 0, NULL, &m));
    char snapshot[8192], edited[8192];
    size_t needed = 0;
    CHECK_OK(animrt_machine_snapshot(a, m, snapshot, sizeof snapshot, &needed));
    const char *at = strstr(snapshot, "\"property\":\"strokeEnd\"");
    CHECK(at != NULL);
    if (at == NULL) return;
    snprintf(edited, sizeof edited, "%.*s\"property\":\"position\"%s", (int)(at - snapshot), snapshot,
             at + strlen("\"property\":\"strokeEnd\""));
    CHECK_OK(animrt_runtime_tick(b, 1));
    CHECK_OK(animrt_runtime_tick(untouched, 1));
    for (int i = 0; i < 3; i++) {
        CHECK_STATUS(animrt_machine_restore(b, edited, 0, &none), ANIMRT_E_KIND);
        CHECK_MESSAGE("the snapshot could not be restored: 'position' takes a point");
        CHECK_MESSAGE("nothing was made");
    }
    CHECK(none == 7);
    size_t count = 9;
    animrt_event ev[4];
    CHECK_OK(animrt_event_poll(b, ev, 4, &count));
    CHECK(count == 0);
    /* The part's layer took the destroyed layer's slot, one generation on:
     * that handle names nothing until the next layer gets it. */
    animrt_id made = lb + ((animrt_id)1 << 24);
    CHECK_STATUS(animrt_layer_animation_count(b, made, &count), ANIMRT_E_HANDLE);
    CHECK_OK(animrt_layer_create(b, 0, &lb));
    CHECK(lb == made);
    CHECK_OK(animrt_layer_create(untouched, 0, &lu));
    CHECK(UNTAGGED(lb) == UNTAGGED(lu));
    CHECK_OK(animrt_machine_restore(b, snapshot, 0, &mb));
    CHECK_OK(animrt_machine_restore(untouched, snapshot, 0, &mu));
    CHECK(UNTAGGED(mb) == UNTAGGED(mu));
    animrt_id rb = 0, ru = 0;
    CHECK_OK(animrt_machine_part(b, mb, "ring", &rb));
    CHECK_OK(animrt_machine_part(untouched, mu, "ring", &ru));
    CHECK(UNTAGGED(rb) == UNTAGGED(ru) && UNTAGGED(rb) != UNTAGGED(lb));
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(b);
    animrt_runtime_destroy(untouched);
}

/* A member no object of a snapshot has (a misspelt "begintime", which was read past: the
 * fill restored would have begun again at the next tick) is refused with ANIMRT_E_INVALID,
 * named with its place, and so is a property given twice on a part; nothing is made and
 * the unedited snapshot then restores. */
TEST(restore_refuses_what_it_cannot_honour) {
    animrt_runtime *a = rt_new(), *b = rt_new();
    animrt_id d = 0, m = 0, none = 7, mb = 0;
    CHECK_OK(animrt_definition_load(a, CARD, &d));
    CHECK_OK(animrt_runtime_tick(a, 1));
    CHECK_OK(animrt_machine_create(a, d, 0, NULL, &m));
    CHECK_OK(animrt_machine_send_json(a, m, "appear", NULL, NULL));
    CHECK_OK(animrt_machine_send_json(a, m, "result", "{\"request\": 1, \"progress\": 0.6}", NULL));
    CHECK_OK(animrt_runtime_tick(a, 1.2));
    char snapshot[8192], edited[8300];
    size_t needed = 0;
    CHECK_OK(animrt_machine_snapshot(a, m, snapshot, sizeof snapshot, &needed));
    const char *begin = strstr(snapshot, "\"beginTime\":1.2,");
    const char *value = strstr(snapshot, "{\"model\":");
    const char *end = value ? strstr(value, "\"property\":\"strokeEnd\"}") : NULL;
    CHECK(begin != NULL && end != NULL);
    if (begin == NULL || end == NULL) return;
    CHECK_OK(animrt_runtime_tick(b, 1.2));
    snprintf(edited, sizeof edited, "%.*s\"begintime\"%s", (int)(begin - snapshot), snapshot, begin + strlen("\"beginTime\""));
    CHECK_STATUS(animrt_machine_restore(b, edited, 0, &none), ANIMRT_E_INVALID);
    CHECK_MESSAGE("not a machine snapshot: animations[0].begintime: a started animation has no member 'begintime' (it has part, key, ");
    end += strlen("\"property\":\"strokeEnd\"}");
    snprintf(edited, sizeof edited, "%.*s,%.*s%s", (int)(end - snapshot), snapshot, (int)(end - value), value, end);
    CHECK_STATUS(animrt_machine_restore(b, edited, 0, &none), ANIMRT_E_INVALID);
    CHECK_MESSAGE("'strokeEnd' is given twice; a layer has one value of each property; nothing was made");
    CHECK(none == 7);
    CHECK_OK(animrt_machine_restore(b, snapshot, 0, &mb));
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(b);
}

/* A state waiting for the animation its entry started: restored, it needs a barrier. */
static const char *WAITING =
    "{\"name\": \"waiting\", \"parts\": [{\"name\": \"box\", \"properties\": {\"opacity\": 1}}],"
    " \"animations\": {\"fade\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"to\": 0, \"duration\": 10}},"
    " \"initial\": \"a\", \"states\": {\"a\": {\"entry\": [{\"animate\": \"fade\", \"part\": \"box\"}], \"done\": \"b\"}, \"b\": {}}}";

/* A restore into a runtime whose barrier table is full, at the real limit
 * (ANIMRT_OBJECTS_MAX barriers: the cheapest table to fill, and one that a
 * state waiting for its animations needs), is refused with ANIMRT_E_NOMEM,
 * undone, reports nothing and spends no handle; with one barrier destroyed,
 * the same snapshot restores. Filling the table takes about 0.5 GB and 2 s
 * (40 s on a busy machine) against the release library; under a sanitizer
 * it takes minutes, so there it runs only when ANIMRT_FULL_TABLES is set.
 * The Swift suite covers each table a restore uses, on tables given a small
 * limit (Runtime.limitTable, which has no C function). */
TEST(restore_into_a_full_table) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    if (getenv("ANIMRT_FULL_TABLES") == NULL) {
        printf("restore_into_a_full_table: skipped under a sanitizer (set ANIMRT_FULL_TABLES to run it)\n");
        return;
    }
#endif
#endif
    animrt_runtime *a = rt_new(), *full = rt_new(), *untouched = rt_new();
    animrt_id d = 0, m = 0, none = 7, barrier = 0, last = 0, lf = 0, lu = 0, mf = 0, mu = 0;
    CHECK_OK(animrt_definition_load(a, WAITING, &d));
    CHECK_OK(animrt_runtime_tick(a, 0));
    CHECK_OK(animrt_machine_create(a, d, 0, NULL, &m));
    CHECK_OK(animrt_runtime_tick(a, 0.5));
    char snapshot[4096];
    size_t needed = 0;
    CHECK_OK(animrt_machine_snapshot(a, m, snapshot, sizeof snapshot, &needed));
    CHECK(strstr(snapshot, "\"waitingForDone\":[\"a\"]") != NULL);
    CHECK_OK(animrt_runtime_tick(full, 0.5));
    CHECK_OK(animrt_runtime_tick(untouched, 0.5));
    long made = 0;
    animrt_status s;
    while ((s = animrt_barrier_create(full, &barrier)) == ANIMRT_OK) { made++; last = barrier; }
    CHECK(made == ANIMRT_OBJECTS_MAX && s == ANIMRT_E_NOMEM);
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(animrt_machine_restore(full, snapshot, 0, &none), ANIMRT_E_NOMEM);
        CHECK_MESSAGE("the snapshot could not be restored: too many barriers");
        CHECK_MESSAGE("nothing was made");
    }
    CHECK(none == 7);
    size_t count = 9;
    animrt_event ev[4];
    CHECK_OK(animrt_event_poll(full, ev, 4, &count));
    CHECK(count == 0);
    /* The part's layer, the machine and the animation it had made are gone, their handles unspent. */
    CHECK_OK(animrt_layer_create(full, 0, &lf));
    CHECK_OK(animrt_layer_create(untouched, 0, &lu));
    CHECK(UNTAGGED(lf) == UNTAGGED(lu));
    CHECK_OK(animrt_barrier_destroy(full, last));
    CHECK_OK(animrt_machine_restore(full, snapshot, 0, &mf));
    CHECK_OK(animrt_machine_restore(untouched, snapshot, 0, &mu));
    CHECK(UNTAGGED(mf) == UNTAGGED(mu));
    animrt_id pf = 0, pu = 0;
    CHECK_OK(animrt_machine_part(full, mf, "box", &pf));
    CHECK_OK(animrt_machine_part(untouched, mu, "box", &pu));
    CHECK(UNTAGGED(pf) == UNTAGGED(pu));
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(full);
    animrt_runtime_destroy(untouched);
}

/* `n` copies of `open`, `inner`, `n` copies of `close`, between `head` and `tail` (malloc'd). */
static char *nest(const char *head, const char *open, const char *inner, const char *close, size_t n, const char *tail) {
    size_t lo = strlen(open), lc = strlen(close);
    char *s = malloc(strlen(head) + n * (lo + lc) + strlen(inner) + strlen(tail) + 1), *p = s;
    p += sprintf(p, "%s", head);
    for (size_t i = 0; i < n; i++) p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", inner);
    for (size_t i = 0; i < n; i++) p += sprintf(p, "%s", close);
    sprintf(p, "%s", tail);
    return s;
}

#define ASSIGN_HEAD "{\"name\": \"deep\", \"context\": {\"r\": {\"type\": \"number\", \"initial\": 0}}, \"events\": {\"go\": {}}," \
    " \"initial\": \"a\", \"states\": {\"a\": {\"on\": {\"go\": {\"actions\": [{\"assign\": {\"r\": \""
#define ASSIGN_TAIL "\"}}]}}}}}"

/* The deepest input each limit lets through, and the deepest that once ran
 * out of stack, read on a thread whose stack is 128 KiB, half of what
 * docs/machines.md ("Limits") promises: each is taken or refused with
 * ANIMRT_E_RANGE, never a crash. */
static void *deep_inputs(void *unused) {
    (void)unused;
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, m = 0;
    char *text = nest(ASSIGN_HEAD, "(", "1", ")", 63, ASSIGN_TAIL);
    CHECK_OK(animrt_definition_load(rt, text, &def));
    free(text);
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    /* 63 calls inside one another, each a level (the parse of one took the most stack, 132 KiB):
     * the result runs; one more is refused. */
    text = nest(ASSIGN_HEAD, "abs(", "context.r - 2", ")", 63, ASSIGN_TAIL);
    animrt_id calls = 0, called = 0;
    CHECK_OK(animrt_definition_load(rt, text, &calls));
    free(text);
    CHECK_OK(animrt_machine_create(rt, calls, 0, NULL, &called));
    animrt_send_outcome went = ANIMRT_SEND_QUEUED;
    CHECK_OK(animrt_machine_send_json(rt, called, "go", NULL, &went));
    animrt_value two;
    CHECK_OK(animrt_machine_get(rt, called, id_of(rt, calls, ANIMRT_NAME_CONTEXT, "r"), &two, NULL, 0, NULL));
    CHECK(went == ANIMRT_SEND_TAKEN && two.number == 2);
    text = nest(ASSIGN_HEAD, "abs(", "context.r - 2", ")", 64, ASSIGN_TAIL);
    CHECK_STATUS(animrt_definition_load(rt, text, &calls), ANIMRT_E_RANGE);
    CHECK_MESSAGE("nests more than 64 levels deep");
    free(text);
    /* 63 '? :' each in the branch after the ':' of the one before, and each in the branch before it. */
    const char *branches[][3] = {{"context.r == 0 ? 1 : ", "2", ""}, {"context.r == 0 ? ", "1", " : 2"}};
    for (int b = 0; b < 2; b++) {
        text = nest(ASSIGN_HEAD, branches[b][0], branches[b][1], branches[b][2], 63, ASSIGN_TAIL);
        animrt_id chosen = 0, chooser = 0;
        CHECK_OK(animrt_definition_load(rt, text, &chosen));
        free(text);
        CHECK_OK(animrt_machine_create(rt, chosen, 0, NULL, &chooser));
        CHECK_OK(animrt_machine_send_json(rt, chooser, "go", NULL, &went));
        animrt_value one;
        CHECK_OK(animrt_machine_get(rt, chooser, id_of(rt, chosen, ANIMRT_NAME_CONTEXT, "r"), &one, NULL, 0, NULL));
        CHECK(went == ANIMRT_SEND_TAKEN && one.number == 1);
        text = nest(ASSIGN_HEAD, branches[b][0], branches[b][1], branches[b][2], 64, ASSIGN_TAIL);
        CHECK_STATUS(animrt_definition_load(rt, text, &chosen), ANIMRT_E_RANGE);
        CHECK_MESSAGE("nests more than 64 levels deep");
        free(text);
    }
    /* The deepest tree an expression can make is no nesting at all: 2043 '+' in a row, all 4096
     * bytes, are one level but a chain 2044 operations deep, which compiling walks once per operation
     * (it needed 200 to 256 KiB of stack, more than 64 levels of parentheses). */
    text = nest(ASSIGN_HEAD, "", "context.r", "+1", 2043, ASSIGN_TAIL);
    animrt_id chain = 0, chained = 0;
    CHECK_OK(animrt_definition_load(rt, text, &chain));
    free(text);
    CHECK_OK(animrt_machine_create(rt, chain, 0, NULL, &chained));
    animrt_send_outcome taken = ANIMRT_SEND_QUEUED;
    CHECK_OK(animrt_machine_send_json(rt, chained, "go", NULL, &taken));
    animrt_value sum;
    CHECK_OK(animrt_machine_get(rt, chained, id_of(rt, chain, ANIMRT_NAME_CONTEXT, "r"), &sum, NULL, 0, NULL));
    CHECK(taken == ANIMRT_SEND_TAKEN && sum.number == 2043);
    text = nest(ASSIGN_HEAD, "", "context.r", "+1", 2044, ASSIGN_TAIL);
    CHECK_STATUS(animrt_definition_load(rt, text, &chain), ANIMRT_E_RANGE);  /* 4097 bytes */
    CHECK_MESSAGE("4096");
    free(text);
    /* 2047 parentheses around a 1, 4095 bytes (within the 4096 an expression may have): refused at level 65. */
    text = nest(ASSIGN_HEAD, "(", "1", ")", 2047, ASSIGN_TAIL);
    CHECK_STATUS(animrt_definition_load(rt, text, &def), ANIMRT_E_RANGE);
    CHECK_MESSAGE("nests more than 64 levels deep");
    free(text);
    /* JSON: 128 levels are decoded (the stray member is then named), 129 or 10^5 are refused first. */
    text = nest("{\"name\": \"p\", \"x\": ", "[", "", "]", 127, "}");
    CHECK_STATUS(animrt_definition_load(rt, text, &def), ANIMRT_E_INVALID);
    CHECK_MESSAGE("unknown key 'x'");
    free(text);
    text = nest("{\"x\": ", "[", "", "]", 127, "}");  /* a snapshot 128 deep: refused, its decoding bounded by its own types */
    animrt_id restored = 0;
    CHECK_STATUS(animrt_machine_restore(rt, text, 0, &restored), ANIMRT_E_INVALID);
    CHECK_MESSAGE("not a machine snapshot");
    CHECK(restored == 0);
    free(text);
    text = nest("{\"name\": \"p\", \"x\": ", "[", "", "]", 128, "}");
    CHECK_STATUS(animrt_definition_load(rt, text, &def), ANIMRT_E_RANGE);
    CHECK_MESSAGE("the JSON is too deep at line 1, column 147");
    free(text);
    text = nest("{\"x\": ", "[", "", "]", 100000, "}");
    CHECK_STATUS(animrt_definition_load(rt, text, &def), ANIMRT_E_RANGE);
    CHECK_MESSAGE("the JSON is too deep at line 1, column 1");
    animrt_send_outcome outcome = ANIMRT_SEND_QUEUED;
    CHECK_STATUS(animrt_machine_send_json(rt, m, "go", text, &outcome), ANIMRT_E_RANGE);
    CHECK_MESSAGE("payload: the JSON is too deep");
    animrt_id other = 0;
    CHECK_STATUS(animrt_machine_create(rt, def, 0, text, &other), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_machine_restore(rt, text, 0, &other), ANIMRT_E_RANGE);
    CHECK_MESSAGE("not a machine snapshot: the JSON is too deep");
    CHECK(other == 0 && outcome == ANIMRT_SEND_QUEUED);
    free(text);
    CHECK_OK(animrt_machine_send_json(rt, m, "go", NULL, &outcome));
    CHECK(outcome == ANIMRT_SEND_TAKEN);
    animrt_runtime_destroy(rt);
    return NULL;
}

TEST(deep_input_on_a_small_stack) {
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    /* Sanitizers make every frame larger: their threads get more. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DEEP_STACK (2048 * 1024)
#endif
#endif
#ifndef DEEP_STACK
#define DEEP_STACK (128 * 1024)
#endif
    CHECK(pthread_attr_setstacksize(&attr, DEEP_STACK) == 0);
    /* Checked once the thread is joined: its own checks count meanwhile. */
    int created = pthread_create(&t, &attr, deep_inputs, NULL);
    if (created == 0) pthread_join(t, NULL);
    CHECK(created == 0);
    pthread_attr_destroy(&attr);
}

/* A bool crosses the ABI both ways as C reads one: the host's nonzero is
 * true whatever its value, and a false one reaches the host's event
 * payload and context read as 0, not as any other value. */
static const char *SWITCH =
    "{\"name\": \"switch\", \"context\": {\"on\": {\"type\": \"bool\", \"initial\": true}},"
    " \"events\": {\"set\": {\"payload\": [{\"name\": \"on\", \"type\": \"bool\"}]}},"
    " \"emits\": {\"changed\": {\"payload\": [{\"name\": \"on\", \"type\": \"bool\"}]}},"
    " \"initial\": \"idle\","
    " \"states\": {\"idle\": {\"on\": {\"set\": {\"actions\": [{\"assign\": {\"on\": \"event.on\"}},"
    "                                              {\"emit\": \"changed\", \"payload\": {\"on\": \"event.on\"}}]}}}}}";

/* Sends `set` with `boolean` and returns the emitted payload's boolean and,
 * in *context, the context field's (-1 when either is missing). */
static int32_t send_bool(animrt_runtime *rt, animrt_id def, animrt_id m, int32_t boolean, int32_t *context) {
    animrt_value arg = {ANIMRT_TYPE_BOOL, boolean, 0, 0, NULL, NULL};
    CHECK_OK(animrt_machine_send(rt, m, id_of(rt, def, ANIMRT_NAME_EVENT, "set"), &arg, 1, NULL));
    animrt_value v = {0, -1, 0, 0, NULL, NULL};
    CHECK_OK(animrt_machine_get(rt, m, id_of(rt, def, ANIMRT_NAME_CONTEXT, "on"), &v, NULL, 0, NULL));
    *context = v.type == ANIMRT_TYPE_BOOL ? v.boolean : -1;
    animrt_event ev[4];
    size_t n = drain(rt, ev, 4);
    int32_t emitted = -1;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].type == ANIMRT_EVENT_MACHINE_EMITTED && ev[i].payload_count == 1 && ev[i].payload[0].type == ANIMRT_TYPE_BOOL)
            emitted = ev[i].payload[0].boolean;
    }
    return emitted;
}

/* A payload field declared "integer": true reaches the host as
 * ANIMRT_TYPE_INTEGER with .integer and .number both set to its value; a
 * number field not declared whole stays ANIMRT_TYPE_NUMBER (R3.0.1). */
static const char *COUNTS =
    "{\"name\": \"counts\", \"context\": {\"n\": {\"type\": \"number\", \"initial\": 0}},"
    " \"events\": {\"set\": {\"payload\": [{\"name\": \"n\", \"type\": \"number\", \"integer\": true}]},"
    "             \"got\": {\"resultOf\": \"fetch\", \"payload\": [{\"name\": \"items\", \"type\": \"number\", \"integer\": true}]}},"
    " \"emits\": {\"counted\": {\"payload\": [{\"name\": \"n\", \"type\": \"number\", \"integer\": true},"
    "                                       {\"name\": \"half\", \"type\": \"number\"}]}},"
    " \"requests\": {\"fetch\": {\"payload\": [{\"name\": \"page\", \"type\": \"number\", \"integer\": true}]}},"
    " \"initial\": \"a\","
    " \"states\": {\"a\": {\"on\": {\"set\": {\"target\": \"b\", \"actions\": [{\"assign\": {\"n\": \"event.n\"}},"
    "                   {\"emit\": \"counted\", \"payload\": {\"n\": \"event.n\", \"half\": \"event.n / 2\"}},"
    "                   {\"request\": \"fetch\", \"payload\": {\"page\": \"event.n\"}}]}}},"
    "            \"b\": {\"values\": [\"n\"], \"on\": {\"got\": \"a\"}}}}";

static int is_integer(const animrt_value *v, int64_t i) {
    return v->type == ANIMRT_TYPE_INTEGER && v->integer == i && v->number == (double)i;
}

TEST(whole_number_fields_reported_as_integers) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, m = 0;
    CHECK_OK(animrt_definition_load(rt, COUNTS, &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    animrt_event ev[8];
    drain(rt, ev, 8);
    /* 2^63 - 1024, the greatest double below 2^63, sent as a number. */
    animrt_value big = number(9223372036854774784.0);
    CHECK_OK(animrt_machine_send(rt, m, id_of(rt, def, ANIMRT_NAME_EVENT, "set"), &big, 1, NULL));
    size_t n = drain(rt, ev, 8);
    CHECK(n == 3);
    CHECK(ev[0].type == ANIMRT_EVENT_MACHINE_EMITTED && ev[0].payload_count == 2);
    CHECK(is_integer(&ev[0].payload[0], INT64_C(9223372036854774784)));
    CHECK(ev[0].payload[1].type == ANIMRT_TYPE_NUMBER && ev[0].payload[1].number == 4611686018427387392.0
          && ev[0].payload[1].integer == 0);
    CHECK(ev[1].type == ANIMRT_EVENT_MACHINE_REQUEST && ev[1].token == 1 && ev[1].payload_count == 1);
    CHECK(is_integer(&ev[1].payload[0], INT64_C(9223372036854774784)));
    /* A state's values are context fields: numbers, as animrt_machine_get reads them. */
    CHECK(ev[2].type == ANIMRT_EVENT_MACHINE_STATE && ev[2].payload_count == 1);
    CHECK(ev[2].payload[0].type == ANIMRT_TYPE_NUMBER && ev[2].payload[0].number == 9223372036854774784.0);
    animrt_value v = {0, 0, 0, 0, NULL, NULL};
    CHECK_OK(animrt_machine_get(rt, m, id_of(rt, def, ANIMRT_NAME_CONTEXT, "n"), &v, NULL, 0, NULL));
    CHECK(v.type == ANIMRT_TYPE_NUMBER && v.number == 9223372036854774784.0);
    /* A stale result, sent as a C integer, -2^63: reported as it was sent, the request number an integer too. */
    animrt_value result[2] = {number(7), {ANIMRT_TYPE_INTEGER, 0, 0, INT64_MIN, NULL, NULL}};
    animrt_send_outcome outcome = ANIMRT_SEND_TAKEN;
    CHECK_OK(animrt_machine_send(rt, m, id_of(rt, def, ANIMRT_NAME_EVENT, "got"), result, 2, &outcome));
    CHECK(outcome == ANIMRT_SEND_STALE);
    n = drain(rt, ev, 8);
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_MACHINE_STALE && ev[0].payload_count == 2);
    CHECK(is_integer(&ev[0].payload[0], 7));
    CHECK(is_integer(&ev[0].payload[1], INT64_MIN));
    result[1].integer = 12;  /* a small one, whose neighbours are doubles too */
    CHECK_OK(animrt_machine_send(rt, m, id_of(rt, def, ANIMRT_NAME_EVENT, "got"), result, 2, &outcome));
    n = drain(rt, ev, 8);
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_MACHINE_STALE && ev[0].payload_count == 2 && is_integer(&ev[0].payload[1], 12));
    CHECK(ev[0].payload[1].number == 12.0);
    /* Past the int64_t the host reads it as: refused, nothing changes. */
    animrt_value past = number(9223372036854775808.0);
    CHECK_STATUS(animrt_machine_send_json(rt, m, "got", "{\"request\": 1, \"items\": 9223372036854775808}", NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("field 'items' of 'got' is 9223372036854775808; a whole-number field is from -2^63 to 2^63 - 1, an int64_t as the host reads it");
    CHECK_STATUS(animrt_machine_send(rt, m, id_of(rt, def, ANIMRT_NAME_EVENT, "got"), (animrt_value[]){number(1), past}, 2, NULL),
                 ANIMRT_E_RANGE);
    CHECK_MESSAGE("field 'items' of 'got' is 9.223372036854776e+18; a whole-number field is from");
    int32_t state = -1;
    CHECK_OK(animrt_machine_state(rt, m, &state));
    CHECK(state == id_of(rt, def, ANIMRT_NAME_STATE, "b") && drain(rt, ev, 8) == 0);
    animrt_runtime_destroy(rt);
}

TEST(booleans_both_ways) {
    animrt_runtime *rt = rt_new();
    animrt_id def = 0, m = 0;
    CHECK_OK(animrt_definition_load(rt, SWITCH, &def));
    CHECK_OK(animrt_machine_create(rt, def, 0, NULL, &m));
    animrt_event ev[4];
    drain(rt, ev, 4);
    int32_t context = -1;
    CHECK(send_bool(rt, def, m, 0, &context) == 0);
    CHECK(context == 0);
    CHECK(send_bool(rt, def, m, 1, &context) == 1);
    CHECK(context == 1);
    CHECK(send_bool(rt, def, m, 0, &context) == 0);
    CHECK(send_bool(rt, def, m, 2, &context) == 1);  /* C's true, not only 1 */
    CHECK(context == 1);
    CHECK(send_bool(rt, def, m, 0, &context) == 0);
    CHECK(send_bool(rt, def, m, -1, &context) == 1);
    CHECK(context == 1);
    animrt_runtime_destroy(rt);
}

/* A part's layer belongs to its machine: destroying it is refused with
 * ANIMRT_E_STATE, naming the machine and the part, and changes nothing; the
 * machine goes on acting on it, snapshots and restores, and destroying the
 * machine frees it (its slot is free for the next layer, which is the
 * host's). Moving a part is the host's to do. */
TEST(parts_belong_to_the_machine) {
    animrt_runtime *a = rt_new(), *b = rt_new();
    animrt_id d = 0, m = 0, ring = 0, mb = 0, ringb = 0, host = 0;
    CHECK_OK(animrt_definition_load(a, CARD, &d));
    CHECK_OK(animrt_runtime_tick(a, 1));
    CHECK_OK(animrt_machine_create(a, d, 0, NULL, &m));
    CHECK_OK(animrt_machine_part(a, m, "ring", &ring));
    char expected[128];
    snprintf(expected, sizeof expected, "layer 0x%llx is part 'ring' of machine 0x%llx ('card')",
             (unsigned long long)ring, (unsigned long long)m);
    CHECK_STATUS(animrt_layer_destroy(a, ring), ANIMRT_E_STATE);
    CHECK_MESSAGE(expected);
    CHECK_MESSAGE("destroy the machine instead (animrt_machine_destroy), which destroys its parts");
    size_t count = 9;
    CHECK_OK(animrt_layer_animation_count(a, ring, &count));
    CHECK(count == 0);
    animrt_id again = 0;
    CHECK_OK(animrt_machine_part(a, m, "ring", &again));
    CHECK(again == ring);
    CHECK_OK(animrt_layer_create(a, 0, &host));
    CHECK_OK(animrt_layer_set_parent(a, ring, host));  /* moved: still the machine's */
    CHECK_OK(animrt_layer_destroy(a, host));
    /* The machine still animates its part: no error event. */
    CHECK_OK(animrt_machine_send_json(a, m, "appear", NULL, NULL));
    CHECK_OK(animrt_machine_send_json(a, m, "result", "{\"request\": 1, \"progress\": 0.6}", NULL));
    CHECK_OK(animrt_runtime_tick(a, 1.2));
    animrt_event ev[32];
    size_t n = drain(a, ev, 32);
    for (size_t k = 0; k < n; k++) CHECK(ev[k].type != ANIMRT_EVENT_MACHINE_ERROR);
    CHECK_OK(animrt_layer_animation_count(a, ring, &count));
    CHECK(count == 1);
    char snapshot[8192] = "";
    size_t needed = 0;
    CHECK_OK(animrt_machine_snapshot(a, m, snapshot, sizeof snapshot, &needed));
    CHECK(strstr(snapshot, "\"leaf\":\"ready\"") != NULL);
    CHECK_OK(animrt_runtime_tick(b, 1.2));
    CHECK_OK(animrt_machine_restore(b, snapshot, 0, &mb));
    CHECK_OK(animrt_machine_part(b, mb, "ring", &ringb));
    CHECK_STATUS(animrt_layer_destroy(b, ringb), ANIMRT_E_STATE);  /* a restored machine owns its parts too */
    CHECK_MESSAGE("is part 'ring' of machine");
    CHECK_OK(animrt_machine_destroy(b, mb));
    CHECK_STATUS(animrt_layer_destroy(b, ringb), ANIMRT_E_HANDLE);
    /* Destroying the machine destroys its part (its animation stops with it). */
    CHECK_OK(animrt_machine_destroy(a, m));
    n = drain(a, ev, 32);
    CHECK(n == 1 && ev[0].type == ANIMRT_EVENT_ANIMATION_STOPPED && ev[0].reason == ANIMRT_STOP_LAYER_DESTROYED);
    CHECK_STATUS(animrt_layer_destroy(a, ring), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("stale");
    /* The next layer takes the part's slot, one generation on, and is the host's. */
    animrt_id next = 0;
    CHECK_OK(animrt_layer_create(a, 0, &next));
    CHECK(next == ring + ((animrt_id)1 << 24));
    CHECK_OK(animrt_layer_destroy(a, next));
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(b);
}

/* A machine restored under a parent layer has its parts under that layer:
 * they take its time (offset 10 s here), as a created machine's do. */
TEST(restored_under_a_parent) {
    animrt_runtime *a = rt_new(), *b = rt_new();
    animrt_id d = 0, m = 0, host = 0, copy = 0, ring = 0;
    CHECK_OK(animrt_definition_load(a, CARD, &d));
    CHECK_OK(animrt_runtime_tick(a, 1));
    CHECK_OK(animrt_machine_create(a, d, 0, NULL, &m));
    char snapshot[8192] = "";
    size_t needed = 0;
    CHECK_OK(animrt_machine_snapshot(a, m, snapshot, sizeof snapshot, &needed));
    CHECK_OK(animrt_runtime_tick(b, 1));
    CHECK_OK(animrt_layer_create(b, 0, &host));
    CHECK_OK(animrt_layer_set_timing(b, host, 0, 1, 10));
    CHECK_OK(animrt_machine_restore(b, snapshot, host, &copy));
    CHECK_OK(animrt_machine_part(b, copy, "ring", &ring));
    double local = 0;
    CHECK_OK(animrt_layer_convert_time(b, 1, 0, ring, &local));
    CHECK(local == 11);
    CHECK_OK(animrt_layer_convert_time(b, 1, 0, host, &local));
    CHECK(local == 11);
    animrt_runtime_destroy(a);
    animrt_runtime_destroy(b);
}

/* A host that removes (or replaces) the animation a state's done waits for:
 * the machine moves on once that call has done its work, so the animation
 * the next state adds under the same key is attached and reported, never
 * detached in the stopped one's place without a word (R2.1, R0.5). */
static const char *AGAIN =
    "{\"name\": \"again\", \"parts\": [{\"name\": \"p\", \"properties\": {\"opacity\": 1}}],"
    " \"animations\": {\"fade\": {\"type\": \"basic\", \"keyPath\": \"opacity\", \"to\": 0.5, \"duration\": 1}},"
    " \"events\": {\"go\": {}}, \"initial\": \"idle\","
    " \"states\": {\"idle\": {\"on\": {\"go\": \"a\"}},"
    "   \"a\": {\"entry\": [{\"animate\": \"fade\", \"part\": \"p\", \"key\": \"f\"}], \"done\": \"b\"},"
    "   \"b\": {\"entry\": [{\"animate\": \"fade\", \"part\": \"p\", \"key\": \"f\"}]}}}";

TEST(done_after_the_hosts_call) {
    for (int how = 0; how < 3; how++) {
        animrt_runtime *rt = rt_new();
        animrt_id d = 0, m = 0, p = 0, mine = 0, added = 0, first = 0, second = 0;
        CHECK_OK(animrt_definition_load(rt, AGAIN, &d));
        CHECK_OK(animrt_runtime_tick(rt, 0));
        CHECK_OK(animrt_machine_create(rt, d, 0, NULL, &m));
        CHECK_OK(animrt_machine_part(rt, m, "p", &p));
        CHECK_OK(animrt_machine_send_json(rt, m, "go", NULL, NULL));
        CHECK_OK(animrt_runtime_tick(rt, 0.1));
        CHECK_OK(animrt_layer_animation_for_key(rt, p, "f", &first));
        animrt_event ev[32];
        drain(rt, ev, 32);
        if (how == 0) CHECK_OK(animrt_layer_remove_animation(rt, p, "f", NULL));
        else if (how == 1) CHECK_OK(animrt_layer_remove_all_animations(rt, p));
        else {
            CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &mine));
            CHECK_OK(animrt_layer_add_animation(rt, p, mine, "f", 0, &added));  /* replaced by b's in turn */
        }
        int32_t state = -1;
        CHECK_OK(animrt_machine_state(rt, m, &state));
        CHECK(state == id_of(rt, d, ANIMRT_NAME_STATE, "b"));
        size_t count = 0;
        CHECK_OK(animrt_layer_animation_count(rt, p, &count));
        CHECK(count == 1);
        CHECK_OK(animrt_layer_animation_for_key(rt, p, "f", &second));
        CHECK(second != first && second != added && second != 0);
        CHECK_OK(animrt_runtime_tick(rt, 0.2));
        CHECK_OK(animrt_runtime_tick(rt, 2));
        size_t n = drain(rt, ev, 32);
        int started = 0, stopped = 0;
        for (size_t k = 0; k < n; k++) {
            if (ev[k].object != second) continue;
            if (ev[k].type == ANIMRT_EVENT_ANIMATION_STARTED) started++;
            if (ev[k].type == ANIMRT_EVENT_ANIMATION_STOPPED && ev[k].reason == ANIMRT_STOP_FINISHED) stopped++;
        }
        CHECK(started == 1 && stopped == 1);
        animrt_runtime_destroy(rt);
    }
}


/* A state given by its last part lists every full name that ends in it up to three, and says how
 * many there are past that; a field index past the fields, (size_t)-1 too, is ANIMRT_E_RANGE with
 * nothing written, never a read before the first field. */
TEST(full_names_and_field_indexes_at_their_edges) {
    animrt_runtime *rt = rt_new();
    animrt_id three = 0, four = 0;
    const char *states = "\"a\": {\"initial\": \"end\", \"states\": {\"end\": {}}},"
                         "\"b\": {\"initial\": \"end\", \"states\": {\"end\": {}}},"
                         "\"c\": {\"initial\": \"end\", \"states\": {\"end\": {}}}";
    char json[512];
    snprintf(json, sizeof json, "{\"name\": \"three\", \"initial\": \"a\", \"states\": {%s}}", states);
    CHECK_OK(animrt_definition_load(rt, json, &three));
    snprintf(json, sizeof json, "{\"name\": \"four\", \"initial\": \"a\", \"states\": {%s, "
                                "\"d\": {\"initial\": \"end\", \"states\": {\"end\": {}}}}}", states);
    CHECK_OK(animrt_definition_load(rt, json, &four));
    int32_t id = 77;
    CHECK_STATUS(animrt_definition_id(rt, three, ANIMRT_NAME_STATE, "end", &id), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'three' has no state named 'end'; states are named in full from the "
                                              "top: did you mean 'a.end' or 'b.end' or 'c.end'?") == 0);
    CHECK_STATUS(animrt_definition_id(rt, four, ANIMRT_NAME_STATE, "end", &id), ANIMRT_E_NOT_FOUND);
    CHECK(strcmp(animrt_last_error_message(), "'four' has no state named 'end'; states are named in full from the "
                                              "top: did you mean 'a.end' or 'b.end' or 'c.end' or another of 4?") == 0);
    CHECK(id == 77);
    animrt_id def = 0;
    CHECK_OK(animrt_definition_load(rt, CARD, &def));
    char buf[32] = "untouched";
    size_t needed = 5;
    int32_t celebrate = id_of(rt, def, ANIMRT_NAME_EMIT, "celebrate");
    CHECK_OK(animrt_definition_field_name(rt, def, ANIMRT_NAME_EMIT, celebrate, 0, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "message") == 0 && needed == 8);
    strcpy(buf, "untouched");
    needed = 5;
    CHECK_STATUS(animrt_definition_field_name(rt, def, ANIMRT_NAME_EMIT, celebrate, (size_t)-1, buf, sizeof buf, &needed), ANIMRT_E_RANGE);
    CHECK_MESSAGE("field index 18446744073709551615 is past the 1 field");
    CHECK(strcmp(buf, "untouched") == 0 && needed == 5);
    CHECK_STATUS(animrt_definition_field_name(rt, def, ANIMRT_NAME_EMIT, celebrate, 1, buf, sizeof buf, &needed), ANIMRT_E_RANGE);
    animrt_runtime_destroy(rt);
}

int main(void) {
    /* First, while nothing has run yet: what the library does the first time (binding symbols,
     * making type metadata) then happens on the small stack too, as it would in a host whose first
     * definition is a deep one. */
    RUN(deep_input_on_a_small_stack);
    RUN(load_and_names);
    RUN(names_through_the_machine);
    RUN(load_errors);
    RUN(run_a_card);
    RUN(bad_sends);
    RUN(events_by_callback);
    RUN(snapshot_and_restore);
    RUN(refused_restore_spends_no_handle);
    RUN(restore_refuses_what_it_cannot_honour);
    RUN(restore_into_a_full_table);
    RUN(whole_number_fields_reported_as_integers);
    RUN(booleans_both_ways);
    RUN(parts_belong_to_the_machine);
    RUN(restored_under_a_parent);
    RUN(done_after_the_hosts_call);
    RUN(full_names_and_field_indexes_at_their_edges);
    return check_report();
}
