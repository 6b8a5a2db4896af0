"""``cardlogic warmup``: compile every numba kernel a game can need, once per installation, before the first event.

Numba compiles a kernel the first time it runs with new argument types and keeps
the machine code in its cache (``cache=True``: ``NUMBA_CACHE_DIR``, else beside
the package). Left to itself that happens in the middle of a game, the first
time a command reaches a kernel: seconds of silence after an event. The warm-up
instead runs small games through the code the commands use, with a progress
bar: for Literature, at 6 and 12 players, belief (as the commands answer it,
sampled, by the walk over reachable states and by the chain), advice with its
playouts and what the table can infer; for Knektpass, a deal at 3 and at 5
players with the advisor deciding every choice. It then leaves a stamp in each
kernel module's cache directory. ``live``, ``advise`` and ``knektpass advise``
run their game's warm-up first when its stamp is missing and standard error is
a terminal (``CARDLOGIC_WARMUP=off`` leaves the kernels to compile when first
needed). The stamp names the kernels' source, numba and Python, so an upgrade
warms up again.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TextIO

from cardlogic.cli.console import echo
from cardlogic.cli.resident import start_in_background

GAMES = ("literature", "knektpass")
KERNEL_MODULES = {
    "literature": ("cardlogic.inference.kernels", "cardlogic.literature.kernels"),
    "knektpass": ("cardlogic.inference.kernels", "cardlogic.knektpass.kernels"),
}
"""The kernel modules each game's commands can reach."""
OFF_SWITCH = "CARDLOGIC_WARMUP"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "warmup",
        help="compile the solver's kernels once, so that no game waits for it",
        description="Compile every numba kernel Literature and Knektpass can need (a minute or two once per "
        "installation; the numba cache keeps them), so that live, advise and the bots never pause mid-game "
        "to compile. Run again, it only checks that the cache is warm.",
    )
    parser.add_argument(
        "--game", choices=GAMES, action="append", help="only this game's kernels (may be repeated; default both)"
    )
    parser.add_argument("--force", action="store_true", help="warm up even when the cache is already warm")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    games = tuple(args.game or GAMES)
    if is_warm(games) and not args.force:
        print("The kernels are compiled already (the numba cache is warm).")
    else:
        seconds = warm_up(games, sys.stdout)
        print(f"Compiled the kernels in {seconds:.0f} s; games start without waiting from now on.")
    start_in_background()  # the commands that load the solver find it loaded
    return 0


def ensure_warm(game: str) -> None:
    """Warm up ``game``'s kernels first, saying so on standard error, when they are not and a person is watching.

    Only when standard error is a terminal and ``CARDLOGIC_WARMUP`` is not ``off``: a script or a pipe keeps
    to compiling each kernel when first needed, which costs less when it needs only a few.
    """
    if os.environ.get(OFF_SWITCH, "").lower() == "off" or not sys.stderr.isatty() or is_warm((game,)):
        return
    echo(
        "First run of this installation: compiling the solver's kernels, once (a minute or more; "
        "'cardlogic warmup' does it ahead) ...",
        file=sys.stderr,
    )
    seconds = warm_up((game,), sys.stderr)
    print(f"Compiled in {seconds:.0f} s.", file=sys.stderr, flush=True)


def is_warm(games: tuple[str, ...] = GAMES) -> bool:
    """Whether the warm-up of ``games`` has run for these kernels, this numba and this Python (its stamps are
    in the kernel modules' cache directories)."""
    return all(path.exists() for game in games for path in _stamps(game))


