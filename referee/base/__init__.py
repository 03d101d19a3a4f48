"""Below every layer: the error tree, struct helpers and who may read a game."""
