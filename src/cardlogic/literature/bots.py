"""Literature players: bots that see only their own view and choose the next event.

Every bot follows :class:`Bot`: it is built for one seat of one game with the
hand it was dealt, and ``choose(view)`` returns its event when it is to move,
where ``view`` is its :class:`~cardlogic.literature.PlayerState` (own hand and
the public history, kept up to date by the referee). Bots read new history
events incrementally, so a game costs each of them about one update per event.
Under ``claim-anytime=on`` the referee also offers each bot, off its turn, to
claim (``interject(view)``): ``counting``, ``strong`` and ``advisor`` claim a set
known to be all with their team as soon as the other team is to move.

* ``random``: a uniformly random legal ask; claims only sets in its own hand, or
  a guess when it cannot ask.
* ``counting``: what strong public bots and careful players do without
  probability: the has/lacks matrix with elimination rules
  (:class:`~cardlogic.literature.counting.CountingTracker`); asks for cards known
  to be at an opponent first, else the most likely card by counting unknown
  slots; claims as soon as every card of a set is known to be with its team.
* ``strong``: what careful players do, on the same has/lacks matrix: claims a
  certain set at once unless the house rules let holding it buy the turn for a
  teammate (``after-claim=team-picks``), never claims an uncertain set before the
  endgame, sharpens the counting estimate with what earlier asks showed, and when
  no ask can succeed asks the question whose *no* tells the opponents least.
* ``advisor``: the belief (:class:`~cardlogic.literature.belief.LiteratureBelief`) under the players' prior
  (deals weighted by how likely the players' choices were under each; the rules alone, exact where practical,
  where those weights collapse) and the recommendation of :func:`cardlogic.literature.advice.advise`.
* ``omniscient``: CHEATS, a reference and not a player: it is given every dealt
  hand, so it asks only for cards it knows the target holds and claims only
  correctly. It measures the ceiling the others are compared with.

>>> import random
>>> from cardlogic.literature import Game, PlayerState, State
>>> game = Game(("Ann", "Bob", "Cat", "Dan"), dealer=0)
>>> state = State.shuffled(game, random.Random(1))
>>> bot = make_bot("counting", game, 0, state.hands[0], seed=1)
>>> state.push(bot.choose(PlayerState(game, 0, state.hands[0]))).asker
0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from cardlogic.cards import Card, iter_cards
from cardlogic.constraints import InconsistentError
from cardlogic.literature import Ask, Claim, Event, Game, Pass, PlayerState, State, actor
from cardlogic.literature.advice import DEFAULT_WEIGHTS, STALEMATE_ASKS, Advice, AdvisorWeights, advise
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.choices import ADVISOR_MODEL
from cardlogic.literature.counting import CountingTracker


class Bot(Protocol):
    """A player for one seat: ``choose(view)`` gives its event when ``view.player`` is to move; under
    ``claim-anytime=on``, ``interject(view)`` gives the claim it makes on another's turn, if any."""

    name: str

    def choose(self, view: PlayerState) -> Event: ...

    def interject(self, view: PlayerState) -> Claim | None: ...


class _Seat:
    """What every bot keeps: the game, its seat, its dealt hand, a random generator and the events read so far."""

    name = "seat"

    def __init__(self, game: Game, player: int, hand: int, seed: int = 0) -> None:
        self.game, self.player, self.dealt = game, player, hand
        self.rng = random.Random(seed)
        self._seen = 0

    def _new_events(self, view: PlayerState) -> tuple[Event, ...]:
        history = view.history
        fresh = history[self._seen :]
        self._seen = len(history)
        return fresh

    def _mates_with_cards(self, view: PlayerState) -> list[int]:
        return [p for p in self.game.teammates(self.player) if view.public.sizes[p]]

    def interject(self, view: PlayerState) -> Claim | None:
        """No claim off its turn."""
        return None

    def _may_interject(self, view: PlayerState) -> bool:
        """Whether a claim now, off its turn, is legal and worth it: it takes the turn from the other team."""
        public, team = view.public, self.game.team_of(self.player)
        movers = public.movers
        return bool(
            self.game.rules.claim_anytime
            and view.hand
            and public.team_cards(1 - team)
            and movers
            and self.game.team_of(movers[0]) != team
        )


