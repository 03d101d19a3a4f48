"""A side named as a person reads it: by its name from the game's data ('German',
'Entente'), never by its id ('german'), in every prompt of the engine, every refusal that
names a side, the deadline outputs and the mails' subjects; and each said once: the
situation line names whom the game waits on, so the prompt after it names him no more
('Waiting on the Entente player: play an Offensive-type card or pass...', not 'Waiting on
Entente: entente player turn...'). What scripts read (JSON ids, the subject's tag) is
unchanged."""

from __future__ import annotations

import json
import random
import re

import pytest
from commandclock import clock  # noqa: F401  (the fixture)
from forging import records

import casebook
import gamecalls as g
from referee.base.gameids import REFEREE_TAG
from referee.contracts.orders import Pass, PlayCard
from referee.engine import check, decide, decide_plan, legal_orders, pending_prompt, sealed_for
from referee.engine.order_text import format_order
from referee.mail.claims import claimant
from referee.mail.subjects import table_subject
from referee.mail.tick import Game
from referee.store.dice import Dice
from referee.store.secrets import load_secret
from referee.table import Table

# A side's id as a word of a sentence, which a person reads as a typo of its name.
SIDE_ID = re.compile(r"\b(german|entente)\b")


def _prompts(journal, records: int, seed: int) -> dict[str, str]:
    """Random legal play from the journal's position (not written): the prompt of each kind
    of decision met, the first time it is met."""
    game = g.open_game(journal)
    state, data = game.state, game.data
    secret = load_secret(journal, game.header)
    rng, seen = random.Random(seed), {}
    for n in range(records):
        if state.phase == "over":
            break
        seen.setdefault(state.pending.kind, pending_prompt(state, data))
        side = state.pending.side
        order = rng.choice([o for o in legal_orders(state, data, side)
                            if o.kind not in ("armistice", "surrender")])
        dice = Dice(game.header["game_id"], state.seq + n + 1, secret)
        if sealed_for(state, side):
            _, state = decide_plan(state, data, [(format_order(order), order)], side, dice)
        else:
            _, state = decide(state, data, order, side, dice, format_order(order))
    return seen


# Random play from the opening: (seed, records) runs whose prompts are read, and the kinds
# of decision they must meet besides the usual ones. TTLM's two short runs meet every kind
# that 1,500 records of seed 7 met (a battle kept, an empty retreat) and a Military Crisis!,
# in a third of the records.
USUAL = {"card_or_pass", "movement", "losses", "production", "reinforce"}
RUNS = {"ttlm": (((13, 330), (20, 190)),
                 {"keep_battle", "empty_retreat", "crisis", "discard_excess", "battle_order",
                  "cavalry_retreat", "retreat_after", "defender_cards", "pass_move"}),
        "aac": (((7, 1500),), set())}


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_no_prompt_names_a_side_by_its_id(tmp_path, game, secret_file):
    """Random play in each campaign game: every kind of decision met asks its question
    without naming a side by its id (2.0; 'entente pays 1 hit(s)', 'production: german and
    entente give...', 'german holds 10 cards' were so)."""
    journal = tmp_path / f"{game}.jsonl"
    g.create_game(journal, "1914", game=game, game_id=f"names-{game}",
                  secret_file=secret_file)
    runs, also = RUNS[game]
    seen: dict[str, str] = {}
    for seed, count in runs:
        seen = _prompts(journal, count, seed) | seen
    assert USUAL | also <= set(seen), sorted(USUAL | also - set(seen))
    named = {kind: text for kind, text in seen.items() if SIDE_ID.search(text)}
    assert not named, named


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_situation_names_whom_it_waits_on_once_by_name(game, cli):
    """Opening of 1914, the German player turn (2.0 II.1): status and report say whom the
    game waits on by his name, once; the JSON keeps the side's id for scripts."""
    said = "Waiting on the German player: play an Offensive-type card or pass in this " \
        "player turn, SUMMER 1914 (2.0 II.1)"
    for reader in ("public", "entente", "moderator"):
        for command in ("status", "report"):
            out = _words(cli(command, game, "--as", reader).stdout)
            assert said in out, (reader, command, out)
            assert not SIDE_ID.search(out.split("Waiting on", 1)[1][:200]), out
    mine = _words(cli("status", game, "--as", "german").stdout)
    assert "Waiting on the German player: play an Offensive-type card or pass" in mine
    assert g.open_game(game).state.pending.side == "german"
    assert '"waiting_on": "german"' in cli("status", game, "--format", "json").stdout


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_a_refusal_names_a_side_by_its_name(tmp_path, game, secret_file):
    """The opening of each campaign game, the German player turn (2.0 II.1): the Entente's
    order is not his to give, and the German's card is one his hand does not hold (1.3);
    each refusal names the sides as the data names them ('the German hand'), not by id."""
    journal = tmp_path / f"{game}.jsonl"
    g.create_game(journal, "1914", game=game, game_id=f"refused-{game}",
                  secret_file=secret_file)
    played = g.open_game(journal)
    state, data = played.state, played.data
    held = {data.cards[c].key for c in state.hands["german"]}
    missing = next(k for k, ct in data.card_types.items() if ct.offensive and k not in held)
    other = check(state, data, Pass(), "entente").reason
    assert other.startswith("it is not the Entente player's decision: the referee is waiting "
                            "on the German player ("), other
    lacking = check(state, data, PlayCard(card=missing), "german").reason
    assert f"the German hand holds no {data.card_types[missing].title} card" in lacking
    assert not SIDE_ID.search(other + lacking), (other, lacking)


