"""The resident server (``cardlogic resident``): a command it runs behaves as the same command run in its own
process (output, colours and width on a terminal, errors, exit codes, Ctrl-C), and anything amiss falls back to the
process itself. The real server runs in a private runtime directory of this module; the control requests (status,
stop, idle exit, a changed installation) are tested on a server in a thread, its preloading skipped."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlogic.cli import resident

pexpect = pytest.importorskip("pexpect")

EXAMPLES = Path(__file__).parents[2] / "examples"
ANN = EXAMPLES / "ann-view.txt"
BOB = EXAMPLES / "knektpass" / "bob.txt"
IN_PROCESS = "numba"
"""A module only a command run in the client's own process imports (``-X importtime`` lists it)."""


@pytest.fixture(scope="module")
def runtime() -> Iterator[str]:
    """A private runtime directory (a short path: a Unix socket's name has at most 107 bytes)."""
    folder = tempfile.mkdtemp(prefix="cl-rt-", dir="/tmp")
    os.chmod(folder, 0o700)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def environment(runtime: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, CARDLOGIC_RESIDENT="1", CARDLOGIC_WARMUP="off", TERM="xterm")
    env.pop("COLUMNS", None)
    return {**env, **extra}


def cardlogic(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``cardlogic ARGS`` from the command line, listing its imports on standard error (``-X importtime``)."""
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cardlogic", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def split_imports(stderr: str) -> tuple[str, str]:
    """The command's own standard error, and the modules the client imported."""
    imports = [line for line in stderr.splitlines(keepends=True) if line.startswith("import time:")]
    return "".join(line for line in stderr.splitlines(keepends=True) if line not in imports), "".join(imports)


def server_pid(runtime: str) -> int | None:
    answer = subprocess.run(
        [sys.executable, "-m", "cardlogic", "resident", "status"],
        env=environment(runtime),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return int(answer.split("pid ")[1].split(",")[0]) if "pid" in answer else None


@pytest.fixture(scope="module")
def server(runtime: str) -> Iterator[int]:
    """This installation's server, started in the background by a first command run in its own process."""
    first = cardlogic("check", str(ANN), env=environment(runtime))
    assert first.returncode == 0, first.stderr
    assert IN_PROCESS in split_imports(first.stderr)[1]  # no server yet: it ran in its own process
    deadline = time.monotonic() + 600
    while (pid := server_pid(runtime)) is None:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.5)
    yield pid
    subprocess.run(
        [sys.executable, "-m", "cardlogic", "resident", "stop"], env=environment(runtime), check=True, timeout=120
    )


def commands_running(server: int) -> set[int]:
    """The server's children that run a command (not yet ended)."""
    found = set()
    for child in Path(f"/proc/{server}/task/{server}/children").read_text().split():
        with contextlib.suppress(OSError):
            if Path(f"/proc/{child}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
                found.add(int(child))
    return found


def new_command(server: int, before: set[int]) -> int:
    """The pid of the command the server started since ``before`` (its children then)."""
    deadline = time.monotonic() + 60
    while not (started := commands_running(server) - before):
        assert time.monotonic() < deadline, "the command did not start in the server"
        time.sleep(0.05)
    return started.pop()


def test_in_a_terminal_the_server_prints_what_the_command_prints_in_its_own_process(runtime, server):
    def screen(**extra: str) -> str:
        child = pexpect.spawn(
            sys.executable,
            ["-X", "importtime", "-m", "cardlogic", "advise", str(ANN)],
            env=environment(runtime, **extra),
            dimensions=(40, 100),
            encoding="utf-8",
            timeout=300,
        )
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        return str(child.before).replace("\r\n", "\n")

    served, alone = screen(), screen(CARDLOGIC_RESIDENT="0")
    served_output, served_imports = "", ""
    for line in served.splitlines(keepends=True):
        if line.startswith("import time:"):
            served_imports += line
        else:
            served_output += line
    alone_output = "".join(line for line in alone.splitlines(keepends=True) if not line.startswith("import time:"))
    assert IN_PROCESS not in served_imports and "numpy" not in served_imports
    assert "\x1b[" in served_output  # colours: the command saw a terminal
    assert max(len(line) for line in served_output.splitlines()) > 80  # and its width, 100 columns
    assert served_output == alone_output


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["advise", "--json", str(ANN)], ""),
        (["belief", "--json", "-"], ANN.read_text()),
        (["knektpass", "advise", str(BOB)], ""),
        (["advise", "missing.txt"], ""),
        (["check", "-"], ANN.read_text().replace("Dan asks Ann for 6C: no", "Dan asks Ann for 6C: perhaps")),
        (["advise", "--no-such-option", str(ANN)], ""),
        (["advise", "--help"], ""),
    ],
)
def test_output_errors_and_exit_codes_through_the_server_are_the_commands_own(runtime, server, args, stdin):
    served = cardlogic(*args, env=environment(runtime), stdin=stdin)
    alone = cardlogic(*args, env=environment(runtime, CARDLOGIC_RESIDENT="0"), stdin=stdin)
    served_errors, served_imports = split_imports(served.stderr)
    assert IN_PROCESS not in served_imports
    assert (served.returncode, served.stdout, served_errors) == (
        alone.returncode,
        alone.stdout,
        split_imports(alone.stderr)[0],
    )
    assert "Traceback" not in served.stderr


