"""The machines that come with animrt (SPEC R3.1–R3.4) from Python: each pitfall of the seeds by name,
repeated parts, and a snapshot of a scripted session of each machine continuing identically."""
import math

import pytest

import animrt


def requests_of(rt: animrt.Runtime, m: animrt.Machine) -> list:
    """The ids of the requests `m` issued since the last read (events come with ticks)."""
    rt.tick(rt.time)
    return [e.id for e in rt.events() if isinstance(e, animrt.RequestIssued) and e.machine is m]


def ready_card(rt: animrt.Runtime, progress: float, **config) -> animrt.Machine:
    m = rt.machine(rt.definition(named="progressCard"), config=config)
    m.send("fetch")
    (request,) = requests_of(rt, m)
    m.send("fetched", request=request, progress=progress)
    return m


@pytest.fixture
def rt():
    with animrt.Runtime() as runtime:
        runtime.tick(0)
        yield runtime


def test_the_four_machines_load_by_name(rt):
    for name in ("networkButton", "progressCard", "streakCard", "indicatorBar"):
        assert rt.definition(named=name).name == name
    with pytest.raises(animrt.NotFoundError, match="did you mean 'streakCard'"):
        rt.definition(named="streakcard")
    with pytest.raises(animrt.ExistsError, match="comes with animrt"):
        rt.register_definition("indicatorBar", {"name": "x", "initial": "a", "states": {"a": {}}})


# ---- seed 000: the progress card ------------------------------------------------------------------

def test_stale_result_ignored(rt):  # seed 000 §5.1
    m = rt.machine(rt.definition(named="progressCard"))
    m.send("fetch")
    m.send("fetch")
    first, second = requests_of(rt, m)
    assert m.send("fetched", request=first, progress=0.9) is animrt.SendOutcome.STALE
    assert m.state == "loading"
    rt.tick(0.01)
    (stale,) = [e for e in rt.events() if isinstance(e, animrt.StaleResult)]
    assert stale.id == first and stale.machine is m
    assert m.send("fetched", request=second, progress=0.4, hint="3 to go") is animrt.SendOutcome.TAKEN
    assert (m.state, m.context["progress"], m.context["subtitle"]) == ("ready", 0.4, "3 to go")


def test_jitter_small_changes_are_set_large_ones_animate(rt):  # seed 000 §5.2
    m = ready_card(rt, 0.35)
    ring = m.part("ring")
    rt.tick(0.1)
    m.send("progress", progress=0.38)
    assert ring.animation_keys() == []
    rt.tick(0.2)
    assert ring.presentation("strokeEnd") == 0.38
    m.send("progress", progress=0.72)
    assert ring.animation_keys() == ["fill"] and ring.value("strokeEnd") == 0.72
    rt.tick(0.3)
    rt.tick(0.55)
    assert ring.presentation("strokeEnd") == pytest.approx(0.55, abs=1e-6)


def test_throttle_shows_at_most_60_updates_a_second_and_always_the_last(rt):  # seed 000 §5.2
    m = ready_card(rt, 0.1, jitterThreshold=1)
    ring = m.part("ring")
    shown, changes, outcomes = ring.value("strokeEnd"), [], []
    for i in range(1, 1001):
        t = i / 1000
        rt.tick(t)
        last = 0.1 + 0.8 * i / 1000
        outcomes.append(m.send("progress", progress=last))
        if ring.value("strokeEnd") != shown:
            shown = ring.value("strokeEnd")
            changes.append(t)
    rt.tick(1.1)
    rt.tick(1.2)
    assert ring.value("strokeEnd") == last and ring.presentation("strokeEnd") == last
    assert 55 <= len(changes) <= 61
    assert all(b - a >= 1 / 60 - 1e-9 for a, b in zip(changes, changes[1:]))
    assert outcomes.count(animrt.SendOutcome.THROTTLED) > 900


