"""The JSON API of ``cardlogic serve`` for a Knektpass match, in-process: its set-up, every event of a match
offered and autosaved, only legal cards for me, bad bodies, stale versions, undo, why and the advice."""

from __future__ import annotations

import io
import json
import threading
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardlogic.cards import format_cards
from cardlogic.cli import main
from cardlogic.knektpass import Exchange, KnektpassBelief, Play, Record
from cardlogic.knektpass.belief import DEFAULT_PRIOR
from cardlogic.knektpass.match_record import MatchRecord, NextDeal, read_match
from cardlogic.table.knektpass import LiveMatch
from cardlogic.web.app import MAX_BODY, create_app
from cardlogic.web.companion import Companion
from tests.cli.knektpass_scripted import GAME, ME, bobs_match

TOKEN = "test-token-0123456789"
MATCH = bobs_match(deals=2)
"""Bob's view of the first two deals of a match between bots."""
WHOLE = bobs_match()
"""Bob's view of that whole match, to its end."""
THE_END = "the game is over, Bob 5 Ann 0 Cat 5: Ann wins"
"""Who won it, in the words ``cardlogic knektpass live`` ends on (my points first)."""
FIRST = MATCH.first
SETUP = {
    "game": "knektpass",
    "players": list(GAME.players),
    "rules": str(GAME.rules),
    "dealer": GAME.players[FIRST.deal.dealer],
    "trump": str(FIRST.deal.turned),
    "me": GAME.players[ME],
    "hand": [str(card) for card in FIRST.hands[ME]],
}


def describe(event) -> str:
    return LiveMatch(MatchRecord(FIRST)).describe(event)


def client_for(autosave: Path, game: LiveMatch | None = None, prior: str = DEFAULT_PRIOR) -> TestClient:
    def open_game(record):
        match = LiveMatch(record, prior=prior, autosave=str(autosave))
        match.save(str(autosave))
        return match

    return TestClient(create_app(Companion(open_game, game), TOKEN), headers={"X-Token": TOKEN})


@pytest.fixture
def autosave(tmp_path: Path) -> Path:
    return tmp_path / "match.live.txt"


@pytest.fixture
def client(autosave: Path) -> TestClient:
    return client_for(autosave)


def started(client: TestClient) -> dict:
    version = client.get("/api/state").json()["version"]
    response = client.post("/api/setup", json={**SETUP, "version": version})
    assert response.status_code == 200, response.text
    return response.json()


def push(client: TestClient, state: dict, count: int) -> dict:
    done = len(state["log"])
    for event in MATCH.events[done : done + count]:
        response = client.post("/api/event", json={"version": state["version"], "event": describe(event)})
        assert response.status_code == 200, response.text
        state = response.json()
    return state


def test_the_set_up_page_offers_knektpass_and_checks_its_set_up_field_by_field(client, autosave):
    state = client.get("/api/state").json()
    assert state["games"]["knektpass"]["switches"]["must-trump"] == ["on", "off"]
    assert state["games"]["knektpass"]["numbers"]["points"] == 12
    hand = SETUP["hand"]
    cases = [
        ({**SETUP, "game": "chess"}, "game", "one of literature, knektpass"),
        ({**SETUP, "players": ["Ann"]}, "players", "2 to 7 players"),
        ({**SETUP, "rules": "must-trump=maybe"}, "rules", "must-trump"),
        ({**SETUP, "dealer": "Zed"}, "dealer", "Zed"),
        ({**SETUP, "trump": "5S"}, "trump", "not in the deck"),
        ({**SETUP, "trump": "XX"}, "trump", "XX"),
        ({**SETUP, "me": "Zed"}, "me", "Zed"),
        ({**SETUP, "hand": hand[:4]}, "hand", "dealt 5 cards, not 4"),
        ({**SETUP, "hand": [*hand[:4], SETUP["trump"]]}, "hand", "turned card"),
        ({**SETUP, "hand": [*hand[:4], hand[0]]}, "hand", "twice"),
    ]
    for body, field, words in cases:
        response = client.post("/api/setup/check", json=body)
        assert response.status_code == 400, body
        assert response.json()["field"] == field and words in response.json()["error"], (body, response.json())
    partial = client.post("/api/setup/check", json={"game": "knektpass", "players": SETUP["players"]}).json()
    assert partial["game"] == "knektpass" and len(partial["deck"]) == 36 and not partial["complete"]
    assert partial["dealer"] is None and partial["rules"].startswith("must-trump=on")
    assert client.post("/api/setup/check", json=SETUP).json()["complete"]
    assert not autosave.exists()  # checking writes nothing
    refused = client.post("/api/setup", json={**SETUP, "trump": None, "version": state["version"]})
    assert refused.status_code == 400 and refused.json()["field"] == "trump"