@pytest.mark.parametrize("resident", ["1", "0"])
@pytest.mark.parametrize("args", [["advise", str(ANN)], ["belief", str(ANN)], ["knektpass", "advise", str(BOB)]])
def test_a_reader_that_leaves_early_ends_the_command_quietly(runtime, server, resident, args):
    """``cardlogic advise RECORD | head -1``: once the reader has gone, the command stops with exit code 0."""
    command = subprocess.Popen(
        [sys.executable, "-m", "cardlogic", *args],
        env=environment(runtime, CARDLOGIC_RESIDENT=resident),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert command.stdout is not None
    command.stdout.close()  # the reader leaves before the first line: every write meets a closed pipe
    _, errors = command.communicate(timeout=300)
    assert (command.returncode, errors) == (0, "")


def test_a_relative_record_is_read_from_the_clients_directory(runtime, server):
    served = subprocess.run(
        [sys.executable, "-m", "cardlogic", "knektpass", "advise", "--json", "knektpass/bob.txt"],
        cwd=EXAMPLES,
        env=environment(runtime),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert served.returncode == 0, served.stderr
    assert served.stdout.startswith("{")


def test_two_clients_at_once_each_get_their_own_answer(runtime, server):
    env = environment(runtime)
    commands = [["advise", "--json", str(ANN)], ["knektpass", "advise", "--json", str(BOB)]] * 2
    running = [
        subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "cardlogic", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in commands
    ]
    answers = [process.communicate(timeout=300) for process in running]
    assert all(process.returncode == 0 for process in running)
    assert all(IN_PROCESS not in split_imports(err)[1] for _, err in answers)
    assert answers[0][0] == answers[2][0] and answers[1][0] == answers[3][0]
    assert '"recommendation"' in answers[0][0] and answers[0][0] != answers[1][0]


@pytest.mark.parametrize("attempt", range(3))  # the Ctrl-C comes as the command starts: a race, tried thrice
def test_ctrl_c_at_the_client_interrupts_the_command(runtime, server, attempt):
    before = commands_running(server)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cardlogic", "advise", "-"],  # waits for the record on the terminal
        env=environment(runtime),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=120,
    )
    new_command(server, before)
    child.sendintr()
    child.expect_exact("cardlogic: interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in str(child.before)
    deadline = time.monotonic() + 10
    while commands_running(server) - before:  # the command ends with its client
        assert time.monotonic() < deadline, "the command outlived its client"
        time.sleep(0.05)


def advise_from_stdin(runtime: str) -> subprocess.Popen[str]:
    """``cardlogic advise --json -`` started from the command line, waiting for its record on standard input."""
    return subprocess.Popen(
        [sys.executable, "-m", "cardlogic", "advise", "--json", "-"],
        env=environment(runtime),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_command_whose_server_process_dies_runs_again_in_the_client(runtime, server):
    before = commands_running(server)
    client = advise_from_stdin(runtime)
    command = new_command(server, before)
    deadline = time.monotonic() + 60
    # killed once it waits for its input: killed sooner, before it has told the client its pid, nothing ran and the
    # client runs the command itself without a word
    while "pipe_read" not in Path(f"/proc/{command}/wchan").read_text():
        assert time.monotonic() < deadline, "the command never read its input"
        time.sleep(0.05)
    os.kill(command, signal.SIGKILL)
    time.sleep(0.5)
    out, err = client.communicate(ANN.read_text(), timeout=300)
    assert client.returncode == 0
    assert err == "cardlogic: the resident server's process ended before the command; running it here\n"
    assert '"recommendation"' in out


def test_a_changed_installation_is_never_answered_by_the_old_server(runtime, server, tmp_path):
    package = tmp_path / "cardlogic"
    shutil.copytree(Path(resident.__file__).parents[1], package, ignore=shutil.ignore_patterns("__pycache__"))
    key = [sys.executable, "-c", "from cardlogic.cli.resident import installation_key; print(installation_key())"]
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    before = subprocess.run(key, env=env, capture_output=True, text=True, check=True).stdout
    (package / "cli" / "advise.py").write_text((package / "cli" / "advise.py").read_text() + "\n")
    after = subprocess.run(key, env=env, capture_output=True, text=True, check=True).stdout
    assert before != after != resident.installation_key()


def test_a_server_of_another_key_does_not_answer(runtime, server, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    monkeypatch.setenv("CARDLOGIC_RESIDENT", "1")
    monkeypatch.setattr(resident, "installation_key", lambda: "0" * 20)
    assert resident.forward(["advise", str(ANN)]) is None


# -- a server in a thread, without preloading ---------------------------------------------------------------------


@pytest.fixture
def bare(monkeypatch) -> Iterator[str]:
    """A private runtime directory for a server run in a thread of this process with nothing preloaded."""
    folder = tempfile.mkdtemp(prefix="cl-bare-", dir="/tmp")
    monkeypatch.setenv("XDG_RUNTIME_DIR", folder)
    monkeypatch.setenv("CARDLOGIC_RESIDENT", "1")
    monkeypatch.setattr(resident, "_preload", lambda: None)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def in_thread(idle: float) -> tuple[threading.Thread, list[int]]:
    ended: list[int] = []
    thread = threading.Thread(target=lambda: ended.append(resident.serve(idle)), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while (
        not ended and resident._ask(resident._socket_path(resident.installation_key()), {"control": "status"}) is None
    ):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return thread, ended


def test_status_and_stop(bare, capsys):
    thread, ended = in_thread(60)
    assert resident.run_status(argparse.Namespace()) == 0
    assert capsys.readouterr().out == f"The resident server runs (pid {os.getpid()}, idle for 0 s).\n"
    assert resident.serve(60) == 0  # a second server of the same installation leaves at once
    assert resident.run_stop(argparse.Namespace()) == 0
    thread.join(10)
    assert ended == [0]
    assert capsys.readouterr().out == "Stopped 1 resident server.\n"
    assert not list(Path(bare, "cardlogic").glob("*.sock"))
    assert resident.run_status(argparse.Namespace()) == 0
    assert capsys.readouterr().out == "No resident server of this installation runs.\n"


def test_an_idle_server_exits(bare):
    thread, ended = in_thread(0.5)
    thread.join(10)
    assert ended == [0]
    assert not list(Path(bare, "cardlogic").glob("*.sock"))


def test_a_server_whose_installation_changed_exits(bare, monkeypatch):
    monkeypatch.setattr(resident, "_CHECK_SECONDS", 0.1)
    thread, ended = in_thread(60)
    monkeypatch.setattr(resident, "installation_key", lambda: "changed")
    thread.join(10)
    assert ended == [0]


def test_a_directory_others_may_enter_is_not_used(bare):
    os.mkdir(resident.directory(), 0o755)
    assert not resident.is_private(resident.directory())
    assert resident.serve(60) == 1
    assert resident.forward(["advise", str(ANN)]) is None


def test_a_command_finishes_when_its_server_is_killed_meanwhile():
    runtime = tempfile.mkdtemp(prefix="cl-kill-", dir="/tmp")
    try:
        control = [sys.executable, "-m", "cardlogic", "resident"]
        subprocess.run([*control, "start"], env=environment(runtime), check=True, capture_output=True, timeout=900)
        killed = server_pid(runtime)
        assert killed is not None
        client = advise_from_stdin(runtime)
        new_command(killed, set())
        os.kill(killed, signal.SIGKILL)
        out, err = client.communicate(ANN.read_text(), timeout=300)
        assert (client.returncode, err) == (0, "")
        assert '"recommendation"' in out
        alone = cardlogic("advise", "--json", str(ANN), env=environment(runtime, CARDLOGIC_RESIDENT="0"))
        assert alone.stdout == out
    finally:
        subprocess.run([*control, "stop"], env=environment(runtime), check=False, timeout=120)
        shutil.rmtree(runtime, ignore_errors=True)
