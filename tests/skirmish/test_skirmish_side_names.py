"""A skirmish's refusals name a side as every mail and report does, by its name (the
British side), never by its id in lower case (the british side): a player reads them in
his answer, beside reports that say 'British' and 'German'."""

from __future__ import annotations


def _refused(cli, j, side: str, order: str) -> str:
    r = cli("skirmish", "order", j, "--as", side, order)
    assert r.exit_code == 1, r.output
    return " ".join(r.stderr.split())


def test_a_refusal_names_the_side_as_a_report_does(cli, patrol):
    assert "G2 is not a figure of the British side" in _refused(
        cli, patrol, "british", "move G2 mode=rush command=yes")
    assert cli("skirmish", "order", patrol, "--as", "german", "done").exit_code == 0
    assert "the German side is done with this phase already" in _refused(
        cli, patrol, "german", "move G2 mode=stealthy command=yes")
    told = _refused(cli, patrol, "german", "done")
    assert "German side" in told and "german side" not in told, told
