"""What the referee keeps on disk: the journal, secrets and dice, snapshots, players, and
this user's own home."""
