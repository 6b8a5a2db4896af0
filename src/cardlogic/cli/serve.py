"""``cardlogic serve [RECORD]``: the game at the table on a phone, as a local web page with advice.

The page follows one game of Literature or a Knektpass match, set up on the page or read from RECORD (a record
or an autosave of ``cardlogic live`` or ``cardlogic knektpass live``: the game goes on where it stopped, in the
same autosave file; a record with a ``Trump:`` header is Knektpass). It listens on
127.0.0.1 unless ``--lan`` is given, and only answers requests carrying the secret token of the URL it
prints.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import re
import secrets
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cardlogic.cli import stopped_by_sigterm_as_by_ctrl_c
from cardlogic.cli.common import SEED, add_deals_argument, add_prior_argument, at_least, read_text, report
from cardlogic.files import NameLock, WriteRefusedError, check_writable
from cardlogic.inference import InferenceError
from cardlogic.knektpass.match_record import MatchRecord, read_match
from cardlogic.literature import Record, RecordError, read_record
from cardlogic.literature.belief import FOLLOWED_DEALS

if TYPE_CHECKING:
    from cardlogic.table.core import TableGame

KNEKTPASS = re.compile(r"^\s*trump\s*:", re.IGNORECASE | re.MULTILINE)
"""A ``Trump:`` header, which only a Knektpass record has."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="a local web page for the phone at the table (Literature or Knektpass): set-up, events by taps, advice",
        description="Serve the game at the table as a web page for a phone: set up a Literature game or a "
        "Knektpass match on the page (or start from RECORD or an autosave of cardlogic live or cardlogic "
        "knektpass live), enter every event by taps, see the advice whenever you (or your team) are to move. "
        "Every accepted event is autosaved before the page shows it. The printed URL carries a secret token "
        "that every request needs.",
    )
    parser.add_argument("record", nargs="?", help="a record or autosave to go on with; left out, set up on the page")
    parser.add_argument("--port", type=at_least(0, "a port number", 65535), default=8765, help="port (default 8765)")
    parser.add_argument(
        "--lan",
        action="store_true",
        help="listen on this machine's network address, for a phone on the same Wi-Fi (prints a QR code); "
        "anyone on that network who has the URL can see and change the game",
    )
    parser.add_argument(
        "--autosave",
        metavar="FILE",
        help="where every change is saved (default as for cardlogic live: RECORD itself when it is an autosave, "
        "else RECORD's name with .live.txt beside it, or game-DATE-TIME.live.txt in the working folder)",
    )
    parser.add_argument(
        "--token",
        help="the secret the URL carries (default: a new random one each start; give the same one to keep a "
        "phone's open page working across restarts)",
    )
    parser.add_argument("--method", choices=("auto", "exact", "sample"), default="auto", help="inference backend")
    parser.add_argument(
        "--samples",
        type=at_least(1, "a positive number of deals"),
        help="Literature: deals to draw when sampling (default 20000); Knektpass: deals solved per decision "
        "(default 32)",
    )
    parser.add_argument("--seed", type=SEED, default=0, help="random seed for sampling (default 0)")
    add_prior_argument(
        parser,
        default=None,
        players="how the players chose, docs/beliefs.md and docs/knektpass.md",
        default_said="players for Literature, rules for Knektpass (as live and knektpass live)",
    )
    add_deals_argument(parser, FOLLOWED_DEALS, "Literature: ")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with stopped_by_sigterm_as_by_ctrl_c():  # so that the locks below are let go on SIGTERM too
        return _serve(args)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from cardlogic.table.autosave import claim_autosave, moved_note, start_autosave
    from cardlogic.table.knektpass import LiveMatch
    from cardlogic.table.literature import LiveGame
    from cardlogic.web.app import create_app
    from cardlogic.web.companion import Companion

    if args.token is not None and not re.fullmatch(r"[A-Za-z0-9_-]{16,}", args.token):
        print("serve: --token must be 16 or more letters, digits, - or _: it is the page's only lock", file=sys.stderr)
        return 1
    resumed = None if args.record is None else Path(args.record)
    named = None if args.autosave is None else Path(args.autosave)
    stem = Path(f"game-{datetime.datetime.now():%Y%m%d-%H%M}")
    locks: list[NameLock] = []
    if named is not None and args.record is None:
        # a new game owns no file yet: whatever is there is refused now, before the set-up on the page, not after it
        try:
            check_writable(
                named,
                exists_hint=f"a new game is never saved over a file (to go on with its game: cardlogic serve {named})",
            )
        except WriteRefusedError as error:
            print(f"cardlogic serve: {error}", file=sys.stderr)
            return 1

    def open_game(record: Record | MatchRecord, text: str | None = None) -> TableGame:
        """The game of ``record`` (``text`` when read from RECORD), autosaving to a name claimed for it."""
        options = {"method": args.method, "seed": args.seed, "text": text}
        if args.samples is not None:
            options["samples"] = args.samples
        if args.prior is not None:
            options["prior"] = args.prior
        game: TableGame
        if isinstance(record, MatchRecord):
            game = LiveMatch(record, **options)
        else:
            game = LiveGame(record, deals=args.deals, **options)
        path, lock = claim_autosave(resumed if text is not None else None, named, game.is_own, stem=stem)
        try:
            start_autosave(game, path, resumed if text is not None else None)
        except OSError:
            lock.release()
            raise
        locks.append(lock)
        return game

    game = None
    if args.record is not None:
        text = read_text(args.record)
        if text is None:
            return 1
        try:
            read = read_match if KNEKTPASS.search(text) else read_record
            game = open_game(read(text, source=args.record), text)
        except RecordError as error:  # Literature's and Knektpass's are one class
            return report(args.record, error)
        except WriteRefusedError as error:  # it names the autosave: the record is not at fault
            print(f"cardlogic serve: {error}", file=sys.stderr)
            return 1
        except (InferenceError, OSError) as error:
            print(f"{args.record}: {getattr(error, 'strerror', None) or error}", file=sys.stderr)
            return 1
    try:
        host = _lan_address() if args.lan else "127.0.0.1"
        try:
            listening = socket.create_server((host, args.port))
        except OSError as error:
            print(f"serve: cannot listen on {host}:{args.port}: {error.strerror or error}", file=sys.stderr)
            return 1
        token = args.token or secrets.token_urlsafe(18)
        url = f"http://{host}:{listening.getsockname()[1]}/?token={token}"
        app = create_app(Companion(open_game, game), token)
        print(f"cardlogic serve: open {url}")
        where = f"Autosaving to {game.autosave}" if game else "The game is set up on the page, then autosaved"
        print(f"{where}. Ctrl-C stops the server; the game stays in its autosave.")
        moved = None if game is None or game.autosave is None else moved_note(resumed, Path(game.autosave))
        if moved is not None:
            print(moved)
        if args.lan:
            import segno

            print("Anyone on this network with the URL can see and change the game. Scan it with the phone:")
            segno.make(url, error="l").terminal(compact=True)
        sys.stdout.flush()
        config = uvicorn.Config(app, access_log=False, log_level="warning", timeout_graceful_shutdown=1)
        # Ctrl-C or SIGTERM is how a server stops: uvicorn shuts down, then raises the signal again
        with contextlib.suppress(KeyboardInterrupt):
            uvicorn.Server(config).run(sockets=[listening])
        return 0
    finally:
        for lock in locks:
            lock.release()


def _lan_address() -> str:
    """This machine's address on its network (the one a route out leaves from; no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostbyname(socket.gethostname())
