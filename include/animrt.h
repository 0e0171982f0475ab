/*
 * animrt.h — the C interface of animrt, a headless animation-and-state runtime.
 *
 * animrt brings Core Animation's model (timing functions; basic, keyframe,
 * spring and group animations; model and presentation values) and
 * DispatchGroup-style completion barriers to any host that can call C. The
 * host drives time with animrt_runtime_tick() and reads what is on screen;
 * animrt never draws and never reads a clock.
 *
 * Conventions
 *  - Every function that can fail returns an animrt_status; ANIMRT_OK is 0.
 *    Results come back through out-parameters, which are left untouched on
 *    failure. A failed call changes nothing.
 *  - animrt_last_error_message() explains the most recent failure on the
 *    calling thread, naming the bad value and, where it can, the fix.
 *  - The host owns one animrt_runtime pointer. Everything inside a runtime is
 *    named by an animrt_id handle (slot and generation). 0 is never a valid
 *    handle; a destroyed, stale or foreign handle gives ANIMRT_E_HANDLE and
 *    never touches freed memory. Whoever creates an object destroys it;
 *    destroying the runtime destroys everything in it.
 *  - What handle checks guarantee: a destroyed object's handle is never
 *    valid again (a slot reused ANIMRT_GENERATIONS_MAX times is retired,
 *    not wrapped); a handle of another runtime alive at the same time is
 *    always refused (live runtimes have distinct tags). Tags are reused
 *    only after every other free tag has been used since, so a handle that
 *    outlived its runtime is refused unless ANIMRT_RUNTIMES_MAX runtimes
 *    have been created since; even then it can only name an object of the
 *    same kind, slot and generation, never freed memory.
 *  - Strings in are NUL-terminated UTF-8, copied; the caller keeps them.
 *    Arrays in (values, key times, handles, names) are copied likewise;
 *    what animrt keeps of the host's (callbacks, their user_data) is said
 *    where it is taken.
 *    Key paths, property names and animation keys are at most
 *    ANIMRT_NAME_MAX bytes (without the NUL; longer: ANIMRT_E_RANGE, after
 *    reading no more than that); so are timing function names, while
 *    functional notations (linear(…) with its 10 000 stops) and machines
 *    have limits of their own (docs/timing.md, docs/machines.md).
 *    Strings out go into caller buffers (buf, cap, needed): *needed is
 *    set to the bytes the string takes, its NUL included, whether or not
 *    it fit. Too small a buffer gives ANIMRT_E_BUFFER and is not written at
 *    all (no truncated string); buf NULL with cap 0 asks for the size that
 *    way (a NULL buf counts as no room, whatever cap says).
 *  - Arrays of doubles out follow the same rule (out, cap, and the count
 *    of doubles the value has, named `needed` or `count`: the two names
 *    mean the same). animrt_event_poll's *count is how many it wrote, and
 *    its out may be NULL only with cap 0 (else ANIMRT_E_NULL).
 *    A string's `needed` may be NULL (the NUL ends it); an array's count
 *    may not (ANIMRT_E_NULL).
 *  - Values are arrays of doubles: 1 for a scalar, 2 for a point (x, y) or
 *    size (width, height), 4 for a rect (x, y, width, height) or a color
 *    (r, g, b, a), 16 for a transform (m11 … m44, row-major, Core Animation
 *    layout). Key paths are Core Animation's: "opacity", "position.x",
 *    "bounds.size.width", "transform.rotation.z", "transform.scale", …
 *  - Presentation values are always finite. Whatever validation accepted
 *    is evaluated without trapping; what could never give a finite value
 *    (keyframes too far apart to interpolate, a spring whose closed form
 *    overflows) is refused with ANIMRT_E_RANGE when set or added. Where a
 *    value still overflows at a tick (a curve overshooting past the
 *    doubles, an end taken from the model), what is shown is the largest
 *    finite double of its sign, or the model value for what would be NaN.
 *  - Threads: a runtime may be used from several threads; calls on one
 *    runtime are serialised inside it. Separate runtimes share nothing.
 *    Besides animrt_last_error_message(), only transactions depend on the
 *    calling thread (the OS thread): each thread has its own, as with Core
 *    Animation (animrt_transaction_begin).
 *    Using a runtime pointer after animrt_runtime_destroy() returned is
 *    undefined, as with any freed object (see Events for the one exception).
 *  - Every cost and table is bounded: the limits are the ANIMRT_*_MAX
 *    macros below (docs/limits.md); crossing one is a status, never a crash.
 */
#ifndef ANIMRT_H
#define ANIMRT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ===================================================================== */
/* Versions                                                              */
/* ===================================================================== */

/* MINOR rises when functions or constants are added (0.2: animrt_timer_pending,
 * animrt_animation_get_lifecycle; 0.3: ANIMRT_STRING_MAX, which
 * animrt_function_call holds a string result to, and
 * animrt_animation_set_flag, animrt_function_bind,
 * animrt_timing_function_bind and animrt_plugin_load refusing flags that
 * would do nothing and empty paths); before 1.0, also when a function
 * changes. */
#define ANIMRT_VERSION_MAJOR 0
#define ANIMRT_VERSION_MINOR 3
#define ANIMRT_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, as animrt_version() returns it. */
#define ANIMRT_VERSION_NUMBER \
    (ANIMRT_VERSION_MAJOR * 10000 + ANIMRT_VERSION_MINOR * 100 + ANIMRT_VERSION_PATCH)
/* Version of the plugin entry point; plugins are checked against it. */
#define ANIMRT_PLUGIN_ABI_VERSION 1

/* The library's version number (compare with ANIMRT_VERSION_NUMBER). */
uint32_t animrt_version(void);
/* The library's version as a static string, "0.3.0". */
const char *animrt_version_string(void);

/* ===================================================================== */
/* Limits                                                                */
/* ===================================================================== */

/* Bytes in a name: key path, property, animation key, timing function. */
#define ANIMRT_NAME_MAX 255
/* Bytes in a function's string result (without the NUL): a buffer of
 * ANIMRT_STRING_MAX + 1 bytes holds any, so animrt_function_call() never
 * loses one to too small a buffer after the function has run. */
#define ANIMRT_STRING_MAX 1048576
/* Runtimes alive at the same time in one process. */
#define ANIMRT_RUNTIMES_MAX 65535
/* Objects of one kind (layers, animations, barriers, …) alive in a runtime. */
#define ANIMRT_OBJECTS_MAX 16777215
/* Objects one handle slot holds in turn before it is retired. */
#define ANIMRT_GENERATIONS_MAX 1048575
/* Properties in a runtime, the 14 built-in ones included. */
#define ANIMRT_PROPERTIES_MAX 65536
/* Distinct key paths a runtime gives ids for (animrt_keypath_id). */
#define ANIMRT_KEYPATHS_MAX 32768
/* Animations inside one group, counting those in nested groups. */
#define ANIMRT_GROUP_SIZE_MAX 1024
/* Levels of groups inside groups (a group of plain animations is 1). */
#define ANIMRT_GROUP_DEPTH_MAX 16
/* Transactions open at once on one thread. */
#define ANIMRT_TRANSACTION_DEPTH_MAX 256
/* Notifies waiting on one barrier for its count to reach zero. */
#define ANIMRT_BARRIER_NOTIFIES_MAX 1048576
/* The largest event queue animrt_runtime_create() accepts. */
#define ANIMRT_EVENT_CAPACITY_MAX 16777216

/* ===================================================================== */
/* Status codes and errors                                               */
/* ===================================================================== */

typedef int32_t animrt_status;
enum {
    ANIMRT_OK = 0,
    ANIMRT_E_NULL = 1,       /* a required pointer was NULL */
    ANIMRT_E_INVALID = 2,    /* malformed argument: NaN/inf, invalid UTF-8, empty name */
    ANIMRT_E_RANGE = 3,      /* number out of range: negative duration, x1 > 1, … */
    ANIMRT_E_HANDLE = 4,     /* zero, stale, destroyed, wrong-kind or foreign handle */
    ANIMRT_E_NOT_FOUND = 5,  /* unknown key path or name */
    ANIMRT_E_KIND = 6,       /* value of the wrong kind or component count */
    ANIMRT_E_BUFFER = 7,     /* caller buffer too small; *needed was set */
    ANIMRT_E_STATE = 8,      /* not allowed now: leave without enter, commit without begin */
    ANIMRT_E_EXISTS = 9,     /* name already taken */
    ANIMRT_E_NOMEM = 10,     /* out of memory or handle slots */
    ANIMRT_E_TIME = 11,      /* tick time not finite or earlier than the last tick */
    ANIMRT_E_ENUM = 12,      /* unknown enum value */
    ANIMRT_E_VERSION = 13,   /* a plugin built for another ANIMRT_PLUGIN_ABI_VERSION */
    ANIMRT_E_CALLBACK = 14   /* code outside animrt failed: a plugin's init, a host or plugin function */
};

/* A static name for a status ("ANIMRT_E_HANDLE"); "ANIMRT_E_UNKNOWN" for
 * values that are not statuses. Never NULL. */
const char *animrt_status_name(animrt_status status);

/* The message of the most recent failed call on this thread, or "" if none.
 * A call that succeeds leaves it as it was, so read it only after a status
 * other than ANIMRT_OK. Owned by animrt; valid until the next failing call
 * on this thread. */
const char *animrt_last_error_message(void);

/* ===================================================================== */
/* Runtime                                                               */
/* ===================================================================== */

typedef struct animrt_runtime animrt_runtime;
typedef uint64_t animrt_id;

/* Creates a runtime. event_capacity bounds the event queue (0: 65536; at
 * most ANIMRT_EVENT_CAPACITY_MAX, else ANIMRT_E_RANGE; below 2 holds 2),
 * its last slot kept for the overflow notice: a queue of 4 stores 3 events.
 * When the queue is full, later events are counted, not stored, and an
 * ANIMRT_EVENT_OVERFLOW event carrying the count is delivered once there is
 * room: no event is lost without the host being told. The strings of queued
 * payloads are bounded too (64 MiB together): an event that would pass that
 * is counted the same way. ANIMRT_E_NOMEM when
 * ANIMRT_RUNTIMES_MAX runtimes are alive. */
animrt_status animrt_runtime_create(uint32_t event_capacity, animrt_runtime **out);

/* Destroys a runtime and everything in it. Animations still attached stop
 * with ANIMRT_STOP_RUNTIME_DESTROYED; if an event callback is set, it
 * receives every event still queued, then those last ones, before this
 * returns, and nothing after (see Events). None of the last ones is lost
 * to the queue's capacity: whenever the queue fills, the callback receives
 * what it holds before the next is queued, so every animation's STOPPED
 * arrives, once (events a full queue lost before destroy are still
 * reported by one ANIMRT_EVENT_OVERFLOW, in their place). Without a
 * callback nothing is delivered. NULL is ignored. */
void animrt_runtime_destroy(animrt_runtime *rt);

/* Advances the runtime to `now` (seconds on the host's monotonic clock):
 * stamps animations added with begin time 0 since the last tick, fires due
 * timers (at the first tick, those started before it are moved to count
 * from `now`), evaluates every animation, then reports lifecycle events. `now`
 * must be finite and not earlier than the previous tick (ANIMRT_E_TIME). */
animrt_status animrt_runtime_tick(animrt_runtime *rt, double now);

/* The time of the last tick (0 before the first). */
animrt_status animrt_runtime_time(animrt_runtime *rt, double *out);

/* Lets animrt_runtime_tick() evaluate large batches of animations on up to
 * `threads` threads (1, the default: only the ticking thread; 0: one per
 * processor; more than 256: 256). Results, values and event order, are
 * the same whatever the count. */
