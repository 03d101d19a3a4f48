"""Committed dice: derivation, fairness, shuffles, the secret file, manual dice."""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from collections import Counter

import pytest

from referee.base.errors import DiceError, UsageError
from referee.store import dice as dm

SECRET = bytes(range(32))


def test_a_die_follows_the_documented_derivation():
    """Die i of record n is the first HMAC byte below 252, mod 6, plus 1."""
    for n, i in [(1, 0), (7, 3), (123, 45)]:
        digest = hmac.new(SECRET, f"g/{n}/{i}".encode(), hashlib.sha256).digest()
        b = next(x for x in digest if x < 252)
        assert dm.die(SECRET, "g", n, i) == b % 6 + 1


def test_dice_depend_on_secret_game_record_and_index():
    base = [dm.die(SECRET, "g", 1, i) for i in range(50)]
    assert base == [dm.die(SECRET, "g", 1, i) for i in range(50)]
    assert base != [dm.die(SECRET, "h", 1, i) for i in range(50)]
    assert base != [dm.die(SECRET, "g", 2, i) for i in range(50)]
    assert base != [dm.die(bytes(32), "g", 1, i) for i in range(50)]


def test_sixty_thousand_rolls_hit_within_one_percent_at_f1_f2_f3():
    """5.2.2: F1 hits on 1, F2 on 1-2, F3 on 1-3; committed dice must be fair."""
    rolls = [dm.die(SECRET, "fair", n, i) for n in range(600) for i in range(100)]
    assert len(rolls) == 60000
    counts = Counter(rolls)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for f, p in ((1, 1 / 6), (2, 1 / 3), (3, 1 / 2)):
        rate = sum(1 for r in rolls if r <= f) / len(rolls)
        assert abs(rate - p) < 0.01, (f, rate)


def test_below_is_uniform_and_in_range():
    vals = [dm.below(SECRET, "g", 1, i, 7) for i in range(7000)]
    assert set(vals) == set(range(7))
    assert max(Counter(vals).values()) < 1150


def test_shuffle_is_a_permutation_and_reproducible():
    cards = [f"c{i}" for i in range(55)]
    d1 = dm.Dice("g", 3, SECRET)
    order, draws = d1.shuffle(cards)
    assert sorted(order) == sorted(cards) and order != cards and draws == 54
    d2 = dm.Dice("g", 3, SECRET)
    assert d2.shuffle(cards)[0] == order


def test_secret_file_is_private_and_committed(tmp_path):
    s = dm.new_secret()
    assert len(s) == 32
    p = tmp_path / "x.secret"
    dm.write_secret(p, s)
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    assert dm.read_secret(p) == s
    assert dm.commitment(s) == hashlib.sha256(s).hexdigest()
    with pytest.raises(UsageError):
        dm.write_secret(p, s)          # never overwritten


@pytest.mark.parametrize("text", ["0", "7", "3,x", "-1", "3.5"])
def test_manual_dice_out_of_range_are_rejected(text):
    with pytest.raises(DiceError):
        dm.parse_manual(text)


def test_manual_dice_missing_and_extra():
    m = dm.ManualDice(dm.parse_manual("3,1,6"))
    assert m.take(2, "fire") == [3, 1]
    with pytest.raises(DiceError):
        m.take(2, "fire")
    m = dm.ManualDice([1, 2])
    m.take(1, "fire")
    with pytest.raises(DiceError):
        m.check_used_up()
