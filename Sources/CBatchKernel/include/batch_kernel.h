/* The Bézier lane's arithmetic four entries at a time with AVX2, chosen at
 * run time (see BatchKernel+Native.swift). The Swift blocks of four
 * (BatchKernel+Blocks.swift) are its reference: the same operations in the
 * same order, never fused, so the results are the same to the bit. */
#ifndef ANIMRT_BATCH_KERNEL_H
#define ANIMRT_BATCH_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* Internal to the library: libanimrt.so exports only include/animrt.h. */
#if defined(__GNUC__) || defined(__clang__)
#define ANIMRT_BATCH_KERNEL_INTERNAL __attribute__((visibility("hidden")))
#else
#define ANIMRT_BATCH_KERNEL_INTERNAL
#endif

/* 1 when this processor runs animrt_bezier_blocks_avx2 (x86-64 with AVX2),
 * else 0 (and the function must not be called). */
ANIMRT_BATCH_KERNEL_INTERNAL int animrt_bezier_blocks_avx2_available(void);

/* For entries i in [0, n), n a multiple of 4, read as simple timing: the raw
 * progress (now - begin[i]) / duration[i] into raw[i], the value
 * from + (to - from) * y(t(x)) into value[i], where x is raw clamped to
 * [0, 1], t the guess table's cubic plus one Newton step unless the piece is
 * trusted; and for each block of four, exact[i / 4] has bit j set when entry
 * i + j must be solved exactly instead (x not inside (0, 1), a flat slope or
 * a step too large), and bit 4 set when all four values are finite (with
 * bits 0 to 3 clear, the four are then mid-flight: x is inside (0, 1)). curve[i] indexes coefficients (six per curve: ax, bx,
 * cx, ay, by, cy) and tables (each curve's guess table: `intervals` pieces
 * over [0, 1] of `stride` doubles, the cubic's four coefficients and the
 * trusted flag). Any bits in begin and duration are safe to read. */
ANIMRT_BATCH_KERNEL_INTERNAL
void animrt_bezier_blocks_avx2(size_t n, double now, const double *begin, const double *duration, const double *from,
                               const double *to, const int32_t *curve, const double *coefficients,
                               const double *const *tables, int intervals, int stride,
                               double *raw, double *value, uint8_t *exact);

#endif