animrt_status animrt_runtime_set_threads(animrt_runtime *rt, uint32_t threads);

/* ===================================================================== */
/* Key paths and properties                                              */
/* ===================================================================== */

typedef int32_t animrt_keypath;

typedef enum animrt_value_kind {
    ANIMRT_VALUE_SCALAR = 0,   /* 1 double */
    ANIMRT_VALUE_POINT = 1,    /* x, y */
    ANIMRT_VALUE_SIZE = 2,     /* width, height */
    ANIMRT_VALUE_RECT = 3,     /* x, y, width, height */
    ANIMRT_VALUE_COLOR = 4,    /* r, g, b, a */
    ANIMRT_VALUE_TRANSFORM = 5 /* 16 doubles, m11 … m44 */
} animrt_value_kind;

/* Resolves a key path once into an id for the value calls: a property name,
 * optionally a dot and one of its sub-paths ("position.x"). Anything else —
 * unknown, empty, a trailing or doubled dot — gives ANIMRT_E_NOT_FOUND and
 * suggests the closest known key path (a bounded search, made after the
 * runtime's lock is released). The same key path gives the same id each
 * time. An id belongs to the runtime that gave it: any other runtime
 * refuses it with ANIMRT_E_NOT_FOUND (a host with several runtimes resolves
 * its key paths in each). Past ANIMRT_KEYPATHS_MAX distinct key paths:
 * ANIMRT_E_RANGE. */
animrt_status animrt_keypath_id(animrt_runtime *rt, const char *key_path, animrt_keypath *out);

/* The kind of value a key path takes and its number of doubles (either
 * pointer may be NULL). */
animrt_status animrt_keypath_info(animrt_runtime *rt, animrt_keypath key_path,
                                  animrt_value_kind *kind, size_t *components);

/* Defines a host property `name` of the given kind with its initial value
 * (`count` must match the kind). It is then animatable like any other.
 * ANIMRT_E_RANGE past ANIMRT_PROPERTIES_MAX properties. */
animrt_status animrt_property_define(animrt_runtime *rt, const char *name, animrt_value_kind kind,
                                     const double *initial, size_t count);

/* ===================================================================== */
/* Layers                                                                */
/* ===================================================================== */

/* Creates a layer, as the last child of `parent` (0: a root). */
animrt_status animrt_layer_create(animrt_runtime *rt, animrt_id parent, animrt_id *out);

/* Creates `count` layers at once, each the last child of `parent` (0:
 * roots), their handles in out[0 … count). On error none is created. A
 * count of 0 makes none and may pass out NULL; `parent` is still checked. */
animrt_status animrt_layer_create_many(animrt_runtime *rt, animrt_id parent, size_t count, animrt_id *out);

/* Destroys a layer: its animations stop (ANIMRT_STOP_LAYER_DESTROYED), its
 * children become roots, its handle becomes stale. A machine's part
 * (animrt_machine_part) belongs to the machine: destroying it is refused
 * with ANIMRT_E_STATE, naming the machine and the part, and nothing changes;
 * animrt_machine_destroy destroys the machine's parts with it. */
animrt_status animrt_layer_destroy(animrt_runtime *rt, animrt_id layer);

/* Moves `layer` under `parent` (0: makes it a root). Cycles are refused. */
animrt_status animrt_layer_set_parent(animrt_runtime *rt, animrt_id layer, animrt_id parent);

/* Sets the layer's time transform, inherited by everything under it:
 * local = (parent − begin_time) × speed + time_offset. Speed 0 pauses. The
 * layer's other media timing (see "Layer time") is kept. */
animrt_status animrt_layer_set_timing(animrt_runtime *rt, animrt_id layer, double begin_time,
                                      double speed, double time_offset);


/* Sets the model value of a key path (`count` doubles of its kind). The
 * presentation value follows at the next tick: until then it shows what is
 * on screen, so "read the presentation, set the model, animate from what was
 * read" works in any order. */
animrt_status animrt_layer_set_value(animrt_runtime *rt, animrt_id layer, animrt_keypath key_path,
                                     const double *value, size_t count);

/* Sets the model value of one key path on many layers in one call: layers[i]
 * takes values[i × n … i × n + n), n being the key path's number of components
 * (value_count = count × n). All or none: every layer, every value and the
 * room the values need are checked before the first is written, so a refusal
 * leaves every layer as it was; its message names the item ("layers[7]: …",
 * "values for layers[7]: component 0 … is nan"). A layer given twice, or a
 * value_count that is not count × n, is ANIMRT_E_INVALID. Each value is set
 * as animrt_layer_set_value sets it. count 0 sets nothing. */
animrt_status animrt_layer_set_values(animrt_runtime *rt, const animrt_id *layers, size_t count,
                                      animrt_keypath key_path, const double *values, size_t value_count);

/* Reads the model value into out[0 … *count). If cap is too small, nothing
 * is written, *count is set and ANIMRT_E_BUFFER returned. */
animrt_status animrt_layer_get_value(animrt_runtime *rt, animrt_id layer, animrt_keypath key_path,
                                     double *out, size_t cap, size_t *count);

/* Reads the presentation value (what is on screen as of the last tick; a
 * layer created since the last tick shows its model), with the same buffer
 * rules. */
animrt_status animrt_layer_get_presentation(animrt_runtime *rt, animrt_id layer, animrt_keypath key_path,
                                            double *out, size_t cap, size_t *count);

/* ===================================================================== */
/* Bulk reads                                                            */
/* ===================================================================== */

/* Resolves `count` (layer, key path) pairs once for repeated bulk reads:
 * target i is layers[i] with key_paths[i]. Every key path must have the
 * same number of components (else ANIMRT_E_KIND, naming the first target
 * that differs); a destroyed layer is ANIMRT_E_HANDLE, naming its target. */
animrt_status animrt_reader_create(animrt_runtime *rt, const animrt_id *layers, const animrt_keypath *key_paths,
                                   size_t count, animrt_id *out);

/* Copies every target's presentation value into out, target after target
 * (count × components doubles; *needed says how many). If a target's layer
 * has been destroyed, nothing is written and ANIMRT_E_HANDLE names the
 * target: a reader never reads a value of a layer it was not made for. */
animrt_status animrt_reader_read(animrt_runtime *rt, animrt_id reader, double *out, size_t cap, size_t *needed);

/* Destroys a reader. */
animrt_status animrt_reader_destroy(animrt_runtime *rt, animrt_id reader);

/* ===================================================================== */
/* Animations                                                            */
/* ===================================================================== */

/* An animation is a description, configured and then added to layers; each
 * add attaches a copy, so later changes affect only later adds. */
typedef enum animrt_animation_kind {
    ANIMRT_ANIMATION_BASIC = 0,    /* from / to / by */
    ANIMRT_ANIMATION_KEYFRAME = 1, /* values, key times, per-segment curves */
    ANIMRT_ANIMATION_SPRING = 2,   /* a basic animation paced by a spring */
    ANIMRT_ANIMATION_GROUP = 3,    /* children in the group's time, clipped to it */
    ANIMRT_ANIMATION_DECAY = 4     /* inertia: a velocity slowing down, duration derived */
} animrt_animation_kind;

/* Timing parameters. Core Animation's and Web Animations' names for one
 * quantity replace each other, the last set wins: DURATION drops an exact
 * ITERATION_DURATION, REPEAT_COUNT and REPEAT_DURATION drop exact ITERATIONS;
 * setting ITERATIONS sets REPEAT_COUNT and REPEAT_DURATION back to 0, and
 * ITERATION_DURATION sets DURATION back to 0, so that no name reads a value
 * no longer in use. Reading ITERATIONS or ITERATION_DURATION gives the count
 * and duration the timing model uses, whichever vocabulary set them. */
typedef enum animrt_timing_param {
    ANIMRT_TIMING_BEGIN_TIME = 0,      /* parent time; 0 means "at the next tick" */
    ANIMRT_TIMING_DURATION = 1,        /* ≥ 0; 0: the group's, the transaction's or 0.25 s */
    ANIMRT_TIMING_SPEED = 2,           /* 0 pauses, negative plays backwards */
    ANIMRT_TIMING_TIME_OFFSET = 3,     /* active local time offset, wraps around */
    ANIMRT_TIMING_REPEAT_COUNT = 4,    /* ≥ 0, fractional, INFINITY repeats forever; 0 means once */
    ANIMRT_TIMING_REPEAT_DURATION = 5, /* ≥ 0 seconds; 0 unused */
    ANIMRT_TIMING_ITERATION_START = 6, /* Web Animations iterationStart, ≥ 0 */
    ANIMRT_TIMING_END_DELAY = 7,       /* Web Animations endDelay */
    ANIMRT_TIMING_DELAY = 8,           /* Web Animations start delay, local time after begin time */
    ANIMRT_TIMING_ITERATIONS = 9,      /* Web Animations iteration count: ≥ 0 exactly, 0 is none */
    ANIMRT_TIMING_ITERATION_DURATION = 10 /* Web Animations duration: ≥ 0 exactly, finite */
} animrt_timing_param;

typedef enum animrt_flag {
    ANIMRT_FLAG_AUTOREVERSES = 0,          /* play backwards after each forward pass */
    ANIMRT_FLAG_REMOVED_ON_COMPLETION = 1, /* default on */
    ANIMRT_FLAG_ADDITIVE = 2,              /* add to the value below instead of replacing */
    ANIMRT_FLAG_CUMULATIVE = 3,            /* each repeat builds on the last */
    ANIMRT_FLAG_FROM_PRESENTATION = 4,     /* start from the on-screen value when added */
    ANIMRT_FLAG_ALLOWS_OVERDAMPING = 5,    /* springs: true over-damping above ζ = 1 */
    ANIMRT_FLAG_SETTLING_DURATION = 6      /* springs: run until settled (see below) */
} animrt_flag;

/* Springs and duration. As in Core Animation, a spring animation runs for
 * its DURATION (0: 0.25 s) and is cut off there, wherever the spring is; use
 * animrt_animation_get_settling_duration() to pick a duration. With
 * ANIMRT_FLAG_SETTLING_DURATION on, it runs for its settling duration
 * instead, computed when it is added (at least 1 ms), and DURATION is
 * ignored: the one-word way to let a spring come to rest. A spring that never
 * settles (damping 0) is then refused when added (ANIMRT_E_RANGE). */

typedef enum animrt_fill_mode {
    ANIMRT_FILL_REMOVED = 0,
    ANIMRT_FILL_FORWARDS = 1,
    ANIMRT_FILL_BACKWARDS = 2,
    ANIMRT_FILL_BOTH = 3
} animrt_fill_mode;

typedef enum animrt_direction {
    ANIMRT_DIRECTION_NORMAL = 0,
    ANIMRT_DIRECTION_REVERSE = 1,
    ANIMRT_DIRECTION_ALTERNATE = 2,
    ANIMRT_DIRECTION_ALTERNATE_REVERSE = 3
} animrt_direction;

typedef enum animrt_value_slot {
    ANIMRT_FROM = 0,
    ANIMRT_TO = 1,
    ANIMRT_BY = 2,
    ANIMRT_VELOCITY = 3  /* a decay's initial velocity, units per second */
} animrt_value_slot;

typedef enum animrt_calculation_mode {
    ANIMRT_CALC_LINEAR = 0,
    ANIMRT_CALC_DISCRETE = 1,
    ANIMRT_CALC_PACED = 2,
    ANIMRT_CALC_CUBIC = 3,
    ANIMRT_CALC_CUBIC_PACED = 4
} animrt_calculation_mode;

