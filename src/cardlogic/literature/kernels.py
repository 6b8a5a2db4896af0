"""Numba kernels of the determinized playouts (:mod:`cardlogic.literature.playouts`) and of the players' choice
model (:mod:`cardlogic.literature.choices`): plain functions over numpy arrays and integer card masks.

Nothing here knows about players' names, events or beliefs. A deal is ``hands`` (one ``int64`` card mask per
player); ``set_masks``/``set_values`` the unclaimed sets' cards and points, ``team_of`` each player's team;
``known``/``exposed`` the cards publicly known at each player, ``lacks`` those each is publicly known not to hold,
and ``odds`` the observer's belief about where hidden cards are.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardlogic.inference.kernels import _popcount

HOLDING = 0.5
"""What a card of a set still in play is worth at the end of a playout, as a share of the set: half, since the
battle for the set goes on (hand-set, not tuned)."""
MAX_EVENTS = 600
"""Events after which a playout stops anyway (one whose guesses keep hitting), scored as it stands."""


@njit(cache=True)
def playouts(hands, exposed, odds, set_masks, set_values, team_of, askers, targets, cards, team_picks, seed):
    """The score of each candidate ask ``askers[k]`` -> ``targets[k]`` for ``cards[k]`` (rows) on each deal of
    ``hands`` (columns), every candidate of deal ``j`` played with the random numbers of ``seed + j``;
    ``team_picks``: a claimer may hand the turn to any teammate (``after-claim=team-picks``), not only when the
    claim left them without cards."""
    candidates, deals = len(cards), hands.shape[0]
    scores = np.zeros((candidates, deals))
    for j in range(deals):
        for k in range(candidates):
            np.random.seed(seed + j)
            hand = hands[j].copy()
            known = exposed.copy()
            lacks = np.zeros_like(known)
            asker, target, bit = askers[k], targets[k], np.int64(1) << cards[k]
            if hand[target] & bit:
                hand[target] &= ~bit
                hand[asker] |= bit
                known[asker] |= bit
                mover = asker
            else:
                lacks[target] |= bit
                lacks[asker] |= bit
                mover = target
            points = _play(hand, known, lacks, odds, set_masks, set_values, team_of, mover, team_of[asker], team_picks)
            team = team_of[asker]
            scores[k, j] = points[team] - points[1 - team]
    return scores


@njit(cache=True)
def _play(hand, known, lacks, odds, set_masks, set_values, team_of, mover, home, team_picks):
    """Play from ``mover``'s turn until the turn is back with team ``home`` after the other team's, or the game
    ends; the points each team scored, with the holdings of the sets left. A claimer without cards passes to the
    teammate with the most; one with cards, only under ``team_picks``, to a teammate with a known ask."""
    players, sets = len(hand), len(set_masks)
    points = np.zeros(2)
    live = np.ones(sets, dtype=np.bool_)
    away = False
    for _ in range(MAX_EVENTS):
        team = team_of[mover]
        if team != home:
            away = True
        elif away:
            break
        own = opposing = 0
        for p in range(players):
            if team_of[p] == team:
                own |= hand[p]
            else:
                opposing |= hand[p]
        if own == 0 or opposing == 0:  # the team with cards holds every set left
            for s in range(sets):
                if live[s]:
                    points[team if opposing == 0 else 1 - team] += set_values[s]
            return points
        if hand[mover] == 0:
            mover = _mate_with_most_cards(hand, team_of, mover)
            continue
        sure = hand[mover]
        for p in range(players):
            if team_of[p] == team and p != mover:
                sure |= known[p]
        claimed = False
        for s in range(sets):
            if live[s] and set_masks[s] & ~sure == 0:
                live[s] = False
                points[team] += set_values[s]
                for p in range(players):
                    hand[p] &= ~set_masks[s]
                    known[p] &= ~set_masks[s]
                claimed = True
        if claimed:
            if not live.any():
                return points
            if team_picks and _known_ask(hand, known, set_masks, live, team_of, mover) < 0:
                for p in range(players):  # pass to a teammate with a known ask, if any
                    if (
                        team_of[p] == team
                        and p != mover
                        and hand[p]
                        and _known_ask(hand, known, set_masks, live, team_of, p) >= 0
                    ):
                        mover = p
                        break
            continue
        ask = _known_ask(hand, known, set_masks, live, team_of, mover)
        if ask >= 0:
            target, bit = ask // 64, np.int64(1) << (ask % 64)
        else:
            target, bit = _gamble(hand, known, lacks, odds if team == home else None, set_masks, live, team_of, mover)
        if hand[target] & bit:
            hand[target] &= ~bit
            known[target] &= ~bit
            hand[mover] |= bit
            known[mover] |= bit
        else:
            lacks[target] |= bit
            lacks[mover] |= bit
            mover = target
    _score_holdings(hand, set_masks, set_values, team_of, live, points)
    return points


@njit(cache=True)
def _score_holdings(hand, set_masks, set_values, team_of, live, points):
    """Add to ``points`` each live set's value if one team holds all of it (the other cannot ask for its cards),
    else ``HOLDING`` times each team's share of its cards."""
    for s in range(len(set_masks)):
        if not live[s]:
            continue
        held = np.zeros(2)
        for p in range(len(hand)):
            cards = hand[p] & set_masks[s]
            while cards:
                cards &= cards - 1
                held[team_of[p]] += 1.0
        size = held[0] + held[1]
        for team in range(2):
            points[team] += set_values[s] * (1.0 if held[team] == size else HOLDING * held[team] / size)


