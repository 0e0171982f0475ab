/* animrt demo: the machines that come with animrt, driven from outside.
 *
 * The host (this program) owns the clock, the drawing and the "network";
 * animrt owns what is on screen at each time and which state each component
 * is in. Four scripted sessions run one after the other:
 *
 *   networkButton  tap, loading, success with the check mark; then an error with the cross
 *   progressCard   fetch, 35 %, 38 % (no animation), 72 %, a stale result ignored, 100 %,
 *                  the celebration, completed, hidden
 *   streakCard     0 days, then 3 of 7, then completed (taps forwarded to the host)
 *   indicatorBar   unknown, 30 %, 72 %, unknown again
 *
 * Then, in the terminal, a machine that does not come with animrt: the
 * example plugin's (examples/plugins/examples.c) like button, whose heart
 * pops on the plugin's bounce(3) curve and settles on its elastic(0.3), and
 * whose guard, the plugin's canToggle, locks it after three toggles.
 *
 * How a host drives a machine is in play() and report(): load a definition by
 * name, create a machine, tick the clock, poll the events it reports (state
 * changes, requests, emits), send it events, and read its parts' layers
 * (shown()). like_button() does the same with a plugin's machine and the
 * typed animrt_machine_send. The rest of the file only draws.
 *
 *   demo              animate in the terminal (in real time on a terminal)
 *   demo --svg FILE   write each session as a row of an SVG filmstrip instead
 *   --plugin PATH     the example plugin (default .build/c/libexamples.so)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "animrt.h"

#define FPS 30
#define TWO_PI 6.283185307179586

static animrt_runtime *rt;

static void die(const char *what, animrt_status s) {
    fprintf(stderr, "demo: %s failed: %s (%s)\n", what, animrt_status_name(s), animrt_last_error_message());
    exit(1);
}
#define TRY(call) do { animrt_status s_ = (call); if (s_ != ANIMRT_OK) die(#call, s_); } while (0)

/* ---- reading a machine ---------------------------------------------------- */

typedef struct {
    const char *kind;  /* the shipped machine's name */
    animrt_id def, m;
    uint64_t requests[8];  /* the request ids issued, oldest first */
    int request_count;
} machine;

static int32_t id_of(machine *mc, animrt_name_kind kind, const char *name) {
    int32_t id;
    TRY(animrt_definition_id(rt, mc->def, kind, name, &id));
    return id;
}

static const char *name_of(machine *mc, animrt_name_kind kind, int32_t id) {
    static char buf[4][128];
    static int next;
    char *b = buf[next++ % 4];
    size_t needed;
    if (id < 0 || animrt_definition_name(rt, mc->def, kind, id, b, 128, &needed) != ANIMRT_OK) strcpy(b, "-");
    return b;
}

static const char *state(machine *mc) {
    int32_t s;
    TRY(animrt_machine_state(rt, mc->m, &s));
    return name_of(mc, ANIMRT_NAME_STATE, s);
}

static int in_state(machine *mc, const char *name) {
    int yes = 0;
    TRY(animrt_machine_in_state(rt, mc->m, id_of(mc, ANIMRT_NAME_STATE, name), &yes));
    return yes;
}

/* A context field's text, in a static buffer. */
static const char *text(machine *mc, const char *field) {
    static char buf[4][256];
    static int next;
    char *b = buf[next++ % 4];
    animrt_value v;
    size_t needed;
    TRY(animrt_machine_get(rt, mc->m, id_of(mc, ANIMRT_NAME_CONTEXT, field), &v, b, 256, &needed));
    return b;
}

/* Component `i` of what part `part` shows for `key_path`. */
static double shown(machine *mc, const char *part, const char *key_path, int i) {
    animrt_id layer;
    animrt_keypath kp;
    double v[16];
    size_t n;
    TRY(animrt_machine_part(rt, mc->m, part, &layer));
    TRY(animrt_keypath_id(rt, key_path, &kp));
    TRY(animrt_layer_get_presentation(rt, layer, kp, v, 16, &n));
    return v[i];
}
#define S(mc, part, kp) shown(mc, part, kp, 0)