def warm_up(games: tuple[str, ...] = GAMES, stream: TextIO | None = None) -> float:
    """Run the warm-up steps of ``games`` with a progress bar on ``stream`` (default standard error); stamp the
    cache; return the seconds it took."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    start = time.perf_counter()
    steps = [step for game in games for step in _STEPS[game]]
    console = Console(file=stream or sys.stderr)
    with Progress(
        TextColumn("{task.description:<34}"), BarColumn(), TimeElapsedColumn(), console=console, transient=False
    ) as progress:
        task = progress.add_task("compiling", total=len(steps))
        for name, step in steps:
            progress.update(task, description=name)
            step()
            progress.advance(task)
        progress.update(task, description="compiled")
    for game in games:
        for path in _stamps(game):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
    return time.perf_counter() - start


# -- the stamp ---------------------------------------------------------------------------------------------------------


def _stamps(game: str) -> list[Path]:
    """The stamp of ``game``'s warm-up in each of its kernel modules' numba cache directories (where numba puts
    that module's code, so that emptying the cache removes the stamp with it)."""
    import importlib

    import numba

    modules = [importlib.import_module(name) for name in KERNEL_MODULES[game]]
    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for module in modules:
        digest.update(Path(str(module.__file__)).read_bytes())
    name = f"cardlogic-warmup-{game}-{digest.hexdigest()[:16]}.stamp"
    return [Path(_cache_directory(module)) / name for module in modules]


def _cache_directory(module: ModuleType) -> str:
    from numba.core.dispatcher import Dispatcher

    # a kernel of the module's own: one it imports (a shared bit count) keeps its code in its own module's directory
    kernel = next(
        value
        for value in vars(module).values()
        if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__
    )
    return kernel._cache.cache_path  # type: ignore[attr-defined]  # numba's cache object has no public accessor


# -- the steps ---------------------------------------------------------------------------------------------------------


def _literature(players: int) -> None:
    """At three moments of a random game, for the player to move: belief and advice under the players' prior (the
    commands' default) and under the rules' (exact where practical, sampled, and by the walk over reachable states
    and the chain), the advice's playouts, and what the table can infer."""
    from cardlogic.cards import iter_cards
    from cardlogic.inference.exact import pack
    from cardlogic.inference.sampler import sample_mcmc
    from cardlogic.inference.sparse import SparseTables
    from cardlogic.literature import Game, Record, play_random_game
    from cardlogic.literature.advice import advise, spectator
    from cardlogic.literature.belief import LiteratureBelief
    from cardlogic.literature.playouts import playout_scores

    game = Game(tuple(f"P{k}" for k in range(players)), dealer=0)
    hands, events = play_random_game(game, seed=players)
    dealt = {p: tuple(iter_cards(hand)) for p, hand in enumerate(hands)}
    for cut in (0, len(events) // 3, 2 * len(events) // 3):
        full = Record(game, None, dealt, events[:cut])
        mover = full.replay().to_move
        record = full.view_as(0 if mover is None else mover)
        LiteratureBelief.from_record(record, method="sample", samples=64, prior="rules").marginals()
        by_players = LiteratureBelief.from_record(record, samples=64)  # the players' prior, the commands' default
        advise(by_players, spectator(by_players))
        belief = LiteratureBelief.from_record(record, prior="rules")  # exact where practical, as --prior rules
        advice = advise(belief, spectator(belief))
        spectator(belief).marginals()
        packed = pack(belief.model)
        sample_mcmc(packed, 8, cut)  # the chain, where exact sampling does not fit
        if cut:
            SparseTables(packed).marginals()
        if advice.asks and mover is not None:
            playout_scores(belief, [ask.event(mover) for ask in advice.asks[:2]], 4, cut)


def _knektpass(players: int) -> None:
    """A deal with an advisor in every seat, over either prior by turns: advice at every choice (trump, bid,
    exchange, play)."""
    from cardlogic.knektpass import Deal, Game, PlayerState, State
    from cardlogic.knektpass.belief import PRIORS
    from cardlogic.knektpass.bots import AdvisorBot

    game = Game(tuple(f"P{k}" for k in range(players)))
    rng = random.Random(players)
    deal = Deal(game, dealer=0, turned=rng.choice(game.deck))
    state = State.shuffled(deal, rng)
    views = [PlayerState(deal, p, state.hands[p]) for p in range(players)]
    bots = [AdvisorBot(deal, p, state.hands[p], samples=8, prior=PRIORS[p % 2]) for p in range(players)]
    while (mover := state.to_move) is not None:
        event = state.push(bots[mover].choose(views[mover]))
        for p, view in enumerate(views):
            view.push(event.seen_by(p))


_STEPS: dict[str, list[tuple[str, Callable[[], None]]]] = {
    "literature": [(f"Literature, {n} players", partial(_literature, n)) for n in (6, 12)],
    "knektpass": [(f"Knektpass, {n} players", partial(_knektpass, n)) for n in (3, 5)],
}
