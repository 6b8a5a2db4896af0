"""Cross-check cardlogic's certain facts against the deductions of the PyPI package ``literature``.

``literature`` 1.0.0 is a Literature engine whose players deduce has/lacks facts
with rules (``Player.knowledge``: player -> card -> DOES_POSSESS / DOES_NOT_POSSESS
/ MIGHT_POSSESS). :func:`compare_game` plays one seeded random game in that engine,
replays it as cardlogic events on a ``no-7s`` :class:`~cardlogic.literature.Game`,
and after the deal and after every event compares, for every player, the facts
their knowledge states about cards in play with the :meth:`LiteratureBelief.certain` facts
of ``LiteratureBelief(game, observer=player, hand=dealt hand)``. :func:`compare_games` sums
many games for tests and benchmarks:

>>> summary = compare_games(1, seed=1, players=(4,))
>>> summary["verdicts"].get("ours-wrong", 0), summary["extra"] > 0
(0, True)

``literature`` is an optional dependency (``pip install cardlogic[test]``); it is
imported only when a game is played.

Translation:

* cards: ``Card.Name(rank, suit)`` with ace 1 is the cardlogic card of the same
  rank and suit. Its half-suits, ``MINOR`` A-6 and ``MAJOR`` 8-K, are exactly the
  low and high sets of the ``no-7s`` deck.
* players: ``unique_id`` i sits in seat i; its teams (even and odd ids) are
  cardlogic's default ``seat % 2``; its randomly picked first mover is our dealer
  (hands are 48/n cards either way, so any dealer gives the same sizes).
* ``commit_move(Move(i, r, card))`` is ``Ask(i, r, card, yes=success)``.
* ``commit_claim(i, possessions)`` is ``Claim(i, set, possessions, outcome,
  revealed=true holders)``: it reveals the set to every player, as ours does.
  ``literature`` gives a wrong claim's set to the opponents when an opponent held
  a card of it and discards it otherwise, which is ``wrong-claim=split``.
* the turn: both give the asker another ask after *yes* and the target the turn
  after *no*; after a claim both keep the claimer to move, and a claimer left
  without cards hands the turn to a teammate with cards (``literature`` picks one
  at random; we record that as a :class:`~cardlogic.literature.Pass`).
* asks: both require the asker to hold another card of the unclaimed set and not
  the asked card, and the target to be an opponent with cards.

Where the rules differ, the driver keeps to what both allow, and the cardlogic
referee (:class:`~cardlogic.literature.State`) checks every translated event:

* ``literature`` lets any player claim at any moment; cardlogic only the player
  to move unless ``claim-anytime=on``. The driver claims only for the player to
  move (and does so whenever that player's knowledge places a whole unclaimed
  set with their team), which both allow under cardlogic's default
  ``after-claim=continue``.
* ``literature`` ends the game once a team has no cards in unclaimed sets;
  cardlogic goes on with the other team claiming the rest. A replay ends where
  ``literature`` ends.
* after a *wrong* claim ``literature`` leaves the turn with the claimer even when
  the claim emptied their hand (the game then cannot go on); there the driver
  applies ``literature``'s own rule for correct claims (a random teammate with
  cards moves), which is cardlogic's forced pass.

The moves are random legal asks chosen the way ``literature``'s bots list
candidates (``valid_ask`` with ``use_all_knowledge``: first the asks its
knowledge does not already answer *no*, else any legal ask), picked uniformly
instead of by its optional neural network.

Every fact of theirs that is not certain for us is kept as a
:class:`Disagreement` and judged: false in the true position (their deduction is
wrong), or true but with a *counterexample*: a deal consistent with the whole
history and the observer's hand in which the fact fails, found by adding its
negation to our constraint model and checked by replaying the history through
our referee (:func:`literature_replay` replays it through ``literature``, whose
player then states the fact although it is false). A fact with no such deal
would be a constraint our tracker misses.
"""

from __future__ import annotations

import functools
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlogic import inference
from cardlogic.belief import Fact
from cardlogic.cards import CARDS, Card
from cardlogic.constraints import InconsistentError
from cardlogic.literature import Ask, Claim, Event, Game, IllegalEventError, Pass, State
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.decks import Deck

RULES = ("package", "repaired")
PLAYER_COUNTS = (4, 6, 8, 12)
"""Seatings both engines allow: ``literature`` splits its 48 cards evenly, cardlogic seats 4 to 12."""

