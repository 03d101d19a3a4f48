"""Both sides at once, sealed until both are done, where the rules let them: the placement of
reinforcements (2.0 I: "Both players ... place") and the discard over the card limit
(2.0 V.3), as production (7.0)."""

from __future__ import annotations

import json
import re

import gamecalls as g
from casebook import new_game, position
from referee.engine import waiting_on
from referee.store.journal import redact

GERMAN = ["place ge infantry metz", "place ge infantry koblenz",
          "place ge infantry colmar into ge-7"]
ENTENTE = ["place uk infantry england", "place fr-6 paris", "place fr-9 troyes",
           "place fr infantry troyes into fr-9", "place fr infantry paris"]


def _to_autumn_1914(tmp_path, name="r", **kw):
    """SUMMER 1914 ends by two passes and a quiet production: AUTUMN 1914's arrivals come
    (2.0 I: three German infantry; fr-6, fr-9, two French and a UK infantry)."""
    sc = position("1914", player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]}, **kw)
    j = new_game(tmp_path, sc, name=name)
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.submit(j, "german", ["done"]).rejected is None
    assert g.submit(j, "entente", ["done"]).rejected is None
    return j


def _position(j):
    st = g.open_game(j).state
    return ({k: (a.status, a.area, dict(a.contents)) for k, a in st.armies.items()},
            {k: p.area for k, p in st.pieces.items()}, st.pool, st.pending)


def test_both_sides_are_asked_for_their_placements_at_once(tmp_path):
    """2.0 I: both players place their reinforcements; neither waits on the other."""
    j = _to_autumn_1914(tmp_path)
    st = g.open_game(j).state
    assert st.pending.kind == "reinforce" and waiting_on(st) == ["german", "entente"]
    # The Entente may give his placements first.
    assert g.submit(j, "entente", ENTENTE).rejected is None
    st = g.open_game(j).state
    assert waiting_on(st) == ["german"] and st.armies["fr-6"].status == "pool"


def test_either_order_of_submission_gives_the_same_position(tmp_path):
    """2.0 I: the plans are applied when both are in, whoever sent his first."""
    a = _to_autumn_1914(tmp_path, name="a")
    assert g.submit(a, "german", GERMAN).rejected is None
    assert g.submit(a, "entente", ENTENTE).rejected is None
    b = _to_autumn_1914(tmp_path, name="b")
    assert g.submit(b, "entente", ENTENTE).rejected is None
    assert g.submit(b, "german", GERMAN).rejected is None
    assert _position(a) == _position(b)
    armies, pieces, pool, pending = _position(a)
    assert armies["ge-7"][2] == {"ge:infantry": 3} and armies["fr-9"][2] == {"fr:infantry": 1}
    assert pending.kind == "card_or_pass"
    assert g.verify(a).records > 0 and g.verify(b).records > 0


def test_a_plan_is_checked_against_its_own_orders_so_far(tmp_path):
    """1.2.2, 2.0 I: placements sent in several messages count against the stacking limit as
    if already made; the other side's sealed plan is never looked at."""
    j = _to_autumn_1914(tmp_path)
    # Metz holds the 6th Army (1.2.2: 3 units a side): two infantry fill it, a third may not.
    assert g.submit(j, "german", ["place ge infantry metz"]).rejected is None
    assert g.submit(j, "german", ["place ge infantry metz"]).rejected is None
    r = g.submit(j, "german", ["place ge infantry metz"])
    assert r.rejected is not None and r.rejected[2].rule == "1.2.2"
    game = g.open_game(j)
    assert game.state.stack_count("metz", "german", game.data) == 1    # nothing applied yet


def test_both_sides_may_place_into_one_disputed_area(tmp_path):
    """1.2.2, 2.0 I: each side's stacking limit counts his own units, so two plans placing into
    the same Disputed area cannot exceed a limit together; both are applied."""
    j = _to_autumn_1914(tmp_path, remove_units=["fr-2"],
                        add_units=["ge-i-06 ge infantry briey", "fr-i-03 fr infantry briey"])
    assert g.open_game(j).state.area_state("briey", g.open_game(j).data) == "disputed"
    assert g.submit(j, "entente", ["place fr-9 briey", "place fr infantry briey",
                                   "place fr-6 paris", "place fr infantry paris",
                                   "place uk infantry england"]).rejected is None
    assert g.submit(j, "german", ["place ge infantry briey", "place ge infantry briey",
                                  "place ge infantry metz"]).rejected is None
    st = g.open_game(j).state
    data = g.open_game(j).data
    assert st.stack_count("briey", "german", data) == 3
    assert st.armies["fr-9"].area == "briey"
    assert sum(p.area == "briey" for p in st.pieces.values() if p.nation == "fr") == 2


