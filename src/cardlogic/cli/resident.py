"""``cardlogic resident``: a background server that keeps numba and the solver's kernels loaded, so that the one-shot
commands that need them (:data:`RESIDENT_COMMANDS`) answer in a fraction of a second instead of loading them anew.

Loading numba and the first cached kernel takes most of a second before a command can begin. The client side of
this module (:func:`forward`) imports nothing heavy: when a server of this very installation listens on a Unix
socket in a private directory (``$XDG_RUNTIME_DIR/cardlogic``, else ``cardlogic-UID`` in the temporary directory,
owned by the user, mode 0700), it sends the command's arguments, working directory and environment with its
standard input, output and error (their file descriptors), and the server forks a child that runs the command
writing straight to them. The socket's name is a digest of cardlogic's version, its files' paths and times, the
Python and the numba settings (:func:`installation_key`), so an edited or upgraded installation never reaches a
server running the old code. Without a server, or when anything fails, the command runs in the client's own
process exactly as it would without any; a server is then started in the background for next time. The server
exits after :data:`IDLE_SECONDS` without a request; ``cardlogic resident stop`` stops it, and
``CARDLOGIC_RESIDENT=0`` turns the whole mechanism off.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import socket
import stat
import struct
import sys
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from cardlogic import __version__

RESIDENT_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("advise",),
    ("belief",),
    ("check",),
    ("knektpass", "advise"),
    ("knektpass", "belief"),
    ("knektpass", "check"),
)
"""The commands a server runs: the one-shot ones that load the solver's kernels (never a long-running one)."""
OFF_SWITCH = "CARDLOGIC_RESIDENT"
OFF_VALUES = ("0", "off", "no", "false")
IDLE_SECONDS = 15 * 60
"""A server exits after this long without a request."""
_CHECK_SECONDS = 30.0
"""How often an idle server looks whether its installation changed (then it exits: no client can reach it)."""
_START_SECONDS = 600
"""The longest ``cardlogic resident start`` waits for the server to load (compiling into an empty numba cache)."""
_ANSWER_SECONDS = 30.0
"""The longest a client waits for a server to start its command (then it runs the command itself)."""
_HEADER = struct.Struct("!I")
_MAX_REQUEST = 1 << 22


class _Refused(Exception):
    """The server would not run the request (nothing ran: the client runs the command itself)."""


# -- where a server listens ----------------------------------------------------------------------------------------


def enabled() -> bool:
    """Whether resident servers are on: ``CARDLOGIC_RESIDENT`` is not 0 or off, and the platform passes file
    descriptors over Unix sockets and forks."""
    return (
        os.environ.get(OFF_SWITCH, "").strip().lower() not in OFF_VALUES
        and hasattr(socket, "AF_UNIX")
        and hasattr(socket, "send_fds")
        and hasattr(os, "fork")
    )


def is_resident(argv: Sequence[str]) -> bool:
    """Whether ``argv`` (without the program name) is one of the commands a server runs."""
    return any(tuple(argv[: len(command)]) == command for command in RESIDENT_COMMANDS)


def installation_key() -> str:
    """A digest of everything the server's code depends on: cardlogic's version and files (paths, sizes and
    modification times), the Python running it, where numba and numpy are installed and when they were, and the
    ``NUMBA_`` settings (numba reads them once, at import)."""
    import hashlib
    import importlib.util

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    digest = hashlib.sha256(f"{__version__}\0{sys.executable}\0{sys.version}\0{package}".encode())
    for root, directories, files in os.walk(package):
        directories[:] = sorted(d for d in directories if d != "__pycache__")
        for name in sorted(files):
            info = os.stat(os.path.join(root, name))
            digest.update(f"\0{root}/{name}\0{info.st_size}\0{info.st_mtime_ns}".encode())
    for module in ("numba", "numpy"):
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        when = os.stat(origin).st_mtime_ns if origin else 0
        digest.update(f"\0{origin}\0{when}".encode())
    for name in sorted(n for n in os.environ if n.startswith("NUMBA_")):
        digest.update(f"\0{name}={os.environ[name]}".encode())
    return digest.hexdigest()[:20]


