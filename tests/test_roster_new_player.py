"""`players --set SIDE=ADDRESS` hands a side to a new address and keeps its order key: the
key goes in every mail, so the player of the old address still holds it, and an order
needs only that key and a From anyone can write. When the side changes hands, the
moderator is told, on the command's own output, to give it a new key too."""

from __future__ import annotations

from test_deadlines import new_game


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
