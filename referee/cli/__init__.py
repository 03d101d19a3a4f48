"""The command line only: declarations, the error boundary, output."""

# The reads: short processes that leave almost no cyclic garbage, run with the garbage
# collector paused (start.py, entry.run).
READS = ("status", "show")
