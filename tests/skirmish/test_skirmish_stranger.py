"""A mail from an address no player registered, even one carrying a side's real order key,
is answered as a campaign answers a stranger's (moderator.md: a reply saying only which
check it failed, naming no game), once a day at most to that address; nothing of it is
recorded. It was dropped without a word. One that carries a side's key is flagged as a
campaign flags it (mail/keyelsewhere.py): its line says whose key, and the moderator is
mailed once for that key, with what a skirmish lets him do."""

from __future__ import annotations

import email
import json
from email.policy import default

from test_skirmish_end_mails import Duel
from test_skirmish_mail import GERMAN, UMPIRE, mail

from referee.mail.msgids import record_of


def test_a_stranger_with_a_side_s_key_is_told_which_check_failed(cli, tmp_path):
    duel = Duel(cli, tmp_path)
    before = duel.j.read_bytes()
    duel.n += 1
    mail(duel.box / "new", duel.n, "fritz@evil.example.net", duel.keys["german"], "done")
    r = cli("tick", duel.j, "--no-map", "--format", "json")
    assert r.exit_code == 0, r.output
    (got,) = json.loads(r.stdout)["games"][0]["messages"]
    assert (got["status"], got["side"], got["records"]) == ("refused", None, []), got
    assert got["reason"] == "not from a registered player with his order key: its " \
        "sender's address is not one a player of this game registered (a player who has a " \
        "new address writes from the one the moderator has, or asks him to register the " \
        "new one); it carries the German player's order key, from an address not registered " \
        "for that side (the moderator is told)", got
    assert duel.j.read_bytes() == before
    replies = [email.message_from_bytes(p.read_bytes(), policy=default)
               for p in duel.out.glob("*.eml")]
    (reply,) = [m for m in replies if m["To"] == "fritz@evil.example.net"]
    assert reply["Subject"] == "referee: message not accepted"
    assert reply["In-Reply-To"] == f"<m{duel.n}@example.org>"
    # No thread of the game's, and a Message-ID that names no record of it.
    assert reply["References"] == reply["In-Reply-To"], reply["References"]
    assert record_of(reply["Message-ID"], "fritz@evil.example.net", "duel") is None
    text = reply.get_content()
    assert " ".join(text.split()) == "This message could not be matched to a player of " \
        "this game: its sender's address is not one a player of this game registered (a " \
        "player who has a new address writes from the one the moderator has, or asks him " \
        "to register the new one). Nothing was done.", text
    assert duel.keys["german"] not in text and "Forces" not in text
    # The same stranger again that day: refused, not answered again; the German's own mail
    # is taken as ever.
    duel.n += 1
    mail(duel.box / "new", duel.n, "fritz@evil.example.net", duel.keys["german"], "done")
    duel.post("german", "done")
    r = cli("tick", duel.j, "--no-map", "--format", "json")
    stranger, german = json.loads(r.stdout)["games"][0]["messages"]
    assert stranger["status"] == "refused" and stranger["reason"].endswith(
        "; no reply: one a day at most to an address that is no player's"), stranger
    assert (german["side"], german["status"]) == ("german", "applied"), german
    assert sum(1 for p in duel.out.glob("*.eml")
               if "\nTo: fritz@evil.example.net\n" in p.read_text()) == 1
    assert any(f"\nTo: {GERMAN}\n" in p.read_text() for p in duel.out.glob("*.eml"))


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_stranger_with_a_side_s_key_tells_the_moderator_once(cli, tmp_path):
    """The moderator's one mail for the German's key from another address: who sent it,
    that nothing was applied nor told its sender, and a skirmish's ways out (no address or
    key can be changed: the commands that pass the side's mail on by hand); a second mail
    with the same key tells him nothing more, and the stranger's answer says nothing of the
    key."""
    duel = Duel(cli, tmp_path)
    before = duel.j.read_bytes()
    duel.n += 1
    mail(duel.box / "new", duel.n, "spy@elsewhere.example", duel.keys["german"], "done")
    got = duel.tick()
    (told,) = got[UMPIRE]
    flat = _flat(told)
    assert flat.startswith("A mail from spy@elsewhere.example carried the order key of the "
                           "German player, but that address is not the one registered for "
                           "the side, so nothing of it was applied."), told
    assert "A skirmish keeps the addresses and order keys it was made with" in flat, told
    journal = str(duel.j)
    assert f"\n  referee skirmish report {journal} --as german\n" in told, told
    assert f"\n  referee skirmish order {journal} 'ORDER' --as german\n" in told, told
    assert "players" not in told and duel.keys["german"] not in told, told
    assert "This mail is sent once for this key." in flat, told
    (answer,) = got["spy@elsewhere.example"]
    assert duel.keys["german"] not in answer and "key was right" not in answer
    assert "German" not in answer, answer
    assert duel.j.read_bytes() == before
    # The same key from another stranger: the moderator is not mailed again.
    duel.n += 1
    mail(duel.box / "new", duel.n, "other@elsewhere.example", duel.keys["german"], "done")
    r = cli("tick", duel.j, "--no-map", "--format", "json")
    (again,) = json.loads(r.stdout)["games"][0]["messages"]
    assert again["reason"].endswith("it carries the German player's order key, from an "
                                    "address not registered for that side (the moderator "
                                    "was told of a mail with this key before)"), again
    assert not any(f"\nTo: {UMPIRE}\n" in p.read_text() for p in duel.out.glob("*.eml")
                   if p.name not in duel.seen)
    assert duel.j.read_bytes() == before
