#!/usr/bin/env python3
"""Python-side costs of animrt (run by `make bench`); every figure is printed
with its target, and every comparison is made in this process, interleaved.

1. Reading 10^4 presentation values: one call per value vs one bulk read.
2. Building a scene of 10^6 eased animations in bulk (create_layers,
   add_animations, a reader): target < 1 s.
3. A frame of those 10^6 animations, all mid-flight: animrt's tick plus a
   bulk read into a numpy array, against the same frame computed with numpy
   as a careful user writes it (in chunks that stay in cache, in place,
   Newton stopped once converged; `ChunkedNumpyFrame`). Targets: >= 4x on
   one thread, >= 6x with the runtime's threads on two cores.
4. One call of a Python callable registered as a timing function: a tick of
   10^4 animations on it, against the same tick on a built-in curve.
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bindings", "python", "src"))
import animrt  # noqa: E402

CURVES = [("linear", (0, 0, 1, 1)), ("easeIn", (0.42, 0, 1, 1)), ("easeOut", (0, 0, 0.58, 1)),
          ("easeInEaseOut", (0.42, 0, 0.58, 1)), ("default", (0.25, 0.1, 0.25, 1))]
#: The mid-flight scene: every animation runs from START for WINDOW seconds at least.
START, WINDOW, DT = 10.0, 1.9, 1.0 / 60


def mid_flight(np, n, seed=1):
    """Begin times, durations (2 to 5 s), ends and curves of n animations active from START to START + WINDOW."""
    rng = np.random.default_rng(seed)
    duration = 2.0 + 3.0 * rng.random(n)
    begin = START - rng.random(n) * (duration - WINDOW - 2e-3) - 1e-3
    return begin, duration, rng.random(n), rng.random(n), rng.integers(0, len(CURVES), n)


def build(rt, np, begin, duration, start, end, curve):
    """The scene through the bulk calls: one add_animations per curve, no Python loop over animations."""
    layers = rt.create_layers(len(begin))
    ids = np.frombuffer(layers, dtype=np.uint64)
    for c, (name, _) in enumerate(CURVES):
        picked = curve == c
        ease = rt.basic("opacity", timing_function=name, fill_mode="both", removed_on_completion=False)
        rt.add_animations(ease, ids[picked], begin_time=begin[picked], duration=duration[picked],
                          from_=start[picked], to=end[picked])
    return layers, rt.reader(layers, "opacity")


class ChunkedNumpyFrame:
    """The anchor: the frame as numpy code, with every care numpy allows.

    Per-animation Bezier coefficients are gathered once. A frame walks the
    animations in chunks of 32768 (the temporaries stay in cache), computes
    in place into preallocated buffers, clamps progress, runs Newton on
    x(t) = x from t = x until every |x(t) - x| < 1e-7 in the chunk (at most
    8 steps, as bench/reference_eval.c), then y(t) and the interpolation.
    """

    CHUNK = 32768

    def __init__(self, np, begin, duration, start, end, curve):
        self.np = np
        table = []
        for _, (x1, y1, x2, y2) in CURVES:
            cx, cy = 3 * x1, 3 * y1
            bx, by = 3 * (x2 - x1) - cx, 3 * (y2 - y1) - cy
            table.append((1 - cx - bx, bx, cx, 1 - cy - by, by, cy))
        table = np.array(table)
        self.ax, self.bx, self.cx, self.ay, self.by, self.cy = (np.ascontiguousarray(table[curve, k]) for k in range(6))
        self.ax3, self.bx2 = 3 * self.ax, 2 * self.bx
        self.begin, self.duration, self.start, self.span = begin, duration, start, end - start
        self.work = [np.empty(self.CHUNK) for _ in range(4)]

    def __call__(self, now, out):
        np = self.np
        n = len(self.begin)
        for lo in range(0, n, self.CHUNK):
            hi = min(lo + self.CHUNK, n)
            x, t, e, d = (w[:hi - lo] for w in self.work)
            ax, bx, cx = self.ax[lo:hi], self.bx[lo:hi], self.cx[lo:hi]
            np.subtract(now, self.begin[lo:hi], out=x)
            x /= self.duration[lo:hi]
            np.clip(x, 0.0, 1.0, out=x)
            t[:] = x
            for _ in range(8):
                np.multiply(ax, t, out=e)  # e = ((ax t + bx) t + cx) t - x
                e += bx
                e *= t
                e += cx
                e *= t
                e -= x
                if np.abs(e).max() < 1e-7:
                    break
                np.multiply(self.ax3[lo:hi], t, out=d)  # d = (3 ax t + 2 bx) t + cx, kept away from 0
                d += self.bx2[lo:hi]
                d *= t
                d += cx
                np.maximum(d, 1e-6, out=d)
                e /= d
                t -= e
            np.multiply(self.ay[lo:hi], t, out=e)  # y = ((ay t + by) t + cy) t
            e += self.by[lo:hi]
            e *= t
            e += self.cy[lo:hi]
            e *= t
            o = out[lo:hi]
            np.multiply(self.span[lo:hi], e, out=o)
            o += self.start[lo:hi]


def reads(np):
    n = 10_000
    with animrt.Runtime() as rt:
        layers, reader = build(rt, np, *mid_flight(np, n))
        rt.tick(START)
        wrappers = [animrt.Layer._stand_in(rt, lid) for lid in layers]  # layers made in bulk have no objects yet
        per_call = best(lambda: [w.presentation("opacity") for w in wrappers], 5)
        out = np.empty(n)
        bulk = best(lambda: reader.read(out), 200)
        print(f"python: {n} presentation reads: one call each {per_call * 1e3:.2f} ms "
              f"({per_call * 1e9 / n:.0f} ns per value); one bulk read {bulk * 1e6:.1f} us "
              f"(target <= 50 us), {per_call / bulk:.0f}x faster")


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def frames(np, threads, scene, build_times):
    n = len(scene[0])
    # The best block of each side: five blocks, so that a stretch in which
    # another program holds the second processor rarely decides the figure;
    # 22 frames each, so that every frame stays inside the window in which
    # all the animations are mid-flight (past it, some finish and cost less).
    per_block, blocks = 22, 5
    assert (blocks * per_block - 1) * DT < WINDOW
    with animrt.Runtime(threads=threads) as rt:
        t0 = time.perf_counter()
        _, reader = build(rt, np, *scene)
        build_times.append(time.perf_counter() - t0)
        anchor = ChunkedNumpyFrame(np, *scene)
        out, expected = np.empty(n), np.empty(n)
        rt.tick(START - DT)  # every animation starts here: its events are not part of a frame
        rt.events()
        mine, theirs = float("inf"), float("inf")
        frame = 0
        for _ in range(blocks):  # interleaved: a block of animrt frames, then the same frames in numpy
            t0 = time.perf_counter()
            for k in range(per_block):
                rt.tick(START + (frame + k) * DT)
                reader.read(out)
            mine = min(mine, (time.perf_counter() - t0) / per_block)
            t0 = time.perf_counter()
            for k in range(per_block):
                anchor(START + (frame + k) * DT, expected)
            theirs = min(theirs, (time.perf_counter() - t0) / per_block)
            frame += per_block
        agree = float(np.max(np.abs(out - expected)))
        label = "1 thread" if threads == 1 else f"the runtime's threads ({os.cpu_count()} processors)"
        target = 4 if threads == 1 else 6
        print(f"python: N={n} mid-flight frame (tick + bulk read into numpy), {label}: {mine * 1e3:.2f} ms; "
              f"numpy, chunked and in place: {theirs * 1e3:.2f} ms; animrt is {theirs / mine:.1f}x faster "
              f"(target >= {target}x); largest difference {agree:.1e} (numpy stops Newton at 1e-7)")


def python_curve():
    """The price of a Python timing function: per animation per tick, over a built-in curve."""
    n, ticks = 10_000, 20

    def tick_cost(curve):
        with animrt.Runtime() as rt:
            rt.register_timing_function("py", lambda x: x * x * (3 - 2 * x))
            description = rt.basic("opacity", from_=0, to=1, duration=1000, timing_function=curve)
            for _ in range(n):
                rt.layer().add_animation(description)
            rt.tick(0)

            def run():
                for _ in range(ticks):
                    rt.tick(rt.time + 1 / 60)

            return best(run, 3) / (ticks * n)

    costs = {"py": [], "easeInEaseOut": []}
    for _ in range(3):  # interleaved
        for curve in costs:
            costs[curve].append(tick_cost(curve))
    python, builtin = min(costs["py"]), min(costs["easeInEaseOut"])
    print(f"python: a Python callable as a timing function: {python * 1e9:.0f} ns per animation per tick "
          f"(built-in easeInEaseOut {builtin * 1e9:.1f} ns): one call costs {(python - builtin) * 1e9:.0f} ns")


def main():
    python_curve()
    try:
        import numpy as np
    except ImportError:
        print("python: these benchmarks need numpy (python3 -m pip install numpy); not run")
        return
    reads(np)
    scene = mid_flight(np, 1_000_000)
    build_times = []
    frames(np, 1, scene, build_times)
    frames(np, 0, scene, build_times)
    print(f"python: a scene of 10^6 eased animations built in bulk (create_layers, add_animations, reader) "
          f"in {min(build_times):.2f} s (target < 1 s)")


if __name__ == "__main__":
    main()