/* Creates an animation description of `kind` for `key_path` (NULL for a
 * group). Default timing: begin at the next tick, 0.25 s, linear. */
animrt_status animrt_animation_create(animrt_runtime *rt, animrt_animation_kind kind, const char *key_path,
                                      animrt_id *out);

/* Destroys a description; copies already added keep running. */
animrt_status animrt_animation_destroy(animrt_runtime *rt, animrt_id animation);

/* Sets or gets one numeric timing parameter. */
animrt_status animrt_animation_set_timing(animrt_runtime *rt, animrt_id animation, animrt_timing_param param,
                                          double value);
animrt_status animrt_animation_get_timing(animrt_runtime *rt, animrt_id animation, animrt_timing_param param,
                                          double *out);

/* Turns a flag on (nonzero) or off (0). Turning on a flag that would do
 * nothing is refused, the description unchanged: ADDITIVE, CUMULATIVE or
 * FROM_PRESENTATION on a group (set them on its animations),
 * FROM_PRESENTATION on a keyframe animation or a decay (they start from
 * their own values), ALLOWS_OVERDAMPING or SETTLING_DURATION on anything but
 * a spring: ANIMRT_E_KIND. ADDITIVE and FROM_PRESENTATION do not combine (an
 * additive animation's ends are differences added to the value below, and
 * the on-screen value is not one): turning on the second is
 * ANIMRT_E_INVALID. Turning ADDITIVE, CUMULATIVE or FROM_PRESENTATION off
 * always succeeds; ALLOWS_OVERDAMPING and SETTLING_DURATION are a spring's
 * alone, and another kind refuses them off as on (ANIMRT_E_KIND). */
animrt_status animrt_animation_set_flag(animrt_runtime *rt, animrt_id animation, animrt_flag flag, int on);

animrt_status animrt_animation_set_fill_mode(animrt_runtime *rt, animrt_id animation, animrt_fill_mode mode);
animrt_status animrt_animation_set_direction(animrt_runtime *rt, animrt_id animation, animrt_direction direction);

/* Sets the timing function by name: "linear", "easeIn", "easeOut",
 * "easeInEaseOut", "default" (and the CSS names "ease", "ease-in", …),
 * "cubic-bezier(x1, y1, x2, y2)", "steps(n[, jump-start|jump-end|jump-none|jump-both])",
 * "step-start", "step-end", CSS Easing 2's "linear(0, 0.25 75%, 1)" (at most
 * 10 000 points) or any registered name. NULL means linear. */
animrt_status animrt_animation_set_timing_function(animrt_runtime *rt, animrt_id animation, const char *name);

/* Sets a cubic-bezier timing function; x1 and x2 must be in [0, 1], and y1
 * and y2 not so far apart that the curve's polynomial overflows a double
 * (ANIMRT_E_RANGE; up to 1e306 in size they never are). */
animrt_status animrt_animation_set_cubic_bezier(animrt_runtime *rt, animrt_id animation, double x1, double y1,
                                                double x2, double y2);

/* Sets fromValue, toValue or byValue (basic and spring), or a decay's
 * fromValue and velocity. NULL with count 0 clears it. The count must match
 * the key path's kind. */
animrt_status animrt_animation_set_value(animrt_runtime *rt, animrt_id animation, animrt_value_slot slot,
                                         const double *value, size_t count);

/* Sets the spring: mass > 0, stiffness > 0, damping ≥ 0, initial velocity
 * in from→to distances per second. ANIMRT_E_RANGE if the settings make the
 * spring's closed form overflow (stiffness/mass outside the doubles, …). */
animrt_status animrt_animation_set_spring(animrt_runtime *rt, animrt_id animation, double mass, double stiffness,
                                          double damping, double initial_velocity);

/* SwiftUI's Spring(response:dampingRatio:) with mass 1: stiffness
 * (2π / response)², damping 4π × ratio / response. response > 0, ratio ≥ 0
 * (0 is undamped); true over-damping above a ratio of 1. The initial
 * velocity is kept. */
animrt_status animrt_animation_set_spring_response(animrt_runtime *rt, animrt_id animation, double response,
                                                   double damping_ratio);

/* Core Animation's CASpringAnimation(perceptualDuration:bounce:) (SwiftUI's
 * Spring(duration:bounce:)): mass 1, stiffness (2π / duration)², damping
 * ratio 1 − bounce for bounce ≥ 0 and 1 / (1 + bounce) below; true
 * over-damping. duration > 0; bounce in (−1, 1]: 1 is undamped, 0
 * critically damped, below 0 over-damped. The initial velocity is kept. As
 * for any spring, the animation still runs for its own duration. */
animrt_status animrt_animation_set_spring_perceptual(animrt_runtime *rt, animrt_id animation,
                                                     double perceptual_duration, double bounce);

typedef enum animrt_spring_param {
    ANIMRT_SPRING_MASS = 0,
    ANIMRT_SPRING_STIFFNESS = 1,
    ANIMRT_SPRING_DAMPING = 2,
    ANIMRT_SPRING_INITIAL_VELOCITY = 3,
    ANIMRT_SPRING_DAMPING_RATIO = 4,        /* damping / (2 √(stiffness × mass)) */
    ANIMRT_SPRING_RESPONSE = 5,             /* 2π √(mass / stiffness) */
    ANIMRT_SPRING_PERCEPTUAL_DURATION = 6,  /* the same period, by Core Animation's name */
    ANIMRT_SPRING_BOUNCE = 7,               /* 1 − ratio up to 1, 1 / ratio − 1 above */
    ANIMRT_SPRING_SETTLING_DURATION = 8     /* as animrt_animation_get_settling_duration */
} animrt_spring_param;

/* One number of a spring animation's spring, whichever way it was set. */
animrt_status animrt_animation_get_spring_param(animrt_runtime *rt, animrt_id animation, animrt_spring_param param,
                                                double *out);

/* How long the motion takes to come to rest: a spring's estimated settling
 * duration (Core Animation's settlingDuration), a decay's derived duration. */
animrt_status animrt_animation_get_settling_duration(animrt_runtime *rt, animrt_id animation, double *out);

/* A decay (ANIMRT_ANIMATION_DECAY) moves from fromValue (unset: the live
 * model value) at the velocity set with ANIMRT_VELOCITY, keeping
 * deceleration_rate of its velocity each millisecond (0.998 by default,
 * UIScrollView's normal rate; 0.99 its fast one), so with
 * k = -1000 ln(rate) it is at from + velocity (1 - e^(-k t)) / k after t
 * seconds and comes to rest at from + velocity / k. Its duration is derived
 * and replaces any set: the time at which its speed (over all components)
 * falls to rest_velocity (0.5 units per second by default). Any value kind
 * but a whole transform. The timing function is not used; the rest of the
 * media timing applies. The rate must be in (0, 1), the rest velocity > 0,
 * and the travel a finite number (checked when added). */
animrt_status animrt_animation_set_decay(animrt_runtime *rt, animrt_id animation, double deceleration_rate,
                                         double rest_velocity);
/* The decay's rate and rest velocity (either pointer may be NULL). */
animrt_status animrt_animation_get_decay(animrt_runtime *rt, animrt_id animation, double *deceleration_rate,
                                         double *rest_velocity);

/* Sets the keyframe values: `count` keyframes of `components` doubles each. */
animrt_status animrt_keyframe_set_values(animrt_runtime *rt, animrt_id animation, const double *values,
                                         size_t count, size_t components);

/* Sets the key times (NULL, 0: evenly spaced). Checked when the animation is
 * added: in [0, 1], not decreasing, from 0 to 1, one per value (discrete:
 * one more than the values, or one per value, the last value then holding
 * from its key time to the end, which may be below 1). */
animrt_status animrt_keyframe_set_key_times(animrt_runtime *rt, animrt_id animation, const double *times,
                                            size_t count);

/* Sets per-segment timing functions by name (see set_timing_function);
 * NULL entries are linear. At most one per segment (keyframes − 1): fewer
 * leave the last segments linear, more are refused when the animation is
 * added (ANIMRT_E_INVALID). A name is checked now (ANIMRT_E_NOT_FOUND). */
animrt_status animrt_keyframe_set_timing_functions(animrt_runtime *rt, animrt_id animation,
                                                   const char *const *names, size_t count);

/* Linear (default), discrete, paced, cubic or cubicPaced. The paced modes
 * time the keyframes by distance alone: they ignore the key times, the
 * per-segment timing functions and the animation's own timing function. */
animrt_status animrt_keyframe_set_calculation_mode(animrt_runtime *rt, animrt_id animation,
                                                   animrt_calculation_mode mode);

/* Kochanek–Bartels tension, continuity and bias per keyframe for the cubic
 * modes: `count` numbers in each array that is not NULL (any may be NULL:
 * zeros). Keyframes past `count` take 0; entries past the last keyframe
 * are not used. Tangents that overflow are refused when the animation is
 * added (ANIMRT_E_RANGE). */
animrt_status animrt_keyframe_set_spline(animrt_runtime *rt, animrt_id animation, const double *tension,
                                         const double *continuity, const double *bias, size_t count);

/* Keyframes along a path (Core Animation's `path`): commands, and their
 * numbers one after the other in `points` (exactly as many as the commands
 * take). The keyframes are the path's points: its start, then the end of
 * each line, curve or close (a move in the middle jumps there and is not a
 * keyframe); the values are then ignored and the key path must take a point.
 * Linear and cubic modes give each segment its key-time interval (key
 * times: one per point) and follow the curve's own parameter; the paced
 * modes move at constant speed by arc length; discrete jumps from point to
 * point. At most 16 384 elements, a move first, coordinates finite. NULL,
 * 0, NULL, 0 removes the path. */
typedef enum animrt_path_command {
    ANIMRT_PATH_MOVE = 0,   /* x, y */
    ANIMRT_PATH_LINE = 1,   /* x, y */
    ANIMRT_PATH_QUAD = 2,   /* control x, y, then end x, y */
    ANIMRT_PATH_CUBIC = 3,  /* control 1 x, y, control 2 x, y, then end x, y */
    ANIMRT_PATH_CLOSE = 4   /* no numbers: a line back to the subpath's start */
} animrt_path_command;

animrt_status animrt_keyframe_set_path(animrt_runtime *rt, animrt_id animation, const int32_t *commands,
                                       size_t command_count, const double *points, size_t point_count);

/* The path as set, into two buffers (*command_count and *point_count are
 * set on success and on ANIMRT_E_BUFFER, if either buffer is too small;
 * not on another failure, such as ANIMRT_E_KIND). */
animrt_status animrt_keyframe_get_path(animrt_runtime *rt, animrt_id animation, int32_t *commands, size_t command_cap,
                                       size_t *command_count, double *points, size_t point_cap, size_t *point_count);

/* Core Animation's rotationMode, for a path: AUTO turns the layer's
 * transform to the path's tangent (a rotation about z applied before the
 * transform below), AUTO_REVERSE to the tangent plus 180 degrees. Without a
 * path it is refused when the animation is added. */
typedef enum animrt_rotation_mode {
    ANIMRT_ROTATE_NONE = 0,
    ANIMRT_ROTATE_AUTO = 1,
    ANIMRT_ROTATE_AUTO_REVERSE = 2
} animrt_rotation_mode;

animrt_status animrt_keyframe_set_rotation_mode(animrt_runtime *rt, animrt_id animation, animrt_rotation_mode mode);
animrt_status animrt_keyframe_get_rotation_mode(animrt_runtime *rt, animrt_id animation, animrt_rotation_mode *out);

