"""Every kind of event the engine writes has its line in the log, and the log words no kind
the engine does not have (render/record_text.py WORDING, one entry per kind, kept by topic in
render/words_*.py)."""

from __future__ import annotations

import referee.engine  # noqa: F401  (fills the engine's table of how each event evolves)
from referee.contracts.events import Event
from referee.engine.evolve import HANDLERS
from referee.render import words_combat, words_moves, words_production, words_turn
from referee.render.record_text import WORDING, describe

TOPICS = {"words_turn": words_turn.WORDING, "words_moves": words_moves.WORDING,
          "words_combat": words_combat.WORDING, "words_production": words_production.WORDING}


def engine_kinds() -> set[str]:
    """The `type` tag of every event the engine defines (engine/evolve.py Event)."""
    return {cls.__struct_config__.tag for cls in Event.__args__}


def test_the_engine_kinds_are_those_it_evolves():
    # The two lists the wording is held to agree: what a journal may hold, what evolve applies.
    assert engine_kinds() == set(HANDLERS)


def test_every_event_kind_has_its_wording():
    missing = sorted(engine_kinds() - set(WORDING))
    assert not missing, ("event kind(s) with no line in the log (add an entry to a WORDING "
                         f"table of render/words_*.py): {', '.join(missing)}")


def test_the_wording_names_no_kind_the_engine_lacks():
    unknown = sorted(set(WORDING) - engine_kinds())
    assert not unknown, f"WORDING entries for no event of the engine: {', '.join(unknown)}"


def test_each_kind_is_worded_in_one_topic_only():
    seen: dict[str, str] = {}
    twice = []
    for topic, table in TOPICS.items():
        for kind in table:
            if kind in seen:
                twice.append(f"{kind} ({seen[kind]}, {topic})")
            seen[kind] = topic
    assert not twice, f"worded twice, the later table wins: {', '.join(twice)}"
    assert set(seen) == set(WORDING)


def test_a_kind_the_referee_does_not_know_prints_its_fields():
    assert describe({"type": "Zeppelin", "area": "paris", "bombs": 2}, None, "public") == \
        "Zeppelin: area=paris, bombs=2"


def test_forced_retreats_cite_the_rules_of_the_dice_that_forced_them():
    """8.2.2, 8.3.5, 9.1.5, 9.1.6: a fire phase's line cites the rule of each unit type or card
    whose attacking hits forced retreats, not Stoßtruppen and Tanks whatever forced them."""
    from referee.data.dataload import load_game
    from referee.data.paths import default_games_dir

    data = load_game(default_games_dir() / "ttlm")
    group = {"fp": 2, "dice": [1], "hits": 1, "forces_retreat": True}
    ev = {"type": "FireResolved", "area": "lille", "side": "entente", "phase": "offensive",
          "hits": 2, "forced_retreats": 2,
          "groups": [dict(group, source="tout_le_monde", kind="card"),
                     dict(group, source="fr-2", kind="tank")]}
    line = words_combat._fire_resolved(ev, data, "public")
    assert line.endswith("2 army retreats forced (9.1.5, 8.3.5)"), line


def test_a_plan_opened_names_its_sides_as_the_other_events_do():
    """'German draws 3 cards': a side by its printed name, its verb agreeing with it; so
    for the plans both sides or one side owe at once (2.0 I, 2.0 V.3), told as owed: the
    record opening them comes before any is sent ('gives sealed discards' read as done)."""
    import gamecalls as g

    data = g.game_data("ttlm")
    one = describe({"type": "PlansOpened", "kind": "discard_excess", "sides": ["german"]},
                   data, "public")
    both = describe({"type": "PlansOpened", "kind": "reinforce",
                     "sides": ["german", "entente"]}, data, "public")
    assert one.startswith("German owes sealed discards over the card limit (2.0 V.3)"), one
    assert both.startswith("German and Entente owe sealed reinforcement placements"), both


