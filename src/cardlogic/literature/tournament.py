"""Matches between two bots' teams on a full-information referee, with win rates and 95% intervals.

Games come in pairs on the same deal: in the first the first bot plays team 0
(the even seats) and the second team 1; in the second they swap, so each bot
plays every hand and moves first once. Game ``2k`` and ``2k + 1`` use pair
``k``'s deal and dealer, drawn from ``seed`` and ``k`` alone, so results do not
depend on how many processes or machines play them: a :class:`Match` plays each
game as one task of :class:`cardlogic.dispatch.Workers` (here, in local
processes or on a Dask cluster), for a fixed number of games
(:meth:`Match.tournament`) or until an SPRT decides (:meth:`Match.sprt`).

>>> result = tournament(("counting", "random"), players=4, games=2, seed=1, deck="no-8s")
>>> result.games, sum(result.wins.values()) + result.ties
(2, 2)
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass

from cardlogic import arguments
from cardlogic.cards import iter_cards
from cardlogic.dispatch import SchedulerLost, Workers, in_order
from cardlogic.literature import Event, Game, PlayerState, Record, Rules, State
from cardlogic.literature.bots import BOTS, Bot, make_bot
from cardlogic.literature.decks import Deck
from cardlogic.literature.rules import MAX_PLAYERS, MIN_PLAYERS
from cardlogic.rating import SPRT, SPRTResult, wilson

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
EVENT_LIMIT = 40
"""Events per card of the deck after which a game is stopped; its unclaimed sets count for nobody."""


@dataclass(frozen=True)
class GameResult:
    """One game: which bot played each team, the final scores and the winning bot (None for a tie)."""

    index: int
    teams: tuple[str, str]
    scores: tuple[int, int]
    winner: str | None
    events: int
    finished: bool


@dataclass(frozen=True)
class TournamentResult:
    """Every game's result, and the totals by bot; ``rules``: the house rules they were played under, every one
    named (``str(Rules)``)."""

    bots: tuple[str, str]
    players: int
    deck: str
    rules: str
    seed: int
    results: tuple[GameResult, ...]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> dict[str, int]:
        return {bot: sum(1 for r in self.results if r.winner == bot) for bot in self.bots}

    @property
    def ties(self) -> int:
        return sum(1 for r in self.results if r.winner is None)

    def points(self, bot: str) -> float:
        """The average score of ``bot``'s team per game."""
        return sum(r.scores[r.teams.index(bot)] for r in self.results) / max(1, self.games)

    def as_json(self) -> dict:
        first, second = self.bots
        wins = self.wins
        rates = {}
        for label, count in ((f"{first} wins", wins[first]), ("ties", self.ties), (f"{second} wins", wins[second])):
            low, high = wilson(count, self.games)
            rates[label] = {"rate": count / max(1, self.games), "low": low, "high": high}
        return {
            "games": self.games,
            "bots": list(self.bots),
            "players": self.players,
            "deck": self.deck,
            "rules": self.rules,
            "seed": self.seed,
            "wins": wins,
            "ties": self.ties,
            "rates": rates,
            "points": {bot: self.points(bot) for bot in self.bots},
            "unfinished": sum(1 for r in self.results if not r.finished),
            "seconds": round(self.seconds, 3),
        }


def pair_setup(players: int, deck: Deck, rules: Rules, seed: int, pair: int) -> tuple[Game, random.Random]:
    """The game (with its dealer) and the dealing generator of pair ``pair``."""
    rng = random.Random(seed * 1_000_003 + pair)
    game = Game(NAMES[:players], deck=deck, rules=rules, dealer=rng.randrange(players))
    return game, rng


def play_game(game: Game, hands: Sequence[int], teams: tuple[str, str], seed: int) -> tuple[tuple[int, int], int, bool]:
    """Play one game from ``hands`` with bot ``teams[t]`` in every seat of team ``t``.

    Returns the scores, the number of events and whether the game finished
    within :data:`EVENT_LIMIT`. Only a bot that cheats by design (``omniscient``)
    is given every hand; the others get their own. A bot's illegal event raises
    :class:`~cardlogic.literature.IllegalEventError`.
    """
    state = play_bots(game, hands, teams, seed)
    return state.public.scores, len(state.history), state.is_over


