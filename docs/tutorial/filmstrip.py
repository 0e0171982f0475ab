"""Draws the tutorial's runs as SVG filmstrips, one panel per frame.

filmstrip.h is the same in C, to the byte.
"""
import math
import os
import sys
import tempfile
from typing import List, Sequence


class Filmstrip:
    """Frames collected during a run, written to an SVG file by save().

    The file `name` goes to $FILMSTRIP_DIR, else to the temporary directory ($TMPDIR, else /tmp),
    so that running a program leaves nothing in the directory it is run from; save() says where
    it went, on stderr.
    """

    def __init__(self, name: str, frames: int) -> None:
        self.path = os.path.join(os.environ.get("FILMSTRIP_DIR") or tempfile.gettempdir(), name)
        width = 10 + frames * 110
        self.parts: List[str] = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='180' "
                                 f"viewBox='0 0 {width} 180'>\n"]
        self.index = 0

    def _panel(self, t: float) -> float:
        x = 10 + self.index * 110.0
        self.index += 1
        self.parts.append(f"<g><rect x='{x:.1f}' y='5' width='100' height='170' rx='8' fill='#f4f5f7' "
                          f"stroke='#d0d4da'/>\n")
        self.parts.append(f"<text x='{x + 50:.1f}' y='166' font-family='sans-serif' font-size='11' "
                          f"text-anchor='middle'>t={t:.2f}s</text>\n")
        return x

    def toast(self, t: float, y: float, alpha: float) -> None:
        """The toast: a dark pill at height y (model units: it rests at 60), faded by alpha."""
        x = self._panel(t)
        self.parts.append(f"<rect x='{x + 10:.1f}' y='{45 + y:.2f}' width='80' height='26' rx='13' fill='#2b2f36' "
                          f"opacity='{alpha:.3f}'/></g>\n")

    def spinner(self, t: float, alpha: Sequence[float]) -> None:
        """The spinner: twelve spokes clockwise from 12 o'clock, each with its opacity."""
        x = self._panel(t)
        cx, cy = x + 50, 75.0
        for i in range(12):
            a = i * 6.283185307179586 / 12
            dx, dy = math.sin(a), -math.cos(a)
            self.parts.append(f"<line x1='{cx + 16 * dx:.2f}' y1='{cy + 16 * dy:.2f}' x2='{cx + 34 * dx:.2f}' "
                              f"y2='{cy + 34 * dy:.2f}' stroke='#2b2f36' stroke-width='7' stroke-linecap='round' "
                              f"opacity='{alpha[i]:.3f}'/>\n")
        self.parts.append("</g>\n")

    def save(self) -> None:
        """Writes the SVG file."""
        with open(self.path, "w", encoding="utf-8") as f:
            f.write("".join(self.parts) + "</svg>\n")
        print(f"filmstrip: wrote {self.path}", file=sys.stderr)
