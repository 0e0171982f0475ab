/* Writes, for each machine definition, its statechart (<name>.dot) and its
 * page (<name>.md: configuration, events, transition table) into a folder,
 * through the public C API; with --check, compares instead and fails on any
 * difference, so the committed docs cannot drift from the definitions.
 *
 *   machine_docs [--check] OUTDIR definition.json …
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "animrt.h"

static char *export_text(animrt_runtime *rt, animrt_id def, animrt_export_format format) {
    size_t needed = 0;
    animrt_definition_export(rt, def, format, NULL, 0, &needed);
    char *buf = malloc(needed);
    if (!buf || animrt_definition_export(rt, def, format, buf, needed, &needed) != ANIMRT_OK) {
        fprintf(stderr, "export failed: %s\n", animrt_last_error_message());
        exit(1);
    }
    return buf;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = 0;
    fclose(f);
    return buf;
}

/* The page `md` with the line that says how it is made, before its diagram
 * (the library's page, which a host exports for its own machines too, does
 * not say it). */
static char *committed_page(char *md) {
    static const char note[] =
        "Generated from the definition by `make machine-docs`; `make test` fails if it no longer matches.\n\n";
    char *at = strstr(md, "\n![statechart of ");
    if (!at) { fprintf(stderr, "the page has no diagram line\n"); exit(1); }
    at += 1;
    size_t head = (size_t)(at - md), rest = strlen(at);
    char *out = malloc(head + sizeof note - 1 + rest + 1);
    if (!out) exit(1);
    memcpy(out, md, head);
    memcpy(out + head, note, sizeof note - 1);
    memcpy(out + head + sizeof note - 1, at, rest + 1);
    free(md);
    return out;
}

/* Writes or checks one file; returns 1 on a difference. */
static int emit(int check, const char *dir, const char *name, const char *ext, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    if (check) {
        char *old = read_file(path);
        int differs = !old || strcmp(old, text) != 0;
        if (differs) fprintf(stderr, "%s is out of date: run `make machine-docs`\n", path);
        free(old);
        return differs;
    }
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
    fclose(f);
    printf("wrote %s\n", path);
    return 0;
}

int main(int argc, char **argv) {
    int check = argc > 1 && strcmp(argv[1], "--check") == 0;
    int first = check ? 2 : 1;
    if (argc < first + 2) { fprintf(stderr, "usage: machine_docs [--check] OUTDIR definition.json ...\n"); return 2; }
    const char *dir = argv[first];
    animrt_runtime *rt;
    if (animrt_runtime_create(0, &rt) != ANIMRT_OK) return 1;
    int differences = 0;
    for (int i = first + 1; i < argc; i++) {
        animrt_id def;
        if (animrt_definition_load_file(rt, argv[i], &def) != ANIMRT_OK) {
            fprintf(stderr, "%s: %s\n", argv[i], animrt_last_error_message());
            return 1;
        }
        char name[256];
        size_t needed;
        /* The machine's name: the first line of its page, "# name". */
        char *md = committed_page(export_text(rt, def, ANIMRT_EXPORT_MARKDOWN));
        sscanf(md, "# %255s", name);
        char *dot = export_text(rt, def, ANIMRT_EXPORT_DOT);
        differences += emit(check, dir, name, "md", md);
        differences += emit(check, dir, name, "dot", dot);
        free(md);
        free(dot);
        (void)needed;
    }
    animrt_runtime_destroy(rt);
    if (check) printf(differences ? "machine docs: %d file(s) out of date\n" : "machine docs: up to date\n", differences);
    return differences ? 1 : 0;
}
