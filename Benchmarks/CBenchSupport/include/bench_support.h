/* Heap accounting for the benchmark (glibc's mallinfo2 is not visible from
 * Swift's Glibc module). Not part of libanimrt. */
#ifndef ANIMRT_BENCH_SUPPORT_H
#define ANIMRT_BENCH_SUPPORT_H
#include <stddef.h>
/* Bytes currently allocated from the heap (in use, including mmapped blocks). */
size_t bench_heap_bytes(void);
#endif
