"""``cardlogic serve`` for a Knektpass match in a real headless browser (Debian's chromium, driven by Playwright).

At a phone's viewport the match is set up by taps and its first deal played by taps to its end, then the next
deal started and played on: only my legal cards offered, my exchange entered from its sheet, the heat map of
where the cards are with a cell's why, undo, a reload mid-deal, the server killed in the second deal and
restarted on its autosave; a second tab at a desktop's viewport shows the same deal with the advice.
Screenshots of the main screens go to ``$CARDLOGIC_SCREENSHOTS`` (default: the test's temporary folder), as for
Literature.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlogic.knektpass import Bid, Exchange, Play, TakeTrump
from cardlogic.knektpass.match_record import MatchRecord, NextDeal, read_match, write_match
from cardlogic.table.knektpass import LiveMatch
from tests.cli.knektpass_scripted import GAME, ME, bobs_match
from tests.web.test_browser import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    TOKEN,
    browser,
    capitalised,
    logged,
    serve,
    shots,
    sync_api,
)
from tests.web.test_knektpass_api import THE_END, WHOLE

__all__ = ["browser", "serve", "shots"]  # the fixtures, shared with the Literature tests

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")

MATCH = bobs_match(deals=2)
"""Bob's view of the first two deals of a match between bots: the first is played to its end by taps."""
FIRST = MATCH.first
NAMES = GAME.players
TIMEOUT = 120_000
"""Milliseconds a tap may take to answer: the first advice compiles the solver."""


def describe(event) -> str:
    return LiveMatch(MatchRecord(FIRST)).describe(event)


def set_up_by_taps(page) -> None:
    page.click("#games button:text-is('Knektpass')")
    page.fill("#players", " ".join(NAMES))
    page.press("#players", "Tab")
    for key in ("points", "lone", "penalty"):
        page.fill(f"#rule-{key}", str(getattr(GAME.rules, key)))
        page.press(f"#rule-{key}", "Tab")
    page.click(f"section:has(h2:text-is('Dealer')) button:text-is('{NAMES[FIRST.deal.dealer]}')")
    page.click(f"#trump-grid button:text-is('{FIRST.deal.turned}')")
    page.click(f"section:has(h2:text-is('Who am I?')) button:text-is('{NAMES[ME]}')")
    for card in FIRST.hands[ME]:
        page.click(f"#hand-grid button:text-is('{card}')")
    page.wait_for_selector("#start:not([disabled])")  # each tap is checked by the server


def play_by_taps(page, event, shots: Path | None = None) -> None:
    """Enter ``event`` the way a player does: one tap on what the page offers, or my exchange's sheet."""
    count = page.locator("#log li").count()
    if isinstance(event, NextDeal):
        page.click("#next-deal")
        page.click(f"#next-trump button:text-is('{event.turned}')")
        for card in event.hand:
            page.click(f"#next-hand button:text-is('{card}')")
        if shots is not None:
            page.screenshot(path=str(shots / "knektpass-next-deal.png"))
        page.click("#start-deal")
    elif isinstance(event, Play):
        page.click(f"#play-cards button:text-is('{event.card}')")
    elif isinstance(event, Exchange) and event.player == ME and event.count:
        page.click("#exchange")
        for card in page.locator("#put-down button.on").all_inner_texts():  # the advice's pre-selection
            page.click(f"#put-down button:text-is('{card}')")
        for card in event.discards or ():
            page.click(f"#put-down button:text-is('{card}')")
        for card in event.draws or ():
            page.click(f"#drawn button:text-is('{card}')")
        if shots is not None:
            page.screenshot(path=str(shots / "knektpass-exchange.png"))
        page.click("#enter-exchange")
    else:
        assert isinstance(event, TakeTrump | Bid | Exchange)
        label = describe(event).split(" ", 1)[1]
        page.click(f"#verbs button:text-is('{label}')")
    logged(page, count + 1)
    assert page.locator("#log li").first.inner_text().endswith(describe(event))


