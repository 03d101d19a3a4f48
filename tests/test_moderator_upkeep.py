"""The moderator's upkeep as the players meet it (docs/moderator.md): a repair that cuts a
record the referee wrote whole, a new signing key, a new order key, an edited journal.
Each through the real commands and mail: `tick` over a Maildir, writing to an outbox folder,
the time from REFEREE_NOW."""

from __future__ import annotations

import email
import email.policy
import json
import os
from datetime import timedelta
from pathlib import Path

from commandclock import START
from flowtext import written

ADDRESSES = {"german": "hans@example.org", "entente": "joffre@example.net"}


def new_game(cli, tmp_path: Path, clock, *options: str) -> Path:
    """A 1914 game with both players, its mail in a Maildir and out into a folder."""
    for sub in ("cur", "new", "tmp"):
        (tmp_path / "mail" / sub).mkdir(parents=True)
    journal = tmp_path / "war.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", "upkeep",
            *[a for side, addr in ADDRESSES.items() for a in ("--player", f"{side}={addr}")],
            "--mail-in", tmp_path / "mail", "--mail-out", f"outbox:{tmp_path / 'outbox'}",
            "--from", "referee@example.org", *options)
    assert r.exit_code == 0, r.output
    return journal


def tick(cli, journal: Path):
    r = cli("tick", journal, "--no-map")
    assert r.exit_code == 0, r.output
    return r


def mails(outbox: Path) -> list[email.message.EmailMessage]:
    """Every mail written, oldest first."""
    paths = sorted(outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns)
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in paths]


def text(m) -> str:
    return written(m.get_body(("plain",)).get_content())


def last_to(outbox: Path, address: str):
    return [m for m in mails(outbox) if m["To"] == address][-1]


def reply(tmp_path: Path, to, lines: list[str], name: str) -> None:
    """A player's reply to a mail of the referee's, with the key it carries."""
    key = next(line for line in text(to).splitlines() if line.startswith("Order key: "))
    raw = (f"From: {to['To']}\nTo: referee@example.org\nSubject: Re: {to['Subject']}\n"
           f"In-Reply-To: {to['Message-ID']}\nReferences: {to['Message-ID']}\n"
           f"Date: Tue, 24 Nov 2026 10:00:00 +0000\nMessage-ID: <{name}@players.example>\n\n"
           + "\n".join(lines) + f"\n\n{key}\n")
    (tmp_path / "mail" / "new" / f"{name}.eml").write_text(raw)


def flat(s: str) -> str:
    return " ".join(s.split())


# ---------------------------------------------------------------- repair of a mailed record

def test_repair_of_a_mailed_record_says_it_is_lost_and_the_mails_say_so(cli, tmp_path, clock):
    journal = new_game(cli, tmp_path, clock)
    tick(cli, journal)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    assert cli("order", journal, "--as", "german", "end turn").exit_code == 0
    tick(cli, journal)
    outbox = tmp_path / "outbox"
    entente_mail = last_to(outbox, ADDRESSES["entente"])
    lost = json.loads(journal.read_text().splitlines()[-1])
    n = lost["seq"]
    os.truncate(journal, journal.stat().st_size - 100)

    r = cli("repair", journal)
    assert r.exit_code == 0, r.output
    said = flat(r.stdout)
    assert f"record {n} ({lost['hash'][:12]}…), which this referee wrote and mailed to the " \
        f"Entente and German players, is lost: the German player must send his orders " \
        f"again, and receipts of record {n} no longer verify" in said, said

    tick(cli, journal)
    german, entente = (text(last_to(outbox, a)) for a in ADDRESSES.values())
    assert flat(german).startswith(
        f"Record {n}, which your last mail reported, was lost when the journal was repaired "
        f"(the game is at record {n - 1}). Your orders in it must be sent again"), german
    assert flat(entente).startswith(
        f"Record {n}, which your last mail reported, was lost when the journal was repaired "
        f"(the game is at record {n - 1}). The German player sends his orders again"), entente

    reply(tmp_path, entente_mail, ["pass"], "late")
    r = cli("tick", journal, "--no-map", "--format", "json")
    (m,) = json.loads(r.stdout)["games"][0]["messages"]
    assert f"record {n} was lost when the journal was repaired; send your orders again" in \
        m["reason"], m["reason"]
    assert "has not reached" not in m["reason"]

    # Told once: the mail after the next says nothing of it.
    clock(START + timedelta(hours=1))
    assert cli("order", journal, "--as", "german", "end turn").exit_code == 0
    tick(cli, journal)
    assert "was lost" not in text(last_to(outbox, ADDRESSES["german"]))


