"""Where a record's dice came from, as a report tells it (render/dice_words.py): one sentence
of at most three lines at 72 columns, a phone's width, for every kind of source the referee
writes — a link of a sheet, a mail's digest, the referee's own answer, a phase of sealed
plans, orders by hand, manual dice, a record of older rules — with what it mixes in (the
first digits of a link or a digest), the stream that keys it, what is true of who could
foresee or choose it (docs/player.md, Who can foresee a die) and where an audit checks it.
`log` keeps its own lines, the values whole (tests/test_sheets.py, test_dice_choice.py)."""

from __future__ import annotations

import json
from datetime import timedelta

from test_dice_choice import START, _at_production, _silent_german
from test_sheets import (
    GAME,
    GERMAN,
    SECRET,
    SHEETS,
    _to_first_roll,
    records,
    rolled,
    rules7_game,
)

import casebook
import gamecalls as g
from referee.base.clock import NOW_VARIABLE
from referee.cli.demo import DEMO_OPENING
from referee.mail.reminders import check_deadlines
from referee.store import dice as dm

NEITHER = "nobody alone could foresee or choose them"
FORESEE = "the moderator could foresee, not choose them"


def _told(cli, path, seq: int, reader: str = "german") -> str:
    """The report's one item that says where record seq's dice came from, checked to be one
    to three lines of at most 72 columns, its lines joined: plain words first (what chose
    the dice, who could have), then what an audit needs (the mix's first digits, the stream,
    `explain N`), which two lines of a phone's width do not hold."""
    report = cli("report", path, "--as", reader, "--since", str(seq - 1)).stdout
    items, item = [], None
    for line in report.splitlines():
        if line.startswith("- "):
            item = [line]
            items.append(item)
        elif line.startswith("  ") and item is not None:
            item.append(line)
        else:
            item = None
    said = [it for it in items
            if " ".join(x.strip() for x in it).endswith(f"explain {seq}).")]
    assert len(said) == 1, report
    assert len(said[0]) <= 3 and all(len(line) <= 72 for line in said[0]), said[0]
    return " ".join(line.strip() for line in said[0])[2:]


def test_a_link_of_a_sheet(tmp_path, cli):
    """The German's batch reveals link 1 and rolls with it: one sentence names the link and
    its first digits, the stream, and that neither could choose the dice alone; the link's
    own line, its 64 digits, stays in `log`."""
    path, _ = _to_first_roll(tmp_path)
    g.submit(path, "german", ["done"], link=GERMAN[1])
    rec = rolled(records(path))[-1]
    assert rec["dice_from"] == {"links": [rec["link"]], "stream": "german.1"}
    assert _told(cli, path, rec["seq"], "entente") == (
        f"Dice fixed by German's dice sheet: {NEITHER} (for an "
        f"audit: link 1 {GERMAN[1][:8]}, keyed german.1; explain {rec['seq']}).")
    report = cli("report", path, "--as", "entente", "--since", str(rec["seq"] - 1)).stdout
    assert GERMAN[1] not in report
    log = " ".join(cli("log", path, "--since", str(rec["seq"] - 1)).stdout.split())
    assert f"link 1 of German's dice sheet: {GERMAN[1]}" in log
    assert "its dice mix in German's link 1, keyed german.1" in log


def test_the_referees_answer(tmp_path, monkeypatch, cli):
    """The referee's default for the German silent past his deadline rolls: nothing of his
    is mixed in, so the moderator could foresee the dice; keyed by the German's count, he
    could not choose them."""
    path, _ = _silent_german(tmp_path, monkeypatch)
    check_deadlines(path, tmp_path / "out", START + timedelta(hours=49))
    rec = next(r for r in records(path) if r.get("by") == "deadline" and r.get("dice"))
    assert _told(cli, path, rec["seq"]) == (
        f"Dice fixed by the sealed secret alone: {FORESEE} (for an audit: keyed german.1; "
        f"explain {rec['seq']}).")


def test_the_referees_answer_closing_a_phase_of_sealed_plans(tmp_path, monkeypatch, cli):
    """The referee gives the silent German's production plan; its record closes the phase
    with the Entente's plan link, public by then: the moderator could foresee the draws."""
    monkeypatch.setenv(NOW_VARIABLE, START.strftime("%Y-%m-%dT%H:%M:%SZ"))
    journal, _, nxt = _at_production(tmp_path / "g")
    assert cli("deadline", journal, "--set", "48h", "--missed", "default").exit_code == 0
    g.submit(journal, "entente", ["done"], link=SHEETS["entente"][nxt["entente"]])
    check_deadlines(journal, tmp_path / "out", START + timedelta(hours=49))
    rec = next(r for r in records(journal)[1:] if r.get("by") == "deadline")
    assert rec["dice_from"]["stream"] == "plans-production.3"
    assert _told(cli, journal, rec["seq"]) == (
        f"Dice fixed by Entente's dice sheet, its link shown before: "
        f"{FORESEE} (for an audit: link {nxt['entente']}, keyed plans-production.3; explain "
        f"{rec['seq']}).")