def test_a_small_change_during_a_fill_is_shown_at_once(rt):  # seed 000 §2.2, §5.2
    # setProgress(animated: false): "remove any animation that may be running, update to the new value at once".
    m = ready_card(rt, 0.35)
    ring = m.part("ring")
    rt.tick(0.1)
    m.send("progress", progress=0.72)  # |Δ| = 0.37: animated, from 0.35 over 0.5 s
    rt.tick(0.2)
    rt.tick(0.3)
    assert 0.35 < ring.presentation("strokeEnd") < 0.5
    m.send("progress", progress=0.74)  # |Δ| = 0.02: set, not animated, and shown at the next frame
    assert ring.animation_keys() == [] and ring.value("strokeEnd") == 0.74
    rt.tick(0.31)
    assert ring.presentation("strokeEnd") == 0.74
    rt.tick(0.8)
    assert ring.presentation("strokeEnd") == 0.74 and m.context["progress"] == 0.74


def test_a_fetch_while_the_ring_fills_is_taken_as_in_any_state_but_error(rt):  # seed 000 §3.2 fetchProgress(), R3.2.2
    # fetchProgress(): "guard !shouldSkipFetch() else { currentState = .disabled(reason) }", then .loading unless in error.
    m = ready_card(rt, 0.5)
    rt.tick(0.1)
    requests_of(rt, m)
    m.send("progress", progress=1)
    assert m.state == "filling"
    assert m.send("fetch", eligible=False, reason="notLoggedIn") is animrt.SendOutcome.TAKEN
    assert (m.state, m.context["reason"]) == ("disabled", "notLoggedIn") and requests_of(rt, m) == []
    rt.tick(0.7)
    rt.tick(5)
    assert m.state == "disabled" and m.part("card").presentation("opacity") == 0  # no celebration after the fill
    again = ready_card(rt, 0.5)
    again.send("progress", progress=1)
    requests_of(rt, again)
    assert again.send("fetch") is animrt.SendOutcome.TAKEN
    (request,) = requests_of(rt, again)
    assert again.state == "loading" and again.part("ring").animation_keys() == []
    rt.tick(5.6)
    assert again.state == "loading"
    again.send("fetched", request=request, progress=0.4)
    assert (again.state, again.context["progress"], again.context["title"]) == ("ready", 0.4, "Keep going")


def test_fill_then_celebrate(rt):  # seed 000 §5.3
    m = ready_card(rt, 0.72)
    rt.tick(1)
    rt.events()
    m.send("fetch")
    (request,) = requests_of(rt, m)
    m.send("fetched", request=request, progress=1)
    assert m.state == "filling"
    rt.tick(1.1)
    rt.tick(1.59)
    assert m.state == "filling" and m.part("ring").presentation("strokeEnd") < 1
    rt.tick(1.61)
    assert m.state == "completed.celebrating" and m.part("ring").presentation("strokeEnd") == 1
    changes = [e for e in rt.events() if isinstance(e, animrt.StateChanged)]
    assert (changes[-1].to_state, changes[-1].values) == ("completed.celebrating", {"celebrating": True})
    assert m.context["title"] == "Congratulations!"
    rt.tick(4.62)
    assert m.state == "completed.settled" and m.context["celebrating"] is False


def test_no_timer_fires_after_leaving_its_state_or_after_destroy(rt):  # seed 000 §5.4
    m = ready_card(rt, 1)
    rt.tick(0.1)
    rt.tick(0.7)
    assert m.state == "completed.celebrating"
    m.send("hide")
    rt.tick(0.8)
    rt.events()
    rt.tick(100)
    assert m.state == "hidden"
    assert [e for e in rt.events() if getattr(e, "machine", None) is m] == []
    d = ready_card(rt, 1)
    rt.tick(100.1)
    rt.tick(100.7)
    d.destroy()
    rt.events()
    rt.tick(1000)
    assert [e for e in rt.events() if getattr(e, "machine", None) is d] == []


def test_refresh_policy_on_appear(rt):  # seed 000 §5.5
    m = ready_card(rt, 0.5)
    requests_of(rt, m)
    rt.tick(299)
    m.send("appear")
    assert requests_of(rt, m) == [] and m.state == "ready"
    rt.tick(300)
    m.send("appear")
    assert len(requests_of(rt, m)) == 1 and m.state == "loading"
    assert m.send("appear") is animrt.SendOutcome.IGNORED  # a fetch runs: its data will be fresh


