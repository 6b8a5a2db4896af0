"""``cardlogic serve`` in a real headless browser (Debian's chromium, driven by Playwright), as a player uses it.

At a phone's viewport a whole scripted 6-player game is set up and played by taps, with an illegal choice not
offered, claims from the sheet, undo, a reload and a SIGKILLed server restarted mid-game; midway a second tab at
a desktop's viewport shows the advice and a heat-map cell's why, and enters a claim from the sheet. Screenshots of the main screens go to
``$CARDLOGIC_SCREENSHOTS`` (default: the test's temporary folder).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cardlogic.literature import Ask, Claim, Pass, format_event, read_record
from tests.cli.scripted import GAME, annes_view
from tests.web.test_api import THE_END

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

TOKEN = "browser-test-token-0123"
RECORD = annes_view()
ANNS_CLAIM = next(i for i, e in enumerate(RECORD.events) if isinstance(e, Claim) and e.claimer == 0)
"""The scripted game's first claim by Ann (of low-hearts): entered in the desktop tab."""
OPPONENTS_CLAIM = next(i for i, e in enumerate(RECORD.events) if isinstance(e, Claim) and GAME.team_of(e.claimer))
"""The first claim by Ann's opponents: its sheet is saved as a screenshot."""
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


class Server:
    """``cardlogic serve`` in a child process, on one port and token across restarts."""

    def __init__(self, folder: Path, record: str | None) -> None:
        self.folder = folder
        self.record = record
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen | None = None

    def start(self, record: str | None = None, token: str = TOKEN) -> None:
        command = [
            sys.executable,
            "-m",
            "cardlogic",
            "serve",
            *([record or self.record] if record or self.record else []),
        ]
        command += ["--port", str(self.port), "--token", token, "--autosave", "game.live.txt"]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        self.process = subprocess.Popen(command, cwd=self.folder, stdout=subprocess.PIPE, text=True, env=env)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert f"open {self.url}?token={token}" in line, line

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    @property
    def autosave(self) -> Path:
        return self.folder / "game.live.txt"


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("CARDLOGIC_SCREENSHOTS") or tmp_path / "screens")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def serve(tmp_path: Path):
    servers: list[Server] = []

    def start(record: str | None = None) -> Server:
        server = Server(tmp_path, record)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        if server.process and server.process.poll() is None:
            server.kill()


def capitalised(words: str) -> str:
    """``words`` as the page's header begins a sentence."""
    return words[0].upper() + words[1:]


def logged(page, count: int) -> None:
    sync_api.expect(page.locator("#log li")).to_have_count(count)


def set_up_by_taps(page) -> None:
    page.fill("#players", " ".join(GAME.players))
    page.press("#players", "Tab")  # this game keeps four sets of no-8s: tap the other four out
    for set_name in ("low-clubs", "high-clubs", "low-diamonds", "high-diamonds"):
        page.click(f"#sets button:text-is('{set_name}')")
    page.click("section:has(h2:text-is('Dealer (asks first)')) button:text-is('Fay')")
    page.click("section:has(h2:text-is('Who am I?')) button:text-is('Ann')")
    for card in RECORD.hands[0]:
        page.click(f".grid button:text-is('{card}')")
    page.wait_for_selector("#start:not([disabled])", timeout=30000)  # each tap is checked by the server


def holder_rows(page, container: str, holders: dict) -> None:
    for card, holder in holders.items():
        page.click(f"{container} .claimrow:has(span:text-is('{card}')) button:text-is('{GAME.players[holder]}')")


def play_by_taps(page, event, shots: Path | None = None) -> None:
    """Enter ``event`` the way a player does, through the sheet that offers only the legal choices."""
    names = GAME.players
    count = page.locator("#log li").count()
    if isinstance(event, Ask):
        page.click("#ask")
        page.click(f"#targets button:text-is('{names[event.target]}')")
        page.click(f"#ask-cards button:text-is('{event.card}')")
        page.click(f"#answers button:text-is('{'yes' if event.yes else 'no'}')")
    elif isinstance(event, Pass):
        page.click("#pass")
        page.click(f"#sheet button:text-is('{names[event.receiver]}')")
    else:
        assert isinstance(event, Claim)
        page.click("#claim")
        page.click(f"#claim-sets button:text-is('{GAME.deck.sets[event.set_index].name}')")
        page.wait_for_selector("#assignment")
        if shots is not None:
            page.screenshot(path=str(shots / "claim-sheet.png"))  # as pre-filled
        holder_rows(page, "#assignment", dict(event.assignment))
        page.click(f"#outcomes button:text-is('{event.outcome}')")
        if event.outcome != "correct":
            holder_rows(page, "#revealed", dict(event.revealed))
        page.click("#enter-claim")
    logged(page, count + 1)
    assert page.locator("#log li").first.inner_text().endswith(format_event(event, GAME))