def test_a_last_record_that_lost_only_its_line_end_is_mended_not_cut(cli, tmp_path, clock):
    """One byte taken off, the last line's end: the line still holds the record this
    referee wrote, signed and mailed last, so repair puts the end back and loses nothing;
    cutting it would let anyone who can write the folder undo a side's mailed orders.
    Without the mark naming that record (another home's repair), the line is cut as any
    torn line is."""
    journal = new_game(cli, tmp_path, clock)
    tick(cli, journal)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    whole = journal.read_bytes()
    n = json.loads(whole.splitlines()[-1])["seq"]
    os.truncate(journal, len(whole) - 1)
    assert cli("status", journal).exit_code == 3           # torn, until repaired

    r = cli("repair", journal, "--format", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert (out["mended"], out["repaired"], out["records"]) == (True, True, n + 1), out
    assert journal.read_bytes() == whole
    assert Path(out["backup"]).read_bytes() == whole[:-1]
    assert cli("verify", journal).exit_code == 0
    assert cli("order", journal, "--as", "german", "end turn").exit_code == 0

    os.truncate(journal, journal.stat().st_size - 1)
    (Path(os.environ["REFEREE_HOME"]) / "written").rename(tmp_path / "elsewhere")
    r = cli("repair", journal, "--format", "json")
    assert json.loads(r.stdout)["mended"] is False, r.output
    assert journal.read_bytes().count(b"\n") == n + 1


def test_repair_of_a_write_never_finished_says_nothing_more(cli, tmp_path, clock):
    journal = new_game(cli, tmp_path, clock)
    before = journal.read_bytes()
    with open(journal, "ab") as f:
        f.write(b'{"actor":"german","at":')
    r = cli("repair", journal)
    assert r.exit_code == 0, r.output
    assert r.stdout.count("\n") == 1 and "is lost" not in r.stdout
    assert journal.read_bytes() == before



def test_repair_never_makes_good_a_cut_back_of_whole_records_under_a_torn_line(
        cli, tmp_path, clock):
    """Someone who can write the folder takes the last three whole records away and adds a
    torn fragment: a torn line holds one record at most, so repair refuses, naming the
    cut back, and leaves the journal as it found it (its tick keeps refusing to play on)."""
    journal = new_game(cli, tmp_path, clock)
    for side, order in (("german", "pass"), ("german", "end turn"), ("entente", "pass")):
        assert cli("order", journal, "--as", side, order).exit_code == 0
    lines = journal.read_bytes().splitlines(keepends=True)
    top = json.loads(lines[-1])
    journal.write_bytes(b"".join(lines[:-3]) + lines[-1][:30])
    before = journal.read_bytes()
    r = cli("repair", journal)
    assert r.exit_code == 3, r.output
    assert f"cut back: this referee wrote record {top['seq']} ({top['hash'][:12]}…)" in \
        r.output and "nothing was changed" in r.output, r.output
    assert journal.read_bytes() == before
    assert not list(tmp_path.glob("*.bak"))
    assert cli("order", journal, "--as", "entente", "pass").exit_code == 3


def test_a_lost_record_is_told_as_whose_the_mark_says_not_as_the_torn_bytes_say(
        cli, tmp_path, clock):
    """The side a lost record was whose is taken from this referee's mark of what it wrote,
    never from the torn fragment, which the folder's writer writes: the German's record torn
    to a fragment naming the Entente is still told as the German's."""
    journal = new_game(cli, tmp_path, clock)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    lines = journal.read_bytes().splitlines(keepends=True)
    assert json.loads(lines[-1])["actor"] == "german"
    journal.write_bytes(b"".join(lines[:-1]) + b'{"actor":"entente","hash":"x')
    r = cli("repair", journal)
    assert r.exit_code == 0, r.output
    assert "the German player must send his orders again" in flat(r.stdout), r.stdout


def test_a_second_repair_that_lost_nothing_does_not_tell_the_first_loss_again(
        cli, tmp_path, clock):
    """A repair remembers the record it lost until a later repair: one that cut only a write
    never finished says nothing of the loss before."""
    journal = new_game(cli, tmp_path, clock)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    os.truncate(journal, journal.stat().st_size - 40)
    assert "is lost" in cli("repair", journal).stdout
    with open(journal, "ab") as f:
        f.write(b'{"actor":"german","at":')
    r = cli("repair", journal)
    assert r.exit_code == 0 and "is lost" not in r.stdout, r.output


# ---------------------------------------------------------------- an edited journal

def test_an_edited_record_names_the_way_forward_in_every_command(cli, tmp_path, clock):
    journal = new_game(cli, tmp_path, clock)
    lines = journal.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"order":"', b'"order":" ', 1)     # one byte inserted
    journal.write_bytes(b"\n".join(lines))
    way = "record 2 was edited: its content does not match its hash; restore the journal " \
        "from a backup (docs/moderator.md, Repair)"
    for args, code in ((("status",), 3), (("tick", "--no-map"), 3), (("repair",), 3),
                       (("order", "--as", "german", "pass"), 3)):
        r = cli(args[0], journal, *args[1:])
        assert r.exit_code == code, (args, r.output)
        assert way in r.output, (args, r.output)
        assert "Traceback" not in r.output
    r = cli("status", journal, "--format", "json")
    error = json.loads(r.stderr)
    assert (error["kind"], error["exit"]) == ("journal", 3) and way in error["error"], error


# ---------------------------------------------------------------- a new signing key

def test_a_new_signing_key_is_told_in_the_report_with_both_fingerprints(cli, tmp_path, clock):
    journal = new_game(cli, tmp_path, clock)
    tick(cli, journal)
    r = cli("rekey", journal, "--format", "json")
    assert r.exit_code == 0, r.output
    keys = json.loads(r.stdout)
    old, new = keys["from_fingerprint"], keys["fingerprint"]
    tick(cli, journal)
    outbox = tmp_path / "outbox"
    for address in ADDRESSES.values():
        said = flat(text(last_to(outbox, address)))
        assert f"change the signing key - the moderator changed the game's signing key from " \
            f"{old} to {new}, the Fingerprint of the mails after it; `referee verify --key` " \
            f"takes either (the new one once it has signed a record after this one)" in said
    # What the line says of verify holds: the old key now, the new one after a record.
    assert cli("verify", journal, "--key", old).exit_code == 0
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    assert cli("verify", journal, "--key", new).exit_code == 0
    assert cli("verify", journal, "--key", old).exit_code == 0
    assert f"from {old} to {new}" in flat(cli("log", journal).stdout)


# ---------------------------------------------------------------- a new order key

def test_a_new_order_key_is_confirmed_told_first_and_the_old_one_answered(cli, tmp_path,
                                                                          clock):
    journal = new_game(cli, tmp_path, clock)
    tick(cli, journal)
    outbox = tmp_path / "outbox"
    before = last_to(outbox, ADDRESSES["german"])           # it ends with the old key
    old = next(line for line in text(before).splitlines() if line.startswith("Order key: "))

    r = cli("players", journal, "--new-key", "german")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[-1] == "german: a new order key (the old one no longer " \
        "counts); the next mail to hans@example.org carries it"
    assert old.removeprefix("Order key: ") not in r.output
    seq = json.loads(journal.read_text().splitlines()[-1])["seq"]

    tick(cli, journal)
    german = text(last_to(outbox, ADDRESSES["german"]))
    assert flat(german).startswith(
        f"Your order key was replaced at record {seq} (the moderator gave your side a new "
        f"one): use the one at the end of this mail; the one in your earlier mails no "
        f"longer counts."), german
    assert old not in german
    assert "replaced" not in text(last_to(outbox, ADDRESSES["entente"]))

    reply(tmp_path, before, ["pass"], "stale-key")
    r = cli("tick", journal, "--no-map", "--format", "json")
    (m,) = json.loads(r.stdout)["games"][0]["messages"]
    assert m["status"] == "rejected"
    why = f"your order key was replaced at record {seq} (the moderator gave your side a new " \
        f"one); use the one in the latest mail"
    assert why in m["reason"], m["reason"]
    answer = flat(text(last_to(outbox, ADDRESSES["german"])))
    assert f"Your message was not accepted: {why}. Nothing was done. Your order key is at " \
        f"the end of the latest report the referee sent you" in answer, answer
    for output in (r.stdout, answer):
        assert old.removeprefix("Order key: ") not in output


def _new_key_then_repair(cli, tmp_path, clock) -> tuple[Path, int]:
    """A game whose German player was given a new key before his first mail, then mailed
    again at a record that `repair` cut: the journal is set back past his last mail."""
    journal = new_game(cli, tmp_path, clock)
    assert cli("players", journal, "--new-key", "german").exit_code == 0
    tick(cli, journal)
    assert cli("order", journal, "--as", "german", "pass").exit_code == 0
    assert cli("order", journal, "--as", "german", "end turn").exit_code == 0
    tick(cli, journal)
    n = json.loads(journal.read_text().splitlines()[-1])["seq"]
    os.truncate(journal, journal.stat().st_size - 100)
    assert cli("repair", journal).exit_code == 0
    return journal, n


def test_a_set_back_journal_does_not_tell_again_of_a_key_already_mailed(cli, tmp_path,
                                                                        clock):
    journal, n = _new_key_then_repair(cli, tmp_path, clock)
    outbox = tmp_path / "outbox"
    keys = {line for m in mails(outbox) if m["To"] == ADDRESSES["german"]
            for line in text(m).splitlines() if line.startswith("Order key: ")}
    assert len(keys) == 1, keys                 # every mail of his carried the new key

    tick(cli, journal)
    german = text(last_to(outbox, ADDRESSES["german"]))
    assert flat(german).startswith(f"Record {n}, which your last mail reported, was lost"), \
        german
    assert "order key was replaced" not in german, german
    assert keys == {line for line in german.splitlines() if line.startswith("Order key: ")}


def test_a_new_key_after_a_set_back_past_the_last_mail_is_told(cli, tmp_path, clock):
    journal, n = _new_key_then_repair(cli, tmp_path, clock)
    assert cli("players", journal, "--new-key", "german").exit_code == 0
    seq = json.loads(journal.read_text().splitlines()[-1])["seq"]
    assert seq == n                             # the record number the lost one had

    tick(cli, journal)
    german = flat(text(last_to(tmp_path / "outbox", ADDRESSES["german"])))
    assert f"Your order key was replaced at record {seq} (the moderator gave your side a " \
        f"new one)" in german, german


# ---------------------------------------------------------------- the mails' small lines

def test_each_extension_s_line_tells_the_time_that_record_set(cli, tmp_path, clock):
    journal = new_game(cli, tmp_path, clock, "--deadline", "48h")
    tick(cli, journal)
    assert cli("extend", journal, "german", "12h").exit_code == 0
    assert cli("extend", journal, "german", "1h").exit_code == 0
    tick(cli, journal)
    said = flat(text(last_to(tmp_path / "outbox", ADDRESSES["german"])))
    first = said.index("is 12h later")
    assert said[first:].startswith("is 12h later: your orders are now due by Thu 26 Nov "
                                   "06:00 UTC"), said[first:first + 90]
    second = said.index("is 1h later")
    assert said[second:].startswith("is 1h later: your orders are now due by Thu 26 Nov "
                                    "07:00 UTC"), said[second:second + 90]


def test_the_moderator_s_end_mail_keeps_its_commands_within_the_line(cli, tmp_path, clock,
                                                                     monkeypatch):
    """A command is never split but where the shell continues it: what follows the journal
    goes on a line of its own when the one line would pass 72 columns."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "campaigns-of-the-club" / "western-front"
    folder.mkdir(parents=True)
    journal = new_game(cli, folder, clock, "--player", "moderator=umpire@example.com")
    journal = journal.relative_to(tmp_path)
    assert cli("order", journal, "--as", "german", "propose armistice").exit_code == 0
    assert cli("order", journal, "--as", "entente", "accept armistice").exit_code == 0
    tick(cli, journal)
    (told,) = [m for m in mails(folder / "outbox") if m["To"] == "umpire@example.com"]
    said = text(told)
    where = str(tmp_path / journal)             # tick names it by its whole path
    assert f"\n  referee log {where} \\\n      --as SIDE --format json > SIDE.jsonl\n" in said
    # Past 72 columns only where the journal's whole path alone takes them (never split).
    assert [line for line in said.splitlines() if len(line) > 72] == [
        f"  referee reveal {where}", f"  referee log {where} \\"], said
