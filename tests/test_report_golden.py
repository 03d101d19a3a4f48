"""The report of a turn with a battle, in each format, against files reviewed by hand.

The game is `referee demo`: a fixed secret and a scripted German opening, so
every die is the same on every run. The golden files were read against the
rules: the Liège battle's fire steps in the order of 5.2.1 (artillery,
defensive, offensive fire), the Siege Gun firing at the fort at F3 (8.3.3),
each hit paid by the side that takes it (5.3.1), the fort's two lost steps
leaving a strength 1 fort that holds no area, so Liège becomes German-Friendly
(8.4), the VP rising by Liège's 1 VP to 13 (3.1), the German hand less the
Offensive he played, and the Entente's hand never named. Only the receipt's
hash (which covers the records' times) is replaced before comparing.
"""

import re
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
HASH = re.compile(r"\b(\d+):[0-9a-f]{32}\b")
CASES = [("german", "text", "txt"), ("german", "markdown", "md"), ("german", "bbcode", "bbcode"),
         ("public", "text", "txt"), ("entente", "markdown", "md")]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from typer.testing import CliRunner

    from referee.cli.app import app

    folder = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as mp:        # this module's own referee home
        mp.setenv("REFEREE_HOME", str(folder / "home"))
        assert CliRunner().invoke(app, ["demo", "--keep", str(folder)]).exit_code == 0
    return folder / "demo-1914.jsonl"


@pytest.mark.parametrize("reader,fmt,ext", CASES)
def test_the_report_of_the_liege_battle(demo, cli, reader, fmt, ext):
    r = cli("report", demo, "--as", reader, "--since", "0", "--format", fmt)
    assert r.exit_code == 0, r.stderr
    got = HASH.sub(r"\1:HASH", r.stdout)
    path = GOLDEN / f"report-liege-{reader}.{ext}"
    assert got == path.read_text(encoding="utf-8")
    if fmt == "text":
        assert all(len(line) <= 72 for line in got.splitlines()[:-1])
