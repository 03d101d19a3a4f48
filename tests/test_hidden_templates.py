"""Hidden army templates (optional rule 1.4): outside battles the opponent learns nothing of
what an army holds, nor what enters or leaves it.

The check (`foe_leaks`), for one reader (a side, or the public) and every record as that
reader is given it (`journal.redact`, then the text of `render.text.record_lines`), leaving
out what happens inside a battle (from BattleBegan to BattleEnded, and the orders given while
a battle is being fought, where the fighting armies are seen):

- no string names a unit on another side's army template (`ARMY:KIND`, e.g. `ge-1:infantry`),
- no string says `into ARMY` or `from ARMY` for another side's army,
- no JSON object has `into` or `from_army` equal to another side's army, nor names such an
  army (`army` or `unit`) beside a unit `kind`,
- no clause of a text line (split at ',', ';' and line breaks) names such an army beside a
  unit type.

The same orders played with the option off give the public forms of before (fixed
expectations below); the check finds them, so it fails on the engine as it was before these
events were hidden (which wrote those forms whatever the option).
"""

from __future__ import annotations

import re

import pytest

import gamecalls as g
from casebook import new_game, position
from referee.game.autoplay import autoplay
from referee.render.record_text import describe, record_lines
from referee.store.journal import redact

KINDS = re.compile(r"\b(infantry|cavalry|artillery|siege[ _]gun|paris[ _]gun|biplane|tank|"
                   r"stosstruppen|stoßtruppen|commonwealth)s?\b(?!-type)", re.I)
READERS = ("german", "entente", "public")


def armies_by_side(game) -> dict[str, set[str]]:
    """Every army id of the game, by side."""
    out: dict[str, set[str]] = {"german": set(), "entente": set()}
    for a in game.state.armies.values():
        out[game.data.nation_side[a.nation]].add(a.id)
    return out


def foe_leaks(records: list[dict], reader: str, data, armies: dict[str, set[str]]) -> list[str]:
    """Where reader is told, outside a battle, what another side's army holds (see above)."""
    foes = {a for side, ids in armies.items() if side != reader for a in ids}
    alt = "|".join(sorted(map(re.escape, foes), key=len, reverse=True))
    ref = re.compile(rf"(?<![\w-])(?:{alt}):")
    joins = re.compile(rf"\b(?:into|from) (?:{alt})(?![\w-])")
    named = re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])")
    out: list[str] = []
    fighting = False

    def walk(obj, where: str) -> None:
        if isinstance(obj, str):
            if ref.search(obj) or joins.search(obj):
                out.append(f"{where} = {obj!r}")
        elif isinstance(obj, dict):
            if obj.get("into") in foes or obj.get("from_army") in foes:
                out.append(f"{where} joins or leaves an army: {obj}")
            if obj.get("kind") not in (None, "army") and (obj.get("army") in foes or
                                                           obj.get("unit") in foes):
                out.append(f"{where} gives a unit type in an army: {obj}")
            for k, v in obj.items():
                walk(v, f"{where}.{k}")
        elif isinstance(obj, list):
            for i, v in enumerate(obj):
                walk(v, f"{where}[{i}]")

    for rec in records:
        if rec["seq"] == 0:
            continue
        shown = redact(rec, reader)
        order_seen = not fighting
        outside = []
        for raw, ev in zip(rec["events"], shown["events"]):
            fighting = fighting or raw["type"] == "BattleBegan"
            if not fighting:
                outside.append(ev)
            if raw["type"] == "BattleEnded":
                fighting = False
        where = f"record {rec['seq']} as {reader}"
        if order_seen:
            walk(shown["order"], f"{where}: order")
        for ev in outside:
            walk(ev, f"{where}: {ev['type']}")
        lines = record_lines(dict(shown, events=outside), data, reader)
        for line in lines if order_seen else lines[1:]:
            for clause in re.split(r"[;,\n]", line):
                if ref.search(clause) or joins.search(clause) or (
                        named.search(clause) and KINDS.search(clause)):
                    out.append(f"{where}: text {line.strip()!r}")
                    break
    return out


