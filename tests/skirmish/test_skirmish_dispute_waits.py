"""An open dispute waits on the moderator. A tester's German player disputed a British shot
by mail; while it awaited the moderator's ruling, `status` (text and JSON) said only
"Waiting on the British player", and `tick` printed no line and exited 0: only the
moderator's mail and his report named it. Now `status` names each open dispute and what
settles it (its JSON `disputes_open`), and each pass of `tick` says the game waits on the
moderator (a problem of kind `moderator`, exit 3, code `dispute_open`), a line a pass and
no mail a pass; his ruling ends it."""

from __future__ import annotations

import json

from mailboxes import write_maildir
from test_skirmish_dispute_notes import FIRED
from test_skirmish_mail import BRITISH, GERMAN, UMPIRE, mail, mailed_patrol


class Routed:
    """A patrol whose mail comes into a Maildir, tick writing into an outbox."""

    def __init__(self, cli, tmp_path, secret_file):
        self.cli, self.j, self.n = cli, tmp_path / "patrol.jsonl", 0
        self.box = write_maildir(tmp_path / "box", [])
        self.out = tmp_path / "out"
        keys = mailed_patrol(cli, self.j, secret_file, "--player", f"moderator={UMPIRE}",
                             "--mail-in", self.box, "--mail-out", f"outbox:{self.out}")
        self.by = {BRITISH: keys["british"], GERMAN: keys["german"], UMPIRE: keys["moderator"]}

    def tick(self, *mails: tuple):
        """One pass of tick over the mails given (sender, lines...): its JSON document, its
        exit code and the mails to the moderator it wrote."""
        before = set(self.out.iterdir()) if self.out.exists() else set()
        for who, *lines in mails:
            self.n += 1
            mail(self.box / "new", self.n, who, self.by[who], *lines)
        r = self.cli("tick", self.j, "--no-map", "--format", "json")
        new = set(self.out.iterdir()) - before
        return json.loads(r.stdout), r.exit_code, \
            [p for p in new if f"\nTo: {UMPIRE}\n" in p.read_text()]


def _disputed(cli, tmp_path, secret_file) -> tuple[Routed, int]:
    """The German's dispute of a British shot's range, open: the game and the shot's
    record."""
    g = Routed(cli, tmp_path, secret_file)
    g.tick()
    g.tick((BRITISH, "move B2 mode=manoeuvre command=yes", "done"), (GERMAN, "done"),
           (BRITISH, "done"), (GERMAN, "done"))
    g.tick((BRITISH, *FIRED))
    shot = [json.loads(x) for x in g.j.read_text().splitlines()
            if '"actor":"british"' in x.replace(" ", "")][-2]["seq"]
    return g, shot


def test_status_names_an_open_dispute_and_what_settles_it(cli, tmp_path, secret_file):
    g, shot = _disputed(cli, tmp_path, secret_file)
    g.tick((GERMAN, f"dispute record={shot} fact=range value=85"))
    dispute = [json.loads(x) for x in g.j.read_text().splitlines() if '"dispute"' in x][-1]
    doc = json.loads(cli("status", g.j, "--format", "json").stdout)
    assert doc["disputes_open"] == [{"record": shot, "fact": "range", "declared": 70,
                                     "claimed": "85", "by": "german",
                                     "seq": dispute["seq"]}], doc
    text = " ".join(cli("status", g.j).stdout.split())
    assert f"Waiting on the moderator: the German player's dispute of record {shot}'s " \
        f"range (record {dispute['seq']}), settled by the moderator's `settle " \
        f"record={shot} fact=range value=VALUE` or `settle record={shot} uphold=yes`." \
        in text, text
    assert "Waiting on the British and German players: turn 1" in text, text
    # Settled: none open, and the status says no more of it.
    g.tick((UMPIRE, f"settle record={shot} fact=range value=85"))
    assert json.loads(cli("status", g.j, "--format", "json").stdout)["disputes_open"] == []
    assert "dispute of record" not in cli("status", g.j).stdout


def test_tick_says_the_game_waits_on_the_moderator_each_pass_and_mails_him_once(
        cli, tmp_path, secret_file):
    g, shot = _disputed(cli, tmp_path, secret_file)
    doc, code, told = g.tick((GERMAN, f"dispute record={shot} fact=range value=85"))
    (game,) = doc["games"]
    assert code == 3, doc
    assert game["waits_on_moderator_code"] == "dispute_open", game
    assert game["waits_on_moderator_sides"] == ["german"], game
    line = game["waits_on_moderator"]
    assert f"the German player disputes record {shot}'s range" in line, line
    assert f"settle record={shot} fact=range value=VALUE" in line, line
    assert game["kind"] == "moderator" and line.endswith(game["problems"][0]), game
    assert len(told) == 1, told         # his mail asking him to settle it, once
    # The next pass: the same line again, no mail.
    doc, code, told = g.tick()
    (game,) = doc["games"]
    assert code == 3 and game["waits_on_moderator"] == line and told == [], game
    # His ruling by mail ends the wait.
    doc, code, _ = g.tick((UMPIRE, f"settle record={shot} uphold=yes"))
    (game,) = doc["games"]
    assert code == 0 and game["waits_on_moderator"] is None, game


def test_tick_with_two_disputes_open_asks_each_settled(cli, tmp_path, secret_file):
    """Two disputes open: the pass's line names both and asks each settled, its command an
    example to give each its record and fact; one settled leaves the other's line alone."""
    g, shot = _disputed(cli, tmp_path, secret_file)
    doc, code, _ = g.tick((GERMAN, f"dispute record={shot} fact=range value=85",
                           f"dispute record={shot + 1} fact=range value=75"))
    line = doc["games"][0]["waits_on_moderator"]
    assert code == 3 and f"record {shot}'s range" in line and f"record {shot + 1}'s range" \
        in line, line
    assert "settle each by mail" in line and line.endswith("each with its record and fact"), line
    doc, code, _ = g.tick((UMPIRE, f"settle record={shot} uphold=yes"))
    line = doc["games"][0]["waits_on_moderator"]
    assert code == 3 and f"record {shot}'s" not in line and "settle it by mail" in line, line
    assert f"settle record={shot + 1} fact=range value=VALUE" in line, line