def test_a_phase_of_sealed_plans(tmp_path, cli):
    """Both sides' production plans, each with its link: the record closing the phase mixes
    in both, keyed by the phase."""
    journal, _, nxt = _at_production(tmp_path / "g")
    for side in ("german", "entente"):
        g.submit(journal, side, ["done"], link=SHEETS[side][nxt[side]])
    rec = records(journal)[-1]
    assert rec["dice_from"]["stream"] == "plans-production.3"
    assert _told(cli, journal, rec["seq"], "entente") == (
        f"Dice fixed by both sides' dice sheets: {NEITHER} (for an "
        f"audit: keyed plans-production.3; explain {rec['seq']}).")


def test_a_phase_closed_by_a_side_without_a_sheet(tmp_path, cli):
    """Only the German holds a sheet: his plan reveals his link first, then the Entente's
    plan, typed by hand, closes the phase. The closing record mixes in the German's link,
    shown a record before: whoever holds the secret could foresee its draws then, though
    which plan closed the phase moves none."""
    journal, _, nxt = _at_production(tmp_path / "g", sides=("german",))
    g.submit(journal, "german", ["done"], link=SHEETS["german"][nxt["german"]])
    g.submit(journal, "entente", ["done"])
    rec = records(journal)[-1]
    assert rec["dice_from"]["stream"] == "plans-production.3" and "link" not in rec
    assert _told(cli, journal, rec["seq"], "entente") == (
        f"Dice fixed by German's dice sheet, its link shown before: "
        f"{FORESEE} (for an audit: link {nxt['german']}, keyed plans-production.3; explain "
        f"{rec['seq']}).")


def test_orders_by_hand(tmp_path, cli):
    """Orders typed by hand without a sheet mix in nothing and are keyed by their record's
    number: the moderator could foresee and choose among their dice."""
    path = tmp_path / "h.jsonl"
    secret = tmp_path / "s.secret"
    dm.write_secret(secret, SECRET)
    g.create_game(path, "1914", game_id=GAME, secret_file=secret)
    g.submit(path, "german", DEMO_OPENING + ["done", "done", "done"])
    rec = rolled(records(path))[-1]
    assert "dice_from" not in rec
    assert _told(cli, path, rec["seq"]) == (
        f"Dice fixed by the sealed secret alone: the moderator could foresee and choose "
        f"among them (for an audit: keyed by record {rec['seq']}; explain {rec['seq']}).")


def test_a_shuffle_by_hand(tmp_path, cli):
    """WINTER 1914-15's production plans typed by hand, without sheets: the plan applied last
    closes the phase and the turn's end reshuffles the deck (1.3, 2.0 VI), its only draw,
    with no die rolled. It mixes in nothing and is keyed by its record's number, so the
    moderator could foresee and choose the shuffle as he could such orders' dice."""
    journal = casebook.new_game(tmp_path, casebook.position("1914", turn=3, player="german"))
    (tmp_path / "case.fixed-secret").chmod(0o600)
    for side, line in (("german", "pass"), ("german", "end turn"), ("entente", "pass"),
                       ("entente", "end turn"), ("german", "done"), ("entente", "done")):
        assert g.submit(journal, side, [line]).rejected is None, (side, line)
    rec = records(journal)[-1]
    assert "dice" not in rec and "dice_from" not in rec and rec["by"] == "hand"
    assert [e["draws"] for e in rec["events"] if e["type"] == "DeckShuffled"] == [45]
    for reader in ("german", "public"):
        assert _told(cli, journal, rec["seq"], reader) == (
            f"Shuffle fixed by the sealed secret alone: the moderator could foresee and "
            f"choose among its outcomes (for an audit: keyed by record {rec['seq']}; explain "
            f"{rec['seq']}).")
    # The sentence points to explain: it says where the shuffle's draws lie in the stream.
    # Fisher-Yates places 46 cards by 45 draws, the first at index 0 (no die came before),
    # its HMAC message keyed by the record's number alone (no mix).
    r = cli("explain", journal, str(rec["seq"]), "--as", "public", "--format", "json")
    assert json.loads(r.stdout)["dice"]["shuffles"] == [
        {"cards": 46, "first": 0, "draws": 45, "hmac_input": f"case/{rec['seq']}/0"}]
    text = " ".join(cli("explain", journal, str(rec["seq"]), "--as", "public").stdout.split())
    assert (f"the deck shuffled, 46 cards (1.3): draws 0 to 44 of the stream, from "
            f"HMAC-SHA256(secret, \"case/{rec['seq']}/0\") on") in text, text
    assert "none rolled" not in text