/* Appends a copy of `child` (as it is now) to a group. ANIMRT_E_RANGE if
 * the group would hold more than ANIMRT_GROUP_SIZE_MAX animations or nest
 * deeper than ANIMRT_GROUP_DEPTH_MAX levels (a group may be added to itself:
 * its copy is the group as it was). */
animrt_status animrt_group_add(animrt_runtime *rt, animrt_id group, animrt_id child);

/* ===================================================================== */
/* Layer time                                                            */
/* ===================================================================== */

/* A layer has the full media timing of an animation (CALayer adopts
 * CAMediaTiming), with one difference: a duration of 0 (the default) means
 * unbounded, the layer's time runs forever. With a duration (or an exact
 * ITERATION_DURATION) the layer is timed like an animation group: its
 * animations and sublayers see its iteration time, repeated, reversed and
 * filled, and nothing of it is in effect outside its active interval
 * without a fill (its animations wait, its properties show the model).
 * Repeat, direction, fill, delay, end delay and iteration start take
 * effect once there is a duration. An
 * unbounded layer reads ITERATION_DURATION as INFINITY and ITERATIONS as 1.
 * Checked as for animations; nothing changes on error. */
animrt_status animrt_layer_set_timing_param(animrt_runtime *rt, animrt_id layer, animrt_timing_param param,
                                            double value);
animrt_status animrt_layer_get_timing_param(animrt_runtime *rt, animrt_id layer, animrt_timing_param param,
                                            double *out);
animrt_status animrt_layer_set_fill_mode(animrt_runtime *rt, animrt_id layer, animrt_fill_mode mode);
animrt_status animrt_layer_set_direction(animrt_runtime *rt, animrt_id layer, animrt_direction direction);
animrt_status animrt_layer_set_autoreverses(animrt_runtime *rt, animrt_id layer, int on);

/* Core Animation's convertTime(_:from:) and convertTime(_:to:): `time` in
 * the local time of layer `from` (0: the runtime's time) as the local time
 * of layer `to` (0: the runtime's time). A layer's local time is
 * (parent − begin_time) × speed + time_offset, the time its time offset is
 * in, so the pause idiom works on any layer: time_offset =
 * convert(now, 0, layer), speed 0; to resume, speed 1, offsets 0, then
 * begin_time = convert(now, 0, layer) − the paused time. Converting out of
 * a paused layer, or through a timed ancestor that holds a fill or is
 * outside its active interval now, has no answer: ANIMRT_E_STATE. A timed ancestor
 * is inverted within the iteration it is in now. */
animrt_status animrt_layer_convert_time(animrt_runtime *rt, double time, animrt_id from, animrt_id to, double *out);

/* ===================================================================== */
/* Attaching animations to layers                                        */
/* ===================================================================== */

/* Adds a copy of `animation` to `layer` under `key` (NULL: anonymous; any
 * other text is a key, "" included, as in Core Animation). An
 * animation already under that key stops (ANIMRT_STOP_REPLACED). With a
 * barrier (0: none), the animation enters it now and leaves it when it
 * stops, however it stops. The attached copy's handle goes to *out
 * (may be NULL). It names the animation while it is attached: once it
 * stops (finished and removed on completion, removed, replaced, its layer
 * destroyed) the handle is stale, already in the STOPPED event that
 * reports it. An attached copy is not destroyed by the host; an anonymous
 * one (key NULL) is removed only by animrt_layer_remove_all_animations.
 * Bad key times, kinds or values fail here, and so do values too far
 * apart to interpolate (their difference overflows a double:
 * ANIMRT_E_RANGE). */
animrt_status animrt_layer_add_animation(animrt_runtime *rt, animrt_id layer, animrt_id animation, const char *key,
                                         animrt_id barrier, animrt_id *out);

/* What a column of animrt_layer_add_animations sets on each copy: a timing
 * parameter (the same number as its animrt_timing_param) or a value
 * (ANIMRT_COLUMN_FROM + its animrt_value_slot). */
typedef enum animrt_column_field {
    ANIMRT_COLUMN_BEGIN_TIME = 0,
    ANIMRT_COLUMN_DURATION = 1,
    ANIMRT_COLUMN_SPEED = 2,
    ANIMRT_COLUMN_TIME_OFFSET = 3,
    ANIMRT_COLUMN_REPEAT_COUNT = 4,
    ANIMRT_COLUMN_REPEAT_DURATION = 5,
    ANIMRT_COLUMN_ITERATION_START = 6,
    ANIMRT_COLUMN_END_DELAY = 7,
    ANIMRT_COLUMN_DELAY = 8,
    ANIMRT_COLUMN_ITERATIONS = 9,
    ANIMRT_COLUMN_ITERATION_DURATION = 10,
    ANIMRT_COLUMN_FROM = 16,
    ANIMRT_COLUMN_TO = 17,
    ANIMRT_COLUMN_BY = 18,
    ANIMRT_COLUMN_VELOCITY = 19
} animrt_column_field;

/* One column: `values` holds one double per animation for a timing
 * parameter, the key path's component count per animation for a value
 * (animation after animation). */
typedef struct animrt_column {
    animrt_column_field field;
    const double *values;
} animrt_column;

/* Adds `count` copies of `animation`, the i-th to layers[i] with the i-th
 * entry of every column set on it: the same as setting those values on the
 * description and calling animrt_layer_add_animation for each layer in
 * order (the same attached animations, events and values), at a fraction
 * of the cost. `key` and `barrier` apply to every copy. The handles go to
 * out[0 … count) (out may be NULL). Every layer, value and column is
 * checked first: on error nothing is added. The description itself is not
 * changed. Mind the order: one animation, then the layers it goes to (where
 * animrt_layer_add_animation takes the layer first). */
animrt_status animrt_layer_add_animations(animrt_runtime *rt, animrt_id animation, const animrt_id *layers, size_t count,
                                          const animrt_column *columns, size_t column_count, const char *key,
                                          animrt_id barrier, animrt_id *out);

/* Removes the animation under `key` (it stops with ANIMRT_STOP_REMOVED
 * unless it had finished). *removed (may be NULL) says whether there was one. */
animrt_status animrt_layer_remove_animation(animrt_runtime *rt, animrt_id layer, const char *key, int *removed);

/* Removes every animation of the layer. */
animrt_status animrt_layer_remove_all_animations(animrt_runtime *rt, animrt_id layer);

/* The attached animation under `key` (Core Animation's animation(forKey:)):
 * its handle goes to *out; ANIMRT_E_NOT_FOUND if there is none. */
animrt_status animrt_layer_animation_for_key(animrt_runtime *rt, animrt_id layer, const char *key, animrt_id *out);

/* The number of keyed animations on the layer, and the key at `index` in the
 * order they apply. */
animrt_status animrt_layer_animation_count(animrt_runtime *rt, animrt_id layer, size_t *out);
animrt_status animrt_layer_animation_key(animrt_runtime *rt, animrt_id layer, size_t index, char *buf, size_t cap,
                                         size_t *needed);

/* ===================================================================== */
/* Reading animations back                                               */
/* ===================================================================== */

/* Every getter of an animation (these, animrt_animation_get_timing and
 * animrt_animation_get_settling_duration) takes a description or an
 * attached animation: the handle animrt_layer_add_animation returned. An
 * attached animation reads as it was attached, as Core Animation's
 * animation(forKey:) copy does: its begin time as stamped (0 until the next
 * tick stamps it), its duration as defaulted, its from value as taken from
 * the presentation with ANIMRT_FLAG_FROM_PRESENTATION. It is read-only:
 * setters refuse it with ANIMRT_E_HANDLE. */

animrt_status animrt_animation_get_kind(animrt_runtime *rt, animrt_id animation, animrt_animation_kind *out);

/* The key path (empty for a group), with the string-out buffer rules. */
animrt_status animrt_animation_get_key_path(animrt_runtime *rt, animrt_id animation, char *buf, size_t cap,
                                            size_t *needed);

/* A flag as 0 or 1 (ANIMRT_FLAG_ALLOWS_OVERDAMPING and
 * ANIMRT_FLAG_SETTLING_DURATION: springs only). */
animrt_status animrt_animation_get_flag(animrt_runtime *rt, animrt_id animation, animrt_flag flag, int *out);
animrt_status animrt_animation_get_fill_mode(animrt_runtime *rt, animrt_id animation, animrt_fill_mode *out);
animrt_status animrt_animation_get_direction(animrt_runtime *rt, animrt_id animation, animrt_direction *out);

/* The timing function as a name animrt_animation_set_timing_function accepts:
 * "linear" when none was set, Core Animation's names for its named curves,
 * else the CSS form ("cubic-bezier(0.1, 0.2, 0.3, 1)", "steps(4, jump-end)",
 * "linear(0 0%, 0.25 75%, 1 100%)"). */
animrt_status animrt_animation_get_timing_function(animrt_runtime *rt, animrt_id animation, char *buf, size_t cap,
                                                   size_t *needed);

/* fromValue, toValue or byValue (basic and spring), or a decay's fromValue
 * and velocity, into out[0 … *count); *count is 0 when it is not set. */
animrt_status animrt_animation_get_value(animrt_runtime *rt, animrt_id animation, animrt_value_slot slot,
                                         double *out, size_t cap, size_t *count);

/* The keyframe values as set, value after value (*needed doubles: keyframes
 * × components), and the key times as set (*needed is 0 when none were). */
animrt_status animrt_keyframe_get_values(animrt_runtime *rt, animrt_id animation, double *out, size_t cap,
                                         size_t *needed);
animrt_status animrt_keyframe_get_key_times(animrt_runtime *rt, animrt_id animation, double *out, size_t cap,
                                            size_t *needed);

/* A group's children (Core Animation's `animations`), in the order
 * animrt_group_add appended them: *out is how many there are. */
animrt_status animrt_group_get_count(animrt_runtime *rt, animrt_id group, size_t *out);

/* The group's child at `index` (below the count), as a new description in
 * *out: a copy, which the getters read and the setters change without
 * touching the group; destroy it with animrt_animation_destroy. A child of
 * an attached group reads as attached (its begin time in the group's time,
 * its duration as defaulted: a zero one is the group's). ANIMRT_E_KIND when `group` is not a group,
 * ANIMRT_E_RANGE for an index past the last child. */
animrt_status animrt_group_get_child(animrt_runtime *rt, animrt_id group, size_t index, animrt_id *out);

/* Web Animations' phases; IDLE when the local time is unresolved (begin
 * time not stamped yet, or the layer's time is unresolved). */
typedef enum animrt_phase {
    ANIMRT_PHASE_BEFORE = 0,
    ANIMRT_PHASE_ACTIVE = 1,
    ANIMRT_PHASE_AFTER = 2,
    ANIMRT_PHASE_IDLE = 3
} animrt_phase;

/* Web Animations' getComputedTiming() of an attached animation as of the
 * last tick, in its layer's time (seconds). NAN stands for Web Animations'
 * null (unresolved); active_duration, end_time and current_iteration may be
 * INFINITY, and so may local_time and active_time where the times and speeds
 * a host set pass a double's range (a speed of 1e308 after a delay of
 * -1e308). */
typedef struct animrt_computed_timing {
    int32_t phase;            /* animrt_phase */
    int32_t in_effect;        /* 1 when the animation contributes a value */
    double local_time;        /* from begin time, scaled by speed, before time offset */
    double active_time;       /* after time offset, NAN when not in effect */
    double active_duration;   /* iteration duration × iteration count */
    double end_time;          /* max(delay + active duration + end delay, 0) */
    double current_iteration; /* 0 for the first, NAN when not in effect */
    double progress;          /* after direction and timing function, NAN when not in effect */
} animrt_computed_timing;

