#!/usr/bin/env python3
"""Plots animrt's timing functions, springs and a decay to SVG, from the
library itself (through the Python binding), so the picture is what the
runtime computes.

    plot_curves.py OUT.svg           write the picture
    plot_curves.py --check OUT.svg   fail unless OUT.svg is what would be written

Timing functions are evaluated with Runtime.evaluate_timing_function(); springs and the
decay are attached to a layer and sampled by ticking the runtime, as a host
would. Numbers are rounded to 0.1 px, so the output is the same on every run.
"""
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bindings", "python", "src"))

import animrt  # noqa: E402

CELL, PAD, TOP = 190, 16, 28      # cell size, inner padding, title band
COLUMNS = 4
SAMPLES = 80

TIMING_FUNCTIONS = [
    ("linear", "linear"),
    ("easeIn", "easeIn"),
    ("easeOut", "easeOut"),
    ("easeInEaseOut", "easeInEaseOut"),
    ("default (CSS ease)", "default"),
    ("cubic-bezier(0.3, -0.4, 0.6, 1.5)", "cubic-bezier(0.3, -0.4, 0.6, 1.5)"),
    ("steps(4, jump-end)", "steps(4, jump-end)"),
    ("steps(4, jump-both)", "steps(4, jump-both)"),
    ("step-start", "step-start"),
    ("linear(0, 0.25 75%, 1)", "linear(0, 0.25 75%, 1)"),
]

# (title, spring keyword arguments, seconds shown)
SPRINGS = [
    ("spring m 1, k 100, c 10 (ζ 0.5)", dict(mass=1, stiffness=100, damping=10), 1.5),
    ("spring c 20 (ζ 1, critical)", dict(mass=1, stiffness=100, damping=20), 1.5),
    ("spring c 40, true over-damping", dict(mass=1, stiffness=100, damping=40, allows_overdamping=True), 1.5),
    ("spring response 0.5, ratio 0.3", dict(response=0.5, damping_ratio=0.3), 1.5),
    ("perceptual 0.5 s, bounce −0.3", dict(perceptual_duration=0.5, bounce=-0.3), 1.5),
]


def timing_function_points(rt, name):
    return [(i / SAMPLES, rt.evaluate_timing_function(name, i / SAMPLES)) for i in range(SAMPLES + 1)]


def sampled(rt, animation, seconds):
    """(time / seconds, value) of a 0 → 1 animation on a fresh layer."""
    layer = rt.layer()
    layer["opacity"] = 0.0
    layer.add_animation(animation)
    start = rt.time + 1.0
    points = []
    for i in range(SAMPLES + 1):
        t = seconds * i / SAMPLES
        rt.tick(start + t)
        points.append((i / SAMPLES, layer.presentation("opacity")))
    layer.destroy()
    return points


def spring_points(rt, options, seconds):
    options = dict(options)
    over = options.pop("allows_overdamping", False)
    spring = rt.spring("opacity", from_=0.0, to=1.0, duration=seconds, fill_mode="forwards",
                       removed_on_completion=False, **options)
    if over:
        spring.allows_overdamping = True
    return sampled(rt, spring, seconds)


def decay_points(rt):
    # 4 units per second at UIScrollView's fast rate (0.99 per ms): it rests
    # 4 / (-1000 ln 0.99) ≈ 0.398 units away; plotted as a fraction of that.
    decay = rt.decay("opacity", 4.0, deceleration_rate=0.99, rest_velocity=0.01, from_=0.0,
                     fill_mode="forwards", removed_on_completion=False)
    seconds = decay.settling_duration
    travel = 4.0 / (-1000 * math.log(0.99))
    return [(x, y / travel) for x, y in sampled(rt, decay, seconds)], seconds


def cell(index, title, points, note=""):
    col, row = index % COLUMNS, index // COLUMNS
    x0, y0 = col * CELL, row * (CELL + TOP)
    inner = CELL - 2 * PAD
    ys = [y for _, y in points] + [0.0, 1.0]
    lo, hi = min(ys), max(ys)
    span = hi - lo

    def px(x, y):
        return (x0 + PAD + x * inner, y0 + TOP + PAD + (hi - y) / span * inner)

    out = [f'<g><text x="{x0 + CELL / 2:.1f}" y="{y0 + TOP - 6:.1f}" text-anchor="middle">{title}</text>']
    bx0, by0 = px(0, 1)
    bx1, by1 = px(1, 0)
    out.append(f'<rect class="unit" x="{bx0:.1f}" y="{by0:.1f}" width="{bx1 - bx0:.1f}" height="{by1 - by0:.1f}"/>')
    if note:
        out.append(f'<text class="note" x="{x0 + CELL - PAD:.1f}" y="{y0 + TOP + CELL - 4:.1f}" text-anchor="end">{note}</text>')
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (px(a, b) for a, b in points))
    out.append(f'<polyline points="{path}"/></g>')
    return "\n".join(out)


def render():
    cells = []
    with animrt.Runtime() as rt:
        for title, name in TIMING_FUNCTIONS:
            cells.append((title, timing_function_points(rt, name), "x → y"))
        for title, options, seconds in SPRINGS:
            cells.append((title, spring_points(rt, options, seconds), f"{seconds:g} s"))
        points, seconds = decay_points(rt)
        cells.append(("decay, 0.99 per ms (fraction of travel)", points, f"{seconds:.2f} s"))
    rows = (len(cells) + COLUMNS - 1) // COLUMNS
    width, height = COLUMNS * CELL, rows * (CELL + TOP)
    body = "\n".join(cell(i, *c) for i, c in enumerate(cells))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">\n'
            '<title>animrt timing functions, springs and a decay</title>\n'
            '<style>rect.unit{fill:#f4f6fa;stroke:#c8cdd6;stroke-width:0.5}'
            'polyline{fill:none;stroke:#2d6cdf;stroke-width:1.6;stroke-linejoin:round}'
            'text{fill:#222}text.note{fill:#888;font-size:9px}</style>\n'
            f'<rect width="{width}" height="{height}" fill="white"/>\n{body}\n</svg>\n')


def main(argv):
    check = argv[1:2] == ["--check"]
    args = argv[2:] if check else argv[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    svg = render()
    if check:
        current = open(args[0], encoding="utf-8").read() if os.path.exists(args[0]) else ""
        if current != svg:
            print(f"{args[0]} is not what tools/plot_curves.py draws now; run `make curves` and commit it")
            print("0 passed, 1 failed")
            return 1
        print(f"{args[0]} is what the library draws")
        print("1 passed, 0 failed")
        return 0
    with open(args[0], "w", encoding="utf-8") as f:
        f.write(svg)
    print(f"wrote {args[0]} ({len(svg)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
