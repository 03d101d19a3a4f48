"""A report's fire line says why a die group fired at a firepower that is not its unit
type's own (8.2.1, 8.3.2, 9.3, 9.4), once a line, and when Stoßtruppen forced more army
retreats than the defender has armies in the battle, how many there are to make them
(8.2.2). The event keeps the firepower alone; the report gives it its reasons
(render/firewhy.py) from the position before the record."""

from types import SimpleNamespace

import gamecalls as g
from referee.render.firewhy import with_reasons
from referee.render.record_text import describe


def _army(id_: str, nation: str, area: str) -> SimpleNamespace:
    return SimpleNamespace(id=id_, nation=nation, area=area, status="map")


def _state(turn: int, options: dict, armies: list, markers: tuple = ()) -> SimpleNamespace:
    return SimpleNamespace(turn=turn, options=options, armies={a.id: a for a in armies},
                           pieces={}, combat={"markers": list(markers)})


def _group(source: str, kind: str, fp: int, dice: list[int], **more) -> dict:
    return {"source": source, "kind": kind, "fp": fp, "dice": dice,
            "hits": sum(1 for x in dice if x <= fp), **more}


def _fire(phase: str, side: str, groups: list[dict], **more) -> dict:
    return {"type": "FireResolved", "area": "somme", "side": side, "phase": phase,
            "groups": groups, "hits": sum(x["hits"] for x in groups), **more}


def test_a_firepower_not_the_unit_s_own_is_given_its_reason_once_a_line():
    data = g.game_data("ttlm")
    state = _state(16, {"uk_materiel_superiority": True},
                   [_army("uk-5", "uk", "somme"), _army("uk-3", "uk", "somme")])
    ev = _fire("defensive", "entente", [
        _group("uk-5:infantry", "infantry", 2, [1, 5]),
        _group("uk-3:infantry", "infantry", 2, [3]),
        _group("uk-5:cavalry", "cavalry", 1, [2]),
        _group("uk-5:artillery", "artillery", 2, [2])])
    line = describe(with_reasons(ev, state, data), data, "public")
    assert ("uk-5:infantry F2 (entrenched, 8.2.1) [1 5] 1 hit; uk-3:infantry F2 [3] miss; "
            "uk-5:cavalry F1 [2] miss; uk-5:artillery F2 (matériel superiority, 8.3.2) [2] "
            "1 hit") in line, line
    # Without the option, a UK artillery's F2 in defence is Poison Gas!'s (9.3); F3 is
    # the Barrage's (9.4); its own F1 is given no reason.
    plain = _state(16, {}, [_army("uk-5", "uk", "somme")])
    ev = _fire("defensive", "entente", [_group("uk-5:artillery", "artillery", 2, [4])])
    assert "uk-5:artillery F2 (Poison Gas!, 9.3) [4]" in describe(
        with_reasons(ev, plain, data), data, "public")
    ev = _fire("artillery", "german", [_group("ge-18:artillery", "artillery", 3, [4]),
                                       _group("ge-2:artillery", "artillery", 1, [5])])
    line = describe(with_reasons(ev, plain, data), data, "public")
    assert "ge-18:artillery F3 (Advanced Artillery Barrage!, 9.4) [4] miss; " \
           "ge-2:artillery F1 [5] miss" in line, line
    # Stoßtruppen fire F2 as their own: no reason.
    ev = _fire("offensive", "german", [_group("ge-18:stosstruppen", "stosstruppen", 2, [6],
                                              forces_retreat=True)])
    assert "ge-18:stosstruppen F2, forces retreats [6] miss" in describe(
        with_reasons(ev, plain, data), data, "public")


def test_retreats_forced_beyond_the_defender_s_armies_say_how_many_there_are():
    data = g.game_data("ttlm")
    ev = _fire("offensive", "german", [
        _group("ge-9:stosstruppen", "stosstruppen", 2, [1, 4, 1, 5], forces_retreat=True)],
        forced_retreats=2)
    one = _state(18, {}, [_army("fr-3", "fr", "somme"), _army("ge-9", "ge", "somme")])
    line = describe(with_reasons(ev, one, data), data, "public")
    assert line.endswith("= 2 hits; 2 army retreats forced (8.2.2), only 1 Entente army in "
                         "the battle to make them"), line
    # An army with a retreat marker is out of the battle (5.4.4); two armies make both.
    marked = _state(18, {}, [_army("fr-3", "fr", "somme"), _army("fr-5", "fr", "somme")],
                    markers=("fr-5",))
    assert describe(with_reasons(ev, marked, data), data, "public").endswith(
        "only 1 Entente army in the battle to make them")
    two = _state(18, {}, [_army("fr-3", "fr", "somme"), _army("fr-5", "fr", "somme")])
    assert describe(with_reasons(ev, two, data), data, "public").endswith(
        "2 army retreats forced (8.2.2)")
