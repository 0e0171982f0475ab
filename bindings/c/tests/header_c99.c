/* The header alone must compile cleanly as strict C99. */
#include "animrt.h"

int main(void) {
    animrt_event e = {0, 0, 0.0, 0, 0, 0, 0, -1, -1, -1, 0, 0};
    animrt_value v = {ANIMRT_TYPE_NUMBER, 0, 1.0, 0, 0, 0};
    e.payload = &v;
    return (int)(animrt_version() == 0) + e.type;
}