def test_a_whole_game_by_taps_on_a_phone_with_a_desktop_tab_beside_it(browser, serve, shots):
    server = serve()
    refused = urllib.request.Request(server.url + "api/state")
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(refused)
    assert error.value.code == 403 and error.value.read() == b"forbidden"
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(10000)
    page.goto(server.url)
    assert page.inner_text("body") == "forbidden"
    problems: list[str] = []
    failures: list[int] = []
    page.on("pageerror", lambda exception: problems.append(str(exception)))
    page.on("response", lambda response: failures.append(response.status) if response.status >= 400 else None)
    page.goto(f"{server.url}?token={TOKEN}")
    set_up_by_taps(page)
    page.screenshot(path=str(shots / "setup.png"), full_page=True)
    page.click("#start")
    page.wait_for_selector("#seats")

    page.click("#ask")  # Fay asks first: only her opponents, only cards she may ask for, only possible answers
    assert page.locator("#targets button").all_inner_texts() == ["Ann", "Cat", "Eve"]
    page.click("#targets button:text-is('Ann')")
    offered = page.locator("#ask-cards button").all_inner_texts()
    assert "3H" in offered and "8S" not in offered
    page.click("#ask-cards button:text-is('3H')")
    assert page.locator("#answers button").all_inner_texts() == ["yes"]  # Ann holds 3H: no is not offered
    page.click("#sheet .close")

    for index, event in enumerate(RECORD.events):
        if index == 3:  # undo one event and enter it again
            page.click("#undo")
            logged(page, 2)
            play_by_taps(page, RECORD.events[2])
        if index == 7:
            page.wait_for_selector("#advice")
            assert page.inner_text("#tip").startswith("Advice: ")
            assert page.inner_text("#prior").startswith("prior: players")  # the prior that answered
            recommended = page.inner_text("#recommendation")
            if recommended.startswith("ask "):  # its one-tap button comes first, marked, whatever its value's rank
                first = page.locator("#advice button >> nth=0")
                assert first.inner_text().startswith(recommended.split(":")[0]), (recommended, first.inner_text())
                assert "recommended" in (first.get_attribute("class") or "")
            page.locator("#seats").scroll_into_view_if_needed()
            page.screenshot(path=str(shots / "table-phone.png"))  # what the phone shows, above the fold
            page.click("#ask")
            page.click("#targets button >> nth=0")
            page.screenshot(path=str(shots / "ask-sheet.png"))
            page.click("#sheet .close")
        if index == 10:
            page.reload()
            logged(page, 10)
        if index == 14:  # the server dies mid-game and comes back from its autosave
            seen = page.evaluate("S.version")
            server.kill()
            assert read_record(server.autosave.read_text()).events == RECORD.events[:14]
            server.start("game.live.txt")
            caught_up = time.monotonic() + 10  # the open page catches up with the new run by itself, within seconds
            while page.evaluate("S.version") == seen:  # (the page's policy bars wait_for_function's eval)
                assert time.monotonic() < caught_up
                time.sleep(0.1)
            logged(page, 14)
        if index == ANNS_CLAIM:  # Ann claims low-hearts in a desktop tab on the same game
            desktop_tab(browser, server, event, shots)
            page.reload()
            logged(page, index + 1)
            continue
        play_by_taps(page, event, shots if index == OPPONENTS_CLAIM else None)
    assert read_record(server.autosave.read_text()).events == RECORD.events
    sync_api.expect(page.locator("#status")).to_have_text(capitalised(THE_END))  # as live says it
    page.screenshot(path=str(shots / "game-over.png"), full_page=True)
    assert not problems
    assert not failures


