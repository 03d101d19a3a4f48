"""Allow `python -m referee`."""

from .entry import main

main()
