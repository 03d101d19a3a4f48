"""A Surprise Attack! battle fires in its own order (9.7; the sequence of play's "4a.
Surprise Attack! combat" and the note of 5.2.1: a dogfight, b offensive fire, the artillery
firing once, c defensive fire), so its fire phases cite that order, as the battle's heading
cites it, "(9.7)": in `log`, a report, `explain`, `dice` and an order's answer. A battle of
the same combat phase fought in the order of 5.2.1 (b artillery fire, c defensive fire, d
offensive fire) cites 5.2.1 as before, and the journal keeps the events the engine wrote.

The battle runs over several records (the defender's losses and his choice to stand are
records of their own), so a fire phase is told from the battle under way, not from its
record alone. Played on TO THE LAST MAN! and on AT ALL COSTS! data, committed dice from
a fixed secret."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import casebook as cb
import gamecalls as g
from referee.engine import legal_orders
from referee.engine.order_text import format_order
from referee.game.battlethread import Battles

# Two battles declared in one offensive, each side with a Biplane in each (a dogfight): a
# Surprise Attack! on the first, the second fought in the usual order (the attacker fights
# the surprise one first, 5.2.1). AT ALL COSTS! in SPRING 1916, when Biplanes come (8.3.4).
CASES = {
    "ttlm": {"base": "1918", "turn": None, "surprise": ("champagne", "Champagne"),
             "usual": ("verdun", "Verdun"),
             "units": ["ge-5 ge army argonne 4I+1A+1B", "ge-1 ge army rethel 4I+1A+1B",
                       "fr-4 fr army champagne 3I+1B", "fr-2 fr army verdun 3I+1B"],
             "moves": ["move ge-5 verdun", "move ge-1 champagne"]},
    "aac": {"base": "1914", "turn": 9, "surprise": ("lomza", "Łomża"),
            "usual": ("bialystok", "Białystok"),
            "units": ["ge-8 ge army allenstein 4I+1A+1B", "ah-1 ah army lotzen 4I+1A+1B",
                      "ru-2 ru army lomza 3I+1B", "ru-1 ru army bialystok 3I+1B"],
            "moves": ["move ah-1 bialystok", "move ge-8 lomza"]},
}
SURPRISE = {"dogfight": "dogfight (surprise order a, 9.7)",
            "offensive": "offensive fire (surprise order b, 9.7)",
            "defensive": "defensive fire (surprise order c, 9.7)"}
USUAL = {"dogfight": "dogfight (5.2.1 a)", "artillery": "artillery fire (5.2.1 b)",
         "defensive": "defensive fire (5.2.1 c)", "offensive": "offensive fire (5.2.1 d)"}


def _answer(journal: Path, case: dict, until=None) -> None:
    """Answer each decision (the surprise battle fought first, 'done', else a loss) until
    `until(state)` holds or the attacker's player turn is over."""
    area = case["surprise"][0]
    while True:
        game = g.open_game(journal)
        st, p = game.state, game.state.pending
        if p is None or p.kind == "card_or_pass" or (until and until(st)):
            return
        legal = [format_order(o) for o in legal_orders(st, game.data, p.side)]
        pick = next((o for o in (f"play surprise_attack {area}", f"fight {area}", "done")
                     if o in legal), None) or next(o for o in legal if o.startswith("lose "))
        assert g.submit(journal, p.side, [pick]).rejected is None, pick


def _standing_in_the_surprise(st) -> bool:
    return st.battle is not None and st.battle["surprise"] and \
        st.pending.kind == "defence"


@pytest.fixture(params=sorted(CASES))
def played(request, tmp_path: Path, cli):
    """The game up to the defender's choice to stand in the surprise battle, that choice as
    `order` answers it, then the rest of the combat phase: (journal, case, answer, seq of
    the answer's record)."""
    case = CASES[request.param]
    when = {"turn": case["turn"]} if case["turn"] else {}
    sc = cb.position(case["base"], game=request.param, player="german", units=case["units"],
                     hands={"german": ["off-01", "surprise-01"], "entente": ["ers2-01"]},
                     **when)
    journal = cb.new_game(tmp_path, sc, game=request.param)
    for text in ["play offensive", *case["moves"], "end movement"]:
        assert g.submit(journal, "german", [text]).rejected is None, text
    _answer(journal, case, _standing_in_the_surprise)
    r = cli("order", journal, "--as", "entente", "done")
    assert r.exit_code == 0, r.stderr
    seq = g.open_game(journal).state.seq
    _answer(journal, case)
    return journal, case, " ".join(r.stdout.split()), seq


