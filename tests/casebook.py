"""Build what-if positions and play rulebook cases written as data (tests/rulebook/*.yaml).

A case names a base scenario and changes to it (units, control, forts,
hands, whose turn), then a list of steps: an order for a side, and either
the rule it must be rejected with or what must hold after it.
"""

from __future__ import annotations

import atexit
import copy
import functools
import json
import re
import shutil
import tempfile
from pathlib import Path

import yaml

import gamecalls as g
from referee.base.errors import OrderError
from referee.data import datastore
from referee.data.dataload import document_digest, read_document
from referee.data.paths import default_games_dir
from referee.engine import legal_orders
from referee.engine.order_text import format_order
from referee.engine.state import contents_text
from referee.render.record_text import describe

SECRET = "5e" * 32
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
UNIT = re.compile(r"^(?P<id>\S+)\s+(?P<nation>ge|fr|uk|be|us|ah|ru)\s+(?P<type>\w+)\s+(?P<area>\w+)"
                  r"(?:\s+(?P<contents>[0-9][0-9A-Za-z+]*|empty))?(?P<ent>\s+entrenched)?$")
LETTERS = {"I": "infantry", "S": "stosstruppen", "CW": "commonwealth", "C": "cavalry",
           "A": "artillery", "G": "siege_gun", "B": "biplane", "T": "tank", "P": "paris_gun",
           "IG": "imperial_guard"}


def unit(text: str) -> dict:
    """'ge-1 ge army liege 4I+1C+1A entrenched' -> a scenario unit entry."""
    m = UNIT.match(text.strip())
    if not m:
        raise ValueError(f"bad unit line {text!r}")
    u = {"id": m["id"], "nation": m["nation"], "type": m["type"], "area": m["area"],
         "entrenched": bool(m["ent"])}
    if m["type"] == "army":
        u["name"] = m["id"]
        contents = []
        if m["contents"] and m["contents"] != "empty":
            for part in m["contents"].split("+"):
                pm = re.match(r"^(\d+)(us|uk|fr|be)?([A-Z]+)$", part)
                entry = {"type": LETTERS[pm[3]], "count": int(pm[1])}
                if pm[2]:
                    entry["nation"] = pm[2]
                contents.append(entry)
        u["contents"] = contents
    return u


@functools.cache
def _scenario(game: str, base: str) -> dict:
    """A built-in scenario as its YAML holds it, read once per process (LibYAML's parser
    where PyYAML has it)."""
    src = default_games_dir() / game / "scenarios" / f"{base}.yaml"
    return yaml.load(src.read_text(encoding="utf-8"), Loader=_LOADER)


def position(base: str = "1914", **kw) -> dict:
    """A scenario dict: the base scenario with the changes a case asks for (game: the game
    whose scenario it is, ttlm by default)."""
    game = kw.pop("game", "ttlm")
    sc = copy.deepcopy(_scenario(game, base))
    sc["id"], sc["title"], sc["provenance"] = "case", "rulebook case", "test"
    sc.pop("expected_start", None)
    if "turn" in kw:
        sc["start"] = {"turn": kw["turn"], "label": g.game_data(game).label(kw["turn"])}
    ctrl = {a: side for side, areas in sc["control"].items() for a in areas}
    for area, side in (kw.get("control") or {}).items():
        ctrl[area] = side
    sc["control"] = {"german": sorted(a for a, s in ctrl.items() if s == "german"),
                     "entente": sorted(a for a, s in ctrl.items() if s == "entente")}
    sc["neutral"] = sorted(a for a, s in ctrl.items() if s == "neutral")
    if "units" in kw:
        sc["units"] = [unit(u) for u in kw["units"]]
    for uid in kw.get("remove_units", []):
        sc["units"] = [u for u in sc["units"] if u["id"] != uid]
    sc["units"] += [unit(u) for u in kw.get("add_units", [])]
    forts = {f["id"]: f for f in sc["forts"]}
    for fid, val in (kw.get("forts") or {}).items():
        if val == "out":
            forts.pop(fid, None)
            sc.setdefault("forts_out_of_play", []).append(fid)
        else:
            forts[fid]["strength"] = val
    sc["forts"] = list(forts.values())
    if kw.get("hands") is not None:
        sc["cards"] = {"draw_order": ["german", "entente"], "hands": kw["hands"]}
        if kw.get("draw_pile") is not None:
            sc["cards"]["draw_pile"] = kw["draw_pile"]
    if kw.get("player"):
        sc["position"] = {"phase": "player_turn", "player": kw["player"],
                          "consecutive_passes": kw.get("passes", 0)}
    if kw.get("eft_box") is not None:
        # units standing in the EFT box (2.0 V.4): ["3 ge infantry", ...]
        sc["eft_box"] = [{"count": int(n), "nation": nation, "type": kind}
                         for n, nation, kind in (e.split() for e in kw["eft_box"])]
    if kw.get("eliminated_armies"):
        sc["eliminated_armies"] = kw["eliminated_armies"]
    return sc


