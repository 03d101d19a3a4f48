"""`tick` exits non-zero, in one line at every pass, whenever a game waits on someone the
players' mail and deadlines cannot move: orders held for the moderator's dice in a
manual-dice game (he is mailed once), or a side with no address to mail."""

from __future__ import annotations

import email
import email.policy
import json
import re
import shlex

from flowtext import written
from mailboxes import write_maildir
from ticklines import problem_text, problems

import gamecalls as g
from casebook import new_game, position
from referee.mail.ledger import load_ledger, save_ledger

MODERATOR = "umpire@example.com"


def routed(cli, j, tmp_path, box_name: str = "box"):
    box, out = tmp_path / box_name, tmp_path / "out"
    write_maildir(box, [])
    assert cli("mail", j, "--in", str(box), "--out", f"outbox:{out}").exit_code == 0
    return box, out


def held_for_dice(tmp_path, cli, lines=("done", "done"), date: str | None = None,
                  name: str = "case"):
    """A manual-dice game whose Entente has just mailed two 'done' that roll dice (or the
    lines given; not yet read; dated when a date is given): its journal, mailbox and
    outbox folder (another game of the folder, by another name, has a mailbox of its own
    and the same outbox)."""
    sc = position("1916", player="german", hands={"german": ["off-01"], "entente": []})
    j = new_game(tmp_path, sc, dice="manual", name=name)
    assert cli("players", j, "--set", "german=g@example.org", "--set",
               "entente=e@example.org", "--set", f"moderator={MODERATOR}").exit_code == 0
    key = {p["side"]: p["key"] for p in json.loads(
        cli("players", j, "--keys", "--format", "json").stdout)["players"] if "key" in p}
    assert g.submit(j, "german", ["play offensive", "move ge-5 verdun",
                                  "end movement"]).rejected is None
    box, out = routed(cli, j, tmp_path, "box" if name == "case" else f"box-{name}")
    r = cli("tick", j, "--no-map")
    assert r.exit_code == 0, r.output            # the reports: the game waits on a player
    dated = f"\nDate: {date}" if date else ""
    write_maildir(box, [(f"From: e@example.org\nSubject: orders\nMessage-ID: <m1@example.org>"
                         f"{dated}\n\n{chr(10).join(lines)}\n\nOrder key: {key['entente']}\n"
                         ).encode()])
    return j, box, out


def test_orders_held_for_dice_make_every_pass_say_the_game_waits_on_the_moderator(
        tmp_path, cli):
    j, box, out = held_for_dice(tmp_path, cli)
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert r.exit_code != 0, r.output
        [line] = [x for x in problems(r) if "waits on the moderator" in x]
        # The orders held, and the dice they roll: three when the artillery hits (losses
        # are then his to take), 21 when every die misses and the battle runs on.
        assert "the Entente player's orders ('done', 'done') need 3 to 21 dice" in line, line
        assert f"referee order {j} --as entente --dice" in line, line
    told = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in out.glob("held-*moderator.eml")]
    assert [str(m["To"]) for m in told] == [MODERATOR]          # once, to him
    text = written(told[0].get_body(("plain",)).get_content())
    assert "JOURNAL" not in text and "3 to 21 dice" in " ".join(text.split()), text
    # Every line within 72 columns, but the one naming the journal (a path is never split).
    assert all(len(ln) <= 72 or ln == f"  referee order {j} \\" for ln in text.splitlines())
    # Nobody else reads what the Entente's orders were.
    others = [p.read_text() for p in out.glob("*.eml") if not p.name.startswith("held-")]
    assert not any("DICE" in x or "mailed orders need dice" in x for x in others)
    # He copies the command the mail gives, with the dice he rolled: the game moves, and
    # the line goes.
    command = text[text.index("  referee order"):].replace(" \\\n", " ")
    words = shlex.split(command.replace("DICE", ",".join(["6"] * 21)))
    assert words[:2] == ["referee", "order"] and words[-2:] == ["done", "done"], words
    r = cli(*words[1:])
    assert r.exit_code == 0, r.output
    r = cli("tick", j, "--no-map")
    assert "waits on the moderator" not in r.output, r.output


def test_a_held_line_never_becomes_an_option_of_the_command_mailed(tmp_path, cli):
    """The held lines are the player's, and the moderator's mail gives them as arguments of
    a command he copies: a line that reads as an option of `order` ('--dice=...' between
    two orders) once replaced the dice he rolls with the player's own (the last --dice
    wins), or (--as=) named the other side. Every line after the options is an order."""
    chosen = ",".join(["1"] * 21)
    j, box, out = held_for_dice(tmp_path, cli, ("done", f"--dice={chosen}", "done"))
    assert cli("tick", j, "--no-map").exit_code != 0
    [held] = out.glob("held-*moderator.eml")
    text = email.message_from_bytes(held.read_bytes(), policy=email.policy.default
                                    ).get_body(("plain",)).get_content()
    command = text[text.index("  referee order"):].replace(" \\\n", " ")
    rolled = ",".join(["6"] * 21)                       # the moderator's dice
    words = shlex.split(command.replace("DICE", rolled))
    r = cli(*words[1:])
    assert r.exit_code == 1 and f"--dice={chosen}" in r.stderr, r.output  # refused, an order
    dice = [json.loads(x).get("dice") for x in j.read_text().splitlines()]
    assert dice[-1] == [6, 6, 6], dice[-1]              # the first 'done': his dice, not 1s


