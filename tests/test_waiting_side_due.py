"""The side waiting is told by when the other side's orders are due (a deadline is
public: `status` and the public report give it): 'Waiting on the German player: ... A new
mail will ask you when a decision is yours' gave him no time. His own deadline his mail
gives in its own line, so his report does not repeat it."""

from __future__ import annotations

from test_deadlines import DUE_WORDS, new_game


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_waiting_side_reads_the_deadline_of_the_side_asked(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli", "--deadline", "48h")
    said = flat(cli("report", journal, "--as", "entente").stdout)
    now = said.split("Now ---")[1].strip()
    assert now.startswith("Waiting on the German player:"), now
    assert f"German: {DUE_WORDS}." in now, now
    own = flat(cli("report", journal, "--as", "german").stdout)
    assert DUE_WORDS not in own, own


def test_a_game_without_deadlines_tells_no_time(tmp_path, cli, clock):
    journal = new_game(tmp_path, cli, "via_cli")
    said = flat(cli("report", journal, "--as", "entente").stdout)
    assert "due by" not in said, said
