"""A figure's name a player mistyped, answered with the nearest figure of his side, and the
place the figures come from cited in words its reader knows: the scenario's Forces, which
his report lists under that heading (the card's headings name no list of figures)."""

from __future__ import annotations

from difflib import get_close_matches

from ...base.nearness import did_you_mean
from ...base.nearness import nearest as nearest_names

# Where a refusal about a figure's or section's name cites its rule: the figures are the
# scenario's (its forces: key), not a heading of the card, and every report lists them
# under Forces. Cited as it stands, not as "rule ..." (base/errors.py: cited).
FORCES = "the scenario's Forces, as your report lists them"


def nearest(name: str, names: list[str]) -> str:
    """' (did you mean B6?)' for the name in names nearest to name, case aside (a typo of one
    letter: 'V6' for B6, 'b6'); '' when none is near."""
    folded = {n.casefold(): n for n in names}
    near = get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.5)
    return f" (did you mean {folded[near[0]]}?)" if near else ""


def one_of(key: str, value: object, values) -> str:
    """'mode= is one of assault, manoeuvre, rush, stealthy; did you mean manoeuvre?' for a
    value the card does not know, naming the nearest it knows as a mistyped figure or fact
    is named (base/nearness.py); no guess when none is near."""
    near = nearest_names(value, {v: v for v in values}) if isinstance(value, str) else []
    return f"{key}= is one of {', '.join(values)}{did_you_mean(near)}"