def directory() -> str:
    """The private directory the servers' sockets are in (which may not exist yet)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        return os.path.join(runtime, "cardlogic")
    temporary = os.environ.get("TMPDIR", "")
    base = temporary if temporary and os.path.isabs(temporary) and os.path.isdir(temporary) else "/tmp"
    return os.path.join(base, f"cardlogic-{os.getuid()}")


def is_private(path: str) -> bool:
    """Whether ``path`` is a directory (not a link) owned by this user that nobody else may enter."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077


def _socket_path(key: str) -> str:
    return os.path.join(directory(), f"{key}.sock")


def _lock_path(key: str) -> str:
    return os.path.join(directory(), f"{key}.lock")


# -- the command ---------------------------------------------------------------------------------------------------


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "resident",
        help="the background server that keeps the solver loaded for advise, belief and check",
        description="advise, belief and check (of both games) start in a fraction of a second when a resident "
        "server keeps numba and the solver's kernels loaded. The first such command starts one in the background; "
        f"it exits after {IDLE_SECONDS // 60} minutes without a request. {OFF_SWITCH}=0 turns it off.",
    )
    actions = parser.add_subparsers(dest="resident_command", required=True, metavar="ACTION")
    start = actions.add_parser("start", help="start this installation's server and wait until it answers")
    start.add_argument(
        "--idle",
        type=float,
        default=IDLE_SECONDS,
        metavar="SECONDS",
        help=f"exit after this long without a request (default {IDLE_SECONDS})",
    )
    start.set_defaults(handler=run_start)
    actions.add_parser("status", help="whether this installation's server runs").set_defaults(handler=run_status)
    actions.add_parser("stop", help="stop every resident server of this user").set_defaults(handler=run_stop)


def run_start(args: argparse.Namespace) -> int:
    if not enabled():
        print(f"Resident servers are off ({OFF_SWITCH}={os.environ.get(OFF_SWITCH, '')}).", file=sys.stderr)
        return 1
    if _ask(_socket_path(installation_key()), {"control": "status"}) is None:
        start_in_background(args.idle)
        started = time.monotonic()
        while _ask(_socket_path(installation_key()), {"control": "status"}) is None:
            waited = time.monotonic() - started
            if waited > _START_SECONDS or (waited > 10 and not _is_locked(installation_key())):
                print("cardlogic: the resident server did not start", file=sys.stderr)
                return 1
            time.sleep(0.1)
    return run_status(args)


def run_status(args: argparse.Namespace) -> int:
    answer = _ask(_socket_path(installation_key()), {"control": "status"}) if is_private(directory()) else None
    if answer is None:
        print("No resident server of this installation runs.")
    else:
        _, pid, _, idle = answer.split()[1:5]
        print(f"The resident server runs (pid {pid}, idle for {idle} s).")
    return 0


def run_stop(args: argparse.Namespace) -> int:
    stopped = 0
    if is_private(directory()):
        for name in sorted(os.listdir(directory())):
            if name.endswith(".sock") and _ask(os.path.join(directory(), name), {"control": "stop"}) == "stopped":
                stopped += 1
    print(f"Stopped {stopped} resident server{'' if stopped == 1 else 's'}.")
    return 0


# -- the client ----------------------------------------------------------------------------------------------------


def forward(argv: Sequence[str]) -> int | None:
    """Run ``cardlogic ARGV`` in this installation's server, if one answers, and return its exit code; None when the
    command is not one a server runs, or no server ran it (the caller then runs it itself).

    Ctrl-C, a hang-up and a termination request are passed on to the command (one that comes before it started,
    once it starts; if it never does, Ctrl-C raises KeyboardInterrupt here). Should the server's process end before
    the command did, this says so on standard error and returns None: the command runs again here.
    """
    if not is_resident(argv) or not enabled() or not is_private(directory()):
        return None
    relay = _Relay()
    try:
        previous = {sig: signal.signal(sig, relay.handle) for sig in _RELAYED}
    except ValueError:  # not the main thread, where signals arrive
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(_ANSWER_SECONDS)
            connection.connect(_socket_path(installation_key()))
            _send(connection, _request(argv))
            return _await_exit(connection, relay)
    except (OSError, ValueError, _Refused):
        if relay.signals:
            raise KeyboardInterrupt from None  # nothing ran: stopped as the command would have been
        return None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


