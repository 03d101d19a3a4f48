"""A stranger's mail carrying the skirmish moderator's own order key (the key that settles
disputes by mail) is refused like any stranger's, but the moderator is never told that
someone else holds his key, as he is told once of a side's (mail/keyelsewhere.py leaves
the moderator's key out of keyed_elsewhere)."""

from __future__ import annotations

import pytest
from test_skirmish_dispute_waits import Routed
from test_skirmish_mail import UMPIRE, mail


@pytest.mark.xfail(strict=True, reason="keyed_elsewhere passes over the moderator's key: "
                   "a stranger holding it is never reported to him")
def test_a_strangers_mail_with_the_moderators_key_tells_him_once(cli, tmp_path, secret_file):
    g = Routed(cli, tmp_path, secret_file)
    g.tick()
    before = set(g.out.iterdir())
    mail(g.box / "new", 90, "z@elsewhere.example", g.by[UMPIRE], "settle record=1 uphold=yes")
    r = cli("tick", g.j, "--no-map")
    assert r.exit_code == 0, r.output
    told = [p for p in set(g.out.iterdir()) - before
            if f"\nTo: {UMPIRE}\n" in p.read_text()]
    assert len(told) == 1 and "order key" in told[0].read_text(), told
