"""Run independent tasks here, in local processes or on a Dask cluster, and yield their results as they finish.

A task is ``function(item)``, with ``function`` defined at the top of a module
(so a worker process can import it) and ``item`` a picklable value. Games make
good tasks when each carries its own seed: then a result does not depend on
which process or machine ran it, nor when, and :func:`in_order` puts the results
back in the order of the items whatever the number of workers.

>>> with Workers() as workers:
...     finished = list(workers.run(abs, [-3, 1, -2]))
>>> sorted(finished), list(in_order(finished))
([(0, 3), (1, 1), (2, 2)], [3, 1, 2])

:class:`Workers` plays in this process (``jobs=1``), in ``jobs`` local
processes, or on the Dask cluster whose scheduler is at ``scheduler`` (``dask
scheduler`` and ``dask worker`` processes on any machines, each with the same
cardlogic installed: a worker whose cardlogic source differs from the client's
refuses its tasks with :class:`ClusterError`). Dask's ``distributed`` is an
optional extra, imported only for a cluster. A scheduler that goes away, or stops
answering, ends :meth:`Workers.run` with :class:`SchedulerLost` within about
:data:`SCHEDULER_SILENCE` seconds, whatever the client was doing then.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import functools
import hashlib
import heapq
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import Any, Self, TypeVar

T = TypeVar("T")
R = TypeVar("R")

CLUSTER_EXTRA = "pip install 'cardlogic[cluster]'"
"""What installs Dask's ``distributed``, which a cluster needs."""
CONNECT_TIMEOUT = 3.0
"""Seconds to wait for a scheduler to answer before :class:`ClusterError`."""
SCHEDULER_SILENCE = 20.0
"""Seconds a cluster's scheduler may leave a question unanswered before it is taken for gone
(:class:`SchedulerLost`)."""
WATCH_INTERVAL = 2.0
"""Seconds between two looks at a cluster's scheduler while no task finishes."""


class ClusterError(RuntimeError):
    """No cluster to run on: ``distributed`` is not installed, or no Dask scheduler answers at the address."""


class SchedulerLost(ClusterError):
    """The Dask scheduler went away while tasks ran: ``done`` says how far they got (``17 of 40 games``), and
    ``result`` holds what the caller made of the tasks finished before (None when it made nothing)."""

    def __init__(self, address: str, done: str, result: Any = None) -> None:
        super().__init__(f"the Dask scheduler at {address} went away after {done}")
        self.address, self.done, self.result = address, done, result


class Workers:
    """Where tasks run: this process (``jobs=1``), ``jobs`` local processes, or the Dask cluster at ``scheduler``.

    Use it as a context manager: entering starts the processes or connects to
    the scheduler (:class:`ClusterError` when ``distributed`` is missing or no
    scheduler answers within ``timeout`` seconds), leaving cancels every task
    still pending and lets the processes or the connection go.
    """

    def __init__(self, jobs: int = 1, scheduler: str | None = None, timeout: float = CONNECT_TIMEOUT) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.jobs, self.scheduler, self.timeout = jobs, scheduler, timeout
        self._executor: cf.Executor | None = None
        self._client: Any = None
        self._code = ""

    def __enter__(self) -> Self:
        if self.scheduler is not None:
            self._client = _connect(self.scheduler, self.timeout)
            self._executor = self._client.get_executor(pure=False)
            self._code = code_fingerprint()
        elif self.jobs > 1:
            self._executor = cf.ProcessPoolExecutor(max_workers=self.jobs)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._client is not None and self._executor is not None:
            # A client whose scheduler went away refuses both (ClosedClientError, or a timeout): nothing is left there
            with contextlib.suppress(Exception):
                self._executor.shutdown(wait=False)  # cancels what is still pending on the cluster
            with contextlib.suppress(Exception):
                self._client.close()  # gives up after twice the connection timeout
        elif self._executor is not None:
            self._executor.shutdown(cancel_futures=True)  # waits for the running tasks: at most one a process
        self._executor = self._client = None

    @property
    def slots(self) -> int:
        """How many tasks can run at once now: the processes, or the cluster's worker threads (at least 1; a
        scheduler silent for :data:`SCHEDULER_SILENCE` seconds raises ``TimeoutError``)."""
        if self._client is not None:
            return max(1, sum(self._client.nthreads(callback_timeout=SCHEDULER_SILENCE).values()))
        return self.jobs

    def run(self, function: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[int, R]]:
        """``(i, function(item_i))`` for every item, as each task finishes.

        Items are drawn lazily, keeping about two tasks per slot in flight, so
        ``items`` may be endless: stop iterating (or leave the ``with`` block)
        and the pending tasks are cancelled. A task's exception is raised here;
        a cluster whose scheduler goes away raises :class:`SchedulerLost`.
        """
        if self._executor is None:
            for index, item in enumerate(items):
                yield index, function(item)
            return
        source = enumerate(items)
        pending: dict[cf.Future, int] = {}
        exhausted, finished = False, 0
        watch = None if self._client is None else WATCH_INTERVAL  # a local process pool cannot go away
        try:
            while True:
                with self._watching(finished):
                    limit = 2 * self.slots  # asked again each time: workers may come and go
                while not exhausted and len(pending) < limit:
                    step = next(source, None)
                    if step is None:
                        exhausted = True
                    else:
                        pending[self._submit(function, step[1], finished)] = step[0]
                if not pending:
                    return
                done, _ = cf.wait(pending, timeout=watch, return_when=cf.FIRST_COMPLETED)
                for future in sorted(done, key=pending.__getitem__):
                    yield pending.pop(future), self._result(future, finished)
                    finished += 1
        finally:
            if self._connected():  # a client that lost its scheduler refuses to cancel, with an error
                for future in pending:
                    future.cancel()

    def _submit(self, function: Callable[[T], R], item: T, finished: int) -> cf.Future:
        assert self._executor is not None
        if self._client is None:
            return self._executor.submit(function, item)
        with self._watching(finished):  # a worker elsewhere checks that it runs this code
            return self._executor.submit(_checked, (self._code, function, item))

    def _connected(self) -> bool:
        """Whether there is no cluster, or the client is still connected to its scheduler."""
        return self._client is None or self._client.status == "running"

    @contextlib.contextmanager
    def _watching(self, finished: int) -> Iterator[None]:
        """Run a block that talks to the cluster's scheduler; raise :class:`SchedulerLost` if the client has lost
        it, before the block or in it (the block's error then being a failed or unanswered connection, or the
        client refusing work once closed).

        Dask's client, once it loses its scheduler, cancels the futures it has, tries to reconnect for
        ``timeout`` seconds, then closes; a task submitted meanwhile stays pending forever, so :meth:`run`
        looks here each time it has waited :data:`WATCH_INTERVAL` seconds for nothing."""
        if self._client is None:
            yield
            return
        if not self._connected():
            raise self._lost(finished)
        try:
            yield
        except (OSError, asyncio.CancelledError) as error:  # OSError: CommClosedError, TimeoutError, refused
            raise self._lost(finished) from error
        except Exception:
            if self._connected():
                raise
            raise self._lost(finished) from None

    def _lost(self, finished: int) -> SchedulerLost:
        return SchedulerLost(str(self.scheduler), f"{finished} finished tasks")

    def _result(self, future: cf.Future, finished: int) -> Any:
        """``future``'s result; a cluster's future cancelled under us means the scheduler went away (Dask cancels
        every future of a client that lost it, with asyncio's CancelledError, a BaseException)."""
        try:
            return future.result()
        except (cf.CancelledError, asyncio.CancelledError):
            if self._client is None:
                raise
            raise self._lost(finished) from None


