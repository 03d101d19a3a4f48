"""A player's fresh mail to the referee's address (no game's tag in its subject, no thread,
no order key: "my orders", "pass") is claimed by the address it comes from (mail/strays.py):
from a side's address in one game of the mailbox, that game answers it as any mail of his
without his key; from one in several games, one answer goes to his address as registered,
naming his games' tags and nothing else of them, within the address's daily quota; a
stranger's, or the moderator's, stays unclaimed and unanswered. Each is answered once,
whatever pass was killed, and with two passes at once. The games read one Maildir, each
writing its own outbox; time comes from REFEREE_NOW."""

from __future__ import annotations

import subprocess
import sys

import pytest
from mailboxes import write_maildir
from test_keyless_answer import UNCLAIMED, _deliver, _raw, _text
from test_tick_index import START
from test_tick_sharing import _tick_process
from test_transport import ADDRESSES, new_game, records
from test_unattended import at

from referee.base.clock import NOW_VARIABLE
from referee.mail import ledger as ledgermod

GERMAN = ADDRESSES["german"]
ELSEWHERE = "wilhelm@elsewhere.example"
SUBJECT = "referee: message not matched to one game"


def _games(cli, root, monkeypatch, germans: dict[str, str]) -> dict:
    """1914 games reading one Maildir (root/box), each writing root/out-ID, the German of
    each registered at the address given; ticked once (their opening mails)."""
    monkeypatch.setenv("REFEREE_HOME", str(root / "home"))
    monkeypatch.setenv(NOW_VARIABLE, at(START))
    box = write_maildir(root / "box", [])
    made = {}
    for name, german in germans.items():
        with monkeypatch.context() as m:
            m.setitem(ADDRESSES, "german", german)
            made[name] = new_game(cli, root / "games", name, None, "--mail-in", str(box),
                                  "--mail-out", f"outbox:{root / ('out-' + name)}")
    assert cli("tick", root / "games", "--no-map").exit_code == 0
    return made


def _all_mails(root) -> dict:
    import email
    import email.policy

    return {p: email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(root.glob("out-*/*.eml"))}


def _new(root, before: dict) -> list:
    return [m for p, m in _all_mails(root).items() if p not in before]


def _tick(cli, root) -> str:
    r = cli("tick", root / "games", "--no-map")
    assert r.exit_code == 0, r.output
    return r.output


def _fresh(sender: str, ident: str, body: str = "pass") -> bytes:
    return _raw(sender, [body], ident, "my orders")


def test_a_fresh_mail_from_a_player_of_one_game_is_answered_as_his_games(
        cli, tmp_path, monkeypatch):
    """The German of alpha (bravo's German is someone else) mails `pass` under "my orders":
    alpha answers him at his address, under his reports' subject, told where his key is;
    nothing applied, nothing left for the moderator, and no second answer."""
    made = _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN, "bravo": ELSEWHERE})
    seq = len(records(made["alpha"][0]))
    before = _all_mails(tmp_path)
    _deliver(tmp_path, [_fresh(GERMAN, "<f1@example.org>")])
    out = _tick(cli, tmp_path)
    assert UNCLAIMED not in out, out
    (answer,) = _new(tmp_path, before)
    assert str(answer["To"]) == GERMAN
    assert str(answer["Subject"]).startswith("[referee alpha] German player, ")
    said = " ".join(_text(answer).split())
    assert "carries no order key" in said and "Nothing was done" in said, said
    assert made["alpha"][1]["german"] not in answer.as_string()
    assert records(made["alpha"][0])[seq:] == []
    before = _all_mails(tmp_path)
    _tick(cli, tmp_path)
    assert _new(tmp_path, before) == []


def test_a_fresh_mail_from_a_player_of_several_games_is_answered_once_with_their_tags(
        cli, tmp_path, monkeypatch):
    """The German of alpha, bravo and charlie (one address) mails `pass`, his From in
    capitals: one answer, to his address as registered, naming the three tags and nothing
    else of them (no key, no report, no thread); nothing applied; none again next pass."""
    names = ("alpha", "bravo", "charlie")
    made = _games(cli, tmp_path, monkeypatch, dict.fromkeys(names, GERMAN))
    seqs = {n: len(records(made[n][0])) for n in names}
    before = _all_mails(tmp_path)
    _deliver(tmp_path, [_fresh(GERMAN.upper(), "<f1@example.org>")])
    out = _tick(cli, tmp_path)
    assert UNCLAIMED not in out, out
    (answer,) = _new(tmp_path, before)
    assert str(answer["To"]) == GERMAN and str(answer["Subject"]) == SUBJECT
    text = _text(answer)
    assert all(f"[referee {n}]" in text for n in names), text
    assert "Nothing was done" in " ".join(text.split())
    assert "thread." not in str(answer["References"]) and "rec." not in str(
        answer["Message-ID"])
    assert not [k for n in names for k in made[n][1].values() if k in answer.as_string()]
    assert all(len(line) <= 72 for line in text.splitlines())
    assert all(records(made[n][0])[seqs[n]:] == [] for n in names)
    before = _all_mails(tmp_path)
    assert UNCLAIMED not in _tick(cli, tmp_path)
    assert _new(tmp_path, before) == []