@njit(cache=True)
def _held_sets(hand, set_masks, live):
    """The cards of every live set ``hand`` holds a card of."""
    held = 0
    for s in range(len(set_masks)):
        if live[s] and hand & set_masks[s]:
            held |= set_masks[s]
    return held


@njit(cache=True)
def _known_ask(hand, known, set_masks, live, team_of, mover):
    """A card publicly known at an opponent that ``mover`` may ask for, as ``target * 64 + card``; -1 if none."""
    wanted = _held_sets(hand[mover], set_masks, live) & ~hand[mover]
    for p in range(len(hand)):
        if team_of[p] != team_of[mover] and known[p] & wanted:
            found = known[p] & wanted
            card = 0
            while not found >> card & 1:
                card += 1
            return p * 64 + card
    return -1


@njit(cache=True)
def _gamble(hand, known, lacks, odds, set_masks, live, team_of, mover):
    """The (target, card bit) of a guess among the hidden cards of ``mover``'s sets and the opponents with cards not
    known to lack them: the likeliest by ``odds`` (the observer's team), else by the counting bot's estimate (the
    opponents); an opponent with cards and no card when there is no such pair."""
    players = len(hand)
    seen = 0
    for p in range(players):
        seen |= known[p]
    wanted = _held_sets(hand[mover], set_masks, live) & ~hand[mover] & ~seen
    count = 0
    fallback, best, best_bit, best_odds = -1, -1, np.int64(0), -1.0
    for p in range(players):
        if team_of[p] != team_of[mover] and hand[p]:
            fallback = p
            for card in range(64):
                if wanted >> card & 1 and not lacks[p] >> card & 1:
                    count += 1
                    if odds is not None and odds[card, p] > best_odds:
                        best, best_bit, best_odds = p, np.int64(1) << card, odds[card, p]
    if count == 0:
        return fallback, np.int64(0)
    if odds is not None:
        return best, best_bit
    # The counting bot's estimate: the target's unknown cards over those of everyone else who may hold the card.
    slots = np.zeros(players)
    for p in range(players):
        cards = hand[p] & ~known[p]
        while cards:
            cards &= cards - 1
            slots[p] += 1.0
    best_estimate, ties = -1.0, 0
    for p in range(players):
        if team_of[p] != team_of[mover] and hand[p]:
            for card in range(64):
                if wanted >> card & 1 and not lacks[p] >> card & 1:
                    total = 0.0
                    for q in range(players):
                        if q != mover and not lacks[q] >> card & 1:
                            total += slots[q]
                    estimate = slots[p] / total if total > 0.0 else 0.0
                    if estimate > best_estimate + 1e-12:
                        best, best_bit, best_estimate, ties = p, np.int64(1) << card, estimate, 1
                    elif estimate > best_estimate - 1e-12:
                        ties += 1
                        if np.random.randint(ties) == 0:  # an even choice among the ties
                            best, best_bit = p, np.int64(1) << card
    return best, best_bit


