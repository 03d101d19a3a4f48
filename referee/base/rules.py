"""The version of the referee's rules (engine/versions.py says what it means and how older
records stay readable): here, below every layer, because the game data's history files each
version of the data under the rules in force when it was filed (data/datastore.py)."""

RULES_VERSION = 14
FIRST_RULES_VERSION = 1          # a header without `rules_version`: before versions were kept
