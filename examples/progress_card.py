"""The progress card that comes with animrt, driven from Python (the C demo runs all four machines).

The program is the host: it owns the clock, answers the card's requests (the
"network") and draws what the card says is on screen. The session: fetch,
35 %, 38 % (a change under 0.05: set, not animated), 72 % (animated), two
refreshes whose older answer comes late (stale: ignored), 100 % (the ring
fills first, then the celebration), completed, hidden.

    PYTHONPATH=bindings/python/src python3 examples/progress_card.py            # in the terminal
    PYTHONPATH=bindings/python/src python3 examples/progress_card.py --svg card.svg
"""
import argparse
import math
import sys
import time
from typing import Dict, List, Optional, Tuple, Union

import animrt

FPS = 30

#: (time, event, payload, note); "request" in a payload is answered with the latest request id, or with
#: the one before it when the value is "older".
SCRIPT: List[Tuple[float, str, Dict[str, Union[float, str]], str]] = [
    (0.2, "fetch", {}, "loading: the card asks the host for its progress"),
    (0.8, "fetched", {"request": "latest", "progress": 0.35, "hint": "2 of 6 tasks"}, "ready at 35 %"),
    (1.6, "progress", {"progress": 0.38}, "38 %: a change under 0.05 is set, not animated"),
    (2.4, "progress", {"progress": 0.72}, "72 %: animated from what is on screen"),
    (3.4, "fetch", {}, "pulled to refresh"),
    (3.5, "fetch", {}, "and again: only the latest request counts"),
    (4.0, "fetched", {"request": "older", "progress": 0.9}, "the older request answers late: stale, ignored"),
    (4.4, "fetched", {"request": "latest", "progress": 1.0}, "100 %: the ring fills first, then the celebration"),
]
END = 13.6
FRAMES = [0.0, 0.3, 1.0, 1.8, 2.6, 2.9, 3.6, 4.1, 4.6, 5.2, 8.3, 13.4]


def line(card: animrt.Machine) -> str:
    """The card as one line of text: what a host would draw."""
    if card.part("card").presentation("opacity") < 0.5:
        return f"(hidden)  {card.state}"
    ring = card.part("ring")
    fill = ring.presentation("strokeEnd")
    bar = ("#" * round(fill * 20)).ljust(20, "-") if ring.presentation("opacity") > 0.5 else " " * 20
    spinner = "~" if card.part("spinner").presentation("opacity") > 0.5 else " "
    party = "  \\o/" if card.part("celebration").presentation("opacity") > 0.5 else ""
    return (f"{spinner} {bar} {fill * 100:3.0f}% | {card.context['title']:<32} | {card.context['actionTitle']:<12} | "
            f"{card.state}{party}")


def arc(cx: float, cy: float, r: float, a0: float, a1: float, color: str, width: float) -> str:
    points = " ".join(f"{'M' if i == 0 else 'L'}{cx + r * math.cos(a0 + (a1 - a0) * i / 24):.2f} "
                      f"{cy + r * math.sin(a0 + (a1 - a0) * i / 24):.2f}" for i in range(25))
    return f"<path d='{points}' fill='none' stroke='{color}' stroke-width='{width}' stroke-linecap='round'/>\n"