def play_bots(
    game: Game,
    hands: Sequence[int],
    teams: tuple[str, str],
    seed: int,
    watch: Callable[[Sequence[Bot], Event], None] | None = None,
) -> State:
    """The referee's final :class:`State` of :func:`play_game`'s game (its history is the game's events);
    ``watch(bots, event)`` sees every event as the referee filled it in, while the bot that chose it still holds
    what it worked out for it (a benchmark reads an advisor's ``last_advice`` so)."""
    state = State(game, hands)
    n = len(game.players)
    views = [PlayerState(game, p, hands[p]) for p in range(n)]
    # Game seeds grow past a bot's 32-bit seed; folding keeps every seed that already fitted unchanged.
    seeds = [(seed * 64 + p) % (arguments.MAX_SEED + 1) for p in range(n)]
    bots = [make_bot(teams[game.team_of(p)], game, p, hands[p], seed=seeds[p], deal=hands) for p in range(n)]
    limit = EVENT_LIMIT * len(game.deck.cards)
    events = 0
    while not state.is_over and events < limit:
        mover = state.public.movers[0]
        event = _interjection(bots, views, mover) if game.rules.claim_anytime else None
        event = state.push(event or bots[mover].choose(views[mover]))
        if watch is not None:
            watch(bots, event)
        for view in views:
            view.push(event)
        events += 1
    return state


def played_record(
    game: Game,
    hands: Sequence[int],
    teams: tuple[str, str],
    seed: int,
    watch: Callable[[Sequence[Bot], Event], None] | None = None,
) -> Record:
    """:func:`play_bots`'s game as a full record (every starting hand)."""
    state = play_bots(game, hands, teams, seed, watch)
    return Record(game, None, {p: tuple(iter_cards(hand)) for p, hand in enumerate(hands)}, list(state.history))


def _interjection(bots: Sequence[Bot], views: Sequence[PlayerState], mover: int) -> Event | None:
    """The first claim a bot makes off its turn (``claim-anytime=on``), asking them in seat order after the mover."""
    n = len(bots)
    for seat in ((mover + step) % n for step in range(1, n)):
        claim = bots[seat].interject(views[seat])
        if claim is not None:
            return claim
    return None


