"""A player's note beside his dispute. A tester disputed the cover of a German shot and gave
his reason on a '#' line of the same mail ("B2 was behind the concrete pillbox"); the line
was dropped, and the moderator's mail said only "Disputes for you to settle: record 51's
cover". The note is now kept in the game's mail ledger (never in the journal) while the
dispute is open, and shown quoted as the player's words: to the moderator under the
disputes he is to settle, to each player under the dispute's line of his report (nothing
of a skirmish is secret); a ruling drops it. It is a mail's text: bounded, each line
behind '> ' (none reads as the referee's), within 72 columns, disguising characters
shown as escapes."""

from __future__ import annotations

import email
import json
from email.policy import default

from flowtext import written
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, mailed_patrol

from referee.mail.ledger import load_ledger

FIRED = ("fire B1 at=G2 range=70 state=halted cover=none command=yes",
         "fire B4 at=G3 range=60 state=halted cover=none command=yes")
HEAD = "The German player's note with his dispute of #{}:"


class Played:
    """A patrol played by mail, pass by pass, through `inbox` into one outbox."""

    def __init__(self, cli, tmp_path, secret_file):
        self.cli, self.tmp = cli, tmp_path
        self.j = tmp_path / "patrol.jsonl"
        self.keys = mailed_patrol(cli, self.j, secret_file, "--player", f"moderator={UMPIRE}")
        self.box, self.out, self.n = tmp_path / "mail", tmp_path / "out", 0
        self.box.mkdir()
        self.by = {BRITISH: self.keys["british"], GERMAN: self.keys["german"],
                   UMPIRE: self.keys["moderator"]}
        self.run()

    def run(self, *mails: tuple) -> dict[str, list[str]]:
        """One pass of the mails given (sender, lines...): the texts written, by reader."""
        before = set(self.out.iterdir()) if self.out.exists() else set()
        paths = []
        for who, *lines in mails:
            self.n += 1
            paths.append(mail(self.box, self.n, who, self.by[who], *lines))
        none = self.tmp / "none.mbox"
        none.touch()
        r = self.cli("inbox", self.j, *(paths or [none]), "--outbox", self.out)
        assert r.exit_code == 0, r.output
        got: dict[str, list[str]] = {}
        for p in sorted(set(self.out.iterdir()) - before):
            m = email.message_from_bytes(p.read_bytes(), policy=default)
            got.setdefault(str(m["To"]), []).append(written(m.get_body(("plain",)).get_content()))
        return got

    def to_fire(self) -> list[int]:
        """Both sides through the movement phase and the veterans' step; the British shots
        (FIRED): their records."""
        self.run((BRITISH, "move B2 mode=manoeuvre command=yes", "done"), (GERMAN, "done"),
                 (BRITISH, "done"), (GERMAN, "done"))
        self.run((BRITISH, *FIRED))
        return [r["seq"] for r in self.records() if r.get("actor") == "british"][-2:]

    def records(self) -> list[dict]:
        return [json.loads(x) for x in self.j.read_text().splitlines() if x.strip()]

    def notes(self) -> dict:
        head = self.records()[0]
        return load_ledger(head["game_id"], head["hash"]).get("dispute_notes", {})


def _within(texts: list[str]) -> None:
    for text in texts:
        assert max(map(len, text.splitlines())) <= 72, text


def _note(text: str, record: int) -> list[str]:
    """The lines of the note shown under its heading in a mail's text (the '> ' lines)."""
    lines = text.splitlines()
    at = lines.index(HEAD.format(record))
    out = []
    for line in lines[at + 1:]:
        if not line.startswith("> "):
            break
        out.append(line[2:])
    return out


