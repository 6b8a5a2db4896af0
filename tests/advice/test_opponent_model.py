"""The advisor's model of the other players: a guess answered no says its asker had no sure ask."""

from __future__ import annotations

from cardlogic.cards import Card, iter_cards
from cardlogic.literature import Ask, Game, PlayerState, State
from cardlogic.literature.belief import LiteratureBelief
from cardlogic.literature.bots import AdvisorBot
from cardlogic.literature.decks import Deck

GAME = Game(("Ann", "Bob", "Cat", "Dan"), deck=Deck.named("no-8s", sets=["LS", "HS"]), dealer=0)


def hands(*texts: str) -> tuple[int, ...]:
    return tuple(sum(1 << Card.parse(word) for word in text.split()) for text in texts)


def ask(asker: str, target: str, card: str) -> Ask:
    return Ask(GAME.player_index(asker), GAME.player_index(target), Card.parse(card))


# Ann takes 2S from Bob, so it is known at Ann; Bob then guesses in high spades and hears no.
OPENING = (ask("Ann", "Bob", "2S"), ask("Ann", "Bob", "5S"), ask("Bob", "Ann", "JS"))


def beliefs(deal: tuple[int, ...], events, sure_asks_first: bool) -> LiteratureBelief:
    state = State(GAME, deal)
    belief = LiteratureBelief(GAME, 0, iter_cards(deal[0]), sure_asks_first=sure_asks_first)
    for event in events:
        belief.push(state.push(event))
    return belief


def test_a_guess_answered_no_says_the_asker_holds_no_card_of_a_set_with_a_card_known_at_an_opponent():
    deal = hands("3S 4S 9S", "2S 10S QS", "5S 6S JS", "7S KS AS")
    plain = beliefs(deal, OPENING, sure_asks_first=False)
    modelled = beliefs(deal, OPENING, sure_asks_first=True)
    for card in ("6S", "7S"):  # Bob would have asked Ann for 2S had he held a low spade
        assert plain.probability(card, "Bob") > 0.0
        assert modelled.probability(card, "Bob") == 0.0
    assert modelled.count() < plain.count()


def test_the_observers_own_guesses_and_answered_yes_say_nothing_more():
    deal = hands("3S 4S 9S", "2S 10S QS", "5S 6S JS", "7S KS AS")
    events = OPENING[:2]  # Ann's own ask answered no
    assert beliefs(deal, events, True).count() == beliefs(deal, events, False).count()


def test_the_advisor_drops_the_model_when_a_player_does_not_play_so():
    deal = hands("3S 4S 9S", "2S 6S 10S", "5S JS QS", "7S KS AS")  # Bob guessed while holding 6S
    state = State(GAME, deal)
    view = PlayerState(GAME, 0, deal[0])
    bot = AdvisorBot(GAME, 0, deal[0], seed=1)
    for event in (*OPENING, ask("Ann", "Bob", "6S")):  # a yes the model ruled out
        view.push(state.push(event))
    event = bot.choose(view)
    assert not bot.belief.tracker.sure_asks_first
    state.push(event)  # legal
