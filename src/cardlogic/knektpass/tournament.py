"""Knektpass tournaments: whole games (deal after deal until someone reaches 0) between bots, seats rotated.

``bots`` names one bot per seat. In game ``g`` seat ``s`` is played by
``bots[(s + g) % n]``, so over ``n`` games every bot sits in every seat; the
first dealer, the turned cards, the deals and the bots' seeds come from
``seed`` and ``g`` alone, so results do not depend on how many processes play.
Wins are summed per bot name (two greedy bots' wins count together).

>>> result = tournament(("greedy", "random"), games=2, seed=1)
>>> result.games, sum(result.wins.values()) + result.unfinished
(2, 2)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardlogic import arguments
from cardlogic.cards import iter_cards
from cardlogic.dispatch import SchedulerLost, Workers, in_order
from cardlogic.knektpass.bots import BOTS, make_bot
from cardlogic.knektpass.match import Match
from cardlogic.knektpass.match_record import MatchEvent, MatchRecord, NextDeal
from cardlogic.knektpass.record import Record
from cardlogic.knektpass.rules import Deal, Game, Rules
from cardlogic.knektpass.state import PlayerState, State
from cardlogic.rating import wilson

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
DEAL_LIMIT = 200
"""Deals after which a game is stopped unfinished (nobody wins it)."""


@dataclass(frozen=True)
class GameResult:
    """One game: the bot in each seat, the final points, the winning seat (None if unfinished) and the deals."""

    index: int
    seats: tuple[str, ...]
    points: tuple[int, ...]
    winner: int | None
    deals: int

    @property
    def winning_bot(self) -> str | None:
        return None if self.winner is None else self.seats[self.winner]


@dataclass(frozen=True)
class TournamentResult:
    """Every game's result and the totals by bot name."""

    bots: tuple[str, ...]
    seed: int
    rules: Rules
    results: tuple[GameResult, ...]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def names(self) -> tuple[str, ...]:
        """The distinct bot names, in the order first listed."""
        return tuple(dict.fromkeys(self.bots))

    @property
    def wins(self) -> dict[str, int]:
        return {name: sum(1 for r in self.results if r.winning_bot == name) for name in self.names}

    @property
    def unfinished(self) -> int:
        return sum(1 for r in self.results if r.winner is None)

    def share(self, name: str) -> float:
        """The share of the games ``name``'s seats would win if all bots were equal: seats / players."""
        return self.bots.count(name) / len(self.bots)

    def as_json(self) -> dict:
        wins = self.wins
        rates = {}
        for name, count in wins.items():
            low, high = wilson(count, self.games)
            rates[name] = {"rate": count / max(1, self.games), "low": low, "high": high, "share": self.share(name)}
        return {
            "games": self.games,
            "wins": wins,
            "bots": list(self.bots),
            "seed": self.seed,
            "rules": str(self.rules),
            "rates": rates,
            "unfinished": self.unfinished,
            "deals": sum(r.deals for r in self.results) / max(1, self.games),
            "seconds": round(self.seconds, 3),
        }


def play_game(game: Game, seats: Sequence[str], seed: int, index: int = 0) -> GameResult:
    """Play one game with bot ``seats[p]`` in seat ``p``, deal after deal, from generator seed ``seed``.

    A bot's illegal event raises :class:`~cardlogic.knektpass.IllegalEventError`.
    """
    rng = random.Random(seed)
    n = len(game.players)
    match = Match(game, dealer=rng.randrange(n))
    while not match.is_over and match.deals < DEAL_LIMIT:
        deal = match.next_deal(rng.choice(game.deck))
        state = State.shuffled(deal, rng)
        views = [PlayerState(deal, p, state.hands[p]) for p in range(n)]
        bots = [make_bot(seats[p], deal, p, state.hands[p], seed=rng.randrange(2**31)) for p in range(n)]
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            event = state.push(bots[mover].choose(views[mover]))
            for p, view in enumerate(views):
                view.push(event.seen_by(p))
        match.finish(state.outcome())
    return GameResult(index, tuple(seats), match.points, match.winner, match.deals)


