/* A tiny assertion kit for the C ABI tests: counts checks and prints
 * "N passed, N failed" at the end. */
#ifndef ANIMRT_CHECK_H
#define ANIMRT_CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "animrt.h"

static int check_passed, check_failed;
static const char *check_test = "";

#define CHECK(cond) do { \
    if (cond) check_passed++; \
    else { check_failed++; fprintf(stderr, "FAIL %s:%d [%s] %s\n", __FILE__, __LINE__, check_test, #cond); } \
} while (0)

/* Expects `call` to return `status`; on failure prints the last error. */
#define CHECK_STATUS(call, status) do { \
    animrt_status got_ = (call); \
    if (got_ == (status)) check_passed++; \
    else { check_failed++; fprintf(stderr, "FAIL %s:%d [%s] %s -> %s (%s), expected %s\n", __FILE__, __LINE__, \
        check_test, #call, animrt_status_name(got_), animrt_last_error_message(), animrt_status_name(status)); } \
} while (0)

#define CHECK_OK(call) CHECK_STATUS(call, ANIMRT_OK)
#define CHECK_NEAR(a, b, tol) CHECK(fabs((double)(a) - (double)(b)) <= (tol))
#define CHECK_MESSAGE(fragment) CHECK(strstr(animrt_last_error_message(), (fragment)) != NULL)

#define TEST(name) static void name(void)
#define RUN(name) do { check_test = #name; name(); } while (0)

static int check_report(void) {
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed == 0 ? 0 : 1;
}
#endif
