"""Edges of the play-by-email table: what an all-or-nothing batch, a dry run, a stale check,
a report bookmark, a second inbox run and a hand-edited roster must not get wrong. Every game
is made in-process from a fixed secret, so the whole file runs in seconds."""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
from pathlib import Path

from forging import resign
from mailboxes import write_maildir
from mailkinds import headline

import gamecalls as g
from casebook import position, yaml_text
from referee.mail import inbox as mailmod
from referee.store.dice import write_secret
from referee.store.journal import canonical

GAME = "edges"
ADDRESSES = {"german": "kaiser@example.org", "entente": "joffre@example.net"}
OPENING = ["play offensive", "move ge-1 liege", "move ge-4:cavalry ardennes", "end movement",
           "done", "done"]


# ---------------------------------------------------------------- helpers

def _secret(tmp: Path, hexbyte: str = "5e") -> Path:
    path = tmp / f"{hexbyte}.secret"
    write_secret(path, bytes.fromhex(hexbyte * 32))
    return path


def _players() -> list[str]:
    return [f"{side}={addr}" for side, addr in ADDRESSES.items()]


def _battle_game(tmp: Path, hexbyte: str) -> Path:
    """The 1914 opening up to the German's 'done' that rolls the first battle dice at Liège."""
    folder = tmp / hexbyte
    folder.mkdir()
    journal = folder / "g.jsonl"
    g.create_game(journal, "1914", game_id="oracle", secret_file=_secret(folder, hexbyte))
    assert g.submit(journal, "german", OPENING).rejected is None
    assert g.open_game(journal).state.pending.kind == "cavalry_retreat"
    return journal


