"""Mailboxes for the inbox tests, as a delivery agent fills them."""

from pathlib import Path


def write_maildir(path: Path, raws: list[bytes]) -> Path:
    """A Maildir with one file per message in new/, named in the order given."""
    for sub in ("cur", "new", "tmp"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    for i, raw in enumerate(raws):
        (path / "new" / f"17000{i:03d}.M{i}P1.mx.example.com").write_bytes(raw)
    return path
