"""Ground truth for the advice tests: every consistent deal, listed by the CSP oracle, as current holders."""

from __future__ import annotations

from collections import Counter
from itertools import product

from cardlogic.inference import CspBackend
from cardlogic.literature.belief import LiteratureBelief


def current_deals(belief: LiteratureBelief) -> list[dict[int, int]]:
    """Every deal consistent with ``belief``, as card -> current holder for the cards in play."""
    known = belief.public.known
    in_play = belief.in_play()
    deals = []
    for deal in CspBackend().deals(belief.model):
        deals.append({card: known.get(card, deal[card]) for card in in_play})
    return deals


def claim_truth(
    belief: LiteratureBelief, set_index: int
) -> tuple[float, float, dict[tuple[tuple[int, int], ...], float]]:
    """P(team holds the set), the best joint probability, and P of every team assignment of its cards."""
    game = belief.game
    team = game.members(game.team_of(belief.observer))
    cards = game.deck.sets[set_index].cards
    deals = current_deals(belief)
    placements = Counter(tuple(deal[c] for c in cards) for deal in deals)  # deals per holders of the set's cards
    joint = {}
    for holders in product(team, repeat=len(cards)):
        joint[tuple(zip(cards, holders))] = placements[holders] / len(deals)
    p_team = sum(all(game.team_of(deal[c]) == game.team_of(belief.observer) for c in cards) for deal in deals)
    return p_team / len(deals), max(joint.values()), joint


def public_ask_probabilities(public: LiteratureBelief, asker: int, cards: list[int]) -> dict[int, float]:
    """A spectator's P(``asker`` holds another card of the set now and lacks the card), for each of ``cards``."""
    deals = current_deals(public)
    result = {}
    for card in cards:
        others = [c for c in public.game.deck.set_of(card).cards if c != card]
        possible = sum(deal[card] != asker and any(deal[c] == asker for c in others) for deal in deals)
        result[card] = possible / len(deals)
    return result
