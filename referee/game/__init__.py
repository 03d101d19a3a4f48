"""A game: replay the journal, submit orders, create, upgrade and reveal, verify and audit."""