def test_manual_dice(tmp_path, cli):
    """In a game of manual dice the players roll: the report says so, not the secret."""
    path = tmp_path / "m.jsonl"
    secret = tmp_path / "s.secret"
    dm.write_secret(secret, SECRET)
    assert cli("new", path, "--scenario", "1914", "--dice", "manual", "--secret-file",
               secret, "--game-id", GAME).exit_code == 0
    r = cli("order", path, "--as", "german", *DEMO_OPENING, "done", "done", "done",
            "--dice", "1,2")
    assert r.exit_code == 0, r.output
    rec = rolled(records(path))[-1]
    assert _told(cli, path, rec["seq"]) == (
        f"Dice rolled by the players and entered by the moderator (for an audit: manual "
        f"dice; explain {rec['seq']}).")


def test_a_record_of_older_rules(tmp_path, cli):
    """Rules 7 mixed in every side's latest link and keyed a record's dice by its number
    (record 12 of the fixture): the sentence says so, and that the moderator could choose
    among them by writing other records first."""
    path, _, recs = rules7_game(tmp_path)
    assert "stream" not in recs[12]["dice_from"]
    assert _told(cli, path, 12) == (
        "Dice fixed by both sides' dice sheets: the moderator could "
        "choose among them (for an audit: older rules, keyed by record 12; explain 12).")


def test_a_report_says_once_the_dice_of_records_keyed_by_their_number():
    """A forum post of one turn: records typed by hand without a sheet each roll from the
    secret alone, keyed by their number; the sentence is said once, at the foot of what
    happened, not under the first of them (where it read as that record's), naming every
    record it covers and what avoids it; a record whose dice mix in a mail keeps its own."""
    from referee.render.dice_once import DiceOnce
    from referee.render.dice_words import dice_words

    data = g.game_data("ttlm")
    once = DiceOnce(manual=False)
    rolled = [{"seq": n, "actor": "german", "dice": [3]} for n in (21, 22, 25)]
    mailed = {"seq": 26, "actor": "german", "dice": [4],
              "dice_from": {"stream": "german.1", "links": [], "mail": "ab" * 32}}
    told: list[list] = [[] for _ in range(4)]
    for into, rec in zip(told, (*rolled, mailed), strict=True):
        once.add(into, rec, data)
    (foot,) = once.close()
    texts = [[line[0].text for line in lines] for lines in told]
    assert texts[0] == texts[1] == texts[2] == [], texts
    assert foot.spans[0].text == (
        "Dice of records 21, 22 and 25 fixed by the sealed secret alone: the moderator "
        "could foresee and choose among them (for an audit: each keyed by its record's "
        "number; explain N for any of them); a dice sheet for each side avoids this "
        "(docs/player.md, Dice sheets).")
    assert texts[3] == [dice_words(mailed, data)] and "german.1" in texts[3][0]
    # One such record alone keeps its own sentence, by its dice, as before.
    alone = DiceOnce(manual=False)
    lines: list = []
    alone.add(lines, rolled[0], data)
    assert alone.close() == []
    assert [line[0].text for line in lines] == [dice_words(rolled[0], data)]


def test_a_player_s_mail_leads_with_plain_words():
    """In a player's mail the sentence leads with what chose the dice and who could have
    chosen them, in words a player needs no guide for; the link's or digest's first digits
    and the stream come after, "for an audit", with the line he mails to have the record
    explained: three lines at most at a phone's width, side names and numbers long."""
    import textwrap

    from referee.render.dice_words import dice_words

    data = g.game_data("ttlm")
    link = {"side": "german", "no": 1, "value": "8d3835ec" + "0" * 56}
    linked = dice_words({"seq": 12, "actor": "german", "dice": [3], "link": link,
                         "dice_from": {"links": [link], "stream": "german.1"}}, data,
                        mailed=True)
    assert linked == (
        f"Dice fixed by German's dice sheet: {NEITHER} (for an "
        "audit: link 1 8d3835ec, keyed german.1; mail 'explain 12').")
    mailed = dice_words({"seq": 1017, "actor": "entente", "dice": [3],
                         "dice_from": {"mail": "c8802b7f" + "0" * 56,
                                       "stream": "entente.12"}}, data, mailed=True)
    assert mailed == (
        "Dice fixed by Entente's mail as sent: only the moderator could change them, by "
        "editing it (for an audit: digest c8802b7f, keyed entente.12; mail 'explain 1017').")
    for said in (linked, mailed):
        assert len(textwrap.wrap(said, 72, initial_indent="- ",
                                 subsequent_indent="  ")) <= 3, said
