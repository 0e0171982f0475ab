/* animrt demo: a loading ring and a progress bar, driven from outside.
 *
 * The host (this program) owns the clock and the drawing; animrt owns what
 * is on screen at each time. The bar fills in three steps, each started by
 * the barrier notification of the one before (never by a guessed delay);
 * the ring's arcs spin with an endless transform.rotation.z animation and
 * fade out when the bar is full.
 *
 *   demo              animate in the terminal (about 4 seconds)
 *   demo --svg FILE   write the same run as an SVG filmstrip instead
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "animrt.h"

#define FPS 30
#define LINES 3                 /* arcs in the ring, spaced 2π / LINES */
#define DOT_LENGTH 1.2          /* radians per arc */
#define TWO_PI 6.283185307179586

static animrt_runtime *rt;

static void die(const char *what, animrt_status s) {
    fprintf(stderr, "demo: %s failed: %s (%s)\n", what, animrt_status_name(s), animrt_last_error_message());
    exit(1);
}
#define TRY(call) do { animrt_status s_ = (call); if (s_ != ANIMRT_OK) die(#call, s_); } while (0)

static animrt_keypath keypath(const char *path) {
    animrt_keypath id;
    TRY(animrt_keypath_id(rt, path, &id));
    return id;
}

static double read1(animrt_id layer, animrt_keypath kp) {
    double v; size_t n;
    TRY(animrt_layer_get_presentation(rt, layer, kp, &v, 1, &n));
    return v;
}

/* Animates the bar's "progress" property from where it is to `to`. */
static void fill_to(animrt_id bar, double to, double duration, const char *curve, animrt_id barrier) {
    animrt_id a;
    TRY(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "progress", &a));
    TRY(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
    TRY(animrt_animation_set_flag(rt, a, ANIMRT_FLAG_FROM_PRESENTATION, 1));
    TRY(animrt_animation_set_timing(rt, a, ANIMRT_TIMING_DURATION, duration));
    TRY(animrt_animation_set_timing_function(rt, a, curve));
    TRY(animrt_layer_set_value(rt, bar, keypath("progress"), &to, 1));  /* the model holds the target */
    TRY(animrt_layer_add_animation(rt, bar, a, "fill", barrier, NULL));
    TRY(animrt_animation_destroy(rt, a));
}

typedef struct { double t, angle, ring_opacity, progress; } frame;

/* ---- terminal ----------------------------------------------------------- */

static void draw_terminal(const frame *f, int tty) {
    /* The ring: 16 cells around a circle; a cell is lit when it lies on an arc. */
    char ring[16 * 4 + 1] = "";
    for (int i = 0; i < 16; i++) {
        double a = TWO_PI * i / 16, lit = 0;
        for (int k = 0; k < LINES; k++) {
            double start = fmod(f->angle + TWO_PI * k / LINES, TWO_PI);
            double d = fmod(a - start + 2 * TWO_PI, TWO_PI);
            if (d < DOT_LENGTH) lit = 1;
        }
        strcat(ring, lit && f->ring_opacity > 0.5 ? "o" : lit && f->ring_opacity > 0.05 ? "." : " ");
    }
    int width = 40, filled = (int)(f->progress * width + 0.5);
    char bar[64];
    for (int i = 0; i < width; i++) bar[i] = i < filled ? '#' : '-';
    bar[width] = 0;
    const char *label = f->progress >= 1 && f->ring_opacity < 0.05 ? "done" : "loading";
    printf("%s t=%4.2fs  ring [%s]  bar [%s] %3.0f%% %-7s%s", tty ? "\r" : "", f->t, ring, bar, f->progress * 100, label,
           tty ? "" : "\n");
    fflush(stdout);
}

/* ---- SVG filmstrip ------------------------------------------------------ */

static void svg_frame(FILE *out, const frame *f, int index) {
    double ox = 10 + index * 130.0, cx = ox + 60, cy = 60, r = 36;
    fprintf(out, "<g><rect x='%.1f' y='5' width='120' height='150' rx='10' fill='#f6f7f9' stroke='#d0d4da'/>\n", ox);
    for (int k = 0; k < LINES; k++) {
        double a0 = f->angle + TWO_PI * k / LINES;
        fprintf(out, "<path d='");
        for (int s = 0; s <= 12; s++) {
            double a = a0 + DOT_LENGTH * s / 12;
            fprintf(out, "%s%.2f %.2f ", s ? "L" : "M", cx + r * cos(a), cy + r * sin(a));
        }
        fprintf(out, "' fill='none' stroke='#2f6fed' stroke-width='6' stroke-linecap='round' opacity='%.3f'/>\n",
                f->ring_opacity);
    }
    fprintf(out, "<rect x='%.1f' y='112' width='100' height='10' rx='5' fill='#dde3ea'/>\n", ox + 10);
    fprintf(out, "<rect x='%.1f' y='112' width='%.2f' height='10' rx='5' fill='#30b566'/>\n", ox + 10, 100 * f->progress);
    fprintf(out, "<text x='%.1f' y='145' font-family='sans-serif' font-size='12' text-anchor='middle'>"
                 "t=%.2fs %.0f%%</text></g>\n", cx, f->t, f->progress * 100);
}

