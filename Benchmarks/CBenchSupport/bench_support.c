#include "bench_support.h"
#include <malloc.h>

size_t bench_heap_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