def test_a_match_set_up_on_the_page_is_autosaved_before_the_answer(client, autosave):
    state = started(client)
    assert state["game"] == "knektpass" and state["phase"] == "play" and state["deal"] == 1
    assert state["to_move"] == "Ann" and state["deal_phase"] == "trump" and state["me"] == "Bob"
    assert [c["event"] for c in state["choices"]] == ["Ann takes the trump", "Ann leaves the trump"]
    assert sorted(state["hand"]) == sorted(SETUP["hand"]) and state["turned"] == SETUP["trump"]
    assert [p["points"] for p in state["players"]] == [4, 4, 4] and state["result"] is None
    saved = read_match(autosave.read_text())
    assert saved.first == FIRST and not saved.events


def test_a_whole_match_every_event_offered_and_in_the_autosave_when_answered(client, autosave):
    state = started(client)
    for index, event in enumerate(MATCH.events):
        text = describe(event)
        offered = [c["event"] for c in state["choices"]]
        if isinstance(event, NextDeal):
            assert state["next_deal"]["number"] == event.number and not offered
            assert state["outcome"] and state["phase"] == "play"
        elif isinstance(event, Exchange) and event.player == ME and event.count:
            assert state["exchange"]["most"] >= event.count and offered == ["Bob stands"]
            assert set(map(str, event.discards or ())) <= set(state["hand"])
            assert set(map(str, event.draws or ())) <= set(state["exchange"]["draws"])
        else:
            assert text in offered, (text, offered)
        response = client.post("/api/event", json={"version": state["version"], "event": text})
        assert response.status_code == 200, response.text
        state = response.json()
        assert read_match(autosave.read_text()).events == MATCH.events[: index + 1]
        assert state["log"][-1]["text"] == text
    assert state["deal"] == 2 and state["outcome"] is not None


def test_a_finished_match_says_who_won_as_knektpass_live_does(autosave):
    state = client_for(autosave, LiveMatch(WHOLE)).get("/api/state").json()
    assert state["phase"] == "over" and state["next_deal"] is None and not state["choices"]
    assert state["result"] == THE_END == LiveMatch(WHOLE).status().to_move()


def test_only_my_legal_cards_are_offered_and_an_illegal_one_is_refused(client, autosave):
    state = started(client)
    follows = next(
        i
        for i, e in enumerate(MATCH.events)
        if isinstance(e, Play) and e.player == ME and i and isinstance(MATCH.events[i - 1], Play)
    )
    state = push(client, state, follows)
    match = LiveMatch(read_match(autosave.read_text()))
    legal = [str(c) for c in match.deal.sorted_hand(match.view.playable(match.view.hand))]
    assert [c["event"].split()[-1] for c in state["choices"]] == legal
    illegal = [card for card in state["hand"] if card not in legal]
    assert illegal, "the scripted deal has Bob follow suit here"
    before = autosave.read_text()
    response = client.post("/api/event", json={"version": state["version"], "event": f"Bob plays {illegal[0]}"})
    assert response.status_code == 400 and response.json()["field"] == "event"
    assert autosave.read_text() == before and client.get("/api/state").json()["version"] == state["version"]


def test_others_are_offered_every_card_not_known_elsewhere(client):
    state = push(client, started(client), 11)  # Cat is to play to Bob's lead
    assert state["to_move"] == "Cat" and state["deal_phase"] == "play"
    cards = [c["event"].split()[-1] for c in state["choices"]]
    assert not set(cards) & set(state["hand"])  # never one of mine
    assert state["trick"][0]["card"] not in cards  # nor one on the table


