"""Allow `python -m referee`."""

from .cli import main

main()
