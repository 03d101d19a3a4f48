"""A small skirmish table for the card's cases: figures of any quality, weapon and kit on two
sides (red, blue), tests decided with forced dice and applied as the journal would."""

from __future__ import annotations

import json
import re

import msgspec
from flowtext import written
from pydantic import TypeAdapter

from referee.contracts.skirmish import SkirmishScenario
from referee.data.paths import default_games_dir
from referee.store.anydice import AnyDice
from referee.table.skirmish import decider as sk
from referee.table.skirmish.loading import load_skirmish

CARD = load_skirmish(default_games_dir() / "skirmish").card
# The card's tables with its fire phase in one step, as journals made before fire steps run
# it: each row of a table is tried on its own, whatever the qualities of the table's figures;
# and, as they did, a melee phase waiting on both sides with no figure in contact, and an
# aimed shot's result naming its outcome alone, an unaimed one its score needed alone, a void
# one its modifiers, a melee each attacker's outcome.
ONE_STEP = msgspec.structs.replace(CARD, fire_steps=[], melee_passed_over=False,
                                   aimed_scores=False, unaimed_needs=False, voids_told=False,
                                   said_once=False)


def figure(fid: str, quality: str = "regular", weapon: str = "rifle", **kit) -> dict:
    return {"id": fid, "quality": quality, "weapon": weapon, **kit}


class Table:
    """Red's section R (with squad leader R0) and Blue's section B (leader B0), plus the
    figures a case asks for; the game starts in the phase named."""

    def __init__(self, red=(), blue=(), phase: str = "fire", red_quality="regular",
                 blue_quality="regular", card=ONE_STEP):
        self.card = card
        sc = TypeAdapter(SkirmishScenario).validate_python({
            "id": "cases", "title": "cases", "sides": ["red", "blue"], "first": "red",
            "forces": {
                "red": {"sections": [{"id": "R", "quality": red_quality, "figures": [
                    figure("R0", role="squad_leader"), *red]}]},
                "blue": {"sections": [{"id": "B", "quality": blue_quality, "figures": [
                    figure("B0", role="squad_leader"), *blue]}]}}})
        self.state = sk.initial_state(sc)
        # Entered as the sequence of play enters it: both sides done with the phase before.
        self.state.phase = [p.phase for p in card.sequence].index(phase) - 1
        for side in ("red", "blue"):
            sk.evolve(card, self.state, {"actor": side, "test": None}, 0)
        self.seq = 0

    def test(self, side: str, text: str, dice=(), again: bool = False) -> dict:
        """The test an order makes with these dice (all used), applied to the table. again:
        as if the subject had not taken this test yet this turn (a table's rows tried one
        after the other; the limit itself is tested without it)."""
        if again:
            self.state.tests = []
        d = AnyDice("cases", self.seq + 1, None, list(dice))
        body = sk.decide(self.card, self.state, sk.parse_order(text, self.card), side, d)
        d.check_used_up()
        self.seq += 1
        sk.evolve(self.card, self.state, body, self.seq)
        return body["test"]

    def into_contact(self, side: str, *fids: str, at: str, mode: str = "assault") -> None:
        """Each of fids moves into contact with enemy figure `at` (Hand-to-Hand Combat: a
        figure new to a melee moved into contact this turn; a card with contact_holds reads
        whom it contacts), then both sides say done until the melee phase."""
        named = f" at={at}" if self.card.melee.contact_holds else ""
        for fid in fids:
            self.test(side, f"move {fid} mode={mode} contact=yes{named} command=yes", [3])
        self.until("melee")

    def until(self, phase: str) -> None:
        """Both sides say done until the game is in `phase` (of the next turn, if need be)."""
        for _ in range(12):
            if self.card.sequence[self.state.phase].phase == phase:
                return
            for side in ("red", "blue"):
                if side not in self.state.done:     # one asked nothing before names it
                    named = side in self.state.unasked
                    self.test(side, f"done {self.card.sequence[self.state.phase].phase}"
                              if named else "done")
        raise AssertionError(f"never reached {phase}")

    def refusal(self, side: str, text: str) -> tuple[str, str] | None:
        """(the card's line, the reason) an order is refused with now, or None."""
        return sk.check(self.card, self.state, sk.parse_order(text, self.card), side)

    def fig(self, fid: str):
        return self.state.figures[fid]


def mods(test: dict) -> dict[str, int]:
    return {m["id"]: m["value"] for m in test["modifiers"]}


def done_until(cli, journal, phase: str, turn: int | None = None, step: str | None = None
               ) -> None:
    """Every side the game waits on says done until it is in `phase` (of `turn`, and with
    `step`'s quality firing, when given), as `status --format json` tells it."""
    for _ in range(60):
        now = json.loads(cli("status", journal, "--format", "json").stdout)
        if now["phase"] == phase and turn in (None, now["turn"]) and \
                (step is None or step in now["firing"]):
            return
        r = cli("order", journal, "--as", now["waiting_on"][0], "done")
        if r.exit_code and f"'done {now['phase']}' closes" in r.stderr:   # asked nothing before
            r = cli("order", journal, "--as", now["waiting_on"][0], f"done {now['phase']}")
        assert r.exit_code == 0, r.stderr
    raise AssertionError(f"never reached the {phase} phase")


def said_done(cli, journal, side: str, *options: str):
    """side's done as a player who reads his status says it: `done PHASE` where the step
    before asked nothing of him and a bare done is refused (card dones_asked)."""
    r = cli("order", journal, "--as", side, "done", *options)
    if r.exit_code and "' closes the" in r.stderr:
        phase = json.loads(cli("status", journal, "--format", "json").stdout)["phase"]
        r = cli("order", journal, "--as", side, f"done {phase}", *options)
    return r


# A one-rifle-each duel, its scenario file's text: a game that ends at the first kill.
DUEL = """\
id: duel
title: "A duel"
sides: [british, german]
first: german
forces:
  british:
    sections:
      - id: B
        quality: regular
        figures:
          - {id: B1, role: squad_leader, weapon: rifle}
  german:
    sections:
      - id: G
        quality: regular
        figures:
          - {id: G1, role: squad_leader, weapon: rifle}
"""


def new_mails(out, before: set) -> dict[str, str]:
    """The mails written to the outbox out since before (the paths then), each text by its
    reader's address."""
    import email
    from email.policy import default

    got = {}
    for p in set(out.glob("*.eml")) - before:
        m = email.message_from_bytes(p.read_bytes(), policy=default)
        got[str(m["To"])] = written(m.get_content())
    return got


def tick_done(r) -> bool:
    """Whether a pass of tick left nothing undone but for the disputes open, which it says
    wait on the moderator (exit 3, each problem line that wait: card disputes_wait)."""
    said = re.findall(r"problem  ([^\n\"]*)", r.output)
    return r.exit_code == 0 or r.exit_code == 3 and bool(said) and all(
        line.startswith("the game waits on the moderator: ") and " disputes record " in line
        for line in said)
