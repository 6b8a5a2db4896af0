"""What every game's record notation shares: its lines, the players' names, a problem at a line, and the error that
reports it.

Each game reads and writes its own records (:mod:`cardlogic.literature.record`,
:mod:`cardlogic.knektpass.record`); both report problems the same way, as
``SOURCE:LINE: message``:

>>> str(RecordError(7, "unknown player 'Zed'", source="game.txt"))
"game.txt:7: unknown player 'Zed'"
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from cardlogic import arguments


class Problem(NamedTuple):
    """What is wrong at ``line`` (1-based; 0 for the record as a whole)."""

    line: int
    message: str


class RecordError(ValueError):
    """A record that cannot be read or replayed: ``line`` (1-based, 0 for the whole record) and ``message``.

    ``problems`` lists every problem found, first one first; ``source`` names the
    record (a file name) in ``str(error)``.
    """

    def __init__(self, line: int, message: str, source: str = "<record>", problems: Sequence[Problem] = ()) -> None:
        super().__init__(f"{source}:{line}: {message}" if line else f"{source}: {message}")
        self.line = line
        self.message = message
        self.source = source
        self.problems = list(problems) or [Problem(line, message)]


class Position(Protocol):
    """A game's position, which takes the next event or raises, changing nothing, on an illegal one."""

    def push(self, event: Any) -> Any: ...


P = TypeVar("P", bound=Position)


def replayed(position: P, events: Sequence[Any], lines: Sequence[int], illegal: type[Exception]) -> P:
    """``position`` with a record's ``events`` pushed, one by one; the first that raises ``illegal`` is a
    :class:`RecordError` at its line (of ``lines``)."""
    for event, line in zip(events, lines, strict=True):
        try:
            position.push(event)
        except illegal as error:
            raise RecordError(line, str(error)) from None
    return position


def folded(name: str) -> str:
    """``name`` as a typed name is compared with it: its case and accents aside (Unicode NFKD, the combining
    marks dropped), so that ``zoe`` names Zoë.

    >>> folded("Zoë") == folded("ZOE")
    True
    """
    return "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch)).casefold()