static size_t copies(machine *mc, const char *part) {
    size_t n;
    TRY(animrt_machine_part_count(rt, mc->m, part, &n));
    return n;
}

/* ---- the scripts ------------------------------------------------------------ */

enum { NOW, LATEST, OLDER };  /* which request a result answers */

typedef struct {
    double t;
    const char *event;
    const char *payload;  /* JSON; "%llu" stands for the request id */
    int answers;
    const char *note;     /* what to look for, printed with the cue */
} cue;

typedef struct {
    const char *kind;
    const char *options;
    double end;
    const cue *cues;
    int cue_count;
    const double *frames;  /* the times drawn in the filmstrip */
    int frame_count;
} session;

static const cue BUTTON[] = {
    {0.0, "tap", NULL, NOW, "the button turns into a circle (two groups; the spin waits for both)"},
    {1.6, "stopAnimate", NULL, NOW, "success: the arcs turn back from where they are, dots grow, the check mark flashes"},
    {3.6, "startAnimate", NULL, NOW, "again"},
    {5.2, "stopByError", NULL, NOW, "failure: the cross, in the error colour"},
};
static const double BUTTON_FRAMES[] = {0, 0.15, 0.5, 1.0, 1.75, 2.0, 2.3, 2.75, 3.2, 5.6, 5.95, 6.8};

static const cue CARD[] = {
    {0.2, "fetch", NULL, NOW, "loading: request #1"},
    {0.8, "fetched", "{\"request\": %llu, \"progress\": 0.35, \"hint\": \"2 of 6 tasks\"}", LATEST, "ready at 35 %"},
    {1.6, "progress", "{\"progress\": 0.38}", NOW, "38 %: a change under 0.05 is set, not animated"},
    {2.4, "progress", "{\"progress\": 0.72}", NOW, "72 %: animated from what is on screen"},
    {3.4, "fetch", NULL, NOW, "pulled to refresh"},
    {3.5, "fetch", NULL, NOW, "and again: only the latest request counts"},
    {4.0, "fetched", "{\"request\": %llu, \"progress\": 0.9}", OLDER, "the older request answers late: stale, ignored"},
    {4.4, "fetched", "{\"request\": %llu, \"progress\": 1}", LATEST, "100 %: the ring fills first, then the celebration"},
};
static const double CARD_FRAMES[] = {0, 0.3, 1.0, 1.8, 2.6, 2.9, 3.6, 4.1, 4.6, 5.2, 8.3, 13.4};

static const cue STREAK[] = {
    {0.0, "track", "{\"completedDays\": 0, \"remainingDays\": 7}", NOW, "0 days: the bar shows exactly 0"},
    {1.0, "track", "{\"completedDays\": 3, \"remainingDays\": 4}", NOW, "3 of 7"},
    {1.5, "infoTap", NULL, NOW, "a tap is forwarded to the host, nothing decided"},
    {2.5, "complete", "{\"completedDays\": 7}", NOW, "completed style"},
    {3.0, "unlockTap", NULL, NOW, "forwarded"},
};
static const double STREAK_FRAMES[] = {0.1, 1.1, 2.6};

static const cue INDICATOR[] = {
    {0.0, "unknown", NULL, NOW, "unknown progress is drawn as 0"},
    {0.5, "progress", "{\"fraction\": 0.3}", NOW, "30 %"},
    {1.0, "progress", "{\"fraction\": 0.72}", NOW, "72 %"},
    {1.5, "unknown", NULL, NOW, "unknown again"},
};
static const double INDICATOR_FRAMES[] = {0.1, 0.6, 1.1, 1.6};

#define COUNT(a) (int)(sizeof a / sizeof *a)
static const session SESSIONS[] = {
    {"networkButton", "{\"config\": {\"linesCount\": 3, \"dotLength\": 1.2}}", 7.0, BUTTON, COUNT(BUTTON), BUTTON_FRAMES, COUNT(BUTTON_FRAMES)},
    {"progressCard", NULL, 13.6, CARD, COUNT(CARD), CARD_FRAMES, COUNT(CARD_FRAMES)},
    {"streakCard", NULL, 3.5, STREAK, COUNT(STREAK), STREAK_FRAMES, COUNT(STREAK_FRAMES)},
    {"indicatorBar", NULL, 2.0, INDICATOR, COUNT(INDICATOR), INDICATOR_FRAMES, COUNT(INDICATOR_FRAMES)},
};