def _fire_lines(text: str, name: str) -> list[str]:
    """The fire lines of one battle area in a text, its wrapped lines joined."""
    flat = " ".join(text.split())
    return [part.split(":")[0] for part in flat.split(f"{name} — ")[1:]]


def test_the_log_cites_the_surprise_order_in_the_surprise_battle_only(played, cli):
    journal, case, _, _ = played
    out = cli("log", journal, "--as", "public").stdout
    surprise, usual = case["surprise"][1], case["usual"][1]
    # The heading cites the card's rule, 9.7 ("2.0 II.4a" is the index's Dogfight step).
    assert "SURPRISE ATTACK! battle (9.7)" in " ".join(out.split()), out
    assert _fire_lines(out, surprise) == [f"German {SURPRISE['dogfight']}",
                                          f"Entente {SURPRISE['dogfight']}",
                                          f"German {SURPRISE['offensive']}",
                                          f"Entente {SURPRISE['defensive']}"], out
    assert _fire_lines(out, usual) == [f"German {USUAL['dogfight']}",
                                       f"Entente {USUAL['dogfight']}",
                                       f"German {USUAL['artillery']}",
                                       f"Entente {USUAL['defensive']}",
                                       f"German {USUAL['offensive']}"], out


def test_a_log_from_inside_the_battle_cites_the_surprise_order(played, cli):
    """`--since` a record after the battle began: the battle under way is read from the
    records before it."""
    journal, case, _, seq = played
    out = cli("log", journal, "--as", "public", "--since", str(seq)).stdout
    assert _fire_lines(out, case["surprise"][1]) == [f"Entente {SURPRISE['defensive']}"], out


def test_the_order_answer_cites_the_surprise_order(played):
    """The defender's 'done' in the surprise battle: its answer tells his fire, a record
    after the one the battle began in."""
    _, case, answer, _ = played
    assert f"{case['surprise'][1]} — Entente {SURPRISE['defensive']}:" in answer, answer
    assert "5.2.1" not in answer.split(" — Entente ")[1].split(":")[0]


def test_a_report_from_inside_the_battle_cites_both_orders(played, cli):
    journal, case, _, seq = played
    out = cli("report", journal, "--as", "german", "--since", str(seq - 1)).stdout
    assert _fire_lines(out, case["surprise"][1]) == [f"Entente {SURPRISE['defensive']}"], out
    assert f"German {USUAL['offensive']}" in _fire_lines(out, case["usual"][1]), out


def test_explain_cites_the_surprise_order(played, cli):
    journal, case, _, seq = played
    out = " ".join(cli("explain", journal, str(seq)).stdout.split())
    assert f"{case['surprise'][1]} — Entente {SURPRISE['defensive']}:" in out, out
    assert "defensive fire (5.2.1 c)" not in out, out


def test_the_dice_counts_tell_the_surprise_fire_apart(played, cli):
    journal, _, _, _ = played
    doc = json.loads(cli("dice", journal, "--format", "json").stdout)
    purposes = {side: set(t["by_purpose"]) for side, t in doc["sides"].items()}
    assert purposes["german"] == {SURPRISE["dogfight"], SURPRISE["offensive"],
                                  USUAL["dogfight"], USUAL["artillery"],
                                  USUAL["offensive"]}, purposes
    assert purposes["entente"] == {SURPRISE["dogfight"], SURPRISE["defensive"],
                                   USUAL["dogfight"], USUAL["defensive"]}, purposes
    text = cli("dice", journal).stdout
    assert SURPRISE["offensive"] in text and USUAL["offensive"] in text, text


def test_the_journal_keeps_the_engine_s_events(played):
    """What is told is worked out when it is told: no fire event is written marked, and
    the journal verifies (its events recomputed) as it would have before."""
    journal, _, _, _ = played
    fired = [ev for line in journal.read_text(encoding="utf-8").splitlines()
             for ev in json.loads(line).get("events", []) if ev["type"] == "FireResolved"]
    assert len(fired) == 9 and not any("surprise" in ev for ev in fired), fired
    assert g.verify(journal).records > 0


def test_a_battle_is_carried_from_record_to_record_until_it_ends():
    fire = {"type": "FireResolved", "phase": "offensive"}
    battles = Battles()
    assert battles.marked([fire]) == [fire]
    marked = battles.marked([{"type": "BattleBegan", "surprise": True}, fire])
    assert marked[1] == {**fire, "surprise": True} and "surprise" not in fire
    assert battles.marked([fire]) == [{**fire, "surprise": True}]   # the next record
    assert battles.marked([{"type": "BattleEnded"}, fire])[1] == fire
    assert Battles(True).marked([{"type": "CombatPhaseEnded"}, fire])[1] == fire
    assert Battles(True).marked([{"type": "BattleBegan"}, fire])[1] == fire