def name_index(
    token: str,
    names: Sequence[str],
    kind: str,
    shorts: Sequence[str] = (),
    error: Callable[[str], Exception] = ValueError,
) -> int:
    """The index of the name ``token`` gives, case and accents aside (:func:`folded`): in full (or one of
    ``shorts`` in full), else by a prefix no other name shares. Raises ``error(message)`` naming the candidates,
    or every ``kind`` there is.

    >>> name_index("ca", ["Ann", "Cat", "Carl"], "player")
    Traceback (most recent call last):
    ValueError: 'ca' could be Cat or Carl
    """
    key = folded(token)
    for spelled in (names, shorts):
        exact = [index for index, name in enumerate(spelled) if folded(name) == key]
        if exact:
            return exact[0]
    matches = [index for index, name in enumerate(names) if folded(name).startswith(key)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise error(f"{token!r} could be {' or '.join(names[index] for index in matches)}")
    raise error(f"unknown {kind} {token!r} ({kind}s: {' '.join(shorts or names)})")


class RecordLines(NamedTuple):
    """A record's lines by kind, comments and blank lines left out, each with its 1-based line number.

    ``headers`` maps a header's canonical key to (line, value); ``hands`` lists
    ``Hand NAME: cards`` lines as (line, name, cards); ``events`` the event lines.
    """

    headers: dict[str, tuple[int, str]]
    hands: list[tuple[int, str, str]]
    events: list[tuple[int, str]]


_HEADER = re.compile(r"(?P<key>hand\s+\S+|[A-Za-z]+)\s*:\s*(?P<value>.*)", re.IGNORECASE)
BYTE_ORDER_MARK = "\ufeff"
"""What Notepad and some other editors write at the start of a UTF-8 file; a record may start with it."""


def uncommented(line: str) -> str:
    """What ``line`` says, typed or in a record: the text before its ``#`` comment, without the blanks around it.

    >>> uncommented("  Bob asks Ann for 5S: yes  # a bold one")
    'Bob asks Ann for 5S: yes'
    """
    return line.split("#", 1)[0].strip()


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """``text``'s lines with their 1-based numbers, comments and surrounding blanks left out."""
    for number, raw in enumerate(text.removeprefix(BYTE_ORDER_MARK).splitlines(), start=1):
        yield number, uncommented(raw)


def split_record(text: str, keys: Sequence[str], problems: list[Problem]) -> RecordLines:
    """Sort ``text``'s lines into headers (``keys``, case-insensitive, each once), hands and events.

    ``#`` starts a comment. A header after the first event, an unknown one or one
    given twice is added to ``problems`` and left out.
    """
    canonical = {key.lower(): key for key in keys}
    lines = RecordLines({}, [], [])
    for number, content in _lines(text):
        if not content:
            continue
        match = _HEADER.fullmatch(content)
        if match is None:
            lines.events.append((number, content))
            continue
        if lines.events:
            problems.append(Problem(number, "headers must come before the first event"))
            continue
        key, value = match["key"], match["value"].strip()
        if key.lower().startswith("hand"):
            lines.hands.append((number, key.split()[1], value))
        elif key.lower() not in canonical:
            problems.append(Problem(number, f"unknown header {key!r} (expected one of {', '.join(keys)} or Hand NAME)"))
        elif canonical[key.lower()] in lines.headers:
            first = lines.headers[canonical[key.lower()]][0]
            problems.append(Problem(number, f"{canonical[key.lower()]} given twice (first on line {first})"))
        else:
            lines.headers[canonical[key.lower()]] = (number, value)
    return lines


NAME_FORBIDDEN = frozenset(":;=|()#,")
"""The characters the record notation uses as separators, so that no player's name holds them."""


def check_player_names(names: Sequence[str], error: Callable[[str], Exception], holders: Sequence[str] = ()) -> None:
    """Raise ``error(message)`` at the first of ``names`` that is empty, holds whitespace, a character that does not
    print (a control or zero-width one) or any of :data:`NAME_FORBIDDEN`, is an earlier name as typed
    (:func:`folded`: case and accents aside), or is one of ``holders`` (lower case: the names of the game's holders
    of cards other than players).

    >>> check_player_names(["Ann", "ann"], ValueError)
    Traceback (most recent call last):
    ValueError: two players are called ann
    >>> check_player_names(["Zoë", "Zoe"], ValueError)
    Traceback (most recent call last):
    ValueError: Zoë and Zoe are typed alike (case and accents aside): rename one
    """
    seen: dict[str, str] = {}
    for name in names:
        if not name or any(ch.isspace() or not ch.isprintable() or ch in NAME_FORBIDDEN for ch in name):
            forbidden = "".join(sorted(NAME_FORBIDDEN))
            raise error(f"bad player name {name!r} (no spaces, control characters or any of {forbidden})")
        key = folded(name)
        if key in seen:
            earlier = seen[key]
            if earlier.lower() == name.lower():
                raise error(f"two players are called {name}")
            raise error(f"{earlier} and {name} are typed alike (case and accents aside): rename one")
        if key in holders:
            raise error(f"a player cannot be called {name}: the {key} hold cards too")
        seen[key] = name


def seat_of(name: str, players: Sequence[str], error: Callable[[str], Exception]) -> int:
    """The seat of the player called ``name`` (case and accents aside: :func:`folded`) among ``players``;
    ``error(message)`` raised if none is."""
    key = folded(arguments.text("name", name))
    for index, player in enumerate(players):
        if folded(player) == key:
            return index
    raise error(f"unknown player {name!r} (players: {' '.join(players)})")


def other_game(text: str, keys: Sequence[str], game: str, command: str) -> Problem | None:
    """The problem of a record of another game, told by a header only ``game``'s records have (one of ``keys``):
    it names the command that reads it. None when no such header is there."""
    wanted = {key.lower() for key in keys}
    for number, content in _lines(text):
        match = _HEADER.fullmatch(content)
        if match is not None and match["key"].lower() in wanted:
            return Problem(number, f"this is a {game} record (it has a {match['key']} header): use `{command} ...`")
    return None


def rule_words(
    text: str, keys: Sequence[str], words: Sequence[str], error: Callable[[str], Exception]
) -> Iterator[tuple[str, str, str]]:
    """The ``key=value`` words of a house-rules string, one at a time: (key as typed in lower case, the key as an
    attribute name, value).

    ``keys`` are the attribute names a game knows and ``words`` their forms for the message; an unknown key, or one
    given twice, raises ``error(message)`` when its word is reached (a game checks each value as it comes, so the
    first bad word is the one reported).

    >>> list(rule_words("Bluff=on wrong-claim=split", ("bluff", "wrong_claim"), ("bluff=on|off",), ValueError))
    [('bluff', 'bluff', 'on'), ('wrong-claim', 'wrong_claim', 'split')]
    """
    seen: set[str] = set()
    for word in arguments.text("rules", text).split():
        key, sep, value = word.lower().partition("=")
        attribute = key.replace("-", "_")
        if not sep or attribute not in keys:
            raise error(f"unknown house rule {word!r} (expected {', '.join(words)})")
        if attribute in seen:
            raise error(f"house rule {key} given twice")
        seen.add(attribute)
        yield key, attribute, value
