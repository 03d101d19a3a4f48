"""The sequence of play (2.0) end to end: passing through all 23 turns of the 1914 game."""

from __future__ import annotations

import json

import pytest

import gamecalls as g
from referee.store.journal import Journal


def _pass_turn(path, side):
    r = g.submit(path, side, ["pass", "end turn"])
    assert r.rejected is None, r.rejected
    return r


def _quietly(path):
    """Answer everything but the card-or-pass decision: place reinforcements where first
    allowed and move no unit into or out of an army (8.1), spend no Build Points, take
    forced choices in listed order."""
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order
    while True:
        game = g.open_game(path)
        st = game.state
        if st.phase == "over" or st.pending.kind == "card_or_pass":
            return st
        side = st.pending.side
        orders = [format_order(o) for o in legal_orders(st, game.data, side)
                  if o.kind != "armistice"]
        if st.pending.kind == "reinforce":
            # An arrival with no place as the board stands, for which units moved into armies
            # could make room, keeps the plan open (2.0 I, 8.1): the quiet player makes none.
            orders = [o for o in orders if o.split()[0] in ("place", "swap")] or ["done"]
        order = "done" if "done" in orders and st.pending.kind == "production" else orders[0]
        r = g.submit(path, side, [order])
        assert r.rejected is None, r.rejected


# The winters whose end reshuffles the deck (2.0 VI).
WINTERS = {3: "WINTER 1914-15", 7: "WINTER 1915-16", 11: "WINTER 1916-17",
           15: "WINTER 1917-18", 19: "WINTER 1918-19"}


def _new_game(tmp_path, cli, secret_file, first: int):
    """The 1914 game (as the `game` fixture makes it) from its first turn, or its position
    moved on to turn `first` with nothing else changed."""
    from casebook import position, yaml_text

    scenario = "1914"
    if first != 1:
        scenario = tmp_path / "late.yaml"
        scenario.write_text(yaml_text(position("1914", turn=first), allow_unicode=True,
                                      sort_keys=False), encoding="utf-8")
    path = tmp_path / "g.jsonl"
    r = cli("new", path, "--scenario", scenario, "--game-id", "test-1914",
            "--secret-file", secret_file)
    assert r.exit_code == 0, r.stderr
    return path


@pytest.mark.parametrize("first", [pytest.param(19, id="quick"), pytest.param(1, id="full")])
def test_passing_through_every_turn_reaches_the_end_and_verifies(tmp_path, cli, secret_file,
                                                                   first):
    """Every turn passed from the first, or (the quick form) from the last WINTER
    reshuffle on: the same sequence of play, to the same end."""
    game = _new_game(tmp_path, cli, secret_file, first)
    seen_turns = []
    winters_reshuffled = []
    while True:
        st = _quietly(game)
        if st.phase == "over":
            break
        assert st.pending.kind == "card_or_pass"
        seen_turns.append(st.turn)
        # 2.0 II/III: the German is the first player of every seasonal turn.
        assert st.pending.side == "german"
        _pass_turn(game, "german")
        _pass_turn(game, "entente")
    records = Journal(game).read()
    assert sorted(set(seen_turns)) == list(range(first, 24))
    events = [e for r in records[1:] for e in r["events"]]
    # 2.0 IV/V: two passes in a row lead to production, once per seasonal turn.
    assert sum(1 for e in events
               if e["type"] == "PhaseBegan" and e["phase"] == "production") == 24 - first
    # 2.0 VI: the deck is reshuffled at the end of every WINTER (turns 3, 7, 11, 15, 19);
    # after the last turn the game ends instead.
    for e in events:
        if e["type"] == "DeckShuffled" and "end of WINTER" in e["reason"]:
            winters_reshuffled.append(e["reason"])
    assert [w.split("end of ")[1][:14] for w in winters_reshuffled] == [
        label for turn, label in WINTERS.items() if turn >= first]
    assert events[-1]["type"] == "GameEnded"
    assert "WINTER 1919-20" in events[-1]["reason"]
    # 3.1: 12 VP of German-Friendly areas, Total Blockade -4 in 1919: 8 = Marginal Entente.
    assert events[-1]["vp"] == 8 and events[-1]["level"] == "marginal_entente"
    st = g.open_game(game).state
    assert st.phase == "over" and st.pending is None

    r = cli("status", game, "--format", "json")
    view = json.loads(r.stdout)
    assert view["waiting_on"] is None and view["game_over"] is True and view["legal"] == []
    r = cli("order", game, "--as", "german", "pass")
    assert r.exit_code == 1 and "game is over" in r.stderr and "2.0 VI" in r.stderr

    assert cli("verify", game).exit_code == 0
    r = cli("reveal", game)
    assert r.exit_code == 0, r.stderr
    r = cli("verify", game)
    assert r.exit_code == 0 and "recomputed from the secret" in r.stdout
    r = cli("verify", game, "--secret", secret_file)
    assert r.exit_code == 0 and "recomputed from the secret" in r.stdout


