"""A player whose mail a server refused for good keeps its news, whatever happens around it:
a kill before the ledger says so, another run writing the ledger meanwhile, a mail that
waits long in the spool, and a refused/ folder holding what the referee did not put there.
The servers are tests/mailservers.py's, on 127.0.0.1 only."""

from __future__ import annotations

import email
import email.policy
import email.utils
import os
import re
import subprocess
import sys
from pathlib import Path

from mailboxes import write_maildir
from mailservers import route_through
from test_transport import ADDRESSES, mail, records, tick
from test_transport import new_game as game_through
from ticklines import problem_text

from referee.mail import ledger as ledgermod
from referee.mail import leftover
from referee.mail import tick as ticking
from referee.mail.delivery import refused_mails
from referee.mail.ledger import forget_starts, news_owed_again, note_start


def new_game(cli, folder: Path, game_id: str, *route: str) -> tuple[Path, dict]:
    return game_through(cli, folder, game_id, None, *route)


def text_of(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    return " ".join(msg.get_body(("plain",)).get_content().split())


def ranges_to(net, address: str) -> list[tuple[int, int]]:
    """The records each mail the server took for address reports (first, last)."""
    out = []
    for _, tos, raw in net.smtp.received:
        if tos == [address]:
            found = re.search(r"records (\d+)–(\d+)", text_of(raw))
            assert found, text_of(raw)
            out.append((int(found.group(1)), int(found.group(2))))
    return out


# ---------------------------------------------------------------- a kill between set-aside
# and the ledger

def test_a_kill_after_a_mail_is_set_aside_and_before_the_ledger_is_saved_keeps_its_news(
        cli, servers, monkeypatch, tmp_path):
    net = route_through(servers, monkeypatch, tmp_path / "user")
    journal, keys = new_game(cli, tmp_path / "games", "kilo", "--mail-in", net.source,
                             "--mail-out", net.target)
    assert cli("players", journal, "--set", "entente=toolarge@example.net").exit_code == 0
    # The Entente's opening report is refused for good at DATA (set aside into refused/), the
    # German's is taken next, and the pass is killed right after (REFEREE_FAULT=sent): before
    # _owe_news_again saved the Entente's bookmark rolled back.
    killed = subprocess.run([sys.executable, "-m", "referee", "tick", str(journal), "--no-map"],
                            env={**os.environ, "REFEREE_FAULT": "sent"}, capture_output=True,
                            timeout=120)
    assert killed.returncode == 70, killed.stderr
    spool = ticking.load_game(journal, None).spool
    assert len(refused_mails(spool)) == 1                  # the Entente's, set aside
    r = tick(cli, journal)                                 # the rerun
    assert r.exit_code == 3 and "1 mail refused for good" in problem_text(r), r.output
    # The moderator mends the address and removes the refused mail, as docs/moderator.md says:
    # the Entente's next report must carry everything he missed, from the start of the game.
    assert cli("players", journal, "--set", f"entente={ADDRESSES['entente']}").exit_code == 0
    for waiting in refused_mails(spool):
        waiting.unlink()
    r = tick(cli, journal)
    assert r.exit_code == 0, r.output
    assert ranges_to(net, ADDRESSES["entente"]) == [(1, records(journal)[-1]["seq"])]


# ---------------------------------------------------------------- moved back, then sent

# ---------------------------------------------------------------- starts pruned

def test_a_mail_that_waits_long_keeps_its_start_while_newer_ones_come_and_go():
    """A mail to the German waits in the spool (the server says 421 or 535 for days, which
    keeps every mail owed) while hundreds of newer mails to the other side are written and
    sent; then the server refuses the German's mail for good: his news is still owed."""
    ledger = {"sent": {"german": [3, "h3"], "entente": [3, "h3"]}, "starts": {},
              "refused": []}
    note_start(ledger, "german-report", "german")
    ledger["sent"]["german"] = [4, "h4"]
    for i in range(500):
        note_start(ledger, f"entente-{i}", "entente")
        ledger["sent"]["entente"] = [5 + i, f"h{5 + i}"]
        forget_starts(ledger, {"german-report", f"entente-{i}"})    # the others were sent
    assert set(ledger["starts"]) == {"german-report", "entente-499"}
    assert news_owed_again(ledger, ["german-report"]) == ["german"]
    assert ledger["sent"]["german"] == [3, "h3"]          # his next report starts there
    assert news_owed_again(ledger, ["german-report"]) == []     # accounted for once


# ---------------------------------------------------------------- a side held unseen

def test_a_side_is_never_held_by_an_entry_of_refused_that_the_moderator_is_not_told_of(
        cli, tmp_path):
    box, out = write_maildir(tmp_path / "box", []), tmp_path / "out"
    journal, keys = new_game(cli, tmp_path / "games", "november", "--mail-in", str(box),
                             "--mail-out", f"outbox:{out}")
    assert tick(cli, journal).exit_code == 0
    held = [p for p in out.glob("*.eml")
            if email.message_from_bytes(p.read_bytes())["To"] == ADDRESSES["entente"]]
    assert len(held) == 1
    # Someone who can write the outbox folder (an outbox route: the referee never sends, so
    # nothing of its own is ever in refused/) makes refused/NAME.eml a folder.
    (out / "refused" / held[0].name).mkdir(parents=True)
    write_maildir(box, [mail("german", keys["german"], ["pass"], "<n1@example.org>")])
    r = tick(cli, journal)
    assert records(journal)[-1]["order"] == "pass"
    told = r.exit_code != 0 and "refused" in problem_text(r)
    held = [p for p in out.glob("*.eml")
            if email.message_from_bytes(p.read_bytes())["To"] == ADDRESSES["entente"]]
    assert told or len(held) == 2, (r.output, held)   # held unseen: no report, no word


# ---------------------------------------------------------------- the ledger without its lock

def test_the_news_owed_again_is_saved_under_the_mail_lock(cli, servers, monkeypatch,
                                                          tmp_path):
    """The rollback is written into the ledger while the game's mail lock is held, the one
    every writer of the ledger (inbox too, run by hand beside tick) takes: neither can save
    its copy over the other's."""
    net = route_through(servers, monkeypatch, tmp_path / "user")
    journal, _ = new_game(cli, tmp_path / "games", "oscar", "--mail-in", net.source,
                          "--mail-out", net.target)
    assert cli("players", journal, "--set", "entente=toolarge@example.net").exit_code == 0
    game = ticking.load_game(journal, None)
    lock = str(ledgermod.ledger_path(game.game_id, game.header_hash).with_suffix(".lock"))
    saved_with = []
    real = leftover.save_ledger

    def save(ledger):
        saved_with.append((ledger["refused"][:], ledgermod._HELD.get(lock, 0)))
        return real(ledger)

    monkeypatch.setattr(leftover, "save_ledger", save)
    assert tick(cli, journal).exit_code == 3
    rollbacks = [held for refused, held in saved_with if refused]
    assert rollbacks and all(held > 0 for held in rollbacks), saved_with
