"""The skirmish of TO THE LAST MAN! (games/skirmish), the game of kind skirmish: its card and
scenarios (`loading.py`), its rules as decide and evolve over plain data (`decider.py`, on
`checks.py`, `dicetests.py`, `order_text.py`, `state.py`), its journal's life (`life.py`:
create, replay, take orders, reveal, verify), its report (`report.py`), and the GameKind that
plugs all of it into the Table (`kind.py`)."""
