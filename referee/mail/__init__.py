"""Players' mail: reading messages, order keys, the ledger, replies."""
