"""Game data: models of games/<game>/ files, loading with every problem reported, checks,
compiled copies."""