def test_bad_events_stale_versions_and_undo(client, autosave):
    state = push(client, started(client), 3)
    for text, words in [("Ann plays 6S", "play or fold, not a card"), ("Bob folds", "turn"), ("Ann whistles", "")]:
        response = client.post("/api/event", json={"version": state["version"], "event": text})
        assert response.status_code == 400 and words in response.json()["error"], (text, response.json())
    assert client.post("/api/event", json={"version": state["version"], "event": 5}).status_code == 400
    stale = client.post("/api/event", json={"version": "old.1", "event": describe(MATCH.events[3])})
    assert stale.status_code == 409 and len(stale.json()["state"]["log"]) == 3
    state = client.post("/api/undo", json={"version": state["version"]}).json()
    assert len(state["log"]) == 2 and read_match(autosave.read_text()).events == MATCH.events[:2]
    assert client.post("/api/undo", json={"version": "old.1"}).status_code == 409
    assert client.get("/api/claim", params={"claimer": "Bob", "set": "x"}).status_code == 400


def test_why_a_card_is_where_it_is(client):
    state = push(client, started(client), 12)
    played = state["trick"][0]["card"]
    why = client.get("/api/why", params={"card": played.lower()}).json()
    assert why["card"] == played and why["lines"][0].startswith(f"{played}: played by ")
    assert client.get("/api/why", params={"card": state["hand"][0]}).json()["lines"] == [
        f"{state['hand'][0]}: in my hand"
    ]
    for card in ("5S", "ZZ"):
        assert client.get("/api/why", params={"card": card}).status_code == 400


def cli_json(*args: str) -> dict:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(args)) == 0
    return json.loads(out.getvalue())


def test_the_heat_map_is_knektpass_belief_on_the_autosave_without_my_hand(client, autosave):
    state = started(client)
    next_deal = next(i for i, e in enumerate(MATCH.events) if isinstance(e, NextDeal))
    mine = next(i for i, e in enumerate(MATCH.events) if isinstance(e, Exchange) and e.player == ME)
    first_play = next(i for i, e in enumerate(MATCH.events) if isinstance(e, Play))
    for at in (0, mine + 1, first_play + 4, next_deal, next_deal + 3):  # the trump, exchanges, play, deal 2
        state = push(client, state, at - len(state["log"]))
        belief = cli_json("knektpass", "belief", str(autosave), "--json")
        heat = state["heat"]
        assert heat["holders"] == belief["holders"] == [*GAME.players, "discards", "stock"]
        unseen = {card: row for card, row in belief["cards"].items() if card not in state["hand"]}
        assert [row["card"] for row in heat["cards"]] == list(unseen), at
        for row in heat["cards"]:
            assert row["p"] == [round(unseen[row["card"]][holder], 4) for holder in heat["holders"]], row
            assert abs(sum(row["p"]) - 1) < 1e-3
        played = {entry["card"] for entry in state["trick"]}
        assert not played & set(unseen) and not set(state["hand"]) & {row["card"] for row in heat["cards"]}


def test_the_heat_map_is_worked_out_once_per_position_and_each_cell_has_its_why(client, monkeypatch):
    state = push(client, started(client), 12)
    worked_out: list[int] = []
    marginals = KnektpassBelief.marginals
    monkeypatch.setattr(KnektpassBelief, "marginals", lambda self: worked_out.append(1) or marginals(self))
    assert client.get("/api/state").json()["heat"] == state["heat"] and not worked_out  # a reload, a second tab
    row = next(row for row in state["heat"]["cards"] if 0 < max(row["p"]) < 1)
    why = client.get("/api/why", params={"card": row["card"]}).json()["lines"]
    places = [f"{holder} {p:.2f}" for holder, p in zip(state["heat"]["holders"], row["p"]) if p > 0]
    assert why[0].startswith(f"{row['card']}: now ") and sorted(why[0].split(": now ")[1].split(", ")) == sorted(places)
    state = push(client, state, 1)
    assert len(worked_out) == 1  # the next position, once


def test_a_method_that_cannot_tell_leaves_the_map_out_and_the_table_up(autosave):
    client = client_for(autosave, LiveMatch(MatchRecord(FIRST), method="csp", autosave=str(autosave)))
    response = client.get("/api/state")
    assert response.status_code == 200 and response.json()["choices"]
    heat = response.json()["heat"]
    assert heat["cards"] == [] and heat["error"].startswith("csp: ") and heat["holders"][-1] == "stock"


