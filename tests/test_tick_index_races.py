"""What could make tick's folder index hide work: a moderator's command landing during a
pass, the secret beside a journal away for a pass or replaced, a record rewritten with its
modification time put back, an entry of another layout. Each scenario runs with the index
kept and with it deleted before the pass that decides; both must do the same."""
from __future__ import annotations

import email
import os
from datetime import timedelta
from pathlib import Path

import pytest
from test_tick_index import START, _copied, _mail_pass, _outbox, emptied_place
from test_transport import ADDRESSES, records
from test_unattended import at

from referee.base.clock import NOW_VARIABLE
from referee.mail import gameindex
from referee.mail import tick as ticking


@pytest.fixture
def root(tmp_path_factory) -> Path:
    """The place test_tick_index's folders of two games are put back at (made once a test
    process, whichever module first asks)."""
    return emptied_place(tmp_path_factory)


def _drop_index(games):
    gameindex._path(games.resolve()).unlink(missing_ok=True)


def _to(root, box, names):
    return sorted(email.message_from_bytes((root / box / n).read_bytes())["To"]
                  for n in names)


@pytest.mark.parametrize("indexed", [True, False])
def test_route_changed_during_a_pass(cli, root, monkeypatch, indexed):
    """The moderator moves alpha to a new outbox while the pass is busy with bravo."""
    games, made = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    journal, keys = made["alpha"]
    new_out = root / "out-new"
    real = ticking._after_mail

    def racing(x, games_dir, with_map):
        real(x, games_dir, with_map)
        if x.game_id == "alpha":            # just after the pass is done with alpha
            r = cli("mail", journal, "--out", f"outbox:{new_out}")
            assert r.exit_code == 0, r.output

    monkeypatch.setattr(ticking, "_after_mail", racing)
    _mail_pass(root, "alpha", "entente", keys, "<r0@example.org>")
    ticking.tick(games, with_map=False)            # the pass the change races
    monkeypatch.setattr(ticking, "_after_mail", real)
    if not indexed:
        _drop_index(games)
    before = set(_outbox(root, "alpha"))
    _mail_pass(root, "alpha", "german", keys, "<r1@example.org>")
    ticking.tick(games, with_map=False)
    old = set(_outbox(root, "alpha")) - before
    new = sorted(p.name for p in new_out.glob("*.eml"))
    assert records(journal)[-1]["order"] == "pass"
    assert not old, "mails went to the outbox of the former route"
    assert new


@pytest.mark.parametrize("indexed", [True, False])
def test_moderator_order_during_a_pass(cli, root, monkeypatch, indexed):
    games, made = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    journal, _ = made["alpha"]
    real = ticking._after_mail

    def racing(x, games_dir, with_map):
        real(x, games_dir, with_map)
        if x.game_id == "alpha":            # just after the pass is done with alpha
            r = cli("order", journal, "--as", "german", "pass")
            assert r.exit_code == 0, r.output

    monkeypatch.setattr(ticking, "_after_mail", racing)
    _drop_index(games)          # a full pass of alpha (as after any mail or due)
    ticking.tick(games, with_map=False)
    before = set(_outbox(root, "alpha"))
    monkeypatch.setattr(ticking, "_after_mail", real)
    if not indexed:
        _drop_index(games)
    for minutes in (5, 10):
        monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(minutes=minutes)))
        ticking.tick(games, with_map=False)
    told = set(_outbox(root, "alpha")) - before
    readers = _to(root, "out-alpha", told)
    assert ADDRESSES["entente"] in readers


def test_a_route_changed_during_a_pass_is_followed_on_later_passes(cli, root,
                                                                   monkeypatch):
    """An entry is never made from fields read before the journal last changed, nor copied
    from the index itself: after the race, the mails go by the new route."""
    games, made = _copied(root, monkeypatch)
    journal, keys = made["alpha"]
    new_out = root / "out-new"
    real = ticking._after_mail

    def racing(x, games_dir, with_map):
        real(x, games_dir, with_map)
        if x.game_id == "alpha":
            assert cli("mail", journal, "--out", f"outbox:{new_out}").exit_code == 0

    monkeypatch.setattr(ticking, "_after_mail", racing)
    _mail_pass(root, "alpha", "entente", keys, "<s0@example.org>")
    ticking.tick(games, with_map=False)
    monkeypatch.setattr(ticking, "_after_mail", real)
    for i, side in enumerate(["german", "entente", "german"], 1):
        _mail_pass(root, "alpha", side, keys, f"<s{i}@example.org>")
        ticking.tick(games, with_map=False)
    assert list(new_out.glob("*.eml"))          # the later answers go by the new route