def all_leaks(journal) -> list[str]:
    """foe_leaks for both sides and the public."""
    game = g.open_game(journal)
    armies = armies_by_side(game)
    return [x for reader in READERS
            for x in foe_leaks(game.records, reader, game.data, armies)]


def hidden_events(journal) -> list[tuple[dict, dict]]:
    """(record, event) for every event of a journal whose details are in a secret part."""
    return [(rec, ev) for rec in g.open_game(journal).records[1:] for ev in rec["events"]
            if "secret" in ev and ev["type"] not in (
                "DeckShuffled", "CardsStacked", "CardsDrawn", "ProductionOrdered", "PlanSealed")]


def owner_sees(journal) -> int:
    """Check that each hidden event's owner gets its details in JSON and text; their number."""
    data = g.open_game(journal).data
    n = 0
    for rec, ev in hidden_events(journal):
        owner = ev["secret"]["to"]
        foe = "entente" if owner == "german" else "german"
        mine = redact(rec, owner)["events"][rec["events"].index(ev)]
        theirs = redact(rec, foe)["events"][rec["events"].index(ev)]
        assert "data" in mine["secret"] and "data" not in theirs["secret"], ev
        seen, neutral = describe(mine, data, owner), describe(theirs, data, foe)
        assert seen != neutral and "hidden" in neutral, (seen, neutral)
        assert describe(mine, data, "moderator") == seen
        n += 1
    return n


def verified(journal, secret) -> None:
    """`referee verify JOURNAL --secret SECRET` passes: every record decided again."""
    report = g.verify(journal, secret)
    assert any("recomputed from the secret" in line for line in report.lines), report.lines


# ---------------------------------------------------------------- positions, orders

def _run(journal, steps) -> None:
    for side, orders, *dice in steps:
        r = g.submit(journal, side, orders, *(dice or [None]))
        assert r.rejected is None, (orders, r.rejected)


HANDS = {"german": ["off-01", "off-02"], "entente": ["off-03"]}

# 2.0 I: the rest of the Entente's AUTUMN 1914 arrivals, placed outside armies (both plans
# are sealed until both are in).
ENTENTE_REST = ["place fr-6 paris", "place fr-9 troyes", "place fr infantry paris",
                "place fr infantry paris"]

