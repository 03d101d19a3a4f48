"""The record that ended a skirmish names the moderator's end mail and its mark in the
ledger. It was found by replaying the game once per record backwards from the last, on
every pass after the end, before the ledger was read: a game over with its disputes and
rulings after the end replayed again at each pass until the secret was published. One
replay finds it now, noting after each record whether the game stood over, and it is the
record the game replayed to each record names, disputes and rulings after it included."""

from __future__ import annotations

from test_skirmish_end_mails import FIRE, Duel

from referee.table import Table
from referee.table.skirmish.ending import ending_record
from referee.table.skirmish.life import replay


def _told_after_a_ruling(cli, tmp_path) -> Duel:
    """The German's fire ends the game (record 6), the British disputes it (7), the
    moderator upholds it (8), and he was told that the game is over."""
    duel = Duel(cli, tmp_path)
    duel.post("german", FIRE)
    duel.post("british", "dispute record=6 fact=cover value=hard")
    duel.tick()
    duel.post("moderator", "settle record=6 uphold=yes")
    duel.tick()
    return duel


def _replayed_backwards(records: list[dict]) -> dict:
    """The ending record as the game replayed to each record, from the last back, says."""
    seq = records[-1]["seq"]
    while seq > 1 and replay(records[:seq])[1].over():
        seq -= 1
    return records[seq]


def test_a_pass_after_the_end_was_told_replays_no_earlier_record(cli, tmp_path,
                                                                 monkeypatch):
    duel = _told_after_a_ruling(cli, tmp_path)
    asked: list[int] = []
    game = Table.game

    def counted(self, upto=None):
        if upto is not None:
            asked.append(upto)
        return game(self, upto)

    monkeypatch.setattr(Table, "game", counted)
    assert duel.tick() == {}
    assert duel.tick() == {}
    assert asked == []


def test_the_ending_record_is_the_one_each_replay_names(cli, tmp_path):
    duel = _told_after_a_ruling(cli, tmp_path)
    records = Table(duel.j).records
    assert [r.get("dispute", r.get("settle")) is not None for r in records[6:]] == \
        [False, True, True]
    for last in range(1, len(records)):
        part = records[:last + 1]
        if replay(part)[1].over():
            assert ending_record(part) == _replayed_backwards(part) == records[6]
    assert ending_record(records[:1]) == records[0]


def test_a_reveal_while_the_pass_takes_its_locks_tells_the_moderator_nothing(
        cli, tmp_path, monkeypatch):
    """The pass read the game over and not revealed; `reveal` (the journal's lock alone)
    publishes the secret before it holds the locks of the end mail: decided again under
    them, as a campaign's, it sends no mail asking for what is done."""
    from contextlib import contextmanager

    from referee.mail import ended

    duel = Duel(cli, tmp_path)
    taking = ended.game_lock

    @contextmanager
    def revealed_first(*key):
        assert cli("reveal", duel.j).exit_code == 0
        with taking(*key):
            yield

    monkeypatch.setattr(ended, "game_lock", revealed_first)
    duel.post("german", FIRE)
    duel.tick()
    assert [p.name for p in duel.out.glob("ended-*.eml")] == []