animrt_status animrt_animation_get_computed_timing(animrt_runtime *rt, animrt_id attached,
                                                   animrt_computed_timing *out);

/* Where an attached animation is in its lifecycle, as its events say:
 * WAITING before its ANIMRT_EVENT_ANIMATION_STARTED is sent, STARTED
 * after, FINISHED once its ANIMRT_EVENT_ANIMATION_STOPPED (finished) is
 * sent. Only an animation not removed on completion stays attached to be
 * FINISHED. The state only moves forwards: a FINISHED animation stays so
 * when its layer's time turns back and shows it mid-way again (its phase
 * then says ACTIVE), and it sends no second stop. */
typedef enum animrt_lifecycle {
    ANIMRT_LIFECYCLE_WAITING = 0,
    ANIMRT_LIFECYCLE_STARTED = 1,
    ANIMRT_LIFECYCLE_FINISHED = 2
} animrt_lifecycle;

/* The lifecycle of an attached animation as of the last tick (see
 * animrt_lifecycle). A host that lost events to a full queue
 * (ANIMRT_EVENT_OVERFLOW) learns from it which of the animations it still
 * holds have finished. A stale handle (the animation stopped and was
 * removed): ANIMRT_E_HANDLE. */
animrt_status animrt_animation_get_lifecycle(animrt_runtime *rt, animrt_id attached, animrt_lifecycle *out);

/* How fast the value an attached animation gives `key_path` changes as of
 * the last tick, in units per second of runtime time, into out[0 … *count)
 * (the key path's components). Exact through speeds, layer times, timing
 * functions, springs, decays and keyframes; 0 while the animation holds a
 * fill, is paused or is not in effect (a fill that follows local time, after
 * a negative delay, moves at the rate of its play); ±INFINITY where an iteration is shorter
 * than a double can divide by (1e-320 s), where a keyframe segment is so
 * short that its value changes faster than the largest double (key times
 * 1e-320 apart), or where the layers' speeds multiply past the largest
 * double. key_path NULL means the animation's own;
 * a group needs one of its children's (their values compose as on screen).
 * Another key path: ANIMRT_E_NOT_FOUND. */
animrt_status animrt_animation_get_velocity(animrt_runtime *rt, animrt_id attached, const char *key_path,
                                            double *out, size_t cap, size_t *count);

/* Sends a running spring to a new target (`count` doubles of its key path's
 * kind) with its value and velocity carried over, as SwiftUI and Pop do: it
 * restarts at the last tick's time from the value it shows, toward
 * `target`, moving exactly as fast as it was in every component, with its
 * spring and the rest of its timing kept (no delay, offset or iteration
 * start). A spring that has not started only gets the new target. No
 * lifecycle event is sent; the same handle goes on. ANIMRT_E_STATE once it
 * has finished, or while it plays backwards or is paused; ANIMRT_E_KIND for
 * other kinds of animation and for whole transforms. */
animrt_status animrt_animation_retarget(animrt_runtime *rt, animrt_id attached, const double *target, size_t count);

/* ===================================================================== */
/* Barriers, transactions, timers                                        */
/* ===================================================================== */

/* A barrier counts outstanding work (DispatchGroup rules): enter adds one,
 * leave removes one; a leave without an enter is ANIMRT_E_STATE and changes
 * nothing. When the count returns to zero every pending notify fires once,
 * as an ANIMRT_EVENT_BARRIER_NOTIFIED event with its token. A notify on a
 * barrier at zero fires at once. At most ANIMRT_BARRIER_NOTIFIES_MAX wait
 * on one barrier: one more is ANIMRT_E_RANGE, nothing added. */
animrt_status animrt_barrier_create(animrt_runtime *rt, animrt_id *out);
/* Destroys a barrier whatever its count: its pending notifies never fire
 * (no event says so), and animations that joined it run on without it. */
animrt_status animrt_barrier_destroy(animrt_runtime *rt, animrt_id barrier);
animrt_status animrt_barrier_enter(animrt_runtime *rt, animrt_id barrier);
animrt_status animrt_barrier_leave(animrt_runtime *rt, animrt_id barrier);
animrt_status animrt_barrier_notify(animrt_runtime *rt, animrt_id barrier, uint64_t token);
animrt_status animrt_barrier_count(animrt_runtime *rt, animrt_id barrier, size_t *out);

/* Opens a transaction on the calling thread (they nest,
 * ANIMRT_TRANSACTION_DEPTH_MAX deep on each thread). Animations the thread
 * adds until the matching commit count toward it; animation_duration > 0
 * replaces their zero durations (0: the enclosing transaction's, else
 * 0.25 s). As with Core Animation's, each thread has its own transactions:
 * another thread's adds never join them, and its commit and current never
 * reach them. Commit them before the thread ends: those it leaves open stay
 * open (no later thread reaches them, even one the system gives the same
 * pthread_t), they never complete, and each keeps a slot of the runtime's
 * barrier table (ANIMRT_OBJECTS_MAX, shared with the host's barriers)
 * until the runtime is destroyed. A thread's key destructors
 * (pthread_key_create) may run after animrt has forgotten which thread it
 * is: commit before them. */
animrt_status animrt_transaction_begin(animrt_runtime *rt, double animation_duration);

/* Closes the calling thread's innermost transaction (ANIMRT_E_STATE if
 * the thread has none open). ANIMRT_EVENT_TRANSACTION_COMPLETED with
 * `token` follows once all its animations have stopped (at once if none). */
animrt_status animrt_transaction_commit(animrt_runtime *rt, uint64_t token);

/* The handle of the calling thread's innermost open transaction
 * (ANIMRT_E_STATE if it has none open). Its
 * ANIMRT_EVENT_TRANSACTION_COMPLETED carries the same handle in `object`,
 * so a host can tell its transactions apart without choosing tokens that
 * might collide with its other tokens. */
animrt_status animrt_transaction_current(animrt_runtime *rt, animrt_id *out);

/* Starts a one-shot timer `delay` seconds after the runtime's time; it fires
 * as ANIMRT_EVENT_TIMER_FIRED at the first tick at or after that time.
 * `delay` must be finite (ANIMRT_E_INVALID) and ≥ 0, and the due time must
 * not pass the largest double (it would never come): ANIMRT_E_RANGE. A
 * timer started before the first tick counts from that tick, as an
 * animation's begin time 0 does (a machine's `after` too), whatever the
 * host's clock reads then; if that tick's time plus the delay passes the
 * largest double, it is due at the largest double. out may be NULL. */
animrt_status animrt_timer_start(animrt_runtime *rt, double delay, uint64_t token, animrt_id *out);

/* Cancels a timer; a cancelled timer never fires. Its handle is stale once
 * it has fired or been cancelled: cancelling it then gives ANIMRT_E_HANDLE
 * and changes nothing. */
animrt_status animrt_timer_cancel(animrt_runtime *rt, animrt_id timer);

/* Whether a timer is still to fire: *out is 1 until the tick that fires it
 * or its cancellation, then 0 (already before its ANIMRT_EVENT_TIMER_FIRED
 * is polled, and also when a full queue lost that event). A handle that is
 * not one of this runtime's timers: ANIMRT_E_HANDLE. */
animrt_status animrt_timer_pending(animrt_runtime *rt, animrt_id timer, int *out);

/* ===================================================================== */
/* Tagged values                                                         */
/* ===================================================================== */

/* The type of a tagged value. */
typedef enum animrt_value_type {
    ANIMRT_TYPE_NUMBER = 1,
    ANIMRT_TYPE_BOOL = 2,
    ANIMRT_TYPE_STRING = 3,
    ANIMRT_TYPE_INTEGER = 4,
    ANIMRT_TYPE_POINTER = 5
} animrt_value_type;

/* A value with its type: a payload field of a machine event, a context
 * field, an argument. Only the member its type names is read. A payload
 * field declared whole ("integer": true in the definition) reaches the host
 * as ANIMRT_TYPE_INTEGER with both `integer` and `number` filled with the
 * same value (a host that reads .number of every number keeps working);
 * every other number field is ANIMRT_TYPE_NUMBER. */
typedef struct animrt_value {
    int32_t type;       /* animrt_value_type */
    int32_t boolean;    /* ANIMRT_TYPE_BOOL: 0 or 1 (from the host, any nonzero value is true) */
    double number;      /* ANIMRT_TYPE_NUMBER, and from animrt ANIMRT_TYPE_INTEGER too (the same value) */
    int64_t integer;    /* ANIMRT_TYPE_INTEGER (a number field accepts it, and a whole-number field is reported as one) */
    const char *string; /* ANIMRT_TYPE_STRING: NUL-terminated UTF-8 */
    void *pointer;      /* ANIMRT_TYPE_POINTER */
} animrt_value;

/* ===================================================================== */
/* Events                                                                */
/* ===================================================================== */

typedef enum animrt_event_type {
    ANIMRT_EVENT_ANIMATION_STARTED = 1,
    ANIMRT_EVENT_ANIMATION_STOPPED = 2,
    ANIMRT_EVENT_BARRIER_NOTIFIED = 3,
    ANIMRT_EVENT_TRANSACTION_COMPLETED = 4,
    ANIMRT_EVENT_TIMER_FIRED = 5,
    ANIMRT_EVENT_OVERFLOW = 6,          /* token = number of events lost */
    ANIMRT_EVENT_MACHINE_STATE = 7,     /* object = machine; from_state → to_state; payload = the new
                                         * state's associated values ("values" in its definition);
                                         * name is -1 (the event that caused it is not said) */
    ANIMRT_EVENT_MACHINE_EMITTED = 8,   /* object = machine; name = emitted event id; payload */
    ANIMRT_EVENT_MACHINE_REQUEST = 9,   /* object = machine; name = request id; token = the request's
                                         * number (unique in the runtime), which its result must carry;
                                         * payload */
    ANIMRT_EVENT_MACHINE_STALE = 10,    /* object = machine; name = event id; token = the stale number;
                                         * payload = what was sent; the result was not processed */
    ANIMRT_EVENT_MACHINE_ERROR = 11     /* object = machine; name = event being processed or -1;
                                         * payload[0] = the message (a string) */
} animrt_event_type;

typedef enum animrt_stop_reason {
    ANIMRT_STOP_FINISHED = 0, /* reached its end: Core Animation's finished == true */
    ANIMRT_STOP_REMOVED = 1,
    ANIMRT_STOP_REPLACED = 2,
    ANIMRT_STOP_LAYER_DESTROYED = 3,
    ANIMRT_STOP_RUNTIME_DESTROYED = 4
} animrt_stop_reason;

/* Static names for an event type ("ANIMRT_EVENT_TIMER_FIRED") and a stop
 * reason ("ANIMRT_STOP_REPLACED"), for logs; "ANIMRT_EVENT_UNKNOWN" and
 * "ANIMRT_STOP_UNKNOWN" for values that are neither. Never NULL. */
const char *animrt_event_type_name(int32_t type);
const char *animrt_stop_reason_name(int32_t reason);