@njit(cache=True)
def _mate_with_most_cards(hand, team_of, mover):
    best, most = mover, -1
    for p in range(len(hand)):
        if team_of[p] == team_of[mover] and p != mover:
            size = 0
            cards = hand[p]
            while cards:
                cards &= cards - 1
                size += 1
            if size > most:
                best, most = p, size
    return best


@njit(cache=True)
def _covers_a_set(hand, mates_public, live, set_masks):
    """1 where some live set is covered by ``hand`` and the cards publicly at teammates (a certain claim), else 0."""
    for s in range(len(set_masks)):
        mask = set_masks[s]
        if mask & live == mask and mask & ~(hand | mates_public) == 0:
            return 1
    return 0


@njit(cache=True)
def _claim_chances(claim_bias, claim_certain, mix):
    """P(claim now) of a player without and with a certain claim (:func:`_covers_a_set`): a logistic on it, mixed
    with an even chance."""
    chances = np.zeros(2)
    for certain in range(2):
        chances[certain] = (1.0 - mix) / (1.0 + np.exp(-(claim_bias + claim_certain * float(certain)))) + mix / 2.0
    return chances


ESTIMATE_FLOOR = 0.05
"""The smallest private estimate the choice model tells apart: ``estimate`` weighs log(max(estimate, this))."""


@njit(cache=True)
def _private_estimate(bit, hand, hidden, at, public_estimate, due, set_mask):
    """The asker's own estimate of P(the target holds card ``bit``), with the asker's ``hand`` under the deal: 1 or 0
    where the card is publicly placed or publicly not at the target (not among its ``hidden`` open cards; ``at``
    its public cards; 0 in ``hand``); else the counting estimate (``public_estimate``) sharpened by the set counts,
    as the strong bot does: a target known to hold ``due`` more hidden cards of the set (``set_mask``) holds each of
    the ``m`` ones not in ``hand`` they may hold with chance at least ``due / m``. Scalars only: called per option
    and deal, it passes no arrays."""
    if hand & bit:
        return 0.0
    if not hidden & bit:
        return 1.0 if at & bit else 0.0
    value = public_estimate
    if due > 0:
        maybe = _popcount(hidden & set_mask & ~hand)
        value = max(value, min(1.0, due / maybe) if maybe else 1.0)
    return value


TIE = 1e-9
"""How near two private estimates are to count as equal (the likeliest asks, and a certain one)."""


@njit(cache=True)
def _ask_value(bit, hand, hidden, at, public_estimate, base_value, due, set_mask):
    """Whether the asker's ``hand`` bears on the ask of card ``bit`` (it holds the card, or the target owes hidden
    cards of the set), and the asker's private estimate (:func:`_private_estimate`; ``base_value`` where it does
    not). Scalars only: called per option and deal, it passes no arrays."""
    if not hand & bit and not (hidden & bit and due > 0):
        return False, base_value
    return True, _private_estimate(bit, hand, hidden, at, public_estimate, due, set_mask)


@njit(cache=True, inline="always")
def _style_weight(own, value, exp_public, base_weight, w_estimate, w_inferred):
    """exp(score) of an ask under one style but the ``likeliest`` term: ``base_weight`` where the asker's hand does
    not bear on it (``own`` false: :func:`public_ask_weights`), else its public score ``exp_public`` times the
    private estimate ``value`` to the power ``w_estimate``, times exp(``w_inferred``) where it is certain."""
    if not own:
        return base_weight
    certain = value >= 1.0 - TIE
    return exp_public * np.exp(w_estimate * np.log(max(value, ESTIMATE_FLOOR)) + w_inferred * certain)


