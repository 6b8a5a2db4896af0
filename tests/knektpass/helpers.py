"""Shared set-ups for the Knektpass tests: deals from card lists, and stepping a referee through events."""

from __future__ import annotations

from cardlogic.cards import Card, card_mask, parse_cards
from cardlogic.knektpass import Deal, Game, Rules, State

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def deal_of(
    players: int = 3,
    dealer: int | None = None,
    turned: str = "9H",
    rules: Rules | None = None,
    points: tuple[int, ...] = (),
) -> Deal:
    """A deal of ``players`` from NAMES, dealt by the last of them unless told."""
    game = Game(NAMES[:players], rules or Rules())
    return Deal(game, players - 1 if dealer is None else dealer, Card.parse(turned), points)


def state_of(deal: Deal, *hands: str, stock: str | None = None) -> State:
    """The referee of ``deal`` with the given hands (text, one per player) and the stock (default: the rest,
    in card order)."""
    masks = [card_mask(parse_cards(hand)) for hand in hands]
    if stock is None:
        used = deal.turned.mask
        for mask in masks:
            used |= mask
        rest = [c for c in deal.game.deck if not used >> c & 1]
    else:
        rest = parse_cards(stock)
        listed = card_mask(rest)
        rest += [
            c
            for c in deal.game.deck
            if not listed >> c & 1 and c != deal.turned and not any(mask >> c & 1 for mask in masks)
        ]
    return State(deal, masks, rest)


def random_rules(rng) -> Rules:
    """House rules with the obligations of play drawn at random (``must-trump`` on more often than not, and
    ``underruff`` either way)."""
    return Rules(must_trump=rng.random() < 0.7, underruff=rng.random() < 0.5)


def cards(text: str) -> int:
    return card_mask(parse_cards(text))


def random_record(seed: int, players: int | None = None, rules: Rules | None = None):
    """A full record of one deal played by uniformly random legal events, and the referee at its end."""
    import random

    from cardlogic.cards import iter_cards
    from cardlogic.knektpass import Record

    rng = random.Random(seed)
    players = players or rng.choice((2, 3, 4, 5))
    game = Game(NAMES[:players], rules or random_rules(rng))
    deal = Deal(game, rng.randrange(players), rng.choice(game.deck), tuple(rng.randint(1, 30) for _ in range(players)))
    state = State.shuffled(deal, rng)
    hands = {p: tuple(iter_cards(h)) for p, h in enumerate(state.hands)}
    stock = state.stock
    while not state.is_over:
        state.push(rng.choice(state.legal_events()))
    return Record(deal, None, hands, list(state.history), stock), state


TRICKS_SO_FAR = """\
Players: Ann Bob Cat
Dealer: Cat
Trump: 9H
Me: Bob
Hand Bob: AH KH 6S 7S 8S

Cat leaves the trump
Ann plays
Bob plays
Cat plays
Ann stands
Bob stands
Cat stands
Ann plays 6D
Bob plays KH
Cat plays 7D
Bob plays AH
Cat plays 10H
Ann plays 6C
"""
"""Bob's view of two tricks (hearts trumps): on line 19 Ann plays no trump to Bob's trump lead, and Bob leads next."""