typedef struct animrt_event {
    int32_t type;        /* animrt_event_type */
    int32_t reason;      /* animrt_stop_reason, for ANIMRT_EVENT_ANIMATION_STOPPED */
    double time;         /* runtime time when reported: the tick's (an end between ticks reports the tick that saw it), or the last tick's for a call */
    animrt_id layer;     /* animation events: the layer */
    animrt_id object;    /* the attached animation, barrier, transaction (animrt_transaction_current), timer or machine */
    animrt_id animation; /* animation events: the description it was added from */
    uint64_t token;      /* the host's token, the overflow count, a request number */
    int32_t name;        /* machine events: the id of an event, emitted event or request, or -1 */
    int32_t from_state;  /* ANIMRT_EVENT_MACHINE_STATE: the state left (-1 at creation); else -1 */
    int32_t to_state;    /* ANIMRT_EVENT_MACHINE_STATE: the state entered, or -1 */
    uint32_t payload_count;
    /* Machine events: the values that come with the event, owned by animrt and
     * valid until the next animrt_event_poll() on this runtime (or, in a
     * callback, until the callback returns). Strings in it likewise. A field
     * declared "integer": true (emitted events, requests, stale results) is
     * ANIMRT_TYPE_INTEGER with .number holding the same value, and other
     * numbers, and a state's associated values (context fields), are
     * ANIMRT_TYPE_NUMBER. */
    const animrt_value *payload;
} animrt_event;

/* Moves up to `cap` queued events into out[0 … *count), oldest first. */
animrt_status animrt_event_poll(animrt_runtime *rt, animrt_event *out, size_t cap, size_t *count);

/* Called with each event, in order. `event` and its payload are valid until
 * the callback returns: copy what is kept. */
typedef void (*animrt_event_fn)(void *user_data, const animrt_event *event);

/* Sets (or with NULL clears) an event callback. `fn` and `user_data` must
 * stay valid until it is cleared or replaced, or animrt_runtime_destroy()
 * returns (destroy delivers the last events to it). Clearing or replacing it
 * while another thread is inside the old callback waits for that call to
 * return: once this returns, the old one is neither running nor called
 * again, and its user_data may be freed (so the callback must not wait for
 * the thread clearing it; from inside the callback nothing is waited
 * for). With a callback set, the
 * queue is drained into it at the end of animrt_runtime_tick(), with no
 * lock held: the callback may call back into animrt. Events from other
 * calls wait for the next tick; animrt_event_poll may take them before
 * then, and what it takes is not delivered. Delivery rules, per runtime:
 *  - One event at a time, in the order they happened: the callback is never
 *    entered by two threads at once. One thread delivers; a tick made while
 *    another thread delivers, or from inside the callback, queues its events
 *    behind the pending ones and returns (the delivering thread delivers
 *    them), so a nested tick never overtakes what is already pending.
 *  - Every attached animation gets exactly one ANIMRT_EVENT_ANIMATION_STOPPED
 *    and at most one ANIMRT_EVENT_ANIMATION_STARTED, which comes first (an
 *    animation removed before its first tick gets only the STOPPED), unless
 *    a full queue lost them (ANIMRT_EVENT_OVERFLOW counts them).
 *  - animrt_runtime_destroy() waits for another thread's delivery to end,
 *    then delivers the remaining events itself; nothing is delivered after
 *    it returns. Called from inside the callback, it delivers the rest
 *    re-entrantly before returning, and the runtime's memory stays valid
 *    until the outermost callback returns. While destroy runs, every call
 *    on the runtime (from the callback, say) is refused with ANIMRT_E_STATE. */
animrt_status animrt_event_set_callback(animrt_runtime *rt, animrt_event_fn fn, void *user_data);

/* ===================================================================== */
/* State machines                                                        */
/* ===================================================================== */
/*
 * A machine is defined by data: a JSON definition (docs/machines.md, and
 * docs/machine.schema.json for editors) with config, context, events, parts,
 * animation templates and a statechart. Loading checks it completely: an
 * error names the JSON path, and the column inside an expression. An
 * instance owns its parts (ordinary layers, read with the layer and reader
 * calls), runs on the runtime's clock, and reports what it does as events in
 * the runtime's queue: state changes, emitted events, requests, stale
 * results, errors. Names resolve once to small ids for hot calls.
 */

/* Loads a definition from JSON text, a file (a relative path is from the
 * working directory, as for fopen), or the runtime's library of named
 * definitions (the shipped machines and what the host registered). */
animrt_status animrt_definition_load(animrt_runtime *rt, const char *json, animrt_id *out);
animrt_status animrt_definition_load_file(animrt_runtime *rt, const char *path, animrt_id *out);
animrt_status animrt_definition_load_named(animrt_runtime *rt, const char *name, animrt_id *out);

/* Adds a definition to the runtime's library under `name`, written as a
 * definition's own name is (1 to 128 ASCII letters, digits and '_', not
 * starting with a digit; ANIMRT_E_INVALID otherwise). The definition is
 * checked now. */
animrt_status animrt_definition_register(animrt_runtime *rt, const char *name, const char *json);

/* Forgets a definition handle; instances made from it keep running. */
animrt_status animrt_definition_destroy(animrt_runtime *rt, animrt_id definition);

/* The getters below (id, name, count, field_count, field_name, export)
 * take a definition or a machine: given a machine they read the definition
 * it was made from, even once that definition's handle is destroyed. So a
 * host turns a machine event's state, event, emit or request id into its
 * name with the event's machine handle alone. */

/* What a name or id of a definition refers to. */
typedef enum animrt_name_kind {
    ANIMRT_NAME_STATE = 0,    /* full dotted names: "completed.celebrating" */
    ANIMRT_NAME_EVENT = 1,    /* events the machine accepts */
    ANIMRT_NAME_CONTEXT = 2,  /* context fields */
    ANIMRT_NAME_EMIT = 3,     /* events the machine emits to the host */
    ANIMRT_NAME_REQUEST = 4,  /* request operations */
    ANIMRT_NAME_PART = 5,     /* parts (layers) */
    ANIMRT_NAME_CONFIG = 6    /* config parameters */
} animrt_name_kind;

/* The id of `name` (ANIMRT_E_NOT_FOUND, with a suggestion, if unknown). */
animrt_status animrt_definition_id(animrt_runtime *rt, animrt_id definition, animrt_name_kind kind, const char *name,
                                   int32_t *out);
/* The name of id `id` (ids run from 0 to count − 1). An id outside them,
 * here or in any call that takes one (an event, state or context field id),
 * is ANIMRT_E_RANGE; a name no id has is ANIMRT_E_NOT_FOUND. */
animrt_status animrt_definition_name(animrt_runtime *rt, animrt_id definition, animrt_name_kind kind, int32_t id,
                                     char *buf, size_t cap, size_t *needed);
animrt_status animrt_definition_count(animrt_runtime *rt, animrt_id definition, animrt_name_kind kind, size_t *out);

/* The fields that come with event, emitted event or request `id` (kind
 * ANIMRT_NAME_EVENT, _EMIT or _REQUEST: its payload, in order) or with a
 * change into state `id` (ANIMRT_NAME_STATE: its associated values): how
 * many, and the name of field `index`. */
animrt_status animrt_definition_field_count(animrt_runtime *rt, animrt_id definition, animrt_name_kind kind,
                                            int32_t id, size_t *out);
animrt_status animrt_definition_field_name(animrt_runtime *rt, animrt_id definition, animrt_name_kind kind,
                                           int32_t id, size_t index, char *buf, size_t cap, size_t *needed);

typedef enum animrt_export_format {
    ANIMRT_EXPORT_DOT = 0,      /* the statechart for Graphviz */
    ANIMRT_EXPORT_MARKDOWN = 1  /* a page: configuration, events, context, parts, copy, transition table */
} animrt_export_format;

/* Writes a picture or table of the definition into buf (buffer rules above).
 * A call refused with ANIMRT_E_BUFFER keeps the text it built for the next
 * call on the same definition and format, which writes it rather than
 * building it again (a large definition's table is built once for the size
 * call and the fill); one text is kept at most, until the next export call
 * (which takes it or drops it) or until its definition is destroyed. */
animrt_status animrt_definition_export(animrt_runtime *rt, animrt_id definition, animrt_export_format format,
                                       char *buf, size_t cap, size_t *needed);

/* Creates an instance under `parent` (0: its parts are roots). `options` is
 * NULL or a JSON object: {"config": {...}, "locale": "zh", "strings": {...}}
 * (config overrides are checked against their types and ranges). The
 * instance enters its initial states now; a refused call creates nothing. */
animrt_status animrt_machine_create(animrt_runtime *rt, animrt_id definition, animrt_id parent, const char *options,
                                    animrt_id *out);

/* Destroys an instance: its timers are cancelled, its parts destroyed (their
 * animations stop); nothing of it happens afterwards. */
animrt_status animrt_machine_destroy(animrt_runtime *rt, animrt_id machine);

/* What happened to a sent event. */
typedef enum animrt_send_outcome {
    ANIMRT_SEND_TAKEN = 0,    /* a transition took it */
    ANIMRT_SEND_IGNORED = 1,  /* the state ignores it ("ignore" in the definition) */
    ANIMRT_SEND_STALE = 2,    /* a result whose request number is not the one awaited (answered, superseded,
                               * cancelled or never issued): reported, not processed */
    ANIMRT_SEND_QUEUED = 3,   /* sent while the machine's own macrostep runs: it follows, checked then
                               * as any send (stale, throttle); a refusal then is an error event. A C
                               * host never gets it: a function called back into its runtime is refused
                               * (ANIMRT_E_STATE), and a send from another thread waits for the
                               * macrostep to end (docs/machines.md) */
    ANIMRT_SEND_THROTTLED = 4 /* the event is throttled ("throttle" in its declaration) and its interval
                               * is running: the latest one sent is processed when it ends */
} animrt_send_outcome;

/* Sends event `event` with its payload fields in declaration order (trailing
 * fields with defaults may be left out; a result event's first field is its
 * request number). The whole macrostep runs before this returns. An event no
 * active state takes gives ANIMRT_E_STATE naming the state and the events it
 * accepts, and changes nothing. `outcome` may be NULL. */
animrt_status animrt_machine_send(animrt_runtime *rt, animrt_id machine, int32_t event, const animrt_value *payload,
                                  size_t count, animrt_send_outcome *outcome);

/* The same with the event by name and the payload as a JSON object (NULL: {}). */
animrt_status animrt_machine_send_json(animrt_runtime *rt, animrt_id machine, const char *event, const char *payload,
                                       animrt_send_outcome *outcome);

/* The active leaf state, and whether state `state` is active (it or a child). */
animrt_status animrt_machine_state(animrt_runtime *rt, animrt_id machine, int32_t *out);
animrt_status animrt_machine_in_state(animrt_runtime *rt, animrt_id machine, int32_t state, int *out);

/* Reads context field `field`. A string is copied into buf (buffer rules
 * above) and out->string points at buf; numbers and booleans need no buf,
 * and leave buf and *needed as they were. A number is ANIMRT_TYPE_NUMBER
 * (context fields are not declared whole; payload fields are). */
animrt_status animrt_machine_get(animrt_runtime *rt, animrt_id machine, int32_t field, animrt_value *out, char *buf,
                                 size_t cap, size_t *needed);

/* The layer of the part named `name`; a copy of a repeated part ("count" in
 * its declaration) is named with its index: "arc[2]" (written without leading
 * zeros: "arc[02]" is ANIMRT_E_INVALID). */
animrt_status animrt_machine_part(animrt_runtime *rt, animrt_id machine, const char *name, animrt_id *out);

/* How many layers part `name` has in this instance: its number of copies for
 * a repeated part, 1 otherwise. */
animrt_status animrt_machine_part_count(animrt_runtime *rt, animrt_id machine, const char *name, size_t *out);