/* ---- the terminal ------------------------------------------------------------ */

static void bar(char *out, double fraction, int width) {
    int filled = (int)(fraction * width + 0.5);
    for (int i = 0; i < width; i++) out[i] = i < filled ? '#' : '-';
    out[width] = 0;
}

/* One line showing the machine as the host would draw it. */
static void describe(machine *mc, char *line, size_t cap) {
    char b[64];
    if (!strcmp(mc->kind, "networkButton")) {
        double width = S(mc, "button", "bounds.size.width") / 10, check = S(mc, "checkMark", "opacity");
        double cross = S(mc, "cross", "opacity"), title = S(mc, "title", "opacity");
        /* The arcs: 12 cells round the circle, lit where an arc is. */
        char ring[13] = "";
        size_t arcs = copies(mc, "arc");
        for (int i = 0; i < 12; i++) {
            double a = TWO_PI * i / 12;
            int lit = 0;
            for (size_t k = 0; k < arcs; k++) {
                char arc[32];
                snprintf(arc, sizeof arc, "arc[%zu]", k);
                if (S(mc, arc, "opacity") < 0.5) continue;
                double from = TWO_PI * S(mc, arc, "strokeStart") + S(mc, arc, "transform.rotation.z");
                double d = fmod(a - from + 4 * TWO_PI, TWO_PI);
                if (d <= TWO_PI * (S(mc, arc, "strokeEnd") - S(mc, arc, "strokeStart")) + 0.3) lit = 1;
            }
            ring[i] = lit ? 'o' : ' ';
        }
        ring[12] = 0;
        const char *face = check > 0.5 ? "v" : cross > 0.5 ? "x" : S(mc, "dot[0]", "opacity") > 0.5 ? "*" : ring;
        snprintf(line, cap, "button (%*s%s%*s) %-6s  %s", (int)(width / 2) > 0 ? (int)(width / 2) : 0, "",
                 title > 0.5 ? text(mc, "title") : face, (int)(width / 2), "", "", state(mc));
    } else if (!strcmp(mc->kind, "progressCard")) {
        if (S(mc, "card", "opacity") < 0.5) { snprintf(line, cap, "card   (hidden)  %s", state(mc)); return; }
        bar(b, S(mc, "ring", "strokeEnd"), 20);
        snprintf(line, cap, "card   %s %s %3.0f%% | %-32s | %-12s | %s%s", S(mc, "spinner", "opacity") > 0.5 ? "~" : " ",
                 S(mc, "ring", "opacity") > 0.5 ? b : "                    ", 100 * S(mc, "ring", "strokeEnd"), text(mc, "title"),
                 text(mc, "actionTitle"), state(mc), S(mc, "celebration", "opacity") > 0.5 ? "  \\o/" : "");
    } else if (!strcmp(mc->kind, "streakCard")) {
        bar(b, S(mc, "fill", "bounds.size.width") / 295, 20);
        snprintf(line, cap, "streak %s  %-28s %s", S(mc, "track", "opacity") > 0.5 ? b : "[Recalculate] [Unlock]", text(mc, "title"),
                 state(mc));
    } else {
        /* The fill, with the indicator (the label rides above the bar, centred
         * on the fill's end) marked '|' where its centre is. */
        bar(b, S(mc, "fill", "bounds.size.width") / 300, 30);
        int at = (int)((S(mc, "indicator", "position.x") + 20) / 10);
        b[at < 0 ? 0 : at > 29 ? 29 : at] = '|';
        snprintf(line, cap, "bar    %s  label %-4s  %s", b, text(mc, "label"), state(mc));
    }
}

/* ---- the SVG filmstrip --------------------------------------------------------- */

static FILE *svg;
static int svg_row, svg_col;

