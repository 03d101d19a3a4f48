"""No pile, hand or list of cards grows past the game's deck while a journal is replayed.

Each card of the deck (55 in TO THE LAST MAN!) is in one place at a time, so a record that
would put more cards in a hand, the draw pile, the discard pile or out of the game is none
the referee writes. Such records, signed by the game's key here as only its holder could,
are refused as their record, in one line: replaying never works over lists that grow
without end (a hand of 60,000 cards discarded one by one took minutes once).
"""

from __future__ import annotations

from forging import game_key, resign
from test_deadlines import new_game, records

from referee.store.journal import line_of

DECK = 55


def _planted(journal, bodies: list[dict]) -> int:
    """The journal with these records after it, sealed, chained and signed by the game's key;
    the seq of the first."""
    recs = records(journal)
    first = len(recs)
    for body in bodies:
        recs.append(resign({"seq": len(recs), "prev": recs[-1]["hash"],
                            "at": "2026-11-23T18:00:00Z", "actor": "moderator",
                            "order": "set up", **body}, game_key(recs[0])))
    journal.write_bytes(b"".join(line_of(r) for r in recs))
    return first


def _drawn(cards: list[str]) -> dict:
    return {"type": "CardsDrawn", "side": "german", "count": len(cards), "reason": "set-up",
            "secret": {"to": "german", "salt": "00" * 16, "data": {"cards": cards}}}


def _discarded(cards: list[str]) -> dict:
    return {"type": "CardsDiscarded", "side": "german", "cards": cards, "reason": "set-up"}


def _refused(cli, journal, seq: int, where: str) -> None:
    r = cli("status", journal)
    assert r.exit_code == 3 and r.stderr.count("\n") == 1, r.output
    assert f"record {seq}" in r.stderr, r.stderr
    assert f"{where} would hold {DECK + 1} cards, more than the game's deck of {DECK}" \
        in r.stderr, r.stderr


def test_a_hand_drawn_past_the_deck_is_refused_as_its_record(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli)
    held = len(records(journal)[1]["events"][1]["secret"]["data"]["cards"])
    cards = [f"c{n}" for n in range(DECK + 1 - held)]
    seq = _planted(journal, [{"events": [_drawn(cards)]}])
    _refused(cli, journal, seq, "the german hand")


def test_a_discard_pile_grown_past_the_deck_is_refused_as_its_record(tmp_path, cli, clock):
    # The same card drawn again and again, each time discarded: the hand stays small, the
    # discard pile grows by one a record.
    journal = new_game(tmp_path, cli)
    cycle = {"events": [_drawn(["off-01"]), _discarded(["off-01"])]}
    seq = _planted(journal, [cycle] * (DECK + 1))
    _refused(cli, journal, seq + DECK, "the discard pile")