def public_ask_values(public_at, estimate, hidden_open):
    """Per event, card and target, the estimate of an asker whose hand neither holds the card nor sharpens the
    estimate (no cards owed in the set): the public estimate, 1 or 0 where the card is publicly placed."""
    cards = np.arange(64)[None, :, None]
    hidden = (hidden_open[:, None, :] >> cards) & 1
    placed_at = ((public_at[:, None, :] >> cards) & 1).astype(np.float64)
    return np.where(hidden == 1, estimate, placed_at)


def public_ask_weights(exp_public, value, w_estimate, w_inferred):
    """:func:`_style_weight`'s weight, under one style, of the asks whose estimate is ``value``
    (:func:`public_ask_values`)."""
    certain = value >= 1.0 - TIE
    return exp_public * np.exp(w_estimate * np.log(np.maximum(value, ESTIMATE_FLOOR)) + w_inferred * certain)


@njit(cache=True)
def choice_log_likelihoods(
    deals,
    card_bits,
    players,
    kind,
    actor,
    card,
    target,
    gone,
    public_at,
    mates_public,
    exposed,
    targets,
    exp_public,
    base_weight,
    base_value,
    estimate,
    owed,
    hidden_open,
    receivers,
    set_masks,
    set_of,
    live,
    bluff,
    held_weight,
    claim_bias,
    claim_certain,
    pass_sure,
    w_estimate,
    w_inferred,
    w_likeliest,
    w_likeliest_plain,
    mix,
):
    """Per style, deal (rows of ``deals``: the holder of each card of ``card_bits``) and player, the log-likelihood
    of that player's choices under the style's choice model, and per deal and player under the rules alone (see
    :mod:`cardlogic.literature.choices`, which builds the arrays). An event of ``actor`` -1 is left out; for an
    ask, ``targets[k, c, t]`` says whether the ask of ``c`` of ``t`` is open, ``exp_public[k, c, t, m]`` is
    exp(its public score) under style ``m``, ``base_weight[k, c, t, m]`` and ``base_value[k, c, t]`` its weight and
    the asker's estimate where the asker's hand does not bear on it (:func:`public_ask_weights`,
    :func:`public_ask_values`),
    ``estimate``/``owed``/``hidden_open`` what :func:`_private_estimate` reads, ``held_weight[s, h, m]`` the weight of
    asking in set ``s`` holding ``h`` of its cards; the styles' other weights are arrays with an entry per style,
    ``w_likeliest`` the weight of an ask whose estimate is the largest of the asker's open asks, ``w_likeliest_plain``
    that of one whose plain estimate (the counting estimate, not sharpened by the set counts) is.

    The styles share one pass: the hands, the claims' certainty, the asker's estimates and which asks are the
    likeliest are worked out once per deal and event, only the weights per style. The open asks of a set at an
    event weigh the same in every deal where the asker holds the same cards of that set: their sums, their largest
    estimate and the sums of those that reach it are worked out once per event, set and such holding (the deals
    share few), in the same order."""
    n, events, styles = deals.shape[0], len(kind), len(mix)
    modelled = np.zeros((styles, n, players))
    rules = np.zeros((n, players))
    set_cards, holdings = _set_cards(set_masks)
    open_sums = np.zeros((len(set_masks), holdings, styles))
    open_counts = np.zeros((len(set_masks), holdings), np.int64)
    open_best = np.zeros((len(set_masks), holdings))
    open_best_sums = np.zeros((len(set_masks), holdings, styles))
    open_plain_best = np.zeros((len(set_masks), holdings))
    open_plain_sums = np.zeros((len(set_masks), holdings, styles))
    open_both_sums = np.zeros((len(set_masks), holdings, styles))
    caches = (open_sums, open_counts, open_best, open_best_sums, open_plain_best, open_plain_sums, open_both_sums)
    likeliest_factor = np.exp(w_likeliest)
    plain_factor = np.exp(w_likeliest_plain)
    pass_factor = np.exp(pass_sure)
    log_claim, log_no_claim = np.zeros((styles, 2)), np.zeros((styles, 2))
    for m in range(styles):
        claim_chances = _claim_chances(claim_bias[m], claim_certain[m], mix[m])
        log_claim[m], log_no_claim[m] = np.log(claim_chances), np.log(1.0 - claim_chances)
    pass_total, pass_mine = np.zeros(styles), np.zeros(styles)
    asked_sets = np.zeros(len(set_masks), np.int64)  # an ask's sets the asker holds cards of, ...
    held_counts = np.zeros(len(set_masks), np.int64)  # ... how many, ...
    holdings_of = np.zeros(len(set_masks), np.int64)  # ... which
    likeliest = np.zeros(len(set_masks), np.bool_)  # whether an asked set's best ask is among the likeliest
    likeliest_plain = np.zeros(len(set_masks), np.bool_)  # the same by the plain estimate
    asks = (hidden_open, public_at, estimate, base_value, owed)
    dealt = np.zeros((n, players), np.int64)  # each deal's starting hands
    for j in range(n):
        for i in range(len(card_bits)):
            dealt[j, deals[j, i]] |= np.int64(1) << card_bits[i]
    # event by event, every deal: an event's cached open asks stay at hand
    for k in range(events):
        a = actor[k]
        if a < 0 or kind[k] == 2:
            continue
        open_counts[:] = -1  # -1: not worked out yet
        for j in range(n):
            hand = (dealt[j, a] & ~gone[k]) | public_at[k, a]
            if kind[k] == 3:  # a pass: to which teammate with cards
                pass_total[:], pass_mine[:], options = 0.0, 0.0, 0
                for r in range(players):
                    if receivers[k, r]:
                        held = (dealt[j, r] & ~gone[k]) | public_at[k, r]
                        sure = held & exposed[k] != 0
                        options += 1
                        for m in range(styles):
                            weight = pass_factor[m] if sure else 1.0
                            pass_total[m] += weight
                            if r == target[k]:
                                pass_mine[m] = weight
                for m in range(styles):
                    modelled[m, j, a] += np.log((1.0 - mix[m]) * pass_mine[m] / pass_total[m] + mix[m] / options)
                rules[j, a] -= np.log(options)
                continue
            certain = _covers_a_set(hand, mates_public[k], live[k], set_masks)
            rules[j, a] += np.log(0.5)
            if kind[k] == 1:
                for m in range(styles):
                    modelled[m, j, a] += log_claim[m, certain]
                continue
            # the asker's sets: shared by the styles, the open asks' weights looked up per style below
            count, options, best, plain_best = 0, 0, -1.0, -1.0
            for s in range(len(set_masks)):
                held = _popcount(hand & set_masks[s] & live[k])
                if held == 0:
                    continue
                holding = _holding(hand, set_cards[s])
                if open_counts[s, holding] < 0:
                    _open_asks(
                        k,
                        s,
                        holding,
                        hand & set_masks[s],
                        players,
                        targets,
                        asks,
                        exp_public,
                        base_weight,
                        set_masks,
                        live,
                        bluff,
                        w_estimate,
                        w_inferred,
                        caches,
                    )
                asked_sets[count], held_counts[count], holdings_of[count] = s, held, holding
                likeliest[count], likeliest_plain[count] = False, False
                options += open_counts[s, holding]
                if open_counts[s, holding] > 0:
                    set_best = open_best[s, holding]
                    if set_best > best + TIE:
                        best = set_best
                        likeliest[:count] = False
                    likeliest[count] = set_best >= best - TIE
                    set_plain_best = open_plain_best[s, holding]
                    if set_plain_best > plain_best + TIE:
                        plain_best = set_plain_best
                        likeliest_plain[:count] = False
                    likeliest_plain[count] = set_plain_best >= plain_best - TIE
                count += 1
            c, t = card[k], target[k]
            s = set_of[c]
            own, value = _event_ask_value(k, c, t, s, hand, asks, set_masks)
            plain = _plain_value(k, c, t, hand, base_value)
            held = _popcount(hand & set_masks[s])
            for m in range(styles):
                total, best_total, plain_total, both_total = 0.0, 0.0, 0.0, 0.0
                for i in range(count):
                    weight = held_weight[asked_sets[i], held_counts[i], m]
                    total += weight * open_sums[asked_sets[i], holdings_of[i], m]
                    if likeliest[i]:
                        best_total += weight * open_best_sums[asked_sets[i], holdings_of[i], m]
                    if likeliest_plain[i]:
                        plain_total += weight * open_plain_sums[asked_sets[i], holdings_of[i], m]
                        if likeliest[i]:
                            both_total += weight * open_both_sums[asked_sets[i], holdings_of[i], m]
                # the likeliest asks weigh more, by either estimate (and by both factors where both)
                total += (likeliest_factor[m] - 1.0) * best_total
                total += (plain_factor[m] - 1.0) * (plain_total + (likeliest_factor[m] - 1.0) * both_total)
                weight = _style_weight(
                    own, value, exp_public[k, c, t, m], base_weight[k, c, t, m], w_estimate[m], w_inferred[m]
                )
                chosen = held_weight[s, held, m] * weight
                if value >= best - TIE:
                    chosen *= likeliest_factor[m]
                if plain >= plain_best - TIE:
                    chosen *= plain_factor[m]
                p = (1.0 - mix[m]) * chosen / total + mix[m] / options if options and total > 0.0 else 1e-300
                modelled[m, j, a] += log_no_claim[m, certain] + np.log(p)
            rules[j, a] -= np.log(options) if options else 690.0
    return modelled, rules


