"""Game data: models of the games/<game>/ files, loading with every problem reported,
checks, compiled copies."""