def test_appear_refreshes_a_completed_card_and_a_tap_without_effect_is_taken(rt):  # seed 000 §5.5; seed 003
    m = ready_card(rt, 1.0)
    rt.tick(0.1)
    rt.tick(0.7)
    assert m.state == "completed.celebrating"
    requests_of(rt, m)
    assert m.send("appear") is animrt.SendOutcome.TAKEN
    assert len(requests_of(rt, m)) == 1 and m.state == "loading"
    button = rt.machine(rt.definition(named="networkButton"), config={"animateOnTap": False})
    assert button.send("tap") is animrt.SendOutcome.TAKEN and button.state == "ready"


def test_disabled_retry_copy_and_nan(rt):  # R3.2.2, R3.2.3, R3.2.7, R3.2.8
    card = rt.definition(named="progressCard")
    m = rt.machine(card, locale="zh")
    m.send("fetch", eligible=False, reason="notLoggedIn")
    assert (m.state, m.context["reason"]) == ("disabled", "notLoggedIn") and requests_of(rt, m) == []
    m.send("fetch")
    (request,) = requests_of(rt, m)
    m.send("fetchFailed", request=request, retryable=False)
    assert m.context["title"] == "出错了"
    assert m.send("retry") is animrt.SendOutcome.TAKEN  # not retryable: nothing happens (seed 000 §3.2)
    assert m.state == "error.shown" and requests_of(rt, m) == []
    m.send("fetch")
    assert m.state == "error.retrying" and m.context["isLoading"] is True
    (request,) = requests_of(rt, m)
    m.send("fetched", request=request, progress=0.5)
    assert (m.context["title"], m.context["actionTitle"], m.context["percentText"]) == ("坚持就是胜利", "去完成", "50%")
    with pytest.raises(animrt.InvalidArgumentError, match="field 'progress' of 'progress' is nan; it must be a finite number"):
        m.send("progress", progress=math.nan)
    custom = rt.machine(card, strings={"titleStart": "Let's begin"})
    custom.send("fetch")
    (request,) = requests_of(rt, custom)
    custom.send("fetched", request=request, progress=0)
    assert custom.context["title"] == "Let's begin"