def test_a_side_with_nothing_to_place_is_not_asked(tmp_path):
    """2.0 I: in AUTUMN 1915 only the Entente has arrivals; the German is not asked."""
    sc = position("1914", turn=5, player="entente", passes=1,
                  hands={"german": ["off-01"], "entente": ["off-03"]})
    j = new_game(tmp_path, sc)
    for side in ("entente", "german", "entente"):
        g.submit(j, side, ["pass", "end turn"] if side == "entente" and
                 g.open_game(j).state.phase == "player_turn" else ["done"])
    st = g.open_game(j).state
    assert st.turn == 6 and st.pending.kind == "reinforce"
    assert waiting_on(st) == ["entente"] and list(st.sealed["plans"]) == ["entente"]


def test_the_opponent_learns_nothing_of_a_sealed_plan(tmp_path, cli):
    """2.0 I: until both plans are in, the other side and the public see that a plan was
    sealed, never what it holds; once both are in, every placement is public."""
    j = _to_autumn_1914(tmp_path)
    r = g.submit(j, "german", GERMAN[:2])
    assert r.rejected is None and len(r.applied) == 1          # one message, one record
    rec = json.loads(j.read_bytes().splitlines()[-1])
    assert rec["order"] == "a sealed plan: reinforcements placed (2.0 I)"
    for reader in ("entente", "public"):
        assert "place ge" not in json.dumps(redact(rec, reader))
        for args in (("log", j), ("show", j), ("status", j), ("report", j, "--since", "0")):
            for fmt in ("text", "json"):
                out = cli(*args, "--as", reader, "--format", fmt).stdout
                assert "place ge" not in out and "ge-i-2" not in out, (args, fmt)
    assert "place ge infantry metz" in cli("log", j, "--as", "german", "--format",
                                           "json").stdout
    assert g.submit(j, "german", GERMAN[2:] + ["done"]).rejected is None   # 'done' dropped
    assert g.submit(j, "entente", ENTENTE).rejected is None
    log = cli("log", j, "--as", "entente", "--format", "text").stdout
    assert "German's plan revealed:" in log and "in Koblenz" in log, log
    assert cli("verify", j).exit_code == 0


def _to_discard(tmp_path, folder):
    """SUMMER 1914 production: both hands at the card limit (6 German, 5 Entente in 1914)
    with more than one kind of card; each side buys a card, so both are over it."""
    sc = position("1914", player="entente", passes=1, hands={
        "german": ["off-01", "off-02", "off-04", "off-06", "ers2-01", "ers2-02"],
        "entente": ["off-03", "off-05", "ers2-03", "ers2-04", "ers2-05"]})
    (tmp_path / folder).mkdir()
    j = new_game(tmp_path / folder, sc, name="d")     # one game id: the same deck
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.submit(j, "german", ["buy 1", "done"]).rejected is None
    assert g.submit(j, "entente", ["buy 1", "done"]).rejected is None
    return j


def _discard(j, side):
    from referee.engine.production import card_limit

    game = g.open_game(j)
    extra = len(game.state.hands[side]) - card_limit(game.state, game.data, side)
    return ["discard " + " ".join(["offensive"] * extra)]


def test_both_sides_discard_over_the_card_limit_at_once(tmp_path):
    """2.0 V.3, 7.1: each side over his limit discards the excess, both at once and sealed;
    either order of submission gives the same hands."""
    a = _to_discard(tmp_path, "a")
    st = g.open_game(a).state
    assert st.pending.kind == "discard_excess" and waiting_on(st) == ["german", "entente"]
    held = len(st.hands["entente"])
    assert g.submit(a, "entente", _discard(a, "entente")).rejected is None
    st = g.open_game(a).state
    assert len(st.hands["entente"]) == held and waiting_on(st) == ["german"]   # sealed
    assert g.submit(a, "german", _discard(a, "german")).rejected is None
    b = _to_discard(tmp_path, "b")
    assert g.submit(b, "german", _discard(b, "german")).rejected is None
    assert g.submit(b, "entente", _discard(b, "entente")).rejected is None
    ha, hb = g.open_game(a).state.hands, g.open_game(b).state.hands
    assert ha == hb and len(ha["german"]) == 6 and len(ha["entente"]) == 5
    assert g.open_game(a).state.pending.kind != "discard_excess"
    assert g.verify(a).records > 0


def test_the_last_plan_with_a_trailing_done_in_an_atomic_batch(tmp_path):
    """2.0 I: a 'done' after the placement that completes the last plan is dropped; nothing
    follows the reveal, so an all-or-nothing batch is applied whole."""
    j = _to_autumn_1914(tmp_path)
    assert g.submit(j, "entente", ENTENTE).rejected is None
    r = g.submit(j, "german", GERMAN + ["done"], atomic=True)
    assert r.rejected is None and [t for _, t, _ in r.dropped] == ["done"]
    assert g.open_game(j).state.pending.kind == "card_or_pass"
    r = g.submit(j, "german", ["play offensive"], dry_run=True)
    assert r.rejected is None