def test_taps_that_outrun_the_server_all_count(browser, serve):
    """On a slow connection every tap lands before the server has answered the one before: none is lost."""
    server = serve()
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(10000)
    page.add_init_script(  # each set-up check leaves 0.4 s late, so the next taps run on the old screen
        "const sent = window.fetch; window.fetch = (path, options) => String(path).includes('/api/setup/check')"
        " ? new Promise((done) => setTimeout(done, 400)).then(() => sent(path, options)) : sent(path, options);"
    )
    page.goto(f"{server.url}?token={TOKEN}")
    page.fill("#players", " ".join(GAME.players))
    page.press("#players", "Tab")
    page.click("button.seat:has-text('Bob')")  # Bob and Cat change teams, tapped in one breath
    page.click("button.seat:has-text('Cat')")
    sync_api.expect(page.locator("button.seat:has-text('Cat')")).to_have_text("Cat · team 2")
    sync_api.expect(page.locator("button.seat:has-text('Bob')")).to_have_text("Bob · team 1")
    set_up_by_taps(page)
    sync_api.expect(page.locator("#sets button.on")).to_have_text(
        ["low-spades", "high-spades", "low-hearts", "high-hearts"]
    )
    page.click("#start")
    page.wait_for_selector("#seats")
    header = server.autosave.read_text()
    assert "Sets: LS HS LH HH" in header and "Teams: Ann Bob Eve | Cat Dan Fay" in header, header


def desktop_tab(browser, server: Server, claim: Claim, shots: Path) -> None:
    """At a desktop's viewport: the advice, a heat-map cell's why, and ``claim`` entered from the claim sheet."""
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(10000)
    page.goto(f"{server.url}?token={TOKEN}")
    page.wait_for_selector("#advice")
    logged(page, ANNS_CLAIM)
    page.screenshot(path=str(shots / "table-desktop.png"), full_page=True)
    page.click("#heat tr:has(th:text-is('5H')) button >> nth=2")
    page.wait_for_selector("#why")
    assert page.inner_text("#why").startswith("5H (low-hearts)")
    page.screenshot(path=str(shots / "why.png"))
    page.click("#sheet .close")
    page.click("#claim")
    page.click("#claim-sets button:text-is('low-hearts')")
    page.wait_for_selector("#assignment")
    assert page.inner_text("#p-correct").startswith("P(correct) ")
    holder_rows(page, "#assignment", dict(claim.assignment))
    page.click("#enter-claim")
    logged(page, ANNS_CLAIM + 1)
    assert read_record(server.autosave.read_text()).events == RECORD.events[: ANNS_CLAIM + 1]
    page.close()


TWELVE = """Players: Annabelle Bartholomew Catherine Dan Eve Fay Gus Hal Ivy Jo Kim Maximiliana
Deck: no-8s
Dealer: Maximiliana
Me: Annabelle
Hand Annabelle: 2S 3S 4S 5S
"""
TEN_AT_KNEKTPASS = """Players: Annabelle Bartholomew Cat Dan Eve Fay Gus Hal Ivy Jo
Dealer: Jo
Trump: KH
Me: Annabelle
Hand Annabelle: 2S 3S 4S 5S 6S
"""
OVERFLOWING = """() => {
  const scrolls = (node) => ["auto", "scroll"].includes(getComputedStyle(node).overflowX);
  const inScrollingBox = (node) => { for (let up = node.parentElement; up; up = up.parentElement) if (scrolls(up)) return true; return false; };
  return [...document.querySelectorAll('body *')].filter((node) => !node.closest('[hidden]') && !inScrollingBox(node)).flatMap((node) => {
    const box = node.getBoundingClientRect();
    const name = `${node.tagName} ${node.textContent.slice(0, 30)}`;
    const out = box.width && (box.left < 0 || box.right > innerWidth) ? [name] : [];
    return !scrolls(node) && node.scrollWidth > node.clientWidth && node.clientWidth ? [...out, name] : out;
  });
}"""
"""Every element that leaves the viewport, or whose text is cut off inside it (as a long name in a seat's box). A box
that scrolls sideways by design (the heat map's) counts as itself: what is inside it is a swipe away, not cut off."""
HEAT_CELLS = "cells => cells.map((cell) => [cell.getBoundingClientRect().width, cell.getBoundingClientRect().height])"


