"""`autoplay` of a skirmish: random legal play (randomplay.py) into its journal, refused
before any record when its dice cannot come from the committed secret, and told as a
campaign's autoplay is told: one line, or its document (skirmish-autoplay)."""

from __future__ import annotations

from ...base.errors import UsageError
from ...contracts.skirmish import SkirmishAutoplay
from ...render.documents import side_name
from ...store.secrets import load_secret, secret_missing
from .endresult import result_of
from .randomplay import play


def autoplayed(table, seed: int, until: int | None, fmt: str
               ) -> tuple[SkirmishAutoplay | str, str | None]:
    """Random legal orders for whoever the skirmish waits on, seeded by seed, until it is
    over or turn `until` is (every phase of the card's sequence of play gone through): the
    document (fmt json) or the line to print, and the failure that stopped it (an order
    the check took and the order refused: the game's fault), in one line, if any."""
    playable(table)
    out = play(table, seed, until=until)
    game = table.game()
    result = result_of(game.card, game.state)
    failure = None if out.failure is None else (
        f"random play broke the game at {out.failure}; the journal holds every record "
        f"before it")
    if fmt == "json":
        return SkirmishAutoplay.of(
            journal=str(table.path), records=out.records, turn=game.state.turn,
            game_over=out.over, result=result, failure=out.failure), failure
    return (f"{out.records} records played; turn {game.state.turn}; "
            + (f"game over: {won(result)}" if result else "game not over")), failure


def won(result: dict) -> str:
    """Who won, from the game's result: the side with a figure left fighting."""
    return f"the {side_name(result['winner'])} side won" if result["winner"] else \
        "no side won"


def playable(table) -> None:
    """Refuse (UsageError, one line) a skirmish whose dice autoplay cannot roll: manual
    dice (the players give them), the dice secret published before a side was beaten (the
    game is closed), or the secret not beside the journal nor where `new` was told it is
    (each die is keyed by it). A game over rolls nothing: it is told as it ended, whatever
    its dice or its secret file."""
    game = table.game()
    header, state = game.header, game.state
    if state.over():
        return
    if header["dice"]["mode"] != "committed":
        raise UsageError("autoplay rolls committed dice; this game uses manual dice")
    if state.revealed is not None and not state.over():
        raise UsageError(f"autoplay: the game is closed, its dice secret published at record "
                         f"{state.revealed['record']} before a side was beaten; no order is "
                         f"taken")
    if load_secret(table.path, header) is None:
        raise secret_missing(table.path, header, "to roll autoplay's dice")