def panel(card: animrt.Machine, t: float, index: int) -> str:
    """One frame of the filmstrip."""
    x = 10 + index * 115.0
    out = [f"<g><rect x='{x:.1f}' y='10' width='110' height='150' rx='8' fill='#f4f5f7' stroke='#d0d4da'/>\n"]
    opacity = card.part("card").presentation("opacity")
    if opacity > 0.01:
        out.append(f"<g opacity='{opacity:.3f}'><rect x='{x + 5:.1f}' y='25' width='100' height='90' rx='8' fill='white' "
                   f"stroke='#e0e0e0'/>\n")
        cx, cy = x + 30, 60.0
        ring = card.part("ring")
        if card.part("track").presentation("opacity") > 0.01:
            out.append(arc(cx, cy, 16, 0, 2 * math.pi, "#e8e8ee", 5))
        if ring.presentation("opacity") > 0.01 and ring.presentation("strokeEnd") > 0:
            out.append(arc(cx, cy, 16, -math.pi / 2, -math.pi / 2 + 2 * math.pi * ring.presentation("strokeEnd"), "#1a9f6f", 5))
        if card.part("spinner").presentation("opacity") > 0.01:
            out.append(arc(cx, cy, 10, t * 6, t * 6 + 4, "#888", 2.5))
        out.append(f"<text x='{cx:.1f}' y='{cy + 3:.1f}' font-family='sans-serif' font-size='9' text-anchor='middle'>"
                   f"{ring.presentation('strokeEnd') * 100:.0f}%</text>\n")
        y = 40.0
        for text, color in ((card.context["title"], "#222"), (card.context["subtitle"], "#888"),
                            (card.context["actionTitle"], "#2f80ed")):
            words, row = str(text).split(), ""
            for w in words + [None]:
                if w is None or (row and len(row) + 1 + len(w) > 13):
                    if row:
                        out.append(f"<text x='{x + 52:.1f}' y='{y:.1f}' font-family='sans-serif' font-size='8' "
                                   f"fill='{color}'>{row}</text>\n")
                        y += 9
                    row = w or ""
                else:
                    row = f"{row} {w}" if row else w
        out.append("</g>\n")
    out.append(f"<text x='{x + 55:.1f}' y='140' font-family='sans-serif' font-size='8' text-anchor='middle' "
               f"fill='#555'>{card.state}</text>\n")
    out.append(f"<text x='{x + 55:.1f}' y='153' font-family='sans-serif' font-size='9' text-anchor='middle'>"
               f"t={t:.2f}s</text></g>\n")
    return "".join(out)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", metavar="FILE", help="write the session as an SVG filmstrip instead")
    args = parser.parse_args(argv)
    tty = args.svg is None and sys.stdout.isatty()
    clear = "\r\033[K" if tty else ""
    panels: List[str] = []
    with animrt.Runtime() as rt:
        rt.tick(0)
        card = rt.machine(rt.definition(named="progressCard"))
        requests: List[int] = []
        cues = list(SCRIPT)
        for i in range(int(END * FPS) + 1):
            t = i / FPS
            rt.tick(t)
            for event in rt.events():
                if isinstance(event, animrt.RequestIssued):
                    requests.append(event.id)  # the host would start a download here
                if args.svg is None and isinstance(event, (animrt.StateChanged, animrt.StaleResult)):
                    what = (f"state {event.from_state} -> {event.to_state}" if isinstance(event, animrt.StateChanged)
                            else f"stale result #{event.id}: not processed")
                    print(f"{clear}  {event.time:5.2f}s  {what}")
            while cues and cues[0][0] <= t + 1e-9:
                _, name, payload, note = cues.pop(0)
                payload = dict(payload)
                if payload.get("request") == "latest":
                    payload["request"] = requests[-1]
                elif payload.get("request") == "older":
                    payload["request"] = requests[-2]
                if args.svg is None:
                    print(f"{clear}  {t:5.2f}s  send {name} {payload or ''}  -- {note}")
                card.send(name, **payload)
            if args.svg is not None:
                if len(panels) < len(FRAMES) and abs(FRAMES[len(panels)] - t) < 0.5 / FPS:
                    panels.append(panel(card, t, len(panels)))
            elif tty:
                print(f"{clear}{line(card)}", end="", flush=True)
                time.sleep(1 / FPS)
            elif i % 9 == 0:
                print(f"  {t:5.2f}s  {line(card)}")
    if args.svg is not None:
        width = 15 + len(panels) * 115
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='170' viewBox='0 0 {width} 170'>\n")
            f.write("".join(panels) + "</svg>\n")
        print(f"wrote {len(panels)} frames to {args.svg}")
    else:
        print(f"\nfinished after {END:.2f} s: the card fetched, filled, celebrated and hid itself")
    return 0


if __name__ == "__main__":
    sys.exit(main())
