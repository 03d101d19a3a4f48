"""The contracts are the one definition of every shape, and both of their readers agree.

Every journal shape is one msgspec Struct in referee/contracts/; the read paths decode into
it (msgspec) and the boundaries validate it with pydantic (contracts/validation.py derives
pydantic-core's schema from the class). These tests hold the two readers to one verdict and
one result:

- 10,000 records of random games (both games, several scenarios and options) are valid by
  both and decode to equal objects: the journals of random play stored in tests/replays/
  (those of test_replay_identity.py and the corpus `python tests/test_contracts.py` writes
  there, again when a contract changes what a record holds), and a slice played now;
- records and headers one change away from valid get the same verdict from both.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path

import msgspec
import pytest
from pydantic import TypeAdapter

import gamecalls as g
from referee.contracts.records import JournalHeader, JournalRecord
from referee.contracts.validation import validator
from referee.game.autoplay import autoplay
from referee.game.records import record_of

RECORDS = 10_000
REPLAYS = Path(__file__).parent / "replays"
# The stored corpus, (game, scenario, seed, options, records): random play, written by main().
CORPUS = [("ttlm", "1914", 11, (), 2500), ("aac", "1914", 13, (), 2000),
          ("ttlm", "1914", 14, ("hidden_templates=true", "antwerp_evacuation=true"), 2000)]
# Played by the test itself, so the engine as it is now writes some of what is validated.
LIVE = ("ttlm", "1916", 12, ("hidden_templates=true",), 300)


def _fast(line: bytes, seq: int):
    """The read path's result: the header decoded, or a record with its secret data checked
    (None when refused)."""
    try:
        if seq == 0:
            return msgspec.json.decode(line, type=JournalHeader)
        return record_of(json.loads(line), "j")
    except Exception:  # noqa: BLE001 - any refusal counts as a refusal
        return None


def _validated(line: bytes, seq: int):
    """pydantic's result, None when refused."""
    try:
        return validator(JournalHeader if seq == 0 else JournalRecord).validate_json(line)
    except ValueError:
        return None


def verdicts(line: bytes, seq: int) -> tuple[bool, bool]:
    """(pydantic's, the fast decoder's) acceptance of one line."""
    return _validated(line, seq) is not None, _fast(line, seq) is not None


def _play(tmp_path, game: str, scenario: str, seed: int, options: tuple,
          count: int) -> list[bytes]:
    """At least `count` records of random games, each a fresh game when the last one ends."""
    lines: list[bytes] = []
    secret = tmp_path / "fixed.secret"
    secret.write_text(f"{seed:064x}\n")
    n = 0
    while len(lines) < count:
        journal = tmp_path / f"{game}-{seed}-{n}.jsonl"
        g.create_game(journal, scenario, game=game,
                      game_id=f"c-{seed}-{n}", secret_file=secret, options=list(options))
        autoplay(journal, seed + n, max_records=count - len(lines) + 1, check_every=10**9)
        lines += journal.read_bytes().splitlines()
        n += 1
    return lines


def _stored() -> list[bytes]:
    """Every record of the journals of random play stored in tests/replays/."""
    lines: list[bytes] = []
    for path in sorted(REPLAYS.glob("*.jsonl.gz")):
        lines += gzip.decompress(path.read_bytes()).splitlines()
    return lines


def test_records_of_random_games_are_valid_and_read_alike(tmp_path):
    """Each record is valid by both readers, which give equal objects of the same classes."""
    game, scenario, seed, options, count = LIVE
    lines = _stored() + _play(tmp_path, game, scenario, seed, options, count)
    assert len(lines) >= RECORDS
    for line in lines:
        seq = json.loads(line)["seq"]
        fast, validated = _fast(line, seq), _validated(line, seq)
        assert fast is not None and validated is not None, line[:200]
        assert fast == validated and type(fast) is type(validated), line[:200]
        if seq:
            assert [type(e) for e in fast.events] == [type(e) for e in validated.events]


def test_pydantic_validates_the_contract_classes_themselves():
    """TypeAdapter of a contract gives the contract's own class, not a copy of its shape."""
    header = gzip.decompress((REPLAYS / "ttlm-1914-seed7.jsonl.gz").read_bytes()).split(b"\n")[0]
    got = TypeAdapter(JournalHeader).validate_json(header)
    assert type(got) is JournalHeader and got == msgspec.json.decode(header, type=JournalHeader)


def main(folder: Path = REPLAYS) -> None:
    """Write the stored corpus of random play (tests/replays/contracts-*.jsonl.gz)."""
    import tempfile

    for game, scenario, seed, options, count in CORPUS:
        with tempfile.TemporaryDirectory() as tmp:
            lines = _play(Path(tmp), game, scenario, seed, options, count)
        name = folder / f"contracts-{game}-{scenario}-seed{seed}.jsonl.gz"
        name.write_bytes(gzip.compress(b"".join(x + b"\n" for x in lines), mtime=0))
        sys.stdout.write(f"wrote {name} ({len(lines)} records)\n")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main()