def test_a_dry_run_stops_before_the_last_plan_closes(tmp_path):
    """2.0 I: closing the last plan reveals the other side's; a dry run never shows it."""
    j = _to_autumn_1914(tmp_path)
    assert g.submit(j, "entente", ENTENTE).rejected is None
    before = j.read_bytes()
    r = g.submit(j, "german", GERMAN, dry_run=True)
    assert r.rejected is None and r.stop_reason == "plans" and j.read_bytes() == before


def test_show_names_both_sides_while_both_owe_a_plan(tmp_path, cli):
    """2.0 I: while both sides owe their placements, `show` (now and --at that record) says
    it waits on both, as `status` does; once one is in, only the other."""
    j = _to_autumn_1914(tmp_path)
    both = g.open_game(j).state.seq
    for args in ([], ["--at", str(both)]):
        out = cli("show", j, *args).stdout
        assert "Waiting on the German and Entente players:" in out, out
        view = json.loads(cli("show", j, *args, "--format", "json").stdout)
        assert view["waiting_on_all"] == ["german", "entente"]
    assert "Waiting on the German and Entente players:" in cli("status", j).stdout
    assert g.submit(j, "entente", ENTENTE).rejected is None
    assert "Waiting on the German player:" in cli("show", j).stdout
    assert "Waiting on the German and Entente players:" in cli("show", j, "--at", str(both)).stdout


def test_report_names_both_sides_while_both_owe_a_plan(tmp_path, cli):
    """2.0 I: while both sides owe their placements, `report --format json` lists both in
    `waiting_on_all`, as `status` does (docs/scripting.md); once one is in, only the other."""
    j = _to_autumn_1914(tmp_path)
    for reader in ("public", "german", "moderator"):
        report = json.loads(cli("report", j, "--as", reader, "--format", "json").stdout)
        status = json.loads(cli("status", j, "--as", reader, "--format", "json").stdout)
        assert report["waiting_on_all"] == status["waiting_on_all"] == ["german", "entente"]
    assert g.submit(j, "entente", ENTENTE).rejected is None
    report = json.loads(cli("report", j, "--format", "json").stdout)
    assert report["waiting_on_all"] == ["german"]


def test_revealed_plans_name_their_areas_as_the_other_lines_do(tmp_path, cli):
    """2.0 I: the plans revealed are told by the placements under them, each area named as
    the board names it (ENGLAND, Troyes), not by id, and no order typed again beside them."""
    j = _to_autumn_1914(tmp_path)
    assert g.submit(j, "german", GERMAN).rejected is None
    assert g.submit(j, "entente", ENTENTE).rejected is None
    for args in (("log",), ("report", "--since", "0", "--format", "markdown")):
        out = cli(args[0], j, "--as", "public", *args[1:]).stdout
        assert "place uk infantry ENGLAND" not in out and "in ENGLAND" in out, out
        assert "in Troyes into army fr-9" in out and "place fr infantry Troyes" not in out
        assert "place fr infantry troyes" not in out and "england" not in out


def test_an_order_made_impossible_by_an_earlier_one_of_its_batch_is_rejected(tmp_path, cli):
    """2.0 I, 8.1: whether the last plan in closes is worked out with its batch's orders
    before each is checked; an order that an earlier one made impossible (the unit it takes
    out of an army has left it) is rejected with its rule (the working out once crashed on
    it: `order` blamed the journal, and a mail pass ended on the error at that message)."""
    j = _to_autumn_1914(tmp_path)
    assert g.submit(j, "german", GERMAN).rejected is None
    r = cli("order", j, "--as", "entente", "--atomic", "move uk-1:infantry",
            "move uk-1:infantry")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1, r.output
    assert "army uk-1 holds no infantry (rule 1.4)" in r.stderr, r.stderr
    r = g.submit(j, "entente", ["move uk-1:infantry", "move uk-1:infantry"])
    assert r.rejected is not None and r.rejected[0] == 1 and r.rejected[2].rule == "1.4"


def _mailed_example(cli, j, side) -> list[str]:
    """The example plan a report to side shows under 'For example:', one order a line."""
    text = cli("report", j, "--as", side, "--keep-place").stdout
    block = re.split(r"For\s+example:\n\n", text, maxsplit=1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines()]