def test_an_offensive_turn_resets_the_pass_count(game):
    """2.0 IV: only two passes in a row end the player turns."""
    _pass_turn(game, "german")
    st = g.open_game(game).state
    assert st.consecutive_passes == 1
    hand = [st_c for st_c in st.hands["entente"]]
    assert any(c.startswith("off") for c in hand)
    r = g.submit(game, "entente", ["play offensive", "end movement"])
    assert r.rejected is None
    st = g.open_game(game).state
    assert st.consecutive_passes == 0 and st.phase == "player_turn"
    assert st.pending.side == "german"
    _pass_turn(game, "german")
    st = g.open_game(game).state
    assert st.phase == "player_turn" and st.pending.side == "entente"
    _pass_turn(game, "entente")
    st = g.open_game(game).state
    assert st.phase == "production" and st.pending.kind == "production"
    st = _quietly(game)
    assert st.turn == 2 and st.pending.side == "german"


def test_passing_player_may_discard_and_draw_but_not_play_them(game, data):
    """2.0 II.1: a passing player who played no card may discard and draw replacements."""
    st = g.open_game(game).state
    hand = list(st.hands["german"])
    key = data.cards[hand[0]].key
    r = g.submit(game, "german", ["pass", f"discard {key}"])
    assert r.rejected is None
    st = g.open_game(game).state
    assert len(st.hands["german"]) == 5
    assert hand[0] not in st.hands["german"] and hand[0] in st.discard
    drawn = [c for c in st.hands["german"] if c not in hand]
    assert len(drawn) == 1 and st.locked["german"] == drawn
    # Only one discard per turn.
    r = g.submit(game, "german", [f"discard {data.cards[st.hands['german'][0]].key}"])
    assert r.rejected is not None and r.rejected[2].rule == "2.0 II.1"
    r = g.submit(game, "german", ["end turn"])
    assert r.rejected is None
    st = g.open_game(game).state
    # Not before the opponent's turn (2.0 II.1, French text): playable from the Entente
    # turn on, e.g. as Ersatz in his battles.
    assert st.player == "entente" and st.locked["german"] == []


def test_same_orders_same_secret_give_identical_events(tmp_path, cli, secret_file):
    paths = []
    for name in ("a.jsonl", "b.jsonl"):
        p = tmp_path / name
        assert cli("new", p, "--scenario", "1914", "--game-id", "same",
                   "--secret-file", secret_file).exit_code == 0
        for side in ("german", "entente"):
            _pass_turn(p, side)
        _quietly(p)
        _pass_turn(p, "german")
        paths.append(p)
    ra, rb = (Journal(p).read() for p in paths)
    assert len(ra) == len(rb)
    for a, b in zip(ra[1:], rb[1:]):
        assert json.dumps(a["events"]) == json.dumps(b["events"])
        # Each game is signed by a key of its own: the signature is no part of the ruling.
        assert {k: v for k, v in a.items() if k not in ("at", "hash", "prev", "sig")} == \
            {k: v for k, v in b.items() if k not in ("at", "hash", "prev", "sig")}


def test_a_different_secret_deals_different_hands(tmp_path, cli):
    hands = []
    for name in ("a.jsonl", "b.jsonl"):
        p = tmp_path / name
        assert cli("new", p, "--scenario", "1914").exit_code == 0
        hands.append(g.open_game(p).state.hands)
    assert hands[0] != hands[1]