def test_deadline_and_extend_name_the_side(tmp_path, cli, secret_file, clock):  # noqa: F811
    """`deadline` and `extend` say whose deadline by the side's name ('German: Orders due
    by ...', "record 2: German's deadline ..."); their JSON keeps the id for scripts, and
    the side is still typed by its id on the command line."""
    journal = tmp_path / "timed.jsonl"
    assert cli("new", journal, "--scenario", "1914", "--game-id", "timed", "--secret-file",
               secret_file, "--deadline", "48h").exit_code == 0
    shown = cli("deadline", journal).stdout
    assert shown == "German: Orders due by Wed 25 Nov 18:00 UTC\n", shown
    r = cli("extend", journal, "german", "24h")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(
        "record 3: the German player's deadline for his orders for "), r.stdout
    assert "German's" not in r.stdout, r.stdout
    assert "German: Orders due by Thu 26 Nov 18:00 UTC (extended by 24h)" in r.stdout
    assert not SIDE_ID.search(r.stdout), r.stdout
    refused = cli("extend", journal, "entente", "24h")
    assert refused.exit_code == 1 and "extend: Entente owes no orders" in refused.stderr
    view = json.loads(cli("deadline", journal, "--format", "json").stdout)
    assert [d["side"] for d in view["due"]] == ["german"]


def test_a_report_s_subject_names_the_side_and_an_old_reply_still_finds_its_game(
        tmp_path, secret_file):
    """A mail's subject names its reader's side by name after the game's tag, then the
    season; a reply to it finds its game by the tag, and so does a reply to a report mailed
    by an earlier version ('Re: [referee G #2] german report, ...'), whose tag also names
    the record it ended at (no order key in either: the tag alone claims it)."""
    journal = tmp_path / "subj.jsonl"
    g.create_game(journal, "1914", game_id="subj", secret_file=secret_file)
    table = Table(journal)
    subject = table_subject(table, "german")
    assert subject == "[referee subj] German player, SUMMER 1914", subject
    ours = Game(journal, "subj", "h", None, None, [])
    other = Game(tmp_path / "b.jsonl", "other", "h", None, None, [])
    for reply, record in ((f"Re: {subject}", None),
                          ("Re: [referee subj #2] german report, SUMMER 1914", "2")):
        raw = (f"From: kaiser@example.org\nTo: referee@example.org\nSubject: {reply}\n"
               f"Message-ID: <r@example.org>\n\npass\n").encode()
        assert claimant(raw, [other, ours]) is ours, reply
        assert REFEREE_TAG.search(reply).groups() == ("subj", record), reply


def test_the_skirmish_names_its_own_sides_by_name(patrol, cli):
    """The skirmish's sides are its scenario's (the patrol: british, german), both owing
    the movement phase's tests once a British unit has moved: status and report say whom
    the game waits on by name ('the British and German players'); the JSON keeps the ids."""
    assert cli("order", patrol, "--as", "british", "move B2 mode=manoeuvre command=yes"
               ).exit_code == 0
    waiting = "the British and German players"
    status = _words(cli("status", patrol).stdout)
    assert f"Waiting on {waiting}: turn 1, movement phase (units move in turn: a German " \
        "unit next; until it moves, the British side may finish moving section B): the " \
        "tests" in status, status
    report = _words(cli("skirmish", "report", patrol).stdout)
    assert f"movement phase Waiting on {waiting} No off-table artillery in this scenario: " \
        f"its phase is passed over Tests:" in report, report
    assert f"Waiting on {waiting}: turn 1, movement phase" in report, report
    view = json.loads(cli("status", patrol, "--format", "json").stdout)
    assert view["waiting_on"] == ["british", "german"]


