"""Renderers: the same views as plain text, forum markdown or JSON."""