_RELAYED = (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)
"""The signals the client passes on to the command it waits for."""


class _Relay:
    """The signals that reached the client, passed on to the command once its pid is known. A handler that does not
    raise lets the socket's reads resume where they were (a KeyboardInterrupt could lose what one had read)."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.signals: list[int] = []

    def handle(self, signum: int, _frame: object) -> None:
        self.signals.append(signum)
        self._send(signum)

    def start(self, pid: int) -> None:
        self.pid = pid
        for signum in self.signals:
            self._send(signum)

    def _send(self, signum: int) -> None:
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)


def _request(argv: Sequence[str]) -> dict[str, Any]:
    streams = [sys.stdin, sys.stdout, sys.stderr]
    return {
        "argv": list(argv),
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "streams": [[getattr(s, "encoding", None), getattr(s, "errors", None)] for s in streams],
    }


def _send(connection: socket.socket, request: dict[str, Any]) -> None:
    body = json.dumps(request).encode()
    fds = [0, 1, 2] if "argv" in request else []
    socket.send_fds(connection, [_HEADER.pack(len(body)) + body], fds)


def _await_exit(connection: socket.socket, relay: _Relay) -> int | None:
    """Read the command's pid, then its exit code."""
    lines = _Lines(connection)
    first = lines.next()
    if first is None or not first.startswith("pid "):
        raise _Refused(first)
    relay.start(int(first.split()[1]))
    connection.settimeout(None)  # the command takes as long as it takes
    last = lines.next()
    if last is not None and last.startswith("exit "):
        return int(last.split()[1])
    if relay.signals:
        return 128 + relay.signals[-1]
    print("cardlogic: the resident server's process ended before the command; running it here", file=sys.stderr)
    return None


class _Lines:
    """The lines the server sends, read as they arrive."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        self.pending = b""

    def next(self) -> str | None:
        """The next line, or None at the end."""
        while b"\n" not in self.pending:
            chunk = self.connection.recv(4096)
            if not chunk:
                return None
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode()


def start_in_background(idle: float = IDLE_SECONDS) -> None:
    """Start this installation's server for the next command, detached (it exits after ``idle`` seconds without a
    request), unless resident servers are off or one is already running or starting."""
    if not enabled() or _is_locked(installation_key()):
        return
    import subprocess

    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": package_parent + (os.pathsep + path if path else "")}
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-c", f"from cardlogic.cli.resident import serve; raise SystemExit(serve({idle!r}))"],
            cwd="/",
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )


def _is_locked(key: str) -> bool:
    """Whether a server of ``key`` holds its lock (it runs or is loading)."""
    import fcntl

    try:
        with open(_lock_path(key), "rb") as lock:
            fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def _ask(path: str, request: dict[str, Any]) -> str | None:
    """Send a control request to the server at ``path``; its one-line answer, or None when none answers."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(5)
            connection.connect(path)
            _send(connection, request)
            return _Lines(connection).next()
    except (OSError, ValueError):
        return None


# -- the server ----------------------------------------------------------------------------------------------------


