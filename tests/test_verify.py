"""verify says exactly what it checked and never downgrades silently (issue: trust)."""

from __future__ import annotations

import json

import pytest
from forging import forget_mark, resign

import gamecalls as g
from referee.base.errors import JournalError
from referee.store.journal import canonical, is_secret_part, secret_digest


def _lines(path):
    return path.read_bytes().split(b"\n")[:-1]


def _rewrite(path, records):
    path.write_bytes(b"".join(canonical(r) + b"\n" for r in records))


def _rechain(records):
    """Recompute every hash and link after an edit (what a forger does)."""
    out, prev = [], None
    for rec in records:
        rec = dict(rec)
        rec.pop("hash", None)
        rec["prev"] = prev
        rec = resign(rec)
        prev = rec["hash"]
        out.append(rec)
    return out


def _first_secret(records):
    for rec in records[1:]:
        for ev in rec.get("events", []):
            if is_secret_part(ev.get("secret")):
                return rec["seq"], ev
    raise AssertionError("no secret part")


def test_one_secret_part_swapped_for_its_digest_fails_naming_that_record(game, cli,
                                                                          secret_file):
    records = [json.loads(line) for line in _lines(game)]
    seq, ev = _first_secret(records)
    part = ev["secret"]
    # Hash-neutral: the record's hash is computed over the digest form anyway.
    ev["secret"] = {"to": part["to"], "digest": secret_digest(part["salt"], part["data"])}
    _rewrite(game, records)
    assert cli("log", game).exit_code == 0                     # the chain still checks
    for args in ((), ("--secret", secret_file)):
        r = cli("verify", game, *args)
        assert r.exit_code == 3, r.stdout
        assert f"record {seq}" in r.stderr and "--export" in r.stderr
        assert "OK" not in r.stdout


def test_a_ruling_forged_after_the_swap_is_caught(game, cli, secret_file):
    """The attack the issue found: swap a part (verify used to give up), then forge."""
    cli("order", game, "--as", "german", "pass")
    records = [json.loads(line) for line in _lines(game)]
    seq, ev = _first_secret(records)
    part = ev["secret"]
    ev["secret"] = {"to": part["to"], "digest": secret_digest(part["salt"], part["data"])}
    last = records[-1]
    last["events"] = [e for e in last["events"] if e["type"] != "Passed"]   # a forged ruling
    _rewrite(game, _rechain(records))
    r = cli("verify", game, "--secret", secret_file)
    assert r.exit_code == 3


@pytest.mark.parametrize("reader", ["german", "entente"])
def test_a_real_export_passes_only_as_an_export_and_says_chain_only(game, cli, tmp_path,
                                                                     secret_file, reader):
    cli("order", game, "--as", "german", "pass", "end turn")
    export = tmp_path / f"{reader}.jsonl"
    export.write_text(cli("log", game, "--as", reader, "--format", "json").stdout)
    r = cli("verify", export)
    assert r.exit_code == 3 and "--export" in r.stderr
    r = cli("verify", export, "--export", reader)
    assert r.exit_code == 0, r.stderr
    assert f"chain only: a redacted export for {reader}" in r.stdout
    assert r.stdout.splitlines()[-1] == ("verify: OK (chain only; not checked: rulings, dice, "
                                         "deck shuffles, times against deadlines, orders "
                                         "against mails)")
    assert "rulings: all" not in r.stdout
    assert "dice: not recomputed" in r.stdout
    other = "entente" if reader == "german" else "german"
    r = cli("verify", export, "--export", other)         # it is not the other side's export
    assert r.exit_code == 3
    r = cli("verify", export, "--export", reader, "--secret", secret_file)
    assert r.exit_code == 0 and "dice: every die recomputed from the secret" in r.stdout


def test_an_export_with_a_changed_die_fails_once_the_secret_is_given(game, cli, tmp_path,
                                                                      secret_file):
    from referee.cli.demo import DEMO_OPENING, _demo_choice
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order

    g.submit(game, "german", DEMO_OPENING)
    while not any(json.loads(line).get("dice") for line in _lines(game)[1:]):
        st = g.open_game(game)
        side = st.state.pending.side
        g.submit(game, side, [_demo_choice([format_order(o) for o in legal_orders(
            st.state, st.data, side) if o.kind != "armistice"])])
    export = tmp_path / "e.jsonl"
    export.write_text(cli("log", game, "--as", "entente", "--format", "json").stdout)
    records = [json.loads(line) for line in _lines(export)]
    rolled = next(r for r in records[1:] if r.get("dice"))
    rolled["dice"][0] = rolled["dice"][0] % 6 + 1
    _rewrite(export, _rechain(records))
    assert cli("verify", export, "--export", "entente").exit_code == 0     # chain only
    r = cli("verify", export, "--export", "entente", "--secret", secret_file)
    assert r.exit_code == 3 and f"record {rolled['seq']}" in r.stderr


