"""TTLM games stored by an earlier referee are decided again, record by record, to the same result.

The journals in tests/replays/ were played by random legal play (seeds 7, 8 and 9; the dice
secret beside each) before the engine read its numbers and names from the game data, and played
again from the same seeds when the rules changed what some records decide (rules 3: pursuit
fire only when all defending units retreat, 5.4.1 note; rules 4: an empty army beside Friendly
infantry in a Disputed area retreats at the end of movement, 8.1; rules 5: no upgrade to
Stoßtruppen of an infantry in the EFT box, 7.5, which no stored game gave, so each was
played again to the same records under the new header; rules 6: a record says when a side
is not asked to retreat after combat (AAC 5.4.2), which unit types fire no die in a fire
phase (8.3.1), and that the supply check found nothing out of supply (2.0 V.1), played
again to the same orders with those events added; rules 7: a Limited Offensive made by
Bad Weather keeps a compulsory battle, 5.1.1, and a unit may be built into an army rebuilt
earlier in the same plan, 7.2, 8.1, played again from the same seeds, the 1914 game to new
plans from record 117 on, the others to their new ends; rules 8: a record's dice mix in its
own side's material alone, keyed by its side's count of such records, which no stored game
has, so each was played again to the same records under the new header; rules 9: a passing
player's army takes in no unit as it moves, 4.1, and under hidden templates a build into an
army and an upgrade are one event, and a revealed plan's totals the owner's alone, 1.4,
played again from the same seeds, each to new orders from where a pass move first had one
of the army moves left out; rules 10: no combat card once Bad Weather leaves no battle, 9.5,
and no Poison Gas! after Bad Weather, 9.3, which no stored game played, so each was played
again to the same records under the new header; rules 11: the units an annihilation removes
pay a hit for each step of their strength and only the rest go unpaid, 5.3.4, played again
from the same seeds to the same orders, each annihilation's count of hits unpaid made
right, and a move into an Enemy area says when what entered is eliminated at the end of
movement unless joined, 8.3.2-8.3.6, played again to the same orders, the 1916 and 1918
games' such moves told so; rules 12: an army holding units counts as it enters an area,
before it takes any unit there in, 1.2.2, 8.1, played again from the same seeds under the
current game data, each to new orders from where the orders random play chose among first
differed (the 1918 game from its set-up, the US reinforcements now placed as any others);
rules 13: a reinforcement plan stays open while units moved into armies could still make
room for an arrival, 2.0 I, 8.1, played again from the same seeds; rules 14: the Paris
Gun is never the unit an unsupplied army loses, 6.5, 8.3.6, and an army a retreat leaves
empty beside no Friendly infantry-type unit is eliminated at once, 8.1, played again from the
same seeds, the 1916 and 1918 games to new ends from the first such retreat).
Whatever moves in the engine without a change of rules, every
one of their records must still be decided again from its order to exactly the recorded
events, and every die and shuffle must come again from the secret.
What is allowed to differ is only what verify never compares: the header's timestamps,
engine version and data digest.

- 1914, every optional rule on, the first three seasonal turns;
- 1916, no optional rule, a whole game to its end;
- 1918, every optional rule on, a whole game to its end.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from gamecalls import create_game
from referee.engine.versions import RULES_VERSION
from referee.game.autoplay import autoplay
from referee.game.verification import verify

HERE = Path(__file__).parent / "replays"
STORED = sorted(p.name[: -len(".gz")] for p in HERE.glob("ttlm-*.jsonl.gz"))


def _unpack(name: str, into: Path) -> tuple[Path, Path]:
    """The stored journal and its secret, copied out (the secret private, as verify expects)."""
    journal = into / name
    journal.write_bytes(gzip.decompress((HERE / f"{name}.gz").read_bytes()))
    secret = into / f"{name}.secret"
    secret.write_bytes((HERE / f"{name}.secret").read_bytes())
    secret.chmod(0o600)
    return journal, secret


def test_the_stored_games_are_there():
    """Three games, so that the replay test below cannot pass by finding nothing."""
    assert STORED == ["ttlm-1914-seed7.jsonl", "ttlm-1916-seed8.jsonl", "ttlm-1918-seed9.jsonl"]


@pytest.mark.parametrize("name", STORED)
def test_every_record_is_decided_again_to_the_same_events_and_dice(name, tmp_path):
    """Every record decided again under the current rules gives the recorded events and dice."""
    journal, secret = _unpack(name, tmp_path)
    records = journal.read_bytes().count(b"\n")
    assert json.loads(journal.read_text().splitlines()[0])["rules_version"] == RULES_VERSION
    result = verify(journal, secret)
    assert result.records == records
    assert result.older == 0, "every record must be decided again, none merely replayed"
    assert any(line.startswith("dice: every die") for line in result.lines), result.lines


def test_random_play_from_the_same_seed_gives_the_same_orders(tmp_path):
    """The same seed and secret pick the same legal orders: legal_orders keeps its order too."""
    stored, _ = _unpack("ttlm-1914-seed7.jsonl", tmp_path)
    expected = [json.loads(line) for line in stored.read_text().splitlines()]
    header = expected[0]
    fresh = tmp_path / "fresh.jsonl"
    secret = tmp_path / "fresh.secret"
    secret.write_text(f"{7:064x}\n")
    secret.chmod(0o600)
    create_game(fresh, "1914", options=[f"{k}=true" for k, v in sorted(header["options"].items())],
                game_id=header["game_id"], secret_file=secret)
    autoplay(fresh, 7, max_records=60)
    got = [json.loads(line) for line in fresh.read_text().splitlines()]
    # An optional rule added to game.yaml since these games were stored is off in the fresh
    # game's header (its default) and is not in theirs: it cannot have changed the play.
    added = set(got[0]["options"]) - set(header["options"])
    assert not any(got[0]["options"][k] for k in added), added
    for k in added:
        del got[0]["options"][k]

    def same(rec: dict) -> dict:
        """A record without what may differ between two runs: time, versions, digests, chain,
        the game's key, its signatures and how orders came (the recorded journal was made
        before they were kept)."""
        volatile = {"at", "created_at", "hash", "prev", "engine_version", "data_digest",
                    "signing", "sig", "by"}
        return {k: v for k, v in rec.items() if k not in volatile}

    assert len(got) > 50
    for n, (a, b) in enumerate(zip(got, expected)):
        assert same(a) == same(b), f"record {n} differs"