static void color(char *out, double r, double g, double b) {
    sprintf(out, "#%02x%02x%02x", (int)(fmin(fmax(r, 0), 1) * 255 + 0.5), (int)(fmin(fmax(g, 0), 1) * 255 + 0.5),
            (int)(fmin(fmax(b, 0), 1) * 255 + 0.5));
}

static void part_color(machine *mc, const char *part, const char *key_path, char *out) {
    color(out, shown(mc, part, key_path, 0), shown(mc, part, key_path, 1), shown(mc, part, key_path, 2));
}

/* An arc of a circle (centre cx, cy, radius r) from angle a0 to a1, as a path. */
static void arc_path(double cx, double cy, double r, double a0, double a1, const char *stroke, double width, double opacity) {
    fprintf(svg, "<path d='");
    for (int s = 0; s <= 16; s++) {
        double a = a0 + (a1 - a0) * s / 16;
        fprintf(svg, "%s%.2f %.2f ", s ? "L" : "M", cx + r * cos(a), cy + r * sin(a));
    }
    fprintf(svg, "' fill='none' stroke='%s' stroke-width='%.2f' stroke-linecap='round' opacity='%.3f'/>\n", stroke, width, opacity);
}

/* Writes `words` as lines of at most 13 characters from (x, y); returns the y below them. */
static double svg_words(double x, double y, const char *words, const char *fill) {
    char line[64] = "";
    const char *w = words;
    while (*w) {
        const char *end = strchr(w, ' ');
        size_t n = end ? (size_t)(end - w) : strlen(w);
        if (*line && strlen(line) + 1 + n > 13) {
            fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='8' fill='%s'>%s</text>\n", x, y, fill, line);
            y += 9;
            line[0] = 0;
        }
        if (strlen(line) + n + 2 < sizeof line) {
            if (*line) strcat(line, " ");
            strncat(line, w, n);
        }
        w += n;
        while (*w == ' ') w++;
    }
    if (*line) { fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='8' fill='%s'>%s</text>\n", x, y, fill, line); y += 9; }
    return y;
}

static void svg_panel(machine *mc, double t) {
    double x0 = 10 + svg_col++ * 115.0, y0 = 10 + svg_row * 160.0, k = 0.5;  /* points to pixels */
    char fill[8], stroke[8];
    fprintf(svg, "<g><rect x='%.1f' y='%.1f' width='110' height='150' rx='8' fill='#f4f5f7' stroke='#d0d4da'/>\n", x0, y0);
    if (!strcmp(mc->kind, "networkButton")) {
        /* The button's layer: its centre stays put while its bounds change; parts are in its own coordinates. */
        double w = S(mc, "button", "bounds.size.width"), h = shown(mc, "button", "bounds", 3);
        double cx = x0 + 55, cy = y0 + 60, left = cx - k * w / 2, top = cy - k * h / 2;
        part_color(mc, "button", "backgroundColor", fill);
        fprintf(svg, "<rect x='%.2f' y='%.2f' width='%.2f' height='%.2f' rx='%.2f' fill='%s'/>\n", left, top, k * w, k * h,
                k * S(mc, "button", "cornerRadius"), fill);
        double bw = shown(mc, "border", "bounds", 2), bh = shown(mc, "border", "bounds", 3);
        double bx = left + k * S(mc, "border", "position.x"), by = top + k * S(mc, "border", "position.y");
        part_color(mc, "border", "borderColor", stroke);
        if (S(mc, "border", "borderWidth") > 0.01)
            fprintf(svg, "<rect x='%.2f' y='%.2f' width='%.2f' height='%.2f' rx='%.2f' fill='none' stroke='%s' stroke-width='%.2f'/>\n",
                    bx - k * bw / 2, by - k * bh / 2, k * bw, k * bh, k * bh / 2, stroke, k * S(mc, "border", "borderWidth"));
        double ccx = left + k * h / 2, ccy = top + k * h / 2, r = k * (h - 5) / 2;
        for (size_t i = 0; i < copies(mc, "arc"); i++) {
            char arc[32];
            snprintf(arc, sizeof arc, "arc[%zu]", i);
            double rot = S(mc, arc, "transform.rotation.z");
            part_color(mc, arc, "strokeColor", stroke);
            arc_path(ccx, ccy, r, TWO_PI * S(mc, arc, "strokeStart") + rot, TWO_PI * S(mc, arc, "strokeEnd") + rot, stroke,
                     k * S(mc, arc, "lineWidth"), S(mc, arc, "opacity"));
        }
        if (S(mc, "ring", "opacity") > 0.01)
            arc_path(ccx, ccy, r, -TWO_PI / 4, -TWO_PI / 4 + TWO_PI * S(mc, "ring", "strokeEnd"), "#00c000", 2.5, S(mc, "ring", "opacity"));
        for (size_t i = 0; i < copies(mc, "dot"); i++) {
            char dot[32];
            snprintf(dot, sizeof dot, "dot[%zu]", i);
            if (S(mc, dot, "opacity") < 0.01) continue;
            part_color(mc, dot, "backgroundColor", fill);
            fprintf(svg, "<circle cx='%.2f' cy='%.2f' r='%.2f' fill='%s'/>\n", left + k * S(mc, dot, "position.x"),
                    top + k * S(mc, dot, "position.y"), fmin(k * S(mc, dot, "transform.scale"), k * h / 2), fill);
        }
        double s = k * h;
        if (S(mc, "checkMark", "opacity") > 0.01)
            fprintf(svg, "<path d='M%.2f %.2f L%.2f %.2f L%.2f %.2f' fill='none' stroke='white' stroke-width='2.5' stroke-linecap='round' "
                         "opacity='%.3f'/>\n", ccx - 0.22 * s, ccy, ccx - 0.05 * s, ccy + 0.17 * s, ccx + 0.22 * s, ccy - 0.15 * s,
                    S(mc, "checkMark", "opacity"));
        if (S(mc, "cross", "opacity") > 0.01)
            fprintf(svg, "<path d='M%.2f %.2f L%.2f %.2f M%.2f %.2f L%.2f %.2f' stroke='white' stroke-width='2.5' stroke-linecap='round' "
                         "opacity='%.3f'/>\n", ccx - 0.2 * s, ccy - 0.2 * s, ccx + 0.2 * s, ccy + 0.2 * s, ccx + 0.2 * s, ccy - 0.2 * s,
                    ccx - 0.2 * s, ccy + 0.2 * s, S(mc, "cross", "opacity"));
        if (S(mc, "title", "opacity") > 0.01)
            fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='11' text-anchor='middle' fill='%s' "
                         "opacity='%.3f'>%s</text>\n", cx, cy + 4, in_state(mc, "ready") ? "white" : "#333",
                    S(mc, "title", "opacity"), text(mc, "title"));
    } else if (!strcmp(mc->kind, "progressCard")) {
        double o = S(mc, "card", "opacity");
        if (o > 0.01) {
            fprintf(svg, "<g opacity='%.3f'><rect x='%.1f' y='%.1f' width='100' height='90' rx='8' fill='white' stroke='#e0e0e0'/>\n",
                    o, x0 + 5, y0 + 15);
            double cx = x0 + 30, cy = y0 + 50;
            if (S(mc, "track", "opacity") > 0.01) arc_path(cx, cy, 16, 0, TWO_PI, "#e8e8ee", 5, S(mc, "track", "opacity"));
            if (S(mc, "ring", "opacity") > 0.01 && S(mc, "ring", "strokeEnd") > 0)
                arc_path(cx, cy, 16, -TWO_PI / 4, -TWO_PI / 4 + TWO_PI * S(mc, "ring", "strokeEnd"), "#1a9f6f", 5, S(mc, "ring", "opacity"));
            if (S(mc, "spinner", "opacity") > 0.01) arc_path(cx, cy, 10, t * 6, t * 6 + 4, "#888", 2.5, 1);
            if (S(mc, "errorIcon", "opacity") > 0.01)
                fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='18' text-anchor='middle' fill='#d33'>!</text>\n",
                        cx, cy + 6);
            if (S(mc, "celebration", "opacity") > 0.01) {
                double g = 20 * S(mc, "celebration", "transform.scale");
                for (int i = 0; i < 8; i++)
                    fprintf(svg, "<circle cx='%.2f' cy='%.2f' r='1.8' fill='#f5a623'/>\n", cx + g * cos(i * TWO_PI / 8), cy + g * sin(i * TWO_PI / 8));
            }
            fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='9' text-anchor='middle'>%.0f%%</text>\n", cx, cy + 3,
                    100 * S(mc, "ring", "strokeEnd"));
            double y = svg_words(x0 + 52, y0 + 30, text(mc, "title"), "#222");
            y = svg_words(x0 + 52, y + 2, text(mc, "subtitle"), "#888");
            if (*text(mc, "actionTitle"))
                fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='8' font-weight='bold' fill='#2f80ed'>%s</text>\n",
                        x0 + 52, y + 6, text(mc, "actionTitle"));
            fprintf(svg, "</g>\n");
        }
    } else if (!strcmp(mc->kind, "streakCard")) {
        part_color(mc, "card", "backgroundColor", fill);
        fprintf(svg, "<rect x='%.1f' y='%.1f' width='100' height='70' rx='8' fill='%s' stroke='#e0e0e0'/>\n", x0 + 5, y0 + 30, fill);
        int done = in_state(mc, "completed");
        fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='8' fill='%s'>%s</text>\n", x0 + 12, y0 + 50,
                done ? "white" : "#333", text(mc, "title"));
        if (S(mc, "track", "opacity") > 0.5) {
            fprintf(svg, "<rect x='%.1f' y='%.1f' width='86' height='5' rx='2.5' fill='#ecebf6'/>\n", x0 + 12, y0 + 78);
            fprintf(svg, "<rect x='%.1f' y='%.1f' width='%.3f' height='5' rx='2.5' fill='#7b39ed'/>\n", x0 + 12, y0 + 78,
                    86 * S(mc, "fill", "bounds.size.width") / 295);
        } else {
            fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='8' fill='white'>Recalculate   Unlock</text>\n",
                    x0 + 12, y0 + 84);
        }
    } else {
        double s = 90.0 / 300, fx = x0 + 10;
        fprintf(svg, "<rect x='%.1f' y='%.1f' width='90' height='6' rx='3' fill='#ccc'/>\n", fx, y0 + 80);
        fprintf(svg, "<rect x='%.1f' y='%.1f' width='%.3f' height='6' rx='3' fill='#30b0c7'/>\n", fx, y0 + 80, s * S(mc, "fill", "bounds.size.width"));
        fprintf(svg, "<text x='%.2f' y='%.1f' font-family='sans-serif' font-size='9' text-anchor='middle'>%s ▾</text>\n",
                fx + s * (S(mc, "indicator", "position.x") + 20), y0 + 74, text(mc, "label"));
    }
    fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='8' text-anchor='middle' fill='#555'>%s</text>\n",
            x0 + 55, y0 + 130, state(mc));
    fprintf(svg, "<text x='%.1f' y='%.1f' font-family='sans-serif' font-size='9' text-anchor='middle'>%s t=%.2fs</text></g>\n",
            x0 + 55, y0 + 143, mc->kind, t);
}