def serve(idle: float = IDLE_SECONDS) -> int:
    """Run this installation's server until ``idle`` seconds pass without a request, it is stopped, or the
    installation changes; 0 at once when another server of it runs or is starting."""
    import fcntl
    import gc
    import select
    import threading

    if not enabled():
        return 1
    with contextlib.suppress(FileExistsError):
        os.mkdir(directory(), 0o700)
    if not is_private(directory()):
        return 1
    key = installation_key()
    with open(_lock_path(key), "ab") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0
        _preload()
        gc.freeze()  # a command's collections then leave the loaded objects, and their shared pages, alone
        if installation_key() != key:
            return 0
        path = _socket_path(key)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a dead server's: the lock says none of this key runs
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        os.chmod(path, 0o600)
        listener.listen(16)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGCHLD, lambda _signum, _frame: _reap())  # no ended command waits as a zombie
        last = checked = time.monotonic()
        try:
            while True:
                _reap()
                now = time.monotonic()
                if now - last >= idle:
                    return 0
                if now - checked >= _CHECK_SECONDS:
                    checked = now
                    if installation_key() != key:
                        return 0
                ready, _, _ = select.select([listener], [], [], min(_CHECK_SECONDS, idle - (now - last)))
                if not ready:
                    continue
                connection, _ = listener.accept()
                if _handle(connection, listener, lock, now - last):
                    return 0
                last = time.monotonic()
        finally:
            os.unlink(path)
            listener.close()


def _handle(connection: socket.socket, listener: socket.socket, lock: Any, idle: float) -> bool:
    """Answer one connection: fork a child for a command, answer a control request; True for ``stop``."""
    fds: list[int] = []
    with connection:
        try:
            connection.settimeout(5)
            if not _same_user(connection):
                return False
            request, fds = _receive(connection)
            if "argv" in request and is_resident(request["argv"]) and len(fds) == 3 and _single_threaded():
                if os.fork() == 0:
                    listener.close()
                    lock.close()
                    _run_child(connection, fds, request)
                return False
            if request.get("control") == "status":
                connection.sendall(f"running pid {os.getpid()} idle {idle:.0f}\n".encode())
            elif request.get("control") == "stop":
                connection.sendall(b"stopped\n")
                return True
        except (OSError, ValueError, KeyError, TypeError):
            pass
        finally:
            for fd in fds:
                os.close(fd)
    return False


def _single_threaded() -> bool:
    """Whether this process runs one thread, as forking needs (a thread's locks would stay held in the child)."""
    import threading

    return threading.active_count() == 1


def _same_user(connection: socket.socket) -> bool:
    """Whether the peer is a process of this user (Linux tells; elsewhere the private directory must do)."""
    if not hasattr(socket, "SO_PEERCRED"):
        return True
    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return uid == os.getuid()


def _receive(connection: socket.socket) -> tuple[dict[str, Any], list[int]]:
    data, fds, _flags, _address = socket.recv_fds(connection, 1 << 16, 3)
    if len(data) < _HEADER.size:
        raise ValueError("short request")
    (length,) = _HEADER.unpack_from(data)
    if length > _MAX_REQUEST:
        raise ValueError("request too long")
    body = data[_HEADER.size :]
    while len(body) < length:
        chunk = connection.recv(length - len(body))
        if not chunk:
            raise ValueError("truncated request")
        body += chunk
    request = json.loads(body)
    if not isinstance(request, dict):
        raise ValueError("not a request")
    return request, list(fds)


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _run_child(connection: socket.socket, fds: list[int], request: dict[str, Any]) -> NoReturn:
    """In the forked child: become the client's process (its streams, directory and environment), run the
    command, send its exit code, and end. A failure before the pid is sent refuses the request (the client then
    runs the command itself)."""
    from cardlogic.cli import INTERRUPTED, main

    code, started = 1, False
    try:
        argv = [str(a) for a in request["argv"]]
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        os.chdir(request["cwd"])
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in request["env"].items()})
        _reopen_streams(request["streams"])
        sys.argv = ["cardlogic", *argv]
        connection.settimeout(None)
        connection.sendall(f"pid {os.getpid()}\n".encode())
        started = True  # Ctrl-C can come from here on (the client knows the pid)
        code = main(argv)
    except SystemExit as stop:
        code = _exit_code(stop)
    except KeyboardInterrupt:
        print("\ncardlogic: interrupted", file=sys.stderr)
        code = INTERRUPTED
    except Exception:  # noqa: BLE001 -- reported as Python reports an error nothing caught
        if started:
            sys.excepthook(*sys.exc_info())
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        with contextlib.suppress(OSError):
            connection.sendall(f"exit {code}\n".encode())  # before the pid: a refusal
        os._exit(code)


