"""The journal: hash chain, canonical lines, torn tails, repair, locking, upcasting."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import forkedruns
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.base.errors import JournalError, StaleViewError
from referee.store import chain
from referee.store import journal as jm
from referee.store.authorship import Authorship
from referee.store.journal import Journal, parse
from referee.store.signing import new_key


def _small_journal(path: Path, n: int = 4) -> Journal:
    j = Journal(path)
    j.create({"kind": "header", "game_id": "x", "dice": {"mode": "committed",
                                                         "commitment": "00"}},
             key=new_key())
    for i in range(n):
        j.append(lambda recs, i=i: [{"at": "t", "actor": "german", "order": f"o{i}",
                                      "events": [{"type": "Passed", "side": "german"}]}])
    return j


def test_records_chain_and_are_canonical(tmp_path):
    j = _small_journal(tmp_path / "j.jsonl")
    recs = j.read()
    assert [r["seq"] for r in recs] == [0, 1, 2, 3, 4]
    for a, b in zip(recs, recs[1:]):
        assert b["prev"] == a["hash"]
    for line, rec in zip(j.raw().split(b"\n"), recs):
        assert line == jm.canonical(rec)
        assert rec["hash"] == jm.record_hash(rec)


@pytest.mark.parametrize("step", [1, 3, 7])
def test_editing_any_byte_names_that_record(tmp_path, step):
    """Every byte position tried (a spread across all records) is caught at its record: by
    the chain, or by the record's signature when the byte is one of the signature's."""
    j = _small_journal(tmp_path / "j.jsonl", 3)
    raw = j.raw()
    starts = [0]
    for i, b in enumerate(raw):
        if b == 10:
            starts.append(i + 1)
    for pos in range(0, len(raw), step):
        record = max(k for k, s in enumerate(starts[:-1]) if s <= pos)
        for new in (b"x", b"0"):
            if raw[pos:pos + 1] == new:
                continue
            bad = raw[:pos] + new + raw[pos + 1:]
            with pytest.raises(JournalError) as err:
                _chain_and_signatures(bad)
            assert err.value.record == record, (pos, raw[pos:pos + 1], str(err.value))


def _chain_and_signatures(raw: bytes) -> None:
    """parse, then every signature (a byte of a `sig` is outside the hash it signs)."""
    records = parse(raw)
    authors = Authorship("j", records[0])
    for rec in records[1:]:
        authors.check(rec)


def test_reordered_records_break_the_chain(tmp_path):
    j = _small_journal(tmp_path / "j.jsonl")
    lines = j.raw().split(b"\n")
    lines[2], lines[3] = lines[3], lines[2]
    with pytest.raises(JournalError) as err:
        parse(b"\n".join(lines))
    assert err.value.record == 2
    assert "records 2 and 3 are swapped" in str(err.value)


def test_removed_record_breaks_the_chain(tmp_path):
    j = _small_journal(tmp_path / "j.jsonl")
    lines = j.raw().split(b"\n")
    del lines[2]
    with pytest.raises(JournalError) as err:
        parse(b"\n".join(lines))
    assert err.value.record == 2


def test_torn_tail_is_reported_and_repair_keeps_every_complete_record(tmp_path):
    path = tmp_path / "j.jsonl"
    j = _small_journal(path)
    whole = j.raw()
    cut = whole[: len(whole) - 25]           # the last record loses its end
    path.write_bytes(cut)
    with pytest.raises(JournalError) as err:
        j.read()
    assert err.value.torn and err.value.record == 4
    kept, backup, mended = j.repair()
    assert not mended                       # no mark of this referee names the record
    assert kept == 4
    assert backup is not None and backup.read_bytes() == cut
    assert path.read_bytes() == whole[: whole.rfind(b"\n", 0, len(whole) - 1) + 1]
    assert [r["seq"] for r in j.read()] == [0, 1, 2, 3]
    # After repair the journal takes new records again.
    j.append(lambda recs: [{"at": "t", "actor": "german", "order": "again", "events": []}])
    assert j.read()[-1]["seq"] == 4


def test_repair_refuses_damage_that_is_not_a_torn_tail(tmp_path):
    path = tmp_path / "j.jsonl"
    j = _small_journal(path)
    raw = j.raw().replace(b'"o1"', b'"oX"')
    path.write_bytes(raw)
    with pytest.raises(JournalError) as err:
        j.repair()
    assert err.value.record == 2
    assert path.read_bytes() == raw


def test_append_refuses_a_torn_journal(tmp_path):
    path = tmp_path / "j.jsonl"
    j = _small_journal(path)
    path.write_bytes(j.raw()[:-10])
    with pytest.raises(JournalError):
        j.append(lambda recs: [{"at": "t", "actor": "german", "order": "x", "events": []}])


def test_expect_seq_rejects_a_stale_view(tmp_path):
    j = _small_journal(tmp_path / "j.jsonl", 2)
    before = j.raw()
    with pytest.raises(StaleViewError):
        j.append(lambda recs: [{"at": "t", "actor": "german", "order": "x", "events": []}],
                 expect_seq=1)
    assert j.raw() == before
    j.append(lambda recs: [{"at": "t", "actor": "german", "order": "x", "events": []}],
             expect_seq=2)
    assert j.read()[-1]["seq"] == 3


def test_a_failing_builder_writes_nothing(tmp_path):
    j = _small_journal(tmp_path / "j.jsonl", 1)
    before = j.raw()

    def boom(recs):
        raise ValueError("no")
    with pytest.raises(ValueError):
        j.append(boom)
    assert j.raw() == before


def _hammer(path: str, who: str, n: int) -> None:
    j = Journal(path)
    for i in range(n):
        j.append(lambda recs, i=i: [{"at": "t", "actor": "german", "order": f"{who}-{i}",
                                      "events": []}])


def test_two_processes_appending_never_interleave_or_lose_a_record(tmp_path):
    path = tmp_path / "j.jsonl"
    _small_journal(path, 0)
    procs = [forkedruns.start(_hammer, str(path), who, 40) for who in ("a", "b")]   # at once
    for p in procs:
        assert forkedruns.finish(p, 60) == 0
    recs = Journal(path).read()       # the whole chain still checks
    orders = [r["order"] for r in recs[1:]]
    assert len(orders) == 80
    assert sorted(orders) == sorted([f"a-{i}" for i in range(40)] + [f"b-{i}" for i in range(40)])
    assert [o for o in orders if o.startswith("a")] == [f"a-{i}" for i in range(40)]


def test_unknown_schema_version_and_upcasting(tmp_path, monkeypatch):
    path = tmp_path / "j.jsonl"
    header = jm.seal({"kind": "header", "seq": 0, "prev": None, "schema_version": 99})
    path.write_bytes(jm.canonical(header) + b"\n")
    with pytest.raises(JournalError) as err:
        Journal(path).read()
    assert err.value.record == 0 and "99" in str(err.value)

    old = jm.seal({"kind": "header", "seq": 0, "prev": None, "schema_version": 0,
                   "gameid": "old"})
    path.write_bytes(jm.canonical(old) + b"\n")
    with pytest.raises(JournalError) as err:
        Journal(path).read()
    assert "no upcaster" in str(err.value)

    def v0_to_v1(rec):
        if rec["seq"] == 0:
            rec["game_id"] = rec.pop("gameid")
            rec["schema_version"] = 1
        return rec
    monkeypatch.setitem(jm.UPCASTERS, 0, v0_to_v1)
    recs = Journal(path).read()
    assert recs[0]["game_id"] == "old" and recs[0]["schema_version"] == 1
    # The file itself is never rewritten by reading it.
    assert json.loads(path.read_bytes())["gameid"] == "old"


def test_secret_parts_are_hashed_as_digests(tmp_path):
    """A redacted export verifies exactly like the full journal."""
    j = Journal(tmp_path / "j.jsonl")
    j.create({"kind": "header"}, key=new_key())
    j.append(lambda recs: [{"at": "t", "actor": "german", "order": "x", "events": [
        {"type": "CardsDrawn", "secret": {"to": "german", "salt": "ab", "data": {"c": [1]}}}]}])
    recs = j.read()
    export = b"".join(jm.canonical(jm.redact(r, "entente")) + b"\n" for r in recs)
    assert b'"data"' not in export
    again = parse(export)
    assert [r["hash"] for r in again] == [r["hash"] for r in recs]
    own = jm.redact(recs[1], "german")
    assert own["events"][0]["secret"]["data"] == {"c": [1]}


# ---------------------------------------------------------------- the quick checks

_json = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10**30, max_value=10**30)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=20)


@given(_json)
@settings(max_examples=400, deadline=None)
def test_the_quick_encoder_writes_what_json_dumps_writes(value):
    """Every character outside ASCII, DEL and the control characters included."""
    assert chain.quick_canonical(value) == jm.canonical(value)


_secret = st.fixed_dictionaries({"to": st.sampled_from(["german", "entente", "moderator"]),
                                 "salt": st.text(alphabet="0123456789abcdef", min_size=4,
                                                 max_size=8),
                                 "data": st.dictionaries(st.text(max_size=4), _json,
                                                         max_size=3)})


def _examples(quick: int, full: int) -> list:
    """A property's two sizes: `make test` draws the quick number of examples, the soaks
    the full one."""
    return [pytest.param(quick, id="quick"), pytest.param(full, id="full")]


@pytest.mark.parametrize("examples", _examples(30, 300))
def test_the_quick_hash_check_agrees_with_record_hash(examples):
    """Secret parts where the referee puts them, and anywhere else, hash the same way."""
    settings(max_examples=examples, deadline=None)(given(
        st.lists(st.fixed_dictionaries({"type": st.just("E")},
                                       optional={"secret": _secret, "x": _json}), max_size=4),
        st.one_of(st.none(), _secret), _json)(_agrees_with_record_hash))()


def _agrees_with_record_hash(events, private, extra):
    rec = {"seq": 1, "prev": "p", "at": "t", "actor": "german", "order": "o",
           "events": events, "extra": extra}
    if private is not None:
        rec["private_order"] = private
    rec = jm.seal(rec)
    line = jm.canonical(rec)
    assert jm.check_line(line, 1, "p", "j") == rec
    forged = dict(rec, hash="0" * 64)
    with pytest.raises(JournalError):
        jm.check_line(jm.canonical(forged), 1, "p", "j")


@pytest.mark.parametrize("where", ["elsewhere", "nested", "twice"])
def test_secret_parts_off_the_usual_places_still_hash_by_the_definition(where):
    part = {"to": "german", "salt": "ab", "data": {"cards": ["c1"]}}
    rec = {"seq": 1, "prev": "p", "at": "t", "actor": "german", "order": "o", "events": []}
    if where == "elsewhere":
        rec["note"] = {"inside": [part]}
    elif where == "nested":
        rec["events"] = [{"type": "E", "secret": {"to": "entente", "salt": "cd",
                                                  "data": {"inner": part}}}]
    else:
        rec["events"] = [{"type": "E", "secret": part}, {"type": "E", "secret": dict(part)}]
    rec = jm.seal(rec)
    assert jm.check_line(jm.canonical(rec), 1, "p", "j") == rec
    with pytest.raises(JournalError):
        jm.check_line(jm.canonical(dict(rec, hash=jm.record_hash({**rec, "order": "x"}))),
                      1, "p", "j")


@pytest.mark.parametrize("examples", _examples(40, 400))
def test_the_parts_in_their_places_give_the_hash_form_or_nothing(examples):
    """What the quick hash check hashes (_hash_body) is what record_hash hashes whenever
    it answers at all: secret parts or `salt` members in and out of their places."""
    settings(max_examples=examples, deadline=None)(given(
        st.lists(st.fixed_dictionaries({"type": st.just("E")},
                                       optional={"secret": _secret | _json, "x": _json}),
                 max_size=4),
        st.dictionaries(st.sampled_from([*chain.PART_FIELDS, "salt", "note", "data", "to"]),
                        _secret | _json, max_size=3))(_hash_form_or_nothing))()


def _hash_form_or_nothing(events, members):
    rec = {"seq": 1, "prev": "p", "hash": "h", "sig": "s", "events": events, **members}
    line = jm.canonical(rec)
    body = chain._hash_body(rec, line.count(b'"salt":'), jm.canonical)
    if body is not None:
        plain = {k: v for k, v in rec.items() if k not in ("hash", "sig")}
        assert jm.canonical(body) == jm.canonical(chain._hash_form(plain))


# ---------------------------------------------------------------- lines checked in batches

_GAME = gzip.decompress((Path(__file__).parent / "replays" / "ttlm-1914-seed7.jsonl.gz")
                        .read_bytes())


def _line_by_line(raw: bytes) -> list[dict]:
    """The reference: every line checked alone by check_line, as scan did before batches."""
    lines = raw.split(b"\n")
    prev, out = None, []
    for n, line in enumerate(lines[:-1]):
        then = lines[n + 1] if n + 2 < len(lines) else None     # the next complete line
        out.append(chain.check_line(line, n, prev, "j", then))
        prev = out[-1]["hash"]
    if lines[-1]:
        raise chain._torn("j", len(lines) - 1, lines[-1])
    return out


def _outcome(read, raw: bytes):
    try:
        return read(raw)
    except JournalError as exc:
        return (str(exc), exc.record)


_EDITS = [b"x", b"0", b"1", b'"', b",", b"}", b"{", b"\\", b" ", b"1.5", b"\n", b"",
          "\u00e9".encode(), b"\x7f", b"\\u00e9", b'"salt":"00",']


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_a_journal_checked_in_batches_reads_as_each_line_checked_alone(data):
    """scan decodes its lines in batches (chain.BATCH) and checks each the quick way:
    whatever is done to a real game's journal (bytes replaced, lines cut, joined, moved or
    repeated, a record sealed again spaced out, hashed with a raw DEL or é, or after
    another record), it reads the same records or stops at the same record with the same
    error as each line checked alone."""
    lines = _GAME.split(b"\n")[:-1][:data.draw(st.integers(1, 3 * chain.BATCH + 5))]
    how = data.draw(st.sampled_from(["bytes", "move", "repeat", "resealed", "relinked", "raw",
                                     "none"]))
    at = data.draw(st.integers(0, len(lines) - 1))
    if how == "bytes":
        line = lines[at]
        pos = data.draw(st.integers(0, len(line)))
        cut = data.draw(st.integers(0, 3))
        lines[at] = line[:pos] + data.draw(st.sampled_from(_EDITS)) + line[pos + cut:]
    elif how == "move":
        lines.insert(data.draw(st.integers(0, len(lines))), lines.pop(at))
    elif how == "repeat":
        lines.insert(at, lines[at])
    elif how == "resealed":     # a valid hash over a line spaced out: not canonical
        rec = json.loads(lines[at])
        lines[at] = json.dumps(chain.seal(rec), sort_keys=True).encode()
    elif how == "relinked":     # sealed again after another record: canonical, seq right
        lines[at] = chain.line_of(chain.seal(dict(json.loads(lines[at]), prev="0" * 64)))[:-1]
    elif how == "raw":          # hashed as written with a DEL or an é left raw: not canonical
        rec = dict(json.loads(lines[at]), note=data.draw(st.sampled_from(["a\x7fb", "é"])))
        body = {k: v for k, v in rec.items() if k not in ("hash", "sig")}

        def raw_json(obj):
            return json.dumps(obj, sort_keys=True, separators=(",", ":"),
                              ensure_ascii=False).encode()
        lines[at] = raw_json(dict(rec, hash=hashlib.sha256(raw_json(body)).hexdigest()))
    raw = b"\n".join(lines) + data.draw(st.sampled_from([b"\n", b"", b'\n{"seq"']))
    assert _outcome(lambda r: list(chain.scan(r, "j")), raw) == _outcome(_line_by_line, raw)


@pytest.mark.parametrize("depth", [600, 994, 995, 1500, 3000, 6000])
@pytest.mark.parametrize("sig", [b"", b',"sig":"a\\"b"'])
def test_a_record_nested_deeper_than_python_goes_is_a_journal_error(depth, sig):
    """A record nested hundreds or thousands of lists deep, its hash wrong, then a line that
    sends its batch line by line: working out what the hash covers goes deeper than
    Python's recursion allows, which is said as damage to that record, never raised."""
    header = chain.seal({"kind": "header", "schema_version": 1, "seq": 0, "prev": None})
    nested = b"[" * depth + b"0" + b"]" * depth
    line = b'{"hash":"%s","prev":"%s","seq":1%s,"x":%s}\n' % (
        b"0" * 64, header["hash"].encode(), sig, nested)
    with pytest.raises(JournalError) as err:
        list(chain.scan(chain.line_of(header) + line + b"garbage\n", "j"))
    assert err.value.record == 1, str(err.value)


