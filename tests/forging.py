"""Forging records as two people can: someone who can write the game folder but holds no key
(he seals, chains and cannot sign), and the holder of the game's key (the moderator's
referee home: he can sign what he likes, and verify's other checks must catch it)."""

from __future__ import annotations

from pathlib import Path

from referee.store import signing
from referee.store.journal import canonical, line_of, seal


def resign(rec: dict, fpr: str | None = None) -> dict:
    """rec sealed again and signed by the key that signed it (or fpr), as the holder of the
    game's key can: only checks other than the signatures can find what he changed."""
    fpr = fpr or signing.signer_of(rec.get("sig"))
    rec = seal({k: v for k, v in rec.items() if k not in ("hash", "sig")})
    if fpr is not None:
        key = signing.held(fpr)
        assert key is not None, "the test's referee home holds no key for this journal"
        rec["sig"] = key.sig(rec["hash"])
    return rec


def game_key(header: dict) -> str | None:
    """The fingerprint of the key a header names."""
    field = header.get("signing")
    return field.get("fingerprint") if isinstance(field, dict) else None



def fixed_key(folder: Path, seed: str = "5e" * 32) -> Path:
    """A key file with a fixed seed, for runs that must write the same journal twice (never
    beside the journal: `new` refuses that)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = signing.GameKey(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed)))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{key.fpr}.fixed-key"
    path.write_text(f"referee ed25519 {key.fpr} {seed}\n")
    path.chmod(0o600)
    return path


def records(path: Path) -> list[dict]:
    """A journal's records as written."""
    import json

    return [json.loads(line) for line in path.read_bytes().splitlines()]


def shown(fpr: str) -> str:
    """A fingerprint as the referee prints it: four groups of four."""
    return "-".join(fpr[i:i + 4] for i in range(0, 16, 4))


def as_user(monkeypatch, home: Path) -> None:
    """Run the referee from here on as someone whose referee home is `home`."""
    from referee.store import home as homemod

    monkeypatch.setenv("REFEREE_HOME", str(home))
    signing._LOADED.clear()
    homemod._KEY.clear()


def old_game(folder: Path) -> Path:
    """A copy of the rules-1 journal begun before signing (and its secret) in folder,
    private like every journal."""
    import shutil

    fixture = Path(__file__).parent / "fixtures" / "rules1-1914.jsonl"
    folder.mkdir(parents=True, exist_ok=True)
    old = folder / "old.jsonl"
    shutil.copyfile(fixture, old)
    shutil.copyfile(fixture.with_name(fixture.name + ".secret"), folder / "old.jsonl.secret")
    for p in (old, folder / "old.jsonl.secret"):
        p.chmod(0o600)
    return old


def write_resigned(journal: Path, recs: list[dict]) -> list[dict]:
    """recs chained again and each signed by the key that signed it (resign), written out
    (mode 0600) as the holder of the game's key can; the records as written."""
    out, prev = [], None
    for i, rec in enumerate(recs):
        rec = {k: v for k, v in rec.items() if k != "hash"}
        if i:
            rec["prev"] = prev
        out.append(resign(rec))
        prev = out[-1]["hash"]
    journal.write_bytes(b"".join(canonical(rec) + b"\n" for rec in out))
    journal.chmod(0o600)
    return out


def write_signed(journal: Path, recs: list[dict], key) -> list[dict]:
    """recs chained again and each signed by key (a key of the forger's own), written out."""
    prev, out, done = None, [], []
    for rec in recs:
        rec = seal({**{k: v for k, v in rec.items() if k not in ("hash", "sig")},
                    "prev": prev})
        rec["sig"] = key.sig(rec["hash"])
        prev = rec["hash"]
        out.append(line_of(rec))
        done.append(rec)
    journal.write_bytes(b"".join(out))
    return done


def forget_mark(journal: Path) -> None:
    """Remove the referee's mark of what it last wrote to the game a journal holds, as the
    moderator does when he puts another copy of a game in its place on purpose (a copy
    played on its own, a journal rewritten by the key's holder)."""
    journal_mark(journal).unlink(missing_ok=True)


def journal_mark(journal: Path) -> Path:
    """Where the referee keeps its mark of the game a journal holds."""
    from referee.store.written import game_of, mark_path

    with open(journal, "rb") as fh:
        return mark_path(game_of(fh.readline()) or "")


def refuses_to_write(cli, game: Path, monkeypatch, home: Path) -> None:
    """Back as the referee's own user (home), a write to the game is refused as damage (exit
    3) and the journal keeps every byte."""
    as_user(monkeypatch, home)
    before = game.read_bytes()
    r = cli("deadline", game, "--set", "48h")
    assert r.exit_code == 3, r.output
    assert game.read_bytes() == before
