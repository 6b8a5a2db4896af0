"""The has/lacks matrix a careful counting player keeps, with the usual elimination rules.

This is what good human players and the usual public Literature bots track,
without any probability: for every card in play its known holder (if any) and
the players known to lack it, and for every player and set a lower bound on how
many cards of the set the player holds. :class:`CountingTracker` applies the
events of the public history plus the observer's own hand, then the rules

* a card at a known holder is lacked by everyone else; a card lacked by all but
  one player is at that player;
* an asker lacks the asked card (``bluff=off``) and holds at least one other
  card of its set; *no* means the target lacks the card; *yes* moves it (and the
  lower bounds move with it);
* when a player's lower bound for a set equals the cards of it they may hold,
  they hold them all;
* when a player's lower bounds add up to their hand size, they lack every card
  of every set whose bound their known cards already meet (hand-size counting),

to a fixed point. Everything it states is certain; it finds fewer facts than
exact inference (:mod:`cardlogic.literature.belief`), which is the point of comparing them.

>>> from cardlogic.cards import Card
>>> from cardlogic.literature.decks import Deck
>>> from cardlogic.literature import Ask, Game
>>> game = Game(("A", "B", "C", "D"), deck=Deck.named("no-8s", sets=["LS", "HS"]), dealer=3)
>>> tracker = CountingTracker(game, 0, [Card.parse(t) for t in "2S 3S 4S 9S 10S 5S".split()])
>>> tracker.push(Ask(3, 0, Card.parse("6S"), yes=False))
>>> tracker.minimum[3][0]  # D asked for a low spade, so holds at least one
1
"""

from __future__ import annotations

from collections.abc import Iterable

from cardlogic.cards import Card
from cardlogic.literature import Ask, Claim, Event, Game


class CountingTracker:
    """Certain has/lacks facts for ``observer`` (holding ``hand`` as dealt), updated by :meth:`push`.

    ``holder[card]`` is the known current holder (absent when unknown),
    ``lacks[card]`` a bitmask of players known not to hold it now,
    ``minimum[player][set_index]`` a lower bound on how many cards of that set
    the player holds now, and ``sizes`` the current hand sizes. Only cards of
    unclaimed sets are tracked.
    """

    def __init__(self, game: Game, observer: int, hand: Iterable[int]) -> None:
        self.game = game
        self.observer = observer
        n = len(game.players)
        self.sizes = list(game.sizes)
        self.claimed: set[int] = set()
        self.holder: dict[int, int] = {}
        self.lacks: dict[int, int] = dict.fromkeys(game.deck.cards, 0)
        self.minimum = [[0] * len(game.deck.sets) for _ in range(n)]
        own = set(hand)
        for card in game.deck.cards:
            if card in own:
                self._set_holder(card, observer)
            else:
                self.lacks[card] |= 1 << observer
        self._deduce()

    # -- events ------------------------------------------------------------------------------------------------------

    def push(self, event: Event) -> None:
        """Learn from ``event`` (complete, as a referee or record gives it)."""
        deck = self.game.deck
        if isinstance(event, Ask):
            index = deck.set_index_of(event.card)
            asker, target, card = event.asker, event.target, event.card
            if not self.game.rules.bluff:
                self._lack(card, asker)
            self.minimum[asker][index] = max(self.minimum[asker][index], 1)
            if event.yes:
                self.minimum[asker][index] += 1
                self.minimum[target][index] = max(0, self.minimum[target][index] - 1)
                self.sizes[asker] += 1
                self.sizes[target] -= 1
                self.holder.pop(card, None)
                self._set_holder(card, asker)
            else:
                self._lack(card, target)
        elif isinstance(event, Claim):
            self.claimed.add(event.set_index)
            for card, holder in event.revealed or ():
                self.sizes[holder] -= 1
                self.holder.pop(card, None)
                self.lacks.pop(card, None)
            for row in self.minimum:
                row[event.set_index] = 0
        else:
            return
        self._deduce()

    # -- questions ---------------------------------------------------------------------------------------------------

    def known_holder(self, card: int) -> int | None:
        return self.holder.get(card)

    def may_hold(self, player: int, card: int) -> bool:
        holder = self.holder.get(card)
        if holder is not None:
            return holder == player
        return not self.lacks[card] >> player & 1

    def unknown_slots(self, player: int) -> int:
        """How many of ``player``'s cards are not known."""
        return self.sizes[player] - sum(1 for holder in self.holder.values() if holder == player)

    # -- deduction ---------------------------------------------------------------------------------------------------

    def _set_holder(self, card: Card, player: int) -> None:
        self.holder[card] = player
        self.lacks[card] = ((1 << len(self.game.players)) - 1) & ~(1 << player)

    def _lack(self, card: Card, player: int) -> None:
        if card in self.lacks and self.holder.get(card) != player:
            self.lacks[card] |= 1 << player

    def _deduce(self) -> None:
        game = self.game
        n = len(game.players)
        everyone = (1 << n) - 1
        live = [(index, card_set.cards) for index, card_set in enumerate(game.deck.sets) if index not in self.claimed]
        changed = True
        while changed:
            changed = False
            for _, cards in live:
                for card in cards:
                    if card in self.holder:
                        continue
                    possible = everyone & ~self.lacks[card]
                    if possible and possible & (possible - 1) == 0:
                        self._set_holder(card, possible.bit_length() - 1)
                        changed = True
            for player in range(n):
                known_total = 0
                exact_sets = []
                for index, cards in live:
                    has = sum(1 for c in cards if self.holder.get(c) == player)
                    low = max(self.minimum[player][index], has)
                    self.minimum[player][index] = low
                    known_total += low
                    maybe = [c for c in cards if c not in self.holder and not self.lacks[c] >> player & 1]
                    if maybe and low == has + len(maybe):
                        for card in maybe:
                            self._set_holder(card, player)
                        changed = True
                    elif low == has and maybe:
                        exact_sets.append(maybe)
                if known_total == self.sizes[player] and exact_sets:
                    for maybe in exact_sets:
                        for card in maybe:
                            self.lacks[card] |= 1 << player
                    changed = True