def test_a_record_may_nest_as_deep_as_deepest_and_no_deeper():
    """chain.DEEPEST levels of objects and lists are a record's; one more is damage. Brackets
    inside text count for nothing."""
    def nested(depth: int) -> dict:
        value: object = 0
        for k in range(depth - 1):
            value = [value] if k % 2 else {"k": value}
        return {"x": value}

    for depth, deep in ((chain.DEEPEST, False), (chain.DEEPEST + 1, True)):
        rec = nested(depth)
        assert chain.too_deep(rec, jm.canonical(rec)) is deep
    text = {"x": "[{" * 100, "y": [[["a"]]]}
    assert chain.too_deep(text, jm.canonical(text)) is False


def test_a_seq_that_is_no_number_is_quoted_clipped():
    """A canonical line whose seq is a list of 30,000 items: the error names it in one line
    of bounded length, not a 7 MB one."""
    rec = {"hash": "b", "prev": "a", "seq": [[0, "x" * 10]] * 30_000}
    with pytest.raises(JournalError) as err:
        chain.check_line(jm.canonical(rec), 1, "a", "j")
    assert "out of order" in str(err.value) and len(str(err.value)) < 1_000


def _reads(monkeypatch) -> list[int]:
    """Record how many bytes each os.read of home.read_up_to asks for."""
    import os

    from referee.store import home

    asked: list[int] = []
    real = os.read
    monkeypatch.setattr(home.os, "read", lambda fd, n: asked.append(n) or real(fd, n))
    return asked