def test_a_knektpass_deal_by_taps_on_a_phone_with_a_desktop_tab_beside_it(browser, serve, shots):
    server = serve()
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(TIMEOUT)
    problems: list[str] = []
    page.on("pageerror", lambda exception: problems.append(str(exception)))
    page.goto(f"{server.url}?token={TOKEN}")
    set_up_by_taps(page)
    page.screenshot(path=str(shots / "knektpass-setup.png"), full_page=True)
    page.click("#start")
    page.wait_for_selector("#seats")
    first_play = next(i for i, e in enumerate(MATCH.events) if isinstance(e, Play))
    follows = next(
        i
        for i, e in enumerate(MATCH.events)
        if isinstance(e, Play) and e.player == ME and isinstance(MATCH.events[i - 1], Play)
    )
    next_deal = next(i for i, e in enumerate(MATCH.events) if isinstance(e, NextDeal))
    mine = next(i for i, e in enumerate(MATCH.events) if isinstance(e, Exchange) and e.player == ME)
    for index, event in enumerate(MATCH.events):
        if index == 2:  # undo one event and enter it again
            page.click("#undo")
            logged(page, 1)
            play_by_taps(page, MATCH.events[1])
        if index == first_play + 1:
            page.reload()
            logged(page, index)
        if index == follows:  # Bob must follow: only his legal cards are offered
            match = LiveMatch(read_match(server.autosave.read_text()))
            legal = [str(c) for c in match.deal.sorted_hand(match.view.playable(match.view.hand))]
            assert page.locator("#play-cards button").all_inner_texts() == legal
            hand = page.locator("#hand button").all_inner_texts()
            assert set(hand) - set(legal), "the scripted deal has Bob follow suit here"
            page.wait_for_selector("#advice")
            assert page.inner_text("#tip").startswith("Advice: Bob plays ")
            page.screenshot(path=str(shots / "knektpass-table-phone.png"))
            heat_map_on_a_phone(page, match, shots)
            desktop_tab(browser, server, index, shots)
        if index == next_deal + 2:  # the server dies in deal 2 and comes back from its autosave, a match file
            server.kill()
            assert read_match(server.autosave.read_text()).events == MATCH.events[:index]
            server.start("game.live.txt")
            page.reload()
            logged(page, index)
            sync_api.expect(page.locator("#stage")).to_contain_text("The bids")
        if index == next_deal:
            sync_api.expect(page.locator("#status")).to_have_text("Deal 1 is over")
            page.screenshot(path=str(shots / "knektpass-deal-over.png"), full_page=True)
        play_by_taps(page, event, shots if index in (mine, next_deal) else None)
    assert read_match(server.autosave.read_text()).events == MATCH.events
    assert not problems


def heat_map_on_a_phone(page, match: LiveMatch, shots: Path) -> None:
    """The heat map of ``match`` as the phone shows it: a row for each card I cannot see, a column for each seat,
    the cards put down and the stock, within the phone's width; a tap on a cell shows that card's why."""
    heat = page.locator("#heat")
    sync_api.expect(page.locator("#toast")).to_be_hidden()  # the last tap's word, gone in a moment
    heat.evaluate("heat => window.scrollTo(0, heat.offsetTop - document.getElementById('top').offsetHeight)")
    labels = [*(name[:3] for name in NAMES), "disc.", "stock"]
    assert heat.locator("thead th").all_inner_texts()[1:] == labels
    assert heat.locator("tbody th").all_inner_texts() == [str(card) for card in match.chances()]
    box = heat.locator("table").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(shots / "knektpass-heat-phone.png"))
    card, row = next((card, row) for card, row in match.chances().items() if 0 < max(row) < 1)
    stock = match.belief.stock
    page.click(f"#heat tr:has(th:text-is('{card}')) td >> nth={stock} >> button")
    page.wait_for_selector("#why")
    assert page.inner_text("#why").startswith(f"{card}: now ") and f"stock {row[stock]:.2f}" in page.inner_text("#why")
    page.screenshot(path=str(shots / "knektpass-why-phone.png"))
    page.click("#sheet .close")


def desktop_tab(browser, server, events: int, shots: Path) -> None:
    """At a desktop's viewport: the same deal, the advice, and a card's why."""
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{server.url}?token={TOKEN}")
    page.wait_for_selector("#advice")
    logged(page, events)
    assert page.inner_text("#prior") == "prior: rules"  # Knektpass's own default, said as for Literature
    page.screenshot(path=str(shots / "knektpass-table-desktop.png"), full_page=True)
    page.click("#trick button >> nth=0")
    page.wait_for_selector("#why")
    assert " played by " in page.inner_text("#why")
    page.close()


def test_a_finished_match_says_who_won_in_the_words_of_knektpass_live(browser, serve, tmp_path):
    (tmp_path / "match.txt").write_text(write_match(WHOLE), encoding="utf-8")
    server = serve("match.txt")
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}?token={TOKEN}")
    sync_api.expect(page.locator("#status")).to_have_text(capitalised(THE_END))
    sync_api.expect(page.locator("#next-deal")).to_be_disabled()


def test_my_bid_sits_where_everyone_else_s_does(browser, serve, tmp_path):
    """The two bid buttons keep their places from one player's turn to mine: "plays" first, "folds" second. Mine
    came the other way round, so a tap where "plays" had just been folded."""
    record = tmp_path / "deal.txt"
    record.write_text("Players: Ann Bob Cat Dan\nDealer: Dan\nTrump: 9S\nMe: Bob\nHand Bob: AS KS QH 7D 6C\n")
    server = serve(str(record))
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}?token={TOKEN}")
    page.click("#choices button:text-is('takes the trump')")
    sync_api.expect(page.locator("#choices button")).to_have_text(["plays", "folds"])  # Ann's
    page.click("#choices button:text-is('plays')")
    sync_api.expect(page.locator("#choices h2")).to_contain_text("Bob (me)", timeout=TIMEOUT)
    sync_api.expect(page.locator("#choices > div > button")).to_have_text(["plays", "folds"])  # mine
