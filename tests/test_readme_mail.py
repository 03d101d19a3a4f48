"""The mail the docs show is a real one: the German's first mail of a 1914 game. The
player's guide shows it whole and the README's tour parts of it; both must be what the
referee writes today for the same start (the fixed secret, key and game id below), so that
neither ever shows an older mail. Only the receipt's hash is not compared: it hashes the
records' times."""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path

from flowtext import written
from forging import fixed_key

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
PLAYER = ROOT / "docs" / "player.md"
GAME_ID = "ttlm-1914-a471c2b4"
OMITTED = re.compile(r"\[… .+ …\]")             # a line standing for the lines left out
RECEIPT = re.compile(r"(Receipt: \S+ \d+:)([0-9a-f]{32})")
SIGNED = re.compile(r"  (?:[A-Za-z0-9_-]{64}|[A-Za-z0-9_-]{44})")    # a line of the Signed ones


def shown(path: Path) -> list[str]:
    """The lines of the mail a document shows: its one text block that starts with the
    referee's Subject line."""
    found = re.findall(r"^```text\n(Subject: \[referee .*?)\n```$",
                       path.read_text(encoding="utf-8"), re.S | re.M)
    assert len(found) == 1, f"{path.name}: {len(found)} mails shown"
    return found[0].split("\n")


def fresh(tmp_path: Path, cli, secret_file: Path) -> list[str]:
    """The German's first mail as the referee writes it now: Subject, a blank line, body."""
    journal = tmp_path / "war.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", GAME_ID,
            "--secret-file", secret_file, "--signing-key", fixed_key(tmp_path / "keys"),
            "--player", "german=hans@example.org",
            "--player", "entente=joffre@example.net", "--player", "moderator=me@example.com")
    assert r.exit_code == 0, r.stderr
    box = tmp_path / "mail"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    r = cli("inbox", journal, box, "--outbox", tmp_path / "outbox", "--no-map")
    assert r.exit_code == 0, r.stderr
    mails = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in (tmp_path / "outbox").iterdir()]
    german = next(m for m in mails if m["To"] == "hans@example.org")
    body = written(german.get_body(("plain",)).get_content()).rstrip("\n").split("\n")
    return [f"Subject: {german['Subject']}", "", *body]


def same(lines: list[str]) -> list[str]:
    """The lines as compared: a receipt's hash stands for any hash, a line of its signature
    for any."""
    return ["  <signed>" if SIGNED.fullmatch(line) else RECEIPT.sub(r"\1<hash>", line)
            for line in lines]


def chunks(lines: list[str]) -> list[list[str]]:
    """The runs of lines between the marks of lines left out."""
    out: list[list[str]] = [[]]
    for line in lines:
        if OMITTED.fullmatch(line):
            out.append([])
        else:
            out[-1].append(line)
    return out


def test_the_player_guide_shows_the_whole_mail(tmp_path, cli, secret_file):
    mail = shown(PLAYER)
    assert not any(OMITTED.fullmatch(line) for line in mail)
    assert same(mail) == same(fresh(tmp_path, cli, secret_file))
    assert RECEIPT.fullmatch(mail[-1]) and mail[-1].startswith(f"Receipt: {GAME_ID} ")


def test_the_readme_shows_parts_of_that_mail_in_its_order(tmp_path, cli, secret_file):
    parts = [same(c) for c in chunks(shown(README))]
    # The README shows the mail without its receipt's signature (player.md shows it whole).
    real = [line for line in same(fresh(tmp_path, cli, secret_file))
            if line not in ("Signed:", "  <signed>")]
    assert len(parts) >= 2 and all(parts), "parts of the mail, each with its lines"
    at = 0
    for part in parts:
        found = next((i for i in range(at, len(real) - len(part) + 1)
                      if real[i:i + len(part)] == part), None)
        assert found is not None, f"not in the mail the referee writes (after line {at}): {part}"
        at = found + len(part)
    assert parts[0][0] == real[0] and parts[-1][-3:] == real[-3:], "Subject to receipt"
    assert parts[-1][-3].startswith("Order key: ")
    assert parts[-1][-2].startswith("Fingerprint: ")

