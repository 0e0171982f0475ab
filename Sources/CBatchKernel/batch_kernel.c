/* The Bézier lane four entries at a time with AVX2 (see batch_kernel.h).
 *
 * Each step is the Swift reference's (BatchKernel+Blocks.swift) in the same
 * order: no multiply and add is fused (no FMA instruction is used, and
 * contraction is off), divisions are divisions, comparisons are ordered
 * (false for NaN) as Swift's are. */
#include "batch_kernel.h"

#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

int animrt_bezier_blocks_avx2_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

#define AVX2 __attribute__((target("avx2")))

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

AVX2 void animrt_bezier_blocks_avx2(size_t n, double now, const double *begin, const double *duration, const double *from,
                                    const double *to, const int32_t *curve, const double *coefficients,
                                    const double *const *tables, int intervals, int stride,
                                    double *raw, double *value, uint8_t *exact) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1), nowv = _mm256_set1_pd(now);
    const __m256d scale = _mm256_set1_pd((double)intervals);
    const __m256d three = _mm256_set1_pd(3), two = _mm256_set1_pd(2);
    const __m256d minDerivative = _mm256_set1_pd(1e-6), stepEpsilon = _mm256_set1_pd(1e-7);
    const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    for (size_t i = 0; i < n; i += 4) {
        __m256d r = _mm256_div_pd(_mm256_sub_pd(nowv, _mm256_loadu_pd(begin + i)), _mm256_loadu_pd(duration + i));
        /* Swift.min(Swift.max(r, 0), 1): NaN stays NaN. */
        __m256d x = _mm256_blendv_pd(r, zero, _mm256_cmp_pd(r, zero, _CMP_LE_OQ));
        x = _mm256_blendv_pd(x, one, _mm256_cmp_pd(x, one, _CMP_GT_OQ));
        __m256d inside = _mm256_and_pd(_mm256_cmp_pd(x, zero, _CMP_GT_OQ), _mm256_cmp_pd(x, one, _CMP_LT_OQ));
        /* Lanes outside (0, 1) go to piece 0 (+0.0). */
        __m256d s = _mm256_and_pd(_mm256_mul_pd(x, scale), inside);
        __m128i k = _mm256_cvttpd_epi32(s);
        __m256d u = _mm256_sub_pd(s, _mm256_cvtepi32_pd(k));
        int32_t c[4], kk[4];
        _mm_storeu_si128((__m128i *)c, _mm_loadu_si128((const __m128i *)(curve + i)));
        _mm_storeu_si128((__m128i *)kk, k);
        const double *p0 = tables[c[0]] + (ptrdiff_t)kk[0] * stride, *p1 = tables[c[1]] + (ptrdiff_t)kk[1] * stride;
        const double *p2 = tables[c[2]] + (ptrdiff_t)kk[2] * stride, *p3 = tables[c[3]] + (ptrdiff_t)kk[3] * stride;
        __m256d piece[4];
        transpose(_mm256_loadu_pd(p0), _mm256_loadu_pd(p1), _mm256_loadu_pd(p2), _mm256_loadu_pd(p3), piece);
        __m256d trusted = _mm256_cmp_pd(_mm256_set_pd(p3[4], p2[4], p1[4], p0[4]), zero, _CMP_NEQ_UQ);
        __m256d guess = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(
                            _mm256_mul_pd(piece[0], u), piece[1]), u), piece[2]), u), piece[3]);
        __m256d ax, bx, cx, ay, by, cy;
        if (c[0] == c[1] && c[0] == c[2] && c[0] == c[3]) {
            const double *q = coefficients + (ptrdiff_t)c[0] * 6;
            ax = _mm256_set1_pd(q[0]); bx = _mm256_set1_pd(q[1]); cx = _mm256_set1_pd(q[2]);
            ay = _mm256_set1_pd(q[3]); by = _mm256_set1_pd(q[4]); cy = _mm256_set1_pd(q[5]);
        } else {
            const double *q0 = coefficients + (ptrdiff_t)c[0] * 6, *q1 = coefficients + (ptrdiff_t)c[1] * 6;
            const double *q2 = coefficients + (ptrdiff_t)c[2] * 6, *q3 = coefficients + (ptrdiff_t)c[3] * 6;
            __m256d lo[4];
            transpose(_mm256_loadu_pd(q0), _mm256_loadu_pd(q1), _mm256_loadu_pd(q2), _mm256_loadu_pd(q3), lo);
            ax = lo[0]; bx = lo[1]; cx = lo[2]; ay = lo[3];
            by = _mm256_set_pd(q3[4], q2[4], q1[4], q0[4]);
            cy = _mm256_set_pd(q3[5], q2[5], q1[5], q0[5]);
        }
        /* UnitBezier.solveT's first Newton iteration. */
        __m256d d = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(three, ax), guess),
                                                              _mm256_mul_pd(two, bx)), guess), cx);
        __m256d fx = _mm256_sub_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(
                         _mm256_mul_pd(ax, guess), bx), guess), cx), guess), x);
        __m256d step = _mm256_div_pd(fx, d);
        __m256d converged = _mm256_and_pd(_mm256_cmp_pd(_mm256_and_pd(d, magnitude), minDerivative, _CMP_GE_OQ),
                                          _mm256_cmp_pd(_mm256_and_pd(step, magnitude), stepEpsilon, _CMP_LT_OQ));
        __m256d t = _mm256_blendv_pd(_mm256_sub_pd(guess, step), guess, trusted);
        __m256d y = _mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(ay, t), by), t), cy), t);
        __m256d f = _mm256_loadu_pd(from + i);
        __m256d v = _mm256_add_pd(f, _mm256_mul_pd(_mm256_sub_pd(_mm256_loadu_pd(to + i), f), y));
        _mm256_storeu_pd(raw + i, r);
        _mm256_storeu_pd(value + i, v);
        __m256d ok = _mm256_and_pd(inside, _mm256_or_pd(trusted, converged));
        /* Finite values (v - v is 0); an entry that needs no exact solve is
         * inside (0, 1), mid-flight. */
        __m256d finite = _mm256_cmp_pd(_mm256_sub_pd(v, v), zero, _CMP_EQ_OQ);
        exact[i / 4] = (uint8_t)((~_mm256_movemask_pd(ok) & 0xF) | (_mm256_movemask_pd(finite) == 0xF ? 0x10 : 0));
    }
}

#else

int animrt_bezier_blocks_avx2_available(void) { return 0; }

void animrt_bezier_blocks_avx2(size_t n, double now, const double *begin, const double *duration, const double *from,
                               const double *to, const int32_t *curve, const double *coefficients,
                               const double *const *tables, int intervals, int stride,
                               double *raw, double *value, uint8_t *exact) {
    (void)n; (void)now; (void)begin; (void)duration; (void)from; (void)to; (void)curve; (void)coefficients;
    (void)tables; (void)intervals; (void)stride; (void)raw; (void)value; (void)exact;
}

#endif
