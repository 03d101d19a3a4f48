"""The ending record and the game's own replay walk the records in one way: one generator
of states (life.states) serves replay and ending_record, so the state the ending
record reads after each record is the state the game replayed to that record has."""

from __future__ import annotations

from test_skirmish_end_replay import _told_after_a_ruling

from referee.table import Table
from referee.table.skirmish import ending, life


def test_replay_and_the_ending_record_read_one_walk_of_states(cli, tmp_path):
    records = Table(_told_after_a_ruling(cli, tmp_path).j).records
    assert ending.states is life.states
    walked = [(rec["seq"], state.over()) for rec, _, state in life.states(records)]
    assert [seq for seq, _ in walked] == list(range(len(records)))
    assert [over for _, over in walked] == [life.replay(records[:n + 1])[1].over()
                                           for n in range(len(records))]
    assert ending.ending_record(records) is records[6]
