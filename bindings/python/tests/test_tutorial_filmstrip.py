"""The tutorial's filmstrips (docs/tutorial/filmstrip.py and filmstrip.h) are written where the reader
says, FILMSTRIP_DIR, else in the temporary directory: never into the directory a program runs from,
which for a reader following docs/tutorial.md is the checkout."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
ASSETS = ROOT / "docs" / "tutorial"

PYTHON = """
from filmstrip import Filmstrip
film = Filmstrip("strip.svg", frames=1)
film.toast(0.0, 60.0, 1.0)
film.save()
"""

C = """
#include "filmstrip.h"
int main(void) {
    filmstrip film = filmstrip_open("strip.svg", 1);
    filmstrip_toast(&film, 0.0, 60.0, 1.0);
    filmstrip_close(&film);
    return 0;
}
"""


def python_program(tmp_path):
    return [sys.executable, "-c", PYTHON]


def c_program(tmp_path):
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None:
        pytest.skip("no C compiler")
    source, binary = tmp_path / "strip.c", tmp_path / "strip"
    source.write_text(C)
    subprocess.run([cc, "-std=c99", f"-I{ROOT / 'include'}", f"-I{ASSETS}", str(source), "-o", str(binary), "-lm"],
                   check=True)
    return [str(binary)]


@pytest.mark.parametrize("program", [python_program, c_program], ids=["python", "c"])
@pytest.mark.parametrize("chosen", [True, False], ids=["FILMSTRIP_DIR", "temporary directory"])
def test_the_filmstrip_goes_where_the_reader_says_or_to_the_temporary_directory(tmp_path, program, chosen):
    here, temporary, wanted = tmp_path / "here", tmp_path / "tmp", tmp_path / "wanted"
    for d in (here, temporary, wanted):
        d.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("FILMSTRIP_DIR", "TEMP", "TMP")}
    env.update(TMPDIR=str(temporary), PYTHONPATH=str(ASSETS))
    if chosen:
        env["FILMSTRIP_DIR"] = str(wanted)
    run = subprocess.run(program(tmp_path), cwd=here, env=env, capture_output=True, text=True, check=True)
    where = (wanted if chosen else temporary) / "strip.svg"
    assert list(here.iterdir()) == []  # nothing where it ran
    assert where.read_text().startswith("<svg ") and where.read_text().endswith("</svg>\n")
    assert run.stdout == "" and run.stderr == f"filmstrip: wrote {where}\n"
