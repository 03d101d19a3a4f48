"""Receipts as mailed: the last line of a report that `referee inbox` writes, read from the .eml
as a mail program shows it and pasted into `verify --receipt` as it stands.

The games are made as in tests/test_hostile_mail.py (a fixed dice secret, the three addresses
registered); the German's 'play offensive' comes in by mail, so each report is an outbox mail
written for a real message.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from pathlib import Path

from flowtext import written
from mailkinds import headline
from test_hostile_mail import ADDRESSES, SECRET, handled, mail, write_mbox

from referee.store.dice import write_secret

LONG = "the-long-autumn-campaign-of-1914-club-x"     # 39 characters: too long for one line
WIDTH = 72


def new_game(cli, folder: Path, game_id: str) -> tuple[Path, dict[str, str]]:
    """A 1914 game with this id and the three addresses registered; its order keys."""
    folder.mkdir(parents=True)
    secret = folder / "fixed.secret"
    write_secret(secret, SECRET)
    journal = folder / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", game_id, "--secret-file", secret,
            *[a for side, addr in ADDRESSES.items() for a in ("--player", f"{side}={addr}")])
    assert r.exit_code == 0, r.output
    players = json.loads(cli("players", journal, "--keys", "--format", "json").stdout)["players"]
    return journal, {p["side"]: p["key"] for p in players if p["side"] != "moderator"}


def mailed_report(cli, tmp_path: Path, game_id: str) -> tuple[Path, bytes]:
    """The German's opening order by mail, then the report `inbox` writes him: (journal, the
    .eml as written)."""
    journal, keys = new_game(cli, tmp_path / game_id, game_id)
    body = f"play offensive\n\nOrder key: {keys['german']}\n"
    box = write_mbox(tmp_path / f"{game_id}.mbox",
                     [mail(body=body, subject=f"Re: [referee {game_id} #2] german report")])
    outbox = tmp_path / f"{game_id}.out"
    out = handled(cli, journal, box, outbox=outbox)
    assert [o["status"] for o in out] == ["applied"], out
    found = [p for p in sorted(outbox.iterdir())
             if "report for the German player" in headline(read(p.read_bytes()))]
    assert len(found) == 1
    return journal, found[0].read_bytes()


def read(raw: bytes) -> email.message.EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)


def body_lines(raw: bytes) -> list[str]:
    """The text as a mail program shows it (quoted-printable decoded)."""
    return written(read(raw).get_content()).rstrip("\n").split("\n")


def last_record(journal: Path) -> dict:
    return json.loads(journal.read_text(encoding="utf-8").splitlines()[-1])


def orders_of(cli, journal: Path) -> set[str]:
    """Every order the German may give now and every order in the journal: the only lines a
    report may leave longer than WIDTH (an order is never split)."""
    legal = json.loads(cli("status", journal, "--as", "german", "--format", "json").stdout)
    return set(legal["legal"]) | {json.loads(line).get("order", "")
                                  for line in journal.read_text(encoding="utf-8").splitlines()}


def test_the_receipt_as_mailed_fits_the_line_and_verify_takes_it_as_pasted(cli, tmp_path):
    journal, raw = mailed_report(cli, tmp_path, "mailtest")
    last = last_record(journal)
    lines = body_lines(raw)
    receipt = lines[-1]
    assert receipt == f"Receipt: mailtest {last['seq']}:{last['hash'][:32]}"
    assert len(receipt) <= WIDTH
    orders = orders_of(cli, journal)
    for line in lines:
        assert len(line) <= WIDTH or line.strip().removeprefix("- ") in orders, line
    # The .eml holds the line whole: quoted-printable had nothing to wrap or escape in it.
    assert receipt.encode() in raw.splitlines()
    for pasted in (receipt, f"  {receipt}  \n", receipt.removeprefix("Receipt: "),
                   receipt.split()[-1], f"{last['seq']}:{last['hash']}",
                   f"receipt:{receipt.removeprefix('Receipt:')}"):
        r = cli("verify", journal, "--receipt", pasted)
        assert r.exit_code == 0, (pasted, r.output)
        assert "receipts: 1 checked" in r.stdout
    r = cli("verify", journal, "--receipt", receipt, "--receipt", "2:" + _hash(journal, 2)[:40])
    assert r.exit_code == 0 and "receipts: 2 checked" in r.stdout, r.output


def _hash(journal: Path, seq: int) -> str:
    return json.loads(journal.read_text(encoding="utf-8").splitlines()[seq])["hash"]


def test_a_receipt_of_another_game_is_refused_naming_both_games(cli, tmp_path):
    _, raw = mailed_report(cli, tmp_path, "mailtest")
    receipt = body_lines(raw)[-1]
    other, _ = new_game(cli, tmp_path / "other", "verdun-1916")
    before = other.read_bytes()
    r = cli("verify", other, "--receipt", receipt)
    assert r.exit_code == 2, r.output
    (line,) = r.stderr.splitlines()
    assert line.startswith("referee: ")
    assert "'mailtest'" in line and "'verdun-1916'" in line
    r = cli("verify", other, "--receipt", receipt, "--format", "json")
    error = json.loads(r.stderr)
    assert (r.exit_code, error["kind"], error["exit"]) == (2, "other_game", 2)
    assert other.read_bytes() == before


def test_a_wrong_or_forged_receipt_is_refused(cli, tmp_path):
    journal, raw = mailed_report(cli, tmp_path, "mailtest")
    receipt = body_lines(raw)[-1]
    head, seq_hash = receipt.rsplit(" ", 1)
    seq, digest = seq_hash.split(":")
    flipped = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    full = json.loads(journal.read_bytes().splitlines()[int(seq)])["hash"]
    wrong_next = "0" if full[len(digest)] != "0" else "1"      # a digit more, not the record's
    for wrong, code, words in [
        (f"{head} {seq}:{flipped}", 3, "rewritten"),          # one digit changed
        (f"{head} {seq}:{'0' * 32}", 3, "rewritten"),         # a forged start: matches nothing
        (f"{head} {int(seq) + 1}:{digest}", 3, "rewound"),     # a record the journal lacks
        (f"{head} {seq}:{digest[:12]}", 2, "12 hex digits"),   # too short to prove anything
        (f"{head} {seq}:{digest}{wrong_next}", 3, "rewritten"),  # one digit more, the wrong one
        (f"{head} {seq}:{digest}…", 2, "give the receipt"),
    ]:
        r = cli("verify", journal, "--receipt", wrong)
        assert r.exit_code == code, (wrong, r.output)
        (line,) = r.stderr.splitlines()
        assert words in line, (wrong, line)
        r = cli("verify", journal, "--receipt", receipt, "--receipt", wrong, "--format", "json")
        error = json.loads(r.stderr)
        assert error["exit"] == code and error["kind"] == ("journal" if code == 3 else "usage")


def test_a_long_game_id_puts_seq_and_hash_on_a_line_of_their_own(cli, tmp_path):
    journal, raw = mailed_report(cli, tmp_path, LONG)
    last = last_record(journal)
    lines = body_lines(raw)
    assert lines[-2:] == [f"Receipt: {LONG}", f"  {last['seq']}:{last['hash'][:32]}"]
    assert all(len(line) <= WIDTH for line in lines[-8:])
    assert lines[-6] == "Signed:" and [len(line) for line in lines[-5:-2]] == [66, 66, 46]
    assert re.fullmatch(r"Fingerprint: [0-9A-Z-]{19} \(the game's signing key\)", lines[-7])
    assert re.fullmatch(r"Order key: \S+", lines[-8])
    both = "\n".join(lines[-2:]) + "\n"
    for pasted in (both, lines[-1]):
        r = cli("verify", journal, "--receipt", pasted)
        assert r.exit_code == 0 and "receipts: 1 checked" in r.stdout, (pasted, r.output)
    r = cli("verify", journal, "--receipt", lines[-2])        # the game without SEQ:HASH
    assert r.exit_code == 2, r.output


def test_verify_checks_receipts_on_the_bytes_it_proves(cli, tmp_path, monkeypatch):
    """Someone who can write the folder puts the journal cut back to half its records in its
    place just after verify has read it. verify read it once: the receipt of the last record
    is checked on the bytes whose chain it proves, so what it passes holds that record (read
    again, the cut-back copy would have been proved while the receipt was found in the whole
    one). How many records the turn takes depends on the game's dice (its secret is new), so
    the records are chosen from what the journal holds."""
    journal = tmp_path / "g.jsonl"
    assert cli("new", journal, "--scenario", "1914").exit_code == 0
    assert cli("autoplay", journal, "--seed", "3", "--until", "1").exit_code == 0
    lines = journal.read_bytes().splitlines(keepends=True)
    proved = len(lines) - 1
    kept = proved // 2
    assert kept >= 1
    head, last = json.loads(lines[0]), json.loads(lines[proved])
    receipt = f"Receipt: {head['game_id']} {proved}:{last['hash'][:32]}"
    cut_back = b"".join(lines[:kept + 1])

    from referee.store.journal import Journal

    read = Journal.raw

    def swapped(self):
        data = read(self)
        self.path.write_bytes(cut_back)              # the folder's writer, at this moment
        return data

    monkeypatch.setattr(Journal, "raw", swapped)
    r = cli("verify", journal, "--receipt", receipt, "--format", "json")
    assert journal.read_bytes() == cut_back
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["records"] == len(lines)