def test_a_file_is_read_whole_in_one_call_then_to_its_end(tmp_path, monkeypatch):
    """A journal of 2 MB is read in one call (no pieces joined), and a last call finds its
    end; what is larger than the limit still shows as one byte more than it."""
    import os

    from referee.store import home

    path = tmp_path / "j"
    data = os.urandom(1 << 16) * 32                         # 2 MB
    path.write_bytes(data)
    asked = _reads(monkeypatch)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert home.read_up_to(fd, 64 << 20) == data
        assert asked == [len(data) + 1, 1 << 16]         # then its end, asked for briefly
        os.lseek(fd, 0, os.SEEK_SET)
        assert home.read_up_to(fd, 1000) == data[:1001]
    finally:
        os.close(fd)


def test_a_pipe_or_a_growing_file_is_read_to_its_end(tmp_path, monkeypatch):
    """What gives no size (a pipe), or more than its size said (it grew after the look),
    is read on, in pieces, to its end."""
    import os

    from referee.store import home

    read, write = os.pipe()
    os.write(write, b"x" * 5000)
    os.close(write)
    try:
        assert home.read_up_to(read, 1 << 20) == b"x" * 5000
    finally:
        os.close(read)
    path = tmp_path / "j"
    path.write_bytes(b"a" * 10)
    real = os.fstat
    monkeypatch.setattr(home.os, "fstat", lambda fd: os.stat_result(
        (*real(fd)[:6], 4, *real(fd)[7:])))                 # it says 4 bytes, holds 10
    fd = os.open(path, os.O_RDONLY)
    try:
        assert home.read_up_to(fd, 1 << 20) == b"a" * 10
    finally:
        os.close(fd)