CASES = {
    # 2.0 I: reinforcements placed into armies (AUTUMN 1914 arrivals).
    "reinforcements": (
        position("1914", player="entente", passes=1, hands=HANDS), "committed",
        [("entente", ["pass", "end turn"]), ("german", ["done"]), ("entente", ["done"]),
         ("german", ["place ge infantry aachen into ge-1", "place ge infantry luxembourg into ge-4",
                     "place ge infantry eifel"]),
         ("entente", ["place uk infantry england into uk-1"] + ENTENTE_REST)]),
    # 7.2, 7.5: builds into armies, an upgrade on a template, the revealed plans.
    "production": (
        position("1914", turn=13, player="entente", passes=1, hands=HANDS), "committed",
        [("entente", ["pass", "end turn"]),
         ("german", ["upgrade ge-1:infantry", "build ge infantry aachen into ge-2",
                     "build ge infantry eifel", "done"]),
         ("entente", ["build fr tank argonne into fr-4", "entrench fr-4", "done"])]),
    # 6.5: attrition, one kind (no choice; asked all the same when hidden: ASKED_WHEN_HIDDEN)
    # and a choice.
    "attrition": (
        position("1914", player="entente", passes=1,
                 hands={"german": [], "entente": ["ers2-01", "off-03"]},
                 control={"ghent": "german", "brussels": "german", "liege": "german",
                          "namur": "german", "mons": "german", "ardennes": "german",
                          "sedan": "german", "maubeuge": "german"},
                 forts={"fort-liege": 1, "fort-namur": "out", "fort-maubeuge": "out",
                        "fort-sedan": "out"},
                 units=["be-1 be army antwerp 2I", "fr-3 fr army liege 2I+1C",
                        "ge-i-05 ge infantry liege", "ge-i-06 ge infantry namur",
                        "ge-i-07 ge infantry brussels", "ge-i-01 ge infantry metz",
                        "fr-i-02 fr infantry paris"]),
        "committed",
        [("entente", ["pass", "end turn"]), ("entente", ["lose fr-3:cavalry"])]),
    # 9.8: a Military Crisis! answered from an army.
    "crisis": (
        position("1914", turn=4, player="german",
                 hands={"german": ["crisis-entente-01", "off-01"], "entente": ["off-03"]}),
        "committed",
        [("german", ["play entente_military_crisis"]), ("entente", ["remove uk-1:infantry"])]),
    # 2.0 V.4: an army in the EFT box loses a unit of the German's choice.
    "eft": (
        position("1914", player="german", passes=1, hands=HANDS,
                 remove_units=["ge-7", "ge-3"], add_units=["ge-7 ge army colmar 2I+1A"]),
        "manual",
        [("german", ["pass", "eft ge-7", "end turn"]), ("german", ["done"]),
         ("entente", ["done"], "1"), ("german", ["lose ge-7:artillery"])]),
    # 8.2.3: the Canadian unit takes the place of UK infantry in an army.
    "swap": (
        position("1914", turn=5, player="entente", passes=1, hands=HANDS,
                 remove_units=["uk-1"], add_units=["uk-1 uk army calais 2I"]),
        "committed",
        [("entente", ["pass", "end turn"]), ("german", ["done"]), ("entente", ["done"]),
         ("entente", ["swap uk-1:infantry", "place uk infantry england",
                      "place uk cavalry england"])]),
    # 4.3, 8.3.2, 15.4.1: an army takes in a unit, another is suppressed into an army, an
    # army of artillery alone next to enemy infantry loses it at the end of movement.
    "movement": (
        position("1914", player="german", hands=HANDS,
                 remove_units=["ge-3", "ge-1"],
                 add_units=["ge-3 ge army eifel 1A", "ge-1 ge army aachen 1I",
                            "ge-i-05 ge infantry luxembourg", "fr-i-05 fr infantry liege"]),
        "committed",
        [("german", ["play offensive", "suppress ge-1 into ge-2",
                     "move ge-5 luxembourg taking ge-i-05", "move ge-3 liege",
                     "end movement"])]),
    # 8.1: army contents altered within an area in the Production phase (sealed, first in
    # the plan) and in the Reinforcement phase.
    "reorganise": (
        position("1914", player="entente", passes=1, hands=HANDS), "committed",
        [("entente", ["pass", "end turn"]),
         ("german", ["move ge-1:infantry into ge-2", "move ge-4:cavalry", "done"]),
         ("entente", ["move uk-1:cavalry", "done"]),
         ("german", ["move ge-2:infantry into ge-1", "move ge-c-01 into ge-4",
                     "place ge infantry aachen into ge-1",
                     "place ge infantry luxembourg into ge-4", "place ge infantry eifel"]),
         ("entente", ["place uk infantry england into uk-1"] + ENTENTE_REST)]),
}

