"""Which of a mailbox's mails of a game id are of the journal's game: a game id is the
moderator's to choose (`new --game-id`), so two games may share one, and a player in both
may save their mails in one mailbox. What the referee's mails carry tells them apart: a
signed receipt names record 0's hash (signedreceipt.py), and its signature, like the
fingerprint line above it, names the key that signed the game.

A mail is of this game when its Signed lines name this journal's record 0, or are signed
by a key the journal names (its header's, an adoption's, a key change's: the same key
chain, whatever record 0 they name, for the key's holder signed both), or, with no Signed
lines, when its fingerprint line names such a key; a mail that carries neither cannot be
told apart and is taken as this game's, as before. The others are of another game made
under the same id: another record 0 and another key.

Another record 0 under another key is also what a journal rewritten from its start under
a new key looks like to the player's genuine mails, so they are set aside only when the
mailbox also holds mails of this game (receiptbox.py); when it holds none, they are
checked, and fail as a rewrite or another game would.
"""

from __future__ import annotations

from ..game.receipts import Receipt
from ..game.signedreceipt import KeysInForce


class ThisGame:
    """What tells a receipt of the journal's game from one of another game of its id."""

    def __init__(self, header: dict, raw: bytes):
        """header: record 0 as the journal's bytes raw hold it (verify proves both)."""
        self.game_id, self.first = str(header.get("game_id", "")), str(header.get("hash", ""))
        self.keys = KeysInForce(raw)
        self.named = {fpr for _, fpr, _ in self.keys.spans}

    def holds(self, receipt: Receipt) -> bool:
        """Whether the receipt is of this game: its Signed lines name this record 0 or are
        by a key the journal names; without them, its fingerprint line names such a key;
        with neither, nothing tells it from this game's."""
        sig = receipt.signed
        if sig is not None:
            if sig.first is not None and sig.first == self.first:
                return True
            return self.keys.signer(receipt.seq, sig, self.game_id) is not None
        if receipt.key is not None:
            return receipt.key in self.named
        return True