def test_what_the_card_shows_in_each_state_follows_update_ui(rt):  # seed 000 §4.1 updateUI(for:), §6.1
    card = rt.definition(named="progressCard")
    m = rt.machine(card, locale="zh")
    shown = lambda: {p: m.part(p).value("opacity") for p in ("card", "track", "ring", "spinner", "errorIcon", "celebration")}
    view = lambda: (m.context["title"], m.context["subtitle"], m.context["actionTitle"])
    assert shown()["card"] == 0  # .hidden: isHidden = true
    rt.tick(0.1)
    rt.events()
    m.send("fetch")
    rt.tick(0.1)
    events = rt.events()
    (request,) = [e.id for e in events if isinstance(e, animrt.RequestIssued)]
    # .loading: "加载中…", no subtitle, the progress view hidden, the indicator animating, no button.
    assert view() == ("加载中…", "", "") and m.context["isLoading"] is True
    assert shown() == {"card": 1, "track": 0, "ring": 0, "spinner": 1, "errorIcon": 0, "celebration": 0}
    m.send("fetched", request=request, progress=0.75, hint="再完成3个任务即可达标")
    # testFetchProgressSuccess: [.loading, .ready(progress: 0.75, secondaryText: text)]
    rt.tick(0.1)
    changes = [(e.to_state, e.values) for e in events + rt.events() if isinstance(e, animrt.StateChanged)]
    assert changes == [("loading", {}), ("ready", {"progress": 0.75, "secondaryText": "再完成3个任务即可达标"})]
    # .ready: the progress set without animation (the state before was not ready), the bucket's title, "去完成".
    assert view() == ("即将完成，加油！", "再完成3个任务即可达标", "去完成")
    assert m.part("ring").animation_keys() == [] and m.part("ring").value("strokeEnd") == 0.75
    assert shown() == {"card": 1, "track": 1, "ring": 1, "spinner": 0, "errorIcon": 0, "celebration": 0}
    m.send("fetch")
    (request,) = requests_of(rt, m)
    m.send("fetchFailed", request=request, retryable=True, message="网络似乎开了小差")
    # .error: the progress view hidden, the error icon shown, message ?? "出错了", "重试" only when retryable.
    assert view() == ("网络似乎开了小差", "", "重试")
    assert shown() == {"card": 1, "track": 0, "ring": 0, "spinner": 0, "errorIcon": 1, "celebration": 0}
    m.send("retry")
    (request,) = requests_of(rt, m)
    m.send("fetchFailed", request=request, retryable=False)
    assert view() == ("出错了", "", "")
    m.send("fetch")
    (request,) = requests_of(rt, m)
    m.send("fetched", request=request, progress=1)
    rt.tick(0.2)
    rt.tick(0.71)
    # .completed(celebrating: true): "恭喜完成", the celebration plays, no button; then "任务已完成" and "查看成果".
    assert m.state == "completed.celebrating" and view() == ("恭喜完成", "", "")
    assert shown()["celebration"] == 1 and m.part("celebration").animation_keys() == ["pulse"]
    assert m.part("ring").presentation("strokeEnd") == 1
    rt.tick(3.72)
    assert m.state == "completed.settled" and view() == ("任务已完成", "", "查看成果")
    assert shown()["celebration"] == 0 and m.part("celebration").animation_keys() == []
    m.send("fetch", eligible=False, reason="eventNotStarted")
    assert (m.state, m.context["reason"], shown()["card"]) == ("disabled", "eventNotStarted", 0)  # .disabled: hidden


def test_the_title_buckets_of_progress_based_title(rt):  # seed 000 §4.1 progressBasedTitle
    titles = {0: "开始你的挑战吧", 1e-9: "好的开始是成功的一半", 0.29999: "好的开始是成功的一半", 0.3: "坚持就是胜利",
              0.69999: "坚持就是胜利", 0.7: "即将完成，加油！", 0.99999: "即将完成，加油！"}
    for progress, title in titles.items():
        m = rt.machine(rt.definition(named="progressCard"), locale="zh")
        m.send("fetch")
        (request,) = requests_of(rt, m)
        m.send("fetched", request=request, progress=progress)
        assert (m.state, m.context["title"]) == ("ready", title), progress


def test_progress_going_back_a_little_is_set_and_a_lot_animates_back(rt):  # seed 000 §5.2: 30% → 35% → 33% → 38%
    m = ready_card(rt, 0.30)
    ring = m.part("ring")
    for t, progress in ((0.1, 0.35), (0.2, 0.33), (0.3, 0.38)):
        rt.tick(t)
        m.send("progress", progress=progress)
        assert ring.animation_keys() == []
        rt.tick(t + 0.01)
        assert ring.presentation("strokeEnd") == progress
    rt.tick(0.32)
    m.send("progress", progress=0.1)  # back by 0.28: animated, from what is on screen, ease-in-ease-out over 0.5 s
    assert ring.animation_keys() == ["fill"]
    rt.tick(0.33)
    rt.tick(0.58)
    assert ring.presentation("strokeEnd") == pytest.approx(0.24, abs=1e-6)  # half way in time and, by symmetry, in value
    rt.tick(0.84)
    assert ring.presentation("strokeEnd") == 0.1 and ring.animation_keys() == []


# ---- seeds 001 and 002: the streak card and the indicator bar --------------------------------------

