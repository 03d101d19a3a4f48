"""Allow `python -m referee`."""

from .cli.entry import main

main()
