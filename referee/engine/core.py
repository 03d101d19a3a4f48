"""The machinery of decide: the working context, rule violations, the decision registry.

Each kind of pending decision registers a DecisionSpec: a prompt, the order
kinds it accepts, a generator of candidate orders, a check that returns the
rule an order breaks (or None), and a handler that emits the order's events.
`legal_orders` is the candidates that pass the check; `decide` runs the same
check, so listing and accepting can never disagree.
"""

from __future__ import annotations

from _thread import RLock
from collections.abc import Callable, Iterable

import msgspec

from ..contracts.events_base import Ev, Secret
from ..contracts.events_turn import DecisionPending, DecisionSkipped
from ..data.gamedata import GameData
from ..store.dice import Dice
from .evolve import evolve
from .state import State

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..contracts.orders import Ord


class Violation(msgspec.Struct, frozen=True):
    """Why an order is not legal now, with the rule it breaks."""

    rule: str
    reason: str


class Ctx:
    """decide()'s working copy: a scratch state, the dice, and the events emitted so far."""

    def __init__(self, state: State, data: GameData, dice: Dice):
        self.state = state
        self.data = data
        self.dice = dice
        self.events: list[Ev] = []
        self.standing: dict[str, list[dict]] = {}   # each side's standing orders in force
        # What answers a decision from them the moment it is asked (standing.answer, given
        # by decide): core knows nothing of standing orders itself.
        self.answer: Callable[[Ctx, str, str], None] | None = None
        # The step of play just over (finish): flow.resume goes on from it.
        self.finished: str | None = None

    def emit(self, event: Ev) -> None:
        """Record an event and apply it to the scratch state."""
        evolve(self.state, event, self.data)
        self.events.append(event)

    def secret(self, to: str, data: dict) -> Secret:
        """A secret part for one reader, salted from the game secret (deterministic)."""
        return Secret(to=to, salt=self.dice.salt(), data=data)


class DecisionSpec(msgspec.Struct):
    """One kind of pending decision: its prompt, the orders it takes, and their rules."""

    kind: str
    rule: str
    prompt: Callable[[State, GameData], str]
    accepts: tuple[str, ...]
    candidates: Callable[[State, GameData, str], Iterable[Ord]]
    check: Callable[[State, GameData, Ord, str], Violation | None]
    apply: Callable[[Ctx, Ord, str], str | None]     # emits; a battle step's may say what
                                                     # the battle does next (battle.THEN)
    extra: dict = {}


class SealedPlans(msgspec.Struct):
    """A decision both sides answer at once, each in a plan sealed until both are done (7.0
    production, 2.0 I reinforcements, 2.0 V.3 excess cards): a DecisionSpec names it in
    `extra["sealed"]`."""

    label: str                                       # a sealed plan's record shows this
    book: Callable[[State], dict | None]             # {"plans": {side: [...]}, "done": [...]}
    seal: Callable[[Ctx, str, list[str], bool], Ev]  # the event sealing orders (final or not)
    close: Callable[[Ctx, str], None]                # closes a plan; the last reveals them all
    complete: Callable[[State, GameData, str, list], bool]   # orders that close it unasked


def plans_kept(s: State, kind: str) -> dict | None:
    """The sealed plans of decision kind kept in State.sealed (2.0 I, 2.0 V.3), or None when
    that decision is not asked that way."""
    return s.sealed if s.sealed is not None and s.sealed["kind"] == kind else None


def _production_plans(s: State) -> dict | None:
    """The sealed production plans (7.0), which the production phase keeps itself."""
    return s.production


# Every kind of decision and the rules' module that registers it as decide uses it (a battle's
# decisions are battle.py's, which wraps them: 5.2-5.4): a fact of the rules, declared beside
# the registry (a test holds it to it), so that a kind of the rules is told from one no module
# registers (a damaged journal's) without loading them, and a look at one kind loads its own
# module only (Unread.load_kind).
KINDS: dict[str, str] = {
    "attacker_cards": "combat", "attrition": "supply", "battle_order": "battle",
    "card_or_pass": "flow", "cavalry_retreat": "battle", "crisis": "crisis",
    "declare_battles": "combat", "defence": "battle", "defender_cards": "combat",
    "discard_excess": "production", "eft_losses": "production", "empty_retreat": "flow",
    "forced_elimination": "battle", "keep_battle": "combat", "losses": "battle",
    "movement": "flow", "pass_move": "flow", "production": "production",
    "reaction": "battle", "reinforce": "reinforce", "retreat_after": "battle",
    "scramble": "battle",
}

# The kinds both sides answer at once, each in a sealed plan (2.0 I, 2.0 V.3, 7.0), and where
# the state keeps their plans: each registers its SealedPlans with this book, so that whom the
# referee waits on is known without loading the rules' modules (a test holds the two together).
SEALED_BOOKS: dict[str, Callable[[State], dict | None]] = {
    "discard_excess": lambda s: plans_kept(s, "discard_excess"),
    "production": _production_plans,
    "reinforce": lambda s: plans_kept(s, "reinforce"),
}


class Registry(dict):
    """The decision kinds by name, once the rules' modules have registered theirs: no method
    of its own but load, so that a lookup is dict's own (legal_orders and decide make many)."""

    def load(self) -> None:
        """Nothing left to load: the rules' modules are imported."""