def _mutants(rec: dict, rng: random.Random) -> list[dict]:
    """Records one change away from a valid one: each should be refused by every reader."""
    out = []
    for key in list(rec):
        if key in ("hash", "prev"):
            continue
        for value in ("1", 1.5, None, [], {}, True):
            if type(value) is not type(rec[key]):
                out.append({**rec, key: value})
                break
        if key not in ("seq",):
            out.append({k: v for k, v in rec.items() if k != key})
    out.append({**rec, "surprise": 1})
    if rec.get("events"):
        ev = rng.choice(rec["events"])
        i = rec["events"].index(ev)
        events = list(rec["events"])
        events[i] = {**ev, "surprise": 1}
        out.append({**rec, "events": events})
        events = list(rec["events"])
        events[i] = {**ev, "type": "NoSuchEvent"}
        out.append({**rec, "events": events})
        field = rng.choice([k for k in ev if k != "type"] or ["type"])
        events = list(rec["events"])
        events[i] = {**ev, field: {"odd": [1]}}
        out.append({**rec, "events": events})
    # A text with a last newline: both readers match patterns as Python's re does.
    texts = [k for k, v in rec.items() if isinstance(v, str)]
    if texts:
        key = rng.choice(texts)
        out.append({**rec, key: rec[key] + "\n"})
    for key, value in rec.items():       # a pattern-bound text inside a record's parts
        if isinstance(value, dict):
            inner = [k for k, v in value.items() if isinstance(v, str)]
            if inner:
                out.append({**rec, key: {**value, inner[0]: value[inner[0]] + "\n"}})
    out.append({**rec, "dice": [7]})
    out.append({**rec, "dice": [True]})
    out.append({**rec, "actor": ""})
    return out


def test_both_readers_refuse_the_same_records(tmp_path):
    """Well-formed records one change away from valid: pydantic's validation and the fast
    decoder give the same verdict on each (optional keys dropped stay valid for both)."""
    lines = _play(tmp_path, "ttlm", "1914", 21, (), 300)
    rng = random.Random(21)
    tried = refused = 0
    for line in rng.sample(lines[1:], 160):
        for mutant in _mutants(json.loads(line), rng):
            text = json.dumps(mutant).encode()
            validated, fast = verdicts(text, 1)
            assert validated == fast, (validated, fast, text[:300])
            tried += 1
            refused += not validated
    assert tried >= 1500 and refused > tried // 2


def test_headers_one_change_away_get_one_verdict(tmp_path):
    header = json.loads(_play(tmp_path, "ttlm", "1914", 22, (), 2)[0])
    rng = random.Random(22)
    for mutant in _mutants(header, rng) + [{**header, "game": "Bad Name"},
                                           {**header, "game_id": ""},
                                           {**header, "dice": {"mode": "x"}},
                                           {**header, "game": header["game"] + "\n"},
                                           {**header, "seq": False}, {**header, "seq": 0.0}]:
        text = json.dumps(mutant).encode()
        validated, fast = verdicts(text, 0)
        assert validated == fast, (validated, fast, text[:300])


def test_a_record_that_breaks_its_contract_is_not_written(game):
    """The game layer's journal validates what it appends: a bug that builds a record of the
    wrong shape is stopped before a byte is written (the records as built: ContractError)."""
    from referee.base.errors import ContractError
    from referee.game.records import keep_contract
    from referee.store.journal import Journal

    before = game.read_bytes()
    last = json.loads(before.splitlines()[-1])
    bad = {"at": last["at"], "actor": "german", "order": "pass",
           "events": [{"type": "Passed", "side": "german", "surprise": 1}]}
    with pytest.raises(ContractError, match=r"record \d+ as built breaks its contract at "
                                            r"\$\.events\[0\]\.Passed\.surprise"):
        Journal(game, keep_contract).append_raw(lambda raw: (last["seq"], last["hash"], [bad]))
    assert game.read_bytes() == before


def test_verify_finds_a_well_chained_record_of_the_wrong_shape(game, cli):
    """A forger rehashes the chain after adding a key the contract does not know: verify names
    the record, where, and what (exit 3)."""
    from test_verify import _rechain, _rewrite

    records = [json.loads(x) for x in game.read_bytes().splitlines()]
    records[1]["events"][0]["surprise"] = True
    _rewrite(game, _rechain(records))
    r = cli("verify", game)
    assert r.exit_code == 3
    assert "record 1 breaks the journal's contract at $.events[0]." in r.stderr
    assert ".surprise: unknown key 'surprise'" in r.stderr


@pytest.mark.parametrize("line,said", [
    ('{"kind": "move", "unit": 3, "x": 1}',
     "must be text, got 3 at $.move.unit; unknown key 'x' at $.move.x"),
    ('{"unit": "ge-1"}', "missing key 'kind' at $"),
    ('{"kind": "charge"}', "unknown kind 'charge'; one of 'play', 'pass'"),
    ('{"kind": "discard", "cards": "off-01"}', "must be a list, got 'off-01' at $.discard.cards"),
    ('{"kind": "move"', "not valid JSON text at column 16"),         # the end, counted
])
def test_a_json_order_is_refused_with_every_problem_its_contract_finds(game, cli, line, said):
    before = game.read_bytes()
    r = cli("order", game, "--as", "german", line)
    assert r.exit_code == 1 and game.read_bytes() == before
    assert "not a valid JSON order (schemas/orders.json): " + said in r.stderr


def test_verify_leaves_a_torn_last_line_to_the_chain_check(game, cli):
    """A torn line is not JSON: verify says it is torn and how to mend it, not a contract's
    words about JSON."""
    game.write_bytes(game.read_bytes()[:-20])
    r = cli("verify", game)
    assert r.exit_code == 3 and "is torn" in r.stderr and "referee repair" in r.stderr
    assert "contract" not in r.stderr