@njit(cache=True)
def _set_cards(set_masks):
    """Each set's cards in order (rows padded with -1), and how many holdings of a set's cards there can be."""
    largest = 0
    for s in range(len(set_masks)):
        largest = max(largest, _popcount(set_masks[s]))
    cards = np.full((len(set_masks), largest), -1, np.int64)
    for s in range(len(set_masks)):
        bits, i = set_masks[s], 0
        while bits:
            low = bits & -bits
            cards[s, i] = _popcount(low - 1)
            bits ^= low
            i += 1
    return cards, 1 << largest


@njit(cache=True)
def _holding(hand, cards):
    """Which of a set's ``cards`` (padded with -1) ``hand`` holds, as a mask over their positions."""
    holding = 0
    for i in range(len(cards)):
        if cards[i] >= 0 and hand >> cards[i] & 1:
            holding |= 1 << i
    return holding


@njit(cache=True, inline="always")
def _event_ask_value(k, c, t, s, hand, asks, set_masks):
    """:func:`_ask_value` of the ask of card ``c`` (of set ``s``) of target ``t`` at event ``k`` by an asker holding
    ``hand``, read off the events' ``asks`` arrays ``(hidden_open, public_at, estimate, base_value, owed)`` of
    :func:`choice_log_likelihoods`."""
    hidden_open, public_at, estimate, base_value, owed = asks
    return _ask_value(
        np.int64(1) << c,
        hand,
        hidden_open[k, t],
        public_at[k, t],
        estimate[k, c, t],
        base_value[k, c, t],
        owed[k, t, s],
        set_masks[s],
    )


