"""Simulated Literature games for the belief tests: random set-ups, the true deal, and the truth at every point.

A :class:`Truth` replays a simulated game with the full-information referee and
remembers, after every prefix of its events, which player holds each card still
in play. The belief tests compare what an observer may conclude against it.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from cardlogic.cards import Card, iter_cards
from cardlogic.constraints import DealModel
from cardlogic.literature import Event, Game, Rules, State
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.decks import DECK_NAMES, Deck
from cardlogic.literature.selfplay import play_random_game

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")


@st.composite
def games(
    draw: st.DrawFn,
    min_players: int = 4,
    max_players: int = 12,
    decks: tuple[str, ...] = DECK_NAMES,
    min_sets: int = 1,
    max_sets: int | None = None,
) -> Game:
    """A random game: players, deck (every set, or some), teams, house rules, dealer or free sizes.

    Only some of the sets are kept when ``max_sets`` is given, or at random half the time.
    """
    n = draw(st.integers(min_players, max_players))
    deck = Deck.named(draw(st.sampled_from(decks)))
    everything = len(deck.sets)
    fewest = max(min_sets, -(-n // len(deck.sets[0].cards)))  # at least one card for every player
    if max_sets is not None or draw(st.booleans()):
        count = draw(st.integers(min(fewest, everything), min(everything, max_sets or everything)))
        kept = sorted(draw(st.permutations(range(everything)))[:count])
        deck = deck.restricted([deck.sets[i].short for i in kept])
    teams = draw(
        st.one_of(
            st.just(()),
            st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda t: 0 in t and 1 in t).map(tuple),
        )
    )
    rules = Rules(
        draw(st.sampled_from(["split", "opponents"])),
        bluff=draw(st.booleans()),
        must_declare=draw(st.booleans()),
        high_double=draw(st.booleans()),
    )
    players = NAMES[:n]
    if draw(st.booleans()):
        return Game(players, teams, deck, rules, dealer=draw(st.integers(0, n - 1)))
    cards = len(deck.cards)
    cuts = sorted(draw(st.lists(st.integers(1, cards - 1), min_size=n - 1, max_size=n - 1, unique=True)))
    sizes = tuple(b - a for a, b in zip([0, *cuts], [*cuts, cards]))
    return Game(players, teams, deck, rules, sizes=sizes)


@dataclass(frozen=True)
class Truth:
    """A simulated game and, after each prefix of its events, the current holder of every card in play.

    ``deal`` is the true initial deal (card -> player) and ``now[k]`` maps each card still in play after
    the first ``k`` events to the player holding it.
    """

    game: Game
    hands: tuple[int, ...]
    events: tuple[Event, ...]
    deal: dict[Card, int]
    now: tuple[dict[Card, int], ...]

    @classmethod
    def simulate(cls, game: Game, seed: int, guess_rate: float = 0.02) -> Truth:
        hands, events = play_random_game(game, seed, guess_rate)
        state = State(game, hands)
        now = [_holders(state.hands)]
        for event in events:
            state.push(event)
            now.append(_holders(state.hands))
        return cls(game, tuple(hands), tuple(events), now[0], tuple(now))

    def hand(self, player: int | None) -> tuple[Card, ...]:
        """``player``'s starting hand (nothing for the spectator, None)."""
        return () if player is None else tuple(iter_cards(self.hands[player]))

    def drawn_model(self, data: st.DataObject, share: float) -> DealModel:
        """The deal model of a drawn observer (or a spectator) after a drawn cut in the first ``share`` of the
        events."""
        players = len(self.game.players)
        observer = data.draw(st.one_of(st.none(), st.integers(0, players - 1)), label="observer")
        cut = data.draw(st.integers(0, int(len(self.events) * share)), label="cut")
        belief = LiteratureBelief(self.game, observer, self.hand(observer))
        for event in self.events[:cut]:
            belief.tracker.push(event)
        return belief.tracker.model


def _holders(hands: tuple[int, ...]) -> dict[Card, int]:
    return {card: player for player, hand in enumerate(hands) for card in iter_cards(hand)}


seeds = st.integers(0, 2**32 - 1)
guess_rates = st.sampled_from([0.0, 0.02, 0.1, 0.3])
