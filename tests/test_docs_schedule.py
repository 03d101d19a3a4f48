"""moderator.md's cron line and systemd units run the referee its install advice installs
(pipx, or the wheel with pip --user: a tool of its own, in ~/.local/bin), not a clone's
virtual environment, which it names only as the alternative; and it says what to change
in them when the games move to another folder."""

from __future__ import annotations

import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "moderator.md"
INSTALLED = ("$HOME/.local/bin/referee", "%h/.local/bin/referee")


def _scheduled(text: str) -> list[str]:
    """The command of every line that runs tick or watch unattended: the cron line, the
    units' ExecStart=, however the guide shows them (in a block or in a sentence)."""
    return re.findall(r"(\S+/referee) (?:tick|watch) ", text)


def test_the_scheduled_lines_run_the_installed_command():
    text = GUIDE.read_text(encoding="utf-8")
    install = text.split("## Installing the referee", 1)[1].split("\n## ", 1)[0]
    assert "pipx install" in install and "pip install --user" in install
    runs = _scheduled(text)
    assert len(runs) >= 3, runs                      # cron, the timer's service, watch's
    assert all(r.removeprefix("&& ").removeprefix("ExecStart=").removeprefix("`ExecStart=")
               in INSTALLED for r in runs), runs
    assert "$HOME/referee/.venv/bin/referee" in text      # the clone's, as the alternative


def test_the_guide_says_what_to_change_when_the_games_move():
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    said = text.split("When the games move to another folder", 1)
    assert len(said) == 2
    advice = said[1][:400]
    assert "cd" in advice and "WorkingDirectory=" in advice and "tick" in advice
