"""A stranger's mail carrying the skirmish moderator's own order key (the key that settles
disputes by mail) is refused like any stranger's, and the moderator is told once that
someone else holds his key, in words for his own key, as he is told once of a side's
(mail/keyelsewhere.py)."""

from __future__ import annotations

from test_skirmish_dispute_waits import Routed
from test_skirmish_mail import UMPIRE, mail


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
    text = " ".join(told[0].read_text().split())
    assert "carried your own order key" in text and "referee players" not in text, text
    assert "the moderator's order key" in r.output and "(the moderator is told)" in r.output
    before = set(g.out.iterdir())
    mail(g.box / "new", 91, "y@elsewhere.example", g.by[UMPIRE], "settle record=1 uphold=yes")
    again = cli("tick", g.j, "--no-map")
    assert "was told of a mail with this key before" in again.output, again.output
    assert not [p for p in set(g.out.iterdir()) - before
                if f"\nTo: {UMPIRE}\n" in p.read_text()]