@njit(cache=True, inline="always")
def _plain_value(k, c, t, hand, base_value):
    """The asker's plain estimate that target ``t`` holds card ``c`` at event ``k``: the counting estimate (1 or 0
    where the card is publicly placed), not sharpened by the set counts; 0 for a card in ``hand``."""
    return 0.0 if hand >> c & 1 else base_value[k, c, t]


@njit(cache=True)
def _open_asks(
    k,
    s,
    holding,
    hand,
    players,
    targets,
    asks,
    exp_public,
    base_weight,
    set_masks,
    live,
    bluff,
    w_estimate,
    w_inferred,
    caches,
):
    """Work out, for the open asks in set ``s`` at event ``k`` of an asker holding ``hand`` (``holding``) of the
    set's cards, their number, their largest estimate and plain estimate and per style their summed weight and that
    of those that reach the largest estimate, the largest plain one, and both, into the ``caches`` of
    :func:`choice_log_likelihoods` (``asks`` as :func:`_event_ask_value` reads them)."""
    open_sums, open_counts, open_best, open_best_sums, open_plain_best, open_plain_sums, open_both_sums = caches
    base_value = asks[3]
    styles = len(w_estimate)
    options, best, plain_best = 0, -1.0, -1.0
    open_sums[s, holding] = 0.0
    bits = set_masks[s] & live[k]
    if not bluff:  # the asker's own cards are no asks
        bits &= ~hand
    while bits:
        low = bits & -bits
        c = _popcount(low - 1)
        bits ^= low
        for t in range(players):
            if targets[k, c, t]:
                own, value = _event_ask_value(k, c, t, s, hand, asks, set_masks)
                plain = _plain_value(k, c, t, hand, base_value)
                options += 1
                if value > best + TIE:
                    best = value
                    open_best_sums[s, holding] = 0.0
                    open_both_sums[s, holding] = 0.0
                if plain > plain_best + TIE:
                    plain_best = plain
                    open_plain_sums[s, holding] = 0.0
                    open_both_sums[s, holding] = 0.0
                for m in range(styles):
                    weight = _style_weight(
                        own, value, exp_public[k, c, t, m], base_weight[k, c, t, m], w_estimate[m], w_inferred[m]
                    )
                    open_sums[s, holding, m] += weight
                    if value >= best - TIE:
                        open_best_sums[s, holding, m] += weight
                    if plain >= plain_best - TIE:
                        open_plain_sums[s, holding, m] += weight
                        if value >= best - TIE:
                            open_both_sums[s, holding, m] += weight
    open_counts[s, holding] = options
    open_best[s, holding] = best
    open_plain_best[s, holding] = plain_best