@pytest.mark.parametrize("record", [TWELVE, TEN_AT_KNEKTPASS], ids=["literature-12", "knektpass-10"])
def test_the_most_players_with_long_names_fit_the_narrowest_phone_upright_and_turned(browser, serve, tmp_path, record):
    """The page never scrolls sideways, and every cell of the heat map is a 44 px target (its map scrolls sideways
    in its own box instead, the cards' column staying in sight)."""
    (tmp_path / "table.txt").write_text(record, encoding="utf-8")
    server = serve("table.txt")
    page = browser.new_page(viewport={"width": 360, "height": 640})
    page.set_default_timeout(10000)
    page.goto(f"{server.url}?token={TOKEN}")
    page.wait_for_selector("#heat")
    for width, height in ((640, 360), (360, 640)):  # upright last: there the map is wider than the phone
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") == width
        overflowing = page.evaluate(OVERFLOWING)
        assert overflowing == [], (width, height, overflowing)
        assert page.locator("#status").bounding_box()["height"] < 30  # one line: the score goes under it
        cells = page.locator("#heat td button").evaluate_all(HEAT_CELLS)
        assert min(min(cell) for cell in cells) >= 44, (width, height, min(cells))
    box = page.locator("#heat .heatbox")
    box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    assert box.evaluate("box => box.scrollLeft") > 0
    card = page.locator("#heat tbody th").first.bounding_box()
    assert card is not None and card["x"] == box.bounding_box()["x"]  # still in sight at the left


def test_a_set_up_half_entered_survives_a_reload_and_starts_as_entered(browser, serve):
    server = serve()
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(10000)
    page.goto(f"{server.url}?token={TOKEN}")
    set_up_by_taps(page)
    page.reload()
    sync_api.expect(page.locator("#players")).to_have_value(" ".join(GAME.players))
    sync_api.expect(page.locator(".grid button.on")).to_have_text([str(card) for card in RECORD.hands[0]])
    page.click("#start")  # the restored hand is checked again: Start is offered as before the reload
    page.wait_for_selector("#seats")
    assert read_record(server.autosave.read_text()).hands[0] == RECORD.hands[0]
    assert page.evaluate("sessionStorage.length") == 0  # the game is on: its set-up is not kept to come back


def test_a_page_shows_what_another_page_entered_and_refuses_a_tap_on_the_game_before(browser, serve, tmp_path):
    """Two phones on one game: each shows the other's events within seconds, without a tap; a tap on the game
    before (entered before the page looked again) is refused with a message and the page shows the game now."""
    (tmp_path / "ann.txt").write_text((Path(__file__).parents[2] / "examples" / "ann-view.txt").read_text())
    server = serve("ann.txt")
    count = len(read_record((tmp_path / "ann.txt").read_text()).events)
    mine, other = browser.new_page(viewport=PHONE), browser.new_page(viewport=PHONE)
    mine.clock.install()  # so that mine can stop looking by itself for a while
    for page in (mine, other):
        page.set_default_timeout(10000)
        page.goto(f"{server.url}?token={TOKEN}")
        logged(page, count)
    mine.clock.pause_at(time.time() + 1)
    other.click("#undo")
    logged(other, count - 1)
    mine.click("#undo")  # on the game before the other's undo: refused, not a second undo
    mine.wait_for_selector("#toast:not([hidden]):has-text('changed since this page last looked')")
    logged(mine, count - 1)
    mine.click("#hand button >> nth=0")  # a sheet open on the game the other page changes next
    mine.wait_for_selector("#why")
    mine.clock.resume()
    other.click("#undo")
    logged(mine, count - 2)  # without a tap
    assert mine.is_hidden("#sheet") and "changed on another page" in mine.inner_text("#toast")
    assert len(read_record(server.autosave.read_text()).events) == count - 2


def test_a_page_whose_server_restarted_with_another_token_says_what_to_do(browser, serve):
    server = serve()
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(10000)
    page.goto(f"{server.url}?token={TOKEN}")
    page.wait_for_selector("#players")
    server.kill()
    server.start(token="another-token-0123456789")  # as a restart without --token does
    page.fill("#players", " ".join(GAME.players))
    page.press("#players", "Tab")
    page.wait_for_selector("#toast:not([hidden]):has-text('open the address it printed')")
