/* ANIMRT_FLAG_SETTLING_DURATION, animrt_transaction_current, and messages
 * that teach (timing-function suggestions, handles printed in hex). */
#include <pthread.h>
#include <stdlib.h>
#include "check.h"

static double read1(animrt_runtime *rt, animrt_id layer, const char *path) {
    animrt_keypath kp;
    double v = NAN;
    size_t n;
    CHECK_OK(animrt_keypath_id(rt, path, &kp));
    CHECK_OK(animrt_layer_get_presentation(rt, layer, kp, &v, 1, &n));
    return v;
}

static animrt_id spring(animrt_runtime *rt, double damping, int settle) {
    animrt_id a;
    double from = -40, to = 60;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_SPRING, "position.y", &a));
    CHECK_OK(animrt_animation_set_spring(rt, a, 1, 180, damping, 0));
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_FROM, &from, 1));
    CHECK_OK(animrt_animation_set_value(rt, a, ANIMRT_TO, &to, 1));
    if (settle) CHECK_OK(animrt_animation_set_flag(rt, a, ANIMRT_FLAG_SETTLING_DURATION, 1));
    return a;
}

/* Core Animation's rule stays the default: a spring is cut off at its
 * duration (0.25 s). With the flag it runs for its settling duration. */
TEST(springs_run_until_settled_with_the_flag) {
    animrt_runtime *rt;
    animrt_id cut, settled, layer_a, layer_b, stopped[2];
    double settling;
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK_OK(animrt_layer_create(rt, 0, &layer_a));
    CHECK_OK(animrt_layer_create(rt, 0, &layer_b));
    cut = spring(rt, 12, 0);
    settled = spring(rt, 12, 1);
    CHECK_OK(animrt_animation_get_settling_duration(rt, settled, &settling));
    CHECK(settling > 1.0 && settling < 1.5);
    /* The flag wins over DURATION and over a transaction's duration. */
    CHECK_OK(animrt_animation_set_timing(rt, settled, ANIMRT_TIMING_DURATION, 0.1));
    CHECK_OK(animrt_transaction_begin(rt, 0.05));
    CHECK_OK(animrt_layer_add_animation(rt, layer_a, cut, "in", 0, &stopped[0]));
    CHECK_OK(animrt_layer_add_animation(rt, layer_b, settled, "in", 0, &stopped[1]));
    CHECK_OK(animrt_transaction_commit(rt, 1));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.04));
    CHECK(read1(rt, layer_a, "position.y") > -40);
    CHECK(read1(rt, layer_b, "position.y") == read1(rt, layer_a, "position.y"));
    CHECK_OK(animrt_runtime_tick(rt, 0.5));
    CHECK(read1(rt, layer_a, "position.y") == 0);       /* cut off at 0.05 s: the model shows */
    CHECK(read1(rt, layer_b, "position.y") > 55);       /* still moving, near 60 */
    CHECK_OK(animrt_runtime_tick(rt, settling - 0.01));
    CHECK_NEAR(read1(rt, layer_b, "position.y"), 60, 0.1);
    CHECK_OK(animrt_runtime_tick(rt, settling));
    animrt_event ev[8];
    size_t n;
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    /* started ×2, the cut spring's stop at 0.05 s, the transaction, the settled stop */
    int settled_stop_at = -1;
    for (size_t i = 0; i < n; i++)
        if (ev[i].type == ANIMRT_EVENT_ANIMATION_STOPPED && ev[i].object == stopped[1]) settled_stop_at = (int)i;
    CHECK(settled_stop_at >= 0);
    if (settled_stop_at >= 0) CHECK(ev[settled_stop_at].time == settling);

    /* Only springs take the flag; an undamped spring never settles. */
    animrt_id basic, undamped;
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &basic));
    CHECK_STATUS(animrt_animation_set_flag(rt, basic, ANIMRT_FLAG_SETTLING_DURATION, 1), ANIMRT_E_KIND);
    CHECK_MESSAGE("needs a spring animation");
    undamped = spring(rt, 0, 1);
    CHECK_STATUS(animrt_layer_add_animation(rt, layer_a, undamped, "ring", 0, NULL), ANIMRT_E_RANGE);
    CHECK_MESSAGE("never settles");
    size_t count;
    CHECK_OK(animrt_layer_animation_count(rt, layer_a, &count));
    CHECK(count == 0);
    CHECK_OK(animrt_animation_set_flag(rt, undamped, ANIMRT_FLAG_SETTLING_DURATION, 0));
    CHECK_OK(animrt_layer_add_animation(rt, layer_a, undamped, "ring", 0, NULL));
    animrt_runtime_destroy(rt);
}

