"""The level of victory a view's `vp` gives (3.1): the Victory Chart's for the VP while the
game goes on; once it is over at another level, the result's, the chart's beside it as
`vp_level` (a surrender counts one level worse for the side that resigned, 3.3). `show`
and `report` give `vp.level` so, so that the key means one thing in both and a script
never reads a level the game did not end at."""

from __future__ import annotations


def at_the_end(vp: dict[str, object], result: dict[str, object] | None) -> dict[str, object]:
    """vp (with the chart's `level` and `level_name`) as a view gives it, result: the
    game's (None while it goes on)."""
    if not result or not result.get("level") or result["level"] == vp["level"]:
        return vp
    return {**vp, "level": result["level"], "level_name": result.get("level_name") or
            result["level"], "vp_level": vp["level"], "vp_level_name": vp["level_name"]}


def vp_level_name(vp: dict[str, object]) -> str:
    """The name of the level the Victory Chart gives the VP of a view's vp, result or not."""
    return vp.get("vp_level_name") or vp["level_name"]
