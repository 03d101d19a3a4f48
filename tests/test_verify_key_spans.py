"""What `verify` says of the keys that signed a journal names only records it holds: right
after a key change (the last record), the new key has signed none, and the line says it is
named by that record and signs the next, never "from record N" of a record not written; once
it signed one, "for record N", not "for records N-N"."""

from __future__ import annotations

from forging import records, shown


def _signatures(cli, game) -> str:
    r = cli("verify", game)
    assert r.exit_code == 0, r.output
    return next(line for line in r.stdout.splitlines() if line.startswith("signatures:"))


def test_the_keys_of_a_journal_just_rekeyed_and_then_signed_on(cli, game):
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    old = records(game)[0]["signing"]["fingerprint"]
    assert cli("rekey", game).exit_code == 0
    change = records(game)[-1]
    new = change["signing"]["fingerprint"]
    seq = change["seq"]
    line = _signatures(cli, game)
    assert line == (f"signatures: records 0-{seq}, each signed by the game's key in force: "
                    f"{shown(old)} for records 0-{seq}, {shown(new)}, named by the key change "
                    f"at record {seq}, which has signed no record yet (it signs the next)"), line
    assert f"from record {seq + 1}" not in line
    assert cli("order", game, "--as", "german", "move ge-5 luxembourg").exit_code == 0
    line = _signatures(cli, game)
    assert line.endswith(f"{shown(old)} for records 0-{seq}, {shown(new)} for record "
                         f"{seq + 1}"), line