/* A transaction is told apart by its handle, whatever the tokens. */
TEST(transactions_have_handles) {
    animrt_runtime *rt;
    animrt_id layer, fade, outer, inner, again;
    double one = 1;
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK_STATUS(animrt_transaction_current(rt, &outer), ANIMRT_E_STATE);
    CHECK_MESSAGE("no transaction is open");
    CHECK_STATUS(animrt_transaction_current(rt, NULL), ANIMRT_E_NULL);
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &fade));
    CHECK_OK(animrt_animation_set_value(rt, fade, ANIMRT_TO, &one, 1));
    CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_OK(animrt_transaction_current(rt, &outer));
    CHECK_OK(animrt_transaction_begin(rt, 0.5));
    CHECK_OK(animrt_transaction_current(rt, &inner));
    CHECK(inner != outer && inner != 0 && outer != 0);
    CHECK_OK(animrt_layer_add_animation(rt, layer, fade, NULL, 0, NULL));
    CHECK_OK(animrt_transaction_commit(rt, 7));
    CHECK_OK(animrt_transaction_current(rt, &again));
    CHECK(again == outer);
    CHECK_OK(animrt_transaction_commit(rt, 7)); /* the same token: the handles still differ */
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_runtime_tick(rt, 0.5));
    animrt_event ev[8];
    size_t n;
    animrt_id completed[2] = {0, 0};
    int k = 0;
    CHECK_OK(animrt_event_poll(rt, ev, 8, &n));
    for (size_t i = 0; i < n; i++)
        if (ev[i].type == ANIMRT_EVENT_TRANSACTION_COMPLETED && k < 2) completed[k++] = ev[i].object;
    CHECK(k == 2 && completed[0] == inner && completed[1] == outer);
    animrt_runtime_destroy(rt);
}

/* The events of ticks from..to every 0.5 s: how many TRANSACTION_COMPLETED
 * carried `transaction`, and how many carried anything else. */
static void count_completions(animrt_runtime *rt, double from, double to, animrt_id transaction, int *mine, int *other) {
    for (double t = from; t <= to; t += 0.5) {
        animrt_event ev[16];
        size_t n = 0;
        CHECK_OK(animrt_runtime_tick(rt, t));
        CHECK_OK(animrt_event_poll(rt, ev, 16, &n));
        for (size_t i = 0; i < n; i++)
            if (ev[i].type == ANIMRT_EVENT_TRANSACTION_COMPLETED) ++*(ev[i].object == transaction ? mine : other);
    }
}

/* An open transaction keeps its barrier when everything added in it so far
 * has stopped: an animation replaced under its key (the same property
 * animated twice in one transaction) or removed before the commit. The
 * barrier used to go at once, its slot then taken by the next barrier
 * made: the transaction's completion was lost or came with the host's
 * barrier, and two barriers could get the same handle. */
/* What another thread does while this one has a transaction open. */
typedef struct {
    animrt_runtime *rt;
    animrt_status commit, current;
    animrt_id theirs;
} other_thread;

static void *other_thread_run(void *p) {
    other_thread *o = p;
    o->commit = animrt_transaction_commit(o->rt, 9);
    o->current = animrt_transaction_current(o->rt, &o->theirs);
    if (animrt_transaction_begin(o->rt, 0) == ANIMRT_OK && animrt_transaction_current(o->rt, &o->theirs) == ANIMRT_OK)
        animrt_transaction_commit(o->rt, 7);
    return NULL;
}

/* As Core Animation's, a transaction belongs to the thread that began it:
 * another thread neither commits it nor sees it as its current one, and
 * its own transactions nest apart. */