# literature's suits, in its Suit enum order (CLUBS=1 .. SPADES=4), as cardlogic suit indices (S, H, D, C).
_SUIT_INDEX = {"CLUBS": 3, "DIAMONDS": 2, "HEARTS": 1, "SPADES": 0}


def _package() -> Any:
    """The ``literature`` package, or an ImportError saying how to get it."""
    try:
        import literature
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError(
            "the cross-check needs the optional package literature==1.0.0 (pip install 'cardlogic[test]')"
        ) from error
    return literature


def to_card(name: Any) -> Card:
    """The cardlogic card of a ``literature`` ``Card.Name`` (ace is rank 1 there, 12 here)."""
    rank = name.rank.value
    return Card.from_rank_suit(12 if rank == 1 else rank - 2, _SUIT_INDEX[name.suit.name])


def to_name(card: int) -> Any:
    """The ``literature`` ``Card.Name`` of a cardlogic card of the ``no-7s`` deck."""
    lit = _package()
    card = CARDS[card]
    rank = 1 if card.rank == 12 else card.rank + 2
    suit = next(s for s in lit.Suit if _SUIT_INDEX[s.name] == card.suit)
    return lit.Card.Name(rank, suit)


@dataclass(frozen=True)
class Disagreement:
    """A fact ``observer``'s ``literature`` knowledge stated after event ``step`` that is not certain for us.

    ``step`` counts events (0: right after the deal). ``verdict`` is one of:

    * ``false``: the fact is false in the true position, so their deduction is wrong;
    * ``unsupported``: true here, but ``counterexample`` (a dealt hand per seat,
      replayed through our referee) is consistent with everything the observer
      saw and makes it false, so no sound deduction states it;
    * ``missed``: no consistent deal makes it false: our tracker misses a constraint;
    * ``ours-wrong``: our model offered a counterexample the history rules out.
    """

    step: int
    observer: int
    fact: Fact
    verdict: str
    counterexample: tuple[int, ...] | None = None


@dataclass
class Comparison:
    """One game compared, move by move.

    Fact counts add up over every moment (after the deal and after each event)
    and every observer; ``own_facts`` is the part of each count about the
    observer's own hand, which both sides know (one fact per card in play).
    ``extra`` counts our certain facts their knowledge lacks; ``unconfirmed``
    lists their facts that are not certain for us (it should be empty).
    """

    seed: int
    players: int
    hands: tuple[int, ...]
    first: int
    events: list[Event] = field(default_factory=list)
    moments: int = 0
    their_facts: int = 0
    our_facts: int = 0
    own_facts: int = 0
    extra: int = 0
    unconfirmed: list[Disagreement] = field(default_factory=list)
    their_seconds: float = 0.0
    our_seconds: float = 0.0
    ended: str = ""

    @property
    def game(self) -> Game:
        return literature_game(self.players, self.first)