# What the option-off journals hold: the public forms every journal had before (1.4 off).
PUBLIC = {
    "reinforcements": [
        {"type": "UnitPlaced", "side": "german", "unit": "ge:infantry", "area": "aachen",
         "into": "ge-1"},
        {"type": "UnitPlaced", "side": "german", "unit": "ge:infantry", "area": "luxembourg",
         "into": "ge-4"},
        {"type": "UnitPlaced", "side": "entente", "unit": "uk:infantry", "area": "england",
         "into": "uk-1"}],
    "production": [
        {"type": "ProductionRevealed", "side": "german", "spent": 3, "lost": 5,
         "orders": ["upgrade ge-1:infantry", "build ge infantry aachen into ge-2",
                    "build ge infantry eifel"]},
        {"type": "UnitBuilt", "side": "german", "unit": "ge:infantry", "area": "aachen",
         "into": "ge-2", "cost": 1},
        {"type": "InfantryUpgraded", "side": "german", "unit": "ge-1:infantry"},
        {"type": "UnitBuilt", "side": "entente", "unit": "fr:tank", "area": "argonne",
         "into": "fr-4", "cost": 2}],
    "attrition": [
        {"type": "AttritionTaken", "side": "entente", "army": "be-1", "unit": "be-1:infantry",
         "nation": "be", "kind": "infantry"},
        {"type": "AttritionTaken", "side": "entente", "army": "fr-3", "unit": "fr-3:cavalry",
         "nation": "fr", "kind": "cavalry"}],
    "crisis": [
        {"type": "CrisisUnitRemoved", "side": "entente", "unit": "uk-1:infantry",
         "nation": "uk", "kind": "infantry", "area": "england"}],
    "eft": [
        {"type": "EftLossesDue", "bp": 4, "dice": [1], "losses": 1},
        {"type": "EftUnitLost", "unit": "ge-7:artillery", "nation": "ge", "kind": "artillery"}],
    "swap": [
        {"type": "CommonwealthSwapped", "side": "entente", "unit": "uk-canadian",
         "name": "Canadian", "replaced": "uk-1:infantry", "area": "calais"}],
    "movement": [
        {"type": "ArmySuppressed", "side": "german", "army": "ge-1", "area": "aachen",
         "into": "ge-2", "new_ids": {}},
        {"type": "UnitMoved", "side": "german", "mode": "normal", "from_area": "thionville",
         "to_area": "luxembourg", "path": ["luxembourg"], "unit": "ge-5", "kind": "army",
         "nation": "ge", "taking": ["ge-i-05"], "entrenched": False},
        {"type": "PieceEliminated", "side": "german", "unit": "ge-3:artillery", "nation": "ge",
         "kind": "artillery", "area": "liege", "rule": "8.3.2",
         "reason": "without Friendly infantry-type units in an area with enemy infantry-type "
                   "units, at the end of the movement phase"}],
    "reorganise": [
        {"type": "ProductionRevealed", "side": "german", "spent": 0, "lost": 10,
         "orders": ["move ge-1:infantry into ge-2", "move ge-4:cavalry"]},
        {"type": "UnitMoved", "side": "german", "mode": "reorganise", "from_area": "aachen",
         "to_area": "aachen", "path": [], "unit": "ge-1:infantry", "kind": "infantry",
         "nation": "ge", "from_army": "ge-1", "into": "ge-2", "taking": [],
         "entrenched": False},
        {"type": "UnitMoved", "side": "german", "mode": "reorganise", "from_area": "luxembourg",
         "to_area": "luxembourg", "path": [], "unit": "ge-c-01", "kind": "cavalry",
         "nation": "ge", "into": "ge-4", "taking": [], "entrenched": False}],
}


# Orders given only with the option on: under hidden templates an army with one kind it can
# lose is asked all the same (6.5, supply.py), so that being asked tells nothing.
ASKED_WHEN_HIDDEN = {"attrition": [("entente", ["lose be-1:infantry"])]}


# Hidden, a build into an army and an upgrade on a template are one event, whose details
# (which of the two it is among them) only their owner reads.
HIDDEN_AS = {"UnitBuilt": "TemplateChanged", "InfantryUpgraded": "TemplateChanged"}


def _case(tmp_path, name: str, hidden: bool):
    """The case played with the option on or off; same game id and secret either way."""
    sc, dice, steps = CASES[name]
    folder = tmp_path / ("on" if hidden else "off")
    folder.mkdir(exist_ok=True)
    journal = new_game(folder, sc, {"hidden_templates": hidden, "suppressing_armies": True},
                       dice, name=name)
    _run(journal, steps + (ASKED_WHEN_HIDDEN.get(name, []) if hidden else []))
    return journal


def _events(journal) -> list[dict]:
    return [ev for rec in g.open_game(journal).records[1:] for ev in rec["events"]]


