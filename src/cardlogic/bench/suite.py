"""The benchmark suite: every contender measured on the stored scenarios, side by side in one process and run.

:func:`run_suite` loads the scenarios, measures each figure (exact marginals,
sampler throughput and accuracy, the python-constraint2 oracle, the naive
rejection sampler, advice latency, live advice per event, CLI cold start, the
time from an empty numba cache to the first advice, peak memory, the PyPI
``literature`` package) and checks the targets; it returns one JSON-ready dict
(see :mod:`cardlogic.bench.report` for its tables). A :class:`Plan` sets how
much work each figure does: ``full`` (about 16 minutes on 2 cores), ``quick`` (about four) or
``smoke`` (a few scenarios, for the test suite). Every time is a median with its
spread over repeats; rates that the targets compare are per CPU second of this
process (the kernels run on one core), so they hold on a busy machine.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import functools
import importlib
import importlib.util
import inspect
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import numpy as np

from cardlogic.bench import calibration
from cardlogic.bench.scenarios import Scenario, load_scenarios
from cardlogic.bench.timing import repeat, summarize
from cardlogic.cards import iter_cards
from cardlogic.constraints import DealModel
from cardlogic.inference import ExactBackend, InferenceError, SamplerBackend, exact_is_practical, pack
from cardlogic.inference.frontier import FrontierTables, forget_tables
from cardlogic.inference.rejection import RejectionSampler
from cardlogic.inference.sampler import frequencies
from cardlogic.inference.sparse import SparseTables, forget_walks
from cardlogic.literature import Event, Game, Record, State, write_record
from cardlogic.literature.advice import advise, advise_record, spectator
from cardlogic.literature.belief import DEFAULT_PRIOR, LiteratureBelief
from cardlogic.literature.decks import DECK_NAMES

if TYPE_CHECKING:
    from cardlogic.table.core import TableGame

Tick = Callable[[str], None]

CALIBRATION_SEED = 200
"""The calibration's tournament seed: not one the shipped styles were fit on (100, 101 and 270)."""
STRONG_CALIBRATION_SEED = 260
"""The seed of the calibration's games of ``strong`` against itself (the shipped styles were fit on seed 270)."""

ADVISOR_DECISION_SEED = 41
"""The tournament seed of the advisor v ``strong`` game whose advisor decisions are timed (not one tuned on)."""
ADVISOR_DECISION_PLAYERS = 6

LITERATURE_ADAPTER = "cardlogic.literature.peer"
NOT_YET = "not measured yet"


@dataclass(frozen=True)
class Plan:
    """How much work each figure does."""

    mode: str
    repeats: int
    sampler_deals: int
    chain_deals: int
    accuracy_sizes: tuple[int, ...]
    accuracy_seeds: int
    accuracy_scenarios: tuple[str, ...]
    chain_sizes: tuple[int, ...]
    csp_max_deals: int
    rejection_deals: int
    rejection_tries: int
    cold_repeats: int
    warm_repeats: int
    literature_games: int
    literature_players: tuple[int, ...] = (4, 6, 8)
    literature_judge: bool = False
    """Judge every disagreement with a counterexample search (slow)."""
    marginal_samples: tuple[int, ...] = (10_000,)
    """Sample counts whose ``cardlogic belief --method sample`` peak memory is measured."""
    advisor_decks: tuple[str, ...] = ()
    """Decks whose 12-player advisor game's peak memory is measured (one tournament game each)."""
    calibration_games: int = 4
    """Held-out games per pair of ``calibration_bots`` whose asks and claims are scored for calibration."""
    calibration_bots: tuple[tuple[str, str], ...] = (("advisor", "counting"), ("strong", "counting"))
    """The pairs of bots of the calibration games: two styles, no random bot by default, whose asks say little."""
    calibration_png: bool = True
    """Draw the reliability diagram (benchmarks/reliability.png beside the scenarios)."""
    calibration_strong_games: int = 30
    """Held-out games of ``strong`` against itself (seed :data:`STRONG_CALIBRATION_SEED`) whose asks are scored
    apart: where the players' choices say most, and the 20% target is set (the 30 games docs/beliefs.md reports;
    a game's gain varies by several points, so fewer say little)."""
    only: tuple[str, ...] = ()
    """Scenario names to keep (all when empty)."""


PLANS = {
    "full": Plan(
        "full",
        repeats=7,
        sampler_deals=1_000_000,
        chain_deals=50_000,
        accuracy_sizes=(1_000, 10_000, 100_000, 1_000_000),
        accuracy_seeds=5,
        accuracy_scenarios=(
            "06p-no-8s-early",
            "06p-no-8s-middle",
            "06p-jokers-middle",
            "08p-no-8s-early",
            "10p-no-8s-middle",
        ),
        chain_sizes=(1_000, 10_000, 100_000),
        csp_max_deals=50_000_000,
        rejection_deals=10_000,
        rejection_tries=2_000_000,
        cold_repeats=3,
        warm_repeats=5,
        literature_games=6,
        literature_judge=True,
        marginal_samples=(10_000, 1_000_000, 10_000_000),
        advisor_decks=DECK_NAMES,
        calibration_games=5,
    ),
    "quick": Plan(
        "quick",
        repeats=3,
        sampler_deals=100_000,
        chain_deals=10_000,
        accuracy_sizes=(1_000, 10_000, 100_000),
        accuracy_seeds=3,
        accuracy_scenarios=("06p-no-8s-early", "06p-no-8s-middle", "08p-no-8s-early"),
        chain_sizes=(1_000, 10_000),
        csp_max_deals=50_000_000,
        rejection_deals=1_000,
        rejection_tries=100_000,
        cold_repeats=1,
        warm_repeats=2,
        literature_games=2,
        literature_players=(4, 6),
        marginal_samples=(10_000, 1_000_000, 10_000_000),
        advisor_decks=("jokers",),
        calibration_games=1,
        calibration_strong_games=3,
    ),
    "smoke": Plan(
        "smoke",
        repeats=2,
        sampler_deals=10_000,
        chain_deals=1_000,
        accuracy_sizes=(1_000, 10_000),
        accuracy_seeds=2,
        accuracy_scenarios=("06p-no-8s-middle",),
        chain_sizes=(1_000,),
        csp_max_deals=20_000,
        rejection_deals=200,
        rejection_tries=50_000,
        cold_repeats=1,
        warm_repeats=1,
        literature_games=1,
        literature_players=(4,),
        calibration_games=1,
        calibration_bots=(("counting", "random"),),
        calibration_png=False,
        calibration_strong_games=0,
        only=("04p-no-8s-early", "04p-no-8s-middle", "04p-no-8s-late", "06p-no-8s-middle"),
    ),
}


