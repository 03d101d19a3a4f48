"""What a moderator's ruling did, as the answer to his settle tells it (his mail's answer,
`skirmish order --as moderator`), as a player's answer lists each test his mail made: the
facts upheld and the result standing, or the test decided again with its new result; and,
first, when it undid the game's end, that the game goes on."""

from __future__ import annotations

from ...base.plurals import plain_plurals
from .ending import undone_words
from .report import report_document, test_lines


def ruling_lines(records: list[dict], game, seq: int) -> tuple[list[str], dict | None]:
    """The lines telling what ruling seq did, and the test it decided again (None for an
    uphold), in the report's form (report.test_lines)."""
    rec = records[seq]
    n = rec["settle"]["record"]
    head = f"#{seq} moderator: {rec['order']}"
    test = next((t for t in report_document(game.header, game.card, game.state)["tests"]
                 if t["record"] == n), None)
    if rec["settle"].get("upheld") or test is None:
        stands = f": {plain_plurals(test['result'])}" if test else ""
        return [f"{head}: #{n}'s facts upheld; its result stands{stands}"], None
    undone = undone_words(records, game.state, seq - 1)[:1]
    return [*undone, f"{head}: #{n} decided again, its new result:", *test_lines(test)], test


def settled_by(records: list[dict], seqs) -> list[int]:
    """The tests the rulings among records seqs decided again (an answer lists them)."""
    return [records[n]["settle"]["record"] for n in seqs
            if isinstance(records[n].get("settle"), dict) and "test" in records[n]["settle"]]
