/*
 * examples.c — an animrt plugin: two timing functions with parameters,
 * "bounce(n)" and "elastic(period)", and a "like button" machine whose
 * guard, canToggle, the plugin provides.
 *
 *     cc -O3 -fno-trapping-math -shared -fPIC -fvisibility=hidden -I include examples/plugins/examples.c -o libexamples.so -lm
 *
 * (-O3 and -fno-trapping-math let the compiler vectorise the block curves'
 * loops; any flags build a working plugin.)
 *
 * Load it with animrt_plugin_load(rt, "./libexamples.so", &id), or
 * rt.load_plugin("./libexamples.so") in Python (a name without '/' is
 * looked for where dlopen looks, not in the working directory); then
 * "bounce(3)" works wherever a curve name does, and
 * animrt_definition_load_named(rt, "likeButton", &def) loads the machine.
 *
 * init registers the curves as block timing functions (a run of
 * animations per call) where the library has add_timing_function_block,
 * else one value per call. Each is also exported in three shapes a host can
 * use without the plugin: example_bounce_block (animrt_curve_block_fn),
 * example_bounce_curve (animrt_curve_fn) and example_bounce, a plain
 * double f(double) with the defaults, which any library can export and
 * animrt_timing_function_bind binds; the same for elastic.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "animrt.h"

#define EXPORT __attribute__((visibility("default")))

/* ---- timing functions ------------------------------------------------- */

