/* Bulk calls through the C ABI: animrt_layer_create_many and
 * animrt_layer_add_animations. A bulk add must give what the same adds made
 * one by one give (handles, events, values), and add nothing on bad input. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"

#define N 400
#define MASK ((1ULL << 48) - 1) /* a handle without its runtime's tag */

static unsigned long long seed;
static double next_unit(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 33) / 2147483648.0;
}

typedef struct { double begin[N], duration[N], from[N], to[N]; } columns;

static void make_columns(columns *c) {
    seed = 11;
    for (int i = 0; i < N; i++) {
        c->begin[i] = i % 4 == 0 ? 0 : 0.01 + next_unit();
        c->duration[i] = 0.05 + next_unit();
        c->from[i] = 100 * next_unit();
        c->to[i] = 100 * next_unit();
    }
}

/* N layers; every 9th under a parent with its own time, every 10th already
 * animating opacity under the key "k" (replaced by the adds). */
static animrt_runtime *scene(animrt_id *layers, animrt_id *animation) {
    animrt_runtime *rt;
    animrt_id slow, a;
    animrt_keypath opacity;
    double from = 0.5, to = 0.25, one = 1;
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK_OK(animrt_keypath_id(rt, "opacity", &opacity));
    CHECK_OK(animrt_layer_create(rt, 0, &slow));
    CHECK_OK(animrt_layer_set_timing(rt, slow, 0.1, 2, 0));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
    CHECK_OK(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, one));
    for (int i = 0; i < N; i++) {
        CHECK_OK(animrt_layer_create(rt, i % 9 == 4 ? slow : 0, &layers[i]));
        if (i % 10 == 3) CHECK_OK(animrt_layer_add_animation(rt, layers[i], a, "k", 0, NULL));
    }
    CHECK_OK(animrt_animation_destroy(rt, a));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", animation));
    CHECK_OK(animrt_animation_set_timing_function(rt, *animation, "easeInEaseOut"));
    CHECK_OK(animrt_animation_set_fill_mode(rt, *animation, ANIMRT_FILL_BOTH));
    CHECK_OK(animrt_animation_set_flag(rt, *animation, ANIMRT_FLAG_REMOVED_ON_COMPLETION, 0));
    return rt;
}

/* Ticks 40 frames; writes every opacity after each frame and the events. */
static size_t run(animrt_runtime *rt, const animrt_id *layers, double *values, uint64_t *events) {
    animrt_keypath opacity;
    animrt_event buffer[256];
    size_t count, n = 0, k = 0;
    CHECK_OK(animrt_keypath_id(rt, "opacity", &opacity));
    for (int f = 0; f < 40; f++) {
        CHECK_OK(animrt_runtime_tick(rt, f / 30.0));
        for (int i = 0; i < N; i++) CHECK_OK(animrt_layer_get_presentation(rt, layers[i], opacity, &values[k++], 1, &count));
        do {
            CHECK_OK(animrt_event_poll(rt, buffer, 256, &count));
            for (size_t e = 0; e < count && n + 2 <= 4 * N * 4; e++) {
                events[n++] = (uint64_t)buffer[e].type << 32 | (uint32_t)buffer[e].reason;
                events[n++] = buffer[e].object & MASK;
            }
        } while (count == 256);
    }
    return n;
}