def test_zero_shows_zero(rt):  # seed 001
    m = rt.machine(rt.definition(named="streakCard"))
    fill = m.part("fill")
    rt.tick(0.1)
    assert fill.presentation("bounds")[2] == 0
    m.send("track", completedDays=3, remainingDays=4)
    rt.tick(0.2)
    assert fill.presentation("bounds")[2] == 295 * (3 / 7)
    m.send("track", completedDays=0, remainingDays=7)
    rt.tick(0.3)
    assert fill.presentation("bounds")[2] == 0
    m.send("infoTap")
    rt.tick(0.4)
    assert [e.name for e in rt.events() if isinstance(e, animrt.Emitted)] == ["info"]
    with pytest.raises(animrt.StateError):
        m.send("unlockTap")


def test_days_are_whole(rt):  # R3.3.1: a count of days is a whole number; a fraction of one is refused
    m = rt.machine(rt.definition(named="streakCard"))
    m.send("track", completedDays=1, remainingDays=6)
    rt.tick(0.1)
    rt.events()
    before = (m.state, dict(m.context))
    with pytest.raises(animrt.RangeError, match=r"^machine 'streakCard': field 'completedDays' of 'track' is 2\.5; it must be a whole number$"):
        m.send("track", completedDays=2.5, remainingDays=1)
    with pytest.raises(animrt.RangeError, match=r"^machine 'streakCard': field 'completedDays' of 'complete' is 6\.5; it must be a whole number$"):
        m.send("complete", completedDays=6.5)
    rt.tick(0.2)
    assert (m.state, dict(m.context)) == before and rt.events() == []  # the refusals changed nothing
    m.send("track", completedDays=3.0, remainingDays=4)  # a float that is whole is a whole number
    assert (m.state, m.context["completedDays"], m.context["title"]) == ("tracking", 3, "4 days to go")


def test_indicator_geometry_and_label(rt):  # seed 002
    m = rt.machine(rt.definition(named="indicatorBar"))
    m.send("progress", fraction=0.3)
    assert m.part("fill").value("bounds.size.width") == 90 and m.part("indicator").value("position.x") == 70
    assert m.context["label"] == "30%"
    m.send("unknown")
    assert m.context["label"] == "0%" and m.part("fill").value("bounds.size.width") == 0


def hex_color(r: int, g: int, b: int) -> tuple:
    return (r / 255, g / 255, b / 255, 1.0)


def test_the_two_styles_and_their_taps(rt):  # seed 001: ProgressCardStyle, ProgressCardView, GradientProgressView
    m = rt.machine(rt.definition(named="streakCard"), locale="zh")
    shown = lambda: {p: m.part(p).value("opacity") for p in ("infoIcon", "track", "fill", "recalculateButton", "unlockButton")}
    # tracking: white card, info icon, the days left, the bar (track #ECEBF6, corner radius 5).
    m.send("track", completedDays=3, remainingDays=4)
    assert (m.state, m.context["title"]) == ("tracking", "还剩 4 天")
    assert m.part("card").value("backgroundColor") == (1.0, 1.0, 1.0, 1.0)
    assert m.part("track").value("backgroundColor") == hex_color(0xEC, 0xEB, 0xF6)
    assert m.part("track").value("cornerRadius") == 5 and m.part("fill").value("cornerRadius") == 5
    assert shown() == {"infoIcon": 1, "track": 1, "fill": 1, "recalculateButton": 0, "unlockButton": 0}
    assert m.part("fill").value("bounds.size.width") == 295 * (3 / 7)  # track width × ratio
    m.send("track", completedDays=5, remainingDays=0)  # updateProgress clamps to 1: the whole track, no more
    assert m.part("fill").value("bounds.size.width") == 295
    # The card only passes the taps on: nothing in it changes.
    before = (m.state, dict(m.context))
    m.send("infoTap")
    rt.tick(0.1)
    assert [e.name for e in rt.events() if isinstance(e, animrt.Emitted)] == ["info"] and (m.state, dict(m.context)) == before
    # completed: highlighted card, the completed text, Recalculate and the main button; no bar, no info icon.
    m.send("complete", completedDays=7)
    assert (m.state, m.context["title"]) == ("completed", "已连续完成 7 天")
    assert m.part("card").value("backgroundColor") != (1.0, 1.0, 1.0, 1.0)
    assert shown() == {"infoIcon": 0, "track": 0, "fill": 0, "recalculateButton": 1, "unlockButton": 1}
    before = (m.state, dict(m.context))
    m.send("recalculateTap")
    m.send("unlockTap")
    rt.tick(0.2)
    assert [e.name for e in rt.events() if isinstance(e, animrt.Emitted)] == ["recalculate", "unlock"]
    assert (m.state, dict(m.context)) == before  # whether to reset or where to go is the host's decision
    m.send("track", completedDays=0, remainingDays=7)  # the host reset it: 0 days shows exactly 0
    assert (m.state, m.part("fill").value("bounds.size.width"), shown()["fill"]) == ("tracking", 0, 1)