@dataclass(frozen=True)
class Match:
    """What every game of a tournament shares: the two bots, the table and the seed.

    Game ``index`` belongs to pair ``index // 2``, whose deal and dealer come
    from ``seed`` and the pair alone; in its second game the bots swap teams.
    """

    bots: tuple[str, str]
    players: int = 6
    deck: str = "no-8s"
    rules: str = ""
    seed: int = 0

    def __post_init__(self) -> None:
        arguments.integer("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        arguments.seed(self.seed)
        for name in self.bots:
            if name not in BOTS:
                raise ValueError(f"unknown bot {name!r} (expected one of {', '.join(BOTS)})")
        if self.bots[0] == self.bots[1]:
            raise ValueError("a tournament needs two different bots")
        Deck.named(self.deck)  # fail early on a bad deck name
        Rules.parse(self.rules)

    def play(self, index: int) -> GameResult:
        """Play game ``index`` (the same game wherever and whenever it is played)."""
        game, hands, teams = self.setup(index)
        scores, events, finished = play_game(game, hands, teams, self.seed * 1_000_003 + index)
        winner = None if scores[0] == scores[1] else teams[int(scores[1] > scores[0])]
        return GameResult(index, teams, scores, winner, events, finished)

    def setup(self, index: int) -> tuple[Game, tuple[int, ...], tuple[str, str]]:
        """Game ``index``'s game, dealt hands and teams' bots."""
        pair, swap = divmod(index, 2)
        game, rng = pair_setup(self.players, Deck.named(self.deck), Rules.parse(self.rules), self.seed, pair)
        return game, State.shuffled(game, rng).hands, (self.bots[swap], self.bots[1 - swap])

    def record(self, index: int, watch: Callable[[Sequence[Bot], Event], None] | None = None) -> Record:
        """Game ``index`` played out as a full record (every starting hand); ``watch`` as :func:`play_bots` takes it."""
        game, hands, teams = self.setup(index)
        return played_record(game, hands, teams, self.seed * 1_000_003 + index, watch)

    def games(self, workers: Workers) -> Generator[GameResult]:
        """Games 0, 1, 2, ... without end, in order, played by ``workers`` a few ahead; stop iterating to stop."""
        return in_order(workers.run(_play, ((self, index) for index in itertools.count())))

    def tournament(
        self, games: int, workers: Workers, progress: Callable[[int], None] | None = None
    ) -> TournamentResult:
        """Play games ``0 .. games - 1`` with ``workers``; ``progress(1)`` is called as each one finishes."""
        arguments.integer("games", games, 1)
        start = time.perf_counter()
        results: list[GameResult] = []
        try:
            for _, result in workers.run(_play, [(self, index) for index in range(games)]):
                results.append(result)
                if progress:
                    progress(1)
        except SchedulerLost as error:
            results.sort(key=lambda r: r.index)
            partial = self._result(results, time.perf_counter() - start)
            raise SchedulerLost(error.address, f"{len(results)} of {games} games", partial) from None
        results.sort(key=lambda r: r.index)
        return self._result(results, time.perf_counter() - start)

    def sprt(
        self,
        test: SPRT,
        workers: Workers,
        max_games: int = 20_000,
        progress: Callable[[int, float], None] | None = None,
    ) -> tuple[SPRTResult, TournamentResult]:
        """Play pairs in order until ``test`` decides whether the first bot is stronger by ``test.elo1`` (H1) or by
        ``test.elo0`` at most (H0), or ``max_games`` are played (undecided).

        ``workers`` play a few games ahead, but they are read in order, so
        where the test stops depends only on the seed. ``progress(games, llr)``
        is called after each pair. Returns the test's result and the games it read.
        """
        first = self.bots[0]
        results: list[GameResult] = []
        start = time.perf_counter()

        def pair_scores(games: Iterator[GameResult]) -> Iterator[float]:
            for game in games:
                results.append(game)
                if game.index % 2:
                    yield sum(1.0 if r.winner == first else 0.5 if r.winner is None else 0.0 for r in results[-2:]) / 2

        games = self.games(workers)
        report = None if progress is None else (lambda pairs, value: progress(2 * pairs, value))
        try:
            outcome = test.run(pair_scores(games), max_pairs=max_games // 2, progress=report)
        except SchedulerLost as error:
            partial = self._result(results, time.perf_counter() - start)
            raise SchedulerLost(error.address, f"{len(results)} games read by the test", partial) from None
        games.close()
        return outcome, self._result(results, time.perf_counter() - start)

    def _result(self, results: list[GameResult], seconds: float) -> TournamentResult:
        rules = str(Rules.parse(self.rules))
        return TournamentResult(self.bots, self.players, self.deck, rules, self.seed, tuple(results), seconds)


def _play(task: tuple[Match, int]) -> GameResult:
    match, index = task
    return match.play(index)


def tournament(
    bots: tuple[str, str],
    players: int = 6,
    games: int = 100,
    seed: int = 0,
    deck: str = "no-8s",
    rules: Rules | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games between the two bots' teams (an odd count ends with half a pair).

    ``jobs`` local processes play them in parallel, or the Dask cluster whose
    scheduler is at ``scheduler`` (:class:`~cardlogic.dispatch.ClusterError`
    when none answers); ``progress(1)`` is called as each game finishes. The
    results are the same whoever plays them. The two bots must differ
    (ValueError otherwise, and for an unknown bot).
    """
    match = Match(bots, players, deck, str(rules or Rules()), seed)
    with Workers(jobs, scheduler) as workers:
        return match.tournament(games, workers, progress)