TEST(bulk_equals_one_by_one) {
    static animrt_id l1[N], l2[N], h1[N], h2[N];
    static double v1[40 * N], v2[40 * N];
    static uint64_t e1[4 * N * 4], e2[4 * N * 4];
    static columns c;
    animrt_id a1, a2;
    make_columns(&c);
    animrt_runtime *one = scene(l1, &a1), *many = scene(l2, &a2);
    for (int i = 0; i < N; i++) {
        CHECK_OK(animrt_animation_set_timing(one, a1, ANIMRT_TIMING_BEGIN_TIME, c.begin[i]));
        CHECK_OK(animrt_animation_set_timing(one, a1, ANIMRT_TIMING_DURATION, c.duration[i]));
        CHECK_OK(animrt_animation_set_value(one, a1, ANIMRT_FROM, &c.from[i], 1));
        CHECK_OK(animrt_animation_set_value(one, a1, ANIMRT_TO, &c.to[i], 1));
        CHECK_OK(animrt_layer_add_animation(one, l1[i], a1, "k", 0, &h1[i]));
    }
    animrt_column cols[4] = {
        {ANIMRT_COLUMN_BEGIN_TIME, c.begin}, {ANIMRT_COLUMN_DURATION, c.duration},
        {ANIMRT_COLUMN_FROM, c.from}, {ANIMRT_COLUMN_TO, c.to},
    };
    CHECK_OK(animrt_layer_add_animations(many, a2, l2, N, cols, 4, "k", 0, h2));
    int same = 1;
    for (int i = 0; i < N; i++) same &= (h1[i] & MASK) == (h2[i] & MASK);
    CHECK(same);
    size_t n1 = run(one, l1, v1, e1), n2 = run(many, l2, v2, e2);
    CHECK(n1 > 2 * N);
    CHECK(n1 == n2 && memcmp(e1, e2, n1 * sizeof e1[0]) == 0);
    CHECK(memcmp(v1, v2, sizeof v1) == 0);
    /* The description is unchanged: its duration is still the default. */
    double d = -1;
    CHECK_OK(animrt_animation_get_timing(many, a2, ANIMRT_TIMING_DURATION, &d));
    CHECK(d == 0);
    animrt_runtime_destroy(one);
    animrt_runtime_destroy(many);
}

TEST(bulk_bad_input_adds_nothing) {
    static animrt_id layers[N];
    static columns c;
    animrt_id a, out[2];
    size_t count;
    make_columns(&c);
    animrt_runtime *rt = scene(layers, &a);
    animrt_column cols[2] = {{ANIMRT_COLUMN_DURATION, c.duration}, {ANIMRT_COLUMN_TO, c.to}};
    c.duration[17] = -2;
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, N, cols, 2, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("item 17");
    c.duration[17] = 1;
    c.to[30] = NAN;
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, N, cols, 2, NULL, 0, NULL), ANIMRT_E_INVALID);
    CHECK_MESSAGE("item 30");
    c.to[30] = 1;
    /* Ends a difference apart larger than a double holds, as a single add refuses them. */
    c.from[44] = -1e308;
    c.to[44] = 1e308;
    animrt_column ends[2] = {{ANIMRT_COLUMN_FROM, c.from}, {ANIMRT_COLUMN_TO, c.to}};
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, N, ends, 2, NULL, 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("item 44");
    c.from[44] = c.to[44] = 1;
    animrt_column unknown = {(animrt_column_field)13, c.to};
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, N, &unknown, 1, NULL, 0, NULL), ANIMRT_E_ENUM);
    animrt_column twice[2] = {{ANIMRT_COLUMN_TO, c.to}, {ANIMRT_COLUMN_TO, c.from}};
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, N, twice, 2, NULL, 0, NULL), ANIMRT_E_INVALID);
    animrt_column null_values = {ANIMRT_COLUMN_TO, NULL};
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, N, &null_values, 1, NULL, 0, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, NULL, 3, cols, 2, NULL, 0, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, (size_t)-1, cols, 2, NULL, 0, NULL), ANIMRT_E_RANGE);
    /* A velocity column on a basic animation: it has none. */
    animrt_column velocity = {ANIMRT_COLUMN_VELOCITY, c.to};
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, N, &velocity, 1, NULL, 0, NULL), ANIMRT_E_KIND);
    animrt_id stale = layers[5];
    CHECK_OK(animrt_layer_destroy(rt, stale));
    CHECK_STATUS(animrt_layer_add_animations(rt, a, layers, N, cols, 2, NULL, 0, NULL), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("layers[5]");
    for (int i = 0; i < N; i++) {
        if (i == 5) continue;
        CHECK_OK(animrt_layer_animation_count(rt, layers[i], &count));
        if (count != (i % 10 == 3 ? 1u : 0u)) { CHECK(!"an animation was added"); break; }
    }
    /* Nothing to add is fine, and so is a NULL out. */
    CHECK_OK(animrt_layer_add_animations(rt, a, NULL, 0, NULL, 0, NULL, 0, NULL));
    CHECK_OK(animrt_layer_add_animations(rt, a, &layers[6], 2, cols, 2, "x", 0, out));
    CHECK_OK(animrt_layer_animation_count(rt, layers[6], &count));
    CHECK(count == 1);
    animrt_runtime_destroy(rt);
}

