"""The JSON API of ``cardlogic serve``, in-process: every endpoint, the token, bad bodies, stale and concurrent changes."""

from __future__ import annotations

import io
import json
import threading
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardlogic.cli import main
from cardlogic.literature import Claim, format_event, read_record
from cardlogic.literature.advice import claim_advice
from cardlogic.literature.belief import DEFAULT_PRIOR
from cardlogic.table.literature import LiveGame
from cardlogic.web.app import MAX_BODY, create_app
from cardlogic.web.companion import Companion
from tests.cli.scripted import GAME, annes_view

TOKEN = "test-token-0123456789"
RECORD = annes_view()
ANNS_CLAIM = next(i for i, e in enumerate(RECORD.events) if isinstance(e, Claim) and e.claimer == 0)
"""The scripted game's first claim by Ann (of low-hearts)."""
THE_END = "the game is over, 3-1: Ann Cat Eve win"
"""Who won the scripted game, in the words ``cardlogic live`` ends on (Ann's side first)."""
SETUP = {
    "players": list(GAME.players),
    "sets": ["LS", "HS", "LH", "HH"],
    "dealer": "Fay",
    "me": "Ann",
    "hand": [str(card) for card in RECORD.hands[0]],
}


def opener(autosave: Path, prior: str = DEFAULT_PRIOR):
    def open_game(record):
        game = LiveGame(record, autosave=str(autosave), prior=prior)
        game.save(str(autosave))
        return game

    return open_game


def client_for(autosave: Path, game: LiveGame | None = None, prior: str = DEFAULT_PRIOR) -> TestClient:
    companion = Companion(opener(autosave, prior), game)
    return TestClient(create_app(companion, TOKEN), headers={"X-Token": TOKEN})


@pytest.fixture
def autosave(tmp_path: Path) -> Path:
    return tmp_path / "game.live.txt"


@pytest.fixture
def client(autosave: Path) -> TestClient:
    return client_for(autosave)


def started(client: TestClient) -> dict:
    version = client.get("/api/state").json()["version"]
    response = client.post("/api/setup", json={**SETUP, "version": version})
    assert response.status_code == 200, response.text
    return response.json()


def push(client: TestClient, state: dict, count: int) -> dict:
    """Push the scripted game's next ``count`` events after those in ``state``."""
    done = len(state["log"])
    for event in RECORD.events[done : done + count]:
        response = client.post("/api/event", json={"version": state["version"], "event": format_event(event, GAME)})
        assert response.status_code == 200, response.text
        state = response.json()
    return state


@pytest.mark.parametrize(
    "method, path",
    [("GET", "/"), ("GET", "/app.js"), ("GET", "/api/state"), ("GET", "/nowhere"), ("POST", "/api/event")],
)
@pytest.mark.parametrize("token", [None, "wrong", TOKEN[:-1]])
def test_without_the_token_every_request_is_refused_and_nothing_is_revealed(autosave, method, path, token):
    bare = TestClient(create_app(Companion(opener(autosave)), TOKEN))
    query = "" if token is None else f"?token={token}"
    response = bare.request(method, path + query, json={"event": "x"} if method == "POST" else None)
    assert response.status_code == 403
    assert response.text == "forbidden"
    assert not autosave.exists()


