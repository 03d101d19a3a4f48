"""A record whose dice are not the ones the committed secret gives is told die by die: what
each was rolled for, as its events say, with the face recorded and the face the secret gives
(the first few)."""

from __future__ import annotations

import pytest

from referee.base.errors import JournalError
from referee.game.dicecheck import check_dice
from referee.store import dice as dicemod

SECRET = b"s" * 32


def _fired(seq: int, faces: list[int]) -> dict:
    groups = [{"source": "uk-3:infantry", "kind": "infantry", "fp": 2, "dice": faces[:2],
               "hits": 1},
              {"source": "fr-10:infantry", "kind": "infantry", "fp": 2, "dice": faces[2:],
               "hits": 0}]
    return {"seq": seq, "dice": list(faces),
            "events": [{"type": "BattleStep", "step": "defensive_fire"},
                       {"type": "FireResolved", "area": "amiens", "side": "entente",
                        "phase": "defensive", "groups": groups, "hits": 1}]}


def _secret_faces(seq: int, count: int) -> list[int]:
    return [dicemod.die(SECRET, "g", seq, i) for i in range(count)]


def test_the_die_that_differs_is_named_with_its_fire_and_both_faces():
    faces = _secret_faces(7, 4)
    check_dice(_fired(7, faces), "j.jsonl", "g", SECRET)       # the secret's: passes
    forged = list(faces)
    forged[2] = forged[2] % 6 + 1
    with pytest.raises(JournalError) as caught:
        check_dice(_fired(7, forged), "j.jsonl", "g", SECRET)
    assert str(caught.value) == (
        f"j.jsonl: record 7: its dice are not the ones the committed secret gives: die 3 "
        f"(entente's defensive fire at amiens, by fr-10:infantry): {forged[2]} recorded, "
        f"{faces[2]} from the secret")


def test_dice_the_events_do_not_account_for_are_named_by_their_place():
    faces = _secret_faces(3, 4)
    rec = {"seq": 3, "dice": [f % 6 + 1 for f in faces], "events": []}
    with pytest.raises(JournalError) as caught:
        check_dice(rec, "j.jsonl", "g", SECRET)
    text = str(caught.value)
    assert f"die 1: {faces[0] % 6 + 1} recorded, {faces[0]} from the secret" in text, text
    assert text.endswith("; and 1 more")