TEST(create_many) {
    animrt_runtime *rt;
    animrt_id parent, *layers = malloc(5000 * sizeof *layers), found;
    double x = 3, y;
    size_t count;
    animrt_keypath px;
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK_OK(animrt_keypath_id(rt, "position.x", &px));
    CHECK_OK(animrt_layer_create(rt, 0, &parent));
    CHECK_OK(animrt_layer_create_many(rt, parent, 5000, layers));
    int distinct = 1;
    for (int i = 1; i < 5000; i++) distinct &= layers[i] != layers[i - 1] && layers[i] != 0;
    CHECK(distinct);
    CHECK_OK(animrt_layer_set_value(rt, layers[4999], px, &x, 1));
    CHECK_OK(animrt_layer_get_value(rt, layers[4999], px, &y, 1, &count));
    CHECK(y == 3);
    /* They are the parent's children, in order: moving one under itself is refused. */
    CHECK_STATUS(animrt_layer_set_parent(rt, parent, layers[10]), ANIMRT_E_INVALID);
    CHECK_STATUS(animrt_layer_create_many(rt, parent, 3, NULL), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_create_many(rt, layers[0] ^ (1ULL << 24), 3, &found), ANIMRT_E_HANDLE);
    CHECK_STATUS(animrt_layer_create_many(rt, 0, (size_t)-1, layers), ANIMRT_E_RANGE);
    CHECK_OK(animrt_layer_create_many(rt, 0, 0, NULL));
    CHECK_OK(animrt_layer_create_many(rt, parent, 0, NULL));
    /* None to make still names a parent that is no layer, as one layer's create does. */
    CHECK_STATUS(animrt_layer_create_many(rt, layers[0] ^ (1ULL << 24), 0, NULL), ANIMRT_E_HANDLE);
    CHECK_OK(animrt_layer_destroy(rt, layers[0]));
    animrt_runtime_destroy(rt);
    free(layers);
}

/* Names are remembered by their text, not by where they are: a buffer the
 * host reuses for another name gives the other curve and key path. */
TEST(names_by_text) {
    animrt_runtime *rt;
    char buf[64], back[64];
    size_t needed;
    animrt_id a[4];
    static const char *paths[4] = {"opacity", "position.x", "opacity", "bounds.size.width"};
    static const char *curves[4] = {"easeIn", "easeOut", "default", "easeIn"};
    CHECK_OK(animrt_runtime_create(0, &rt));
    for (int i = 0; i < 4; i++) {
        strcpy(buf, paths[i]);
        CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, buf, &a[i]));
        strcpy(buf, curves[i]);
        CHECK_OK(animrt_animation_set_timing_function(rt, a[i], buf));
        strcpy(buf, "nonsense");
    }
    strcpy(buf, "opacty");
    CHECK_STATUS(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, buf, &a[0]), ANIMRT_E_NOT_FOUND);
    CHECK_STATUS(animrt_animation_set_timing_function(rt, a[1], buf), ANIMRT_E_NOT_FOUND);
    for (int i = 0; i < 4; i++) {
        CHECK_OK(animrt_animation_get_key_path(rt, a[i], back, sizeof back, &needed));
        CHECK(strcmp(back, paths[i]) == 0);
        CHECK_OK(animrt_animation_get_timing_function(rt, a[i], back, sizeof back, &needed));
        CHECK(strcmp(back, curves[i]) == 0);
    }
    animrt_runtime_destroy(rt);
}

/* animrt_layer_set_values: the values of the same sets made one at a time,
 * all or none, each refusal naming its item. */
