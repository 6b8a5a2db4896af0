"""``cardlogic simulate``: a full record of a random game, for examples, tests and benchmarks."""

from __future__ import annotations

import argparse
import random
import sys

from cardlogic.cards import iter_cards
from cardlogic.cli.common import PLAYERS, SEED
from cardlogic.literature import Game, GameError, Record, Rules, play_random_game, write_record
from cardlogic.literature.decks import DECK_NAMES, Deck, DeckError
from cardlogic.literature.rules import MAX_PLAYERS, MIN_PLAYERS

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="write a full record of a random game",
        description="Deal and play a game between random-legal bots (see cardlogic.literature.selfplay) and write "
        "its full record (every hand, a seeded random dealer) to standard output. Players are named "
        f"{', '.join(NAMES[:4])}, ... in seat order.",
    )
    parser.add_argument(
        "--players",
        type=PLAYERS,
        default=6,
        metavar="N",
        help=f"number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (default 6)",
    )
    parser.add_argument("--seed", type=SEED, default=0, help="random seed for the deal and the play (default 0)")
    parser.add_argument("--deck", default="no-8s", choices=DECK_NAMES, help="deck variant (default no-8s)")
    parser.add_argument(
        "--sets",
        nargs="+",
        metavar="SET",
        help=f"play only these sets, by short name or long (low-spades, eights, twos): {_set_names()}",
    )
    parser.add_argument("--rules", default="", help='house rules, e.g. "wrong-claim=opponents bluff=on"')
    parser.set_defaults(handler=run)


def _set_names() -> str:
    """Every deck's short set names, each list once with the decks that deal it, for ``--help``."""
    decks: dict[tuple[str, ...], list[str]] = {}
    for name in DECK_NAMES:
        decks.setdefault(tuple(card_set.short for card_set in Deck.named(name).sets), []).append(name)
    return "; ".join(f"{', '.join(names)}: {' '.join(shorts)}" for shorts, names in decks.items())


def run(args: argparse.Namespace) -> int:
    players = NAMES[: args.players]
    try:
        game = Game(
            players,
            deck=Deck.named(args.deck, args.sets),
            rules=Rules.parse(args.rules),
            dealer=random.Random(args.seed).randrange(len(players)),
        )
    except (DeckError, GameError) as error:
        print(f"cardlogic simulate: {error}", file=sys.stderr)
        return 2
    hands, events = play_random_game(game, args.seed)
    record = Record(game, None, {player: tuple(iter_cards(hand)) for player, hand in enumerate(hands)}, events)
    sys.stdout.write(write_record(record))
    return 0
