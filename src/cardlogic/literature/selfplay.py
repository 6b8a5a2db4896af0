"""Random self-play: a seeded bot that plays legal events, for tests, examples and benchmarks.

>>> from cardlogic.literature.rules import Game
>>> hands, events = play_random_game(Game(("Ann", "Bob", "Cat", "Dan"), dealer=0), seed=3)
>>> len(hands), isinstance(events[-1], Claim)
(4, True)
"""

from __future__ import annotations

import random

from cardlogic.literature.events import Ask, Claim, Event, Pass, actor
from cardlogic.literature.rules import Game
from cardlogic.literature.state import State


class PeekingRandomBot:
    """Chooses a random legal event for the player to move, peeking at their team's hands (a referee-side
    player that makes varied random games, claims included; the seat bot ``random`` of
    :mod:`cardlogic.literature.bots` sees only its own view).

    In order: without cards it passes to a random teammate with cards (or, once
    the opponents have no cards, guesses a claim); with
    probability ``guess_rate`` it guesses a claim; it claims (correctly) a set its
    team holds entirely; right after its claim it passes to a random teammate
    with probability ``pass_rate``; when ``guess`` is set or it cannot ask, it
    guesses a claim; otherwise it asks a random legal question. A guessed claim
    is of a set the team holds entirely (half the time, when there is one) or of
    any unclaimed set, placing the cards the bot holds with itself and the others
    with random teammates, so it may be correct, void or lost.
    """

    def __init__(self, rng: random.Random, guess_rate: float = 0.02, pass_rate: float = 0.3) -> None:
        self.rng = rng
        self.guess_rate = guess_rate
        self.pass_rate = pass_rate

    def choose(self, state: State, guess: bool = False) -> Event:
        """The bot's event for the first of the players who may act (:attr:`~PublicState.movers`)."""
        mover = state.public.movers[0]
        legal = [e for e in state.legal_events() if actor(e) == mover]
        passes = [e for e in legal if isinstance(e, Pass)]
        if not state.hands[mover]:  # right after its claim, or claiming alone once the opponents have no cards
            return self.rng.choice(passes) if passes else self._guess(state, mover)
        if self.rng.random() < self.guess_rate:
            return self._guess(state, mover)
        claims = [e for e in legal if isinstance(e, Claim)]
        if claims:
            return self.rng.choice(claims)
        if passes and self.rng.random() < self.pass_rate:
            return self.rng.choice(passes)
        asks = [e for e in legal if isinstance(e, Ask)]
        if guess or not asks:
            return self._guess(state, mover)
        return self.rng.choice(asks)

    def _guess(self, state: State, mover: int) -> Claim:
        game = state.game
        team = game.members(game.team_of(mover))
        team_hand = 0
        for mate in team:
            team_hand |= state.hands[mate]
        unclaimed = state.public.unclaimed
        held = [i for i in unclaimed if game.deck.sets[i].mask & ~team_hand == 0]
        index = self.rng.choice(held if held and self.rng.random() < 0.5 else unclaimed)
        hand = state.hands[mover]
        others = [p for p in team if p != mover] or [mover]
        return Claim(
            mover,
            index,
            tuple(
                (card, mover if hand >> card & 1 else self.rng.choice(others)) for card in game.deck.sets[index].cards
            ),
        )


def play_random_game(
    game: Game, seed: int, guess_rate: float = 0.02, patience: int | None = None
) -> tuple[tuple[int, ...], list[Event]]:
    """Deal with ``random.Random(seed)`` and let :class:`PeekingRandomBot` play to the end.

    Returns the dealt hands (card masks) and the completed events. After
    ``patience`` events (default: 10 per card in the deck) the bot only guesses
    claims, so every game ends. A game without a dealer starts with its first
    player.
    """
    rng = random.Random(seed)
    state = State.shuffled(game, rng)
    hands = state.hands
    bot = PeekingRandomBot(rng, guess_rate)
    limit = 10 * len(game.deck.cards) if patience is None else patience
    events: list[Event] = []
    while not state.is_over:
        events.append(state.push(bot.choose(state, len(events) >= limit)))
    return hands, events
