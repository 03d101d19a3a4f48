"""`players --set SIDE=ADDRESS` with the address registered for the side already, as it is
or with its letters cased otherwise (the same mailbox: base/addresses.py's address_key), is
no change: nothing is written, no reader is told the address changed, and the moderator
reads one line saying so (exit 0, as setting what is set is done)."""

from __future__ import annotations

import json

import pytest
from test_deadlines import new_game
from test_inbox import ADDRESSES

REGISTERED = ADDRESSES["german"]                     # Kaiser@Example.org


@pytest.mark.parametrize("given", [REGISTERED, REGISTERED.lower(), REGISTERED.upper()])
def test_setting_the_registered_address_again_writes_nothing(tmp_path, cli, given):
    journal = new_game(tmp_path, cli, "via_cli")
    before = journal.read_bytes()
    r = cli("players", journal, "--set", f"german={given}")
    assert r.exit_code == 0, r.output
    assert journal.read_bytes() == before
    assert r.stdout.splitlines() == [
        f"german: {given} is already registered for german"
        + (f" (as {REGISTERED})" if given != REGISTERED else "") + "; not changed"], r.stdout
    assert r.stderr == ""
    listed = cli("players", journal).stdout
    assert f"german     {REGISTERED}" in listed, listed


def test_in_json_the_side_unchanged_is_named_and_nothing_is_written(tmp_path, cli):
    journal = new_game(tmp_path, cli, "via_cli")
    before = journal.read_bytes()
    r = cli("players", journal, "--set", "german=kaiser@example.org", "--format", "json")
    assert r.exit_code == 0, r.output
    view = json.loads(r.stdout)
    assert view["unchanged"] == ["german"], view
    assert {p["side"]: p["address"] for p in view["players"]}["german"] == REGISTERED
    assert journal.read_bytes() == before


def test_a_case_only_change_beside_a_real_one_is_not_told_as_a_change(tmp_path, cli):
    """One record for the entente's new address; no reader reads that the German's changed."""
    journal = new_game(tmp_path, cli, "via_cli")
    r = cli("players", journal, "--set", "german=kaiser@example.org", "--set",
            "entente=foch@example.net")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == (f"german: kaiser@example.org is already registered "
                                        f"for german (as {REGISTERED}); not changed"), r.stdout
    listed = cli("players", journal).stdout
    assert f"german     {REGISTERED}" in listed and "foch@example.net" in listed, listed
    for reader in ("german", "entente", "public", "moderator"):
        log = cli("log", journal, "--as", reader).stdout
        assert "changed the Entente player's address" in log, log
        assert "German player's address" not in log, log