# The patrol's sides by their ids, as words of a sentence.
SKIRMISH_ID = re.compile(r"\b(british|german)\b")


def test_a_skirmish_test_names_its_side_by_name(patrol, cli):
    """The patrol's first test, the British move (Movement): the line of the test, as
    `skirmish order` prints it, `log` lists it, `explain` tells it and the report lists it
    with the forces, says '#1 British:', not the scenario's id 'british', and `dice` counts
    the die on the British row; the JSON keeps the id."""
    order = "move B2 mode=manoeuvre command=yes"
    r = cli("skirmish", "order", patrol, "--as", "british", order)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == f"#1 British: {order}", r.stdout
    assert cli("log", patrol).stdout.splitlines()[1] == f"#1 British: {order}"
    assert f"#1 British: {order}" in cli("explain", patrol, "1").stdout
    report = cli("skirmish", "report", patrol).stdout
    assert f"\nTests:\n#1 British: {order}\n" in report, report
    assert "\n British:\n" in report and "\n German:\n" in report, report
    assert not SKIRMISH_ID.search(report), report
    dice = cli("dice", patrol).stdout
    assert re.search(r"\nBritish +D6 +1 ", dice) and not SKIRMISH_ID.search(dice), dice
    doc = json.loads(cli("skirmish", "report", patrol, "--format", "json").stdout)
    assert doc["tests"][0]["side"] == "british"


def test_a_crisis_left_unanswered_is_told_naming_the_side_by_name(tmp_path, cli):
    """The rulebook's case of 9.8 (tests/rulebook/9.8-crisis-with-too-few-units.yaml): the
    Crisis in Italy asks the Entente for 3 infantry and the map holds 2, so the crisis ends
    unanswered (3.1). The recorded event keeps the engine's words, side id and all (verify
    compares them with a replay; older journals hold them); the log and the report tell
    them with the side's name."""
    sc = casebook.position("1914", turn=12, player="german",
                           hands={"german": ["crisis-entente-01", "off-01"],
                                  "entente": ["off-03"]},
                           units=["ge-i-01 ge infantry metz", "fr-i-02 fr infantry paris",
                                  "fr-1 fr army vosges 1I+1A", "be-i-01 be infantry liege"])
    journal = casebook.new_game(tmp_path, sc)
    r = g.submit(journal, "german", ["play entente_military_crisis"])
    assert r.rejected is None
    [ended] = [e for rec in records(journal) for e in rec.get("events", [])
               if e["type"] == "CrisisEnded"]
    assert ended["reason"] == "the entente player had only 2 eligible unit(s) on the map"
    told = "Entente does not answer the crisis (the Entente player had only 2 eligible " \
        "units on the map): 1 VP to the other side (3.1)"
    for command in ("log", "report"):
        out = _words(cli(command, journal, "--as", "german").stdout)
        assert told in out, (command, out)
        assert not SIDE_ID.search(out[out.index("the crisis ("):][:80]), out


def test_orders_past_a_hand_off_are_told_whom_it_goes_to_by_name(game, cli):
    """The German passes and ends his player turn (2.0 II.1), which hands the decision to the
    Entente: a dry run stops there and an all-or-nothing batch is refused at the order
    after it, each naming the Entente by its name."""
    before = game.read_bytes()
    dry = cli("order", game, "--as", "german", "--dry-run", "pass", "end turn", "pass")
    assert dry.exit_code == 0, dry.output
    assert "stopped: order 2 ('end turn') is legal and hands the decision to the Entente " \
        "player; the dry run stops there" in dry.stdout, dry.stdout
    whole = cli("order", game, "--as", "german", "--atomic", "pass", "end turn", "pass")
    assert whole.exit_code == 1 and game.read_bytes() == before, whole.output
    assert "follows order 2 ('end turn'), which hands the decision to the Entente player;" \
        in whole.stderr, whole.stderr
    assert not SIDE_ID.search(dry.stdout + whole.stderr), (dry.stdout, whole.stderr)