def test_verify_says_what_it_checked(game, cli, secret_file):
    r = cli("verify", game)
    assert r.exit_code == 0
    fpr = json.loads(_lines(game)[0])["signing"]["fingerprint"]
    shown = "-".join(fpr[i:i + 4] for i in range(0, 16, 4))
    assert r.stdout.splitlines()[:4] == [
        "chain: 2 records, every hash and link checks",
        f"signatures: records 0-1, each signed by the game's key {shown}",
        "rulings: all 1 records decided again give exactly the recorded events",
        "dice: not recomputed (give --secret FILE, or reveal the secret when the game is over)"]
    r = cli("verify", game, "--secret", secret_file)
    assert "dice: every die and shuffle recomputed from the secret" in r.stdout


def test_a_forged_reveal_record_is_not_skipped(game, cli):
    """A record calling itself a reveal is checked as one, not waved through."""
    cli("order", game, "--as", "german", "pass")
    records = [json.loads(line) for line in _lines(game)]
    records[-1]["order"] = "reveal secret"                  # a German order in disguise
    _rewrite(game, _rechain(records))
    r = cli("verify", game)
    assert r.exit_code == 3 and f"record {records[-1]['seq']}" in r.stderr


def test_nothing_may_follow_a_reveal(game, cli):
    assert cli("reveal", game, "--force").exit_code == 0
    records = [json.loads(line) for line in _lines(game)]
    st = g.open_game(game)
    assert st.state.revealed
    extra = dict(records[-1])
    extra["seq"] = extra["seq"] + 1
    _rewrite(game, _rechain(records + [extra]))
    r = cli("verify", game)
    assert r.exit_code == 3 and "follows the reveal" in r.stderr
    r = cli("order", game, "--as", "german", "pass")
    assert r.exit_code != 0


def test_verify_secret_given_a_directory_is_a_usage_error(game, cli, tmp_path):
    r = cli("verify", game, "--secret", tmp_path)
    assert r.exit_code == 2 and "directory" in r.stderr


def _stream(secret: bytes, n: int, count: int) -> list[int]:
    from referee.store.dice import die
    return [die(secret, "g", n, i) for i in range(count)]


def test_an_exports_dice_are_found_around_its_shuffles():
    """Dice before and after a shuffle's draws, as the committed stream gives them (1.3)."""
    from referee.game.dicecheck import check_dice as _check_dice

    secret = bytes(range(32))
    s = _stream(secret, 7, 12)
    shuffle = {"type": "DeckShuffled", "draws": 5}
    rec = {"seq": 7, "dice": s[:3] + s[8:12], "events": [{"type": "FireResolved"}, shuffle]}
    _check_dice(rec, "j", "g", secret)                     # 3 dice, 5 draws, 4 dice
    rec["dice"] = s[:3] + s[7:11]                          # the draws placed one too early
    with pytest.raises(JournalError):
        _check_dice(rec, "j", "g", secret)


def test_a_forged_export_cannot_make_the_dice_check_hang():
    import time

    from referee.game.dicecheck import check_dice as _check_dice

    secret = bytes(range(32))
    s = _stream(secret, 3, 40)
    many = [{"type": "DeckShuffled", "draws": 0}] * 54
    rec = {"seq": 3, "dice": s[:39] + [s[39] % 6 + 1], "events": many}
    started = time.process_time()
    with pytest.raises(JournalError):
        _check_dice(rec, "j", "g", secret)
    assert time.process_time() - started < 1
    rec["events"] = [{"type": "DeckShuffled", "draws": 10**12}]
    with pytest.raises(JournalError) as err:
        _check_dice(rec, "j", "g", secret)
    assert "malformed" in str(err.value)


def _to_production(game):
    from referee.engine import legal_orders
    from referee.engine.order_text import format_order

    for _ in range(60):
        st = g.open_game(game)
        if st.state.phase == "production":
            return st
        side = st.state.pending.side
        options = [format_order(o) for o in legal_orders(st.state, st.data, side)]
        g.submit(game, side, [next(o for o in ("done", "pass", "end turn") if o in options)])
    raise AssertionError("no production phase reached")