/* ---- running a session ------------------------------------------------------------ */

static double clock_base;  /* sessions run one after the other on the runtime's clock */
static int tty;            /* on a terminal, each frame redraws one line in place */

/* Reports what the machine told the host (and answers nothing: the script does). */
static void report(machine *mc, int print) {
    animrt_event ev[64];
    size_t n;
    do {
        TRY(animrt_event_poll(rt, ev, 64, &n));
        for (size_t i = 0; i < n; i++) {
            const animrt_event *e = &ev[i];
            if (e->object != mc->m) continue;
            if (e->type == ANIMRT_EVENT_MACHINE_REQUEST && mc->request_count < 8) mc->requests[mc->request_count++] = e->token;
            if (!print) continue;
            double t = e->time - clock_base;
            if (tty) printf("\r\033[K");  /* the line starts where the frame being redrawn was */
            switch (e->type) {
            case ANIMRT_EVENT_MACHINE_STATE:
                printf("  %5.2fs  state %s -> %s\n", t, name_of(mc, ANIMRT_NAME_STATE, e->from_state), name_of(mc, ANIMRT_NAME_STATE, e->to_state));
                break;
            case ANIMRT_EVENT_MACHINE_REQUEST:
                printf("  %5.2fs  request %s #%llu (the host fetches)\n", t, name_of(mc, ANIMRT_NAME_REQUEST, e->name), (unsigned long long)e->token);
                break;
            case ANIMRT_EVENT_MACHINE_STALE:
                printf("  %5.2fs  stale %s #%llu: not processed\n", t, name_of(mc, ANIMRT_NAME_EVENT, e->name), (unsigned long long)e->token);
                break;
            case ANIMRT_EVENT_MACHINE_EMITTED:
                printf("  %5.2fs  emitted %s\n", t, name_of(mc, ANIMRT_NAME_EMIT, e->name));
                break;
            case ANIMRT_EVENT_MACHINE_ERROR:
                printf("  %5.2fs  error: %s\n", t, e->payload_count ? e->payload[0].string : "");
                break;
            default: break;
            }
        }
    } while (n == 64);
}

