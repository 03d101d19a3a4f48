"""A manual-dice game that takes no orders now (paused, closed by `reveal --force`, or
over): a player's mailed orders are answered as in any game, saying why, and the pass
goes on. mail/handling.py first tries them in a dry run, to hold them for the moderator's
dice when they roll some; in such a game that run is refused before any line is read, in
the moderator's words, and that refusal once stopped the pass as a problem of the game,
the player unanswered and his mail read again at every pass."""

from __future__ import annotations

import email
import email.policy

import pytest
from mailkinds import headline
from test_waits_on_moderator import held_for_dice
from ticklines import unstamped


def _replies_to(out, address: str) -> list[str]:
    mails = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in sorted(out.glob("*.eml"))]
    return [" ".join(m.get_body(("plain",)).get_content().split()) for m in mails
            if str(m["To"]) == address and "not applied" in headline(m)]


@pytest.mark.parametrize("halt, said, after", [
    (("deadline", "--pause"), "the game is paused", "once the game resumes"),
    (("reveal", "--force"), "so the game is closed", "nothing more is asked of you"),
    (("order", "--as", "entente", "surrender"), "the game ended at record #",
     "nothing more is asked"),
])
def test_mailed_orders_to_a_manual_dice_game_taking_none_are_answered(tmp_path, cli, halt,
                                                                      said, after):
    j, box, out = held_for_dice(tmp_path, cli)
    command, *rest = halt
    assert cli(command, j, *rest).exit_code == 0
    before = j.read_bytes()
    r = cli("tick", j, "--no-map")
    told = [line for line in unstamped(r.stdout) if "problem  " in line] + [r.stderr]
    assert not [x for x in told if "no orders are taken" in x or "no more orders" in x], \
        r.output
    assert j.read_bytes() == before
    [reply] = _replies_to(out, "e@example.org")
    assert said in reply and after in reply, reply
    assert "JOURNAL" not in reply and "--resume" not in reply, reply
    cli("tick", j, "--no-map")
    assert len(_replies_to(out, "e@example.org")) == 1            # answered once