class RandomBot(_Seat):
    """A random legal ask (bluffs included where the rules allow them); claims only a set it knows to be
    with its team, or a guess when it cannot ask.

    Unlike :class:`~cardlogic.literature.PeekingRandomBot`, which makes random games for tests, it sees
    only its own hand.
    After its claim it passes to a random teammate half the time.
    """

    name = "random"

    def choose(self, view: PlayerState) -> Event:
        legal = view.legal_events()
        passes = [event for event in legal if isinstance(event, Pass)]
        if passes and (not view.hand or self.rng.random() < 0.5):
            return self.rng.choice(passes)
        claims = [event for event in legal if isinstance(event, Claim)]
        if claims:
            return claims[0]
        asks = [event for event in legal if isinstance(event, Ask)]
        if asks:
            return self.rng.choice(asks)
        index = self.rng.choice(view.public.unclaimed)
        team = [self.player] + list(self.game.teammates(self.player))
        return Claim(
            self.player,
            index,
            tuple(
                (card, self.player if view.hand >> card & 1 else self.rng.choice(team))
                for card in self.game.deck.sets[index].cards
            ),
        )


class CountingBot(_Seat):
    """The has/lacks-matrix player: known cards first, then the likeliest by counting, claims only when sure.

    * Asks for a card known to be at an opponent when it can (preferring the set
      with the fewest cards still outside its team).
    * Otherwise asks for the card and opponent with the best counting estimate:
      the opponent's unknown slots over the unknown slots of every player who
      may hold the card.
    * Claims a set as soon as every card of it is known to be with its team.
    * After a claim it keeps the turn if it knows where a card is, else passes to
      a teammate who can ask for a known card, if any.
    * When it must claim (the opponents have no cards, or no ask can be answered yes) it
      places each card with its known holder, or the teammate who may hold it
      with the most unknown slots.
    """

    name = "counting"

    def __init__(self, game: Game, player: int, hand: int, seed: int = 0) -> None:
        super().__init__(game, player, hand, seed)
        self.tracker = CountingTracker(game, player, iter_cards(hand))

    def choose(self, view: PlayerState) -> Event:
        self._catch_up(view)
        game, tracker, player = self.game, self.tracker, self.player
        mates = self._mates_with_cards(view)
        live = view.public.unclaimed
        if not view.hand and view.public.may_pass:
            return Pass(player, max(mates, key=lambda p: (view.public.sizes[p], -p)))
        certain = self._certain_claims(view)
        if certain:
            return certain[0]
        if not view.public.team_cards(1 - game.team_of(player)):
            return self._guess(live)
        asks = view.legal_asks(self.player)
        known = [a for a in asks if tracker.known_holder(a.card) == a.target]
        if view.public.may_pass and not known and mates:
            for mate in mates:
                if self._known_ask_for(mate, view):
                    return Pass(player, mate)
        if known:
            return min(known, key=lambda a: (self._outside_team(a.card), self.rng.random()))
        if asks:
            best = max(asks, key=lambda a: (self._estimate(a), self.rng.random()))
            if self._estimate(best) > 0.0:
                return best
        return self._guess(live)  # every ask is surely answered no: only a claim makes progress

    def interject(self, view: PlayerState) -> Claim | None:
        """A set known to be all with its team, claimed on the other team's turn to take the turn."""
        self._catch_up(view)
        certain = self._certain_claims(view) if self._may_interject(view) else []
        return certain[0] if certain else None

    def _catch_up(self, view: PlayerState) -> None:
        for event in self._new_events(view):
            self.tracker.push(event)

    def _certain_claims(self, view: PlayerState) -> list[Claim]:
        """The claims of every unclaimed set whose every card is known to be with its team."""
        game, tracker = self.game, self.tracker
        team = game.members(game.team_of(self.player))
        return [
            Claim(self.player, index, tuple((c, tracker.known_holder(c)) for c in game.deck.sets[index].cards))  # type: ignore[misc]
            for index in view.public.unclaimed
            if all(tracker.known_holder(c) in team for c in game.deck.sets[index].cards)
        ]

    def _estimate(self, ask: Ask) -> float:
        tracker = self.tracker
        if not tracker.may_hold(ask.target, ask.card):
            return 0.0
        slots = {
            p: tracker.unknown_slots(p)
            for p in range(len(self.game.players))
            if p != self.player and tracker.may_hold(p, ask.card)
        }
        total = sum(slots.values())
        return slots[ask.target] / total if total else 0.0

    def _outside_team(self, card: Card) -> int:
        team = self.game.members(self.game.team_of(self.player))
        cards = self.game.deck.set_of(card).cards
        return sum(1 for c in cards if self.tracker.known_holder(c) not in team)

    def _known_ask_for(self, mate: int, view: PlayerState) -> bool:
        """Whether ``mate`` surely holds a card of a set with another card known at an opponent."""
        game, tracker = self.game, self.tracker
        opponents = game.opponents(self.player)
        for index in view.public.unclaimed:
            cards = game.deck.sets[index].cards
            if tracker.minimum[mate][index] and any(tracker.known_holder(c) in opponents for c in cards):
                return True
        return False

    def _guess(self, live: list[int]) -> Claim:
        game, tracker, player = self.game, self.tracker, self.player
        team = game.members(game.team_of(player))

        def known_at_team(index: int) -> int:
            return sum(1 for c in game.deck.sets[index].cards if tracker.known_holder(c) in team)

        index = max(live, key=lambda i: (known_at_team(i), -i))
        placements = []
        for card in game.deck.sets[index].cards:
            holder = tracker.known_holder(card)
            if holder not in team:
                candidates = [p for p in team if tracker.may_hold(p, card)] or list(team)
                holder = max(candidates, key=lambda p: (tracker.unknown_slots(p), -p))
            placements.append((card, holder))
        return Claim(player, index, tuple(placements))