def saint_mihiel() -> dict:
    """The 5.3.4 example before the German move: the 1st Army (5I+2A) at Metz beside a lone
    French infantry at Saint-Mihiel, the German to play an offensive (off-01)."""
    return position("1914", turn=4, player="german", hands={"german": ["off-01"],
                                                           "entente": ["ers3-01"]},
                    remove_units=["ge-1", "ge-2"],
                    add_units=["ge-1 ge army metz 5I+2A", "fr-i-03 fr infantry st_mihiel"])


# The AT ALL COSTS! switches on a copy of the TTLM data, as the AAC cases (tests/rulebook/AAC-*)
# and tests/test_switches.py set them: one copy for all, loaded once per process.
AAC_SWITCHES = {
    "units.yaml": {"nations.uk.modern": False, "nations.us.modern": False},
    "map.yaml": {"impassable.+": {"id": "baltic_sea", "name": "Baltic Sea", "kind": "sea",
                                  "touches": ["aachen"]}},
    "game.yaml": {"rules.oos_markers_persist": True, "terms.player_turn": "impulse"},
}
_COPIES: dict[str, Path] = {}
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def yaml_text(document, allow_unicode: bool = False, sort_keys: bool = True) -> str:
    """document as YAML (yaml.safe_dump's text, written by the library's C emitter where it
    has one: the tests write thousands of scenarios)."""
    return yaml.dump(document, Dumper=_DUMPER, allow_unicode=allow_unicode, sort_keys=sort_keys)
_SNAPSHOTS: dict[Path, tuple[str, bytes]] = {}


def data_copy(edits: dict) -> Path:
    """A games folder holding a copy of the TTLM data with some values changed, made once per
    process for each set of edits: {"units.yaml": {"nations.fr.modern": False}, ...}; a path
    ending in "+" adds the value to a list. Cases that share one set of edits share the copy
    (and the cost of loading it once)."""
    key = json.dumps(edits, sort_keys=True)
    if key not in _COPIES:
        games = Path(tempfile.mkdtemp(prefix="casebook-data-"))
        root = games / "ttlm"
        shutil.copytree(default_games_dir() / "ttlm", root)
        for name, changes in edits.items():
            doc = yaml.load((root / name).read_text(encoding="utf-8"), Loader=_LOADER)
            for path, value in changes.items():
                parts = path.split(".")
                here = doc
                for part in parts[:-1]:
                    here = here[int(part)] if isinstance(here, list) else here[part]
                if parts[-1] == "+":                    # "impassable.+": add to a list
                    here.append(value)
                else:
                    here[parts[-1]] = value
            (root / name).write_text(yaml.dump(doc, Dumper=_DUMPER, allow_unicode=True,
                                               sort_keys=False), encoding="utf-8")
        atexit.register(shutil.rmtree, games, True)
        # The snapshot create_game keeps of the data it is given (datastore.keep), made once
        # here: reading the copy's YAML again for every case would cost more than the case.
        document = read_document(root, [])
        _SNAPSHOTS[games] = (datastore._name("ttlm", document_digest(document)),
                             datastore.pack(document))
        _COPIES[key] = games
    return _COPIES[key]


