"""Every hold standing at once is named to the moderator: in his status, at every pass of
`tick` and in a mail of its own. In one game the rules leave at most one (a hold needs
dice, and the decisions both sides answer at once, 2.0 I and 7.0, roll none); two games of
one folder, their mail going out through one outbox, each hold theirs."""

from __future__ import annotations

import email
import email.policy

from test_held_orders_stand import held_view, records
from test_waits_on_moderator import MODERATOR, held_for_dice
from ticklines import problems, unstamped

from referee.mail.ledger import load_ledger, save_ledger


def _moderator_mails(out) -> list[str]:
    found = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
             for p in sorted(out.glob("*.eml"))]
    return [m.get_body(("plain",)).get_content() for m in found if str(m["To"]) == MODERATOR]


def test_two_games_of_one_folder_holding_orders_at_once_are_each_told(tmp_path, cli):
    """Two games of one folder, at the same record, their Entente mailing the same two
    'done': the moderator is mailed for each game's hold (the mails go to one outbox), and
    every pass names both."""
    a, _, out = held_for_dice(tmp_path, cli, name="case")
    b, _, same = held_for_dice(tmp_path, cli, name="other")
    assert same == out
    for _ in range(2):
        r = cli("tick", tmp_path, "--no-map")
        assert r.exit_code != 0
        for game in ("case", "other"):
            assert any(line.startswith(f"{game}: problem  the game waits on the moderator: "
                                       f"the Entente player's orders")
                       for line in unstamped(r.stdout)), (game, r.stdout)
    told = _moderator_mails(out)
    assert len(told) == 2, told
    assert sorted(f"referee order {j}" in " ".join(t.split()) for t in told for j in (a, b)
                  ).count(True) == 2, told
    for j in (a, b):
        assert [h["side"] for h in held_view(cli, j)] == ["entente"]


def test_every_hold_a_ledger_keeps_is_named_and_mailed_not_the_first_alone(tmp_path, cli):
    """No rule makes two holds in one game (the decisions both sides answer at once, 2.0 I
    reinforcements and 7.0 production, roll no dice; any other is one side's at a time),
    but a ledger that keeps two, both standing, has each named at every pass, mailed to the
    moderator and listed in his status (text and JSON): the second waited, unnamed, until
    the first was entered."""
    j, box, out = held_for_dice(tmp_path, cli)
    assert cli("tick", j, "--no-map").exit_code != 0
    head = records(j)[0]
    ledger = load_ledger(head["game_id"], head["hash"])
    ledger["held"]["german"] = {k: v for k, v in ledger["held"]["entente"].items()
                                if k != "told"} | {"lines": ["end turn"]}
    save_ledger(ledger)
    for _ in range(2):
        r = cli("tick", j, "--no-map")
        assert r.exit_code != 0
        [line] = [x for x in problems(r) if "waits on the moderator" in x]
        assert "the Entente player's orders ('done', 'done')" in line, line
        assert "the German player's orders ('end turn')" in line, line
    told = [" ".join(t.split()) for t in _moderator_mails(out)]
    assert len(told) == 2, told
    assert any("The German player's mailed orders" in t and "'end turn'" in t
               for t in told), told
    assert any("The Entente player's mailed orders" in t for t in told), told
    assert [(h["side"], h["lines"]) for h in held_view(cli, j)] == [
        ("entente", ["done", "done"]), ("german", ["end turn"])]
    text = " ".join(cli("status", j, "--as", "moderator").stdout.split())
    assert "The Entente player's mailed orders" in text and \
        "The German player's mailed orders" in text, text