def test_the_label_is_printf_percent_0f_and_the_indicator_rides_the_fill(rt):  # seed 002, final IndicatorProgressViewStyle
    m = rt.machine(rt.definition(named="indicatorBar"))
    assert (m.context["label"], m.part("fill").value("bounds.size.width")) == ("0%", 0)  # fractionCompleted ?? 0.0
    assert m.part("indicator").value("position") == (-20, -40)  # .offset(x: 0 × width − 40 / 2, y: -40)
    assert m.part("track").value("bounds")[3] == 20 and m.part("track").value("cornerRadius") == 10  # a capsule 20 high
    for i in range(1001):
        fraction = i / 1000
        m.send("progress", fraction=fraction)
        assert m.context["label"] == "%.0f%%" % (fraction * 100), fraction  # Text(String(format: "%.0f%%", progress * 100))
        assert m.part("fill").value("bounds.size.width") == fraction * 300
        assert m.part("indicator").value("position.x") == fraction * 300 - 40 / 2
    for fraction, label in ((0.005, "0%"), (0.015, "2%"), (0.125, "12%")):  # halves go to the even neighbour, as printf's
        m.send("progress", fraction=fraction)
        assert m.context["label"] == label
    m.send("progress", fraction=1.5)  # ProgressView clamps a value past its total
    assert (m.context["label"], m.part("fill").value("bounds.size.width")) == ("100%", 300)
    m.send("unknown")
    assert (m.state, m.context["label"], m.part("indicator").value("position.x")) == ("unknown", "0%", -20)


# ---- seed 003: the network button --------------------------------------------------------------------

def test_loading_starts_only_after_the_prepare_barrier_drains(rt):  # seed 003
    m = rt.machine(rt.definition(named="networkButton"))
    m.send("startAnimate")
    rt.tick(0.1)
    rt.tick(0.29)
    assert m.state == "loading.preparing" and m.part("arc", 0).animation_keys() == []
    rt.tick(0.31)
    assert m.state == "loading.spinning"
    assert [m.part("arc", i).animation_keys() for i in range(m.part_count("arc"))] == [["fade", "spin"]] * 2


def test_the_spinner_stops_from_its_presentation_value(rt):  # seed 003
    m = rt.machine(rt.definition(named="networkButton"), config={"linesCount": 4})
    m.send("startAnimate")
    t = 0.0
    while m.state != "loading.spinning":
        t += 0.01
        rt.tick(t)
    t += 0.68
    rt.tick(t)
    arcs = [m.part(f"arc[{i}]") for i in range(4)]
    before = [a.presentation("transform.rotation.z") for a in arcs]
    assert abs(before[0]) > 1
    m.send("stopAnimate")
    rt.tick(t)
    assert [a.presentation("transform.rotation.z") for a in arcs] == before
    angles = []
    for i in range(1, 18):
        rt.tick(t + i / 60)
        angles.append(abs(arcs[0].presentation("transform.rotation.z")))
    assert all(b <= a + 1e-12 and a - b < abs(before[0]) / 4 for a, b in zip([abs(before[0])] + angles, angles))
    rt.tick(t + 0.31)
    assert arcs[0].presentation("transform.rotation.z") == 0 and m.state == "finishing.dotting"