def test_the_advice_is_that_of_knektpass_advise_on_the_autosave(client, autosave):
    state = push(client, started(client), 1)  # Ann took the trump: Bob bids
    assert state["my_turn"] and state["to_move"] == "Bob"
    assert state["advice"] == cli_json("knektpass", "advise", str(autosave), "--json")
    state = push(client, state, 1)  # Cat to bid: nothing for me to decide
    assert state["advice"] is None and not state["my_turn"]


def test_the_advice_under_the_players_prior_is_that_of_knektpass_advise_with_it(autosave):
    """``serve --prior players`` reaches each deal's belief: the page's advice is what ``knektpass advise --prior
    players`` says on the autosave, and names that prior."""
    client = client_for(autosave, prior="players")
    state = push(client, started(client), 1)
    assert state["advice"]["prior"].startswith("players (")
    assert state["advice"] == cli_json("knektpass", "advise", str(autosave), "--json", "--prior", "players")


def test_my_exchange_names_its_cards_and_the_advice_names_what_to_put_down(client, autosave):
    mine = next(i for i, e in enumerate(MATCH.events) if isinstance(e, Exchange) and e.player == ME)
    state = push(client, started(client), mine)
    exchange = state["exchange"]
    assert exchange["advised"] and all(
        len(cards) == int(event.split()[-1]) for event, cards in exchange["advised"].items()
    )
    assert not set(exchange["draws"]) & set(state["hand"]) and SETUP["trump"] not in exchange["draws"]
    event = MATCH.events[mine]
    text = f"Bob exchanges {event.count}: {format_cards(event.discards)} for {format_cards(event.draws)}"
    assert client.post("/api/event", json={"version": state["version"], "event": text}).status_code == 200


def test_a_restarted_server_resumes_the_match(autosave):
    client = client_for(autosave)
    state = push(client, started(client), 30)  # into the second deal
    assert state["deal"] == 2
    restarted = client_for(autosave, LiveMatch(read_match(autosave.read_text()), autosave=str(autosave)))
    resumed = restarted.get("/api/state").json()
    assert {k: v for k, v in resumed.items() if k != "version"} == {k: v for k, v in state.items() if k != "version"}


def test_undo_takes_back_a_next_deal(client, autosave):
    first_of_two = next(i for i, e in enumerate(MATCH.events) if isinstance(e, NextDeal))
    state = push(client, started(client), first_of_two + 1)
    assert state["deal"] == 2 and state["next_deal"] is None
    state = client.post("/api/undo", json={"version": state["version"]}).json()
    assert state["deal"] == 1 and state["next_deal"]["number"] == 2 and state["outcome"]
    assert read_match(autosave.read_text()).events == MATCH.events[:first_of_two]


def test_a_spectators_match_offers_every_player_their_choices_and_no_advice(autosave):
    events = [NextDeal(e.number, e.turned) if isinstance(e, NextDeal) else e.seen_by(None) for e in MATCH.events]
    spectator = MatchRecord(Record(FIRST.deal, None, {}), events)
    client = client_for(autosave, LiveMatch(MatchRecord(spectator.first), autosave=str(autosave)))
    state = client.get("/api/state").json()
    for index, event in enumerate(spectator.events):
        assert state["me"] is None and state["hand"] == [] and state["advice"] is None and not state["my_turn"]
        text = describe(event)
        if isinstance(event, NextDeal):
            text = f"Deal {event.number}: Trump {event.turned}"
        else:
            assert text in [c["event"] for c in state["choices"]], text
        response = client.post("/api/event", json={"version": state["version"], "event": text})
        assert response.status_code == 200, (index, response.text)
        state = response.json()
    assert read_match(autosave.read_text()).events == spectator.events


def test_a_body_too_large_and_two_clients_at_once(autosave):
    client = client_for(autosave)
    state = started(client)
    huge = client.post("/api/event", json={"version": state["version"], "event": "x" * MAX_BODY})
    assert huge.status_code == 413
    text = describe(MATCH.events[0])
    answers: list[int] = []
    barrier = threading.Barrier(2)

    def send() -> None:
        tab = TestClient(client.app, headers={"X-Token": TOKEN})
        barrier.wait()
        answers.append(tab.post("/api/event", json={"version": state["version"], "event": text}).status_code)

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200, 409]
    assert read_match(autosave.read_text()).events == MATCH.events[:1]