TEST(set_values) {
    animrt_runtime *rt;
    animrt_keypath opacity, position;
    animrt_id layers[100], one;
    double xy[200], back[2], alpha[100];
    size_t count;
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK_OK(animrt_keypath_id(rt, "opacity", &opacity));
    CHECK_OK(animrt_keypath_id(rt, "position", &position));
    CHECK_OK(animrt_layer_create_many(rt, 0, 100, layers));
    CHECK_OK(animrt_layer_create(rt, 0, &one));
    for (int i = 0; i < 200; i++) xy[i] = i * 0.5;
    for (int i = 0; i < 100; i++) alpha[i] = i / 100.0;
    CHECK_OK(animrt_layer_set_values(rt, layers, 100, position, xy, 200));
    CHECK_OK(animrt_layer_set_values(rt, layers, 100, opacity, alpha, 100));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_layer_get_presentation(rt, layers[37], position, back, 2, &count));
    CHECK(count == 2 && back[0] == 37 && back[1] == 37.5);
    /* The same as one set: the lone layer given layer 37's value shows the same. */
    CHECK_OK(animrt_layer_set_value(rt, one, position, xy + 74, 2));
    CHECK_OK(animrt_layer_get_value(rt, one, position, back, 2, &count));
    CHECK(back[0] == 37 && back[1] == 37.5);
    /* Refusals change nothing and name the item. */
    alpha[99] = NAN;
    CHECK_STATUS(animrt_layer_set_values(rt, layers, 100, opacity, alpha, 100), ANIMRT_E_INVALID);
    CHECK_MESSAGE("values for layers[99]");
    alpha[99] = 0.99;
    for (int i = 0; i < 100; i++) alpha[i] = 0.5;
    animrt_id twice[3] = {layers[4], layers[5], layers[4]};
    CHECK_STATUS(animrt_layer_set_values(rt, twice, 3, opacity, alpha, 3), ANIMRT_E_INVALID);
    CHECK_MESSAGE("layers[2] is layers[0] again");
    CHECK_STATUS(animrt_layer_set_values(rt, layers, 100, position, xy, 199), ANIMRT_E_INVALID);
    CHECK_MESSAGE("2 numbers per layer, so 200 are needed");
    CHECK_STATUS(animrt_layer_set_values(rt, NULL, 3, opacity, alpha, 3), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_set_values(rt, layers, 3, opacity, NULL, 3), ANIMRT_E_NULL);
    CHECK_STATUS(animrt_layer_set_values(rt, layers, (size_t)-1, opacity, alpha, 3), ANIMRT_E_RANGE);
    CHECK_STATUS(animrt_layer_set_values(rt, layers, 3, 12345, alpha, 3), ANIMRT_E_NOT_FOUND);
    CHECK_OK(animrt_layer_destroy(rt, one));
    animrt_id stale[2] = {layers[0], one};
    CHECK_STATUS(animrt_layer_set_values(rt, stale, 2, opacity, alpha, 2), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("layers[1]");
    for (int i = 0; i < 100; i++) {
        CHECK_OK(animrt_layer_get_value(rt, layers[i], opacity, back, 1, &count));
        if (back[0] != i / 100.0) { CHECK(!"a refused bulk set changed a value"); break; }
    }
    CHECK_OK(animrt_layer_set_values(rt, NULL, 0, opacity, NULL, 0));  /* nothing to set */
    /* Counts past what any array holds are refused before anything is read,
     * and the values a count of transforms needs are counted without overflow. */
    CHECK_STATUS(animrt_layer_set_values(rt, layers, 3, opacity, alpha, (size_t)-1), ANIMRT_E_RANGE);
    CHECK_MESSAGE("value_count is 18446744073709551615; at most 268435456 elements are accepted");
    animrt_keypath transform;
    CHECK_OK(animrt_keypath_id(rt, "transform", &transform));
    CHECK_STATUS(animrt_layer_set_values(rt, layers, (size_t)1 << 28, transform, xy, (size_t)1 << 28), ANIMRT_E_INVALID);
    CHECK_MESSAGE("'transform' takes 16 numbers per layer, so 4294967296 are needed");
    /* A layer of another runtime is named, and nothing is set. */
    animrt_runtime *other;
    animrt_id theirs[1];
    CHECK_OK(animrt_runtime_create(0, &other));
    CHECK_OK(animrt_layer_create_many(other, 0, 1, theirs));
    animrt_id mixed[2] = {layers[0], theirs[0]};
    CHECK_STATUS(animrt_layer_set_values(rt, mixed, 2, opacity, alpha, 2), ANIMRT_E_HANDLE);
    CHECK_MESSAGE("layers[1]: layer handle");
    CHECK_MESSAGE("belongs to another runtime");
    CHECK_OK(animrt_layer_get_value(rt, layers[0], opacity, back, 1, &count));
    CHECK(back[0] == 0);
    animrt_runtime_destroy(other);
    animrt_runtime_destroy(rt);
}

int main(void) {
    RUN(names_by_text);
    RUN(set_values);
    RUN(bulk_equals_one_by_one);
    RUN(bulk_bad_input_adds_nothing);
    RUN(create_many);
    return check_report();
}