/* A snapshot of the instance as JSON text: its definition, configuration,
 * state, context, timers, requests, parts (their values and the layer timing
 * the host set on them) and the animations it started.
 * Restored as a new instance into a runtime at the snapshot's time (tick a
 * fresh runtime to it first; else ANIMRT_E_TIME), it continues identically:
 * the same events and bit-identical values for the same later inputs. A
 * snapshot that says what no instance could have written (a member none
 * of its objects has, such as a misspelt "begintime"; a timer of two kinds;
 * a property given twice) is refused with ANIMRT_E_INVALID, the message
 * naming it and where it is. A refused restore creates nothing and spends
 * no handle: the next object gets the handle it would have had. */
animrt_status animrt_machine_snapshot(animrt_runtime *rt, animrt_id machine, char *buf, size_t cap, size_t *needed);
animrt_status animrt_machine_restore(animrt_runtime *rt, const char *snapshot, animrt_id parent, animrt_id *out);

/* ===================================================================== */
/* Traces: recording and replaying the host's calls                      */
/* ===================================================================== */
/*
 * A trace is the tool to attach to a bug report: every call that succeeds
 * and changes the runtime (ticks, layers, animations, barriers, timers,
 * definitions, machines, sends, value sets …) is written to a file as one
 * JSON line with its arguments, and with a digest of the events reported
 * so far (and, after a tick, of every presentation value). Replaying the
 * file into a fresh runtime makes the same calls again and checks the
 * digests after each one: it reproduces every event and value bit for bit,
 * or says at which line it first differs. docs/traces.md has the format.
 */

/* Starts recording to `path` (created or truncated). The runtime must be
 * fresh: nothing made, nothing ticked, no key path resolved, no property
 * defined, no definition loaded or registered, no plugin loaded, no C
 * function bound (else ANIMRT_E_STATE, naming the first of them; the
 * timing functions and functions the host registers may come first, as
 * they are not recorded). A file that cannot be opened, or cannot take the
 * header line (a full disk), gives ANIMRT_E_NOT_FOUND and nothing is
 * recorded. */
animrt_status animrt_trace_start(animrt_runtime *rt, const char *path);

/* Stops recording and closes the file. If a line could not be written
 * (a full disk, a file size limit), nothing after it was, and the stop gives
 * ANIMRT_E_NOT_FOUND naming the first line lost; recording stops either way.
 * animrt_runtime_destroy() closes a trace still being recorded and cannot
 * say whether it is whole: stop it first to know (Python's close() does). */
animrt_status animrt_trace_stop(animrt_runtime *rt);

/* Replays the trace at `path` into `rt`, which must be fresh. On success
 * every call was made again with the same events and values. A call that
 * fails, or events or values that differ, give ANIMRT_E_STATE naming the
 * trace line; `calls` (may be NULL) says how many calls were replayed (0
 * when the replay is refused before its first call). A replay loads the
 * plugins and binds and calls the C functions the trace names: replay only
 * traces you trust. An event callback, or another thread, that destroys
 * `rt` stops the replay (ANIMRT_E_STATE). Each call is made as the thread that
 * made it (docs/traces.md): the replaying thread's calls, its event
 * callback's included, reach the recorded thread's transactions; another
 * thread calling meanwhile reaches its own. */
animrt_status animrt_trace_replay(animrt_runtime *rt, const char *path, size_t *calls);

/* ===================================================================== */
/* Timing functions                                                      */
/* ===================================================================== */

/* Evaluates a timing function by name (see set_timing_function; plugin and
 * host families too: "elastic(0.3)") at x. A plugin's or the host's curve
 * is evaluated at x clamped to [0, 1], as everywhere (see animrt_curve_fn);
 * a built-in one continues past [0, 1] along its end tangents, and where
 * that gives no finite value ("easeIn" at 1.7e308, "linear" at INFINITY)
 * the call is refused with ANIMRT_E_RANGE: *out is always finite. A flat
 * end tangent stays at its end at any x, infinite too ("easeInEaseOut" at
 * INFINITY gives 1, at -INFINITY 0). Every
 * cubic-bezier gives exactly 0 at x = 0 and exactly 1 at x = 1. */
animrt_status animrt_timing_function_evaluate(animrt_runtime *rt, const char *name, double x, double *out);

/* ===================================================================== */
/* Extending animrt: timing functions, machine functions, bound C functions */
/* ===================================================================== */
/*
 * Three ways to add behaviour without recompiling animrt, all per runtime:
 *  - the host registers C callbacks (or, through the Python binding, Python
 *    callables) as timing functions and machine functions;
 *  - any C function exported by a library, or by the process, is bound by
 *    name and signature through libffi, with no glue code;
 *  - a plugin (a shared library, below) registers timing functions,
 *    functions and machine definitions when it is loaded.
 * A name is registered once per runtime: timing functions share one
 * namespace with the built-in curves, functions one with each other.
 * Definitions loaded afterwards may use what was added (a definition naming
 * a function that is not registered is refused when it loads).
 */

/* Most parameters of a timing function family, and of a function. */
#define ANIMRT_CURVE_PARAMS_MAX 8
#define ANIMRT_FUNCTION_PARAMS_MAX 16
/* Most timing functions registered or bound in one runtime, most functions,
 * and most plugins loaded at once; past them: ANIMRT_E_RANGE. */
#define ANIMRT_TIMING_FUNCTIONS_MAX 65536
#define ANIMRT_FUNCTIONS_MAX 65536
#define ANIMRT_PLUGINS_MAX 256

/* A timing function: the eased progress at x (0 ≤ x ≤ 1: animrt clamps x
 * for every caller, a keyframe segment under an overshooting curve and
 * animrt_timing_function_evaluate included). `params` holds
 * the family's parameters, defaults filled in ("elastic(0.3)" → {0.3, …}).
 * Called on the ticking thread, or on several threads at once for large
 * batches (animrt_runtime_set_threads): it must be thread-safe. Reads that
 * sample it (animrt_timing_function_evaluate, velocity, computed timing, a
 * retarget) call it on their own thread. It must not call its runtime: such
 * calls, from any of these, are refused (ANIMRT_E_STATE) rather than left
 * waiting for the lock the runtime holds. A non-finite result counts as 0. */
typedef double (*animrt_curve_fn)(double x, const double *params, void *user_data);

/* A block timing function: writes y[i], the eased progress at x[i], for
 * each i below `count` (x and y do not overlap). `params` and `user_data`
 * are as for animrt_curve_fn, and so are the rules: thread-safe, must not
 * call its runtime, every x[i] is in [0, 1], a non-finite y[i] (or one left
 * unwritten) counts as 0. The batch calls it once per run of animations on
 * the same curve (up to a few hundred values a call); a single value (one
 * evaluation, a keyframe segment, an animation outside the batch) is asked
 * for with count 1. So y[i] must depend on x[i], params and user_data
 * alone, never on count or on the other values: every path then shows the
 * same numbers. Written as a plain loop, the C compiler can keep several
 * values in flight at once, and the batch saves a call per animation. */
typedef void (*animrt_curve_block_fn)(const double *x, double *y, size_t count, const double *params,
                                      void *user_data);

/* A function machines call (in a guard or expression when it has a result,
 * with a "call" action when its result is void) and the host calls with
 * animrt_function_call(). `args` holds `count` values of the declared
 * parameter types (see Signatures), valid until the function returns (its
 * strings too: copy what is kept). On success it writes its result into
 * *result, whose type is preset to the declared one, and returns ANIMRT_OK;
 * a string result must outlive the function (animrt copies it as soon as the
 * function returns): a static string, or memory the host keeps, never a
 * buffer on the function's stack. On failure it returns another status, with a message set by
 * animrt_error_set(): a machine then raises error.execution carrying the
 * message (ANIMRT_EVENT_MACHINE_ERROR), and animrt_function_call() returns
 * ANIMRT_E_CALLBACK. It runs on the calling thread while the runtime is busy:
 * calls it makes back into the same runtime are refused (ANIMRT_E_STATE, and
 * animrt_runtime_destroy does nothing). */
typedef animrt_status (*animrt_function_fn)(void *user_data, const animrt_value *args, size_t count,
                                            animrt_value *result);

/* Sets the calling thread's error message and returns `status`, for a
 * failing animrt_function_fn: return animrt_error_set(ANIMRT_E_RANGE, "…").
 * At most 4096 bytes of `message` are read; bytes that are not UTF-8 are
 * replaced (U+FFFD), never the message dropped; NULL sets "(no message)". */
animrt_status animrt_error_set(animrt_status status, const char *message);

/* Registers a family of timing functions under `name` (a letter or '_'
 * first, then letters, digits, '_', '-', '.'). With `param_count`
 * parameters (at most ANIMRT_CURVE_PARAMS_MAX) it is usable as "name" (the
 * defaults) or "name(p1, …)" (trailing ones default) wherever a curve name
 * is: animations, keyframe segments, machine definitions, the batch. The
 * defaults must be finite; minimum and maximum (either may be NULL: no
 * bound) give each parameter's allowed range, checked when a name is used.
 * `fn` and `user_data` must stay valid until the runtime is destroyed. */
animrt_status animrt_timing_function_register(animrt_runtime *rt, const char *name, animrt_curve_fn fn,
                                              void *user_data, size_t param_count, const double *defaults,
                                              const double *minimum, const double *maximum);

/* As animrt_timing_function_register, for a block timing function: the
 * batch evaluates a run of animations on this curve in one call, which
 * makes a curve from outside about as cheap per animation as a built-in one
 * (docs/benchmarks.md). The same arguments, checks and errors. */
animrt_status animrt_timing_function_register_block(animrt_runtime *rt, const char *name, animrt_curve_block_fn fn,
                                                    void *user_data, size_t param_count, const double *defaults,
                                                    const double *minimum, const double *maximum);

/* Registers a function `name` (letters, digits and '_', not starting with a
 * digit) with its signature, for machines and animrt_function_call(). A
 * name the expression language has already, one of its functions (abs,
 * sqrt, sin, min, clamp, len, …) or words (and, pi, index, context, …;
 * docs/machines.md, "Expressions"), is ANIMRT_E_EXISTS, as a name
 * registered twice is. `fn` and `user_data` must stay valid until the
 * runtime is destroyed. */
animrt_status animrt_function_register(animrt_runtime *rt, const char *name, const char *signature,
                                       animrt_function_fn fn, void *user_data);

/*
 * Signatures: result(param, …), e.g. "f64(f64)", "i32(f64, ptr, str)",
 * "void()"; spaces are allowed between tokens. Types: void (results only),
 * bool (C's one-byte bool), i8 i16 i32 i64 u8 u16 u32 u64, f32 f64, ptr
 * (any pointer, passed through), str (const char *, NUL-terminated UTF-8; a
 * str result is copied at once). At most ANIMRT_FUNCTION_PARAMS_MAX
 * parameters. A malformed signature is ANIMRT_E_INVALID, naming the column.
 * In machines, the numeric types are numbers (a whole number, in range, for
 * an integer parameter), bool is bool, str is string; a function with a ptr
 * can be called by the host only. Tagged values map the same way: f32/f64
 * are ANIMRT_TYPE_NUMBER (an INTEGER is accepted), integers are
 * ANIMRT_TYPE_INTEGER (a whole NUMBER is accepted), ptr is
 * ANIMRT_TYPE_POINTER. An f32 is a C float, bound or registered: its
 * arguments are rounded to a float's value before the function sees them,
 * and its result is one (a registered function's double is rounded); a
 * finite number past a float's range is refused (ANIMRT_E_RANGE), not
 * made infinite.
 */

