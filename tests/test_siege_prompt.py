"""The hits to pay name which are Siege Gun hits on the fort (8.3.3) as one reads them."""

from __future__ import annotations

import pytest

from referee.engine.losses import _siege_words


@pytest.mark.parametrize("siege, hits, said", [
    (0, 2, ""),
    (1, 1, ", a Siege Gun hit on the fort (8.3.3)"),
    (2, 2, ", all of them Siege Gun hits on the fort (8.3.3)"),
    (1, 3, ", 1 of them a Siege Gun hit on the fort (8.3.3)"),
    (2, 3, ", 2 of them Siege Gun hits on the fort (8.3.3)"),
])
def test_the_siege_gun_hits_among_the_hits_to_pay(siege, hits, said):
    assert _siege_words(siege, hits) == said
