"""`referee demo`: a scripted opening of the 1914 scenario, played and shown as the commands
would show it, with a fixed and published dice secret so that it plays the same every time."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Optional

import typer

from ..contracts.outputs import DemoResult
from ..engine import legal_orders
from ..engine.order_text import format_order
from ..game.battlethread import Battles
from ..game.views import state_view, status_view
from ..render.documents import show_document, status_document
from ..render.formats import render
from ..render.record_text import describe
from ..store.dice import write_secret
from ..store.journal import redact
from ..table import Table
from ..table.ordering import told
from .commands import dump
from .params import GAMES

DEMO_SECRET = "0b" * 32
DEMO_OPENING = ["play offensive", "move ge-1 liege", "move ge-4:cavalry ardennes",
                "end movement"]


def _demo_choice(orders: list[str]) -> str:
    """What the demo's players answer once the scripted opening is over."""
    for prefer in ("done", "lose", "ersatz"):
        for o in orders:
            if o == prefer or o.startswith(prefer + " "):
                return o
    return orders[0]



def play(keep: Optional[Path], fmt: str = "text") -> None:
    """Play the opening into keep (default: a new temporary folder) and print each step (in
    JSON, one document at the end: the demo-result)."""
    say = typer.echo if fmt != "json" else (lambda *args, **kwargs: None)
    folder = Path(tempfile.mkdtemp(prefix="referee-demo-")) if keep is None else keep
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "demo-1914.jsonl"
    # A fixed, published secret makes the demo play the same way every time.
    secret = folder / "demo.secret"
    for old in (secret, path, path.with_name(path.name + ".secret")):
        old.unlink(missing_ok=True)
    write_secret(secret, bytes.fromhex(DEMO_SECRET))
    game = Table.create(path, "1914", game_id="demo-1914", secret_file=secret,
                         games_dir=GAMES["dir"])
    data = game.data
    say(f"$ referee new {path.name} --scenario 1914      (dice secret fixed for the demo)")
    steps: list[dict] = []
    battles = Battles()             # a Surprise Attack! battle under way (9.7), as `log` has it

    def submit(side: str, orders: list[str]) -> None:
        say(f"\n$ referee order {path.name} --as {side} " + " ".join(f"'{o}'" for o in orders))
        result = Table(path, GAMES["dir"]).submit(side, orders)
        lines = [line for a in result.applied
                 for ev in told(redact(a.record, side), battles)["events"]
                 if (line := describe(ev, data, side))]
        for line in lines:
            say(f"    {line}")
        steps.append({"side": side, "orders": orders, "events": lines})
        if result.rejected:
            raise result.rejected[2]

    submit("german", DEMO_OPENING)
    # The German turn goes on to its end: both players answer each decision in turn.
    while True:
        st = Table(path, GAMES["dir"]).game().state
        if st.phase == "over" or (st.pending.kind == "card_or_pass" and
                                  st.pending.side == "entente"):
            break
        side = st.pending.side
        orders = [format_order(o) for o in legal_orders(st, data, side)
                  if o.kind != "armistice"]
        submit(side, [_demo_choice(orders)])
    game = Table(path, GAMES["dir"]).game()
    status = status_view(game.state, data, "entente", game.game_id)
    say(f"\n$ referee show {path.name} --as entente\n")
    say(render(show_document(state_view(game.state, data, "entente", game.game_id)), "text"))
    say(f"\n$ referee status {path.name} --as entente\n")
    say(render(status_document(status), "text"))
    say(f"\n$ referee verify {path.name} --secret {secret.name}")
    checked = Table(path, GAMES["dir"]).verify(secret_file=secret).lines
    for line in checked:
        say(line)
    say(f"\nThe demo journal is {path}; try `referee report {path} --as entente "
        f"--since 0`, or `--as public --format bbcode` for a forum post.")
    if fmt == "json":
        typer.echo(dump(DemoResult.of(
            journal=str(path), secret=str(secret), steps=steps, status=status, verify=checked)))
