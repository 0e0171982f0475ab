/* filmstrip.h: draws the tutorial's runs as SVG filmstrips, one panel per
 * frame, and TRY(), which stops the program with animrt's message when a
 * call fails. filmstrip.py is the same in Python, to the byte. */
#ifndef FILMSTRIP_H
#define FILMSTRIP_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "animrt.h"

#define TRY(call) do { \
    animrt_status s_ = (call); \
    if (s_ != ANIMRT_OK) { \
        fprintf(stderr, "%s failed: %s: %s\n", #call, animrt_status_name(s_), animrt_last_error_message()); \
        exit(1); \
    } \
} while (0)

typedef struct { FILE *out; int index; char path[4096]; } filmstrip;

/* Opens `name` in $FILMSTRIP_DIR, else in the temporary directory ($TMPDIR, else /tmp), so that
 * running a program leaves nothing in the directory it is run from; filmstrip_close() says where
 * the file went, on stderr. */
static inline filmstrip filmstrip_open(const char *name, int frames) {
    filmstrip f = { NULL, 0, "" };
    const char *dir = getenv("FILMSTRIP_DIR");
    if (!dir || !*dir) dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    if (snprintf(f.path, sizeof f.path, "%s/%s", dir, name) >= (int)sizeof f.path) {
        fprintf(stderr, "filmstrip: the path %s/%s is too long\n", dir, name);
        exit(1);
    }
    f.out = fopen(f.path, "w");
    if (!f.out) { perror(f.path); exit(1); }
    fprintf(f.out, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='180' viewBox='0 0 %d 180'>\n",
            10 + frames * 110, 10 + frames * 110);
    return f;
}

/* A panel with its time label; returns its left edge. */
static inline double filmstrip_panel(filmstrip *f, double t) {
    double x = 10 + f->index++ * 110.0;
    fprintf(f->out, "<g><rect x='%.1f' y='5' width='100' height='170' rx='8' fill='#f4f5f7' stroke='#d0d4da'/>\n", x);
    fprintf(f->out, "<text x='%.1f' y='166' font-family='sans-serif' font-size='11' text-anchor='middle'>"
                    "t=%.2fs</text>\n", x + 50, t);
    return x;
}

/* The toast: a dark pill at height y (model units: it rests at 60), faded by alpha. */
static inline void filmstrip_toast(filmstrip *f, double t, double y, double alpha) {
    double x = filmstrip_panel(f, t);
    fprintf(f->out, "<rect x='%.1f' y='%.2f' width='80' height='26' rx='13' fill='#2b2f36' opacity='%.3f'/></g>\n",
            x + 10, 45 + y, alpha);
}

/* The spinner: twelve spokes clockwise from 12 o'clock, each with its opacity. */
static inline void filmstrip_spinner(filmstrip *f, double t, const double alpha[12]) {
    double x = filmstrip_panel(f, t), cx = x + 50, cy = 75;
    for (int i = 0; i < 12; i++) {
        double a = i * 6.283185307179586 / 12, dx = sin(a), dy = -cos(a);
        fprintf(f->out, "<line x1='%.2f' y1='%.2f' x2='%.2f' y2='%.2f' stroke='#2b2f36' stroke-width='7' "
                        "stroke-linecap='round' opacity='%.3f'/>\n",
                cx + 16 * dx, cy + 16 * dy, cx + 34 * dx, cy + 34 * dy, alpha[i]);
    }
    fprintf(f->out, "</g>\n");
}

static inline void filmstrip_close(filmstrip *f) {
    fprintf(f->out, "</svg>\n");
    if (fclose(f->out) != 0) { perror(f->path); exit(1); }
    fprintf(stderr, "filmstrip: wrote %s\n", f->path);
}
#endif
