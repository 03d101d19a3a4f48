"""What the import-graph tests share: finding a circle in a graph of modules."""

from __future__ import annotations


def find_cycle(g: dict[str, list[tuple[str, int, bool]]]) -> list[str] | None:
    """One cycle of the graph as [a, b, ..., a], or None."""
    state: dict[str, int] = {}                              # 1 on the path, 2 done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for t, _, _ in g.get(m, []):
            if state.get(t) == 1:
                return path[path.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(g):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None
