"""A mail that asks a step a standing order would answer for its reader says so in one line:
combat cards while his hand holds none he may play (2.0 II.3b), cavalry retreat before combat
(5.4.3). He is asked all the same (skipping the step would tell the other side what he
holds), and a player who could only answer 'done' wrote a mail for it each time, told
nowhere that `standing: no combat cards` (player.md, Standing orders) does it for him.

The line comes in each mail that asks such a step, and in no other; never once he holds a
standing order for it; nor in the other side's mail. Both games of the campaign engine: the
German attacks with an army holding cavalry (TO THE LAST MAN!: the 1. Armee into
Saint-Mihiel; AT ALL COSTS!: the 8. Armee into Łomża), holding Offensive and Poison Gas!,
which SUMMER 1914 does not allow (9.3)."""

from __future__ import annotations

import pytest
from mailboxes import write_maildir
from test_deadlines import mails, text_of
from test_inbox import ADDRESSES, GAME, KEYS, SECRET
from yaml import safe_dump

import gamecalls as g
from casebook import position
from referee.mail.inbox import inbox as mail_inbox
from referee.store.dice import write_secret

CARDS = "A line 'standing: no combat cards' in a mail answers this step 'done' for you"
CAVALRY = "A line 'standing: no cavalry retreat' in a mail answers this step 'done' for you"

# game: (the units changed, the attack that declares the battle)
ATTACKS = {
    "ttlm": (dict(remove_units=["ge-1", "ge-2"],
                  add_units=["ge-1 ge army metz 5I+1C+1A", "fr-i-03 fr infantry st_mihiel"]),
             "move ge-1 st_mihiel"),
    "aac": (dict(add_units=["ru-i-09 ru infantry lomza"]), "move ge-8 lomza"),
}


def _game(tmp_path, game: str, turn: int = 1):
    """A 1914 game of `game` with test_inbox's players, the German to play his Offensive."""
    changes, _ = ATTACKS[game]
    sc = position("1914", game=game, turn=turn, player="german",
                  hands={"german": ["off-01", "gas-01"], "entente": ["ers3-01"]}, **changes)
    spath = tmp_path / "case.yaml"
    spath.write_text(safe_dump(sc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    secret = tmp_path / "fixed.secret"
    write_secret(secret, SECRET)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, str(spath), game_id=GAME, secret_file=secret, game=game,
                  players=[f"{side}={addr}" for side, addr in ADDRESSES.items()])
    return journal


def _mail(tmp_path, journal, side: str, lines: list[str], n: int) -> dict[str, str]:
    """Side's mail of these lines through `inbox`: the text of each mail it writes, by side
    (its lines joined)."""
    raw = (f"From: {ADDRESSES[side]}\nTo: {ADDRESSES['moderator']}\nSubject: orders\n"
           f"Date: Tue, 24 Nov 2026 10:0{n}:00 +0000\nMessage-ID: <m{n}.{side}@example.org>"
           f"\n\n" + "\n".join(lines) + f"\n\nOrder key: {KEYS[side]}\n").encode()
    out = tmp_path / f"out{n}"
    outcomes, _ = mail_inbox(journal, [write_maildir(tmp_path / f"box{n}", [raw])], out,
                             with_map=False)
    assert [o.status for o in outcomes] == ["applied"], outcomes
    to = {addr: side for side, addr in ADDRESSES.items()}
    return {to[str(m["To"])]: " ".join(text_of(m).split()) for m in mails(out)}


@pytest.mark.parametrize("game", ["ttlm", "aac"])
def test_each_step_a_standing_order_answers_is_told_in_the_mail_asking_it(tmp_path, game):
    journal = _game(tmp_path, game)
    said = _mail(tmp_path, journal, "german",
                 ["play offensive", ATTACKS[game][1], "end movement", "done"], 1)
    mine = said["german"]
    assert "your hand holds none of the cards the rules allow now" in mine, mine
    assert CARDS in mine and CAVALRY not in mine, mine
    assert "standing:" not in said.get("entente", ""), said
    mine = _mail(tmp_path, journal, "german", ["done"], 2)["german"]
    assert "retreat cavalry before combat" in mine, mine
    assert CAVALRY in mine and CARDS not in mine, mine


def test_a_step_his_standing_order_answers_is_not_told(tmp_path):
    """His standing order for combat cards answers them: the cavalry retreat asked next is
    told of, and nothing of combat cards."""
    journal = _game(tmp_path, "ttlm")
    mine = _mail(tmp_path, journal, "german", ["play offensive", ATTACKS["ttlm"][1],
                                               "end movement", "done",
                                               "standing: no combat cards"], 1)["german"]
    assert "retreat cavalry before combat" in mine, mine
    assert CAVALRY in mine and CARDS not in mine, mine
    assert g.open_game(journal).state.pending.kind == "cavalry_retreat"


def test_a_hand_with_a_card_he_may_play_is_not_told(tmp_path):
    """SPRING 1915: Poison Gas! is allowed (9.3), so he has a choice to make."""
    journal = _game(tmp_path, "ttlm", turn=4)
    mine = _mail(tmp_path, journal, "german", ["play offensive", ATTACKS["ttlm"][1],
                                               "end movement", "done"], 1)["german"]
    assert "your hand holds Poison Gas!: play it" in mine, mine
    assert "standing:" not in mine, mine


def test_the_report_at_the_command_line_has_no_such_line(tmp_path, cli):
    """The line tells how to write a mail: `report` prints none."""
    journal = _game(tmp_path, "ttlm")
    for order in ("play offensive", ATTACKS["ttlm"][1], "end movement", "done"):
        assert g.submit(journal, "german", [order]).rejected is None, order
    r = cli("report", journal, "--as", "german")
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    assert "your hand holds none" in said and "standing:" not in said
