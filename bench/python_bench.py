#!/usr/bin/env python3
"""Python-side costs of animrt (run by `make bench`).

1. Reading 10^4 presentation values: one call per value vs one bulk read.
2. A frame of 10^6 eased basic animations: animrt's tick plus a bulk read
   into a numpy array, against the same work written with numpy (the same
   generator, curves and times as bench/reference_eval.c).
3. One call of a Python callable registered as a timing function: a tick of
   10^4 animations on it, against the same tick on a built-in curve.
"""
import ctypes
import os
import sys
import time
from array import array

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bindings", "python", "src"))
import animrt  # noqa: E402
from animrt import _ffi  # noqa: E402

lib = _ffi.lib
CURVES = [("linear", (0, 0, 1, 1)), ("easeIn", (0.42, 0, 1, 1)), ("easeOut", (0, 0, 0.58, 1)),
          ("easeInEaseOut", (0.42, 0, 0.58, 1)), ("default", (0.25, 0.1, 0.25, 1))]


class SharedRandom:
    """The generator of reference_eval.c and the Swift benchmark."""

    def __init__(self):
        self.state = 1

    def next(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return self.state >> 33


def scene(rt, n):
    """n layers, each with one basic opacity animation (fill both, kept)."""
    rng = SharedRandom()
    params = []
    for _ in range(n):
        params.append(((rng.next() % 1000) / 1000.0, 0.25 + (rng.next() % 1000) / 500.0,
                       float(rng.next() % 100), float(rng.next() % 100), rng.next() % 5))
    ptr = rt._ptr
    kp = rt.keypath_id("opacity")
    descriptions = []
    for name, _ in CURVES:
        a = rt.basic("opacity", fill_mode="both", removed_on_completion=False, timing_function=name)
        descriptions.append(a)
    layers = (ctypes.c_uint64 * n)()
    out = ctypes.c_uint64()
    value = (ctypes.c_double * 1)()
    set_timing, set_value, add = lib.animrt_animation_set_timing, lib.animrt_animation_set_value, lib.animrt_layer_add_animation
    create = lib.animrt_layer_create
    for i, (begin, duration, a, b, c) in enumerate(params):
        create(ptr, 0, ctypes.byref(out))
        layers[i] = out.value
        d = descriptions[c].id
        set_timing(ptr, d, 0, begin if begin else 1e-300)
        set_timing(ptr, d, 1, duration)
        value[0] = a
        set_value(ptr, d, 0, value, 1)
        value[0] = b
        set_value(ptr, d, 1, value, 1)
        add(ptr, out.value, d, None, 0, None)
    reader = rt.reader([(layers[i], "opacity") for i in range(n)])
    return params, layers, reader


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def reads(np):
    n = 10_000
    with animrt.Runtime() as rt:
        _, layers, reader = scene(rt, n)
        rt.tick(0.5)
        wrappers = [animrt.Layer._stand_in(rt, lid) for lid in layers]  # the layers were made through ctypes
        per_call = best(lambda: [w.presentation("opacity") for w in wrappers], 5)
        out = np.empty(n) if np else array("d", bytes(8 * n))
        bulk = best(lambda: reader.read(out), 200)
        print(f"python: {n} presentation reads: one call each {per_call * 1e3:.2f} ms "
              f"({per_call * 1e9 / n:.0f} ns per value); one bulk read {bulk * 1e6:.1f} us "
              f"(target <= 50 us), {per_call / bulk:.0f}x faster")


def numpy_frame(np, begin, duration, start, end, curve, coefficients, now, out):
    p = np.clip((now - begin) / duration, 0.0, 1.0)
    y = np.empty_like(p)
    for c, (ax, bx, cx, ay, by, cy) in enumerate(coefficients):
        mask = curve == c
        x = p[mask]
        t = x.copy()
        for _ in range(8):  # Newton on x(t) = x from t = x, as reference_eval.c does
            err = ((ax * t + bx) * t + cx) * t - x
            d = (3 * ax * t + 2 * bx) * t + cx
            t -= np.where(np.abs(d) > 1e-6, err / np.where(d == 0, 1, d), 0)
        y[mask] = ((ay * t + by) * t + cy) * t
    np.add(start, (end - start) * y, out=out)


def frames(np, threads):
    n, frames_count = 1_000_000, 30
    with animrt.Runtime(threads=threads) as rt:
        t0 = time.perf_counter()
        params, _, reader = scene(rt, n)
        setup = time.perf_counter() - t0
        out = np.empty(n)

        def run_animrt():
            for f in range(frames_count):
                rt.tick(rt.time + 1 / 60 if f else rt.time)
                reader.read(out)

        animrt_time = best(run_animrt, 3) / frames_count
        begin = np.array([p[0] for p in params]); duration = np.array([p[1] for p in params])
        start = np.array([p[2] for p in params]); end = np.array([p[3] for p in params])
        curve = np.array([p[4] for p in params])
        coefficients = []
        for _, (x1, y1, x2, y2) in CURVES:
            cx, cy = 3 * x1, 3 * y1
            bx, by = 3 * (x2 - x1) - cx, 3 * (y2 - y1) - cy
            coefficients.append((1 - cx - bx, bx, cx, 1 - cy - by, by, cy))
        expected = np.empty(n)

        def run_numpy():
            for f in range(frames_count):
                numpy_frame(np, begin, duration, start, end, curve, coefficients, f / 60, expected)

        numpy_time = best(run_numpy, 3) / frames_count
        now = rt.time
        numpy_frame(np, begin, duration, start, end, curve, coefficients, now, expected)
        agree = float(np.max(np.abs(out - expected)))
        label = "1 thread" if threads == 1 else f"threads={threads} ({os.cpu_count()} processors)"
        print(f"python: N={n} frame (tick + bulk read into numpy, {label}) {animrt_time * 1e3:.2f} ms; the same work in numpy "
              f"{numpy_time * 1e3:.2f} ms; animrt is {numpy_time / animrt_time:.1f}x faster (target >= 10x); "
              f"max difference {agree:.1e}; scene built through ctypes in {setup:.1f} s")


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
        np = None
    reads(np)
    if np is None:
        print("python: the numpy comparison needs numpy (python3 -m pip install numpy); not run")
        return
    frames(np, 1)
    frames(np, 0)


if __name__ == "__main__":
    main()
