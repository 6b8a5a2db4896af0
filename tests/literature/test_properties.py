"""Random games between random-legal bots, across player counts 4..12, every deck and every house rule."""

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from cardlogic.cards import iter_cards
from cardlogic.literature import (
    Claim,
    Game,
    PeekingRandomBot,
    PlayerState,
    PublicState,
    Record,
    Rules,
    State,
    read_record,
    write_record,
)
from cardlogic.literature.decks import DECK_NAMES, Deck
from cardlogic.literature.selfplay import play_random_game

SETTINGS = settings(max_examples=500, deadline=None)


@st.composite
def games(draw: st.DrawFn, max_sets: int | None = None) -> Game:
    """A random legal game set-up: players, deck (maybe fewer sets), teams, house rules, dealer or sizes."""
    n = draw(st.integers(4, 12))
    deck = Deck.named(draw(st.sampled_from(DECK_NAMES)))
    sets = list(range(len(deck.sets)))
    smallest = -(-n // len(deck.sets[0].cards))  # enough sets for one card each
    if max_sets is not None or draw(st.booleans()):  # half the games use only some of the sets
        count = draw(st.integers(max(1, smallest), min(len(sets), max_sets or len(sets))))
        deck = deck.restricted([deck.sets[i].short for i in sorted(draw(st.permutations(sets))[:count])])
    teams = draw(
        st.one_of(
            st.just(()),
            st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda t: 0 in t and 1 in t).map(tuple),
        )
    )
    rules = Rules(
        draw(st.sampled_from(["split", "opponents"])), draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    )
    players = tuple(f"P{i}" for i in range(n))
    if draw(st.booleans()):
        return Game(players, teams, deck, rules, dealer=draw(st.integers(0, n - 1)))
    cuts = sorted(draw(st.lists(st.integers(1, len(deck.cards) - 1), min_size=n - 1, max_size=n - 1, unique=True)))
    sizes = tuple(b - a for a, b in zip([0, *cuts], [*cuts, len(deck.cards)]))
    return Game(players, teams, deck, rules, sizes=sizes)


def full_record(game: Game, seed: int) -> Record:
    hands, events = play_random_game(game, seed)
    return Record(game, None, {p: tuple(iter_cards(hand)) for p, hand in enumerate(hands)}, events)


def snapshot(state: State):
    public = state.public
    return state.hands, public.to_move, public.sizes, dict(public.claimed), dict(public.known), public.history


def check_invariants(state: State) -> None:
    game, public = state.game, state.public
    hands = state.hands
    held = 0
    for player, hand in enumerate(hands):
        assert not hand & held, "a card is in two hands"
        held |= hand
        assert hand.bit_count() == public.sizes[player]
    out = 0
    for index in public.claimed:
        out |= game.set_masks[index]
    assert held | out == game.deck.mask and not held & out, "cards are conserved"
    assert all(hands[holder] >> card & 1 for card, holder in public.known.items())
    assert public.scores == tuple(
        sum(game.set_value(i) for i, t in public.claimed.items() if t == team) for team in (0, 1)
    )
    if public.is_over:
        assert public.to_move is None and not held
    elif public.to_move is not None:
        mover = public.to_move
        assert public.sizes[mover] or public.may_pass or public.endgame  # the endgame's claims need no cards
        assert public.team_cards(game.team_of(mover)) > 0


@SETTINGS
@given(games(), st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules_and_end(game, seed):
    rng = random.Random(seed)
    state = State.shuffled(game, rng)
    start = snapshot(state)
    bot = PeekingRandomBot(rng)
    limit = 10 * len(game.deck.cards)
    pushed = 0
    while not state.is_over:
        if rng.random() < 0.05:
            for event in state.legal_events():  # every listed event is legal, and pop undoes it exactly
                before = snapshot(state)
                completed = state.push(event)
                assert state.pop() == completed
                assert snapshot(state) == before
        state.push(bot.choose(state, pushed >= limit))
        pushed += 1
        check_invariants(state)
        assert pushed <= limit + 4 * len(game.deck.sets), "the game must end"
    result = state.result()
    assert result.scores == state.public.scores
    assert result.winner == (None if result.scores[0] == result.scores[1] else int(result.scores[1] > result.scores[0]))
    assert state.legal_events() == []
    while state.history:
        state.pop()
    assert snapshot(state) == start


@SETTINGS
@given(games(), st.integers(0, 2**32 - 1))
def test_full_records_round_trip_and_replay(game, seed):
    record = full_record(game, seed)
    text = write_record(record)
    back = read_record(text)
    assert back == record and write_record(back) == text
    assert back.lines == record.lines
    state = back.replay()
    assert isinstance(state, State) and state.is_over
    assert all(isinstance(e, Claim) and e.revealed is not None for e in state.history if isinstance(e, Claim))
    assert replace(back, hands={}).check() == []


@settings(max_examples=400, deadline=None)
@given(games(), st.integers(0, 2**32 - 1), st.data())
def test_every_view_round_trips_and_validates(game, seed, data):
    record = full_record(game, seed)
    cut = data.draw(st.integers(0, len(record.events)))
    for player in range(len(game.players)):
        view = record.view_as(player)
        view = replace(view, events=view.events[:cut], lines=view.lines[:cut])
        text = write_record(view)
        back = read_record(text)
        assert back == view and write_record(back) == text
        assert isinstance(view.start(), PlayerState) and view.check() == []


@settings(max_examples=1000, deadline=None)
@given(games(max_sets=3), st.integers(0, 2**32 - 1))
def test_small_games_replay_for_everyone(game, seed):
    record = full_record(game, seed)
    assert record.check() == []
    assert isinstance(replace(record, hands={}).start(), PublicState)
    public = replace(record, hands={}).replay()
    assert public.is_over and public.scores == record.replay().public.scores
