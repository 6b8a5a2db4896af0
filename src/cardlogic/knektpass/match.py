"""A game of Knektpass as a match of deals: points carried from deal to deal until someone reaches 0.

>>> from cardlogic.knektpass.rules import Game
>>> match = Match(Game(("Ann", "Bob", "Cat")), dealer=2)
>>> match.points, match.is_over
((12, 12, 12), False)
>>> deal = match.next_deal(Card.parse("9H"))
>>> deal.dealer, deal.points
(2, (12, 12, 12))
"""

from __future__ import annotations

from collections.abc import Sequence

from cardlogic.cards import Card
from cardlogic.knektpass.rules import Deal, Game, GameError
from cardlogic.knektpass.state import Outcome


class Match:
    """The points of a game between deals, and who deals next.

    After a deal the deal passes to the left, except after a redeal (everyone
    folded), when the same dealer deals again. The game is over once a player
    has 0 points or fewer; the :attr:`winner` is the player with the fewest
    points then (on a tie, the first of them from the last dealer's left).
    """

    def __init__(self, game: Game, dealer: int = 0, points: Sequence[int] = ()) -> None:
        n = len(game.players)
        if not 0 <= dealer < n:
            raise GameError(f"no player has index {dealer}", "dealer")
        self.game = game
        self.dealer = dealer
        self.points: tuple[int, ...] = tuple(points) or (game.rules.points,) * n
        if len(self.points) != n:
            raise GameError(f"{len(self.points)} points for {n} players", "points")
        self.deals = 0
        self._last_dealer = dealer

    @property
    def is_over(self) -> bool:
        return min(self.points) <= 0

    @property
    def winner(self) -> int | None:
        """The winning player once the game is over, else None."""
        if not self.is_over:
            return None
        n = len(self.points)
        order = [(self._last_dealer + 1 + k) % n for k in range(n)]
        return min(order, key=lambda p: self.points[p])

    def next_deal(self, turned: Card) -> Deal:
        """The set-up of the next deal, whose turned card is ``turned``; ``ValueError`` once over."""
        if self.is_over:
            raise ValueError("the game is over")
        return Deal(self.game, self.dealer, turned, self.points)

    def finish(self, outcome: Outcome) -> None:
        """Score a deal's ``outcome`` and pass the deal on."""
        self.points = outcome.points
        self._last_dealer = self.dealer
        self.deals += 1
        if outcome.kind != "redeal":
            self.dealer = (self.dealer + 1) % len(self.game.players)


def describe_outcome(outcome: Outcome, players: Sequence[str]) -> str:
    """One line on how a deal ended, as players at the table say it.

    >>> describe_outcome(Outcome("tricks", (0, 2), (3, 0, 2), (1, 0, 3), (-3, 0, 5), (9, 12, 17)), ("Ann", "Bob", "Cat"))
    'tricks Ann 3, Cat 2 (minimums 1, 3); points Ann -3, Cat +5'
    """
    if outcome.kind == "redeal":
        return "everyone folded: the same dealer deals again"
    if outcome.kind == "lone":
        player = outcome.playing[0]
        return f"{players[player]} plays alone: points {players[player]} {outcome.changes[player]:+d}"
    tricks = ", ".join(f"{players[p]} {outcome.tricks[p]}" for p in outcome.playing)
    minimums = ", ".join(str(outcome.minimums[p]) for p in outcome.playing)
    changes = ", ".join(f"{players[p]} {outcome.changes[p]:+d}" for p in outcome.playing)
    return f"tricks {tricks} (minimums {minimums}); points {changes}"
