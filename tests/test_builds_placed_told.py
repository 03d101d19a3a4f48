"""Every build and placement of a revealed plan has its line, naming the army that took the
unit (2.0 I, 7.2, 8.1): a revealed plan said "build ge infantry Liège into ge-1", and only
the builds and placements that gave a new id were told, nothing for a unit that went into
an army, nor for an army's counter placed. A template hidden from the reader stays hidden
(1.4). And a plan sealed whole is told once, by its record's heading: not again as sealed,
then as all in."""

from __future__ import annotations

import pytest

import gamecalls as g
from casebook import SECRET, legal


def _flat(text: str) -> str:
    return " ".join(text.split())


def _to(journal, kind: str, prefer) -> None:
    """Every decision answered with its first plain answer, production and placements with
    the orders `prefer` picks, until the decision is `kind`."""
    while g.open_game(journal).state.pending.kind != kind:
        st = g.open_game(journal).state
        side = st.pending.side
        open_ = legal(journal, side)
        picked = prefer(side, open_)
        line = picked or next(t for t in ("pass", "end turn", "done", "buy 0") if t in open_)
        assert g.submit(journal, side, [line]).rejected is None, (side, line)


def _game(tmp_path, hidden: bool = False):
    secret = tmp_path / "fixed.secret"
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    journal = tmp_path / "g.jsonl"
    g.create_game(journal, "1914", game_id="builds", secret_file=secret, game="ttlm",
                  options=["hidden_templates=true"] if hidden else None)
    built: set[str] = set()

    def prefer(side, open_):
        if side == "german" and side not in built:
            into = [t for t in open_ if t.startswith("build ge infantry") and " into " in t]
            if into:
                built.add(side)
                return into[0]
        return None

    _to(journal, "reinforce", prefer)
    for side in ("german", "entente"):
        while True:
            places = [t for t in legal(journal, side) if t.startswith("place ")]
            if not places:
                break
            # Into an army first, and an army's counter before a lone unit.
            places.sort(key=lambda t: (" into " not in t, ":" in t or " infantry " in t))
            assert g.submit(journal, side, [places[0]]).rejected is None, places[0]
    return journal


@pytest.mark.parametrize("reader", ["german", "entente", "public"])
def test_every_build_and_placement_names_the_army_that_took_it(tmp_path, cli, reader):
    journal = _game(tmp_path)
    out = cli("report", journal, "--as", reader, "--since", "0", "--width", "400").stdout
    builds = [ln for ln in out.splitlines() if "German builds ge infantry" in ln]
    assert len(builds) == 1 and " into army ge-" in builds[0], out
    placed = [ln for ln in out.splitlines() if " places " in ln]
    assert any("German places ge infantry in " in ln and " into army ge-" in ln
               for ln in placed), placed
    assert any(ln.startswith("- Entente places army fr-") for ln in placed), placed


def test_a_sealed_plan_is_said_once_by_its_heading(tmp_path, cli):
    """The record that seals a whole plan and closes it: its heading names it; no 'seals a
    production plan', no 'production orders are all in', no 'plan is complete' after it."""
    journal = _game(tmp_path)
    for reader in ("german", "entente", "public"):
        out = _flat(cli("report", journal, "--as", reader, "--since", "0").stdout)
        assert "production orders are all in" not in out, out
        assert "plan is complete" not in out, out
        assert "seals a production plan" not in out, out
        assert "a sealed production plan (7.0)" in out, out


def test_a_build_into_a_hidden_template_stays_hidden_from_the_other_side(tmp_path, cli):
    """1.4: with hidden templates the German's own report names the army his unit went into;
    the Entente's and the public's tell a unit built into one of his armies, and no more."""
    journal = _game(tmp_path, hidden=True)
    own = cli("report", journal, "--as", "german", "--since", "0", "--width", "400").stdout
    assert any("German builds ge infantry in " in ln and " into army ge-" in ln
               for ln in own.splitlines()), own
    for reader in ("entente", "public"):
        out = cli("report", journal, "--as", reader, "--since", "0", "--width", "400").stdout
        assert "German builds or upgrades a unit in one of his armies (hidden, 1.4)" in out, out
        assert "into army ge-" not in out, out