int main(int argc, char **argv) {
    const char *svg = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc) svg = argv[++i];
        else { fprintf(stderr, "usage: %s [--svg FILE]\n", argv[0]); return 2; }
    }
    if (animrt_version() != ANIMRT_VERSION_NUMBER) {
        fprintf(stderr, "demo: built against animrt.h %d but the library is %u\n", ANIMRT_VERSION_NUMBER, animrt_version());
        return 1;
    }
    TRY(animrt_runtime_create(0, &rt));
    double zero = 0;
    TRY(animrt_property_define(rt, "progress", ANIMRT_VALUE_SCALAR, &zero, 1));

    animrt_id ring, bar, step, spin, fade;
    TRY(animrt_layer_create(rt, 0, &ring));
    TRY(animrt_layer_create(rt, 0, &bar));
    TRY(animrt_barrier_create(rt, &step));

    /* The ring spins forever: transform.rotation.z by 2π per second. */
    double turn = TWO_PI;
    TRY(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "transform.rotation.z", &spin));
    TRY(animrt_animation_set_value(rt, spin, ANIMRT_BY, &turn, 1));
    TRY(animrt_animation_set_timing(rt, spin, ANIMRT_TIMING_DURATION, 1.0));
    TRY(animrt_animation_set_timing(rt, spin, ANIMRT_TIMING_REPEAT_COUNT, INFINITY));
    TRY(animrt_layer_add_animation(rt, ring, spin, "spin", 0, NULL));

    /* Step 1 now; each later step starts from the previous step's notify. */
    fill_to(bar, 0.3, 0.8, "easeOut", step);
    TRY(animrt_barrier_notify(rt, step, 1));

    FILE *out = NULL;
    if (svg) {
        out = fopen(svg, "w");
        if (!out) { perror(svg); return 1; }
        fprintf(out, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='160' viewBox='0 0 %d 160'>\n",
                20 + 14 * 130, 20 + 14 * 130);
    }
    int tty = !svg && isatty(STDOUT_FILENO);
    animrt_keypath angle = keypath("transform.rotation.z"), opacity = keypath("opacity"), progress = keypath("progress");
    int done = 0, frames = 0, strip = 0;
    for (int i = 0; !done && i < 10 * FPS; i++) {
        double t = (double)i / FPS;
        TRY(animrt_runtime_tick(rt, t));
        animrt_event ev[16];
        size_t n;
        TRY(animrt_event_poll(rt, ev, 16, &n));
        for (size_t k = 0; k < n; k++) {
            if (ev[k].type == ANIMRT_EVENT_BARRIER_NOTIFIED && ev[k].token == 1) {
                fill_to(bar, 0.7, 1.0, "easeInEaseOut", step);
                TRY(animrt_barrier_notify(rt, step, 2));
            } else if (ev[k].type == ANIMRT_EVENT_BARRIER_NOTIFIED && ev[k].token == 2) {
                fill_to(bar, 1.0, 0.6, "easeIn", step);
                TRY(animrt_barrier_notify(rt, step, 3));
            } else if (ev[k].type == ANIMRT_EVENT_BARRIER_NOTIFIED && ev[k].token == 3) {
                /* Full: fade the ring out, then finish. */
                double from = 1, to = 0;
                TRY(animrt_layer_set_value(rt, ring, opacity, &to, 1));
                TRY(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &fade));
                TRY(animrt_animation_set_value(rt, fade, ANIMRT_FROM, &from, 1));
                TRY(animrt_animation_set_timing(rt, fade, ANIMRT_TIMING_DURATION, 0.4));
                TRY(animrt_layer_add_animation(rt, ring, fade, "fade", step, NULL));
                TRY(animrt_barrier_notify(rt, step, 4));
            } else if (ev[k].type == ANIMRT_EVENT_BARRIER_NOTIFIED && ev[k].token == 4) {
                done = 1;
            }
        }
        frame f = {t, read1(ring, angle), read1(ring, opacity), read1(bar, progress)};
        if (out) { if ((i % 7 == 0 || done) && strip < 14) svg_frame(out, &f, strip++); }
        else if (tty) { draw_terminal(&f, 1); usleep(1000000 / FPS); }
        else if (i % 6 == 0 || done) draw_terminal(&f, 0);
        frames++;
    }
    if (out) {
        fprintf(out, "</svg>\n");
        fclose(out);
        printf("wrote %d frames of a %.2f s run to %s\n", strip, (double)(frames - 1) / FPS, svg);
    } else {
        printf("%s", tty ? "\n" : "");
        printf("finished after %.2f s: the bar filled in three chained steps, then the ring faded out\n",
               (double)(frames - 1) / FPS);
    }
    animrt_runtime_destroy(rt);
    return done ? 0 : 1;
}