def test_a_unit_lost_from_an_army_is_named_once_as_the_board_names_it():
    """5.3.1: a hit paid with a unit of an army's template names the army the board shows
    ('ge-8 [3I+1C]') and the kind once, not 'ge-8:infantry (infantry)'; a stand-alone
    piece keeps its id and kind, as the board prints it; so for the EFT box (2.0 V.4)."""
    import gamecalls as g

    data = g.game_data("ttlm")
    loss = {"type": "LossTaken", "side": "german", "how": "unit", "hits": 1}
    army = describe(dict(loss, unit="ge-8:infantry", nation="ge", kind="infantry"),
                    data, "public")
    foreign = describe(dict(loss, side="entente", unit="fr-8:us-infantry", nation="us",
                            kind="infantry"), data, "public")
    alone = describe(dict(loss, unit="ge-i-03", nation="ge", kind="siege_gun"), data, "public")
    assert army == "German loses an infantry unit from army ge-8 (5.3.1)", army
    assert foreign == ("Entente loses an infantry unit (United States) from army fr-8 "
                       "(5.3.1)"), foreign
    assert alone == "German loses ge-i-03 (siege gun) (5.3.1)", alone
    eft = describe({"type": "EftUnitLost", "secret": {"to": "german", "data": {
        "unit": "ge-7:artillery", "kind": "artillery"}}}, data, "german")
    assert eft == "German loses an artillery unit from army ge-7 in the EFT box (2.0 V.4)", eft


def test_a_fort_step_paying_a_siege_gun_hit_cites_the_siege_gun_rule(data):
    """8.3.3: a Siege Gun hit must be taken by the fort even when it is not the strongest
    unit; the line cited 5.3.1, the strongest-unit rule it overrides. An ordinary hit the
    fort takes is still 5.3.1's."""
    ev = {"type": "LossTaken", "side": "entente", "how": "fort", "unit": "fort-liege",
          "nation": "be", "kind": "fort"}
    siege = describe({**ev, "siege_hits": 1, "hits": 0}, data, "public")
    plain = describe({**ev, "siege_hits": 0, "hits": 1}, data, "public")
    assert siege == "Entente fort fort-liege loses a step to a Siege Gun hit (8.3.3)", siege
    assert plain == "Entente fort fort-liege loses a step (5.3.1)", plain


def test_a_done_that_ends_a_plan_adds_no_orders_rather_than_sealing_none():
    """7.0, 2.0 I: 'done' after a plan sealed in parts seals no orders of its own; its line
    says it adds none to the plan, never that the plan it ends has no orders."""
    import gamecalls as g

    data = g.game_data("ttlm")
    secret = {"to": "german", "data": {"orders": []}}
    production = describe({"type": "ProductionOrdered", "side": "german", "secret": secret},
                          data, "german")
    plan = describe({"type": "PlanSealed", "side": "german", "kind": "reinforce",
                     "secret": secret}, data, "german")
    assert production == "German adds no orders to the production plan (7.0)", production
    assert plan == "German adds no orders to the plan", plan
    told = describe({"type": "ProductionOrdered", "side": "german", "secret": {
        "to": "german", "data": {"orders": ["entrench ge-1"]}}}, data, "german")
    assert told == "German seals a production plan (7.0): entrench ge-1", told


def test_cavalry_dice_in_offensive_fire_are_named_raiding_fire(data):
    """8.3.1: cavalry fires no die in offensive fire, as earlier battles' lines say, but once
    no enemy infantry-type unit is left it rolls its raiding fire; its die line names that
    fire, as a Siege Gun's says 'at the fort'. Its defensive fire is its own, unnamed."""
    cavalry = {"source": "ge-1:cavalry", "kind": "cavalry", "fp": 1, "dice": [3], "hits": 0}
    ev = {"type": "FireResolved", "area": "namur", "side": "german", "phase": "offensive",
          "hits": 0, "groups": [cavalry]}
    line = describe(ev, data, "public")
    assert "ge-1:cavalry F1 in raiding fire (8.3.1) [3] miss" in line, line
    defence = describe(dict(ev, phase="defensive"), data, "public")
    assert "ge-1:cavalry F1 [3] miss" in defence, defence