def _exit_code(stop: SystemExit) -> int:
    """The exit code Python gives a process that raised ``stop``."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=sys.stderr)
    return 1


def _reopen_streams(streams: list[list[str | None]]) -> None:
    """Standard input, output and error on the client's file descriptors, with its encodings, buffered as Python
    buffers them (output line by line on a terminal, errors always)."""
    (in_encoding, in_errors), (out_encoding, out_errors), (err_encoding, err_errors) = streams
    sys.stdin = _text_stream(0, in_encoding, in_errors)
    sys.stdout = _text_stream(1, out_encoding, out_errors, line_buffering=os.isatty(1))
    sys.stderr = _text_stream(2, err_encoding, err_errors or "backslashreplace", line_buffering=True)


def _text_stream(fd: int, encoding: str | None, errors: str | None, line_buffering: bool = False) -> io.TextIOWrapper:
    raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
    buffered = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
    newline = None if fd == 0 else "\n"
    return io.TextIOWrapper(buffered, encoding, errors, newline=newline, line_buffering=line_buffering)


def _preload() -> None:
    """Load numba and every kernel the resident commands reach, by running each of them once on small games (6 and
    12 players of Literature, 3 and 5 of Knektpass, at the deal and later) in a temporary directory, their output
    discarded."""
    import random
    import tempfile

    from cardlogic.cards import iter_cards
    from cardlogic.cli import main
    from cardlogic.knektpass import Deal
    from cardlogic.knektpass import Game as KnektpassGame
    from cardlogic.knektpass import Record as KnektpassRecord
    from cardlogic.knektpass import State as KnektpassState
    from cardlogic.knektpass import write_record as write_knektpass
    from cardlogic.literature import Game, Record, play_random_game, write_record

    with tempfile.TemporaryDirectory(prefix="cardlogic-resident-") as folder, open(os.devnull, "w") as sink:
        commands = []
        for players in (6, 12):
            game = Game(tuple(f"P{k}" for k in range(players)), dealer=0)
            hands, events = play_random_game(game, seed=players)
            dealt = {p: tuple(iter_cards(hand)) for p, hand in enumerate(hands)}
            for cut in (0, len(events) // 4):
                full = Record(game, 0, dealt, events[:cut])
                mover = full.replay().to_move
                path = os.path.join(folder, f"literature-{players}-{cut}.txt")
                with open(path, "w", encoding="utf-8") as out:
                    out.write(write_record(full.view_as(0 if mover is None else mover)))
                commands += [["advise", path], ["advise", "--json", path], ["belief", path], ["check", path]]
                commands.append(["belief", "--method", "sample", "--json", path])
        for players in (3, 5):  # at the deal, and on the mover's turn at a third and two thirds of a random deal
            rng = random.Random(players)
            knektpass_game = KnektpassGame(tuple(f"P{k}" for k in range(players)))
            deal = Deal(knektpass_game, dealer=0, turned=rng.choice(knektpass_game.deck))
            state = KnektpassState.shuffled(deal, rng)
            dealt_masks, stock, movers = state.hands, tuple(state.stock), []
            while (mover := state.to_move) is not None:
                movers.append(mover)
                state.push(rng.choice(state.legal_events()))
            cards = {p: tuple(iter_cards(dealt_masks[p])) for p in range(players)}
            history = list(state.history)
            for cut in (0, len(history) // 3, 2 * len(history) // 3):
                deal_record = KnektpassRecord(deal, None, cards, history[:cut], stock)
                path = os.path.join(folder, f"knektpass-{players}-{cut}.txt")
                with open(path, "w", encoding="utf-8") as out:
                    out.write(write_knektpass(deal_record.view_as(movers[cut])))
                commands += [["knektpass", command, path] for command in ("advise", "belief", "check")]
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            for argv in commands:
                with contextlib.suppress(Exception):
                    main(argv)