class StrongBot(CountingBot):
    """A careful player on :class:`CountingBot`'s has/lacks matrix: claims only what is sure, holds only what buys
    the turn, and gives the turn away as cheaply as it can.

    * Once the opponents have no cards it claims every set left alone, certain sets first, placing each unknown card
      with a teammate who may hold it and still has unknown cards (the one with the most).
    * Without cards right after its claim it passes to a teammate with a sure ask, else to the one with most cards.
    * A set known to be all with its team is claimed at once under ``after-claim=continue`` (holding it buys
      nothing: the claimer keeps the turn). Under ``after-claim=team-picks`` it is held back as a stalemate breaker
      and claimed when a teammate has a sure ask and it has none (then it passes to them), or when no ask can succeed.
    * Asks for a card known to be at an opponent first (as ``counting``), else the likeliest by the counting estimate
      sharpened by the set counts: a target known to hold ``k`` more cards of the set than are placed holds each of
      the ``m`` cards of it they may hold with chance at least ``k / m``; ties go to the set nearest completion.
    * It never claims an uncertain set before the endgame but to end a stalemate. When no ask can succeed it asks
      the one whose *no* tells the opponents least: in a set its holding a card of is public already (else the set
      where it holds fewest), then of the opponent who could ask back fewest of its team's known cards, then for a
      card whose holder is not known (the *no* narrows it down for its teammates). When it has asked so
      :data:`~cardlogic.literature.advice.STALEMATE_ASKS` times and nothing has moved since, it guesses its best
      claim instead.
    """

    name = "strong"

    def choose(self, view: PlayerState) -> Event:
        self._catch_up(view)
        game, player, public = self.game, self.player, view.public
        mates = self._mates_with_cards(view)
        certain = self._certain_claims(view)
        if public.endgame:
            return certain[0] if certain else self._guess(public.unclaimed)
        if not view.hand:
            return Pass(player, self._next_asker(mates, view))
        asks = view.legal_asks(player)
        sure = [a for a in asks if self.tracker.known_holder(a.card) == a.target]
        hopeful = [a for a in asks if self._estimate(a) > 0.0]
        if public.may_pass and mates and not sure:
            helpers = [mate for mate in mates if self._known_ask_for(mate, view)]
            if helpers or not hopeful:
                return Pass(player, self._next_asker(mates, view))
        if certain and not game.rules.team_picks:
            return certain[0]
        if sure:
            return min(sure, key=lambda a: (self._outside_team(a.card), self.rng.random()))
        if certain and (not hopeful or any(self._known_ask_for(mate, view) for mate in mates)):
            return certain[0]  # the stalemate breaker: then the team picks who asks
        if hopeful:
            return max(hopeful, key=lambda a: (self._estimate(a), -self._outside_team(a.card), self.rng.random()))
        if not asks or public.vain_asks(player) >= STALEMATE_ASKS:
            return self._guess(public.unclaimed)
        return min(asks, key=lambda a: self._cost_of_no(a, view))

    def _next_asker(self, mates: list[int], view: PlayerState) -> int:
        """The teammate to hand the turn to: one with a sure ask, else the one with the most cards."""
        sizes = view.public.sizes
        return max(mates, key=lambda p: (self._known_ask_for(p, view), sizes[p], -p))

    def _estimate(self, ask: Ask) -> float:
        estimate = super()._estimate(ask)
        if estimate == 0.0:
            return 0.0
        tracker, target = self.tracker, ask.target
        index = self.game.deck.set_index_of(ask.card)
        cards = self.game.deck.sets[index].cards
        owed = tracker.minimum[target][index] - sum(1 for c in cards if tracker.known_holder(c) == target)
        if owed <= 0:
            return estimate
        maybe = sum(1 for c in cards if tracker.known_holder(c) is None and tracker.may_hold(target, c))
        return max(estimate, owed / maybe)

    def _cost_of_no(self, ask: Ask, view: PlayerState) -> tuple[int, int, int, float]:
        """How much a *no* to ``ask`` gives away, smallest first: the set's cards it newly shows in this player's
        hand, the team's known cards the target (then to move) could ask for, and whether the card's holder is known
        already (a *no* then teaches the teammates nothing)."""
        game, tracker, public = self.game, self.tracker, view.public
        index = game.deck.set_index_of(ask.card)
        shown = any(
            isinstance(e, Ask) and e.asker == self.player and game.deck.set_index_of(e.card) == index
            for e in public.history
        ) or any(holder == self.player and game.deck.set_index_of(c) == index for c, holder in public.known.items())
        held = (view.hand & game.set_masks[index]).bit_count()
        team = game.team_of(self.player)
        exposed = 0
        for card, holder in public.known.items():
            if game.team_of(holder) == team:
                others = [c for c in game.deck.set_of(card).cards if c != card]
                exposed += any(tracker.may_hold(ask.target, c) for c in others)
        return (0 if shown else held, exposed, tracker.known_holder(ask.card) is not None, self.rng.random())

    def _guess(self, live: list[int]) -> Claim:
        """A guessed claim: of a set no opponent may hold a card of if there is one (at worst it is void), else the
        set with most cards placed; each unknown card with a teammate who may hold it and has unknown cards left, the
        one with the most."""
        game, tracker, player = self.game, self.tracker, self.player
        team = game.members(game.team_of(player))
        opponents = game.opponents(player)

        def standing(index: int) -> tuple[bool, int, int]:
            cards = game.deck.sets[index].cards
            with_team = not any(tracker.may_hold(p, c) for c in cards for p in opponents)
            return with_team, sum(1 for c in cards if tracker.known_holder(c) in team), -index

        index = max(live, key=standing)
        slots = {p: tracker.unknown_slots(p) for p in team}
        placements = []
        for card in game.deck.sets[index].cards:
            holder = tracker.known_holder(card)
            if holder not in team:
                candidates = [p for p in team if tracker.may_hold(p, card)] or list(team)
                holder = max(candidates, key=lambda p: (slots[p] > 0, slots[p], -p))
                slots[holder] -= 1
            placements.append((card, holder))
        return Claim(player, index, tuple(placements))


