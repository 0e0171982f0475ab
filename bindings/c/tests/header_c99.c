/* The header alone must compile cleanly as strict C99. */
#include "animrt.h"

int main(void) {
    animrt_event e = {0, 0, 0.0, 0, 0, 0, 0};
    return (int)(animrt_version() == 0) + e.type;
}
