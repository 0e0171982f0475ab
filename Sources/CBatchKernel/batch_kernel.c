/* The Bézier and linear lanes, and the arithmetic around block curves,
 * four entries at a time with AVX2 (see batch_kernel.h).
 *
 * Each step is the Swift reference's (BatchKernel+Blocks.swift) in the same
 * order: no multiply and add is fused (no FMA instruction is used, and
 * contraction is off), divisions are divisions, comparisons are ordered
 * (false for NaN) as Swift's are.
 *
 * One block's steps form a long chain (a division, the table's cubic, the
 * Newton step and its division, y(t)): written as one loop, the processor
 * waits on it. So a run of PASS entries goes through four loops, each short
 * enough for the processor to overlap many blocks: the progress, the
 * guess, t, then the value; what passes between them stays in the
 * first-level cache. */
#include "batch_kernel.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <string.h>
#include <immintrin.h>

int animrt_bezier_blocks_avx2_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

#define AVX2 __attribute__((target("avx2")))

/* Entries per run of the Bézier lane's four loops. */
#define PASS 64

/* How far ahead of its stores the linear lane loads the lines it shows in. */
#define LEAD 64

/* Lane j of the result is column j's element `row` ... : rows r0..r3 of four
 * doubles each, transposed so that out[m] holds element m of every row. */