def test_the_page_and_its_assets_come_with_the_token_in_the_query_or_a_header(autosave):
    bare = TestClient(create_app(Companion(opener(autosave)), TOKEN))
    page = bare.get(f"/?token={TOKEN}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert f"app.js?token={TOKEN}" in page.text
    assert "http" not in page.text.replace("http-equiv", "")  # nothing fetched from elsewhere
    assert page.headers["referrer-policy"] == "no-referrer"
    assert "default-src 'none'" in page.headers["content-security-policy"]
    script = bare.get("/app.js", headers={"X-Token": TOKEN})
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert bare.get(f"/app.css?token={TOKEN}").status_code == 200
    assert bare.get(f"/secrets.txt?token={TOKEN}").status_code == 404


def test_set_up_is_checked_field_by_field(client, autosave):
    state = client.get("/api/state").json()
    assert state["phase"] == "setup" and "no-8s" in state["decks"]
    cases = [
        ({"players": ["Ann", "Bob", "Cat"]}, "players", "4 to 12 players"),
        ({"players": "Ann Bob"}, "players", "list of names"),
        ({**SETUP, "deck": "no-9s"}, "deck", "no-9s"),
        ({**SETUP, "sets": []}, "sets", "at least one set"),  # every set tapped out is not every set in play
        ({**SETUP, "sets": ["LS", "XX"]}, "sets", "XX"),
        ({**SETUP, "sets": ["LS", "ls"]}, "sets", "named twice"),
        ({**SETUP, "sets": "LS HS"}, "sets", "a list of set names"),
        ({**SETUP, "players": [*"ABCDEFG"], "sets": ["LS"]}, "deck", "6 cards, fewer than the 7 players"),
        ({**SETUP, "players": ["Ann", "ann", "Cat", "Dan"], "sets": ["LS"]}, "players", "ann"),
        ({**SETUP, "teams": [0, 0, 0, 0, 0, 0]}, "teams", "both teams"),
        ({**SETUP, "dealer": "Zed"}, "dealer", "Zed"),
        ({**SETUP, "rules": "bluff=maybe"}, "rules", "bluff"),
        ({**SETUP, "me": "Zed"}, "me", "Zed"),
        ({**SETUP, "hand": SETUP["hand"][:3]}, "hand", "dealt 4 cards, not 3"),
        ({**SETUP, "hand": [*SETUP["hand"][:3], "8S"]}, "hand", "8S"),
        ({**SETUP, "hand": [*SETUP["hand"][:3], "XX"]}, "hand", "XX"),
    ]
    for body, field, words in cases:
        response = client.post("/api/setup/check", json=body)
        assert response.status_code == 400, body
        assert response.json()["field"] == field and words in response.json()["error"], response.json()
    partial = client.post(
        "/api/setup/check", json={"players": SETUP["players"], "sets": SETUP["sets"], "dealer": "Fay"}
    ).json()
    assert partial["sizes"]["Fay"] == 4 and not partial["complete"] and partial["hand_size"] is None
    assert client.post("/api/setup/check", json=SETUP).json()["complete"]
    assert not autosave.exists()  # checking writes nothing
    refused = client.post("/api/setup", json={**SETUP, "hand": None, "version": state["version"]})
    assert refused.status_code == 400 and refused.json()["field"] == "hand"


@pytest.mark.parametrize("count", [5, 7, 9, 10, 11])
def test_players_the_deck_does_not_split_evenly_among_go_on_to_the_dealer_who_says_who_gets_more(client, count):
    """Before the dealer is named the deck's cards are not dealt yet: the set-up goes on to ask for the dealer."""
    players = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim"][:count]
    before = client.post("/api/setup/check", json={"players": players})
    assert before.status_code == 200, before.json()
    assert before.json()["players"] == players and before.json()["sizes"] is None
    sizes = client.post("/api/setup/check", json={"players": players, "dealer": players[-1]}).json()["sizes"]
    assert sum(sizes.values()) == 48 and max(sizes.values()) - min(sizes.values()) == 1


def test_a_game_set_up_on_the_page_is_autosaved_before_the_answer(client, autosave):
    state = started(client)
    assert state["phase"] == "play" and state["me"] == "Ann" and state["to_move"] == "Fay"
    assert sorted(state["hand"]) == sorted(SETUP["hand"])
    saved = read_record(autosave.read_text())
    assert saved.hands == {0: RECORD.hands[0]} and not saved.events
    again = client.post("/api/setup", json={**SETUP, "version": state["version"]})
    assert again.status_code == 400 and "already" in again.json()["error"]


def test_a_whole_game_every_event_offered_and_in_the_autosave_when_answered(client, autosave):
    state = started(client)
    assert state["result"] is None
    for index, event in enumerate(RECORD.events):
        text = format_event(event, GAME)
        actor = text.split()[0]
        if " asks " in text:
            target, card, answer = text.split()[2], text.split()[4].rstrip(":"), text.split()[-1]
            offered = {(c["target"], c["card"]): c["answers"] for c in state["asks"][actor]}
            assert answer in offered[(target, card)], text
        elif " claims " in text:
            assert actor in state["claimers"]
        else:
            assert {"giver": actor, "receiver": text.split()[-1]} in state["passes"]
        response = client.post("/api/event", json={"version": state["version"], "event": text})
        assert response.status_code == 200, response.text
        state = response.json()
        assert read_record(autosave.read_text()).events == RECORD.events[: index + 1]
        assert state["log"][-1]["text"] == text
    assert state["phase"] == "over" and state["scores"] == list(RECORD.replay().public.scores) and not state["asks"]
    assert state["result"] == THE_END


def test_only_legal_asks_are_offered(client):
    state = started(client)  # Fay (no 8s, four sets of six) asks first; Ann holds 9S KS 3H 4H
    fay = state["asks"]["Fay"]
    assert {c["target"] for c in fay} == {"Ann", "Cat", "Eve"}  # opponents only
    asked_of_ann = {c["card"]: c["answers"] for c in fay if c["target"] == "Ann"}
    assert asked_of_ann["3H"] == ["yes"] and asked_of_ann["2H"] == ["no"]  # Ann knows her own hand
    state = push(client, state, 7)  # Ann to move
    ann = state["asks"]["Ann"]
    hand = set(state["hand"])
    assert ann and not any(c["card"] in hand for c in ann)  # never a card of her own (bluff=off)
    sets = {s["name"]: set(s["cards"]) for s in state["sets"]}
    for choice in ann:
        own_set = next(cards for cards in sets.values() if choice["card"] in cards)
        assert own_set & hand  # only sets she holds a card of
        assert choice["target"] in ("Bob", "Dan", "Fay")


def test_an_illegal_event_is_refused_and_changes_nothing(client, autosave):
    state = started(client)
    before = autosave.read_text()
    for text, words in [
        ("Ann asks Bob for 5S: yes", "turn"),
        ("Fay asks Ann for 3H: no", "impossible"),
        ("Fay asks Bob for 3H: yes", "teammate"),
        ("Fay asks Ann for 8S: yes", "not in play"),
        ("Fay whispers", "not an event"),
    ]:
        response = client.post("/api/event", json={"version": state["version"], "event": text})
        assert response.status_code == 400 and words in response.json()["error"], (text, response.json())
    assert client.get("/api/state").json()["version"] == state["version"]
    assert autosave.read_text() == before


@pytest.mark.parametrize(
    "content, status, words",
    [
        (b"not json", 400, "not JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b'{"event": 5}', 400, "record notation"),
        (b"\xff\xfe", 400, "not JSON"),
        (b'{"event": "' + b"x" * MAX_BODY + b'"}', 413, "over"),
    ],
)
def test_bad_bodies_get_a_clear_error(client, content, status, words):
    started(client)
    response = client.post("/api/event", content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == status and words in response.json()["error"]
    assert "Traceback" not in response.text


def test_a_body_too_large_is_refused_without_a_length_too(client):
    started(client)

    def chunks():
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000

    response = client.post("/api/event", content=chunks())
    assert response.status_code == 413


def test_a_stale_tab_is_refused_with_the_current_state_and_nothing_is_applied_twice(autosave):
    first, second = client_for(autosave), None
    state = started(first)
    second = TestClient(first.app, headers={"X-Token": TOKEN})  # another tab on the same game
    seen_by_second = second.get("/api/state").json()
    assert seen_by_second == state
    text = format_event(RECORD.events[0], GAME)
    assert first.post("/api/event", json={"version": state["version"], "event": text}).status_code == 200
    stale = second.post("/api/event", json={"version": seen_by_second["version"], "event": text})
    assert stale.status_code == 409 and "changed" in stale.json()["error"]
    assert len(stale.json()["state"]["log"]) == 1
    assert len(read_record(autosave.read_text()).events) == 1
    assert second.post("/api/undo", json={"version": seen_by_second["version"]}).status_code == 409
    assert second.post("/api/event", json={"event": text}).status_code == 409  # no version: refused too


def test_two_clients_at_once_one_change_wins(autosave):
    client = client_for(autosave)
    state = started(client)
    text = format_event(RECORD.events[0], GAME)
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
    assert len(read_record(autosave.read_text()).events) == 1


def test_undo_takes_back_the_last_event_and_saves(client, autosave):
    state = started(client)
    assert client.post("/api/undo", json={"version": state["version"]}).json()["error"] == "nothing to undo"
    state = push(client, state, 3)
    state = client.post("/api/undo", json={"version": state["version"]}).json()
    assert len(state["log"]) == 2 and read_record(autosave.read_text()).events == RECORD.events[:2]


def test_why_and_the_heat_map(client):
    state = push(client, started(client), 1)  # Fay takes 3H from Ann
    assert state["heat"]["holders"] == [p["name"] for p in state["players"]]
    row = next(row for row in state["heat"]["cards"] if row["card"] == "3H")
    assert row["p"] == [0, 0, 0, 0, 0, 1]
    assert len(state["heat"]["cards"]) == 24 and all(abs(sum(r["p"]) - 1) < 1e-3 for r in state["heat"]["cards"])
    why = client.get("/api/why", params={"card": "3h"}).json()
    assert why["card"] == "3H" and "  line 9: Fay asks Ann for 3H: yes" in why["lines"]
    for card in ("8S", "ZZ"):
        assert client.get("/api/why", params={"card": card}).status_code == 400


def test_the_claim_sheet_is_pre_filled_with_the_best_assignment(client, autosave):
    state = push(client, started(client), ANNS_CLAIM)  # Ann to move; her team can claim low-hearts
    assert state["to_move"] == "Ann"
    sheet = client.get("/api/claim", params={"claimer": "Ann", "set": "LH"}).json()
    best = claim_advice(LiveGame(read_record(autosave.read_text())).belief, GAME.deck.set_index("LH"))
    # the server's players' prior, followed event by event, agrees with a fresh read within its sampling error
    assert sheet["p_correct"] == pytest.approx(best.p_correct, abs=0.01)
    assert sheet["assignment"] == {str(card): GAME.players[holder] for card, holder in best.assignment}
    assert sheet["team"] == ["Ann", "Cat", "Eve"]
    assert client.get("/api/claim", params={"claimer": "Bob", "set": "LH"}).status_code == 400
    assert client.get("/api/claim", params={"claimer": "Ann", "set": "HH"}).json()["field"] == "set"  # claimed
    assert client.get("/api/claim", params={"claimer": "Ann", "set": "nope"}).status_code == 400


def test_the_advice_is_that_of_cardlogic_advise_on_the_autosave(autosave):
    # under the rules' exact prior; the players' prior, followed event by event, keeps the deals it weighed, so its
    # figures differ from a fresh read's within their sampling error
    client = client_for(autosave, prior="rules")
    state = push(client, started(client), 6)  # Fay to move, then Ann after two more
    assert state["advice"] is None and not state["my_team_to_move"]
    state = push(client, state, 1)  # Fay asks Ann: now Ann is to move
    assert state["my_team_to_move"]
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["advise", str(autosave), "--json", "--prior", "rules"]) == 0
    assert state["advice"] == json.loads(out.getvalue())


def test_the_advice_says_which_prior_answered(client, autosave):
    state = push(client, started(client), 7)  # Ann to move
    assert state["my_team_to_move"] and state["advice"]["prior"].startswith("players")
    weighed, figures = state["advice"]["caption"].split("; the figures: ")  # as `cardlogic advise` captions it
    assert weighed == f"prior: {state['advice']['prior']}, the rules' deals weighed by the players' choices"
    assert figures == f"{state['advice']['samples']:,} deals drawn from those by weight"


def test_a_restarted_server_resumes_the_game_and_refuses_what_a_tab_saw_before(autosave):
    client = client_for(autosave, prior="rules")  # the same figures to the last digit: see the test above
    state = push(client, started(client), 5)
    restarted = client_for(
        autosave, LiveGame(read_record(autosave.read_text()), autosave=str(autosave), prior="rules"), prior="rules"
    )
    resumed = restarted.get("/api/state").json()
    assert {k: v for k, v in resumed.items() if k != "version"} == {k: v for k, v in state.items() if k != "version"}
    text = format_event(RECORD.events[5], GAME)
    assert restarted.post("/api/event", json={"version": state["version"], "event": text}).status_code == 409
    assert restarted.post("/api/event", json={"version": resumed["version"], "event": text}).status_code == 200


def test_unknown_paths_and_methods(client):
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/event").status_code == 405
    assert client.post("/api/state", json={}).status_code == 405
