"""Benchmark scenarios: seeded random games cut early, mid-way and late, stored as observer records.

A scenario is one player's view (the player to move at the cut) of a game played
by :func:`~cardlogic.literature.play_random_game`, keeping the first 10%, 50% or
85% of its events. The deck matrix is complete at 6 players; the other player
counts (4, 8, 10, 12) use the default ``no-8s`` deck to keep the suite small.
Each file is a valid record whose first line is a ``# bench:`` comment with the
scenario's parameters, so the files can be regenerated and compared across versions:

>>> spec = next(iter(SPECS))
>>> spec.name
'04p-no-8s-early'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from cardlogic.cards import iter_cards
from cardlogic.literature import Game, Record, Rules, State, play_random_game, read_record, write_record
from cardlogic.literature.decks import DECK_NAMES, Deck

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
PLAYERS = (4, 6, 8, 10, 12)
STAGES = {"early": 0.10, "middle": 0.50, "late": 0.85}
"""Fraction of the game's events each stage keeps."""
FULL_DECK_PLAYERS = 6
"""The player count played with every deck; the others use ``no-8s`` only."""
SCENARIO_RULES = Rules(after_claim="team-picks")
"""The house rules the scenarios were played under: their random players pass after claims whoever may ask."""


@dataclass(frozen=True)
class Spec:
    """Which scenario to generate: ``players`` with ``deck``, cut at ``stage``, game seeded by ``seed``."""

    players: int
    deck: str
    stage: str
    seed: int

    @property
    def name(self) -> str:
        return f"{self.players:02d}p-{self.deck}-{self.stage}"


def _specs() -> Iterator[Spec]:
    for players in PLAYERS:
        decks = DECK_NAMES if players == FULL_DECK_PLAYERS else ("no-8s",)
        for d, deck in enumerate(decks):
            for stage in STAGES:
                yield Spec(players, deck, stage, seed=100 * players + d)


SPECS: tuple[Spec, ...] = tuple(_specs())


@dataclass(frozen=True)
class Scenario:
    """A stored scenario: its spec, where it was cut, and the observer's record."""

    spec: Spec
    events: int
    total_events: int
    record: Record
    path: Path | None = None

    @property
    def name(self) -> str:
        return self.spec.name


def make_scenario(spec: Spec) -> Scenario:
    """Play the spec's game and cut it: the record as the player to move after the cut saw it."""
    players = NAMES[: spec.players]
    dealer = random.Random(spec.seed).randrange(len(players))
    game = Game(players, deck=Deck.named(spec.deck), rules=SCENARIO_RULES, dealer=dealer)
    hands, events = play_random_game(game, spec.seed)
    cut = round(STAGES[spec.stage] * len(events))
    state = State(game, list(hands))
    for event in events[:cut]:
        state.push(event)
    observer = state.public.movers[0]  # a cut game is never over
    full = Record(game, None, {p: tuple(iter_cards(hand)) for p, hand in enumerate(hands)}, events[:cut])
    return Scenario(spec, cut, len(events), full.view_as(observer))


def scenario_text(scenario: Scenario) -> str:
    """The scenario's file: the ``# bench:`` line, then the record."""
    s = scenario.spec
    header = (
        f"# bench: players={s.players} deck={s.deck} stage={s.stage} seed={s.seed} "
        f"events={scenario.events}/{scenario.total_events}\n"
    )
    return header + write_record(scenario.record)


def write_scenarios(directory: Path, specs: Iterable[Spec] = SPECS) -> list[Path]:
    """Generate every spec into ``directory`` (created if needed); return the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for spec in specs:
        path = directory / f"{spec.name}.txt"
        path.write_text(scenario_text(make_scenario(spec)), encoding="utf-8")
        paths.append(path)
    return paths


def load_scenario(path: Path) -> Scenario:
    """Read a scenario file written by :func:`write_scenarios`."""
    text = path.read_text(encoding="utf-8")
    first = text.split("\n", 1)[0]
    if not first.startswith("# bench:"):
        raise ValueError(f"{path}:1: not a benchmark scenario (no '# bench:' line)")
    fields = dict(item.split("=", 1) for item in first.removeprefix("# bench:").split())
    done, total = fields["events"].split("/")
    spec = Spec(int(fields["players"]), fields["deck"], fields["stage"], int(fields["seed"]))
    return Scenario(spec, int(done), int(total), read_record(text, source=str(path)), path)


def load_scenarios(directory: Path) -> list[Scenario]:
    """Every scenario in ``directory``, by player count, deck order and stage."""
    paths = sorted(directory.glob("*.txt"))
    if not paths:
        raise FileNotFoundError(f"no scenario files in {directory} (run benchmarks/make_scenarios.py)")
    scenarios = [load_scenario(path) for path in paths]
    order = {spec.name: i for i, spec in enumerate(SPECS)}
    return sorted(scenarios, key=lambda s: (order.get(s.name, len(order)), s.name))