static void play(const session *s, int print) {
    machine mc = {s->kind, 0, 0, {0}, 0};
    TRY(animrt_runtime_tick(rt, clock_base));
    TRY(animrt_definition_load_named(rt, s->kind, &mc.def));
    TRY(animrt_machine_create(rt, mc.def, 0, s->options, &mc.m));
    if (print) printf("%s%s\n", svg ? "" : "\n", s->kind);
    int next = 0, frame = 0;
    char line[512];
    for (int i = 0; ; i++) {
        double t = (double)i / FPS;
        if (t > s->end + 1e-9) break;
        TRY(animrt_runtime_tick(rt, clock_base + t));
        report(&mc, print);
        while (next < s->cue_count && s->cues[next].t <= t + 1e-9) {
            const cue *c = &s->cues[next++];
            char payload[256] = "";
            if (c->payload) {
                uint64_t id = c->answers == OLDER && mc.request_count >= 2 ? mc.requests[mc.request_count - 2]
                                                                            : mc.request_count ? mc.requests[mc.request_count - 1] : 0;
                snprintf(payload, sizeof payload, c->payload, (unsigned long long)id);
            }
            if (print) printf("%s  %5.2fs  send %s %s  -- %s\n", tty ? "\r\033[K" : "", t, c->event, payload, c->note);
            animrt_send_outcome outcome;
            TRY(animrt_machine_send_json(rt, mc.m, c->event, c->payload ? payload : NULL, &outcome));
            report(&mc, print);
        }
        if (svg) {
            if (frame < s->frame_count && fabs(s->frames[frame] - t) < 0.5 / FPS) { svg_panel(&mc, t); frame++; }
        } else if (tty) {
            describe(&mc, line, sizeof line);
            printf("\r\033[K%s", line);
            fflush(stdout);
            usleep(1000000 / FPS);
        } else if (i % 9 == 0) {
            describe(&mc, line, sizeof line);
            printf("  %5.2fs  %s\n", t, line);
        }
    }
    if (tty) printf("\n");
    TRY(animrt_machine_destroy(rt, mc.m));
    clock_base += s->end + 1;
}