class AdvisorBot(_Seat):
    """Plays the recommendation of :func:`cardlogic.literature.advice.advise` from an incrementally updated belief.

    The belief takes the players' prior (``PRIOR``, :mod:`cardlogic.literature.choices`) under the single model its
    play was tuned with (:data:`~cardlogic.literature.choices.ADVISOR_MODEL`, not the styles the commands weigh):
    ``SAMPLES`` of the rules' deals weighted by how likely the other players' choices were under each, kept from
    one event to the next;
    where those weights collapse it answers by the rules alone, exact wherever exact inference is practical.
    ``last_advice`` is the advice of its last decision, whose ``prior`` says which prior answered. It assumes that
    the other players take a sure ask before any guess (``sure_asks_first``, as the
    counting bot and the advisor do), so a guess answered no also says which sets
    its asker holds no card of; once some player's events leave no deal under that
    assumption, the bot believes the rules alone. ``weights`` are the advice's
    weights and thresholds (:class:`~cardlogic.literature.advice.AdvisorWeights`).

    The players' prior was adopted on 2026-12-01 by 80 games against ``strong`` at 6 players (seeds 401 and 402,
    deals paired, neither used to fit or tune anything): see docs/bots.md.

    The assumption was kept on 2026-12-01 by 200 games against ``counting`` at 6
    players on seed 21 (deals paired): 162 wins, 27 ties, 11 losses with it against
    161-15-24 without, a score (win 1, tie 1/2) of +0.035 +- 0.064 (paired 95%).
    """

    name = "advisor"
    SAMPLES = 4000
    """Deals drawn where the belief samples: enough to rank asks (P(yes) within about 0.01), 5x faster than 20,000."""
    PRIOR = "players"
    """The belief's prior (:data:`~cardlogic.literature.belief.PRIORS`)."""

    def __init__(
        self, game: Game, player: int, hand: int, seed: int = 0, weights: AdvisorWeights = DEFAULT_WEIGHTS
    ) -> None:
        super().__init__(game, player, hand, seed)
        self.weights, self.seed = weights, seed
        self.belief = self._new_belief(sure_asks_first=True)
        self.last_advice: Advice | None = None

    def choose(self, view: PlayerState) -> Event:
        self._catch_up(view)
        advice = advise(self.belief, thorough=False, seed=self.rng.randrange(1 << 30), weights=self.weights)
        self.last_advice = advice
        event = advice.recommendation.event
        assert event is not None, advice.recommendation.reason
        return event

    def interject(self, view: PlayerState) -> Claim | None:
        """A set certainly all with its team, claimed on the other team's turn to take the turn."""
        if not self._may_interject(view):
            return None
        self._catch_up(view)
        belief, team = self.belief, self.game.members(self.game.team_of(self.player))
        holders = {fact.card: fact.holder for fact in belief.certain() if fact.has}
        for index in view.public.unclaimed:
            cards = self.game.deck.sets[index].cards
            if all(holders.get(card) in team for card in cards):
                return Claim(self.player, index, tuple((card, holders[card]) for card in cards))
        return None

    def _catch_up(self, view: PlayerState) -> None:
        fresh = self._new_events(view)
        try:
            self._read(fresh)
        except InconsistentError:  # someone guessed with a sure ask at hand: drop the assumption
            self.belief = self._new_belief(sure_asks_first=False)
            self._read(view.history)

    def _new_belief(self, sure_asks_first: bool) -> LiteratureBelief:
        return LiteratureBelief(
            self.game,
            self.player,
            iter_cards(self.dealt),
            sure_asks_first=sure_asks_first,
            samples=self.SAMPLES,
            seed=self.seed,
            prior=self.PRIOR,
            choices=ADVISOR_MODEL,
        )

    def _read(self, events: Sequence[Event]) -> None:
        for event in events[:-1]:  # the referee checked them: one consistency check (and posterior) at the end
            self.belief.push_unchecked(event)
        if events:
            self.belief.push(events[-1])