TEST(transactions_belong_to_the_thread_that_began_them) {
    animrt_runtime *rt;
    animrt_id mine, now;
    pthread_t thread;
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_OK(animrt_transaction_current(rt, &mine));
    other_thread o = {rt, ANIMRT_OK, ANIMRT_OK, 0};
    CHECK(pthread_create(&thread, NULL, other_thread_run, &o) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(o.commit == ANIMRT_E_STATE);
    CHECK(o.current == ANIMRT_E_STATE);
    CHECK(o.theirs != 0 && o.theirs != mine);
    CHECK_OK(animrt_transaction_current(rt, &now));
    CHECK(now == mine);
    CHECK_OK(animrt_transaction_commit(rt, 8));
    CHECK_STATUS(animrt_transaction_commit(rt, 8), ANIMRT_E_STATE);
    CHECK_MESSAGE("commit without an open transaction on this thread");
    animrt_runtime_destroy(rt);
}

/* A thread that ends with a transaction open. */
static void *open_and_leave(void *rt) {
    animrt_transaction_begin(rt, 0);
    return NULL;
}

/* A thread that ends with two transactions open, one inside the other. */
static void *open_two_and_leave(void *rt) {
    animrt_transaction_begin(rt, 0);
    animrt_transaction_begin(rt, 0);
    return NULL;
}

/* What a later thread sees: its current transaction and its commit. */
typedef struct { animrt_runtime *rt; animrt_status current, commit; } later_thread;

static void *look_and_commit(void *p) {
    later_thread *l = p;
    animrt_id t;
    l->current = animrt_transaction_current(l->rt, &t);
    l->commit = animrt_transaction_commit(l->rt, 1);
    return NULL;
}

/* A transaction left open by a thread that ended stays that thread's: the
 * threads made after it (which the system often gives the ended thread's
 * pthread_t) never see it as theirs, nor commit it. */
TEST(a_transaction_left_open_by_an_ended_thread_is_no_later_threads) {
    animrt_runtime *rt;
    pthread_t thread;
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK(pthread_create(&thread, NULL, open_and_leave, rt) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    int seen = 0;
    for (int k = 0; k < 20; k++) {
        later_thread l = {rt, ANIMRT_OK, ANIMRT_OK};
        CHECK(pthread_create(&thread, NULL, look_and_commit, &l) == 0);
        CHECK(pthread_join(thread, NULL) == 0);
        seen += l.current != ANIMRT_E_STATE || l.commit != ANIMRT_E_STATE;
    }
    CHECK(seen == 0);
    animrt_id t;
    CHECK_STATUS(animrt_transaction_current(rt, &t), ANIMRT_E_STATE);
    CHECK_MESSAGE("no transaction is open on this thread (animrt_transaction_begin opens one); "
                  "1 is open on another thread and belongs to it: a thread sees only its own");
    CHECK_STATUS(animrt_transaction_commit(rt, 1), ANIMRT_E_STATE);
    CHECK_MESSAGE("commit without an open transaction on this thread; 1 is open on another thread and belongs to it");
    /* Counted by thread as well: two open on one other thread are on "another thread". */
    CHECK(pthread_create(&thread, NULL, open_and_leave, rt) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_STATUS(animrt_transaction_commit(rt, 1), ANIMRT_E_STATE);
    CHECK_MESSAGE("; 2 are open on 2 other threads and belong to them: a transaction is committed by");
    animrt_runtime_destroy(rt);
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK(pthread_create(&thread, NULL, open_two_and_leave, rt) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_STATUS(animrt_transaction_commit(rt, 1), ANIMRT_E_STATE);
    CHECK_MESSAGE("; 2 are open on another thread and belong to it: a transaction is committed by");
    animrt_runtime_destroy(rt);
}

TEST(an_open_transaction_keeps_its_barrier) {
    animrt_runtime *rt;
    animrt_id layer, fade, tr, host, more[3];
    double zero = 0, one = 1;
    size_t count = 99;
    int mine = 0, other = 0;
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &fade));
    CHECK_OK(animrt_animation_set_value(rt, fade, ANIMRT_FROM, &zero, 1));
    CHECK_OK(animrt_animation_set_value(rt, fade, ANIMRT_TO, &one, 1));
    CHECK_OK(animrt_animation_set_timing(rt, fade, ANIMRT_TIMING_DURATION, 1));
    CHECK_OK(animrt_runtime_tick(rt, 0));
    CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_OK(animrt_transaction_current(rt, &tr));
    CHECK_OK(animrt_layer_add_animation(rt, layer, fade, "k", 0, NULL));
    CHECK_OK(animrt_layer_add_animation(rt, layer, fade, "k", 0, NULL));  /* replaces the first */
    CHECK_OK(animrt_barrier_create(rt, &host));
    CHECK_OK(animrt_barrier_enter(rt, host));
    CHECK_OK(animrt_transaction_commit(rt, 7));
    CHECK_OK(animrt_barrier_count(rt, host, &count));
    CHECK(count == 1);
    count_completions(rt, 0.5, 1.0, tr, &mine, &other);
    CHECK(mine == 0 && other == 0);  /* the second animation runs from 0.5 to 1.5 */
    count_completions(rt, 1.5, 3.0, tr, &mine, &other);
    CHECK(mine == 1 && other == 0);
    CHECK_OK(animrt_barrier_leave(rt, host));  /* the host's barrier is its own */
    count_completions(rt, 3.5, 3.5, tr, &mine, &other);
    CHECK(mine == 1 && other == 0);
    /* Removed before the commit: it completes at the commit, and the
     * barriers made after it are three, with three handles. */
    CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_OK(animrt_transaction_current(rt, &tr));
    CHECK_OK(animrt_layer_add_animation(rt, layer, fade, "gone", 0, NULL));
    CHECK_OK(animrt_layer_remove_animation(rt, layer, "gone", NULL));
    CHECK_OK(animrt_transaction_commit(rt, 8));
    for (int i = 0; i < 3; i++) CHECK_OK(animrt_barrier_create(rt, &more[i]));
    CHECK(more[0] != more[1] && more[1] != more[2] && more[0] != more[2]);
    CHECK_OK(animrt_barrier_enter(rt, more[1]));
    CHECK_OK(animrt_barrier_count(rt, more[0], &count));
    CHECK(count == 0);
    CHECK_OK(animrt_barrier_destroy(rt, more[0]));
    CHECK_OK(animrt_barrier_count(rt, more[1], &count));
    CHECK(count == 1);
    mine = 0;
    count_completions(rt, 4.0, 4.0, tr, &mine, &other);
    CHECK(mine == 1 && other == 0);
    animrt_runtime_destroy(rt);
}

/* Suggestions use Core Animation's names; handles print as in Python reprs. */
TEST(messages_that_teach) {
    animrt_runtime *rt;
    animrt_id a, layer;
    double out;
    char hex[32];
    CHECK_OK(animrt_runtime_create(0, &rt));
    CHECK_OK(animrt_animation_create(rt, ANIMRT_ANIMATION_BASIC, "opacity", &a));
    CHECK_STATUS(animrt_animation_set_timing_function(rt, a, "easeInOut"), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'easeInEaseOut'?");
    CHECK_MESSAGE("Known: linear, easeIn, easeOut, easeInEaseOut, default");
    CHECK_STATUS(animrt_timing_function_evaluate(rt, "ease-in-ot", 0.5, &out), ANIMRT_E_NOT_FOUND);
    CHECK_MESSAGE("did you mean 'ease-in-out'?");
    CHECK_OK(animrt_layer_create(rt, 0, &layer));
    CHECK_OK(animrt_layer_destroy(rt, layer));
    CHECK_STATUS(animrt_layer_destroy(rt, layer), ANIMRT_E_HANDLE);
    snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)layer);
    CHECK_MESSAGE(hex);
    CHECK_MESSAGE("is stale");
    /* A negative transaction duration is refused in the header's words: 0 is
     * accepted (the enclosing transaction's), so the message does not ask for
     * more than 0; nothing is begun. */
    CHECK_STATUS(animrt_transaction_begin(rt, -1), ANIMRT_E_RANGE);
    CHECK_MESSAGE("animation_duration is -1; it must be 0 (the enclosing transaction's, else 0.25 s) or more");
    CHECK_STATUS(animrt_transaction_current(rt, &layer), ANIMRT_E_STATE);
    CHECK_STATUS(animrt_transaction_begin(rt, -INFINITY), ANIMRT_E_INVALID);
    CHECK_OK(animrt_transaction_begin(rt, 0));
    CHECK_OK(animrt_transaction_commit(rt, 0));
    animrt_runtime_destroy(rt);
}

int main(void) {
    RUN(springs_run_until_settled_with_the_flag);
    RUN(transactions_have_handles);
    RUN(transactions_belong_to_the_thread_that_began_them);
    RUN(a_transaction_left_open_by_an_ended_thread_is_no_later_threads);
    RUN(an_open_transaction_keeps_its_barrier);
    RUN(messages_that_teach);
    return check_report();
}
