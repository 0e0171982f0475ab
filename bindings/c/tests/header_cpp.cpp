// The header must compile as C++17 and give C linkage.
#include "animrt.h"

int main() {
    animrt_runtime *rt = nullptr;
    animrt_status s = animrt_runtime_create(0, &rt);
    animrt_runtime_destroy(rt);
    return s == ANIMRT_OK ? 0 : 1;
}
