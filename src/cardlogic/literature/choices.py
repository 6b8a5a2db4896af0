"""How Literature players choose: the likelihood of a public history under a deal, for a prior over deals.

Every card that moves in Literature moves in public, so an initial deal and the
public history fix every hand at every moment. The likelihood of the history
under a deal is then the product, over the events, of the chance that the player
who acted chose that event given their hand then and the public position:

* an **ask** is a choice among the legal asks (a card of a set the asker holds a
  card of, not held by the asker, of an opponent with cards), by a softmax over
  interpretable features: the share of the set the asker holds (``held``), the card
  publicly known at the target (``sure``), the target publicly known not to hold it
  (``dead``, asks that repeat earlier information), the target publicly holding a
  card of the set (``target_set``), the target's share of the opponents' cards
  (``slots``), and what the asker's own hand lets them count: their estimate of
  the chance that the target holds the card (``estimate``, on its logarithm:
  the counting estimate, sharpened where the target is known to hold cards of
  the set and the asker's hand leaves few candidates) and whether that estimate
  is certain (``inferred``, a privately sure ask), whether it is the largest of
  the asker's open asks (``likeliest``: a counting player asks the likeliest card),
  and whether the plain counting estimate, not sharpened, is (``likeliest_plain``);
  with it, the choice not to claim;
* a **claim**, while an ask is possible, is the choice to claim now, by a logistic
  on whether the claimer's own hand and the cards publicly at teammates cover a
  whole set (``claim_certain``) and a bias (``claim_bias``); once no ask can be
  made, a claim is forced and says nothing;
* a **pass** is a choice among the teammates with cards, by a softmax on whether
  the receiver holds a card of a set with a card publicly at an opponent
  (``pass_sure``: a sure ask).

Scores are divided by ``temperature``, and every choice is mixed with the rules
alone (uniform over the legal choices) with weight ``mix``, so no deal the rules
allow gets likelihood 0 whatever the players did. Players differ: each plays by one
of several styles, models of their own (:class:`PlayerStyles`: a careful counter
who asks the likeliest card, a player by feel, a plain counter), or by the rules alone, each with a
prior share (``modelled``); a belief weighs every style for every player, so each
drifts to the style their choices fit, and one whose choices no model explains
better than chance to the rules alone.

>>> from cardlogic.literature import Game, Ask
>>> from cardlogic.cards import Card
>>> from cardlogic.literature.decks import Deck
>>> game = Game(("A", "B", "C", "D"), deck=Deck.named("no-8s", sets=["LS"]), dealer=0)
>>> history = History(game, [Ask(0, 1, Card.parse("2S"), yes=False)])
>>> deals = np.array([[0, 0, 1, 2, 3, 3], [1, 0, 0, 1, 2, 3]], np.int8)  # holders of 2S 3S 4S 5S 6S 7S
>>> bool(np.all(np.isfinite(DEFAULT_STYLES.log_likelihoods(history, deals))))
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from cardlogic.cards import card_mask
from cardlogic.choices import ChoiceModelError, WeightedChoices, decode_json, model_text
from cardlogic.choices import fit as choices_fit
from cardlogic.literature import kernels
from cardlogic.literature.events import Ask, Claim, Event, Pass, actor
from cardlogic.literature.record import Record
from cardlogic.literature.rules import Game
from cardlogic.literature.state import PublicState

ASK_FEATURES = ("sure", "dead", "target_set", "slots")
"""The public features of an ask (card, target); ``held``, ``estimate`` and ``inferred``, which depend on the asker's
hand, are apart."""
KIND_ASK, KIND_CLAIM, KIND_FORCED, KIND_PASS = 0, 1, 2, 3


@dataclass(frozen=True)
class ChoiceModel(WeightedChoices):
    """The weights of the choice model (see the module docstring), the rules' share ``mix`` and the prior
    share ``modelled`` of players who play by the model.

    >>> ChoiceModel().mix, ChoiceModel().modelled
    (0.05, 0.9)
    """

    held: float = 0.0
    sure: float = 0.0
    dead: float = 0.0
    target_set: float = 0.0
    slots: float = 0.0
    claim_bias: float = 0.0
    claim_certain: float = 0.0
    pass_sure: float = 0.0
    estimate: float = 0.0
    inferred: float = 0.0
    likeliest: float = 0.0
    likeliest_plain: float = 0.0
    modelled: float = 0.9

    WEIGHTS = (
        "held",
        "sure",
        "dead",
        "target_set",
        "slots",
        "claim_bias",
        "claim_certain",
        "pass_sure",
        "estimate",
        "inferred",
        "likeliest",
        "likeliest_plain",
    )
    NUMBERS = (*WeightedChoices.NUMBERS, "modelled")

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0 <= self.modelled < 1:
            raise ChoiceModelError(
                f"modelled (a player's prior chance to play by the model) must be in [0, 1), not {self.modelled}"
            )

    def log_likelihoods(self, history: History, deals: np.ndarray, skip: int | None = None) -> np.ndarray:
        """log P(history | deal) for every row of ``deals`` (holders of ``history.cards``), each player a
        mixture of a modelled and a rules-only one; ``skip`` is a player whose choices are left out (the
        observer, whose own hand the belief already knows)."""
        return PlayerStyles.of(self).log_likelihoods(history, deals, skip)


@dataclass(frozen=True)
class PlayerStyles:
    """The ways players choose: each player plays by one of ``models`` (named ``names``) throughout the game, with
    prior chance that model's ``modelled`` share, or by the rules alone (the rest). A belief works out every
    style's likelihood per player and deal, so each player drifts to the style their choices fit best: a careful
    counter to a sharp model, a player by feel to a softer one, someone who asks at random to the rules.

    >>> styles = PlayerStyles.of(ChoiceModel())
    >>> styles.names, [round(float(share), 2) for share in np.exp(styles.log_shares)]
    (('model',), [0.9, 0.1])
    """

    models: tuple[ChoiceModel, ...]
    names: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.models or len(self.models) != len(self.names):
            raise ChoiceModelError("a style needs one model and one name each, and there must be one style at least")
        if len(set(self.names)) != len(self.names):
            raise ChoiceModelError(f"two styles share a name: {', '.join(self.names)}")
        if not sum(model.modelled for model in self.models) < 1:
            shares = " + ".join(f"{model.modelled:g}" for model in self.models)
            raise ChoiceModelError(f"the styles' modelled shares must add up to less than 1 (the rules'), not {shares}")

    @classmethod
    def of(cls, choices: ChoiceModel | PlayerStyles) -> PlayerStyles:
        """``choices`` as styles: a single model is the one style ``model``."""
        return choices if isinstance(choices, PlayerStyles) else cls((choices,), ("model",))

    @classmethod
    def from_json(cls, text: str, source: str = "<model>") -> PlayerStyles:
        """Read styles written by :meth:`to_json` (an object of named models) or a single model's file;
        :class:`ChoiceModelError` names ``source`` and the problem."""
        data = decode_json(text, source)
        if not isinstance(data, dict) or not data or not all(isinstance(value, dict) for value in data.values()):
            return cls.of(ChoiceModel.from_data(data, source))
        models = tuple(ChoiceModel.from_data(value, f"{source} (style {name})") for name, value in data.items())
        try:
            return cls(models, tuple(data))
        except ChoiceModelError as error:
            raise ChoiceModelError(f"{source}:1: {error}") from None

    @classmethod
    def read(cls, path: str | Path) -> PlayerStyles:
        return cls.from_json(model_text(path), str(path))

    def to_json(self) -> str:
        return json.dumps({name: asdict(model) for name, model in zip(self.names, self.models)}, indent=2) + "\n"

    @property
    def log_shares(self) -> np.ndarray:
        """log P(a player plays by each style), the rules' last."""
        shares = [model.modelled for model in self.models]
        return np.array([*np.log(shares), np.log1p(-sum(shares))])

    def player_log_likelihoods(
        self, history: History, deals: np.ndarray, skip: int | None = None, first: int = 0
    ) -> np.ndarray:
        """Per style (the rules' last), deal and player, the log-likelihood of that player's choices of the events
        from ``first`` on (they add up over events: a belief extends what it worked out for the earlier ones), in
        one pass of the kernel over the deals for every style."""
        h, new = history, slice(first, None)  # only the events from ``first`` on are read
        exp_public, base_weight, base_value = h.derived(self, self._public_weights, first)
        actors = h.actor[new]
        modelled, rules = kernels.choice_log_likelihoods(
            np.ascontiguousarray(deals, np.int8),
            h.card_bits,
            h.players,
            h.kind[new],
            np.where(actors == (-1 if skip is None else skip), -1, actors),
            h.card[new],
            h.target[new],
            h.gone[new],
            h.public_at[new],
            h.mates_public[new],
            h.exposed[new],
            h.targets[new],
            exp_public,
            base_weight,
            base_value,
            h.estimate[new],
            h.owed[new],
            h.hidden_open[new],
            h.receivers[new],
            h.set_masks,
            h.set_of,
            h.live[new],
            h.bluff,
            np.exp(h.held_share[..., None] * self._scaled("held")),
            self._scaled("claim_bias"),
            self._scaled("claim_certain"),
            self._scaled("pass_sure"),
            self._scaled("estimate"),
            self._scaled("inferred"),
            self._scaled("likeliest"),
            self._scaled("likeliest_plain"),
            np.array([model.mix for model in self.models]),
        )
        return np.concatenate([modelled, rules[None]])

    def _scaled(self, weight: str) -> np.ndarray:
        """Each style's ``weight`` divided by its temperature."""
        return np.array([getattr(model, weight) / model.temperature for model in self.models])

    def _public_weights(self, history: History, first: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per event from ``first`` on, card, target and style: exp(the public score of the ask), 0 where it is not
        open, and its weight where the asker's hand changes nothing; per event, card and target the asker's
        estimate there (:func:`kernels.public_ask_weights`, :func:`kernels.public_ask_values`)."""
        h, new = history, slice(first, None)
        base_value = kernels.public_ask_values(h.public_at[new], h.estimate[new], h.hidden_open[new])
        exp_public, base_weight = [], []
        for model in self.models:
            scale = 1.0 / model.temperature
            weights = np.array([getattr(model, f) for f in ASK_FEATURES]) * scale
            exp_public.append(np.where(h.targets[new], np.exp(np.tensordot(h.ask_features[new], weights, axes=1)), 0.0))
            base_weight.append(
                kernels.public_ask_weights(exp_public[-1], base_value, model.estimate * scale, model.inferred * scale)
            )
        return np.stack(exp_public, axis=-1), np.stack(base_weight, axis=-1), base_value

    def mixed(self, styles: np.ndarray) -> np.ndarray:
        """Per deal, the log-likelihood of the history, each player's choices mixed over the styles (``styles`` as
        :meth:`player_log_likelihoods` gives them, summed over events)."""
        return np.logaddexp.reduce(styles + self.log_shares[:, None, None], axis=0).sum(axis=1)

    def posterior(self, styles: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """P(each player plays by each style), styles by players (the rules' last row), averaged over the deals with
        posterior ``weights``."""
        joint = styles + self.log_shares[:, None, None]
        return (np.exp(joint - np.logaddexp.reduce(joint, axis=0)) * (weights / weights.sum())[None, :, None]).sum(
            axis=1
        )

    def log_likelihoods(self, history: History, deals: np.ndarray, skip: int | None = None) -> np.ndarray:
        """log P(history | deal) for every row of ``deals``, each player's choices mixed over the styles; ``skip``
        is a player whose choices are left out (the observer, whose own hand the belief already knows)."""
        return self.mixed(self.player_log_likelihoods(history, deals, skip))

    def weights(self) -> np.ndarray:
        """Every style's weights, one after the other (what :func:`fit` changes)."""
        return np.concatenate([model.weights() for model in self.models])

    def with_weights(self, values: Iterable[float], fitted_on: str | None = None) -> PlayerStyles:
        values, size = list(values), len(ChoiceModel.WEIGHTS)
        models = tuple(
            model.with_weights(values[i * size : (i + 1) * size], fitted_on) for i, model in enumerate(self.models)
        )
        return PlayerStyles(models, self.names)


KEPT_KEYS = 8
"""How many models' arrays a :class:`History` keeps (:meth:`History.derived`): more than a belief's styles."""


class History:
    """The public arrays of a game's history that the choice model's kernel reads, worked out once.

    ``cards`` are the deck's cards in order (the columns of a deal); events are indexed from 0. For
    event ``k``: ``gone[k]`` the cards that moved or left play before it, ``public_at[k, p]`` the cards
    publicly at ``p``, ``live[k]`` the cards of unclaimed sets, ``mates_public[k]`` the cards publicly at
    the actor's teammates, ``exposed[k]`` the cards of the sets with a card publicly at an opponent of
    the actor, ``targets[k, c, t]`` whether ``t`` is an opponent with cards (an ask of ``t`` is open),
    ``ask_features[k, c, t, :]`` the features of :data:`ASK_FEATURES`, ``receivers[k, p]`` whether
    ``p`` could receive a pass.
    """

    def __init__(self, game: Game, events: Sequence[Event] = ()) -> None:
        deck, n = game.deck, len(game.players)
        self.game, self.players = game, n
        self.cards = deck.cards
        self.card_bits = np.array(self.cards, np.int64)
        self.bluff = game.rules.bluff
        self.set_masks = np.array([s.mask for s in deck.sets], np.int64)
        self.set_of = np.full(64, -1, np.int64)
        for index, card_set in enumerate(deck.sets):
            for card in card_set.cards:
                self.set_of[card] = index
        largest = max(len(s.cards) for s in deck.sets)
        self.held_share = np.array(
            [[min(h, len(s.cards)) / len(s.cards) for h in range(largest + 1)] for s in deck.sets]
        )
        self._state = PublicState(game)
        self._gone, self._denied = 0, [0] * n
        self._minimum = np.zeros((n, len(deck.sets)), np.int64)  # cards of each set each player surely holds
        self._undo: list[tuple[int, list[int], np.ndarray]] = []
        self._rows: list[dict[str, Any]] = []
        self._arrays: dict[str, np.ndarray] = {}
        self._derived: dict[Hashable, tuple[np.ndarray, ...]] = {}
        for event in events:
            self.push(event)

    @property
    def events(self) -> int:
        return len(self._rows)

    @property
    def recorded(self) -> tuple[Event, ...]:
        """The events pushed so far."""
        return self._state.history

    def __getattr__(self, name: str) -> np.ndarray:
        if name not in _ROW_FIELDS:
            raise AttributeError(name)
        if name not in self._arrays:
            self._arrays[name] = self._stacked(name, self._rows)
        return self._arrays[name]

    def _stacked(self, name: str, rows: Sequence[dict[str, Any]]) -> np.ndarray:
        """The array ``name`` of the events of ``rows``."""
        return np.array([row[name] for row in rows], _ROW_FIELDS[name]).reshape(
            (len(rows), *_row_shape(name, self.players, len(self.set_masks)))
        )

    def derived(
        self, key: Hashable, build: Callable[[History, int], tuple[np.ndarray, ...]], first: int = 0
    ) -> tuple[np.ndarray, ...]:
        """Arrays over the events from ``first`` on that depend on the history alone (and on ``key``, which names
        them), as ``build(history, first)`` works them out, kept from call to call: the events pushed since are
        worked out alone, those popped dropped. An event pushed to be asked about and popped again (``first`` at
        the events kept) is not kept. The arrays of the :data:`KEPT_KEYS` keys used last are kept (a fit asks for
        a new model's at every step)."""
        kept = self._derived.pop(key, None)
        if kept is not None:
            self._derived[key] = kept  # used last
        done = 0 if kept is None else len(kept[0])
        if kept is not None and done == self.events:
            return tuple(array[first:] for array in kept)
        if kept is not None and first >= done:
            return tuple(array[first - done :] for array in build(self, done))
        arrays = build(self, done)
        kept = arrays if kept is None else tuple(np.concatenate([old, new]) for old, new in zip(kept, arrays))
        self._derived[key] = kept
        while len(self._derived) > KEPT_KEYS:
            del self._derived[next(iter(self._derived))]
        return tuple(array[first:] for array in kept)

    def push(self, event: Event) -> None:
        """Add the next event of the game (legal in the public position, as the referee recorded it); an illegal
        one raises :class:`~cardlogic.literature.IllegalEventError` and leaves the history as it was."""
        game, deck, denied = self.game, self.game.deck, self._denied
        event = self._state.check(event)  # an illegal event is refused before it is described
        row = self._describe(event, self._state, self._gone, denied)
        self._state.push(event)
        self._rows.append(row)
        # a question about a next event pushes and pops one: the arrays grow and shrink, never built anew
        self._arrays = {
            name: np.concatenate([array, self._stacked(name, [row])]) for name, array in self._arrays.items()
        }
        self._undo.append((self._gone, list(denied), self._minimum.copy()))
        if isinstance(event, Ask):
            bit = 1 << event.card
            index = deck.set_index_of(event.card)
            least = self._minimum[:, index]
            least[event.asker] = max(least[event.asker], 1)  # the asker holds a card of the set
            if event.yes:
                least[event.asker] += 1
                least[event.target] = max(0, least[event.target] - 1)
                self._gone |= bit
                denied[event.asker] &= ~bit
            else:
                denied[event.target] |= bit
                if not game.rules.bluff:
                    denied[event.asker] |= bit
        elif isinstance(event, Claim):
            self._gone |= deck.sets[event.set_index].mask
            self._minimum[:, event.set_index] = 0

    def pop(self) -> Event:
        """Undo the last event and return it (a question about a next event asked, then taken back)."""
        self._rows.pop()
        self._arrays = {name: array[:-1] for name, array in self._arrays.items()}
        self._derived = {key: tuple(array[: self.events] for array in kept) for key, kept in self._derived.items()}
        self._gone, self._denied, self._minimum = self._undo.pop()
        return self._state.pop()

    def _describe(self, event: Event, state: PublicState, gone: int, denied: list[int]) -> dict[str, Any]:
        game, n = self.game, self.players
        who = actor(event)
        at = [0] * n
        for card, holder in state.known.items():
            at[holder] |= 1 << card
        team = game.team_of(who)
        live = card_mask(c for i in state.unclaimed for c in game.deck.sets[i].cards)
        opponents_public = card_mask(c for c, h in state.known.items() if game.team_of(h) != team)
        row: dict[str, Any] = {
            "kind": KIND_ASK,
            "actor": who,
            "card": 0,
            "target": -1,
            "gone": gone,
            "live": live,
            "mates_public": card_mask(c for c, h in state.known.items() if game.team_of(h) == team),
            "exposed": sum(int(m) for m in self.set_masks if m & opponents_public),
            "public_at": at,
            "receivers": np.zeros(n, np.bool_),
            "targets": np.zeros((64, n), np.bool_),
            "ask_features": np.zeros((64, n, len(ASK_FEATURES))),
            "estimate": np.zeros((64, n)),
            "owed": np.zeros((n, len(self.set_masks)), np.int64),
            "hidden_open": np.zeros(n, np.int64),
        }
        sizes = state.sizes
        opponents = [t for t in game.opponents(who) if sizes[t]]
        if isinstance(event, Pass):
            row["kind"], row["target"] = KIND_PASS, event.receiver
            for mate in game.teammates(who):
                row["receivers"][mate] = mate != who and sizes[mate] > 0
            return row
        if isinstance(event, Claim):
            row["kind"] = KIND_CLAIM if opponents else KIND_FORCED
            row["card"] = game.deck.sets[event.set_index].cards[0]
            return row
        row["card"], row["target"] = event.card, event.target
        if not opponents:
            return row
        open_to = np.zeros(n, np.bool_)
        open_to[opponents] = True
        kernels.describe_ask(
            np.array(at, np.int64),
            np.array(denied, np.int64),
            np.array(sizes, np.int64),
            open_to,
            who,
            live,
            card_mask(state.known),
            self._minimum,
            self.set_masks,
            self.set_of,
            row["targets"],
            row["ask_features"],
            row["estimate"],
            row["hidden_open"],
            row["owed"],
        )
        return row


_ROW_FIELDS = {
    "kind": np.int64,
    "actor": np.int64,
    "card": np.int64,
    "target": np.int64,
    "gone": np.int64,
    "live": np.int64,
    "mates_public": np.int64,
    "exposed": np.int64,
    "public_at": np.int64,
    "receivers": np.bool_,
    "targets": np.bool_,
    "ask_features": np.float64,
    "estimate": np.float64,
    "owed": np.int64,
    "hidden_open": np.int64,
}
"""The per-event arrays of a :class:`History`, with their types."""


def _row_shape(name: str, players: int, sets: int) -> tuple[int, ...]:
    """The shape of one event's entry of the array ``name``."""
    return {
        "public_at": (players,),
        "receivers": (players,),
        "targets": (64, players),
        "ask_features": (64, players, len(ASK_FEATURES)),
        "estimate": (64, players),
        "owed": (players, sets),
        "hidden_open": (players,),
    }.get(name, ())


Choices = TypeVar("Choices", ChoiceModel, PlayerStyles)


def fit(choices: Choices, games: Sequence[tuple[History, np.ndarray]], fitted_on: str = "") -> Choices:
    """The weights of greatest likelihood of ``games`` (each a history and its true deal, one row), from the
    weights of ``choices`` (a model, or styles: every style's weights at once, each player's choices mixed over
    the styles); mix, temperature and the styles' shares are kept (:func:`cardlogic.choices.fit`).

    Raises ValueError when ``games`` is empty.
    """
    return choices_fit(choices, games, fitted_on, "no game to fit on")


def deal_row(history: History, hands: Sequence[int]) -> np.ndarray:
    """The one-row deal (holders of ``history.cards``) of starting ``hands`` (card masks by player)."""
    row = np.zeros((1, len(history.cards)), np.int8)
    for j, card in enumerate(history.cards):
        row[0, j] = next(p for p, hand in enumerate(hands) if hand >> card & 1)
    return row


def fitting_game(record: Record) -> tuple[History, np.ndarray]:
    """A full ``record`` as :func:`fit` reads it: its history and its deal (one row)."""
    history = History(record.game, record.events)
    return history, deal_row(history, [card_mask(record.hands[p]) for p in range(len(record.game.players))])


def _shipped(name: str) -> PlayerStyles:
    """The styles (or single model) of the package's file ``name``."""
    text = resources.files("cardlogic.literature").joinpath(name).read_text()
    return PlayerStyles.from_json(text, f"cardlogic/literature/{name}")


DEFAULT_STYLES = _shipped("choice_model.json")
"""The styles shipped with the package (``choice_model.json``), fit by ``python benchmarks/fit_choices.py`` on the
full records of 100 games at 6 players kept in ``benchmarks/choices/`` (30 of strong v strong, seed 270; 30 of
counting v counting, seed 150; 40 between bots of four styles, seeds 100 and 101; never the calibration's seeds
200, 250, 260, 275 and 280): ``loose`` fit on the games between styles, ``careful`` on the strong games alone (from
``loose``), ``counter`` on the counting games alone (from ``careful``), then the three at once on all of them as a
mixture, with ``mix`` 0.05 and shares 0.3 each. Their ``fitted_on`` says how many records and events;
docs/beliefs.md has the weights."""
ADVISOR_MODEL = _shipped("advisor_model.json").models[0]
"""The single model the ``advisor`` bot believes its opponents play by (``advisor_model.json``, shipped as the
players' prior before the styles): its play was tuned with it, and believing the styles it won fewer games
against ``counting`` (docs/bots.md). It was fit on 40 games between styles at 6 players (seeds 100 and 101), as
its ``fitted_on`` says."""
