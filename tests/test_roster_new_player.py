"""`players --set SIDE=ADDRESS` hands a side to a new address and keeps its order key: the
key goes in every mail, so the player of the old address still holds it, and an order
needs only that key and a From anyone can write. When the side changes hands, the
moderator is told, on the command's own output, to give it a new key too."""

from __future__ import annotations

from test_deadlines import ADDRESSES, mails, new_game, player_mail, text_of

from referee.mail.inbox import inbox as mail_inbox


def test_a_side_given_a_new_address_is_told_its_key_is_kept(tmp_path, cli):
    journal = new_game(tmp_path, cli, "via_cli")
    r = cli("players", journal, "--set", "german=newcomer@example.org")
    assert r.exit_code == 0, r.output
    [told] = [line for line in r.stdout.splitlines() if line.startswith("german: ")]
    assert "order key is still the one sent to the old address" in told, told
    assert f"`referee players {journal} --new-key german`" in told, told


def test_nothing_is_told_when_the_key_changes_too_or_for_the_moderator(tmp_path, cli):
    journal = new_game(tmp_path, cli, "via_cli")
    for given in (("--set", "german=newcomer@example.org", "--new-key", "german"),
                  ("--set", "moderator=umpire@example.org"),
                  ("--set", "observer=press@example.org")):
        r = cli("players", journal, *given)
        assert r.exit_code == 0, r.output
        assert "--new-key" not in r.stdout, r.stdout


def test_the_old_address_is_told_it_is_no_longer_registered(tmp_path, cli, clock):
    """The German side handed to a new player: a mail from the address it had, with the
    key it had, is refused, and its answer says why in words that player can act on (his
    address is registered no more), not that he should register a new one."""
    journal = new_game(tmp_path, cli, "--deadline", "48h")
    old = ADDRESSES["german"]
    assert cli("players", journal, "--set", "german=newcomer@example.org").exit_code == 0
    before = journal.read_bytes()
    outcomes, _ = mail_inbox(journal, [player_mail(tmp_path, "german", ["pass"], 1)],
                             tmp_path / "out", with_map=False)
    assert [o.status for o in outcomes] == ["rejected"], outcomes
    assert journal.read_bytes() == before
    [answer] = [m for m in mails(tmp_path / "out") if str(m["To"]).casefold() == old.casefold()]
    said = " ".join(text_of(answer).split())
    assert "no longer registered" in said and "register the new one" not in said, said
    assert "newcomer" not in said, said