def test_the_three_part_finish_in_order_with_its_timings_and_values(rt):  # seed 003: finishAnimation, dotsScalingAnimation,
    m = rt.machine(rt.definition(named="networkButton"), config={"velocity": 1.5, "linesCount": 3})  # checkMarkAndBounds...
    seen, t = {}, 0.0

    def run_until(state, probe=None):
        nonlocal t
        while m.state != state:
            t = round(t + 0.001, 3)
            rt.tick(t)
            if probe:
                probe(t)
            seen.setdefault(m.state, t)
            assert t < 10, m.state

    m.send("startAnimate")
    # prepare: bounds rectangle → circle and background → white in one group, border width, bounds, position in another.
    run_until("loading.spinning")
    assert m.part("button").value("bounds") == (0, 0, 50, 50) and m.part("button").value("backgroundColor") == (1, 1, 1, 1)
    assert m.part("border").value("borderWidth") == 5 and m.part("border").value("position") == (25, 25)
    assert m.part("title").value("opacity") == 0
    # loading: linesCount arcs 2π / linesCount apart, dotLength long, each turning 2π every velocity seconds.
    assert [m.part("arc", i).value("strokeStart") for i in range(3)] == [0, 1 / 3, 2 / 3]
    assert m.part("arc", 1).value("strokeEnd") == pytest.approx(1 / 3 + 0.1 / (2 * math.pi))
    spin = seen["loading.spinning"]
    rt.tick(spin + 0.375)
    assert m.part("arc", 2).presentation("transform.rotation.z") == pytest.approx(math.pi / 2, abs=1e-9)
    t = round(spin + 0.5, 3)
    rt.tick(t)
    rt.events()
    m.send("stopAnimate")
    stop = t
    bounce = {}
    run_until("finished.succeeded", lambda now: bounce.setdefault(round(now - seen.get("finishing.bouncing", 99), 3),
                                                                   m.part("border").presentation("bounds")[2]))
    # Each part starts when the animations of the one before have stopped: 0.3 s rewind, 0.2 s dots, 0.5 s flash, 0.3 s bounce.
    steps = [stop, seen["finishing.dotting"], seen["finishing.marking.check"], seen["finishing.bouncing"], seen["finished.succeeded"]]
    assert [round(b - a, 3) for a, b in zip(steps, steps[1:])] == pytest.approx([0.3, 0.2, 0.5, 0.3], abs=0.0025)
    # The border bounces from the circle to 1.2 × the width at keyTime 0.75 and back to the width.
    assert bounce[0.001] == pytest.approx(50, abs=3) and bounce[0.226] == pytest.approx(1.2 * 180, abs=1)
    assert m.part("border").presentation("bounds")[2] == 180 and m.part("border").value("borderColor") == (0, 1, 0, 1)
    assert m.part("button").presentation("bounds") == (0, 0, 180, 50)
    assert m.part("button").presentation("backgroundColor") == (1, 1, 1, 1)
    assert (m.context["title"], m.part("title").presentation("opacity")) == ("Done", 1)
    assert [(e.name, e.payload) for e in rt.events() if isinstance(e, animrt.Emitted)] == [("completed", {"failed": False})]


def test_repeated_parts_are_layers_by_index(rt):
    m = rt.machine(rt.definition(named="networkButton"), config={"linesCount": 3})
    assert m.part_count("arc") == 3 and m.part_count("button") == 1
    assert m.part("arc", 2) is m.part("arc[2]")
    assert m.part("arc", 1).value("strokeStart") == pytest.approx(1 / 3)
    with pytest.raises(animrt.RangeError, match=r"has 3 copies \(0 to 2\)"):
        m.part("arc", 3)
    with pytest.raises(animrt.InvalidArgumentError, match="name one with its index"):
        m.part("arc")
    with pytest.raises(animrt.ArgumentTypeError, match="must be an int"):
        m.part("arc", 1.0)  # type: ignore[arg-type]


