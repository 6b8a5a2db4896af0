"""``cardlogic serve`` as a command: what it prints, the address it listens on, and its refusals before serving."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from cardlogic import files
from cardlogic.cli import main
from cardlogic.files import NameLock


def test_bad_options_and_records_are_refused_before_serving(tmp_path: Path, capsys):
    assert main(["serve", "--token", "short"]) == 1
    assert "--token must be 16 or more" in capsys.readouterr().err
    assert main(["serve", "--token", "has spaces and quotes '\" in it"]) == 1
    capsys.readouterr()
    bad = tmp_path / "bad.txt"
    bad.write_text("Players: Ann Bob Cat Dan\nDealer: Zed\n", encoding="utf-8")
    assert main(["serve", str(bad)]) == 1
    assert capsys.readouterr().err.startswith(f"{bad}:2: ")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--autosave", str(tmp_path / "g.live.txt")]) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert not (tmp_path / "g.live.txt").exists()


def test_a_new_games_autosave_that_exists_is_refused_before_the_set_up_on_the_page(tmp_path: Path):
    """Not after a whole set-up by taps, when Start would find it (with a hint of --force, which serve lacks)."""
    earlier = tmp_path / "game.live.txt"
    earlier.write_text("Players: Ann Bob Cat Dan\nDealer: Dan\n\nDan asks Ann for 2S: no\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "cardlogic", "serve", "--port", "0", "--autosave", str(earlier)]
    refused = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=30)
    assert refused.returncode == 1 and not refused.stdout
    error = refused.stderr
    assert error.startswith(f"cardlogic serve: {earlier} already exists: ") and "--force" not in error
    assert f"(to go on with its game: cardlogic serve {earlier})" in error
    assert earlier.read_text(encoding="utf-8").endswith("Dan asks Ann for 2S: no\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.live.txt"]


def test_a_named_autosave_is_checked_once_under_its_lock_and_refused_as_before(tmp_path, capsys, monkeypatch):
    """``serve RECORD --autosave FILE`` looks at FILE (and its folder) once, holding its lock; a FILE it may not
    take is refused in the words of any refused file, leaving no lock behind."""
    record = tmp_path / "bob.txt"
    record.write_text((Path(__file__).parents[2] / "examples" / "knektpass" / "bob.txt").read_text(), encoding="utf-8")
    looked: list[bool] = []  # whether the name was held each time FILE was looked at
    look = files.refusal
    monkeypatch.setattr(
        files, "refusal", lambda path, *a, **k: looked.append(NameLock(path).lock.exists()) or look(path, *a, **k)
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert main(["serve", "--port", port, str(record), "--autosave", str(tmp_path / "bob.autosave.txt")]) == 1
    assert "cannot listen" in capsys.readouterr().err and looked == [True]
    monkeypatch.undo()
    link, folder = tmp_path / "link.txt", tmp_path / "folder"
    link.symlink_to(record)
    folder.mkdir()
    for target, reason in (
        (tmp_path / "no-such-folder" / "bob.live.txt", "is in a folder that does not exist"),
        (link, "is a symbolic link"),
        (folder, "is a folder"),
    ):
        assert main(["serve", "--port", "0", str(record), "--autosave", str(target)]) == 1
        assert capsys.readouterr().err == f"cardlogic serve: {target} {reason}: not written\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bob.autosave.txt", "bob.txt", "folder", "link.txt"]


def serving(arguments: list[str], folder: Path) -> tuple[subprocess.Popen, list[str]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "cardlogic", "serve", "--port", "0", *arguments]
    process = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    lines = [process.stdout.readline(), process.stdout.readline()]
    return process, lines


def test_it_listens_on_127_0_0_1_by_default_behind_a_random_token(tmp_path: Path):
    process, lines = serving([], tmp_path)
    try:
        url = lines[0].split("open ", 1)[1].strip()
        assert url.startswith("http://127.0.0.1:") and len(url.split("token=", 1)[1]) >= 16
        assert "set up on the page" in lines[1]
        with urllib.request.urlopen(url) as page:
            assert b"app.js?token=" in page.read()
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
    assert not list(tmp_path.iterdir())  # no game was set up: nothing written


def test_lan_prints_the_url_as_a_qr_code_and_says_who_can_reach_it(tmp_path: Path):
    process, lines = serving(["--lan", "--token", "lan-test-token-0123456"], tmp_path)
    try:
        assert process.stdout is not None
        warning = process.stdout.readline()
        code = [process.stdout.readline() for _ in range(8)]
    finally:
        process.kill()
        process.wait()
    assert "lan-test-token-0123456" in lines[0]
    assert "Anyone on this network with the URL" in warning
    assert all(set(line.strip()) <= set("█▀▄ \x1b[0123456789;m") for line in code)
    assert any("█" in line or "▀" in line or "\x1b[" in line for line in code)


def test_a_knektpass_record_is_served_as_knektpass_live_reads_it(tmp_path: Path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("Players: Ann Bob Cat\nDealer: Cat\nTrump: KH\nMe: Bob\nHand Bob: 6H 7H\n", encoding="utf-8")
    assert main(["serve", str(bad)]) == 1
    assert capsys.readouterr().err.startswith(f"{bad}:5: ")
    record = tmp_path / "bob.txt"
    record.write_text((Path(__file__).parents[2] / "examples" / "knektpass" / "bob.txt").read_text(), encoding="utf-8")
    process, lines = serving(["--token", "knektpass-test-token-01", str(record)], tmp_path)
    try:
        url = lines[0].split("open ", 1)[1].strip()
        assert "Autosaving to" in lines[1] and "bob.live.txt" in lines[1]
        state_url = url.replace("/?token=", "/api/state?token=")
        with urllib.request.urlopen(state_url) as answer:
            state = json.loads(answer.read())
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
    assert state["game"] == "knektpass" and state["me"] == "Bob" and state["to_move"] == "Bob"
    assert [entry["text"] for entry in state["log"]][-1] == "Ann plays 6S"
    assert (tmp_path / "bob.live.txt").read_text().startswith("Players: Ann Bob Cat")


def test_sigterm_stops_the_server_as_ctrl_c_does_leaving_the_autosave_and_no_lock(tmp_path: Path):
    record = tmp_path / "bob.txt"
    text = (Path(__file__).parents[2] / "examples" / "knektpass" / "bob.txt").read_text()
    record.write_text(text, encoding="utf-8")
    process, lines = serving([str(record)], tmp_path)
    try:
        assert "Autosaving to" in lines[1] and (tmp_path / ".bob.live.txt.lock").exists()
        with urllib.request.urlopen(lines[0].split("open ", 1)[1].strip()):  # serving: a kill now stops a server
            pass
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bob.live.txt", "bob.txt"]
    assert (tmp_path / "bob.live.txt").read_text() == text


def test_the_prior_is_one_flag_as_for_live_each_game_keeping_its_own_default():
    from cardlogic.cli import build_parser

    assert build_parser().parse_args(["serve"]).prior is None  # Literature's players, Knektpass's rules
    assert build_parser().parse_args(["serve", "--prior", "players"]).prior == "players"
    assert build_parser().parse_args(["knektpass", "live", "--prior", "players"]).prior == "players"
    assert build_parser().parse_args(["knektpass", "live"]).prior == "rules"


def test_serving_an_autosave_another_session_holds_says_why_it_goes_on_in_a_copy(tmp_path: Path):
    record = (Path(__file__).parents[2] / "examples" / "knektpass" / "bob.txt").read_text()
    autosave = tmp_path / "bob.live.txt"
    autosave.write_text(record, encoding="utf-8")
    holding, held = serving([str(autosave)], tmp_path)
    try:
        process, lines = serving([str(autosave)], tmp_path)
        try:
            assert process.stdout is not None
            moved = process.stdout.readline()
            for started in (held, lines):  # both serving: Ctrl-C now stops a server
                with urllib.request.urlopen(started[0].split("open ", 1)[1].strip()):
                    pass
        finally:
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=20) == 0
    finally:
        holding.send_signal(signal.SIGINT)
        assert holding.wait(timeout=20) == 0
    copy = tmp_path / "bob.live-2.txt"
    assert lines[1].startswith(f"Autosaving to {copy}.")
    assert (
        moved
        == f"{autosave} is in use by another session (process {holding.pid}): this session saves to a copy, {copy}\n"
    )
    assert autosave.read_text() == record