/* ---- a plugin's machine: the like button ----------------------------------- */

/* Returns whether the plugin loaded and its machine ran. */
static int like_button(const char *path) {
    static const char *const notes[] = {
        "like: the heart pops on the plugin's bounce curve",
        "unlike: it settles on the plugin's elastic curve",
        "like again: the third toggle of three",
        "a fourth toggle: the plugin's canToggle refuses it, and the button locks",
    };
    animrt_id plugin;
    animrt_status s = animrt_plugin_load(rt, path, &plugin);
    if (s != ANIMRT_OK) {
        printf("\nlikeButton: the example plugin did not load (%s: %s); `make plugins` builds it\n",
               animrt_status_name(s), animrt_last_error_message());
        return 0;
    }
    machine mc = {.kind = "likeButton"};
    TRY(animrt_definition_load_named(rt, "likeButton", &mc.def));
    TRY(animrt_machine_create(rt, mc.def, 0, "{\"config\": {\"likes\": 41, \"maxToggles\": 3}}", &mc.m));
    animrt_id heart;
    animrt_keypath scale;
    TRY(animrt_machine_part(rt, mc.m, "heart", &heart));
    TRY(animrt_keypath_id(rt, "transform.scale", &scale));
    int32_t tap = id_of(&mc, ANIMRT_NAME_EVENT, "tap"), likes = id_of(&mc, ANIMRT_NAME_CONTEXT, "likes");
    double start;
    TRY(animrt_runtime_time(rt, &start));
    printf("\nlikeButton (not shipped: the example plugin adds it): a tap every second, three toggles allowed;\n"
           "the heart's scale (1 at rest) as a number and as a bar\n");
    for (int i = 0; i <= 64; i++) {
        double t = start + 0.05 * i, k;
        size_t n;
        animrt_value v;
        TRY(animrt_runtime_tick(rt, t));
        if (i % 20 == 0) {
            printf("  %5.2fs  send tap   -- %s\n", t - start, notes[i / 20 < 3 ? i / 20 : 3]);
            TRY(animrt_machine_send(rt, mc.m, tap, NULL, 0, NULL));
        }
        TRY(animrt_runtime_tick(rt, t));
        TRY(animrt_layer_get_presentation(rt, heart, scale, &k, 1, &n));
        TRY(animrt_machine_get(rt, mc.m, likes, &v, NULL, 0, NULL));
        char line[48];
        bar(line, k / 2, 40);
        if (i % 2 == 0) printf("  %5.2fs  %-8s likes %2.0f  scale %.3f %s\n", t - start, state(&mc), v.number, k, line);
    }
    TRY(animrt_machine_destroy(rt, mc.m));
    return 1;
}