/* Binds `symbol` of `library` (a path or soname for dlopen; NULL: the
 * process and the libraries it has loaded) as the function `name` (NULL:
 * the symbol's name; the naming rules of animrt_function_register apply,
 * so libm's "sqrt" is bound under another name), callable by machines and
 * the host with no glue code.
 * The signature is checked and the libffi call descriptor prepared now; the
 * library stays loaded as long as the binding, which is as long as the
 * runtime. The signature is taken on trust: a shared library records no
 * types, so nothing can check it against the function. One that is not
 * the function's (another parameter count, f32 for a double, i32 for an
 * int64_t or a pointer), or a symbol that names data, is undefined
 * behaviour, as a call through a wrong prototype is in C: garbage
 * arguments or results, or a crash, never an error status.
 * A missing library or symbol is ANIMRT_E_NOT_FOUND; an empty
 * `library` ("", which dlopen would take for the process) is
 * ANIMRT_E_INVALID: the process is NULL. */
animrt_status animrt_function_bind(animrt_runtime *rt, const char *library, const char *symbol,
                                   const char *signature, const char *name);

/* Binds a C function `double f(double)` as the timing function `name` (NULL:
 * the symbol's name). Its signature must be "f64(f64)" (else
 * ANIMRT_E_KIND), and is taken on trust as above: a function of another
 * C type is undefined behaviour. The batch calls it directly, like a
 * registered one. */
animrt_status animrt_timing_function_bind(animrt_runtime *rt, const char *library, const char *symbol,
                                          const char *signature, const char *name);

/* Calls function `name` (bound, registered by the host or by a plugin)
 * with `count` tagged arguments, converted to its parameter types
 * (ANIMRT_E_KIND or ANIMRT_E_RANGE for one that does not fit). A count
 * other than its parameter count is ANIMRT_E_INVALID, found before any
 * argument is read. The result
 * goes to *result (may be NULL for a void function, which leaves it alone);
 * a string result is copied into buf with the buffer rules above and
 * result->string points at buf (when buf is too small the function has run
 * all the same: ANIMRT_E_BUFFER says how much a second call needs; a buf of
 * ANIMRT_STRING_MAX + 1 bytes is never too small; with no buf at all, NULL
 * or cap 0, it is not run: ANIMRT_E_NULL or ANIMRT_E_BUFFER, *needed set to
 * ANIMRT_STRING_MAX + 1). A failing function gives
 * ANIMRT_E_CALLBACK with its message, and so does one whose string result
 * is longer than ANIMRT_STRING_MAX bytes. */
animrt_status animrt_function_call(animrt_runtime *rt, const char *name, const animrt_value *args, size_t count,
                                   animrt_value *result, char *buf, size_t cap, size_t *needed);

/* ===================================================================== */
/* Plugins                                                               */
/* ===================================================================== */
/*
 * A plugin is a shared library exporting one symbol, ANIMRT_PLUGIN_ENTRY: a
 * const animrt_plugin whose first field is the ANIMRT_PLUGIN_ABI_VERSION it
 * was built against. animrt_plugin_load() reads that field before any code
 * of the plugin runs and refuses another version (ANIMRT_E_VERSION, naming
 * both); then it calls the plugin's init with the host API table and a
 * registrar. What init registers is checked as it goes and added only if
 * init returns ANIMRT_OK and every registration succeeded: a plugin is
 * loaded completely or not at all.
 *
 * Per runtime: each load of a library, by any runtime, calls its init
 * anew (with its own registrar and state); a library loads once per
 * runtime, so a second load into the same one, by any path to the same
 * file and whatever it registers, is ANIMRT_E_EXISTS before any of its code
 * runs (after an unload it loads again); fini(state) is called when the
 * plugin is unloaded or its runtime destroyed, and nothing of the plugin is
 * called after that. init and fini run while the runtime is busy: calls
 * they make back into it are refused (ANIMRT_E_STATE, and
 * animrt_runtime_destroy does nothing). Unloading is refused (ANIMRT_E_STATE) while anything
 * in the runtime still uses one of its timing functions or functions (an
 * animation, an animation description, a loaded definition, a machine).
 *
 *     #include <math.h>
 *     // params[0] bounces, each lower, ending at 1 (the curve one value at a time, and in blocks)
 *     static double bounce(double x, const double *params, void *user_data) {
 *         (void)user_data;
 *         return 1 - fabs(cos(x * params[0] * 3.141592653589793)) * (1 - x);
 *     }
 *     static void bounce_block(const double *x, double *y, size_t count, const double *params, void *user_data) {
 *         for (size_t i = 0; i < count; i++) y[i] = bounce(x[i], params, user_data);
 *     }
 *     static animrt_status init(const animrt_host_api *api, animrt_registrar *reg, void **state) {
 *         double defaults[] = {4};
 *         (void)state;
 *         if (ANIMRT_HOST_API_HAS(api, add_timing_function_block))
 *             return api->add_timing_function_block(reg, "bounce", bounce_block, NULL, 1, defaults, NULL, NULL);
 *         return api->add_timing_function(reg, "bounce", bounce, NULL, 1, defaults, NULL, NULL);
 *     }
 *     ANIMRT_PLUGIN_DEFINE("bouncy", "1.0", init, NULL);
 *
 * Versions: ANIMRT_PLUGIN_ABI_VERSION changes only when a plugin built
 * against an older header could misread what it is given (a field of
 * animrt_host_api or animrt_plugin changing place, type or meaning). A
 * field added at the end of animrt_host_api does not change it: a plugin
 * built before the field reads the prefix it knows, and one built after
 * tests ANIMRT_HOST_API_HAS before calling it, so it still loads into a
 * library that does not have it. add_timing_function_block came that way.
 */

typedef struct animrt_registrar animrt_registrar;

/* What animrt offers a plugin. `size` is sizeof(animrt_host_api) as the
 * library knows it: fields are only ever added at the end, so a plugin built
 * against an older header reads a prefix of the table, and one built against
 * a newer header checks `size` before using a field. The table stays valid
 * as long as the plugin is loaded: its functions may keep it, to call
 * error_set (a plugin is not linked against animrt, and a host that loads
 * animrt privately, as Python does, leaves animrt_error_set undefined for
 * it). The registrar is valid
 * only while init runs (calls after it are refused with ANIMRT_E_STATE, even
 * after the runtime is destroyed: it is a token, not an address). Threads
 * init starts may call it too, until init returns: calls with one
 * registrar are made one at a time. */
typedef struct animrt_host_api {
    uint32_t size;
    uint32_t abi_version;   /* ANIMRT_PLUGIN_ABI_VERSION of the library */
    uint32_t (*version)(void);
    /* As animrt_timing_function_register, animrt_function_register and
     * animrt_definition_register, for this plugin's runtime. */
    animrt_status (*add_timing_function)(animrt_registrar *reg, const char *name, animrt_curve_fn fn,
                                         void *user_data, size_t param_count, const double *defaults,
                                         const double *minimum, const double *maximum);
    animrt_status (*add_function)(animrt_registrar *reg, const char *name, const char *signature,
                                  animrt_function_fn fn, void *user_data);
    animrt_status (*add_definition)(animrt_registrar *reg, const char *name, const char *json);
    /* As animrt_error_set: a failing init or function explains itself. */
    animrt_status (*error_set)(animrt_status status, const char *message);
    /* Added after the first table (test ANIMRT_HOST_API_HAS before calling
     * it): as animrt_timing_function_register_block. */
    animrt_status (*add_timing_function_block)(animrt_registrar *reg, const char *name, animrt_curve_block_fn fn,
                                               void *user_data, size_t param_count, const double *defaults,
                                               const double *minimum, const double *maximum);
} animrt_host_api;

/* Whether the table `api` has `field`: a plugin tests this before calling a
 * field that older libraries lack (they give a shorter table). */
#define ANIMRT_HOST_API_HAS(api, field) \
    ((api)->size >= offsetof(animrt_host_api, field) + sizeof((api)->field))

/* Called once per load; may set *state (passed to fini). Return ANIMRT_OK,
 * or a status with api->error_set() to refuse the load. */
typedef animrt_status (*animrt_plugin_init_fn)(const animrt_host_api *api, animrt_registrar *registrar,
                                               void **state);
typedef void (*animrt_plugin_fini_fn)(void *state);

/* The plugin's entry point. abi_version comes first and will stay first in
 * every version. */
typedef struct animrt_plugin {
    uint32_t abi_version;        /* ANIMRT_PLUGIN_ABI_VERSION */
    uint32_t size;               /* sizeof(animrt_plugin) */
    const char *name;            /* UTF-8, 1 to 255 bytes; else the load is refused */
    const char *version;         /* UTF-8, at most 255 bytes ("" for none); else the load is refused */
    animrt_plugin_init_fn init;
    animrt_plugin_fini_fn fini;  /* may be NULL */
} animrt_plugin;

#define ANIMRT_PLUGIN_ENTRY animrt_plugin_entry
#define ANIMRT_PLUGIN_ENTRY_NAME "animrt_plugin_entry"
#ifdef __cplusplus
#define ANIMRT_PLUGIN_EXTERN extern "C"
#else
#define ANIMRT_PLUGIN_EXTERN
#endif
/* Defines the entry point; use once, at file scope, in the plugin. */
#define ANIMRT_PLUGIN_DEFINE(name, version, init, fini) \
    ANIMRT_PLUGIN_EXTERN __attribute__((visibility("default"))) const animrt_plugin ANIMRT_PLUGIN_ENTRY = \
        {ANIMRT_PLUGIN_ABI_VERSION, sizeof(animrt_plugin), (name), (version), (init), (fini)}

/* Loads the plugin at `path` into this runtime (see above). A relative
 * path (one with a '/', not at its start) is read against the working
 * directory once, as the call starts, and the library opened by the
 * absolute path that gives: a chdir during the load (another thread's, or
 * the library's constructor's) changes nothing. Messages name `path` as
 * given. An empty path
 * is ANIMRT_E_INVALID (dlopen would open the process itself); a missing
 * library is ANIMRT_E_NOT_FOUND with the loader's message; a library without
 * ANIMRT_PLUGIN_ENTRY of its own is ANIMRT_E_NOT_FOUND (one a library it
 * depends on exports is that library's, not its); another ABI version is
 * ANIMRT_E_VERSION; a library this runtime holds as a plugin already is
 * ANIMRT_E_EXISTS; an entry point whose name or version is NULL, longer
 * than 255 bytes or not UTF-8 is ANIMRT_E_NULL, ANIMRT_E_RANGE or
 * ANIMRT_E_INVALID, and an empty name or a NULL init ANIMRT_E_INVALID
 * (these before any code of the plugin runs); a name it registers that exists is
 * ANIMRT_E_EXISTS; an init that fails is ANIMRT_E_CALLBACK with the plugin's
 * message. In every case nothing of it stays registered. */
animrt_status animrt_plugin_load(animrt_runtime *rt, const char *path, animrt_id *out);

/* Unloads a plugin: its names are withdrawn, its fini runs, its library is
 * released. ANIMRT_E_STATE (and nothing changes) while something uses it:
 * the message names its timing functions and functions still held (the
 * first eight; the rest are counted) and counts what holds each (animation
 * descriptions, attached animations, loaded definitions and machines, the
 * definitions by name). */
animrt_status animrt_plugin_unload(animrt_runtime *rt, animrt_id plugin);

/* The plugin's name, as its entry point gives it. */
animrt_status animrt_plugin_name(animrt_runtime *rt, animrt_id plugin, char *buf, size_t cap, size_t *needed);

/* The plugin's version, as its entry point gives it (ANIMRT_PLUGIN_DEFINE's
 * second argument): "" when it gives none. */
animrt_status animrt_plugin_version(animrt_runtime *rt, animrt_id plugin, char *buf, size_t cap, size_t *needed);

#ifdef __cplusplus
}
#endif

#endif /* ANIMRT_H */