@pytest.mark.parametrize("forge", ["reader", "salt", "open"])
def test_a_sealed_order_forged_after_the_fact_fails(game, cli, secret_file, forge):
    """7.0: production orders are sealed; a record must be sealed exactly as the referee
    seals it (for whom, and with the salt the secret gives)."""
    _to_production(game)
    r = cli("order", game, "--as", "german", "done")
    assert r.exit_code == 0, r.stderr
    records = [json.loads(line) for line in _lines(game)]
    rec = records[-1]
    assert rec["private_order"]["to"] == "german"
    if forge == "reader":
        rec["private_order"]["to"] = "entente"          # shown to the wrong side
    elif forge == "salt":
        rec["private_order"]["salt"] = "0" * 32         # not the salt the secret gives
    else:
        rec["order"] = rec.pop("private_order")["data"]["text"]   # unsealed
    _rewrite(game, _rechain(records))
    r = cli("verify", game, "--secret", secret_file)
    assert r.exit_code == 3 and f"record {rec['seq']}" in r.stderr, r.stdout
    if forge != "salt":                                 # without the secret, too
        assert cli("verify", game).exit_code == 3


def test_a_reveal_record_must_have_the_shape_of_one(game, cli):
    assert cli("reveal", game, "--force").exit_code == 0
    records = [json.loads(line) for line in _lines(game)]
    records[-1]["note"] = {"to": "entente", "digest": "x"}
    _rewrite(game, _rechain(records))
    r = cli("verify", game)
    assert r.exit_code == 3 and f"record {records[-1]['seq']}" in r.stderr


def test_a_standing_set_put_into_a_record_is_caught_with_the_secret(game, cli, secret_file):
    """A record carries its actor's standing orders as a secret part nothing decides again;
    another set put in its place, salted anew and the chain hashed again, passes the chain
    check, but with the secret its salt is not the one the referee derives for that record."""
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    records = [json.loads(line) for line in _lines(game)]
    last = records[-1]
    part = last["standing"]
    assert part["to"] == "german" and "salt" in part
    last["standing"] = {"to": "german", "salt": "1" * 32,
                        "data": {"orders": [{"text": "pass", "turn": 1}]}}
    _rewrite(game, _rechain(records))
    forget_mark(game)       # the key's holder rewrote it: his mark no longer names its record
    assert cli("verify", game).exit_code == 0           # nothing to decide again in it
    r = cli("verify", game, "--secret", secret_file)
    assert r.exit_code == 3 and f"record {last['seq']}" in r.stderr and "standing" in r.stderr


def test_the_standing_sets_the_referee_wrote_pass_with_the_secret(game, cli, secret_file):
    """Negative control: the same game, untouched, verifies with the secret."""
    assert cli("order", game, "--as", "german", "pass").exit_code == 0
    assert cli("verify", game, "--secret", secret_file).exit_code == 0


def test_a_wrong_secret_is_named_alike_by_order_and_verify(tmp_path, cli):
    """A secret file that is not the game's: `order` (which looks for it beside the journal)
    and `verify --secret` name the same place it was committed to, in the same words."""
    from referee.store.dice import secret_path, write_secret

    journal = tmp_path / "g.jsonl"
    r = cli("new", journal, "--scenario", "1914", "--game-id", "wrong-secret")
    assert r.exit_code == 0, r.output
    beside = secret_path(journal)
    beside.unlink()
    write_secret(beside, bytes.fromhex("ab" * 32))
    before = journal.read_bytes()
    said = f"referee: {beside}: this secret does not match the commitment in the journal " \
           f"header (record 0)\n"
    ordered = cli("order", journal, "--as", "german", "play offensive")
    verified = cli("verify", journal, "--secret", beside)
    assert (ordered.exit_code, ordered.stderr) == (3, said)
    assert (verified.exit_code, verified.stderr) == (3, said)
    assert journal.read_bytes() == before


@pytest.mark.parametrize("when", ["yesterday", "2026-11-23 18:00:00", "2026-11-23T18:00:00",
                                  "2026-11-23T18:00:00+00:00", ""])
def test_a_record_whose_time_the_referee_never_writes_fails_naming_that_record(
        game, cli, when):
    records = [json.loads(line) for line in _lines(game)]
    seq = records[-1]["seq"]
    records[-1]["at"] = when
    _rewrite(game, _rechain(records))
    forget_mark(game)
    r = cli("verify", game)
    assert r.exit_code == 3, r.stdout
    assert f"record {seq}" in r.stderr and "$.at" in r.stderr and "OK" not in r.stdout