class Unread(Registry):
    """The registry before anything has looked into it. A read of a game that is over asks
    no decision, and the modules that register the kinds are most of the engine: the first
    look at the whole (iteration, len...) has the loader given to load_with import them, then
    the registry is a plain Registry holding what importing them at start would have
    registered, by name. A look at one kind (a lookup, `in`, `get`: a read of a game in play
    asks its pending decision's) imports that kind's module alone till then."""

    loader: Callable[[], None] | None = None
    kind_loader: Callable[[str], None] | None = None
    loading = False
    looked: frozenset[str] = frozenset()    # the kinds whose module load_kind imported

    def load_with(self, loader: Callable[[], None],
                  kind_loader: Callable[[str], None] | None = None) -> None:
        """The function that imports the modules registering the kinds, each its own, and the
        one that imports one of them by its name in KINDS (None: a look at a kind loads all)."""
        self.loader = loader
        self.kind_loader = kind_loader

    def load_kind(self, kind: object) -> None:
        """Import the module that registers kind (KINDS), for a look at that kind alone: the
        kind then holds what it holds once all are loaded. A kind KINDS does not name, or one
        its module did not register, has them all loaded (load); so does any other look."""
        if type(kind) is not str:
            return self.load()
        if kind in self.looked:
            return
        with _LOADING:
            if type(self) is not Unread or self.loading or kind in self.looked:
                return
            home = KINDS.get(kind)
            if home is None or self.kind_loader is None:
                return self.load()
            self.loading = True
            try:
                self.kind_loader(home)
            finally:
                self.loading = False
            if not dict.__contains__(self, kind):
                return self.load()
            self.looked = self.looked | {kind}

    def load(self) -> None:
        """Import the rules' modules now: their register() calls fill this registry, then
        it holds the kinds by name, whichever module a process imported first. Another
        thread that looks meanwhile waits until they are all in; a look from their own
        imports finds what is registered so far, as it did when they loaded at start."""
        with _LOADING:
            if type(self) is not Unread or self.loading:
                return
            if self.loader is None:
                raise RuntimeError("the decision kinds were looked into before the engine "
                                   "could load them")
            self.loading = True
            try:
                self.loader()
            finally:
                self.loading = False
            kinds = sorted(dict.items(self), key=lambda item: item[0])
            dict.clear(self)
            dict.update(self, kinds)
            self.__class__ = Registry


# One thread loads the rules' modules (mail's passes run games side by side): _thread's lock,
# as threading's is, without importing threading, which a read never needs.
_LOADING = RLock()


def _first_look(name: str) -> Callable:
    """A dict method that loads the registry before it answers."""
    method = getattr(dict, name)

    def look(self, *args):
        self.load()
        return method(self, *args)
    look.__name__ = name
    return look


def _look_at_kind(name: str) -> Callable:
    """A dict method given a kind that loads the kind's module before it answers."""
    method = getattr(dict, name)

    def look(self, kind, *args):
        self.load_kind(kind)
        return method(self, kind, *args)
    look.__name__ = name
    return look


for _name in ("__iter__", "__reversed__", "__len__", "__eq__", "__ne__", "__repr__", "__or__",
              "__ror__", "keys", "values", "items", "copy", "setdefault", "pop", "popitem"):
    setattr(Unread, _name, _first_look(_name))
for _name in ("__getitem__", "__contains__", "get"):
    setattr(Unread, _name, _look_at_kind(_name))


DECISIONS: Registry = Unread()


def register(spec: DecisionSpec) -> DecisionSpec:
    """Add a decision kind to the registry (from the module that defines it, at its import)."""
    dict.__setitem__(DECISIONS, spec.kind, spec)
    return spec


def registered(kind: str) -> DecisionSpec:
    """A kind as registered so far, for the module that registers it again at its import
    (battle.py, the decisions of a battle): that import must not load the rest first."""
    return dict.__getitem__(DECISIONS, kind)


def prompt(ctx: Ctx, kind: str, side: str, **info) -> None:
    """Make a decision pending: the referee stops here and waits on side."""
    ctx.emit(DecisionPending(kind=kind, side=side, info=info))
    if ctx.standing.get(side) and ctx.answer is not None:
        ctx.answer(ctx, kind, side)


def finish(ctx: Ctx, step: str) -> None:
    """A step of the sequence of play is over: its module returns, and flow.resume goes on to
    the next step (2.0)."""
    if ctx.finished is not None:
        raise AssertionError(f"the step '{step}' ended while '{ctx.finished}' still waits for "
                             f"flow to go on from it")
    ctx.finished = step


def skip(ctx: Ctx, kind: str, side: str, reason: str) -> None:
    """Record that a decision is not asked: its answer cannot matter, on public facts only."""
    ctx.emit(DecisionSkipped(kind=kind, side=side, reason=reason))


def open_kinds(s: State, d: GameData, side: str | None = None) -> set[str]:
    """The kinds of the legal answers to the pending decision for side (its own side by
    default): what its prompt may offer, from the single source of legality (candidates that
    pass the check, as legal_orders has them)."""
    p = s.pending
    if p is None:
        return set()
    spec = DECISIONS[p.kind]
    who = side or p.side
    return {o.kind for o in spec.candidates(s, d, who) if spec.check(s, d, o, who) is None}


def and_list(names: list[str]) -> str:
    """Names joined for a message, 'A, B and C' (no rule: how every message lists names)."""
    return " and ".join(x for x in (", ".join(names[:-1]), names[-1] if names else "") if x)
