"""referee: a command-line judge for play-by-email games of TO THE LAST MAN!"""

__version__ = "0.1.0"