def _units(state) -> tuple:
    return ({a.id: (a.status, a.area, dict(a.contents)) for a in state.armies.values()},
            {p.id: (p.nation, p.kind, p.area) for p in state.pieces.values()},
            {n: dict(row) for n, row in state.pool.items()})


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_way_into_or_out_of_an_army_is_hidden(tmp_path, name):
    on = _case(tmp_path, name, True)
    assert all_leaks(on) == []
    hidden = {ev["type"] for _, ev in hidden_events(on)}
    assert {HIDDEN_AS.get(e["type"], e["type"]) for e in PUBLIC[name]} <= hidden, hidden
    assert owner_sees(on) >= len(PUBLIC[name])
    # The details replay from the secret parts into the same armies, units and pool.
    off = _case(tmp_path, name, False)
    assert _units(g.open_game(on).state) == _units(g.open_game(off).state)
    verified(on, on.with_name(f"{name}.fixed-secret"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_without_the_option_the_events_are_public_as_before(tmp_path, name):
    off = _case(tmp_path, name, False)
    events = _events(off)
    for want in PUBLIC[name]:
        assert want in events, (want, [e for e in events if e["type"] == want["type"]])
    assert not any("secret" in e for e in events if e["type"] not in (
        "DeckShuffled", "CardsStacked", "CardsDrawn", "ProductionOrdered", "PlanSealed"))
    assert not any("hidden" in e for e in events)
    # No order text is kept private but sealed plans (7.0, 2.0 I, 2.0 V.3).
    assert all(any(e["type"] in ("ProductionOrdered", "ProductionDone", "PlanSealed")
                   for e in r["events"])
               for r in g.open_game(off).records[1:] if "private_order" in r)
    # The check finds what the option hides: it fails on such journals.
    assert all_leaks(off)


@pytest.mark.parametrize("scenario,until,seed", [("1914", 2, 4), ("1916", 10, 4)])
def test_random_games_leak_no_army_contents(tmp_path, scenario, until, seed):
    secret = tmp_path / "fixed.secret"
    secret.write_text(f"{seed:064x}\n")
    journal = tmp_path / f"hidden-{scenario}.jsonl"
    g.create_game(journal, scenario, options=["hidden_templates=true", "suppressing_armies=true"],
                  game_id=f"hidden-{scenario}", secret_file=secret)
    out = autoplay(journal, seed, until=until, check_every=50)
    assert out.failure is None, out.failure
    assert all_leaks(journal) == []
    assert owner_sees(journal) >= 3
    verified(journal, secret)


def _foe_sees(journal, foe: str) -> list:
    """The last record as foe reads it, without what differs between any two games: its
    hashes, times and salted digests."""
    rec = g.open_game(journal).records[-1]
    data = g.open_game(journal).data

    def plain(obj):
        if isinstance(obj, dict):
            return {k: plain(v) for k, v in obj.items()
                    if k not in ("hash", "prev", "at", "sig", "digest", "salt")}
        if isinstance(obj, list):
            return [plain(v) for v in obj]
        return obj

    shown = redact(rec, foe)
    stamp = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ")
    return [plain(shown["events"]), [stamp.sub("", x) for x in record_lines(shown, data, foe)]]


@pytest.mark.parametrize("plan", [
    ["build ge tank aachen into ge-2", "build ge infantry aachen into ge-2"],
    ["upgrade ge-1:infantry", "build ge infantry aachen into ge-2"],
])
def test_the_foe_cannot_tell_hidden_orders_apart_by_their_kind_or_cost(tmp_path, plan):
    """1.4, 7.0: the Entente reads the German's revealed plan and what it did to his armies
    alike, whether its two hidden orders built two infantry units (1 BP each), a Tank
    (2 BP) and an infantry unit, or upgraded an infantry unit to Stoßtruppen and built
    one: not the kind of change, nor what was spent or lost, with which the Build Points
    available would give the cost of the hidden orders away. The German reads each, and
    his totals."""
    two_infantry = ["build ge infantry aachen into ge-2"] * 2
    games = []
    for i, hidden in enumerate((plan, two_infantry)):
        folder = tmp_path / f"g{i}"
        folder.mkdir()
        journal = new_game(folder, position("1914", turn=17, player="entente", passes=1,
                                            hands=HANDS, remove_units=["ge-2"],
                                            add_units=["ge-2 ge army aachen 2I"]),
                           {"hidden_templates": True}, "committed", name="plans")
        _run(journal, [("entente", ["pass", "end turn"]),
                       ("german", hidden + ["build ge infantry eifel", "done"]),
                       ("entente", ["done"])])
        games.append(journal)
    assert _foe_sees(games[0], "entente") == _foe_sees(games[1], "entente")
    assert _foe_sees(games[0], "public") == _foe_sees(games[1], "public")
    mine = "\n".join(_foe_sees(games[0], "german")[1])
    assert "BP spent," in mine and " lost" in mine, mine
    assert all_leaks(games[0]) == []
