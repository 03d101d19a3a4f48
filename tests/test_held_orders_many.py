"""Every hold standing at once is named to the moderator: in his status, at every pass of
`tick` and in a mail of its own. In one game the rules leave at most one (a hold needs
dice, and the decisions both sides answer at once, 2.0 I and 7.0, roll none); two games of
one folder, their mail going out through one outbox, each hold theirs."""

from __future__ import annotations

import email
import email.policy

from test_held_orders_stand import held_view
from test_waits_on_moderator import MODERATOR, held_for_dice


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
                                       f"entente's orders") for line in r.stdout.splitlines()), \
                (game, r.stdout)
    told = _moderator_mails(out)
    assert len(told) == 2, told
    assert sorted(f"referee order {j}" in " ".join(t.split()) for t in told for j in (a, b)
                  ).count(True) == 2, told
    for j in (a, b):
        assert [h["side"] for h in held_view(cli, j)] == ["entente"]