class OmniscientBot(_Seat):
    """CHEATS: plays knowing every hand, which no player at a real table knows. A reference for the ceiling only.

    It is given the whole deal (``deal``, every player's dealt hand) when it is
    built, which :func:`make_bot` does only for bots that declare
    ``sees_every_hand``; it follows every card from there through the public
    history, so it always knows every current hand.

    * Asks only for cards it knows the target holds, nearest-complete set first,
      so it keeps the turn while it has such an ask.
    * Claims a set (always correctly) once its team holds all of it and it has
      no such ask left; right after a claim it passes to a teammate who has one.
    * Only when it has neither must it give the turn away: it asks the opponent
      who could take the fewest cards from its team for a card that opponent
      surely lacks.
    """

    name = "omniscient"
    sees_every_hand = True

    def __init__(self, game: Game, player: int, hand: int, seed: int = 0, *, deal: Sequence[int]) -> None:
        super().__init__(game, player, hand, seed)
        if deal[player] != hand:
            raise ValueError("the deal does not give this seat its hand")
        self.table = State(game, tuple(deal))

    def choose(self, view: PlayerState) -> Event:
        for event in self._new_events(view):
            self.table.push(event)
        table, player = self.table, self.player
        legal = [event for event in table.legal_events() if actor(event) == player]
        sure = self._sure_asks(player)
        if sure:
            return min(sure, key=lambda a: (self._outside_team(a.card), a.card, a.target))
        claims = [event for event in legal if isinstance(event, Claim)]
        if claims:
            return claims[0]
        passes = [event for event in legal if isinstance(event, Pass)]
        if passes:
            return max(passes, key=lambda p: (len(self._sure_asks(p.receiver)), table.public.sizes[p.receiver]))
        asks = [event for event in legal if isinstance(event, Ask)]
        if not asks:  # cannot happen: with cards and no ask possible, the team holds a whole set to claim
            raise AssertionError(f"no move for {self.game.players[player]}")
        return min(asks, key=lambda a: (len(self._threats(a.target)), self.rng.random()))

    def _sure_asks(self, asker: int) -> list[Ask]:
        """The legal asks of ``asker`` (a teammate or this player) for a card the target holds."""
        hands = self.table.hands
        legal = self.table.legal_asks(asker) if asker == self.player else self._asks_of(asker)
        return [a for a in legal if hands[a.target] >> a.card & 1]

    def _asks_of(self, mate: int) -> list[Ask]:
        """The asks ``mate`` could make on their turn (the rules' conditions on the asker's hand, bluffs left out)."""
        game, hands, sizes = self.game, self.table.hands, self.table.public.sizes
        targets = [p for p in game.opponents(mate) if sizes[p]]
        asks: list[Ask] = []
        for index in self.table.public.unclaimed:
            if hands[mate] & game.set_masks[index]:
                asks.extend(
                    Ask(mate, target, card)
                    for card in game.deck.sets[index].cards
                    if not hands[mate] >> card & 1
                    for target in targets
                )
        return asks

    def _threats(self, opponent: int) -> list[int]:
        """The cards of this player's team that ``opponent`` could ask for (sets they hold a card of)."""
        game, hands = self.game, self.table.hands
        team = 0
        for member in game.members(game.team_of(self.player)):
            team |= hands[member]
        return [
            card
            for index in self.table.public.unclaimed
            if hands[opponent] & game.set_masks[index]
            for card in game.deck.sets[index].cards
            if team >> card & 1
        ]

    def _outside_team(self, card: Card) -> int:
        game, hands = self.game, self.table.hands
        team = game.members(game.team_of(self.player))
        return sum(1 for c in game.deck.set_of(card).cards if not any(hands[p] >> c & 1 for p in team))


BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "counting": CountingBot,
    "strong": StrongBot,
    "advisor": AdvisorBot,
    "omniscient": OmniscientBot,
}
"""Bot classes by name; each is built as ``BOTS[name](game, player, dealt_hand, seed=...)``, and one that
``sees_every_hand`` (``omniscient``) also with ``deal=`` every dealt hand."""


def make_bot(name: str, game: Game, player: int, hand: int, seed: int = 0, deal: Sequence[int] | None = None) -> Bot:
    """The bot called ``name`` for ``player``'s seat, dealt ``hand`` (a card mask); ValueError for an unknown name.

    ``deal`` (every dealt hand) is handed on only to a bot that cheats by design
    (``sees_every_hand``), which cannot be built without it; every other bot
    sees only its own hand.
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (expected one of {', '.join(BOTS)})") from None
    if getattr(factory, "sees_every_hand", False):
        if deal is None:
            raise ValueError(f"the {name} bot sees every hand: it needs the deal")
        return factory(game, player, hand, seed=seed, deal=deal)
    return factory(game, player, hand, seed=seed)