def test_config_a_repeated_part_or_a_throttle_cannot_take_and_computed_numbers_that_are_not_finite(rt):
    button = rt.definition(named="networkButton")
    with pytest.raises(animrt.RangeError) as e:
        rt.machine(button, config={"linesCount": 2.5})
    # The range config.linesCount declares, not only the library's limit (0 to 4096).
    assert e.value.message.endswith("part 'arc' would have 2.5 copies (config.linesCount); "
                                    "a count is a whole number from 1 to 64 (config.linesCount declares 1 to 64)")
    meter = rt.definition({"name": "meter", "config": {"every": {"type": "number", "default": 0.1}},
                           "context": {"done": {"type": "number", "initial": 0},
                                       "inverse": {"type": "number", "computed": "1 / (context.done - 2)"}},
                           "events": {"add": {"throttle": "config.every"}}, "initial": "a",
                           "states": {"a": {"on": {"add": {"actions": [{"assign": {"done": "context.done + 1"}}]}}}}})
    with pytest.raises(animrt.RangeError, match="the throttle of 'add' is -1 s"):
        rt.machine(meter, config={"every": -1})
    m = rt.machine(meter)
    assert m.context["inverse"] == -0.5
    assert m.send("add") is animrt.SendOutcome.TAKEN and m.send("add") is animrt.SendOutcome.THROTTLED
    rt.tick(0.1)
    with pytest.raises(animrt.InvalidArgumentError, match="context.inverse computes to inf"):
        m.context["inverse"]


# ---- a snapshot of a session of each machine ----------------------------------------------------------

SESSIONS = {
    "networkButton": ({"linesCount": 3}, [("startAnimate", {}), 0.1, 0.3, 0.35, 0.734],
                      [0.8, ("stopAnimate", {}), 0.9, 1.15, 1.3, 1.6, 1.9, 2.2, ("startAnimate", {}), 2.6, 2.9,
                       ("stopByError", {}), 3.5, 4.5]),
    "progressCard": ({}, [("fetch", {}), ("fetched", {"request": 1, "progress": 0.35}), 0.1, ("progress", {"progress": 0.38}),
                          ("progress", {"progress": 0.72})],
                     [0.11, 0.2, 0.5, ("fetch", {}), ("fetched", {"request": 2, "progress": 1}), 0.6, 1.2, 4.3, 9.4]),
    "streakCard": ({}, [1.0, ("track", {"completedDays": 3, "remainingDays": 4})],
                   [("infoTap", {}), 2.0, ("complete", {"completedDays": 7}), ("unlockTap", {}), 3.0]),
    "indicatorBar": ({}, [1.0, ("progress", {"fraction": 0.42})], [("unknown", {}), 2.0, ("progress", {"fraction": 0.5}), 3.0]),
}


def describe(rt: animrt.Runtime, m: animrt.Machine) -> list:
    """What the machine shows and reports now, as plain values."""
    layers = []
    for name in m.definition.parts:
        for i in range(m.part_count(name)):
            try:
                layer = m.part(name)
            except animrt.InvalidArgumentError:
                layer = m.part(name, i)
            layers.append([layer.presentation(k) for k in ("opacity", "bounds", "position", "strokeEnd", "backgroundColor")]
                          + [layer.presentation("transform.rotation.z")])
    events = [(type(e).__name__, e.time, getattr(e, "to_state", None), getattr(e, "values", None)) for e in rt.events()]
    return [m.state, dict(m.context), layers, events]


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_snapshot_of_each_session_continues_identically(name):
    config, before, after = SESSIONS[name]
    a = animrt.Runtime()
    a.tick(0)
    ma = a.machine(a.definition(named=name), config=config)
    for step in before:
        if isinstance(step, float):
            a.tick(step)
        else:
            ma.send(step[0], **step[1])
    a.tick(a.time)
    a.events()
    saved = ma.snapshot()
    b = animrt.Runtime()
    b.tick(a.time)
    mb = b.restore(saved, b.definition(named=name))
    assert describe(a, ma) == describe(b, mb)
    for step in after:
        for rt, m in ((a, ma), (b, mb)):
            if isinstance(step, float):
                rt.tick(step)
            else:
                m.send(step[0], **step[1])
        assert describe(a, ma) == describe(b, mb), step
    a.close()
    b.close()