def test_orders_held_under_an_older_ledger_still_name_the_journal(tmp_path, cli):
    """A ledger an older referee kept holds only the record orders wait at: the game still
    waits on the moderator, and his mail names the journal in the command to type."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("tick", j, "--no-map").exit_code != 0
    before = set(out.glob("held-*moderator.eml"))
    head = json.loads(j.read_text().splitlines()[0])
    ledger = load_ledger(head["game_id"], head["hash"])
    ledger["held"] = {side: entry["seq"] for side, entry in ledger["held"].items()}
    save_ledger(ledger)
    r = cli("tick", j, "--no-map")
    told = problem_text(r)
    assert r.exit_code != 0 and "the Entente player's orders need dice" in told, r.output
    assert "as his mail gives them" in told, told
    [old] = set(out.glob("held-*moderator.eml")) - before
    said = " ".join(email.message_from_bytes(old.read_bytes(), policy=email.policy.default)
                    .get_body(("plain",)).get_content().split())
    assert f"`referee order {j} --as entente --dice ...`" in said, said


def test_a_side_with_no_address_is_a_game_waiting_on_the_moderator(tmp_path, cli):
    sc = position("1916", player="german", hands={"german": [], "entente": []})
    j = new_game(tmp_path, sc)
    assert cli("players", j, "--set", "entente=e@example.org").exit_code == 0
    routed(cli, j, tmp_path)
    r = cli("tick", j, "--no-map")
    assert r.exit_code != 0
    assert "the game waits on the German player, who has no registered address" in \
        problem_text(r), r.output
    assert cli("players", j, "--set", "german=g@example.org").exit_code == 0
    assert cli("tick", j, "--no-map").exit_code == 0


def test_status_as_the_moderator_lists_the_orders_held_for_his_dice(tmp_path, cli):
    """`status --as moderator` (text and JSON) lists the mailed orders held for his dice:
    whose, from which mail (its date, the record they wait at), the dice they roll and the
    command his mail gives to enter them; no other reader's status shows them, and once he
    has entered them they are gone."""
    j, box, out = held_for_dice(tmp_path, cli, date="Tue, 24 Nov 2026 10:00:00 +0000")
    assert cli("tick", j, "--no-map").exit_code != 0              # held; he is told
    at = json.loads(j.read_text().splitlines()[-1])["seq"]
    command = f"referee order {j} --as entente --dice DICE -- done done"
    view = json.loads(cli("status", j, "--as", "moderator", "--format", "json").stdout)
    assert view["held"] == [{"side": "entente", "record": at,
                             "date": "2026-11-24T10:00:00Z", "lines": ["done", "done"],
                             "dice": "3 to 21 dice, by what the first show",
                             "command": command}], view["held"]
    text = cli("status", j, "--as", "moderator").stdout
    flat = " ".join(text.split())
    assert "Orders held for your dice" in text, text
    assert ("The Entente player's mailed orders (mail of Tue 24 Nov 10:00 UTC), held since record "
            f"{at}, roll 3 to 21 dice, by what the first show") in flat, text
    assert command in text, text
    assert "e@example.org" not in text and "e@example.org" not in json.dumps(view)
    for reader in ("german", "entente", "public"):
        for fmt in ("text", "json"):
            said = cli("status", j, "--as", reader, "--format", fmt).stdout
            assert "held" not in said.casefold() and "DICE" not in said, (reader, fmt, said)
    words = shlex.split(command.replace("DICE", ",".join(["6"] * 21)))
    assert cli(*words[1:]).exit_code == 0
    view = json.loads(cli("status", j, "--as", "moderator", "--format", "json").stdout)
    assert "held" not in view, view
    assert "held" not in cli("status", j, "--as", "moderator").stdout.casefold()



def test_orders_held_from_a_mail_dated_past_the_last_year_are_held_undated(tmp_path, cli):
    """A player's mail whose Date is read as after the year 9999 in UTC (31 Dec 9999 at
    23:59 fourteen hours behind UTC): its orders are held as any others, with no date; the
    pass went down on it, at every pass, the player never answered."""
    j, box, out = held_for_dice(tmp_path, cli, date="Fri, 31 Dec 9999 23:59:59 -1400")
    r = cli("tick", j, "--no-map")
    assert "the referee failed" not in r.output and "Traceback" not in r.output, r.output
    assert "waits on the moderator" in problem_text(r), r.output
    view = json.loads(cli("status", j, "--as", "moderator", "--format", "json").stdout)
    assert [(h["side"], h["date"], h["lines"]) for h in view["held"]] == [
        ("entente", None, ["done", "done"])], view["held"]


def test_the_reply_to_orders_held_for_dice_says_so_in_its_first_line(tmp_path, cli):
    """The player's reply for orders held for the moderator's dice: its text says they are
    held and will be applied with his dice, from its first line, which a phone's list of
    mails shows beside the subject (once 'not applied', a refusal's, so that a player
    took them for refused); the subject is his thread's for the season."""
    j, box, out = held_for_dice(tmp_path, cli)
    cli("tick", j, "--no-map")
    [reply] = [m for m in (email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
                           for p in sorted(out.glob("*.eml")))
               if m["In-Reply-To"] == "<m1@example.org>"]
    assert str(reply["To"]) == "e@example.org"
    assert re.fullmatch(r"\[referee [\w-]+\] Entente player, [A-Z]+ \d{4}",
                        str(reply["Subject"])), reply["Subject"]
    assert written(reply.get_body(("plain",)).get_content()).startswith(
        "Your message was not applied yet: your orders need dice")
