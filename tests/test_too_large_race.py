"""A mail over the size limit read by a pass killed before its answer was written, while
another pass over the same folder ran beside it: that pass read the folder's index before
the killed one dropped the game's entry, and the Maildir's known files after the killed
one kept them, so it found the game idle and saved the index with the entry the killed
pass had dropped (the interleaving is played here by putting that index back). The
answer is written before the message is kept as known, as a claimed message's is: the
next passes still send it, once. Time comes from REFEREE_NOW."""

from __future__ import annotations

import pytest
from test_fresh_mail import ELSEWHERE, GERMAN, _games
from test_keyless_answer import _deliver
from test_tick_sharing import _tick_process
from test_too_large_killed import _big, _too_large_answers

from referee.store import home


def _index_files() -> dict:
    return {p: p.read_bytes() for p in home.data_dir("index").glob("*.index")}


@pytest.mark.parametrize("step", ["reply", "written"])
def test_an_index_saved_by_a_pass_beside_a_killed_one_loses_no_answer(cli, tmp_path,
                                                                     monkeypatch, step):
    _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN, "bravo": ELSEWHERE})
    idle = _index_files()
    assert idle
    _deliver(tmp_path, [_big("<big1@example.org>")])
    killed = _tick_process(tmp_path, step)
    assert killed.returncode == 70, killed.stderr
    for path, data in idle.items():     # the pass beside it saves the index it read
        path.write_bytes(data)
    for _ in range(2):
        again = _tick_process(tmp_path, None)
        assert again.returncode == 0, again.stderr
    (answer,) = _too_large_answers(tmp_path)
    assert answer.startswith(GERMAN) and "[referee alpha]" in answer


def test_a_mail_read_again_while_its_answer_is_owed_is_answered_at_once(cli, tmp_path,
                                                                       monkeypatch):
    """The killed pass left the answer owed and the message unknown to the Maildir; the pass
    beside it saved the index back. The next pass reads the message again: it writes the
    answer then, before the Maildir keeps the message as known, and not only in the game's
    own pass after it (here that pass is the one that never comes: killed first)."""
    from referee.mail import tick as ticking

    _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN, "bravo": ELSEWHERE})
    idle = _index_files()
    _deliver(tmp_path, [_big("<big2@example.org>")])
    killed = _tick_process(tmp_path, "reply")
    assert killed.returncode == 70, killed.stderr
    assert _too_large_answers(tmp_path) == []
    for path, data in idle.items():
        path.write_bytes(data)
    monkeypatch.setattr(ticking, "_after_mail", lambda *_: None)
    ticking.tick(tmp_path / "games", with_map=False)
    (answer,) = _too_large_answers(tmp_path)
    assert answer.startswith(GERMAN) and "[referee alpha]" in answer
