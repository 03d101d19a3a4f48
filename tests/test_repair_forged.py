"""`repair` of a whole journal passed off as this referee's (records edited and chained again
without the key, their signatures kept or dropped; an older copy put back) refuses it as
every other command does: the same one line, exit 3, nothing changed, no backup written.
It never says "nothing to repair" of a journal `status` refuses."""

from __future__ import annotations

import pytest
from forging import records

from referee.store.chain import canonical, seal


@pytest.fixture
def played(game, cli):
    """The test game two records on: the German's pass and move."""
    for order in ("pass", "move ge-5 luxembourg"):
        assert cli("order", game, "--as", "german", order).exit_code == 0
    return game


def _chained_again(journal, unsigned: bool) -> None:
    """Record 2's order edited, every record sealed and chained again without the key: the
    signatures kept as they were, or dropped."""
    recs, prev, out = records(journal), None, []
    recs[2]["order"] = "move ge-5 liege"
    for rec in recs:
        dropped = ("hash", "sig") if unsigned else ("hash",)
        rec = seal({**{k: v for k, v in rec.items() if k not in dropped},
                    **({"prev": prev} if prev else {})})
        prev = rec["hash"]
        out.append(canonical(rec) + b"\n")
    journal.write_bytes(b"".join(out))


@pytest.mark.parametrize("how", ["chained again", "signatures dropped", "cut back"])
def test_repair_refuses_a_journal_every_other_command_refuses(how, played, cli):
    if how == "cut back":
        played.write_bytes(b"".join(played.read_bytes().splitlines(keepends=True)[:-1]))
    else:
        _chained_again(played, unsigned=how == "signatures dropped")
    before = played.read_bytes()
    folder = sorted(p.name for p in played.parent.iterdir())
    status = cli("status", played)
    assert status.exit_code == 3
    r = cli("repair", played)
    assert r.exit_code == 3, r.stdout
    assert r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    assert "nothing to repair" not in r.stderr
    # The same line as status's, but for what was not done.
    assert r.stderr.replace("nothing was changed", "") == \
        status.stderr.replace("nothing of it is shown", ""), (r.stderr, status.stderr)
    assert played.read_bytes() == before
    assert sorted(p.name for p in played.parent.iterdir()) == folder
    assert cli("repair", played, "--format", "json").exit_code == 3


def test_repair_of_a_whole_journal_of_its_own_has_nothing_to_do(played, cli):
    r = cli("repair", played)
    assert r.exit_code == 0 and "nothing to repair (4 complete records)" in r.stdout
