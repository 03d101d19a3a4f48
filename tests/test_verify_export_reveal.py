"""An export holding the reveal of the dice secret is held to the commitment, as the journal
is: a reveal of another secret fails verify (as the journal's check does), nothing may
follow it, and a true one has every die of the export recomputed."""

from __future__ import annotations

from forging import records, write_resigned

import gamecalls as g
from referee.cli.demo import DEMO_OPENING, _demo_choice
from referee.engine import legal_orders
from referee.engine.order_text import format_order


def _revealed_export(game, cli, tmp_path):
    """The game played until a record rolled, its secret revealed, and the Entente's export."""
    g.submit(game, "german", DEMO_OPENING)
    while not any(r.get("dice") for r in records(game)[1:]):
        st = g.open_game(game)
        side = st.state.pending.side
        g.submit(game, side, [_demo_choice([format_order(o) for o in legal_orders(
            st.state, st.data, side) if o.kind != "armistice"])])
    assert cli("reveal", game, "--force").exit_code == 0
    export = tmp_path / "entente.jsonl"
    export.write_text(cli("log", game, "--as", "entente", "--format", "json").stdout)
    return export


def test_an_export_revealing_another_secret_fails_as_the_journal_does(game, cli, tmp_path,
                                                                    monkeypatch):
    export = _revealed_export(game, cli, tmp_path)
    r = cli("verify", export, "--export", "entente")
    assert r.exit_code == 0, r.stderr
    assert "dice: every die recomputed from the secret" in r.stdout
    # Every die, but nothing the secret parts held as digests or the mails would show.
    assert r.stdout.splitlines()[-1] == ("verify: OK (chain only; not checked: rulings, deck "
                                         "shuffles, times against deadlines, orders against "
                                         "mails)")
    recs = records(export)
    reveal = recs[-1]
    reveal["events"][0]["secret"] = "3f" * 32               # a secret never committed to
    write_resigned(export, recs)
    r = cli("verify", export, "--export", "entente")
    assert r.exit_code == 3 and "OK" not in r.stdout
    assert r.stderr.strip().endswith(f"record {reveal['seq']} claims to reveal the secret but "
                                     f"is not a reveal of the committed secret")
    # The log, which checks no secret, promises nothing of it: it names what checks it. Read
    # where the export goes, another referee home (this one wrote the game on: cut back).
    home = tmp_path / "reader-home"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("REFEREE_HOME", str(home))
    r = cli("log", export, "--since", str(reveal["seq"]))
    assert r.exit_code == 0, r.stderr
    said = " ".join(r.stdout.split())
    assert f"Dice secret revealed: {'3f' * 32} (`referee verify` checks it against the " \
        "commitment of record 0, then every die with it)" in said, said
    assert "anyone can now check" not in said


def test_a_forged_die_under_a_forged_reveal_is_not_waved_through(game, cli, tmp_path):
    export = _revealed_export(game, cli, tmp_path)
    recs = records(export)
    rolled = next(r for r in recs[1:] if r.get("dice"))
    rolled["dice"][0] = rolled["dice"][0] % 6 + 1
    recs[-1]["events"][0]["secret"] = "3f" * 32
    write_resigned(export, recs)
    r = cli("verify", export, "--export", "entente")
    assert r.exit_code == 3 and "claims to reveal the secret" in r.stderr


def test_nothing_may_follow_the_reveal_in_an_export(game, cli, tmp_path):
    export = _revealed_export(game, cli, tmp_path)
    recs = records(export)
    extra = dict(recs[-2])
    extra["seq"] = recs[-1]["seq"] + 1
    write_resigned(export, recs + [extra])
    r = cli("verify", export, "--export", "entente")
    assert r.exit_code == 3 and "follows the reveal" in r.stderr
