"""A game: replay the journal, submit orders, create, upgrade and reveal, verify and audit.

The layers above reach a game through the Table (referee/table/), which opens the journal
once; each module here is imported by name where it is needed.
"""