@dataclass
class Case:
    """A loaded scenario with its observer's belief and deal model, and a spectator's model of the same history."""

    scenario: Scenario
    belief: LiteratureBelief
    model: DealModel
    spectator: DealModel
    exact: np.ndarray | None = None

    @classmethod
    def load(cls, scenario: Scenario) -> Case:
        belief = LiteratureBelief.from_record(scenario.record)
        return cls(scenario, belief, belief.model, spectator(belief).model)

    @property
    def name(self) -> str:
        return self.scenario.name


# -- the figures ---------------------------------------------------------------------------------------------------


def measure_baseline(plan: Plan, tick: Tick) -> dict[str, Any]:
    """Unconstrained deals per second: the rejection sampler's numpy shuffle on a 4 x 13 bridge deal (all kept)."""
    model = DealModel(("N", "E", "S", "W"), (13, 13, 13, 13), range(52))
    n = plan.sampler_deals
    wall, cpu = repeat(lambda: RejectionSampler().sample(model, n, seed=1), plan.repeats)
    tick("baseline")
    return {
        "what": "numpy shuffle dealer, 4 hands x 13 cards, unconstrained",
        "deals": n,
        "deals_per_second": summarize([n / t for t in wall]),
        "deals_per_cpu_second": summarize([n / t for t in cpu]),
    }


def measure_exact(cases: list[Case], plan: Plan, tick: Tick) -> list[dict[str, Any]]:
    """Time of the exact marginals of every scenario, from the player's and a spectator's view, where practical."""
    rows = []
    for case in cases:
        for view, model in (("player", case.model), ("spectator", case.spectator)):
            packed = pack(model)
            row: dict[str, Any] = {
                "scenario": case.name,
                "view": view,
                "operations": float(packed.operations),
                "states": packed.box_size,
                "holders": len(packed.caps),
            }
            if exact_is_practical(model, marginals=True):
                backend = ExactBackend()
                tables = backend.tables(packed, backward=True, exact_count=True, frontier=True)
                if isinstance(tables, SparseTables):
                    row["reachable"] = tables.walk.states
                elif isinstance(tables, FrontierTables):
                    row["frontier"] = tables.states
                    row["frontier_transitions"] = tables.transitions
                if view == "player":
                    case.exact = tables.marginals()

                def posterior(b: ExactBackend = backend, m: DealModel = model) -> None:
                    forget_walks()  # each time from scratch, reachable and frontier states included
                    forget_tables()
                    b.posterior(m)

                wall, _ = repeat(posterior, plan.repeats, warmup=0)
                row.update(status="ok", seconds=summarize(wall))
            else:
                row.update(status="impractical", note="beyond auto's exact limit; the sampler's chain answers")
            rows.append(row)
        tick(f"exact {case.name}")
    return rows


def measure_sampler(cases: list[Case], plan: Plan, tick: Tick) -> list[dict[str, Any]]:
    """Consistent deals per second (wall and CPU) of the numba sampler, warm, drawing a large batch."""
    rows = []
    for case in cases:
        backend = SamplerBackend()
        tables = backend.uses_tables(pack(case.model))
        n = plan.sampler_deals if tables else plan.chain_deals
        wall, cpu = repeat(functools.partial(backend.sample, case.model, n, 7), plan.repeats)
        rows.append(
            {
                "scenario": case.name,
                "method": "tables" if tables else "chain",
                "deals": n,
                "deals_per_second": summarize([n / t for t in wall]),
                "deals_per_cpu_second": summarize([n / t for t in cpu if t > 0]),
            }
        )
        tick(f"sampler {case.name}")
    return rows


def total_variation(estimate: np.ndarray, exact: np.ndarray) -> tuple[float, float]:
    """Mean and max over the uncertain cards of the total variation distance between two marginal tables."""
    uncertain = exact.max(axis=1) < 1.0
    if not uncertain.any():
        return 0.0, 0.0
    tv = 0.5 * np.abs(estimate - exact)[uncertain].sum(axis=1)
    return float(tv.mean()), float(tv.max())


def measure_accuracy(cases: list[Case], plan: Plan, tick: Tick) -> list[dict[str, Any]]:
    """Total variation of sampled marginals against exact ones as the sample grows (tables, then the chain)."""
    rows = []
    for case in cases:
        exact = case.exact
        if case.name not in plan.accuracy_scenarios or exact is None:
            continue
        holders = len(case.model.holders)
        for method, sizes, backend in (
            ("tables", plan.accuracy_sizes, SamplerBackend()),
            ("chain", plan.chain_sizes, SamplerBackend(max_operations=-1)),
        ):
            for n in sizes:
                means, maxima = [], []
                for seed in range(plan.accuracy_seeds):
                    deals = backend.sample(case.model, n, seed)
                    mean, most = total_variation(frequencies(deals, holders), exact)
                    means.append(mean)
                    maxima.append(most)
                rows.append(
                    {
                        "scenario": case.name,
                        "method": method,
                        "samples": n,
                        "tv_mean": summarize(means),
                        "tv_max": summarize(maxima),
                    }
                )
                tick(f"accuracy {case.name} {method} {n:,}")
    return rows