static inline AVX2 void transpose(__m256d r0, __m256d r1, __m256d r2, __m256d r3, __m256d out[4]) {
    __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    out[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    out[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    out[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    out[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/* Per lane, coefficients k, k + 1 and k + 2 of the curves c[0] … c[3]. */
static inline AVX2 void coefficients3(const double *coefficients, const int32_t *c, int k,
                                      __m256d *a, __m256d *b, __m256d *d) {
    const double *q0 = coefficients + (ptrdiff_t)c[0] * 6 + k;
    if (c[0] == c[1] && c[0] == c[2] && c[0] == c[3]) {
        *a = _mm256_broadcast_sd(q0); *b = _mm256_broadcast_sd(q0 + 1); *d = _mm256_broadcast_sd(q0 + 2);
        return;
    }
    const double *q1 = coefficients + (ptrdiff_t)c[1] * 6 + k;
    const double *q2 = coefficients + (ptrdiff_t)c[2] * 6 + k, *q3 = coefficients + (ptrdiff_t)c[3] * 6 + k;
    *a = _mm256_set_pd(q3[0], q2[0], q1[0], q0[0]);
    *b = _mm256_set_pd(q3[1], q2[1], q1[1], q0[1]);
    *d = _mm256_set_pd(q3[2], q2[2], q1[2], q0[2]);
}

/* What tells a steady block (see animrt_batch_lane) and where it is shown:
 * a lane's from entry `first` on, read once per call (the stores below
 * could otherwise make the compiler read the lane again). */
typedef struct {
    const uint8_t *state, *flags;
    const int32_t *slot;
    double *presentation;
    uint32_t running, active, complex;
} steady;

static inline steady steady_from(const animrt_batch_lane *lane, size_t first) {
    steady s = {lane->state + first, lane->flags + first, lane->slot + first, lane->presentation,
                0x01010101u * lane->running, 0x01010101u * lane->active_flag, 0x01010101u * lane->complex_flag};
    return s;
}

/* Closes the block of entries i .. i + 3 whose byte is e and values v: a
 * steady block is shown here, any other has its values left in `value` for
 * the caller. Returns whether it was shown. */
static inline AVX2 int show(steady k, size_t i, __m256d v, uint8_t e, double *value, uint8_t *exact) {
    uint32_t s, fl;
    memcpy(&s, k.state + i, 4);
    memcpy(&fl, k.flags + i, 4);
    if (e == ANIMRT_BLOCK_FINITE && s == k.running && (fl & k.active) == k.active && (fl & k.complex) == 0) {
        __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
        _mm_storel_pd(k.presentation + k.slot[i], lo); _mm_storeh_pd(k.presentation + k.slot[i + 1], lo);
        _mm_storel_pd(k.presentation + k.slot[i + 2], hi); _mm_storeh_pd(k.presentation + k.slot[i + 3], hi);
        exact[i / 4] = e | ANIMRT_BLOCK_STORED;
        return 1;
    }
    _mm256_storeu_pd(value + i, v);
    exact[i / 4] = e;
    return 0;
}

/* Starts loading the presentation lines that entries i .. i + 3 are shown
 * in, for the stores a few hundred instructions later, when they are not
 * neighbours (a lane whose entries were added in another order than their
 * layers' values were made scatters its stores; neighbours are streamed by
 * the processor without help). Changes nothing. */
static inline AVX2 void warm_shown(steady k, size_t i) {
    const int32_t *s = k.slot + i;
    if ((uint32_t)s[3] - (uint32_t)s[0] != 3)
        for (int j = 0; j < 4; j++) _mm_prefetch((const char *)(k.presentation + s[j]), _MM_HINT_T0);
}

/* Entries i .. i + 3's raw progress (stored in raw) and clamped progress x. */
static inline AVX2 __m256d progress(const double *begin, const double *duration, size_t i, __m256d now, double *raw) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1);
    __m256d r = _mm256_div_pd(_mm256_sub_pd(now, _mm256_loadu_pd(begin + i)), _mm256_loadu_pd(duration + i));
    _mm256_storeu_pd(raw + i, r);
    /* Swift.min(Swift.max(r, 0), 1): NaN stays NaN. */
    __m256d x = _mm256_blendv_pd(r, zero, _mm256_cmp_pd(r, zero, _CMP_LE_OQ));
    return _mm256_blendv_pd(x, one, _mm256_cmp_pd(x, one, _CMP_GT_OQ));
}

/* Finite values (v - v is 0). */
static inline AVX2 int all_finite(__m256d v) {
    return _mm256_movemask_pd(_mm256_cmp_pd(_mm256_sub_pd(v, v), _mm256_setzero_pd(), _CMP_EQ_OQ)) == 0xF;
}

AVX2 size_t animrt_bezier_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                      double *raw, double *value, uint8_t *exact) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1), nowv = _mm256_set1_pd(now);
    const __m256d scale = _mm256_set1_pd((double)lane->intervals);
    const __m256d three = _mm256_set1_pd(3), two = _mm256_set1_pd(2);
    const __m256d minDerivative = _mm256_set1_pd(1e-6), stepEpsilon = _mm256_set1_pd(1e-7);
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    const double *begin = lane->begin + first, *duration = lane->duration + first;
    const double *from = lane->from + first, *to = lane->to + first;
    const int32_t *curve = lane->curve + first;
    const double *const *tables = lane->tables, *coefficients = lane->coefficients;
    const steady shown = steady_from(lane, first);
    const ptrdiff_t stride = lane->stride;
    /* Per entry of a run: x, its piece k and place u in the piece, the guess
     * then t; per block, the bits of the trusted lanes, then of the lanes
     * that need no exact solve. */
    double xs[PASS], us[PASS], ts[PASS];
    int32_t ks[PASS];
    uint8_t oks[PASS / 4];
    size_t left = 0;
    for (size_t run = 0; run < n; run += PASS) {
        size_t end = n - run < PASS ? n : run + PASS;
        /* The progress: raw, clamped (x), and the guess table's piece and place in it. */
        for (size_t i = run; i < end; i += 4) {
            __m256d x = progress(begin, duration, i, nowv, raw);
            warm_shown(shown, i);
            __m256d inside = _mm256_and_pd(_mm256_cmp_pd(x, zero, _CMP_GT_OQ), _mm256_cmp_pd(x, one, _CMP_LT_OQ));
            /* Lanes outside (0, 1) go to piece 0 (+0.0). */
            __m256d s = _mm256_and_pd(_mm256_mul_pd(x, scale), inside);
            __m128i k = _mm256_cvttpd_epi32(s);
            _mm256_storeu_pd(xs + (i - run), x);
            _mm256_storeu_pd(us + (i - run), _mm256_sub_pd(s, _mm256_cvtepi32_pd(k)));
            _mm_storeu_si128((__m128i *)(ks + (i - run)), k);
        }
        /* The guess: the piece's cubic. */
        for (size_t i = run; i < end; i += 4) {
            const int32_t *c = curve + i, *kk = ks + (i - run);
            const double *p0 = tables[c[0]] + kk[0] * stride, *p1 = tables[c[1]] + kk[1] * stride;
            const double *p2 = tables[c[2]] + kk[2] * stride, *p3 = tables[c[3]] + kk[3] * stride;
            __m256d piece[4];
            transpose(_mm256_loadu_pd(p0), _mm256_loadu_pd(p1), _mm256_loadu_pd(p2), _mm256_loadu_pd(p3), piece);
            __m256d trusted = _mm256_cmp_pd(_mm256_set_pd(p3[4], p2[4], p1[4], p0[4]), zero, _CMP_NEQ_UQ);
            __m256d u = _mm256_loadu_pd(us + (i - run));
            __m256d guess = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(
                                _mm256_mul_pd(piece[0], u), piece[1]), u), piece[2]), u), piece[3]);
            _mm256_storeu_pd(ts + (i - run), guess);
            oks[(i - run) / 4] = (uint8_t)_mm256_movemask_pd(trusted);
        }
        /* t: UnitBezier.solveT's first Newton iteration. */
        for (size_t i = run; i < end; i += 4) {
            const int32_t *c = curve + i;
            __m256d guess = _mm256_loadu_pd(ts + (i - run)), x = _mm256_loadu_pd(xs + (i - run));
            /* The trusted lanes' mask again, from their bits. */
            __m256i bits = _mm256_and_si256(_mm256_set1_epi64x(oks[(i - run) / 4]), _mm256_set_epi64x(8, 4, 2, 1));
            __m256d trusted = _mm256_castsi256_pd(_mm256_cmpgt_epi64(bits, _mm256_setzero_si256()));
            __m256d ax, bx, cx;
            coefficients3(coefficients, c, 0, &ax, &bx, &cx);
            __m256d d = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(three, ax), guess),
                                                                  _mm256_mul_pd(two, bx)), guess), cx);
            __m256d fx = _mm256_sub_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(
                             _mm256_mul_pd(ax, guess), bx), guess), cx), guess), x);
            __m256d step = _mm256_div_pd(fx, d);
            __m256d converged = _mm256_and_pd(_mm256_cmp_pd(_mm256_and_pd(d, magnitude), minDerivative, _CMP_GE_OQ),
                                              _mm256_cmp_pd(_mm256_and_pd(step, magnitude), stepEpsilon, _CMP_LT_OQ));
            _mm256_storeu_pd(ts + (i - run), _mm256_blendv_pd(_mm256_sub_pd(guess, step), guess, trusted));
            __m256d inside = _mm256_and_pd(_mm256_cmp_pd(x, zero, _CMP_GT_OQ), _mm256_cmp_pd(x, one, _CMP_LT_OQ));
            __m256d ok = _mm256_and_pd(inside, _mm256_or_pd(trusted, converged));
            oks[(i - run) / 4] = (uint8_t)_mm256_movemask_pd(ok);
        }
        /* y(t), the value, and the stores of steady blocks. */
        for (size_t i = run; i < end; i += 4) {
            __m256d ay, by, cy, t = _mm256_loadu_pd(ts + (i - run));
            coefficients3(coefficients, curve + i, 3, &ay, &by, &cy);
            __m256d y = _mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(ay, t), by), t), cy), t);
            __m256d f = _mm256_loadu_pd(from + i);
            __m256d v = _mm256_add_pd(f, _mm256_mul_pd(_mm256_sub_pd(_mm256_loadu_pd(to + i), f), y));
            /* An entry that needs no exact solve is inside (0, 1), mid-flight. */
            uint8_t e = (uint8_t)((~oks[(i - run) / 4] & 0xF) | (all_finite(v) ? ANIMRT_BLOCK_FINITE : 0));
            left += !show(shown, i, v, e, value, exact);
        }
    }
    return left;
}