def literature_game(players: int, first: int) -> Game:
    """The cardlogic game ``literature`` plays with ``players`` seats when player ``first`` moves first."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"both engines play with {', '.join(map(str, PLAYER_COUNTS))} players, not {players}")
    return Game(tuple(f"P{i}" for i in range(players)), deck=Deck.named("no-7s"), dealer=first)


def compare_game(players: int, seed: int, judge: bool = True, rules: str = "package") -> Comparison:
    """Play one seeded random ``literature`` game and compare every player's facts with ours after every event.

    ``rules`` is ``package`` (its players deduce with the package's rules as
    shipped) or ``repaired`` (with :func:`repaired_player`'s two fixes).

    With ``judge`` every disagreement gets a verdict (see :class:`Disagreement`);
    without it each is reported as ``unjudged``. Raises
    :class:`~cardlogic.literature.IllegalEventError` if a translated event breaks
    cardlogic's rules (the engines would disagree on the rules).
    """
    lit = _package()
    rng = random.Random(seed)
    deck = Deck.named("no-7s")
    cards = list(deck.cards)
    rng.shuffle(cards)
    size = len(cards) // players
    hands = tuple(sum(1 << c for c in cards[i * size : (i + 1) * size]) for i in range(players))
    first = rng.randrange(players)
    result = Comparison(seed, players, hands, first)
    game = result.game
    referee = State(game, hands)

    saved = random.getstate()  # literature picks the teammate after a claim with the global generator
    random.seed(rng.getrandbits(64))
    try:
        started = time.perf_counter()
        theirs = _literature(lit, hands, first, rules)
        result.their_seconds += time.perf_counter() - started
        started = time.perf_counter()
        beliefs = [LiteratureBelief(game, p, _cards(hands[p]), prior="rules") for p in range(players)]
        result.our_seconds += time.perf_counter() - started
        _compare_moment(result, theirs, beliefs, referee, judge)
        while not theirs.completed:
            events, seconds = _play_one(lit, theirs, game, rng)
            result.their_seconds += seconds
            result.events.extend(referee.push(event) for event in events)
            _check_turn(referee, theirs)
            started = time.perf_counter()
            for belief in beliefs:
                for event in events:
                    belief.push(event)
            result.our_seconds += time.perf_counter() - started
            _compare_moment(result, theirs, beliefs, referee, judge)
    finally:
        random.setstate(saved)
    result.ended = "every set claimed" if referee.is_over else "a team has no cards (literature stops here)"
    return result


def compare_games(
    n_games: int, seed: int = 0, players: Sequence[int] = (4, 6, 8), judge: bool = True, rules: str = "package"
) -> dict:
    """Compare ``n_games`` games (seeds ``seed``, ``seed + 1``, ...; seat counts cycling through ``players``).

    Returns totals for scripts and benchmarks: ``games``, ``events``,
    ``moments``, ``their_facts``, ``our_facts``, ``own_facts``, ``extra``,
    ``unconfirmed`` (their facts not certain for us), ``verdicts`` (count per
    verdict), ``disagreements`` (the :class:`Disagreement` list),
    ``their_seconds`` and ``our_seconds``, and per game ``*_per_game``:
    theirs is the engine setting up and committing moves (every player's rules
    run then); ours is building, pushing and asking ``certain()`` of every
    player's :class:`LiteratureBelief`. Neither includes choosing moves or judging.
    """
    games = [compare_game(players[i % len(players)], seed + i, judge, rules) for i in range(n_games)]
    disagreements = [d for g in games for d in g.unconfirmed]
    verdicts: dict[str, int] = {}
    for d in disagreements:
        verdicts[d.verdict] = verdicts.get(d.verdict, 0) + 1
    summary: dict[str, Any] = {"games": n_games}
    for key in ("moments", "their_facts", "our_facts", "own_facts", "extra", "their_seconds", "our_seconds"):
        summary[key] = sum(getattr(g, key) for g in games)
    summary["events"] = sum(len(g.events) for g in games)
    summary["unconfirmed"] = len(disagreements)
    summary["verdicts"] = verdicts
    summary["disagreements"] = disagreements
    summary["their_seconds_per_game"] = summary["their_seconds"] / max(n_games, 1)
    summary["our_seconds_per_game"] = summary["our_seconds"] / max(n_games, 1)
    return summary


# -- playing literature ----------------------------------------------------------------------------------------------


def _literature(lit: Any, hands: Sequence[int], first: int, rules: str = "package") -> Any:
    """A ``literature`` game dealt ``hands`` with ``first`` to move, its players without models of the others.

    Each ``literature`` player normally keeps ``dummy_players``, what it thinks
    every other player knows, as input for its neural network. They never feed its
    own knowledge, and building and updating them takes most of the engine's time,
    so the players are made as its ``dummy=True`` players, which have none.
    """
    if rules not in RULES:
        raise ValueError(f"rules must be one of {', '.join(RULES)}, not {rules!r}")
    engine: Any = sys.modules[lit.Literature.__module__]  # the package's engine module, patched below
    player = engine.Player
    engine.Player = functools.partial(player if rules == "package" else repaired_player(), dummy=True)
    try:
        return engine.Literature(
            len(hands), lambda n: [[to_name(c) for c in _cards(h)] for h in hands], lambda: (first + 0.5) / len(hands)
        )
    finally:
        engine.Player = player


@functools.cache
def repaired_player() -> type:
    """``literature``'s ``Player`` with its two unsound deductions fixed (found by this cross-check).

    1. ``_identify_complete_info``: when a player's minimum counts per half-suit
       add up to their hand size, the package rules out every card of each *suit*
       in which no card is known to be theirs. But a minimum can come from an ask
       (the asker holds *some* card of that half-suit) without any known card, so
       it rules out cards the player may hold. Fixed: rule out the unknown cards
       of a *half-suit* only when its known cards already reach its minimum.
    2. ``memorize_move``: after a *yes* it lowers the target's hand size first and
       records that the target lost the card only after deducing from the
       asker's gain; in between ``_identify_complete_info`` can count the lost
       card as still held, match the lowered size, and rule out the target's
       other cards. Fixed: record the loss together with the size change.
    """
    lit = _package()
    Player, State = lit.Player, lit.Card.State

    class RepairedPlayer(Player):  # type: ignore[misc, valid-type]
        def memorize_move(self, move: Any, success: bool) -> None:
            if success:
                self.knowledge[move.respondent][move.card] = State.DOES_NOT_POSSESS
            super().memorize_move(move, success)
            if success:
                self._deduce_holds_remaining(move.respondent, move.card)
                self._identify_complete_info(move.respondent)

        def _identify_complete_info(self, player: Any) -> None:
            if self._has_minimum_cards(player) == self.n_cards[player]:
                for half, minimum in list(self.suit_knowledge[player].items()):
                    names = [lit.Card.Name(r, half.suit) for r in lit.SETS[half.half]]
                    if sum(self.knowledge[player][n] == State.DOES_POSSESS for n in names) == minimum:
                        for name in names:
                            if self.knowledge[player][name] == State.MIGHT_POSSESS:
                                self._memorize(lit.Knowledge.that(player).lacks(name))
            if self._know_with_certainty(player) == self.n_cards[player]:
                for name in self.knowledge[player]:
                    if self.knowledge[player][name] == State.MIGHT_POSSESS:
                        self._memorize(lit.Knowledge.that(player).lacks(name))

    return RepairedPlayer


def _play_one(lit: Any, theirs: Any, game: Game, rng: random.Random) -> tuple[list[Event], float]:
    """Make the mover's next move in ``theirs``: the cardlogic events (a claim may add a pass), seconds committing."""
    mover = theirs.turn
    claims = mover.evaluate_claims()
    open_claims = sorted(h for h in claims if theirs.claims[h] == lit.Team.NEITHER)
    if open_claims:
        half = rng.choice(open_claims)
        possessions = claims[half]
        started = time.perf_counter()
        theirs.commit_claim(mover, possessions)
        seconds = time.perf_counter() - started
        truth = theirs.actual_possessions[half]
        claim = Claim(
            mover.unique_id,
            game.deck.set_index_of(to_card(next(iter(possessions)))),
            tuple((to_card(n), a.unique_id) for n, a in possessions.items()),
            _outcome(lit, theirs.claims[half], mover.unique_id),
            tuple((to_card(n), a.unique_id) for n, a in truth.items()),
        )
        if theirs.turn == mover and mover.has_no_cards():
            theirs._switch_turn_if_no_cards()  # literature does this only after a correct claim
        events: list[Event] = [claim]
        if theirs.turn != mover and not theirs.completed:
            events.append(Pass(mover.unique_id, theirs.turn.unique_id))
        return events, seconds
    move = rng.choice(_asks(lit, theirs, mover, True) or _asks(lit, theirs, mover, False))
    started = time.perf_counter()
    theirs.commit_move(move)
    seconds = time.perf_counter() - started
    return [
        Ask(move.interrogator.unique_id, move.respondent.unique_id, to_card(move.card), yes=theirs.move_success[-1])
    ], seconds


def _asks(lit: Any, theirs: Any, mover: Any, use_all_knowledge: bool) -> list[Any]:
    """The asks ``literature``'s bots consider, in a fixed order."""
    halves = {name.half_suit() for name in mover.hand}
    names = sorted(
        lit.Card.Name(r, s)
        for r in lit.MINOR | lit.MAJOR
        for s in lit.Suit
        if lit.Card.Name(r, s).half_suit() in halves
    )
    opponents = [p for p in theirs.players if p.unique_id % 2 != mover.unique_id % 2]  # valid_ask refuses the rest
    return [
        mover.asks(p).to_give(name) for p in opponents for name in names if mover.valid_ask(p, name, use_all_knowledge)
    ]


def _outcome(lit: Any, winner: Any, claimer: int) -> str:
    if winner == lit.Team(claimer % 2):
        return "correct"
    return "void" if winner == lit.Team.DISCARD else "opponents"


def _check_turn(referee: State, theirs: Any) -> None:
    """Both engines give the turn to the same player, unless ``literature`` has ended the game."""
    if not theirs.completed and referee.to_move != theirs.turn.unique_id:
        raise AssertionError(f"literature gives the turn to {theirs.turn.unique_id}, cardlogic to {referee.to_move}")


# -- comparing -------------------------------------------------------------------------------------------------------


def their_facts(lit: Any, theirs: Any, observer: int, names: Sequence[str]) -> set[Fact]:
    """Every has/lacks fact ``observer``'s knowledge states about cards of unclaimed sets (players ``names``)."""
    might, does = lit.Card.State.MIGHT_POSSESS, lit.Card.State.DOES_POSSESS
    # every moment asks this of every player's whole knowledge: the claimed cards as one bitmask, not a half-suit
    # built and hashed per card (its hashes are Python code)
    claimed = 0
    for half, team in theirs.claims.items():
        if team != lit.Team.NEITHER:
            claimed |= sum(1 << to_card(lit.Card.Name(rank, half.suit)) for rank in lit.SETS[half.half])
    facts = set()
    for actor, cards in theirs.players[observer].knowledge.items():
        holder = actor.unique_id
        for name, state in cards.items():
            if state is not might and not claimed >> (card := to_card(name)) & 1:
                facts.add(Fact(card, holder, state is does, names[holder]))
    return facts


def _compare_moment(
    result: Comparison, theirs: Any, beliefs: Sequence[LiteratureBelief], referee: State, judge: bool
) -> None:
    lit = _package()
    result.moments += 1
    for observer, belief in enumerate(beliefs):
        started = time.perf_counter()
        ours = set(belief.certain())
        result.our_seconds += time.perf_counter() - started
        facts = their_facts(lit, theirs, observer, belief.holders)
        result.their_facts += len(facts)
        result.our_facts += len(ours)
        result.own_facts += sum(1 for f in ours if f.holder == observer)
        result.extra += len(ours - facts)
        for fact in sorted(facts - ours, key=lambda f: (f.card, f.holder, f.has)):
            verdict, deal = _judge(result, belief, referee.hands, fact) if judge else ("unjudged", None)
            result.unconfirmed.append(Disagreement(len(result.events), observer, fact, verdict, deal))


def _judge(
    result: Comparison, belief: LiteratureBelief, hands: Sequence[int], fact: Fact
) -> tuple[str, tuple[int, ...] | None]:
    """The verdict on a fact of theirs that is not certain for us, given the true current ``hands``."""
    if bool(hands[fact.holder] >> fact.card & 1) != fact.has:
        return "false", None
    deal = counterexample(belief, fact)
    if deal is None:
        return "missed", None
    try:
        now = _replay(result.game, deal, result.events).hands
    except IllegalEventError:
        return "ours-wrong", deal  # our model allowed a deal the history rules out
    if bool(now[fact.holder] >> fact.card & 1) == fact.has:
        return "ours-wrong", deal
    return "unsupported", deal


def counterexample(belief: LiteratureBelief, fact: Fact) -> tuple[int, ...] | None:
    """Dealt hands consistent with ``belief``'s model in which ``fact`` is false now; None when there are none.

    A card whose place is public is certain, so the fact is about a card that
    has not moved since the deal: the deal just has to put it elsewhere.
    """
    if fact.card in belief.public.known:
        return None
    model = belief.model.copy()
    try:
        model.restrict(fact.card, ~(1 << fact.holder) if fact.has else 1 << fact.holder)
        deals = inference.sample(model, 1, seed=0)
    except (InconsistentError, inference.InferenceError):
        return None
    hands = [0] * len(belief.game.players)
    for card, holder in zip(model.cards, deals[0]):
        hands[int(holder)] |= 1 << card
    return tuple(hands)


def _replay(game: Game, hands: Sequence[int], events: Iterable[Event]) -> State:
    """The referee after ``events`` from ``hands``; IllegalEventError if the deal contradicts them."""
    state = State(game, hands)
    for event in events:
        state.push(event)
    return state


def literature_replay(hands: Sequence[int], first: int, events: Iterable[Event], rules: str = "package") -> Any:
    """``literature``'s game after the same moves from the deal ``hands``, for showing what its players deduce."""
    lit = _package()
    theirs = _literature(lit, hands, first, rules)
    for event in events:
        if isinstance(event, Ask):
            theirs.turn = theirs.players[event.asker]
            mover = theirs.players[event.asker]
            theirs.commit_move(mover.asks(theirs.players[event.target]).to_give(to_name(event.card)))
        elif isinstance(event, Claim):
            possessions = {to_name(c): lit.Actor(p) for c, p in event.assignment}
            theirs.commit_claim(theirs.players[event.claimer], possessions)
        else:
            theirs.turn = theirs.players[event.receiver]
    return theirs


def _cards(mask: int) -> list[Card]:
    return [CARDS[c] for c in range(mask.bit_length()) if mask >> c & 1]