def test_several_games_answers_stay_within_the_addresses_daily_quota(
        cli, tmp_path, monkeypatch):
    """Anyone may write the German's From: four fresh mails get two answers (the quota)."""
    monkeypatch.setattr(ledgermod, "REGISTERED_PER_DAY", 2)
    _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN, "bravo": GERMAN})
    before = _all_mails(tmp_path)
    _deliver(tmp_path, [_fresh(GERMAN, f"<q{i}@x.example>", f"spam {i}") for i in range(4)])
    out = _tick(cli, tmp_path)
    assert [str(m["To"]) for m in _new(tmp_path, before)] == [GERMAN] * 2
    assert out.count("no reply: 2 a day at most") == 2, out


@pytest.mark.parametrize("sender", ["stranger@bureau.example", ADDRESSES["moderator"],
                                    "\u212aaiser@example.org"])
def test_a_fresh_mail_from_no_sides_address_is_left_unanswered(cli, tmp_path, monkeypatch,
                                                                 sender):
    """A stranger's, the moderator's, or one from a Kelvin sign spelling the German's
    address: left for the moderator, as before, and answered by no game."""
    _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN, "bravo": GERMAN})
    before = _all_mails(tmp_path)
    _deliver(tmp_path, [_fresh(sender, "<s1@bureau.example>")])
    assert UNCLAIMED in _tick(cli, tmp_path)
    assert _new(tmp_path, before) == []


@pytest.mark.parametrize("games", [("alpha",), ("alpha", "bravo")])
def test_a_players_mail_with_a_key_of_no_game_here_is_left_for_the_moderator(
        cli, tmp_path, monkeypatch, games):
    """A key of a game moved out of the folder (or mistyped): the moderator's to see, as
    before, not answered as a keyless mail of the German's games here."""
    _games(cli, tmp_path, monkeypatch, dict.fromkeys(games, GERMAN))
    before = _all_mails(tmp_path)
    _deliver(tmp_path, [_raw(GERMAN, ["pass", "", "Order key: ABCD-EFGH-JKMN"],
                             "<o1@example.org>", "my orders")])
    assert UNCLAIMED in _tick(cli, tmp_path)
    assert _new(tmp_path, before) == []


# ---------------------------------------------------------------- killed, or two at once

def _answers(root) -> list[str]:
    return sorted(f"{m['To']} | {m['Subject']}" for m in _all_mails(root).values()
                  if m["Subject"] == SUBJECT or "not accepted" in _text(m))


@pytest.mark.parametrize("germans", [("alpha",), ("alpha", "bravo")])
@pytest.mark.parametrize("step", ["stray", "ledger", "reply", "written"])
def test_a_pass_killed_at_a_step_then_run_again_answers_once(cli, tmp_path, monkeypatch,
                                                            step, germans):
    """The pass reading the fresh mail ends where REFEREE_FAULT names; two passes after it
    leave exactly one answer, and nothing applied."""
    made = _games(cli, tmp_path, monkeypatch,
                  {n: GERMAN if n in germans else ELSEWHERE for n in ("alpha", "bravo")})
    _deliver(tmp_path, [_fresh(GERMAN, "<k1@example.org>")])
    killed = _tick_process(tmp_path, step)
    # A fresh mail of one game's player is its inbox's ("ledger"), of several's strays.py's.
    passed_by = (step, len(germans)) in (("stray", 1), ("ledger", 2))
    assert killed.returncode == (0 if passed_by else 70), killed.stderr
    for _ in range(2):
        again = cli("tick", tmp_path / "games", "--no-map")     # only the kill needs a process
        assert again.exit_code == 0, again.output
    subject = SUBJECT if len(germans) > 1 else None
    (answer,) = _answers(tmp_path)
    assert answer.startswith(GERMAN) and (subject is None or answer.endswith(subject))
    assert all(r.get("order") != "pass" for n in made for r in records(made[n][0]))


def test_two_passes_at_once_answer_once(cli, tmp_path, monkeypatch):
    _games(cli, tmp_path, monkeypatch, {"alpha": GERMAN, "bravo": GERMAN})
    _deliver(tmp_path, [_fresh(GERMAN, "<t1@example.org>")])
    args = [sys.executable, "-m", "referee", "tick", str(tmp_path / "games"), "--no-map"]
    passes = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
              for _ in range(2)]
    for p in passes:
        assert p.wait(timeout=300) == 0, p.stderr.read()
    assert _answers(tmp_path) == [f"{GERMAN} | {SUBJECT}"]


def test_a_stray_no_ledger_could_note_is_left_unclaimed_for_the_moderator(
        cli, tmp_path, monkeypatch):
    """The ledger of the game that would answer cannot be read or written (a full disk, a
    lock not had): the mail is noted nowhere, so it is not taken as that game's (marked
    read and gone from the moderator's list, and answered by no pass): it stays unclaimed."""
    from referee.base.errors import RefereeError
    from referee.mail import strays

    names = ("alpha", "bravo")
    _games(cli, tmp_path, monkeypatch, dict.fromkeys(names, GERMAN))
    before = _all_mails(tmp_path)
    _deliver(tmp_path, [_fresh(GERMAN, "<f1@example.org>")])

    def cannot(*_args):
        raise RefereeError("the ledger cannot be written")

    monkeypatch.setattr(strays, "_owe", cannot)
    out = _tick(cli, tmp_path)
    assert UNCLAIMED in out and "the ledger cannot be written" in out, out
    assert _new(tmp_path, before) == []