def new_game(tmp: Path, sc: dict, options: dict | None = None, dice: str = "committed",
             name: str = "case", games_dir: Path | None = None, game: str = "ttlm") -> Path:
    """Write the scenario and create a game of that game from it with a fixed secret. The
    file is written as JSON, which is YAML (flow style): the referee reads the same document
    from it, and the library's C emitter took a twentieth of a case to write it as blocks."""
    spath = tmp / f"{name}.yaml"
    spath.write_text(json.dumps(sc, ensure_ascii=False), encoding="utf-8")
    secret = tmp / f"{name}.fixed-secret"
    secret.write_text(SECRET + "\n")
    journal = tmp / f"{name}.jsonl"
    opts = [f"{k}={'true' if v else 'false'}" for k, v in (options or {}).items()]
    if games_dir in _SNAPSHOTS:
        name_, packed = _SNAPSHOTS[games_dir]
        kept = datastore.user_dir() / name_
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_bytes(packed)
    g.create_game(journal, str(spath), dice, opts, game_id=name, secret_file=secret,
                  games_dir=games_dir, game=game)
    return journal


def legal(journal: Path, side: str) -> list[str]:
    """The legal orders of side, as status lists them."""
    game = g.open_game(journal)
    return [format_order(o) for o in legal_orders(game.state, game.data, side)]


def where(state, uid: str) -> str:
    """Where a unit is: its area, 'eliminated', or 'gone'."""
    if uid in state.armies:
        a = state.armies[uid]
        return a.area if a.status == "map" else a.status
    if uid in state.pieces:
        return state.pieces[uid].area
    return "gone"


