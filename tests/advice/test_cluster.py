"""Tournaments and SPRTs on a real Dask cluster (a ``dask scheduler`` and two ``dask worker`` processes on this
machine) give exactly the local results; an address where no scheduler answers is a quick one-line error."""

from __future__ import annotations

import contextlib
import faulthandler
import itertools
import json
import logging
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlogic import dispatch
from cardlogic.cli import main
from cardlogic.cli.common import cluster_logs_silenced
from cardlogic.dispatch import ClusterError, SchedulerLost, Workers
from cardlogic.literature.tournament import Match, tournament
from cardlogic.rating import SPRT

UNREACHABLE = "tcp://127.0.0.1:9"  # the discard port: nothing listens there
WATCHDOG = 180
"""Seconds after which a test here that still runs is taken for hung: every thread's stack is printed and the run
ends (exit code 1), rather than waiting for CI's time limit."""


@pytest.fixture(autouse=True)
def watchdog():
    faulthandler.dump_traceback_later(WATCHDOG, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def _start(args: list[str], directory: Path, name: str) -> subprocess.Popen:
    log = open(directory / f"{name}.log", "w")
    return subprocess.Popen([sys.executable, "-m", *args], stdout=log, stderr=subprocess.STDOUT)


@contextlib.contextmanager
def cluster(directory: Path, workers: int) -> Iterator[tuple[str, list[subprocess.Popen]]]:
    """A scheduler with ``workers`` single-threaded worker processes: its address and the processes, scheduler
    first; every process still running is stopped on leaving."""
    info = directory / "scheduler.json"
    processes = [
        _start(
            [
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(info),
            ],
            directory,
            "scheduler",
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            assert time.monotonic() < deadline, (directory / "scheduler.log").read_text()
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for k in range(workers):
            processes.append(
                _start(
                    [
                        "distributed.cli.dask_worker",
                        address,
                        "--nthreads",
                        "1",
                        "--no-nanny",
                        "--no-dashboard",
                        "--death-timeout",  # a worker whose scheduler is gone ends by itself, should this run end first
                        "30",
                        "--local-directory",
                        str(directory),
                    ],
                    directory,
                    f"worker{k}",
                )
            )
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)
        yield address, processes
    finally:
        for process in reversed(processes):  # the workers first, so none waits for a scheduler gone
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """The address of a scheduler with two single-threaded worker processes, stopped after the module's tests."""
    with cluster(tmp_path_factory.mktemp("dask"), 2) as (address, _):
        yield address


def test_workers_run_every_task_on_the_cluster(scheduler):
    with Workers(scheduler=scheduler) as workers:
        assert workers.slots == 2
        finished = dict(workers.run(abs, range(-5, 5)))
    assert finished == {i: abs(i - 5) for i in range(10)}


def test_a_cluster_tournament_is_the_local_one(scheduler):
    for bots in (("counting", "random"), ("omniscient", "counting")):
        local = tournament(bots, players=4, games=6, seed=4)
        seen = []
        remote = tournament(bots, players=4, games=6, seed=4, scheduler=scheduler, progress=seen.append)
        assert remote.results == local.results and seen == [1] * 6


def test_a_cluster_sprt_stops_where_the_local_one_does(scheduler):
    match, test = Match(("counting", "random"), players=4, seed=2), SPRT(0, 200)
    with Workers() as here:
        local = match.sprt(test, here, max_games=60)
    with Workers(scheduler=scheduler) as cluster:
        remote = match.sprt(test, cluster, max_games=60)
    assert local[0] == remote[0] and local[1].results == remote[1].results
    assert local[0].decision == "H1" and local[1].games == 2 * len(local[0].pairs)


def test_the_tournament_command_on_the_cluster(scheduler, capsys):
    argv = ["tournament", "--bots", "counting,random", "--players", "4", "--games", "4", "--seed", "5", "--json"]
    assert main(argv + ["--jobs", "1"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(argv + ["--scheduler", scheduler]) == 0
    remote = json.loads(capsys.readouterr().out)
    del local["seconds"], remote["seconds"]
    assert remote == local


def test_no_scheduler_is_a_quick_error():
    start = time.monotonic()
    with pytest.raises(ClusterError, match=r"no Dask scheduler answers at tcp://127\.0\.0\.1:9"):
        tournament(("counting", "random"), players=4, games=2, scheduler=UNREACHABLE)
    assert time.monotonic() - start < 10


def test_the_command_says_so_in_one_line(capsys):
    code = main(
        ["tournament", "--bots", "counting,random", "--players", "4", "--games", "2", "--scheduler", UNREACHABLE]
    )
    out, err = capsys.readouterr()
    assert code == 1 and not out
    assert err.count("\n") == 1 and err.startswith("cardlogic tournament: no Dask scheduler answers")
    code = main(["sprt", "--bots", "counting,random", "--scheduler", "not an address::"])
    out, err = capsys.readouterr()
    assert code == 1 and err.count("\n") == 1 and "cardlogic sprt:" in err


def test_without_distributed_the_cluster_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    with pytest.raises(ClusterError, match=r"pip install 'cardlogic\[cluster\]'"):
        Workers(scheduler=UNREACHABLE).__enter__()


def test_tls_without_certificates_says_what_is_missing():
    with pytest.raises(ClusterError, match="needs TLS certificates"):
        Workers(scheduler="tls://127.0.0.1:9").__enter__()


def test_a_worker_with_other_code_refuses_the_tasks(scheduler, monkeypatch):
    monkeypatch.setattr(dispatch, "code_fingerprint", lambda: "0123456789abcdef")  # as if this client's code differed
    with Workers(scheduler=scheduler) as workers, pytest.raises(ClusterError, match="other cardlogic code"):
        list(workers.run(abs, [1, 2]))


def test_a_knektpass_tournament_on_the_cluster_is_the_local_one(scheduler):
    from cardlogic.knektpass.tournament import tournament as knektpass_tournament

    bots = ("greedy", "random", "greedy")
    here = knektpass_tournament(bots, games=4, seed=3)
    there = knektpass_tournament(bots, games=4, seed=3, scheduler=scheduler)
    assert there.results == here.results and there.wins == here.wins


# an SPRT between bots this close at these error rates needs far more games than are played before the kill
CLOSE_SPRT = ["--bots", "strong,counting", "--elo0", "0", "--elo1", "1", "--alpha", "0.001", "--beta", "0.001"]


@pytest.mark.parametrize(
    ("command", "arguments"),
    [
        pytest.param(["tournament"], ["--bots", "omniscient,random", "--players", "4"], id="literature"),
        pytest.param(["knektpass", "tournament"], ["--bots", "greedy,random,greedy"], id="knektpass"),
        pytest.param(["sprt"], [*CLOSE_SPRT, "--players", "4"], id="sprt"),
    ],
)
def test_a_scheduler_killed_mid_tournament_is_one_line_and_the_games_finished_are_reported(
    tmp_path, command, arguments
):
    games = 2000
    with cluster(tmp_path, 1) as (address, processes):
        count = ["--max-games" if command == ["sprt"] else "--games", str(games)]
        argv = [sys.executable, "-m", "cardlogic", *command, *arguments, *count, "--seed", "1"]
        client = subprocess.Popen(
            [*argv, "--scheduler", address, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        from distributed import Client

        with Client(address, timeout=30) as watcher:  # kill the scheduler once the worker has played a few games
            while max(watcher.run(lambda dask_worker: dask_worker.state.executed_count).values()) < 5:
                assert client.poll() is None, client.communicate()
                time.sleep(0.2)
        processes[0].kill()
        out, err = client.communicate(timeout=60)  # the bound on noticing a lost scheduler and closing the client
    name = " ".join(command)
    done = "games read by the test" if command == ["sprt"] else f"of {games} games"
    lost = re.fullmatch(
        rf"cardlogic {name}: the Dask scheduler at {re.escape(address)} went away after (\d+) {done}",
        err.strip(),  # one line (and the blank line rich's progress display leaves on a pipe)
    )
    assert client.returncode == 1 and lost, err
    finished = int(lost[1])
    assert finished < games
    if finished and command != ["sprt"]:
        assert json.loads(out)["games"] == finished


@pytest.mark.parametrize("pause", [0.0, 1.0, 5.0], ids=["unnoticed", "reconnecting", "closed"])
def test_a_scheduler_killed_whatever_the_client_is_doing_ends_the_run_soon(tmp_path, pause):
    """The scheduler is killed while the run draws its next task (the tasks in flight have finished), and the task
    comes ``pause`` seconds later: before the client has noticed, while it tries to reconnect (a task submitted then
    is never run nor cancelled), or once it has given up and closed. Each time the run raises SchedulerLost soon."""
    with cluster(tmp_path, 1) as (address, processes):
        killed = []

        def tasks() -> Iterator[int]:
            for k in itertools.count():
                if k == 6:
                    time.sleep(1)  # the tasks in flight finish
                    processes[0].kill()
                    processes[0].wait()
                    killed.append(time.monotonic())
                    time.sleep(pause)
                yield k

        with (
            pytest.raises(SchedulerLost, match=r"went away after \d+ finished tasks"),
            Workers(scheduler=address) as workers,
        ):
            for _ in workers.run(abs, tasks()):
                pass
        assert time.monotonic() - killed[0] < 30


def test_on_a_cluster_the_commands_keep_dasks_log_lines_off_the_terminal():
    names = ("distributed", "distributed.client", "distributed.batched", "tornado.application", "asyncio")
    levels = [logging.getLogger(name).level for name in names]
    with cluster_logs_silenced(UNREACHABLE):
        assert not any(logging.getLogger(name).isEnabledFor(logging.CRITICAL) for name in names)
    assert [logging.getLogger(name).level for name in names] == levels
    with cluster_logs_silenced(None):  # playing locally changes nothing
        assert [logging.getLogger(name).level for name in names] == levels