def test_the_example_plan_of_a_mail_is_taken_as_it_stands(tmp_path, cli):
    """2.0 I, 2.0 V.3: a plan of arrivals or of discards closes by itself with its last order;
    a 'done' before that is refused (an arrival must be placed while it has a place) and
    one after it is dropped. A player who sends the example his mail shows gets it applied
    whole, nothing refused or dropped."""
    arrivals = _to_autumn_1914(tmp_path)
    discards = _to_discard(tmp_path, "discards")
    for j in (arrivals, discards):
        for side in ("german", "entente"):
            example = _mailed_example(cli, j, side)
            assert example and "done" not in example, example
            r = g.submit(j, side, example)
            assert r.rejected is None and r.dropped == [], (example, r.rejected, r.dropped)
    assert g.open_game(arrivals).state.pending.kind != "reinforce"


def test_an_example_shorter_than_its_plan_says_the_plan_needs_more(tmp_path, cli):
    """2.0 I: the German's first reinforcements of 1918 are ten arrivals, more than the
    eight orders an example shows. The mail says it shows the plan's first orders only, and
    they are taken without closing the plan; a whole plan's example says nothing of the
    kind (the 1914 ones above)."""
    j = tmp_path / "r18.jsonl"
    g.create_game(j, "1918", game_id="r18")
    text = " ".join(cli("report", j, "--as", "german").stdout.split())
    assert "For example, its first 8 orders (it needs more, in this mail or a later " \
           "one):" in text, text
    block = re.split(r"later\s+one\):\n\n", cli("report", j, "--as", "german",
                                                   "--keep-place").stdout, maxsplit=1)[1]
    block = block.split("\n\n", 1)[0]
    example = [line.strip() for line in block.splitlines()]
    assert len(example) == 8 and "done" not in example, example
    r = g.submit(j, "german", example)
    assert r.rejected is None and r.dropped == [], (r.rejected, r.dropped)
    assert g.open_game(j).state.pending.kind == "reinforce"
    arrivals = _to_autumn_1914(tmp_path)
    assert "it needs more" not in cli("report", arrivals, "--as", "german").stdout


def test_a_discard_one_side_alone_makes_is_not_told_as_both_sides(tmp_path, cli):
    """2.0 V.3: only a side over his card limit discards. When the Entente alone is over it
    (the German buys no card), his prompt and his report tell his plan as his alone: not
    sealed 'until both are in', closed by its last card discarded (no arrival to place);
    when both are over it, each is told the other's plan is sealed with his."""
    sc = position("1914", player="entente", passes=1, hands={
        "german": ["off-01", "off-02", "off-04", "off-06", "ers2-01", "ers2-02"],
        "entente": ["off-03", "off-05", "ers2-03", "ers2-04", "ers2-05"]})
    (tmp_path / "one").mkdir()
    j = new_game(tmp_path / "one", sc, name="d")
    assert g.submit(j, "entente", ["pass", "end turn"]).rejected is None
    assert g.submit(j, "german", ["done"]).rejected is None
    assert g.submit(j, "entente", ["buy 1", "done"]).rejected is None
    st = g.open_game(j).state
    assert st.pending.kind == "discard_excess" and waiting_on(st) == ["entente"]
    view = json.loads(cli("status", j, "--as", "entente", "--format", "json").stdout)
    assert view["prompt"].endswith("the limit is 5: discard the excess (2.0 V.3, 7.1)"), \
        view["prompt"]
    said = " ".join(cli("report", j, "--as", "entente").stdout.split())
    assert "it closes by itself with its last card discarded; it stays secret until it is " \
           "in." in said, said
    assert g.submit(j, "entente", _discard(j, "entente")).rejected is None
    told = " ".join(cli("log", j).stdout.split())        # its rule, no brackets in brackets
    assert "Entente discards Offensive: over the card limit (7.1)" in told, told
    both = _to_discard(tmp_path, "both")
    view = json.loads(cli("status", both, "--as", "entente", "--format", "json").stdout)
    assert "sealed until both are in" in view["prompt"], view["prompt"]
    # Each side asked reads his own hand and limit first, the other's after (the public
    # prompt names the German first, the order the plans are revealed in).
    hands = {side: len(g.open_game(both).state.hands[side]) for side in ("german", "entente")}
    assert view["prompt"] == (f"you hold {hands['entente']} cards, the limit is 5: discard "
                              f"the excess, sealed until both are in (2.0 V.3, 7.1); German "
                              f"holds {hands['german']} cards, the limit is 6"), view["prompt"]
    public = json.loads(cli("status", both, "--format", "json").stdout)["prompt"]
    assert public.startswith(f"German holds {hands['german']} cards") and \
        "you hold" not in public, public
    said = " ".join(cli("report", both, "--as", "entente").stdout.split())
    assert "its last card discarded; it stays secret until both sides are in." in said, said