int main(int argc, char **argv) {
    const char *svg_path = NULL, *plugin = ".build/c/libexamples.so";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc) svg_path = argv[++i];
        else if (strcmp(argv[i], "--plugin") == 0 && i + 1 < argc) plugin = argv[++i];
        else { fprintf(stderr, "usage: %s [--svg FILE] [--plugin PATH]\n", argv[0]); return 2; }
    }
    if (animrt_version() != ANIMRT_VERSION_NUMBER) {
        fprintf(stderr, "demo: built against animrt.h %d but the library is %u\n", ANIMRT_VERSION_NUMBER, animrt_version());
        return 1;
    }
    TRY(animrt_runtime_create(0, &rt));
    TRY(animrt_runtime_tick(rt, 0));
    int rows = COUNT(SESSIONS), columns = 0;
    for (int i = 0; i < rows; i++) if (SESSIONS[i].frame_count > columns) columns = SESSIONS[i].frame_count;
    if (svg_path) {
        svg = fopen(svg_path, "w");
        if (!svg) { perror(svg_path); return 1; }
        fprintf(svg, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d'>\n",
                15 + columns * 115, 10 + rows * 160, 15 + columns * 115, 10 + rows * 160);
    }
    tty = !svg && isatty(STDOUT_FILENO);
    if (!svg)
        printf("Each machine runs a scripted session; times are seconds since the session began.\n"
               "  send      an event the host sends; after '--', what to look for\n"
               "  state     a transition the machine reports ('-': none before); request, emitted and stale too\n"
               "  the rest  what the host draws from the machine's parts, %s, then the active state\n",
               tty ? "redrawn in place 30 times a second" : "every 0.3 s");
    for (svg_row = 0; svg_row < rows; svg_row++) {
        svg_col = 0;
        play(&SESSIONS[svg_row], !svg);
    }
    if (svg) {
        fprintf(svg, "</svg>\n");
        fclose(svg);
        printf("wrote %d sessions as a filmstrip to %s\n", rows, svg_path);
    } else {
        int plugin_ran = like_button(plugin);
        double now;
        TRY(animrt_runtime_time(rt, &now));
        printf("\nfinished after %.2f s of the runtime's clock: the four shipped machines%s, each step started by its "
               "state, never by a guessed delay\n", now, plugin_ran ? " and the plugin's like button" : "");
    }
    animrt_runtime_destroy(rt);
    return 0;
}
