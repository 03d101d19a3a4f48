"""What the referee keeps on disk: the journal, secrets and dice, snapshots, players, this user's home."""
