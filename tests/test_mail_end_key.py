"""A finished game's last mails end with no order key: nothing more is taken (the answer
to any later mail says so), so the key that closed every report is replaced by that. They
ended with 'Order key: ...' as if a reply could still be read."""

from __future__ import annotations

from test_hostile_mail import ADDRESSES, KEYS, eml, handled, mail, new_game, replies_to


def body(m) -> str:
    return m.get_body(preferencelist=("plain",)).get_content()


def test_the_last_mails_of_a_game_over_carry_no_key(tmp_path, cli):
    journal = new_game(cli, tmp_path / "game")
    raw = mail(frm=ADDRESSES["entente"], body=f"surrender\n\nOrder key: {KEYS['entente']}\n")
    out = handled(cli, journal, eml(tmp_path / "in", raw), outbox=tmp_path / "out")
    assert out[0]["status"] == "applied", out
    for side in ("german", "entente"):
        (last,) = replies_to(tmp_path / "out", ADDRESSES[side])
        text = body(last)
        assert "The game is over" in text
        assert "Order key:" not in text and KEYS[side] not in text, text
        assert "No order key: the game has ended; nothing more is taken." in text, text