def in_order(finished: Iterable[tuple[int, R]]) -> Generator[R]:
    """The results of ``(index, result)`` pairs (indices 0, 1, 2, ... in any order) in index order, each as soon as
    every earlier one has arrived."""
    waiting: list[tuple[int, int, R]] = []
    expected = 0
    for arrival, (index, result) in enumerate(finished):
        heapq.heappush(waiting, (index, arrival, result))
        while waiting and waiting[0][0] == expected:
            yield heapq.heappop(waiting)[2]
            expected += 1


@functools.cache
def code_fingerprint() -> str:
    """A hash of the cardlogic source this process runs: every module's path and text."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _checked(task: tuple[str, Callable[[T], R], T]) -> R:
    """Run a task on a cluster worker, after checking that the worker runs the client's cardlogic code."""
    code, function, item = task
    if code_fingerprint() != code:
        raise ClusterError(
            f"a Dask worker runs other cardlogic code than this client (source {code_fingerprint()}, "
            f"not {code}): install the same version on every machine"
        )
    return function(item)


def _connect(address: str, timeout: float) -> Any:
    """A Dask client connected to the scheduler at ``address``, or :class:`ClusterError` saying why not.

    A bare connection comes first: a ``Client`` that fails half-built lingers
    until the garbage collector closes it, which can deadlock the next client
    being started, so one is made only once the scheduler has answered.
    """
    try:
        from distributed import Client
        from distributed.security import Security
    except ImportError:
        raise ClusterError(f"a Dask cluster needs Dask's distributed: {CLUSTER_EXTRA}") from None
    connection = Security().get_connection_args("client")  # TLS from Dask's settings, if any
    if address.startswith("tls://") and not connection.get("ssl_context"):
        raise ClusterError(
            f"{address} needs TLS certificates: set DASK_DISTRIBUTED__COMM__TLS__CA_FILE, "
            "..._CLIENT__CERT and ..._CLIENT__KEY (or the same keys in Dask's configuration)"
        )
    try:
        asyncio.run(_handshake(address, timeout, connection))
    except ValueError as error:  # a malformed address
        raise ClusterError(f"{address!r} is not a Dask scheduler address: {error}") from None
    except OSError:  # refused or timed out
        raise ClusterError(f"no Dask scheduler answers at {address} (waited {timeout:g} s)") from None
    except Exception as error:  # noqa: BLE001 -- something else answered
        raise ClusterError(
            f"something answered at {address}, but not as a Dask scheduler ({type(error).__name__}: {error})"
        ) from None
    return Client(address, timeout=timeout, set_as_default=False)


async def _handshake(address: str, timeout: float, connection: dict) -> None:
    """Connect to ``address`` as Dask does (retrying until ``timeout``), then hang up."""
    from distributed.comm import connect

    comm = await connect(address, timeout=timeout, **connection)
    await comm.close()