def check_expect(journal: Path, expect: dict, games_dir: Path | None = None) -> None:
    """Assert every expectation of a step."""
    game = g.open_game(journal, games_dir=games_dir)
    st, data = game.state, game.data
    if "plan_of" in expect:
        # 2.0 I: the position as that side's own sealed placements so far leave it (what his
        # next order is checked against); the real position changes when both are in.
        from referee.engine.reinforce import own_position
        st = own_position(st, data, expect["plan_of"])
    for area, want in (expect.get("control") or {}).items():
        assert st.area_state(area, data) == want, (area, st.area_state(area, data), want)
    for uid, want in (expect.get("units") or {}).items():
        assert where(st, uid) == want, (uid, where(st, uid), want)
    for aid, want in (expect.get("contents") or {}).items():
        a = st.armies[aid]
        assert contents_text(a.contents, a.nation, data) == want, (aid, a.contents, want)
    for aid, want in (expect.get("entrenched") or {}).items():
        obj = st.armies.get(aid) or st.pieces.get(aid)
        assert obj.entrenched is want, (aid, obj.entrenched)
    for side, want in (expect.get("hand_sizes") or {}).items():
        assert len(st.hands[side]) == want, (side, st.hands[side], want)
    if "pending" in expect:
        p = st.pending
        assert (f"{p.kind} {p.side}" if p else "none") == expect["pending"], p
    if "legal_count" in expect or "legal_includes" in expect or "legal_excludes" in expect:
        side = expect.get("legal_for") or st.pending.side
        lst = [format_order(o) for o in legal_orders(st, data, side)]
        if "legal_count" in expect:
            assert len(lst) == expect["legal_count"], lst
        for o in expect.get("legal_includes", []):
            assert o in lst, (o, lst)
        for o in expect.get("legal_excludes", []):
            assert o not in lst, o
    if "lose_choices" in expect:
        side = st.pending.side
        lst = sorted(format_order(o) for o in legal_orders(st, data, side)
                     if o.kind == "lose")
        assert lst == sorted(expect["lose_choices"]), lst
    if "fort" in expect:
        for fid, want in expect["fort"].items():
            got = st.forts[fid].strength if fid in st.forts else "gone"
            assert got == want, (fid, got, want)
    if "fire" in expect:
        # Every FireResolved of the step's record: phase, side and 'kind Ffp xN' per group;
        # 'rerolled' names the kind of each die a reacting Biplane had re-rolled (8.3.4).
        got = [{"phase": e["phase"], "side": e["side"],
                "groups": [f"{gr['kind']} F{gr['fp']} x{len(gr['dice'])}" for gr in e["groups"]],
                "hits": e["hits"] + e.get("siege_hits", 0),
                "rerolled": [gr["kind"] for gr in e["groups"] for _ in gr.get("rerolled", [])]}
               for e in game.records[-1]["events"] if e["type"] == "FireResolved"]
        want = expect["fire"]
        assert len(got) == len(want), got
        for g_, w in zip(got, want):
            for k, v in w.items():
                assert g_[k] == v, (k, g_, w)
    if "events" in expect:
        rec = game.records[-1]
        types = [e["type"] for e in rec["events"]]
        for t in expect["events"]:
            assert t in types, (t, types)
    if "unpaid" in expect:
        # the hits each side's HitsLost events in the step's record leave unpaid (5.3.4)
        got: dict[str, int] = {}
        for e in game.records[-1]["events"]:
            if e["type"] == "HitsLost":
                got[e["side"]] = got.get(e["side"], 0) + e["hits"]
        assert got == expect["unpaid"], (got, expect["unpaid"])
    if "log" in expect:
        # words the step's record must show in `log`, as the public reads it
        lines = " ".join(filter(None, (describe(e, data, "public")
                                       for e in game.records[-1]["events"])))
        for words in expect["log"]:
            assert words in lines, (words, lines)
    if "log_absent" in expect:
        # words the public must not read in the step's record (a hidden template's secret)
        lines = " ".join(filter(None, (describe(e, data, "public")
                                       for e in game.records[-1]["events"])))
        for words in expect["log_absent"]:
            assert words not in lines, (words, lines)
    if "vp" in expect:
        from referee.engine.victory import victory_level
        assert victory_level(st, data)[0] == expect["vp"]
    for key, want in (expect.get("state") or {}).items():
        got = st
        for part in key.split("."):
            got = got[part] if isinstance(got, dict) else getattr(got, part)
        assert got == want, (key, got, want)


def play_case(case: dict, tmp: Path) -> None:
    """Play a rulebook case: set up its position and run its steps."""
    pos = dict(case.get("position") or {})
    base = pos.pop("base", "1914")
    options = pos.pop("options", None)
    dice = pos.pop("dice", "committed")
    # data: a copy of the game data with values changed (a rule switched, data_copy)
    games = data_copy(pos.pop("data")) if pos.get("data") else None
    journal = new_game(tmp, position(base, **pos), options, dice, games_dir=games,
                       game=pos.get("game", "ttlm"))
    for i, step in enumerate(case.get("steps", [])):
        side = "german" if "german" in step else "entente"
        text = step[side]
        before = journal.read_bytes()
        dice_text = ",".join(map(str, step["dice"])) if "dice" in step else None
        if "reject" in step:
            try:
                r = g.submit(journal, side, [text], dice_text, games_dir=games)
            except OrderError as exc:
                rule = getattr(exc, "rule", None)
                assert rule == step["reject"], (i, text, str(exc))
                why = str(exc)
            else:
                assert r.rejected is not None, (i, text, "was accepted")
                assert r.rejected[2].rule == step["reject"], (i, text, str(r.rejected[2]))
                why = r.rejected[2].reason
            for part in step.get("says", []):          # words the rejection must give
                assert part in why, (i, text, part, why)
            assert journal.read_bytes() == before, (i, "journal changed")
        else:
            r = g.submit(journal, side, [text], dice_text, games_dir=games)
            assert r.rejected is None, (i, text, str(r.rejected and r.rejected[2]))
        if "expect" in step:
            check_expect(journal, step["expect"], games)
    assert g.verify(journal, games_dir=games).records > 0
