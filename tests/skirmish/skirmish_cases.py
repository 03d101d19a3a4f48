"""A small skirmish table for the card's cases: figures of any quality, weapon and kit on two
sides (red, blue), tests decided with forced dice and applied as the journal would."""

from __future__ import annotations

from pydantic import TypeAdapter

from referee.contracts.skirmish import SkirmishScenario
from referee.data.paths import default_games_dir
from referee.store.anydice import AnyDice
from referee.table.skirmish import decider as sk
from referee.table.skirmish.loading import load_skirmish

CARD = load_skirmish(default_games_dir() / "skirmish").card


def figure(fid: str, quality: str = "regular", weapon: str = "rifle", **kit) -> dict:
    return {"id": fid, "quality": quality, "weapon": weapon, **kit}


class Table:
    """Red's section R (with squad leader R0) and Blue's section B (leader B0), plus the
    figures a case asks for; the game starts in the phase named."""

    def __init__(self, red=(), blue=(), phase: str = "fire", red_quality="regular",
                 blue_quality="regular"):
        sc = TypeAdapter(SkirmishScenario).validate_python({
            "id": "cases", "title": "cases", "sides": ["red", "blue"], "first": "red",
            "forces": {
                "red": {"sections": [{"id": "R", "quality": red_quality, "figures": [
                    figure("R0", role="squad_leader"), *red]}]},
                "blue": {"sections": [{"id": "B", "quality": blue_quality, "figures": [
                    figure("B0", role="squad_leader"), *blue]}]}}})
        self.state = sk.initial_state(sc)
        self.state.phase = [p.phase for p in CARD.sequence].index(phase)
        self.seq = 0

    def test(self, side: str, text: str, dice=(), again: bool = False) -> dict:
        """The test an order makes with these dice (all used), applied to the table. again:
        as if the subject had not taken this test yet this turn (a table's rows tried one
        after the other; the limit itself is tested without it)."""
        if again:
            self.state.tests = []
        d = AnyDice("cases", self.seq + 1, None, list(dice))
        body = sk.decide(CARD, self.state, sk.parse_order(text, CARD), side, d)
        d.check_used_up()
        self.seq += 1
        sk.evolve(CARD, self.state, body, self.seq)
        return body["test"]

    def refusal(self, side: str, text: str) -> tuple[str, str] | None:
        """(the card's line, the reason) an order is refused with now, or None."""
        return sk.check(CARD, self.state, sk.parse_order(text, CARD), side)

    def fig(self, fid: str):
        return self.state.figures[fid]


def mods(test: dict) -> dict[str, int]:
    return {m["id"]: m["value"] for m in test["modifiers"]}
