"""What a skirmish's reports and mails tell a player in words, beside what the rules decide:
who must stand where for a claim, and the like."""

from __future__ import annotations

from referee.table.skirmish.report import owed_lines


def test_a_claim_names_whose_figures_stand_between_which_troops_and_whose_edge():
    """Card, Surrendering: routing troops surrender with "enemy between them and their table
    edge". Said to the claimant as "German may claim, if the enemy is between them and their
    table edge", the enemy read as the British, them as the Germans: the line names the
    claimant's figures, the routing section and its own edge."""
    [line] = owed_lines({}, {"german": ["surrender B reason=routing between=yes within=6"]})
    assert line.startswith("German may claim, if German figures are between the routing "
                           "section and its own table edge and within the distance stated "
                           "(Surrendering): surrender B"), line
    assert "the enemy" not in line and "them" not in line