/* 2^k, for -1022 <= k <= 1023, built from its bits. */
static double pow2(int k) {
    uint64_t bits = (uint64_t)(1023 + k) << 52;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* The largest power of two not above d, for a positive normal d: d with
 * its mantissa cleared (a mask, which a compiler vectorises). */
static double power_of_two_below(double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    bits &= 0xfff0000000000000u;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* A ball dropped from the top that bounces n times, each bounce half as
 * long (and a quarter as high) as the one before, and comes to rest at 1.
 * Time is counted in units of the first fall, which lasts 1 / (3 - 2^(1-n))
 * of the whole: the fall covers u in [0, 1], bounce i (1 <= i <= n) the
 * 2^(1-i) units after 3 - 2^(2-i), so 3 - u is in [2^(1-i), 2^(2-i)) and
 * half of its power of two is bounce i's half length, 2^-i. `smallest` is
 * 2^-n, the last bounce's. No loop, no division, no branch and no integer:
 * a loop over many x runs several at once, in vector registers where the
 * compiler can. */
static double bounce(double x, double smallest) {
    x = x < 1 ? x : 1;                 /* at 1 the last bounce ends exactly at rest */
    double u = x * (3 - 2 * smallest);
    double half = 0.5 * power_of_two_below(3 - u);
    half = half > smallest ? half : smallest;
    half = half < 0.5 ? half : 0.5;    /* in the fall: any bounce, its value is not used */
    double w = u - 3 + 3 * half;       /* from the top of bounce i */
    double bouncing = 1 - (half * half - w * w);
    double falling = u <= 1;           /* chosen by arithmetic, not a branch a random x mispredicts */
    return falling * (u * u) + (1 - falling) * bouncing;
}

/* 2π as a double (2 * M_PI, which strict C99 does not declare). */
#define TWO_PI 6.283185307179586

/* Overshoots and rings, like a spring released at 0; `period` is the
 * length of one oscillation (smaller rings faster). */
static double elastic(double x, double period) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    return pow(2, -10 * x) * sin((x - period / 4) * TWO_PI / period) + 1;
}

/* The curves one value per call (animrt_curve_fn): what init registers in
 * a library too old to take block curves, and exported for a host that
 * registers them itself with animrt_timing_function_register. */
EXPORT double example_bounce_curve(double x, const double *params, void *user_data) {
    (void)user_data;
    return bounce(x, pow2(-(int)params[0]));
}

EXPORT double example_elastic_curve(double x, const double *params, void *user_data) {
    (void)user_data;
    return elastic(x, params[0]);
}

/* The curves over arrays (animrt_curve_block_fn), registered by init and
 * exported for animrt_timing_function_register_block: the batch hands over
 * a run of animations on one curve per call. A plain loop over independent
 * values with no call inside (bounce is inlined), so the processor works
 * on several of them at once, and the compiler may vectorise it; y[i]
 * depends on x[i] alone, as the block contract asks. */
EXPORT void example_bounce_block(const double *restrict x, double *restrict y, size_t count, const double *params,
                         void *user_data) {
    double smallest = pow2(-(int)params[0]);
    (void)user_data;
    for (size_t i = 0; i < count; i++) y[i] = bounce(x[i], smallest);
}

EXPORT void example_elastic_block(const double *restrict x, double *restrict y, size_t count, const double *params,
                          void *user_data) {
    double period = params[0];
    (void)user_data;
    for (size_t i = 0; i < count; i++) y[i] = elastic(x[i], period);
}

/* The same curves with their defaults, as plain C functions to bind. */
EXPORT double example_bounce(double x) { return bounce(x, 1.0 / 16); }  /* 4 bounces */
EXPORT double example_elastic(double x) { return elastic(x, 0.3); }

/* ---- the like button's guard ------------------------------------------ */

/* canToggle(toggles, limit): whether one more toggle is allowed. Also
 * exported, to bind with animrt_function_bind(…, "bool(f64, f64)", …). */
EXPORT bool example_can_toggle(double toggles, double limit) { return toggles < limit; }

static animrt_status can_toggle(void *user_data, const animrt_value *args, size_t count, animrt_value *result) {
    (void)user_data;
    (void)count; /* animrt checked it against the signature */
    result->boolean = example_can_toggle(args[0].number, args[1].number);
    return ANIMRT_OK;
}

/* ---- the like button -------------------------------------------------- */

static const char like_button[] =
    "{"
    "\"name\": \"likeButton\","
    "\"description\": \"A heart that pops when liked and settles when unliked; after too many toggles it locks.\","
    "\"config\": {"
    "  \"likes\": {\"type\": \"number\", \"default\": 0, \"min\": 0, \"description\": \"likes the post has\"},"
    "  \"maxToggles\": {\"type\": \"number\", \"default\": 6, \"min\": 1, \"description\": \"toggles allowed before the button locks\"}"
    "},"
    "\"context\": {"
    "  \"likes\": {\"type\": \"number\", \"initial\": \"config.likes\"},"
    "  \"toggles\": {\"type\": \"number\", \"initial\": 0}"
    "},"
    "\"events\": {\"tap\": {\"description\": \"the user tapped the heart\"}},"
    "\"parts\": [{\"name\": \"heart\", \"properties\": {\"opacity\": 0.4, \"transform.scale\": 1}}],"
    "\"animations\": {"
    "  \"pop\": {\"type\": \"basic\", \"keyPath\": \"transform.scale\", \"from\": 0.5, \"to\": 1, \"duration\": 0.6,"
    "          \"timingFunction\": \"bounce(3)\"},"
    "  \"settle\": {\"type\": \"basic\", \"keyPath\": \"transform.scale\", \"from\": 1.3, \"to\": 1, \"duration\": 0.8,"
    "             \"timingFunction\": \"elastic(0.3)\"}"
    "},"
    "\"initial\": \"unliked\","
    "\"states\": {"
    "  \"unliked\": {"
    "    \"entry\": [{\"set\": \"opacity\", \"part\": \"heart\", \"value\": 0.4}],"
    "    \"on\": {\"tap\": ["
    "      {\"guard\": \"canToggle(context.toggles, config.maxToggles)\", \"target\": \"liked\","
    "       \"actions\": [{\"assign\": {\"likes\": \"context.likes + 1\", \"toggles\": \"context.toggles + 1\"}}]},"
    "      {\"target\": \"locked\"}]}"
    "  },"
    "  \"liked\": {"
    "    \"entry\": [{\"set\": \"opacity\", \"part\": \"heart\", \"value\": 1},"
    "              {\"animate\": \"pop\", \"part\": \"heart\", \"key\": \"scale\"}],"
    "    \"on\": {\"tap\": ["
    "      {\"guard\": \"canToggle(context.toggles, config.maxToggles)\", \"target\": \"unliked\","
    "       \"actions\": [{\"assign\": {\"likes\": \"context.likes - 1\", \"toggles\": \"context.toggles + 1\"}},"
    "                   {\"animate\": \"settle\", \"part\": \"heart\", \"key\": \"scale\"}]},"
    "      {\"target\": \"locked\"}]}"
    "  },"
    "  \"locked\": {\"description\": \"too many toggles: taps are ignored\", \"ignore\": [\"tap\"]}"
    "}"
    "}";

/* ---- the entry point -------------------------------------------------- */

/* Loads of this library that are initialised and not yet finished, across
 * every runtime of the process (each runtime's load is initialised on its
 * own). Exported so that tests can watch init and fini. */
static int live_loads;

EXPORT int32_t example_live_loads(void) { return __atomic_load_n(&live_loads, __ATOMIC_SEQ_CST); }

/* Whether the last init registered the curves as block timing functions
 * (1) or one value per call (0); exported for tests too. */
static int block_curves;

EXPORT int32_t example_block_curves(void) { return __atomic_load_n(&block_curves, __ATOMIC_SEQ_CST); }

static animrt_status init(const animrt_host_api *api, animrt_registrar *reg, void **state) {
    double bounces = 4, period = 0.3;
    double bounce_min = 1, bounce_max = 10, period_min = 0.05, period_max = 2;
    animrt_status s;
    (void)state;
    /* Block curves where the library takes them (its table is long enough),
     * else one value per call: the plugin loads into either. */
    int blocks = ANIMRT_HOST_API_HAS(api, add_timing_function_block);
    if (blocks) {
        if ((s = api->add_timing_function_block(reg, "bounce", example_bounce_block, NULL, 1, &bounces, &bounce_min,
                                                &bounce_max)))
            return s;
        if ((s = api->add_timing_function_block(reg, "elastic", example_elastic_block, NULL, 1, &period, &period_min,
                                                &period_max)))
            return s;
    } else {
        if ((s = api->add_timing_function(reg, "bounce", example_bounce_curve, NULL, 1, &bounces, &bounce_min,
                                          &bounce_max)))
            return s;
        if ((s = api->add_timing_function(reg, "elastic", example_elastic_curve, NULL, 1, &period, &period_min,
                                          &period_max)))
            return s;
    }
    if ((s = api->add_function(reg, "canToggle", "bool(f64, f64)", can_toggle, NULL))) return s;
    if ((s = api->add_definition(reg, "likeButton", like_button))) return s;
    __atomic_store_n(&block_curves, blocks, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&live_loads, 1, __ATOMIC_SEQ_CST);
    return ANIMRT_OK;
}

static void fini(void *state) {
    (void)state;
    __atomic_sub_fetch(&live_loads, 1, __ATOMIC_SEQ_CST);
}

ANIMRT_PLUGIN_DEFINE("examples", "1.0", init, fini);
