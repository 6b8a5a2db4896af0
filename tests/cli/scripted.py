"""A scripted 6-player game for the live tests: Ann's view of a finished random game, and the lines to type it."""

from __future__ import annotations

from cardlogic.cards import iter_cards
from cardlogic.literature import Ask, Event, Game, Pass, Record, format_event, play_random_game, write_record
from cardlogic.literature.decks import Deck

GAME = Game(
    ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"), deck=Deck.named("no-8s", sets=["LS", "HS", "LH", "HH"]), dealer=5
)
"""Six players and four sets (four cards each), so every inference takes milliseconds."""
SEED = 19
"""A 27-event game with a wrong and three correct claims, a pass, and seven asks by Ann."""


def annes_view(seed: int = SEED) -> Record:
    """Ann's record of the random game dealt and played with ``seed``."""
    hands, events = play_random_game(GAME, seed)
    full = Record(GAME, None, {p: tuple(iter_cards(hand)) for p, hand in enumerate(hands)}, events)
    return full.view_as(0)


def setup_text(record: Record) -> str:
    """The record's set-up and Ann's hand, without events: what live starts from."""
    return write_record(Record(record.game, record.observer, dict(record.hands)))


def typed(event: Event, game: Game) -> str:
    """How a hurried player types ``event``: asks in the short form (the asker by initial), the rest in full."""
    if isinstance(event, Ask):
        names = game.players
        return (
            f"{names[event.asker][0].lower()} {names[event.target].lower()} {str(event.card).lower()} "
            f"{'+' if event.yes else '-'}"
        )
    return format_event(event, game)


OUTCOME_WORDS = {"correct": "ok", "void": "void", "opponents": "opp"}


def short_forms(record: Record) -> list[tuple[str, str | None]]:
    """The record's events as short forms only, each with the answer to live's question when it asks one (a claim
    by Ann's team that is not certain: the outcome and who held the cards Ann cannot know), else None.

    A shadow :class:`~cardlogic.table.literature.LiveGame` reads the same lines, so each claim reveals only what
    Ann does not know at that point.
    """
    from cardlogic.table.core import Incomplete
    from cardlogic.table.literature import LiveGame

    game = record.game
    names = [name.lower() for name in game.players]
    shadow = LiveGame(Record(game, record.observer, dict(record.hands)))
    lines = []
    for event in record.events:
        answer = None
        if isinstance(event, Ask):
            line = typed(event, game)
        elif isinstance(event, Pass):
            line = f"{names[event.giver]} {names[event.receiver]}"
        else:
            sure = shadow.sure_holders()
            unknown: dict[int, list[str]] = {}
            for card, holder in event.revealed:
                if sure.get(card) != holder:
                    unknown.setdefault(holder, []).append(str(card).lower())
            outcome = " ".join(
                [OUTCOME_WORDS[event.outcome], *(f"{names[h]} {' '.join(c)}" for h, c in unknown.items())]
            )
            line = f"{names[event.claimer]} claims {game.deck.sets[event.set_index].short.lower()}"
            if game.team_of(event.claimer) == game.team_of(record.observer):
                answer = outcome
            else:
                line += " " + outcome
        try:
            shadow.push_line(line)
            answer = None  # live completed it without asking
        except Incomplete as question:
            shadow.push(question.complete(answer))
        lines.append((line, answer))
    return lines
