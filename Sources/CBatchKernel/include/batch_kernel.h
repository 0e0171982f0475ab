/* The Bézier and linear lanes' arithmetic, and the block curves' around
 * their calls, four entries at a time with AVX2,
 * chosen at run time (see BatchKernel+Native.swift). The Swift blocks of four
 * (BatchKernel+Blocks.swift) are the reference: the same operations in the
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

/* A lane's columns (entry i at index i of each), its curves (Bézier lanes)
 * and the presentation values. */
typedef struct {
    const double *begin, *duration, *from, *to;
    /* The entry's curve (indexes coefficients and tables) and the offset of
     * its value in presentation. */
    const int32_t *curve, *slot;
    const uint8_t *flags, *state;
    /* Six per curve: ax, bx, cx, ay, by, cy. */
    const double *coefficients;
    /* Each curve's guess table: `intervals` + 1 pieces over [0, 1] of
     * `stride` doubles, the cubic's four coefficients and the trusted flag. */
    const double *const *tables;
    int intervals, stride;
    /* A steady entry: its state byte is `running`, its flags have
     * `active_flag` (in effect while running) and not `complex_flag`. */
    uint8_t running, active_flag, complex_flag;
    double *presentation;
} animrt_batch_lane;

/* Bits of a block's byte in `exact`: which entries need the exact solver,
 * whether all four values are finite, whether the block was stored. */
#define ANIMRT_BLOCK_FINITE 0x10
#define ANIMRT_BLOCK_STORED 0x20

/* Asks for the cache line holding *p ahead of a read. A hint: it changes
 * nothing, and an address that is never read costs only the line. */
static inline void animrt_prefetch(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* 1 when this processor runs the functions below (x86-64 with AVX2), else 0
 * (and they must not be called). */
ANIMRT_BATCH_KERNEL_INTERNAL int animrt_bezier_blocks_avx2_available(void);

/* For entries first + i, i in [0, n), n a multiple of 4, read as simple
 * timing: the raw progress (now - begin) / duration into raw[i], the value
 * from + (to - from) * y(t(x)) into value[i], where x is raw clamped to
 * [0, 1], t the guess table's cubic plus one Newton step unless the piece is
 * trusted; and for each block of four, exact[i / 4] has bit j set when entry
 * first + i + j must be solved exactly instead (x not inside (0, 1), a flat
 * slope or a step too large) and ANIMRT_BLOCK_FINITE set when all four values
 * are finite (with bits 0 to 3 clear, the four are then mid-flight: x is
 * inside (0, 1)). A block that is mid-flight, finite and steady in all four
 * entries (see animrt_batch_lane) needs nothing more than its values shown:
 * they are written to presentation[slot] and ANIMRT_BLOCK_STORED is set.
 * Returns how many blocks were not stored. Any bits in begin and duration
 * are safe to read. */
ANIMRT_BATCH_KERNEL_INTERNAL
size_t animrt_bezier_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                 double *raw, double *value, uint8_t *exact);

/* The same for a linear lane, whose y(t(x)) is x (no curve is read): every
 * value in `value` (of a block not stored) is final, and bits 0 to 3 of a
 * block's byte mark the entries whose x is not inside (0, 1), so that the
 * block is not shown here. */
ANIMRT_BATCH_KERNEL_INTERNAL
size_t animrt_linear_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                 double *raw, double *value, uint8_t *exact);

/* A lane of block curves (C functions over arrays of progress values),
 * around the calls the caller makes. First, for entries first + i, i in
 * [0, n), n a multiple of 4: the raw progress into raw[i], the clamped
 * progress into x[i] (what the curves are handed) and 0 into y[i]; a block
 * with complex timing gets 0 in raw and x (it is evaluated one entry at a
 * time by the caller). */
ANIMRT_BATCH_KERNEL_INTERNAL
void animrt_progress_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, double now,
                                 double *raw, double *x, double *y);

/* Then, with y[i] eased by the curves: the value from + (to - from) * y[i]
 * (a y that is not finite counts as 0) into value[i], and each block's byte
 * and stores of steady blocks as for the linear lane (bits 0 to 3: entries
 * whose raw progress is not inside (0, 1)). Returns how many blocks were not
 * stored. */
ANIMRT_BATCH_KERNEL_INTERNAL
size_t animrt_eased_blocks_avx2(const animrt_batch_lane *lane, size_t first, size_t n, const double *raw,
                                const double *y, double *value, uint8_t *exact);

#endif