def test_a_dispute_s_note_reaches_the_moderator_quoted_and_both_players(
        cli, tmp_path, secret_file):
    p = Played(cli, tmp_path, secret_file)
    shot, _ = p.to_fire()
    got = p.run((GERMAN, f"dispute record={shot} fact=range value=85",
                 "# G2 stood 85 inches away: I measured it twice from the hedge."))
    (asked,) = got[UMPIRE]
    paragraphs = asked.split("\n\n")
    assert paragraphs[0].startswith("Disputes for you to settle: ")
    assert paragraphs[1] == f"{HEAD.format(shot)}\n> G2 stood 85 inches away: I measured " \
        "it twice from the hedge.", asked
    assert paragraphs[2].startswith("Report for the moderator"), asked
    # The other player reads it too, under the dispute in his report, and so does its author.
    for reader in (BRITISH, GERMAN):
        (text,) = got[reader]
        assert _note(text, shot) == ["G2 stood 85 inches away: I measured it twice from "
                                     "the hedge."], text
    _within([t for texts in got.values() for t in texts])
    # Kept beside the journal, never in it; the dispute recorded as it was.
    assert "measured" not in p.j.read_text()
    (dispute,) = [r for r in p.records() if r.get("dispute")]
    assert dispute["dispute"] == {"record": shot, "fact": "range", "declared": 70,
                                  "claimed": "85"}
    assert list(p.notes()) == [str(dispute["seq"])]


def test_a_second_mail_s_note_for_another_dispute_is_shown_beside_the_first(
        cli, tmp_path, secret_file):
    p = Played(cli, tmp_path, secret_file)
    first, second = p.to_fire()
    p.run((GERMAN, f"dispute record={first} fact=range value=85", "# the hedge, 85 inches"))
    got = p.run((GERMAN, f"dispute record={second} fact=cover value=soft",
                 "# G3 was in the wood"))
    (asked,) = got[UMPIRE]
    assert _note(asked, first) == ["the hedge, 85 inches"], asked
    assert _note(asked, second) == ["G3 was in the wood"], asked
    assert asked.index(HEAD.format(first)) < asked.index("Report for the moderator")
    assert len(p.notes()) == 2


def test_a_note_over_the_bounds_is_cut_and_cannot_pass_for_the_referee(
        cli, tmp_path, secret_file):
    p = Played(cli, tmp_path, secret_file)
    shot, _ = p.to_fire()
    long_word = "x" * 300
    got = p.run((GERMAN, f"dispute record={shot} fact=range value=85",
                 "# Your mail was recorded: #99", f"# {long_word}",
                 "# right\u202eto left", "# four", "# five", "# six", "# seven"))
    (asked,) = got[UMPIRE]
    quoted = _note(asked, shot)
    assert quoted[0] == "Your mail was recorded: #99"
    assert "\nYour mail was recorded: #99" not in asked
    assert "".join(quoted[1:4]) == "x" * 200 + " [cut]", quoted
    assert "right\\u202eto left" in quoted and "\u202e" not in asked
    assert quoted[-1] == "five [cut]" and "six" not in asked
    _within([t for texts in got.values() for t in texts])
    (entry,) = p.notes().values()
    assert len(entry["lines"]) == 5 and max(map(len, entry["lines"])) <= 200 + len(" [cut]")


def test_a_settle_drops_the_note(cli, tmp_path, secret_file):
    p = Played(cli, tmp_path, secret_file)
    shot, _ = p.to_fire()
    p.run((GERMAN, f"dispute record={shot} fact=range value=85", "# 85 inches, I measured"))
    assert p.notes()
    got = p.run((UMPIRE, f"settle record={shot} fact=range value=85"))
    assert p.notes() == {}
    texts = [t for texts in got.values() for t in texts]
    assert texts and not any("I measured" in t or "player's note" in t for t in texts)


def test_a_note_without_a_dispute_keeps_nothing(cli, tmp_path, secret_file):
    """A mail's '#' lines are kept only beside a dispute it raised: neither one without a
    dispute, nor for a dispute another mail raised (its note stays as it came)."""
    p = Played(cli, tmp_path, secret_file)
    first, second = p.to_fire()
    p.run((GERMAN, "# my lads wait", "done"))
    assert p.notes() == {}
    p.run((GERMAN, f"dispute record={first} fact=range value=85", "# the hedge"))
    (kept,) = p.notes().values()
    p.run((GERMAN, "# and G3 was in the wood", "done"))
    assert list(p.notes().values()) == [kept] and kept["lines"] == ["the hedge"]
    got = p.run((GERMAN, f"dispute record={second} fact=cover value=soft"))
    (asked,) = got[UMPIRE]
    assert _note(asked, first) == ["the hedge"] and HEAD.format(second) not in asked
    assert "lads" not in asked and "wood" not in asked
