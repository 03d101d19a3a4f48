"""The command line only: declarations, the error boundary, output."""
