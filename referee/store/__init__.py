"""What the referee keeps on disk: the journal and its signatures, secrets and dice,
snapshots, players, and this user's own home (its keys, and the marks of what it wrote)."""