/* Entries i .. i + 3 of a lane whose eased progress is y: their values
 * from + (to - from) * y, shown if the block is steady (see show). Only
 * entries whose progress p (raw or clamped: the same test) is inside (0, 1)
 * may be shown here; the caller closes the others. */
static inline AVX2 int show_eased(steady k, const double *from, const double *to, size_t i, __m256d p, __m256d y,
                                  double *value, uint8_t *exact) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1);
    __m256d inside = _mm256_and_pd(_mm256_cmp_pd(p, zero, _CMP_GT_OQ), _mm256_cmp_pd(p, one, _CMP_LT_OQ));
    __m256d f = _mm256_loadu_pd(from + i);
    __m256d v = _mm256_add_pd(f, _mm256_mul_pd(_mm256_sub_pd(_mm256_loadu_pd(to + i), f), y));
    uint8_t e = (uint8_t)((~_mm256_movemask_pd(inside) & 0xF) | (all_finite(v) ? ANIMRT_BLOCK_FINITE : 0));
    return show(k, i, v, e, value, exact);
}

AVX2 size_t animrt_linear_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                      double *raw, double *value, uint8_t *exact) {
    const __m256d nowv = _mm256_set1_pd(now);
    const double *begin = lane->begin + first, *duration = lane->duration + first;
    const double *from = lane->from + first, *to = lane->to + first;
    const steady shown = steady_from(lane, first);
    size_t left = 0;
    for (size_t i = 0; i < n; i += 4) {
        if (i + LEAD < n) warm_shown(shown, i + LEAD);
        __m256d x = progress(begin, duration, i, nowv, raw);
        left += !show_eased(shown, from, to, i, x, x, value, exact);
    }
    return left;
}