def measure_csp(cases: list[Case], sampler: list[dict[str, Any]], plan: Plan, tick: Tick) -> list[dict[str, Any]]:
    """The python-constraint2 oracle's enumeration rate where its deal bound allows, and where it gives up."""
    from cardlogic.inference.csp import CspBackend, deal_bound

    rate = {row["scenario"]: row["deals_per_second"]["median"] for row in sampler}
    rows = []
    for case in cases:
        bound = deal_bound(case.model)
        row: dict[str, Any] = {"scenario": case.name, "deal_bound": float(bound)}
        backend = CspBackend(plan.csp_max_deals)
        try:
            rates, seconds = [], []
            for _ in range(max(1, plan.repeats // 3)):
                backend.posterior(case.model)
                assert backend.last is not None
                seconds.append(backend.last.seconds)
                rates.append(backend.last.rate)
            last = backend.last
            assert last is not None  # set by every posterior
            csp_rate = summarize(rates)
            row.update(
                status="ok",
                deals=last.deals,
                seconds=summarize(seconds),
                deals_per_second=csp_rate,
                sampler_ratio=rate[case.name] / csp_rate["median"] if case.name in rate else None,
            )
        except InferenceError:
            row.update(status="gave up", note=f"deal bound {bound:.2g} > max_deals {plan.csp_max_deals:,}")
        rows.append(row)
        tick(f"csp {case.name}")
    return rows


def measure_rejection(cases: list[Case], plan: Plan, tick: Tick) -> list[dict[str, Any]]:
    """The naive rejection sampler: acceptance rate and kept deals per second, capped at ``rejection_tries``."""
    rows = []
    for case in cases:
        start = time.perf_counter()
        result = RejectionSampler().sample(case.model, plan.rejection_deals, seed=3, max_tries=plan.rejection_tries)
        seconds = time.perf_counter() - start
        kept = len(result.deals)
        rows.append(
            {
                "scenario": case.name,
                "stage": case.scenario.spec.stage,
                "kept": kept,
                "tries": result.tries,
                "acceptance": result.acceptance,
                "acceptance_below": None if kept else 1 / result.tries,
                "seconds": seconds,
                "kept_per_second": kept / seconds,
            }
        )
        tick(f"rejection {case.name}")
    return rows


def measure_advice(cases: list[Case], plan: Plan, tick: Tick, prior: str = DEFAULT_PRIOR) -> dict[str, Any]:
    """Warm latency of advice for the player to move (the scenario's observer) on every record of 6 to 12 players,
    the beliefs under ``prior`` (the default: what the user gets).

    ``advise(belief)`` is the cost with the belief kept up to date (as ``cardlogic live`` does); the target uses
    it. ``advise_record(record)`` adds reading the history into the observer's and a spectator's beliefs (what
    ``cardlogic advise RECORD`` does after start-up).
    """
    rows = []
    for case in (c for c in cases if c.scenario.spec.players >= 6):
        record = case.scenario.record
        row: dict[str, Any] = {"scenario": case.name, "players": case.scenario.spec.players, "prior": prior}
        try:
            advise(LiteratureBelief.from_record(record, prior=prior))  # warm-up
            times = []
            for _ in range(plan.repeats):
                belief = LiteratureBelief.from_record(record, prior=prior)
                start = time.perf_counter()
                advise(belief)
                times.append(time.perf_counter() - start)
            row.update(status="ok", seconds=summarize(times), answered=belief.prior_answered)
            wall, _ = repeat(functools.partial(advise_record, record, prior=prior), max(1, plan.repeats // 3), warmup=0)
            row["record_seconds"] = summarize(wall)
        except Exception as error:  # noqa: BLE001 -- report an advice failure, keep benchmarking
            row["status"] = f"error: {type(error).__name__}: {error}"
        rows.append(row)
        tick(f"advice {case.name} ({prior})")
    return {"status": "ok", "rows": rows}


LIVE_PLAYERS = (6, 8, 10, 12)
"""Player counts whose live latency is measured, each with the target."""
LIVE_BUDGET_SECONDS = {"full": 120.0, "quick": 20.0, "smoke": 3.0}
"""Time each live replay may take; events past it are not timed (a slow event still finishes)."""


def measure_live(cases: list[Case], plan: Plan, tick: Tick, prior: str = DEFAULT_PRIOR) -> dict[str, Any]:
    """Warm seconds from an event typed in ``cardlogic live`` to its advice, at :data:`LIVE_PLAYERS` players, the
    beliefs under ``prior`` (the default: what the user gets).

    Replays the longest stored ``no-8s`` scenario of each player count from its set-up through
    :class:`~cardlogic.table.literature.LiveGame`, as the command does: both beliefs take the event, the autosave
    is written, and when the observer's team is to move the advice at a glance is worked out (the leak figures
    wait for ``advise``). Each event is timed once, in order, within :data:`LIVE_BUDGET_SECONDS`.
    """
    from cardlogic.literature import Record
    from cardlogic.table.literature import LiveGame

    rows = []
    budget = LIVE_BUDGET_SECONDS.get(plan.mode, LIVE_BUDGET_SECONDS["quick"])
    for players in LIVE_PLAYERS:
        longest = _longest_game(cases, players)
        if longest is None:
            continue
        record = longest.scenario.record
        setup = Record(record.game, record.observer, dict(record.hands))
        with tempfile.TemporaryDirectory(prefix="live-") as folder:
            live = LiveGame(setup, autosave=str(Path(folder) / "autosave.txt"), prior=prior)

            def step(event: Event, live: LiveGame = live) -> bool:
                live.push(event)
                if live.observer_decides():
                    live.advice()
                    return True
                return False

            row = _timed_events(longest, budget, step)
        rows.append({"players": players, "prior": prior, **row})
        tick(f"live {players} players ({prior})")
    return {"status": "ok", "budget_seconds": budget, "rows": rows}


def _timed_events(case: Case, budget: float, step: Callable[[Event], bool]) -> dict[str, Any]:
    """Time ``step`` on each event of ``case``'s record in order, within ``budget`` seconds; ``step`` says whether
    it worked out advice. The row of the live and serve figures."""
    return _timed(case.name, case.scenario.record.events, budget, step)


def _timed(name: str, events: Sequence[Any], budget: float, step: Callable[[Any], bool]) -> dict[str, Any]:
    """:func:`_timed_events` on any game's ``events``, the row named ``name``."""
    times, advised, started = [], 0, time.perf_counter()
    for event in events:
        if time.perf_counter() - started > budget:
            break
        start = time.perf_counter()
        advised += step(event)
        times.append(time.perf_counter() - start)
    return {
        "scenario": name,
        "events": len(times),
        "total_events": len(events),
        "advised": advised,
        "seconds": summarize(times),
        "p90": float(np.percentile(times, 90)) if times else float("nan"),
    }


KNEKTPASS_LIVE_PLAYERS = (3, 4, 5)
"""Player counts whose Knektpass live latency is measured (all three have the target)."""
KNEKTPASS_LIVE_DEALS = {"full": 3, "quick": 2, "smoke": 1}
"""Deals of the match each Knektpass live replay plays."""


def measure_knektpass_live(plan: Plan, tick: Tick) -> dict[str, Any]:
    """Warm seconds from an event typed in ``cardlogic knektpass live`` to its advice, at
    :data:`KNEKTPASS_LIVE_PLAYERS` players.

    Replays the first player's view of a match between greedy bots
    (:func:`~cardlogic.knektpass.tournament.observed_match`) from its set-up through
    :class:`~cardlogic.table.knektpass.LiveMatch`, as the command does: the belief takes the event, the autosave is
    written, and when the observer must decide the advice is worked out. A first replay, not timed, compiles.
    """
    from cardlogic.knektpass import Game as KnektpassGame
    from cardlogic.knektpass.match_record import MatchRecord
    from cardlogic.knektpass.tournament import observed_match
    from cardlogic.table.knektpass import LiveMatch

    rows = []
    budget = LIVE_BUDGET_SECONDS.get(plan.mode, LIVE_BUDGET_SECONDS["quick"])
    for players in KNEKTPASS_LIVE_PLAYERS:
        game = KnektpassGame(("Ann", "Bob", "Cat", "Dan", "Eve")[:players])
        match = observed_match(game, 0, seed=7, deals=KNEKTPASS_LIVE_DEALS.get(plan.mode, 2))
        with tempfile.TemporaryDirectory(prefix="knektpass-live-") as folder:
            for timed in (False, True) if players == KNEKTPASS_LIVE_PLAYERS[0] else (True,):
                live = LiveMatch(MatchRecord(match.first), autosave=str(Path(folder) / "autosave.txt"))

                def step(event: Any, live: LiveMatch = live) -> bool:
                    live.push(event)
                    if live.observer_decides():
                        live.advice()
                        return True
                    return False

                row = _timed(f"knektpass {players} players", match.events, budget if timed else 1e9, step)
        rows.append({"players": players, **row})
        tick(f"knektpass live {players} players")
    return {"status": "ok", "budget_seconds": budget, "rows": rows}


def measure_knektpass_first_advice(plan: Plan, tick: Tick) -> dict[str, Any]:
    """From an empty numba cache to the first advice of ``cardlogic knektpass live``, in new processes:
    ``cardlogic warmup --game knektpass``, then the live command on a deal where I decide first (it advises as it
    starts, then the input ends). Full plan only: the kernels compile from nothing (a minute or more)."""
    if plan.mode != "full":
        return {"status": f"not measured in {plan.mode} mode", "rows": []}
    from cardlogic.knektpass import Deal
    from cardlogic.knektpass import Game as KnektpassGame
    from cardlogic.knektpass import Record as KnektpassRecord
    from cardlogic.knektpass import State as KnektpassState
    from cardlogic.knektpass import write_record as write_knektpass

    rng = random.Random(3)
    deal = Deal(KnektpassGame(("Ann", "Bob", "Cat")), dealer=0, turned=rng.choice(KnektpassGame(("A", "B", "C")).deck))
    hand = KnektpassState.shuffled(deal, rng).hands[0]
    with tempfile.TemporaryDirectory(prefix="knektpass-first-advice-") as folder:
        record = Path(folder) / "deal.txt"
        record.write_text(write_knektpass(KnektpassRecord(deal, 0, {0: tuple(iter_cards(hand))})))
        with tempfile.TemporaryDirectory(prefix="numba-empty-") as empty:
            env = {**os.environ, "NUMBA_CACHE_DIR": empty}
            warmup, _ = run_child(["warmup", "--game", "knektpass"], env)
            args = ["knektpass", "live", str(record), "--autosave", str(Path(folder) / "auto.txt")]
            after, _ = run_child(args, env, typed="quit\n")
    tick("knektpass live first advice")
    return {
        "status": "ok",
        "rows": [
            {
                "game": "knektpass",
                "command": "cardlogic knektpass live",
                "warmup_seconds": warmup,
                "first_advice_seconds": after,
            }
        ],
    }


def _longest_game(cases: list[Case], players: int) -> Case | None:
    """The stored ``no-8s`` scenario of ``players`` players with the most events, the one live timings replay."""
    games = [c for c in cases if c.scenario.spec.players == players and c.scenario.spec.deck == "no-8s"]
    return max(games, key=lambda c: c.scenario.events, default=None)


SERVE_PLAYERS = (6, 8)
"""Player counts whose tap-to-advice latency on the ``cardlogic serve`` page is measured (both have a target)."""


def measure_serve(cases: list[Case], plan: Plan, tick: Tick) -> dict[str, Any]:
    """Warm seconds from a tap on the ``cardlogic serve`` page to the answer carrying the new advice.

    Sets up, through the app's JSON API, the game :func:`measure_live` replays at :data:`SERVE_PLAYERS` players,
    then posts its events one by one as the page does: each answer is the whole table (legal asks, heat map, log)
    with the advice when my team is to move, after the autosave is written. The app is called in process (its
    ASGI interface, with the body as the page sends it), so the figure is the server's share of a tap; the live
    figure of the same run is the game core's share of it.
    """
    from cardlogic.literature import format_event
    from cardlogic.table.literature import LiveGame
    from cardlogic.web.app import create_app
    from cardlogic.web.companion import Companion

    token = "benchmark-token-000000"
    rows = []
    budget = LIVE_BUDGET_SECONDS.get(plan.mode, LIVE_BUDGET_SECONDS["quick"])
    for players in SERVE_PLAYERS:
        longest = _longest_game(cases, players)
        if longest is None:
            continue
        record = longest.scenario.record
        game, me, dealer = record.game, record.observer, record.game.dealer
        if me is None or dealer is None:  # every stored scenario is a player's view of a dealt game
            continue
        with tempfile.TemporaryDirectory(prefix="serve-") as folder:
            autosave = str(Path(folder) / "autosave.txt")
            app = create_app(Companion(_saving_to(autosave, LiveGame)), token)
            state = _asgi_post(
                app,
                token,
                "/api/setup",
                {
                    "version": json.loads(_asgi_get(app, token, "/api/state"))["version"],
                    "players": list(game.players),
                    "teams": list(game.teams),
                    "deck": game.deck.name,
                    "sets": game.deck.set_names(),
                    "dealer": game.players[dealer],
                    "rules": str(game.rules),
                    "me": game.players[me],
                    "hand": [str(card) for card in record.hands[me]],
                },
            )

            answer = [state]

            def tap(event: Event, app: Any = app, game: Game = game, answer: list[str] = answer) -> bool:
                body = {"version": json.loads(answer[0])["version"], "event": format_event(event, game)}
                answer[0] = _asgi_post(app, token, "/api/event", body)
                return '"recommendation"' in answer[0]

            row = _timed_events(longest, budget, tap)
        rows.append({"players": players, **row, "answer_bytes": len(answer[0])})
        tick(f"serve {players} players")
    return {"status": "ok", "budget_seconds": budget, "rows": rows}


KNEKTPASS_SERVE_PLAYERS = (3, 5)
"""Player counts whose Knektpass tap-to-advice latency on the ``cardlogic serve`` page is measured."""


def measure_knektpass_serve(plan: Plan, tick: Tick) -> dict[str, Any]:
    """Warm seconds from a tap on the ``cardlogic serve`` page of a Knektpass match to the answer with the new
    advice, at :data:`KNEKTPASS_SERVE_PLAYERS` players.

    The match :func:`measure_knektpass_live` replays (which compiles the solver first) is set up through the app's
    JSON API and its events posted one by one as the page does; each answer is the whole table (the choices of
    whoever is to move, the heat map, the log) with the advice when I decide, after the autosave is written.
    """
    from cardlogic.knektpass import Deal
    from cardlogic.knektpass import Game as KnektpassGame
    from cardlogic.knektpass.match_record import format_match_event
    from cardlogic.knektpass.tournament import observed_match
    from cardlogic.table.knektpass import LiveMatch
    from cardlogic.web.app import create_app
    from cardlogic.web.companion import Companion

    token = "benchmark-token-000000"
    rows = []
    budget = LIVE_BUDGET_SECONDS.get(plan.mode, LIVE_BUDGET_SECONDS["quick"])
    for players in KNEKTPASS_SERVE_PLAYERS:
        game = KnektpassGame(("Ann", "Bob", "Cat", "Dan", "Eve")[:players])
        match = observed_match(game, 0, seed=7, deals=KNEKTPASS_LIVE_DEALS.get(plan.mode, 2))
        deal, hand = match.first.deal, match.first.hands[0]
        with tempfile.TemporaryDirectory(prefix="knektpass-serve-") as folder:
            autosave = str(Path(folder) / "autosave.txt")
            app = create_app(Companion(_saving_to(autosave, LiveMatch)), token)
            setup = {
                "version": json.loads(_asgi_get(app, token, "/api/state"))["version"],
                "game": "knektpass",
                "players": list(game.players),
                "rules": str(game.rules),
                "dealer": game.players[deal.dealer],
                "trump": str(deal.turned),
                "me": game.players[0],
                "hand": [str(card) for card in hand],
            }
            answer = [_asgi_post(app, token, "/api/setup", setup)]

            def tap(event: Any, app: Any = app, deal: Deal = deal, answer: list[str] = answer) -> bool:
                body = {"version": json.loads(answer[0])["version"], "event": format_match_event(event, deal, 0)}
                answer[0] = _asgi_post(app, token, "/api/event", body)
                return '"best"' in answer[0]

            row = _timed(f"knektpass serve {players} players", match.events, budget, tap)
        rows.append({"players": players, **row, "answer_bytes": len(answer[0])})
        tick(f"knektpass serve {players} players")
    return {"status": "ok", "budget_seconds": budget, "rows": rows}


def _saving_to(autosave: str, make: Callable[..., TableGame]) -> Callable[[Any], TableGame]:
    """The companion's game opener for a measured page: the game ``make(setup, autosave=...)``, saved at once."""

    def open_game(setup: Any) -> TableGame:
        game = make(setup, autosave=autosave)
        game.save(autosave)
        return game

    return open_game


def _asgi_get(app: Any, token: str, path: str) -> str:
    return _asgi_call(app, token, "GET", path, b"")


def _asgi_post(app: Any, token: str, path: str, body: dict[str, Any]) -> str:
    return _asgi_call(app, token, "POST", path, json.dumps(body).encode())


def _asgi_call(app: Any, token: str, method: str, path: str, body: bytes) -> str:
    """One request to the ASGI ``app``, as a browser's would arrive (token header, JSON body); the answer's text.

    Raises :class:`RuntimeError` unless the app answers 200 (a new event loop per call, as a small overhead
    counted against the page).
    """
    import asyncio

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"x-token", token.encode()),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    answer: dict[str, Any] = {"status": 0, "body": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    asyncio.run(app(scope, receive, send))
    if answer["status"] != 200:
        raise RuntimeError(f"{method} {path} answered {answer['status']}: {answer['body'][:200]!r}")
    return answer["body"].decode()


_CHILD = """
import atexit, sys
def high_water():  # this process's peak resident memory; maxrss would count the forked parent's
    try:
        with open("/proc/self/status") as status:
            kb = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
        sys.stderr.write(f"\\nbench-vmhwm-kb {kb}\\n")
    except (OSError, StopIteration):
        pass
atexit.register(high_water)
if len(sys.argv) > 1:
    from cardlogic.cli import main
    sys.exit(main(sys.argv[1:]))
import cardlogic.literature.belief, cardlogic.inference.kernels
"""


def run_child(args: list[str], env: dict[str, str], typed: str = "") -> tuple[float, float | None]:
    """Run ``cardlogic ARGS`` (no args: only import cardlogic) in a new Python process, ``typed`` on its input.

    Returns its wall seconds and peak resident memory in MB (None where /proc is missing); raises on a
    non-zero exit.
    """
    seconds, stderr = _timed_child([sys.executable, "-c", _CHILD], args, env, typed)
    marks = [line.split()[1] for line in stderr.splitlines() if line.startswith("bench-vmhwm-kb ")]
    return seconds, int(marks[-1]) / 1024 if marks else None


def _timed_child(program: list[str], args: list[str], env: dict[str, str], typed: str = "") -> tuple[float, str]:
    """The wall seconds of ``program ARGS`` (cardlogic's arguments), ``typed`` on its input, and its standard
    error; raises on a non-zero exit."""
    start = time.perf_counter()
    child = subprocess.run(
        [*program, *args],
        check=False,
        env=env,
        input=typed,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seconds = time.perf_counter() - start
    if child.returncode:
        raise RuntimeError(f"cardlogic {' '.join(args)} exited {child.returncode}: {child.stderr.strip()}")
    return seconds, child.stderr


def measure_cold_start(record: Path, warm_cache: Path, plan: Plan, tick: Tick) -> dict[str, Any]:
    """``cardlogic belief RECORD`` in a new process: with an empty numba cache (compiles) and a warmed one.

    The first cold run compiles into ``warm_cache``; the warm runs reuse it.
    """
    args = ["belief", str(record)]
    cold, cold_memory = [], []
    for k in range(max(plan.cold_repeats, 1)):
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as empty:
            seconds, memory = run_child(args, {**os.environ, "NUMBA_CACHE_DIR": str(warm_cache) if k == 0 else empty})
        cold.append(seconds)
        cold_memory.append(memory)
        tick("cold start (empty numba cache)")
    warm_env = {**os.environ, "NUMBA_CACHE_DIR": str(warm_cache)}
    warm, warm_memory = [], []
    for _ in range(plan.warm_repeats):
        seconds, memory = run_child(args, warm_env)
        warm.append(seconds)
        warm_memory.append(memory)
        tick("cold start (warm numba cache)")
    imports, imports_memory = run_child([], warm_env)
    cold_stats, warm_stats = summarize(cold), summarize(warm)
    return {
        "command": f"cardlogic belief {record.name}",
        "cold_seconds": cold_stats,
        "warm_seconds": warm_stats,
        "imports_seconds": imports,
        "imports_mb": imports_memory,
        "cold_over_warm": cold_stats["median"] / warm_stats["median"],
        "cold_peak_mb": _maybe(cold_memory),
        "warm_peak_mb": _maybe(warm_memory),
    }


ADVISE_PLAYERS = (6, 8, 10, 12)


def measure_advise_command(cases: list[Case], warm_cache: Path, plan: Plan, tick: Tick) -> dict[str, Any]:
    """``cardlogic advise RECORD --json`` end to end (warm numba cache), leak figures included: in a new process
    that loads everything itself (``seconds``), and from the command line with this installation's resident server
    up (``resident_seconds``: the warm figure).

    At 6, 8, 10 and 12 players: at the deal (the dealer's view of a seeded deal: the dealer asks first) and early
    in the game (the stored ``early`` scenario, seen by the player to move). The same-run baseline is a process
    that only imports cardlogic and loads its kernels.
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(warm_cache), "CARDLOGIC_RESIDENT": "0"}
    imports = summarize([run_child([], env)[0] for _ in range(max(plan.warm_repeats, 1))])
    rows = []
    measured = {f"{players:02d}p-no-8s-early" for players in ADVISE_PLAYERS}
    with (
        tempfile.TemporaryDirectory(prefix="advise-") as folder,
        # the server's start-up runs every command once (minutes of kernels to load): only when a row asks it
        resident_server(env, start=any(c.name in measured for c in cases)) as served,
    ):
        for players in ADVISE_PLAYERS:
            early = next((c for c in cases if c.name == f"{players:02d}p-no-8s-early"), None)
            if early is None:
                continue
            game = early.scenario.record.game
            hands = State.shuffled(game, random.Random(players)).hands
            dealer = game.dealer
            assert dealer is not None  # the scenarios' records name their dealer
            deal = Path(folder) / f"{players:02d}p-deal.txt"
            deal.write_text(write_record(Record(game, dealer, {dealer: tuple(iter_cards(hands[dealer]))})))
            for stage, path in (("deal", deal), ("early", early.scenario.path)):
                run_child(["advise", "--json", str(path)], env)  # compiles what advice needs beyond `belief`
                times, memory = [], None
                for _ in range(max(plan.warm_repeats, 1)):
                    seconds, memory = run_child(["advise", "--json", str(path)], env)
                    times.append(seconds)
                resident = [
                    run_command(["advise", "--json", str(path)], served) for _ in range(max(plan.warm_repeats, 1))
                ]
                rows.append(
                    {
                        "players": players,
                        "stage": stage,
                        "seconds": summarize(times),
                        "resident_seconds": summarize(resident),
                        "peak_mb": memory,
                    }
                )
                tick(f"advise command {players} players {stage}")
    return {"imports_seconds": imports, "rows": rows}


@contextlib.contextmanager
def resident_server(env: dict[str, str], start: bool = True) -> Iterator[dict[str, str]]:
    """This installation's resident server (if ``start``), in a private runtime directory of its own, for as long
    as the context lasts: the environment of a command line that reaches it."""
    with tempfile.TemporaryDirectory(prefix="cl-", dir="/tmp") as runtime:  # short: a socket's path is short
        served = {**env, "XDG_RUNTIME_DIR": runtime, "CARDLOGIC_RESIDENT": "1"}
        if not start:
            yield served
            return
        control = [sys.executable, "-m", "cardlogic", "resident"]
        subprocess.run([*control, "start"], env=served, check=True, capture_output=True, timeout=900)
        try:
            yield served
        finally:
            subprocess.run([*control, "stop"], env=served, check=True, capture_output=True, timeout=120)


def run_command(args: list[str], env: dict[str, str]) -> float:
    """The wall seconds of ``cardlogic ARGS`` from the command line (a resident server answers it if one runs);
    raises on a non-zero exit."""
    return _timed_child([sys.executable, "-m", "cardlogic"], args, env)[0]


def measure_first_advice(cases: list[Case], plan: Plan, tick: Tick) -> dict[str, Any]:
    """From an empty numba cache to the first advice, in new processes, for each game: ``cardlogic warmup --game
    GAME`` and then the advice command, against the advice command alone on another empty cache (its kernels
    compiled as it reaches them). Full plan only: each game compiles from nothing twice (minutes on 2 cores)."""
    if plan.mode != "full":
        return {"status": f"not measured in {plan.mode} mode", "rows": []}
    from cardlogic.knektpass import Deal, Game
    from cardlogic.knektpass import Record as KnektpassRecord
    from cardlogic.knektpass import State as KnektpassState
    from cardlogic.knektpass import write_record as write_knektpass

    rows = []
    with tempfile.TemporaryDirectory(prefix="first-advice-") as folder:
        rng = random.Random(3)
        game = Game(("Ann", "Bob", "Cat"))
        deal = Deal(game, dealer=2, turned=rng.choice(game.deck))
        hand = KnektpassState.shuffled(deal, rng).hands[2]
        knektpass = Path(folder) / "knektpass-dealer.txt"
        knektpass.write_text(write_knektpass(KnektpassRecord(deal, 2, {2: tuple(iter_cards(hand))})))
        early = next((c for c in cases if c.name == "06p-no-8s-early"), cases[0])
        for name, args in (
            ("literature", ["advise", "--json", str(early.scenario.path)]),
            ("knektpass", ["knektpass", "advise", "--json", str(knektpass)]),
        ):
            with tempfile.TemporaryDirectory(prefix="numba-empty-") as empty:
                env = {**os.environ, "NUMBA_CACHE_DIR": empty}
                warmup, _ = run_child(["warmup", "--game", name], env)
                after, _ = run_child(args, env)
            with tempfile.TemporaryDirectory(prefix="numba-empty-") as empty:
                lazy, _ = run_child(args, {**os.environ, "NUMBA_CACHE_DIR": empty})
            rows.append(
                {
                    "game": name,
                    "command": "cardlogic " + " ".join(args[:-1]) + " " + Path(args[-1]).name,
                    "warmup_seconds": warmup,
                    "first_advice_seconds": after,
                    "lazy_seconds": lazy,
                }
            )
            tick(f"first advice {name}")
    return {"status": "ok", "rows": rows}


def _maybe(values: list[float | None]) -> dict[str, float | int] | None:
    return summarize([v for v in values if v is not None]) if all(v is not None for v in values) else None


def measure_memory(
    cases: list[Case], warm_cache: Path, imports_mb: float | None, plan: Plan, tick: Tick
) -> dict[str, Any]:
    """Peak memory: Python allocations (tracemalloc) in process, and a whole CLI process's peak resident set."""
    exact = [c for c in cases if c.exact is not None]
    largest = max(exact, key=lambda c: pack(c.model).operations)
    middle = next((c for c in cases if c.name == "06p-no-8s-middle"), cases[0])
    traced = []
    for what, case, call in (
        ("exact marginals", largest, lambda c: ExactBackend().posterior(c.model)),
        (
            f"sampler, {plan.sampler_deals:,} deals",
            middle,
            lambda c: SamplerBackend().sample(c.model, plan.sampler_deals, 1),
        ),
    ):
        tracemalloc.start()
        call(case)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        traced.append({"what": what, "scenario": case.name, "peak_mb": peak / 2**20})
        tick(f"memory {case.name}")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(warm_cache)}
    processes: list[dict[str, Any]] = [{"what": "python + cardlogic imports", "peak_mb": imports_mb}]
    chain = [c for c in cases if c.exact is None]
    for label, case, args in (
        ("cardlogic belief --method exact", largest, ["--method", "exact"]),
        ("cardlogic belief (auto)", chain[0] if chain else middle, []),
    ):
        _, memory = run_child(["belief", *args, str(case.scenario.path)], env)
        processes.append(_process_row(label, case.name, memory, imports_mb))
        tick(f"memory {label}")
    for samples in plan.marginal_samples:
        label = f"cardlogic belief --method sample --samples {samples:,}"
        _, memory = run_child(
            ["belief", "--method", "sample", "--samples", str(samples), str(middle.scenario.path)], env
        )
        processes.append(_process_row(label, middle.name, memory, imports_mb))
        tick(f"memory {label}")
    for deck in plan.advisor_decks:
        label = f"advisor game, {ADVISOR_MEMORY_PLAYERS} players, {deck}"
        args = ["tournament", "--bots", "advisor,counting", "--players", str(ADVISOR_MEMORY_PLAYERS), "--deck", deck]
        _, memory = run_child([*args, "--games", "1", "--seed", "1", "--jobs", "1", "--json"], env)
        processes.append({**_process_row(label, "seed 1, 1 game", memory, imports_mb), "worker": True})
        tick(f"memory {label}")
    return {
        "traced": traced,
        "processes": processes,
        "note": "tracemalloc sees numpy arrays, not numba's internal allocations; a process's peak resident "
        "set (VmHWM) sees everything",
    }


ADVISOR_MEMORY_PLAYERS = 12
"""The table whose advisor game's peak memory sizes a tournament worker (the largest)."""


def _process_row(what: str, scenario: str, memory: float | None, imports_mb: float | None) -> dict[str, Any]:
    """A row of :func:`measure_memory`'s processes: a process's peak resident set, also over importing alone."""
    over = None if memory is None or imports_mb is None else memory - imports_mb
    return {"what": what, "scenario": scenario, "peak_mb": memory, "over_imports_mb": over}


def literature_adapter() -> Callable[..., Any] | None:
    """``cardlogic.literature.peer.compare_games`` once it exists (being written), else None."""
    try:
        if importlib.util.find_spec(LITERATURE_ADAPTER) is None:
            return None
        return getattr(importlib.import_module(LITERATURE_ADAPTER), "compare_games", None)
    except ImportError:
        return None


def measure_literature_pkg(plan: Plan, tick: Tick) -> dict[str, Any]:
    """Time per game and facts found by the PyPI ``literature`` package against our certain facts (via the adapter).

    A hook until the adapter exists: then it reports ``not measured yet``.
    """
    compare = literature_adapter()
    if compare is None:
        tick("literature package")
        return {"status": NOT_YET, "note": f"{LITERATURE_ADAPTER}.compare_games does not exist yet"}
    options: dict[str, Any] = {}
    parameters = inspect.signature(compare).parameters
    if "players" in parameters:
        options["players"] = plan.literature_players
    if "judge" in parameters:
        options["judge"] = plan.literature_judge
    start = time.perf_counter()
    try:
        result = compare(plan.literature_games, 0, **options)
    except Exception as error:  # noqa: BLE001 -- the adapter is new: report its failure, keep benchmarking
        tick("literature package")
        return {"status": f"error: {type(error).__name__}: {error}"}
    seconds = time.perf_counter() - start
    tick("literature package")
    if isinstance(result, dict) and isinstance(result.get("disagreements"), list):
        result = {**result, "disagreements": len(result["disagreements"])}
    return {
        "status": "ok",
        "games": plan.literature_games,
        "options": options,
        "seconds": seconds,
        "seconds_per_game": seconds / max(plan.literature_games, 1),
        "result": _jsonable(result),
    }


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.integer, np.floating)):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


# -- the run -------------------------------------------------------------------------------------------------------


def _work(plan: Plan, loaded: list[Scenario]) -> int:
    """Progress units of a run over the ``loaded`` scenarios."""
    names = {s.name for s in loaded}
    accuracy = sum(1 for n in plan.accuracy_scenarios if n in names) * (
        len(plan.accuracy_sizes) + len(plan.chain_sizes)
    )
    advice = sum(1 for s in loaded if s.spec.players >= 6)
    live_sizes = len({s.spec.players for s in loaded if s.spec.players in LIVE_PLAYERS and s.spec.deck == "no-8s"})
    live = live_sizes + len(
        {s.spec.players for s in loaded if s.spec.players in SERVE_PLAYERS and s.spec.deck == "no-8s"}
    )
    command = 2 * sum(1 for s in loaded if s.name in {f"{n:02d}p-no-8s-early" for n in ADVISE_PLAYERS})
    return (
        5 * len(loaded)
        + 1
        + accuracy
        + advice
        + live
        + advice  # and both again under the players' prior
        + live_sizes
        + len(KNEKTPASS_LIVE_PLAYERS)
        + len(KNEKTPASS_SERVE_PLAYERS)
        + 1
        + command
        + max(plan.cold_repeats, 1)
        + plan.warm_repeats
        + 4
        + 2
        + 1  # the advisor's decisions
        + (2 if plan.mode == "full" else 0)
    )


def measure_calibration(plan: Plan, png: Path, tick: Tick) -> dict[str, Any]:
    """Brier, log-loss and reliability of each prior on held-out games between the plan's bots (6 players,
    seed :data:`CALIBRATION_SEED`; the shipped model was fit on other seeds), and the reliability diagram drawn
    to ``png`` where the plan asks for it."""
    records = [
        record
        for bots in plan.calibration_bots
        for record in calibration.bot_records(bots, 6, plan.calibration_games, CALIBRATION_SEED)
    ]
    results = calibration.calibrate(records)
    results["bots"] = [list(bots) for bots in plan.calibration_bots]
    results["seed"] = CALIBRATION_SEED
    results["improvement"] = calibration.improvement(results)
    results["diagram"] = calibration.reliability_png(results, png) if plan.calibration_png else "not drawn"
    if plan.calibration_strong_games:
        strong = calibration.calibrate(
            calibration.self_play_records("strong", 6, plan.calibration_strong_games, STRONG_CALIBRATION_SEED)
        )
        strong["seed"] = STRONG_CALIBRATION_SEED
        strong["improvement"] = calibration.improvement(strong)
        results["strong"] = strong
    tick("calibration")
    return results


def measure_advisor_decisions(plan: Plan, tick: Tick) -> dict[str, Any]:
    """Seconds of each decision of the ``advisor`` bot over one game against ``strong`` (6 players, game 0 of seed
    :data:`ADVISOR_DECISION_SEED`), and which prior answered each: the game's record is replayed to the
    advisor's seats, each timed as it chooses at its turns (CPU and wall-clock time), after one untimed pass over
    the game's first turns so that compiling the kernels is not counted."""
    from cardlogic.literature import PlayerState, actor
    from cardlogic.literature.bots import AdvisorBot
    from cardlogic.literature.tournament import Match

    match = Match(("advisor", "strong"), players=ADVISOR_DECISION_PLAYERS, seed=ADVISOR_DECISION_SEED)
    record = match.record(0)
    game = record.game
    seats = game.members(0)  # game 0 seats the first bot in team 0
    hands = {p: sum(1 << card for card in record.hands[p]) for p in seats}
    cpu: list[float] = []
    wall: list[float] = []
    priors: dict[str, int] = {}
    for timed in (False, True):
        bots = {p: AdvisorBot(game, p, hands[p], seed=p) for p in seats}
        views = {p: PlayerState(game, p, hands[p]) for p in seats}
        for event in record.events if timed else record.events[:8]:
            mover = actor(event)
            if mover in bots:
                started, clock = time.process_time(), time.perf_counter()
                bots[mover].choose(views[mover])
                if timed:
                    cpu.append(time.process_time() - started)
                    wall.append(time.perf_counter() - clock)
                    advice = bots[mover].last_advice
                    assert advice is not None
                    answered = "players, tempered" if "tempered" in advice.prior else advice.prior.split(" ")[0]
                    priors[answered] = priors.get(answered, 0) + 1
            for view in views.values():
                view.push(event)
    tick("advisor decisions")
    return {
        "players": ADVISOR_DECISION_PLAYERS,
        "seed": ADVISOR_DECISION_SEED,
        "events": len(record.events),
        "decisions": len(cpu),
        "cpu_seconds": summarize(cpu),
        "mean_cpu_seconds": float(np.mean(cpu)) if cpu else float("nan"),
        "wall_seconds": summarize(wall),
        "priors": priors,
    }


def run_suite(scenarios: Path, plan: Plan, progress: bool = True) -> dict[str, Any]:
    """Measure every figure on the scenarios in ``scenarios`` and check the targets; return the results."""
    from cardlogic.bench.report import targets

    started = time.perf_counter()
    loaded = [s for s in load_scenarios(scenarios) if not plan.only or s.name in plan.only]
    with _Progress(progress, _work(plan, loaded)) as tick:
        cases = []
        for scenario in loaded:
            cases.append(Case.load(scenario))
            tick(f"load {scenario.name}")
        with tempfile.TemporaryDirectory(prefix="numba-warm-") as cache:
            warm_cache = Path(cache)
            middle = next((c for c in cases if c.name == "06p-no-8s-middle"), cases[0])
            middle_path = middle.scenario.path
            assert middle_path is not None  # scenarios are read from their files
            steps: list[tuple[str, Callable[[], Any]]] = [
                ("baseline", lambda: measure_baseline(plan, tick)),
                ("exact", lambda: measure_exact(cases, plan, tick)),
                ("sampler", lambda: measure_sampler(cases, plan, tick)),
                ("accuracy", lambda: measure_accuracy(cases, plan, tick)),
                ("csp", lambda: measure_csp(cases, figures["sampler"], plan, tick)),
                ("rejection", lambda: measure_rejection(cases, plan, tick)),
                ("advice", lambda: measure_advice(cases, plan, tick)),
                ("live", lambda: measure_live(cases, plan, tick)),
                ("advice_rules", lambda: measure_advice(cases, plan, tick, prior="rules")),
                ("live_rules", lambda: measure_live(cases, plan, tick, prior="rules")),
                ("serve", lambda: measure_serve(cases, plan, tick)),
                ("cold_start", lambda: measure_cold_start(middle_path, warm_cache, plan, tick)),
                ("advise_command", lambda: measure_advise_command(cases, warm_cache, plan, tick)),
                ("first_advice", lambda: measure_first_advice(cases, plan, tick)),
                ("knektpass_live", lambda: measure_knektpass_live(plan, tick)),
                ("knektpass_serve", lambda: measure_knektpass_serve(plan, tick)),
                ("knektpass_first_advice", lambda: measure_knektpass_first_advice(plan, tick)),
                ("memory", lambda: measure_memory(cases, warm_cache, figures["cold_start"]["imports_mb"], plan, tick)),
                ("literature_pkg", lambda: measure_literature_pkg(plan, tick)),
                ("calibration", lambda: measure_calibration(plan, scenarios.parent / "reliability.png", tick)),
                ("advisor_decisions", lambda: measure_advisor_decisions(plan, tick)),
            ]
            figures: dict[str, Any] = {}
            spent: dict[str, float] = {}
            for name, step in steps:
                start = time.perf_counter()
                figures[name] = step()
                spent[name] = time.perf_counter() - start
    results = {
        "suite": "cardlogic-bench",
        "format": 1,
        "mode": plan.mode,
        "date": _now(),
        "commit": _commit(),
        "machine": _machine(),
        "plan": dataclasses.asdict(plan),
        "scenarios": [_scenario_row(c) for c in cases],
        "figures": figures,
    }
    results["targets"] = targets(results)
    results["figure_seconds"] = spent
    results["elapsed_seconds"] = time.perf_counter() - started
    return results


def _scenario_row(case: Case) -> dict[str, Any]:
    spec = case.scenario.spec
    free = sum(1 for card in case.model.cards if case.model.certain_holder(card) is None)
    return {
        "name": case.name,
        "players": spec.players,
        "deck": spec.deck,
        "stage": spec.stage,
        "seed": spec.seed,
        "events": case.scenario.events,
        "total_events": case.scenario.total_events,
        "observer": case.belief.game.players[case.belief.observer] if case.belief.observer is not None else None,
        "unplaced_cards": free,
        "clauses": len(case.model.clauses),
    }


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        )
        return out.stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def _machine() -> dict[str, Any]:
    import numba

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


class _Progress:
    """A rich progress bar on standard error (or nothing), as a context giving ``tick(description)``."""

    def __init__(self, enabled: bool, total: int) -> None:
        self.enabled, self.total = enabled, total

    def __enter__(self) -> Tick:
        if not self.enabled:
            return lambda description: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(
            TextColumn("[bold]bench[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
            transient=True,
        )
        self.bar.__enter__()
        task = self.bar.add_task("", total=self.total)
        return lambda description: self.bar.update(task, advance=1, description=description)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self.enabled:
            self.bar.__exit__(kind, error, traceback)