@njit(cache=True)
def describe_ask(
    at,
    denied,
    sizes,
    open_to,
    asker,
    live,
    placed,
    minimum,
    set_masks,
    set_of,
    targets,
    features,
    estimate,
    hidden,
    owed,
):
    """Fill the public arrays of an ask event (:class:`cardlogic.literature.choices.History`, all zero before) from
    the cards publicly ``at`` each player, those each is publicly ``denied``, the hand ``sizes``, the opponents of the
    ``asker`` an ask is ``open_to`` (with cards), the ``live`` cards, those ``placed`` publicly, and the ``minimum``
    cards of each set each player surely holds: ``targets``, ``features`` (sure, dead, target_set, slots), the
    counting ``estimate`` of each card at each target, each player's ``hidden`` open cards and the cards of each set
    each ``owed`` beyond their public ones."""
    players, sets = len(at), len(set_masks)
    public_in_set = np.zeros((players, sets), np.int64)
    slots = np.zeros(players)
    for p in range(players):
        hidden[p] = live & ~placed & ~denied[p]
        for s in range(sets):
            public_in_set[p, s] = _popcount(at[p] & set_masks[s])
            owed[p, s] = max(0, minimum[p, s] - public_in_set[p, s])
        slots[p] = sizes[p] - _popcount(at[p])
    total, opponents = 0, 0
    for t in range(players):
        if open_to[t]:
            total += sizes[t]
            opponents += 1
    share = np.zeros(players)
    bits = live
    while bits:
        low = bits & -bits
        c = _popcount(low - 1)
        bits ^= low
        # the counting estimate: the target's hidden cards over those of everyone else who may hold the card
        others = 0.0
        for p in range(players):
            may = p != asker and not placed & low and not denied[p] & low
            share[p] = slots[p] if may else 0.0
            others += share[p]
        for t in range(players):
            if not open_to[t]:
                continue
            here = 1.0 if at[t] & low else 0.0
            targets[c, t] = True
            features[c, t, 0] = here
            features[c, t, 1] = 1.0 if denied[t] & low or placed & low and not at[t] & low else 0.0
            features[c, t, 2] = 1.0 if public_in_set[t, set_of[c]] - here > 0 else 0.0
            features[c, t, 3] = sizes[t] * opponents / total - 1.0
            estimate[c, t] = share[t] / others if others > 0 else 0.0