AVX2 void animrt_progress_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                      double *raw, double *x, double *y) {
    const __m256d zero = _mm256_setzero_pd(), nowv = _mm256_set1_pd(now);
    const double *begin = lane->begin + first, *duration = lane->duration + first;
    const uint8_t *flags = lane->flags + first;
    const uint32_t complex = 0x01010101u * lane->complex_flag;
    for (size_t i = 0; i < n; i += 4) {
        uint32_t fl;
        memcpy(&fl, flags + i, 4);
        if (fl & complex) {
            /* Its duration column holds no duration: 0, as the Swift lane gives. */
            _mm256_storeu_pd(raw + i, zero);
            _mm256_storeu_pd(x + i, zero);
        } else {
            _mm256_storeu_pd(x + i, progress(begin, duration, i, nowv, raw));
        }
        _mm256_storeu_pd(y + i, zero);
    }
}

AVX2 size_t animrt_eased_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, const double *raw,
                                     const double *y, double *value, uint8_t *exact) {
    const __m256d zero = _mm256_setzero_pd();
    const double *from = lane->from + first, *to = lane->to + first;
    const steady shown = steady_from(lane, first);
    size_t left = 0;
    for (size_t i = 0; i < n; i += 4) {
        __m256d eased = _mm256_loadu_pd(y + i);
        /* A value that is not finite counts as 0 (eased - eased is 0 for finite values only). */
        eased = _mm256_and_pd(eased, _mm256_cmp_pd(_mm256_sub_pd(eased, eased), zero, _CMP_EQ_OQ));
        left += !show_eased(shown, from, to, i, _mm256_loadu_pd(raw + i), eased, value, exact);
    }
    return left;
}

#else

int animrt_bezier_blocks_avx2_available(void) { return 0; }

void animrt_progress_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                 double *raw, double *x, double *y) {
    (void)lane; (void)first; (void)n; (void)now; (void)raw; (void)x; (void)y;
}

size_t animrt_eased_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, const double *raw,
                                const double *y, double *value, uint8_t *exact) {
    (void)lane; (void)first; (void)n; (void)raw; (void)y; (void)value; (void)exact;
    return 0;
}

size_t animrt_bezier_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                 double *raw, double *value, uint8_t *exact) {
    (void)lane; (void)first; (void)n; (void)now; (void)raw; (void)value; (void)exact;
    return 0;
}

size_t animrt_linear_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                 double *raw, double *value, uint8_t *exact) {
    (void)lane; (void)first; (void)n; (void)now; (void)raw; (void)value; (void)exact;
    return 0;
}

#endif