def observed_match(game: Game, observer: int, seed: int, deals: int | None = None, bot: str = "greedy") -> MatchRecord:
    """``observer``'s view of a match between ``bot`` bots in every seat, dealt from ``seed``: its first ``deals``
    deals (all of them, at most :data:`DEAL_LIMIT`, without), as :mod:`cardlogic.knektpass.match_record` writes
    a match. Scripted matches for tests and timings."""
    rng = random.Random(seed)
    n = len(game.players)
    match = Match(game, dealer=rng.randrange(n))
    first: Record | None = None
    events: list[MatchEvent] = []
    while not match.is_over and match.deals != (DEAL_LIMIT if deals is None else deals):
        deal = match.next_deal(rng.choice(game.deck))
        state = State.shuffled(deal, rng)
        hand = tuple(iter_cards(state.hands[observer]))
        if first is None:
            first = Record(deal, observer, {observer: hand})
        else:
            events.append(NextDeal(match.deals + 1, deal.turned, hand))
        views = [PlayerState(deal, p, state.hands[p]) for p in range(n)]
        bots = [make_bot(bot, deal, p, state.hands[p], seed=rng.randrange(2**31)) for p in range(n)]
        while (mover := state.to_move) is not None:
            event = state.push(bots[mover].choose(views[mover]))
            for p, view in enumerate(views):
                view.push(event.seen_by(p))
            events.append(event.seen_by(observer))
        match.finish(state.outcome())
    assert first is not None
    return MatchRecord(first, events)


def played_deals(bots: Sequence[str], deals: int, seed: int, rules: Rules | None = None) -> list[State]:
    """``deals`` single deals between bot ``bots[p]`` in seat ``p``, each dealt and its dealer drawn from ``seed``,
    everyone at the starting points: the referee of each at its end (deals nobody played included). For fitting
    and measuring the choice model (:mod:`cardlogic.knektpass.choices`)."""
    rng = random.Random(seed)
    n = len(bots)
    game = Game(NAMES[:n], rules or Rules())
    finished = []
    for _ in range(deals):
        deal = Deal(game, rng.randrange(n), rng.choice(game.deck))
        state = State.shuffled(deal, rng)
        views = [PlayerState(deal, p, state.hands[p]) for p in range(n)]
        players = [make_bot(bots[p], deal, p, state.hands[p], seed=rng.randrange(2**31)) for p in range(n)]
        while (mover := state.to_move) is not None:
            event = state.push(players[mover].choose(views[mover]))
            for p, view in enumerate(views):
                view.push(event.seen_by(p))
        finished.append(state)
    return finished


def _play(args: tuple[tuple[str, ...], str, int, int]) -> GameResult:
    bots, rules_text, seed, index = args
    n = len(bots)
    game = Game(NAMES[:n], Rules.parse(rules_text))
    seats = tuple(bots[(s + index) % n] for s in range(n))
    return play_game(game, seats, seed * 1_000_003 + index, index)


def tournament(
    bots: Sequence[str],
    games: int = 100,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    scheduler: str | None = None,
) -> TournamentResult:
    """Play ``games`` games with one seat per bot of ``bots`` (ValueError for an unknown bot or a number of seats
    the rules do not allow), in ``jobs`` local processes or on the Dask cluster at ``scheduler``
    (:class:`~cardlogic.dispatch.ClusterError` when none answers; :class:`~cardlogic.dispatch.SchedulerLost`, whose
    ``result`` holds the games finished, when it goes away); ``progress(1)`` is called after each game.
    Each game has its own seed, so the results do not depend on where or in how many processes they are played."""
    arguments.integer("games", games, 1)
    arguments.seed(seed)
    bots = tuple(bots)
    for name in bots:
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r} (expected one of {', '.join(BOTS)})")
    rules = rules or Rules()
    if len(bots) > len(NAMES):
        raise ValueError(f"at most {len(NAMES)} players, not {len(bots)}")
    Game(NAMES[: len(bots)], rules)  # fail early on a number of players the deck cannot serve
    work = [(bots, str(rules), seed, index) for index in range(games)]
    start = time.perf_counter()
    finished: list[tuple[int, GameResult]] = []
    try:
        with Workers(jobs if games > 1 else 1, scheduler) as workers:
            for item in workers.run(_play, work):
                finished.append(item)
                if progress:
                    progress(1)
    except SchedulerLost as error:
        done = tuple(sorted((result for _, result in finished), key=lambda result: result.index))  # may have gaps
        partial = TournamentResult(bots, seed, rules, done, time.perf_counter() - start)
        raise SchedulerLost(error.address, f"{len(finished)} of {games} games", partial) from None
    return TournamentResult(bots, seed, rules, tuple(in_order(finished)), time.perf_counter() - start)
