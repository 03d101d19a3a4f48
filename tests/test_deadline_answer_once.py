"""A pass asks the referee's default answer for a missed deadline once: the same reading of
one Due decides whether the pass answers for the side (and so sends no reminder beside it)
and what it does there (the rules' answer is looked up in the tables of game/defaults.py).

The game is the 1914 game of test_deadlines.py, `--missed default`, no reminders.
"""

from __future__ import annotations

from test_deadlines import DUE, new_game

from referee.mail import reminders
from referee.mail.reminders import check_deadlines


def test_a_missed_deadline_asks_its_default_answer_once_a_reading(tmp_path, cli, clock,
                                                                  monkeypatch):
    journal = new_game(tmp_path, cli, "--deadline", "48h", "--missed", "default",
                       "--reminders", "")
    asked: list[tuple[object, str]] = []
    answer = reminders.default_answer

    def counted(state, data, side):
        asked.append((state, side))
        return answer(state, data, side)

    monkeypatch.setattr(reminders, "default_answer", counted)
    log = check_deadlines(journal, tmp_path / "out", DUE)
    assert log == ["missed: the German player's orders were due by Wed 25 Nov 18:00 UTC; "
                   "the referee answered 'pass' for him (rule 2.0 II.1, record 4)"]
    twice = [side for n, (state, side) in enumerate(asked)
             if any(s is state and w == side for s, w in asked[:n])]
    assert asked and twice == [], asked