@pytest.mark.parametrize("indexed", [True, False])
def test_secret_away_for_one_pass(cli, root, monkeypatch, indexed):
    """The dice secret beside the journal is away during one pass (a folder being synced
    or restored, a mount not yet there, or anyone who may write the folder): that pass says
    so as the game's problem, writes no index entry without order keys, and the mail after
    the secret is back is taken."""
    from referee.store import dice as dicemod
    games, made = _copied(root, monkeypatch)
    journal, keys = made["alpha"]
    secret = dicemod.secret_path(journal)
    assert secret.exists()
    _drop_index(games)
    aside = secret.with_name("aside")
    secret.rename(aside)
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(minutes=5)))
    problems = ticking.tick(games, with_map=False).problems     # said, never a quiet pass
    assert len(problems) == 1 and "dice secret is missing" in problems[0], problems
    aside.rename(secret)
    if not indexed:
        _drop_index(games)
    monkeypatch.setenv(NOW_VARIABLE, at(START + timedelta(minutes=10)))
    _mail_pass(root, "alpha", "german", keys, "<k1@example.org>")
    ticking.tick(games, with_map=False)
    assert records(journal)[-1].get("order") == "pass"


@pytest.mark.parametrize("indexed", [True, False])
def test_rewrite_in_place_with_mtime_put_back(cli, root, monkeypatch, indexed):
    """A record in the middle of the journal changed (same length, same file), and its
    modification time put back (os.utime / touch -d): the fingerprint is the same."""
    games, made = _copied(root, monkeypatch)
    journal, _ = made["alpha"]
    ticking.tick(games, with_map=False)
    st = os.stat(journal)
    raw = journal.read_bytes()
    lines = raw.split(b"\n")
    target = lines[2]
    i = target.index(ADDRESSES["entente"].encode())
    lines[2] = target[:i] + b"J" + target[i + 1:]             # joffre -> Joffre
    with open(journal, "r+b") as fh:
        fh.write(b"\n".join(lines))
    os.utime(journal, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert gameindex.fingerprint(journal)[:2] == [st.st_size, st.st_mtime_ns]
    if not indexed:
        _drop_index(games)
    r = cli("tick", games, "--no-map")
    assert r.exit_code != 0


@pytest.mark.parametrize("indexed", [True, False])
def test_wrong_secret_planted_in_the_folder(cli, root, monkeypatch, indexed):
    """Someone who may write the folder replaces alpha.jsonl.secret with another game's:
    without the index every pass says so and exits non-zero."""
    from referee.store import dice as dicemod
    games, made = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    dicemod.secret_path(made["alpha"][0]).write_bytes(
        dicemod.secret_path(made["bravo"][0]).read_bytes())
    if not indexed:
        _drop_index(games)
    r = cli("tick", games, "--no-map")
    assert r.exit_code != 0


def test_an_entry_short_of_a_field_and_a_journal_that_fails_to_load(cli, root,
                                                                    monkeypatch):
    """An entry of another layout is a miss, and the journal then read that fails to load
    is one problem line, not the end of the pass."""
    from referee.store import dice as dicemod
    games, made = _copied(root, monkeypatch)
    ticking.tick(games, with_map=False)
    entries = gameindex.load(games)
    del entries["alpha.jsonl"]["game"]["former"]        # an entry of another layout
    gameindex.save(games, entries)
    dicemod.secret_path(made["alpha"][0]).write_bytes(
        dicemod.secret_path(made["bravo"][0]).read_bytes())     # alpha fails to load
    r = cli("tick", games, "--no-map")
    assert "Traceback" not in r.output and r.exit_code == 3
