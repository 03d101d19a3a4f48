"""What the guides promise a player about his moderator, held to what the referee does: a
moderator who edits a mail before `inbox` reads it has it applied as the side's mail, and
without dice sheets its new wording gives other dice (a sheet stops it); a receipt proves a
rewrite to the player who kept the mail, not to others; a player with no answer to his mail
is told what to do (docs/player.md, docs/security.md)."""

from __future__ import annotations

import hashlib
import shutil

from test_sheets import (
    GERMAN,
    OPENING_MAIL,
    ROOT,
    _inbox,
    _mail,
    _mail_game,
    records,
    rolled,
)

PLAYER = (ROOT / "docs" / "player.md").read_text(encoding="utf-8")
SECURITY = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")


def _words(text: str) -> str:
    return " ".join(text.split())


def _as_worded(tmp_path, cli, sheets_for, last: str):
    """The German's opening mail with its last line (the one that rolls) worded `last`, read
    by `inbox` in a copy of the same game: (the record that rolled, the public order lines)."""
    folder = tmp_path / last.replace(" ", "_")
    folder.mkdir()
    path, _, keys = _mail_game(folder, sheets_for)
    lines = [*OPENING_MAIL[:-1], last]
    if sheets_for:
        lines.append(f"Link: {GERMAN[1]}")
    out, _ = _inbox(cli, path, folder, [_mail("german", lines, keys["german"], 1)], "box")
    assert out[0]["status"] == "applied", out
    rec = rolled(records(path))[-1]
    assert "mail" in rec and rec.get("by") not in ("hand", "deadline", "referee")
    shutil.rmtree(folder / "box")
    return rec, [t for t in lines if t != "move ge-4:cavalry ardennes" and
                 not t.startswith("Link:")]


def test_a_mail_re_worded_before_inbox_gives_other_dice_without_a_sheet(tmp_path, cli):
    sent, lines = _as_worded(tmp_path, cli, (), "done")
    edited, edited_lines = _as_worded(tmp_path, cli, (), "Done")       # the moderator's edit
    assert edited["dice"] != sent["dice"] and edited["seq"] == sent["seq"]
    # The digest fits the mail as edited; only the player's own lines tell it from his.
    mine = hashlib.sha256("".join(t + "\n" for t in lines).encode()).hexdigest()
    read = hashlib.sha256("".join(t + "\n" for t in edited_lines).encode()).hexdigest()
    assert sent["dice_from"]["mail"] == mine and edited["dice_from"]["mail"] == read != mine
    row = _words(next(t for t in PLAYER.splitlines() if t.startswith("| the moderator alone")))
    assert "yes by re-wording the mail" in row and "a dice sheet stops it" in row
    assert "never a mail re-worded before the referee read it" in row
    assert "has to change the referee's code" not in _words(SECURITY)
    assert "edit the player's mail before `inbox` reads it" in _words(SECURITY)


def test_a_dice_sheet_makes_the_wording_count_for_nothing(tmp_path, cli):
    sent, _ = _as_worded(tmp_path, cli, ("german",), "done")
    edited, _ = _as_worded(tmp_path, cli, ("german",), "Done")
    assert edited["dice"] == sent["dice"] and sent["dice"]
    assert "mail" not in sent["dice_from"]


def test_the_guide_says_what_a_receipt_proves_and_to_whom():
    text = _words(PLAYER)
    assert "Whoever holds the journal can prove" not in text
    assert "proof, to anyone with your mail and the journal" in text
    assert "proves the rewrite only to you, who kept the mail" in text


def test_the_guide_says_what_to_do_when_no_answer_comes():
    text = _words(PLAYER)
    assert "When no answer comes to a mail of yours, keep the copy you sent" in text
    assert "ask the moderator whether it came" in text
    assert "`⚑ the referee's default: the deadline passed` when the deadline ran out" in text
