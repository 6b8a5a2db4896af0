"""``cardlogic knektpass check | simulate | view | belief | advise | tournament | live``: Knektpass from the
command line.

Every RECORD is a Knektpass deal record (:mod:`cardlogic.knektpass.record`), or
``-`` for standard input. A problem with it is printed as ``RECORD:LINE:
message`` on standard error with exit code 1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from cardlogic.cards import iter_cards
from cardlogic.cli.common import (
    DRAWN_DEALS,
    RECORD_HELP,
    SAMPLES,
    SEED,
    add_prior_argument,
    add_workers_arguments,
    at_least,
    how_worked_out,
    play_with_progress,
    plural,
    read_text,
    source_name,
)
from cardlogic.cli.live import add_autosave_arguments
from cardlogic.knektpass import (
    Deal,
    Game,
    GameError,
    PublicState,
    Record,
    RecordError,
    Rules,
    State,
    read_record,
    scan_record,
    write_record,
)
from cardlogic.knektpass.match import describe_outcome
from cardlogic.knektpass.match_record import is_match, read_match
from cardlogic.knektpass.rules import MIN_PLAYERS

if TYPE_CHECKING:
    from cardlogic.knektpass.tournament import TournamentResult

BOT_NAMES = ("random", "greedy", "advisor", "advisor-players")  # knektpass.bots.BOTS, without numba for --help
PRIORS = ("rules", "players")  # cardlogic.knektpass.belief.PRIORS, without importing numba for --help
DEFAULT_PRIOR = "rules"  # cardlogic.knektpass.belief.DEFAULT_PRIOR
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
"""The players of ``knektpass simulate``, in seat order: as many as a deal of 52 cards takes."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "knektpass",
        help="Knektpass: check, simulate, view, belief, advise, tournament, live",
        description="Knektpass, the Swedish trick-taking game with the four jacks as "
        "permanent top trumps: deal records, belief, advice and bots.",
    )
    commands = parser.add_subparsers(dest="knektpass_command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="check a deal record: notation, legality, and that some deal explains it")
    check.add_argument("record", metavar="RECORD", help=RECORD_HELP)
    check.set_defaults(handler=run_check)

    simulate = commands.add_parser("simulate", help="play one deal with bots and write its full record")
    simulate.add_argument(
        "--players",
        type=at_least(MIN_PLAYERS, f"a number of players from {MIN_PLAYERS} to {len(NAMES)}", len(NAMES)),
        default=3,
        metavar="N",
        help=f"players, {MIN_PLAYERS} to {len(NAMES)} (default 3)",
    )
    simulate.add_argument(
        "--bots",
        default="random",
        metavar="BOT[,BOT...]",
        help=f"one bot for every seat or one per seat, out of {', '.join(BOT_NAMES)} (default random)",
    )
    simulate.add_argument("--seed", type=SEED, default=0, help="seed for the deal and the bots (default 0)")
    simulate.add_argument("--rules", default="", help='house rules, e.g. "must-trump=off deck=52"')
    simulate.set_defaults(handler=run_simulate)

    view = commands.add_parser("view", help="write the record as one player saw it")
    view.add_argument("record", metavar="RECORD", help=RECORD_HELP)
    view.add_argument("--as", dest="player", required=True, metavar="NAME", help="the player whose view to write")
    view.add_argument(
        "--events", type=at_least(0, "a number of events, 0 or more"), metavar="N", help="keep only the first N events"
    )
    view.set_defaults(handler=run_view)

    belief = commands.add_parser(
        "belief",
        help="where every card still in play lies, from the record's observer's view (a spectator's without Me)",
    )
    belief.add_argument("record", metavar="RECORD", help=RECORD_HELP)
    belief.add_argument(
        "--method",
        choices=("auto", "exact", "sample"),
        default="auto",
        help="inference backend (default auto: exact where practical, else sampling)",
    )
    belief.add_argument("--samples", type=SAMPLES, default=20000, metavar="N", help="deals to draw when sampling")
    belief.add_argument("--seed", type=SEED, default=0, help="random seed for sampling (default 0)")
    belief.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _add_prior_argument(belief)
    belief.set_defaults(handler=run_belief)

    advise = commands.add_parser(
        "advise", help="advice for the record's observer (Me) on their turn; on another's, who is to move"
    )
    advise.add_argument("record", metavar="RECORD", help=RECORD_HELP)
    advise.add_argument(
        "--samples",
        type=DRAWN_DEALS,
        default=None,
        metavar="N",
        help="deals drawn and solved per choice (default 32)",
    )
    advise.add_argument("--seed", type=SEED, default=0, help="random seed (default 0)")
    advise.add_argument("--json", action="store_true", help="print JSON instead of a table")
    _add_prior_argument(advise)
    advise.set_defaults(handler=run_advise)

    live = commands.add_parser(
        "live",
        help="follow a match deal by deal, with advice whenever I am to decide",
        description="Follow a match as it is played, deal after deal until someone reaches 0 points: start from "
        "RECORD (a deal or match record as I see it), or answer the set-up questions, then type one event or "
        "command a line ('help' lists them). Every accepted event is autosaved before the next line is read.",
    )
    live.add_argument(
        "record",
        nargs="?",
        metavar="RECORD",
        help="a deal or match record with Me and my hand (or a spectator's); left out, the set-up is asked for",
    )
    add_autosave_arguments(live)
    live.add_argument(
        "--samples",
        type=DRAWN_DEALS,
        default=32,
        metavar="N",
        help="deals drawn and solved per decision (default 32)",
    )
    live.add_argument("--seed", type=SEED, default=0, help="random seed (default 0)")
    _add_prior_argument(live)
    live.set_defaults(handler=run_live)

    tournament = commands.add_parser(
        "tournament",
        help="whole games between bots, one seat per bot, seats rotated between games",
        description="Play GAMES games (deal after deal until someone reaches 0 points) with one seat per listed "
        "bot, the seats rotated between games, and print each bot's wins (summed over its seats) with "
        "95% Wilson intervals. Bots: " + ", ".join(BOT_NAMES) + ".",
    )
    tournament.add_argument(
        "--bots", required=True, metavar="BOT,BOT[,...]", help="one bot per seat, e.g. advisor,greedy,greedy"
    )
    tournament.add_argument(
        "--games",
        type=at_least(1, "a number of games, 1 or more"),
        default=100,
        metavar="GAMES",
        help="games to play (default 100)",
    )
    tournament.add_argument("--seed", type=SEED, default=0, help="seed for the games (default 0)")
    tournament.add_argument("--rules", default="", help='house rules, e.g. "must-trump=off points=10"')
    add_workers_arguments(tournament)
    tournament.add_argument("--json", action="store_true", help="print JSON instead of a table")
    tournament.set_defaults(handler=run_tournament)


def _add_prior_argument(parser: argparse.ArgumentParser) -> None:
    add_prior_argument(
        parser,
        PRIORS,
        DEFAULT_PRIOR,
        "every consistent deal equally likely",
        "how the other players chose, docs/knektpass.md",
    )


# -- reading records ---------------------------------------------------------------------------------------------------


def _fail(path: str, line: int, message: str) -> int:
    name = source_name(path)
    print(f"{name}:{line}: {message}" if line else f"{name}: {message}", file=sys.stderr)
    return 1


def _parse(path: str) -> Record | None:
    """The record in ``path``, read but not yet replayed (a belief built from it checks it), or None after
    printing why it cannot be read. Of a match, the deal in play, once the deals before it are checked."""
    text = read_text(path)
    if text is None:
        return None
    try:
        if not is_match(text):
            return read_record(text, source_name(path))
        *earlier, current = read_match(text, source_name(path)).deals()
    except RecordError as error:
        _fail(path, error.line, error.message)
        return None
    return None if any(_checked(path, deal) is None for deal in earlier) else current


def _load(path: str) -> Record | None:
    """The record in ``path``, checked as ``knektpass check`` checks it, or None after printing its first
    problem."""
    record = _parse(path)
    return None if record is None else _checked(path, record)


def _checked(path: str, record: Record) -> Record | None:
    """``record`` if it is possible (:func:`~cardlogic.knektpass.belief.check_record`), else None after printing
    its first impossible line (importing numba only here)."""
    from cardlogic.inference import InferenceError
    from cardlogic.knektpass.belief import check_record

    try:
        check_record(record)
    except RecordError as error:
        _fail(path, error.line, error.message)
        return None
    except InferenceError as error:
        _fail(path, 0, str(error))
        return None
    return record


def _belief(path: str, record: Record, **options):  # -> KnektpassBelief | None, importing numba only here
    from cardlogic.inference import InferenceError
    from cardlogic.knektpass.belief import KnektpassBelief

    try:
        return KnektpassBelief.from_record(record, **options)
    except RecordError as error:
        _fail(path, error.line, error.message)
    except InferenceError as error:
        _fail(path, 0, str(error))
    return None


# -- the commands ------------------------------------------------------------------------------------------------------


def run_check(args: argparse.Namespace) -> int:
    text = read_text(args.record)
    if text is None:
        return 1
    if is_match(text):
        return _check_match(args.record, text)
    record, problems = scan_record(text)
    for line, message in problems:
        _fail(args.record, line, message)
    if problems or record is None or _checked(args.record, record) is None:
        return 1
    print(f"{source_name(args.record)}: ok, {plural(len(record.events), 'event')}")
    return 0


def _check_match(path: str, text: str) -> int:
    """``knektpass check`` of a match record: every deal, in order, as a deal record is checked."""
    try:
        deals = read_match(text, source_name(path)).deals()
    except RecordError as error:
        return _fail(path, error.line, error.message)
    if any(_checked(path, deal) is None for deal in deals):
        return 1
    events = sum(len(deal.events) for deal in deals)
    print(f"{source_name(path)}: ok, {plural(events, 'event')} in {plural(len(deals), 'deal')}")
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from cardlogic.knektpass.bots import make_bot
    from cardlogic.knektpass.state import PlayerState

    try:
        rules = Rules.parse(args.rules)
        game = Game(NAMES[: args.players], rules)
    except GameError as error:
        print(f"cardlogic knektpass simulate: {error}", file=sys.stderr)
        return 2
    bots = [name.strip() for name in args.bots.split(",")]
    if len(bots) == 1:
        bots *= args.players
    if len(bots) != args.players or any(name not in BOT_NAMES for name in bots):
        print(
            f"cardlogic knektpass simulate: --bots wants one bot or {args.players}, out of {', '.join(BOT_NAMES)}",
            file=sys.stderr,
        )
        return 2
    rng = random.Random(args.seed)
    deal = Deal(game, rng.randrange(args.players), rng.choice(game.deck))
    state = State.shuffled(deal, rng)
    dealt, stock = state.hands, state.stock
    views = [PlayerState(deal, p, dealt[p]) for p in range(args.players)]
    players = [make_bot(name, deal, p, dealt[p], seed=rng.randrange(2**31)) for p, name in enumerate(bots)]
    while (mover := state.to_move) is not None:
        event = state.push(players[mover].choose(views[mover]))
        for p, view in enumerate(views):
            view.push(event.seen_by(p))
    hands = {p: tuple(iter_cards(dealt[p])) for p in range(args.players)}
    sys.stdout.write(write_record(Record(deal, None, hands, list(state.history), tuple(stock))))
    print(f"# {describe_outcome(state.outcome(), game.players)}")
    return 0


def run_view(args: argparse.Namespace) -> int:
    record = _load(args.record)
    if record is None:
        return 1
    try:
        view = record.view_as(args.player)
    except RecordError as error:
        return _fail(args.record, 0, error.message)
    if args.events is not None:
        view = replace(view, events=view.events[: args.events], lines=view.lines[: args.events])
    sys.stdout.write(write_record(view))
    return 0


def run_belief(args: argparse.Namespace) -> int:
    record = _parse(args.record)
    if record is None:
        return 1
    belief = _belief(args.record, record, method=args.method, samples=args.samples, seed=args.seed, prior=args.prior)
    if belief is None:
        return 1
    marginals = belief.marginals()
    method, count, holders = marginals.method, marginals.count, marginals.holders
    table = {card: tuple(float(p) for p in row) for card, row in zip(marginals.cards, marginals.probabilities)}
    observer = None if belief.observer is None else record.deal.game.players[belief.observer]
    if args.json:
        json.dump(
            {
                "observer": observer,
                "method": method,
                "deals": None if count is None else str(count),
                "holders": list(holders),
                "cards": {str(card): dict(zip(holders, row)) for card, row in table.items()},
                "prior": belief.prior_answered,
            },
            sys.stdout,
        )
        print()
        return 0
    from cardlogic.cli.console import CommandConsole
    from cardlogic.cli.knektpass_advice import print_chances

    source = f"{how_worked_out(marginals)}; prior: {belief.prior_answered}"
    print_chances(CommandConsole(), table, holders, observer, source)
    return 0


def run_advise(args: argparse.Namespace) -> int:
    from cardlogic.cli.warmup import ensure_warm
    from cardlogic.knektpass.advice import SAMPLES as DEFAULT_SAMPLES
    from cardlogic.knektpass.advice import AdviceError, advise

    record = _parse(args.record)
    if record is None:
        return 1
    if record.observer is None:
        return _fail(args.record, 0, "advice needs the player it is for: a Me header")
    ensure_warm("knektpass")
    belief = _belief(args.record, record, prior=args.prior)
    if belief is None:
        return 1
    deal, view = record.deal, belief.view
    if view.to_move != record.observer:
        return _print_waiting(view, record.observer, args.json)
    try:
        advice = advise(belief, args.samples or DEFAULT_SAMPLES, args.seed)
    except AdviceError as error:
        return _fail(args.record, 0, str(error))
    from cardlogic.cli.knektpass_advice import as_json, print_advice

    if args.json:
        json.dump(as_json(advice, deal) | {"prior": belief.prior_answered}, sys.stdout)
        print()
        return 0
    from cardlogic.cli.console import CommandConsole

    console = CommandConsole()
    print_advice(advice, deal, belief.hand, console, belief.prior_answered)
    return 0


_STAGES = {
    "trump": "the dealer takes or leaves the trump",
    "bid": "the bids",
    "exchange": "the exchange",
    "play": "the play",
}


def _print_waiting(view: PublicState, observer: int, as_json: bool) -> int:
    """On another's turn (or once the deal is over) there is nothing to advise: say who is to move."""
    names = view.deal.game.players
    to_move = None if view.to_move is None else names[view.to_move]
    if as_json:
        json.dump({"player": names[observer], "phase": view.phase, "to_move": to_move, "options": []}, sys.stdout)
        print()
    elif to_move is None:
        print(f"The deal is over: nothing for {names[observer]} to decide.")
    else:
        stage = _STAGES[view.phase]
        print(f"{to_move} is to move ({stage}): nothing for {names[observer]} to decide until their turn.")
    return 0


def run_live(args: argparse.Namespace) -> int:
    from cardlogic.cli.live import interruptible
    from cardlogic.cli.live.knektpass import follow

    return interruptible(follow, args, "knektpass")


def run_tournament(args: argparse.Namespace) -> int:
    bots = tuple(name.strip() for name in args.bots.split(","))
    if any(name not in BOT_NAMES for name in bots):
        print(
            f"cardlogic knektpass tournament: --bots wants one bot per seat out of {', '.join(BOT_NAMES)}",
            file=sys.stderr,
        )
        return 2
    try:
        rules = Rules.parse(args.rules)
        Game(tuple(f"P{i}" for i in range(len(bots))), rules)
    except GameError as error:
        print(f"cardlogic knektpass tournament: {error}", file=sys.stderr)
        return 2
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from cardlogic.knektpass.tournament import tournament

    return play_with_progress(
        "knektpass tournament",
        ",".join(bots),
        args.games,
        args.scheduler,
        contextlib.nullcontext(),
        lambda _, advance: tournament(bots, args.games, args.seed, rules, args.jobs, advance, args.scheduler),
        lambda result: _show_tournament(result, args.json),
        (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()),
    )


def _show_tournament(result: TournamentResult, as_json: bool) -> None:
    """Print a Knektpass tournament's result as JSON or as a table."""
    from cardlogic.cli.console import CommandConsole, titled_table

    summary = result.as_json()
    if as_json:
        json.dump(summary, sys.stdout)
        print()
        return
    bots, rules = result.bots, result.rules
    out = titled_table(
        f"{','.join(bots)}: {result.games} games, seed {result.seed}, {rules}",
        ("bot", "seats", "wins", "rate", "95% interval", "fair share"),
    )
    for name, rate in summary["rates"].items():
        out.add_row(
            name,
            str(bots.count(name)),
            str(summary["wins"][name]),
            f"{rate['rate']:.1%}",
            f"{rate['low']:.1%} - {rate['high']:.1%}",
            f"{rate['share']:.1%}",
        )
    console = CommandConsole()
    console.print(out)
    console.print(f"{summary['unfinished']} unfinished; {summary['deals']:.1f} deals a game; {result.seconds:.1f} s")