def _production_game(tmp: Path, name: str = "p", players: bool = True) -> Path:
    """A 1914 position in the production phase (both sides to give sealed plans), with the
    players registered."""
    folder = tmp / name
    folder.mkdir()
    sc = position("1914", turn=1, player="entente", passes=1,
                  hands={"german": ["off-01", "off-02", "ers2-01", "ers2-02", "gas-01"],
                         "entente": ["off-03", "ers2-03"]})
    spath = folder / "sc.yaml"
    spath.write_text(yaml_text(sc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    journal = folder / "g.jsonl"
    g.create_game(journal, str(spath), game_id=GAME, secret_file=_secret(folder),
                  players=_players() if players else [])
    assert g.submit(journal, "entente", ["pass", "end turn"]).rejected is None
    assert g.open_game(journal).state.pending.kind == "production"
    return journal


def _keys(cli, journal: Path) -> dict[str, str]:
    r = cli("players", journal, "--keys", "--format", "json")
    assert r.exit_code == 0, r.output
    return {p["side"]: p["key"] for p in json.loads(r.stdout)["players"] if p.get("key")}


def _message(side: str, key: str, body: str, mid: str, subject: str, minute: int) -> bytes:
    return (f"From: {ADDRESSES[side]}\nTo: umpire@example.com\nSubject: {subject}\n"
            f"Date: Sat, 01 Aug 1914 09:{minute:02d}:00 +0100\nMessage-ID: {mid}\n"
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n"
            f"{body}\n\nOrder key: {key}\n").encode()



def _inbox(cli, journal: Path, source: Path, outbox: Path) -> dict:
    r = cli("inbox", journal, source, "--outbox", outbox, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _records(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]


def _rewrite_roster(journal: Path, edit) -> None:
    """Edit the roster record and chain the journal again (a well-chained, hand-edited file)."""
    out, prev = [], None
    for rec in _records(journal):
        if rec.get("order") == "register players":
            edit(rec["players"]["data"]["players"])
        rec.pop("hash", None)
        rec["prev"] = prev
        rec = resign(rec)
        prev = rec["hash"]
        out.append(rec)
    journal.write_bytes(b"".join(canonical(r) + b"\n" for r in out))


def _report_mail_body(path: Path) -> tuple[str, str]:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    return headline(msg), msg.get_content()


# ---------------------------------------------------------------- 1. secrets

def test_an_atomic_rejection_does_not_tell_the_dice_it_rolled_without_writing(tmp_path):
    """Guards against a fault once found in game.submit (atomic): the batch 'done' (rolls the battle
    dice) + an illegal order is rejected and nothing is written, but the rejection names the
    decision *after* the dice (here: whether the Entente pays a hit). Dice are fixed per record
    number, so the player has read the roll he will get and may still choose another order; by mail
    (`inbox` applies every message atomically) the same text is sent back in the 'not applied'
    reply. The rejection must not depend on dice that were never written: it is the same whatever
    the secret."""
    said = {}
    for hexbyte in ("5e", "11"):           # two secrets: a miss at Liège, and a hit
        journal = _battle_game(tmp_path, hexbyte)
        before = journal.read_bytes()
        r = g.submit(journal, "german", ["done", "pass"], atomic=True)
        assert r.rejected is not None and journal.read_bytes() == before
        said[hexbyte] = str(r.rejected[2])
    assert said["5e"] == said["11"], said


def test_an_atomic_rejection_in_json_shows_the_journal_as_it_is(tmp_path, cli):
    """Guards against a fault once found in commands.order: `order --atomic --format json` that is
    rejected writes nothing, yet its `status` is the position after the unwritten orders (record 10
    of a journal that ends at 9, with the post-battle decision in it)."""
    journal = _battle_game(tmp_path, "11")
    last = _records(journal)[-1]["seq"]
    r = cli("order", journal, "--as", "german", "--atomic", "--format", "json", "done", "pass")
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["applied"] == []
    assert out["status"] is None or out["status"]["seq"] == last, out["status"]


def test_a_dry_run_does_not_tell_whether_the_sealed_plan_of_the_other_side_buys_cards(
        tmp_path, cli):
    """Guards against a fault once found in game.submit (dry run): the German has sealed his plan;
    the Entente's `order --dry-run done` answers 'it would draw cards' when that plan buys cards and
    'hands the decision to german' when it does not: a sealed plan (7.0) read before its reveal.
    What the dry run says of the Entente's own 'done' must not depend on the other side's sealed
    plan."""
    said = {}
    for name, plan in (("builds", ["build ge infantry metz", "done"]),
                       ("buys", ["buy 1", "done"])):
        journal = _production_game(tmp_path, name, players=False)
        assert g.submit(journal, "german", plan).rejected is None
        r = cli("order", journal, "--as", "entente", "--dry-run", "done")
        said[name] = (r.exit_code, r.stdout, r.stderr)
    assert said["builds"] == said["buys"], said


# ---------------------------------------------------------------- 2. correctness

def test_both_players_answering_the_same_production_mail_are_not_stale(tmp_path, cli):
    """Guards against a fault once found in mail._handle: production is simultaneous (7.0) and both
    players get the report of the same record. The Entente's 'done' is applied first; the German's
    plan, answering the very same mail, is then rejected as stale because the production *prompt*
    names who is still to order ('german and entente' became 'german'), although his decision has
    not changed."""
    journal = _production_game(tmp_path)
    keys = _keys(cli, journal)
    seq = _records(journal)[-1]["seq"]
    subject = f"Re: [referee {GAME} #{seq}] report"
    box = write_maildir(tmp_path / "box", [
        _message("entente", keys["entente"], "done", "<e1@example.net>", subject, 0),
        _message("german", keys["german"], "build ge infantry metz\ndone", "<g1@example.org>",
                 subject, 5)])
    out = _inbox(cli, journal, box, tmp_path / "out")
    status = {m["side"]: (m["status"], m["reason"]) for m in out["messages"]}
    assert status["entente"][0] == "applied", status
    assert status["german"][0] == "applied", status


def test_a_report_asked_for_with_since_does_not_swallow_news_owed_to_the_player(tmp_path, cli):
    """Guards against a fault once found in reports.build / mail.write_outbox: the moderator looks
    at the German's view of the last record (`report --as german --since N-1`); that moves the
    German's bookmark to the end, so the next mail `inbox` writes him says 'Nothing has happened
    since your last report' and the Entente's order in between is never mailed to him. News must
    never be hidden."""
    journal = _production_game(tmp_path)
    _inbox(cli, journal, write_maildir(tmp_path / "empty", []), tmp_path / "out0")   # reports sent
    assert g.submit(journal, "entente", ["build fr infantry paris"]).rejected is None  # sealed
    assert g.submit(journal, "entente", ["done"]).rejected is None
    last = _records(journal)[-1]["seq"]
    r = cli("report", journal, "--as", "german", "--since", last - 1)
    assert r.exit_code == 0, r.output
    out = _inbox(cli, journal, write_maildir(tmp_path / "empty2", []), tmp_path / "out1")
    bodies = [_report_mail_body(Path(p)) for p in out["outbox"]]
    german = [body for said, body in bodies if "report for the German player" in said]
    assert len(german) == 1
    assert f"#{last - 1} Entente" in german[0], german[0]


def test_two_inbox_runs_at_once_apply_a_message_once(tmp_path, cli, monkeypatch):
    """Guards against a fault once found in mail.inbox: which messages are already applied is read
    from the journal before any lock is taken; a second `inbox` run on the same mailbox that
    finishes in between (cron and the moderator, say) has applied the message, and this run applies
    it again: the German's sealed build is in the journal twice."""
    journal = _production_game(tmp_path)
    keys = _keys(cli, journal)
    raw = _message("german", keys["german"], "build ge infantry metz", "<g1@example.org>",
                   "orders", 0)
    box = write_maildir(tmp_path / "box", [raw])
    real = mailmod.load_ledger
    calls = []

    def load_ledger(*args):
        calls.append(1)
        if len(calls) == 1:                       # the other run, between our read and apply
            mailmod.inbox(journal, [box], None)
        return real(*args)

    monkeypatch.setattr(mailmod, "load_ledger", load_ledger)
    mailmod.inbox(journal, [box], None)
    digest = hashlib.sha256(raw).hexdigest()
    carrying = [r["seq"] for r in _records(journal)
                if (r.get("mail") or {}).get("data", {}).get("sha256") == digest]
    assert len(carrying) == 1, carrying


# ---------------------------------------------------------------- 3. robustness

def test_players_new_key_on_a_roster_without_a_key_number_is_not_an_internal_error(
        tmp_path, cli):
    """Guards against a fault once found in players.roster_body: a well-chained journal whose roster
    says `"key_no": null` (the record schema allows it, `verify` says OK) makes `players --new-key
    german` add None + 1: exit 4, 'internal error'. It should be a journal error (exit 3) naming the
    record."""
    journal = _production_game(tmp_path)

    def null_key(players):
        for p in players:
            if p["side"] == "german":
                p["key_no"] = None

    _rewrite_roster(journal, null_key)
    r = cli("players", journal, "--new-key", "german")
    assert r.exit_code != 4, r.output
    assert "internal error" not in r.output


def test_verify_refuses_a_roster_naming_a_side_the_game_does_not_have(tmp_path, cli):
    """Guards against a fault once found in verify._check_roster checks only the roster record's
    shape: a roster registering a side 'austria' verifies OK, and `inbox` then fails after applying
    the mail with a usage error about `--as 'austria'` (exit 2). verify must name the record (exit
    3)."""
    journal = _production_game(tmp_path)

    def add_side(players):
        players.append({"side": "austria", "address": "franz@example.at", "key_no": 0,
                        "key_digest": "00" * 32})

    _rewrite_roster(journal, add_side)
    r = cli("verify", journal)
    assert r.exit_code == 3, r.output


# ---------------------------------------------------------------- 4. smaller faults

def test_a_report_with_nothing_new_does_not_name_an_empty_backwards_range(tmp_path, cli):
    """Guards against a fault once found in reports.build: the title says 'records {start +
    1}–{last}', so a second report with nothing new reads 'records 6–5'."""
    journal = _production_game(tmp_path)
    last = _records(journal)[-1]["seq"]
    assert cli("report", journal, "--as", "german").exit_code == 0
    r = cli("report", journal, "--as", "german")
    assert r.exit_code == 0, r.output
    assert f"records {last + 1}–{last}" not in r.stdout, r.stdout.splitlines()[0]


def test_a_report_of_one_record_names_it_alone(tmp_path, cli):
    """A report of a single new record is headed 'record N', not 'records N–N'."""
    journal = _production_game(tmp_path)
    last = _records(journal)[-1]["seq"]
    r = cli("report", journal, "--as", "german", "--since", str(last - 1))
    assert r.exit_code == 0, r.output
    title = " ".join(r.stdout.split("\n=")[0].split())
    assert f", record {last}," in title and "–" not in title, title


def test_a_dry_run_of_a_plan_lists_each_order_it_found_legal(tmp_path, cli):
    """Guards against a fault once found in commands._dry_run_report: a sealed plan is one Applied
    whose text joins its orders with a newline, so `order --dry-run 'buy 1' done` says '1 order
    legal' and prints 'done' on a line of its own, without the '  ok: ' every legal order gets."""
    journal = _production_game(tmp_path, players=False)
    r = cli("order", journal, "--as", "german", "--dry-run", "buy 1", "done")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("dry run: 2 orders legal"), lines
    assert "  ok: done" in lines, lines
