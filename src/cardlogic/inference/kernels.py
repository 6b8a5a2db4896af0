"""Numba kernels of the exact counter and the samplers: plain functions over numpy arrays.

Nothing here knows about cards, holders or models. :mod:`cardlogic.inference.exact`
packs a :class:`~cardlogic.constraints.DealModel` into the arrays described below
once, calls these kernels and interprets their results.

The dynamic program runs over the ``n`` free cards in a fixed order. Its state
after ``k`` cards is the vector of cards already given to each of the ``H``
holders, encoded mixed-radix (digit ``j`` in ``0..caps[j]``, ``strides[j]`` its
place value) into a *box index* ``s``; the digit sum of ``s`` is ``k``, so the
states of step ``k`` form *layer* ``k`` of the box. Inside a block of cards
linked by clauses the state also carries one bit per clause of the block, set
once the clause is satisfied; the step that ends a block keeps only the states
with every bit set and drops the bits. Tables hold one value per (state, bits)
of every layer, packed densely: the value of box index ``s`` with bits ``b`` at
step ``k`` lives at ``offsets[k] + rank[s] * widths[k] + b``, where ``rank[s]``
numbers ``s`` within its layer and ``widths[k]`` is ``2**bits`` at step ``k``.

Per card ``k`` (arrays of length ``n``; holder arrays of shape ``(n, H)``):

* ``choices[k, :nchoices[k]]``: the holders the card may go to;
* ``sat[k, j]``: clause bits set by giving card ``k`` to holder ``j``;
* ``last[k]``: card ``k`` ends its block; ``full[k]``: every bit of its block.

The edge rule (room left, clause bits, block end) is written out in each table
kernel: factored into an inlined helper it measured four times slower (and one
returning -1 for no edge, inlined always, 3-8% slower in the forward pass). The
table kernels release the GIL, so several tables can be built in threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LIMB_BITS = 62
LIMB_MASK = (1 << LIMB_BITS) - 1


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _stream(seed):
    """The starting counter of the SplitMix64 stream of ``seed``."""
    return np.uint64(seed) * _GOLDEN + _GOLDEN


@njit(cache=True, inline="always")
def _mix(counter):
    """64 random bits from a SplitMix64 counter (advance the counter by ``_GOLDEN`` per draw)."""
    z = counter
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _unit(counter):
    """A uniform float in [0, 1) from a SplitMix64 counter (advance the counter by ``_GOLDEN`` per draw)."""
    return np.float64(_mix(counter) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _streamed(seed):
    """The SplitMix64 stream of ``seed`` as a one-element array, for :func:`_below` and :func:`_uniform` to advance."""
    stream = np.empty(1, np.uint64)
    stream[0] = _stream(seed)
    return stream


@njit(cache=True, inline="always")
def _below(stream, n):
    """A uniform integer in ``[0, n)`` (``n < 2**32``) from ``stream`` (see :func:`_streamed`), by multiply-shift."""
    stream[0] += _GOLDEN
    return np.int64(((_mix(stream[0]) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _uniform(stream):
    """A uniform float in [0, 1) from ``stream`` (see :func:`_streamed`)."""
    stream[0] += _GOLDEN
    return _unit(stream[0])


@njit(cache=True)
def _permutation(stream, n):
    """A uniformly random permutation of ``0..n-1`` (Fisher-Yates) from ``stream``."""
    out = np.arange(n)
    for t in range(n - 1, 0, -1):
        r = _below(stream, t + 1)
        out[t], out[r] = out[r], out[t]
    return out


@njit(cache=True, inline="always")
def _odometer_step(digits, caps, digit_sum):
    """Advance the mixed-radix ``digits`` (digit ``j`` in ``0..caps[j]``, the first fastest) to the next box state,
    in place; returns their new digit sum (``digit_sum`` before)."""
    for j in range(caps.shape[0]):
        if digits[j] < caps[j]:
            digits[j] += 1
            return digit_sum + 1
        digit_sum -= digits[j]
        digits[j] = 0
    return digit_sum


@njit(cache=True, nogil=True)
def build_box(caps):
    """Layer bookkeeping of the box ``prod(caps + 1)``.

    Returns ``strides``, ``rank`` (index of each box state within its layer),
    ``room`` (bitmask of holders with capacity left in each state), ``order``
    (box states grouped by layer) and ``layer_start`` (``n + 2`` offsets into
    ``order``).
    """
    h_count = caps.shape[0]
    strides = np.empty(h_count, np.int64)
    size = 1
    total = 0
    for j in range(h_count):
        strides[j] = size
        size *= caps[j] + 1
        total += caps[j]
    rank = np.empty(size, np.int32)
    room = np.empty(size, np.int64)
    layer_count = np.zeros(total + 1, np.int64)
    digits = np.zeros(h_count, np.int64)
    digit_sum = 0
    for s in range(size):
        mask = 0
        for j in range(h_count):
            if digits[j] < caps[j]:
                mask |= 1 << j
        room[s] = mask
        rank[s] = layer_count[digit_sum]
        layer_count[digit_sum] += 1
        digit_sum = _odometer_step(digits, caps, digit_sum)
    layer_start = np.zeros(total + 2, np.int64)
    for k in range(total + 1):
        layer_start[k + 1] = layer_start[k] + layer_count[k]
    order = np.empty(size, np.int32)
    digit_sum = 0
    for s in range(size):
        order[layer_start[digit_sum] + rank[s]] = s
        digit_sum = _odometer_step(digits, caps, digit_sum)
    return strides, rank, room, order, layer_start


@njit(cache=True, nogil=True)
def forward(box, steps, limbs):
    """Forward table: the number of ways to reach each (state, bits) of every step.

    ``box`` is the tuple of :func:`build_box` and ``steps`` the per-card
    arrays ``(offsets, widths, choices, nchoices, sat, last, full)`` described
    above (:attr:`~cardlogic.inference.packed.PackedModel.steps`).

    Returns the float64 table; when ``limbs > 0`` also the exact counts as
    ``limbs`` little-endian 62-bit limbs per entry (the dynamic program only
    adds, so the limbs never lose a carry), else an empty limb table.
    """
    offsets, choices = steps[0], steps[2]
    n = choices.shape[0]
    size = offsets[n + 1]
    table = np.zeros(size, np.float64)
    exact = np.zeros((size if limbs > 0 else 0, max(limbs, 1)), np.int64)
    table[0] = 1.0
    if limbs > 0:
        exact[0, 0] = 1
    _propagate(table, exact, limbs, 0, 0, n, box, steps)
    return table, exact


@njit(cache=True)
def segment_mass(box, steps, fwd, bwd, first, stop):
    """The deals through steps ``first..stop-1`` (block boundaries) when those steps use ``choices``.

    ``fwd`` and ``bwd`` are the model's own forward and backward tables; the
    steps of the segment are walked again from the forward values at ``first``
    with the given (narrowed) choices and met with the backward values at
    ``stop``: the number of consistent deals that also obey the narrowing.
    """
    offsets = steps[0]
    base = offsets[first]
    table = np.zeros(offsets[stop + 1] - base, np.float64)
    table[: offsets[first + 1] - base] = fwd[base : offsets[first + 1]]
    _propagate(table, np.zeros((0, 1), np.int64), 0, base, first, stop, box, steps)
    total = 0.0
    for e in range(offsets[stop], offsets[stop + 1]):
        total += table[e - base] * bwd[e]
    return total


@njit(cache=True, nogil=True)
def _propagate(table, exact, limbs, base, first, stop, box, steps):
    """Push the values of steps ``first..stop-1`` on to the next step, in place.

    Step ``k``'s values live at ``offsets[k] - base`` in ``table`` (and ``exact``, when ``limbs > 0``).
    """
    strides, rank, room, order, layer_start = box
    offsets, widths, choices, nchoices, sat, last, full = steps
    for k in range(first, stop):
        w_here = widths[k]
        w_next = widths[k + 1]
        o_here = offsets[k] - base
        o_next = offsets[k + 1] - base
        for t in range(layer_start[k], layer_start[k + 1]):
            s = order[t]
            here = o_here + rank[s] * w_here
            free = room[s]
            for b in range(w_here):
                value = table[here + b]
                if value == 0.0:
                    continue
                for c in range(nchoices[k]):
                    j = choices[k, c]
                    if not (free >> j) & 1:
                        continue
                    bits = b | sat[k, j]
                    if last[k]:
                        if bits != full[k]:
                            continue
                        bits = 0
                    s2 = s + strides[j]
                    dest = o_next + rank[s2] * w_next + bits
                    table[dest] += value
                    if limbs > 0:
                        carry = 0
                        for limb in range(limbs):
                            x = exact[dest, limb] + exact[here + b, limb] + carry
                            carry = x >> LIMB_BITS
                            exact[dest, limb] = x & LIMB_MASK


@njit(cache=True)
def closing_placements(strides, caps, choices, nchoices, sat, last, full, first):
    """Every placement of the closing cards ``first..n-1`` (whole blocks) and the box state it completes.

    A placement of the closing cards completes exactly the state (after the
    cards before ``first``, a block boundary, so no clause bits) whose
    remaining room it fills, if it breaks no capacity and satisfies its blocks'
    clauses; its number of deals is the forward value of that state. Returns
    the local holder of each closing card per placement (mixed-radix over
    their choices, the first card fastest) and that box state (-1 when none).
    """
    n = choices.shape[0]
    m = n - first
    total = 1
    for k in range(first, n):
        total *= nchoices[k]
    holders = np.empty((total, m), np.int8)
    states = np.full(total, -1, np.int64)
    full_state = 0
    for j in range(caps.shape[0]):
        full_state += caps[j] * strides[j]
    taken = np.zeros(caps.shape[0], np.int64)
    for index in range(total):
        rest = index
        fits = True
        bits = 0
        state = full_state
        taken[:] = 0
        for i in range(m):
            k = first + i
            j = choices[k, rest % nchoices[k]]
            rest //= nchoices[k]
            holders[index, i] = j
            taken[j] += 1
            fits = fits and taken[j] <= caps[j]
            bits |= sat[k, j]
            if last[k]:
                fits = fits and bits == full[k]
                bits = 0
            state -= strides[j]
        if fits:
            states[index] = state
    return holders, states


@njit(cache=True, nogil=True)
def backward(box, steps, fwd):
    """Backward table (completions from each (state, bits) to the end) and unnormalised marginals.

    ``marginals[k, j]`` is the number of consistent deals giving card ``k`` to
    holder ``j``, as a float: the sum of forward times backward over its edges.
    """
    strides, rank, room, order, layer_start = box
    offsets, widths, choices, nchoices, sat, last, full = steps
    n = choices.shape[0]
    h_count = strides.shape[0]
    table = np.zeros(fwd.shape[0], np.float64)
    table[offsets[n]] = 1.0
    marginals = np.zeros((n, h_count), np.float64)
    for k in range(n - 1, -1, -1):
        w_here = widths[k]
        w_next = widths[k + 1]
        o_here = offsets[k]
        o_next = offsets[k + 1]
        for t in range(layer_start[k], layer_start[k + 1]):
            s = order[t]
            base = o_here + rank[s] * w_here
            free = room[s]
            for b in range(w_here):
                reach = fwd[base + b]
                acc = 0.0
                for c in range(nchoices[k]):
                    j = choices[k, c]
                    if not (free >> j) & 1:
                        continue
                    bits = b | sat[k, j]
                    if last[k]:
                        if bits != full[k]:
                            continue
                        bits = 0
                    s2 = s + strides[j]
                    value = table[o_next + rank[s2] * w_next + bits]
                    acc += value
                    if reach != 0.0:
                        marginals[k, j] += reach * value
                table[base + b] = acc
    return table, marginals


@njit(cache=True)
def choice_table(box, steps, bwd):
    """Cumulative probabilities of each card's choices from every (state, bits), read off the backward table.

    ``cdf[e, c]`` is P(the card of entry ``e`` goes to one of its first ``c + 1``
    choices); the last used column is exactly 1 for entries with completions.
    """
    strides, rank, room, order, layer_start = box
    offsets, widths, choices, nchoices, sat, last, full = steps
    n = choices.shape[0]
    cdf = np.zeros((bwd.shape[0], max(choices.shape[1], 1)), np.float64)
    for k in range(n):
        w_here = widths[k]
        w_next = widths[k + 1]
        o_here = offsets[k]
        o_next = offsets[k + 1]
        for t in range(layer_start[k], layer_start[k + 1]):
            s = order[t]
            base = o_here + rank[s] * w_here
            free = room[s]
            for b in range(w_here):
                total = bwd[base + b]
                if total == 0.0:
                    continue
                acc = 0.0
                for c in range(nchoices[k]):
                    j = choices[k, c]
                    if (free >> j) & 1:
                        bits = b | sat[k, j]
                        if not last[k] or bits == full[k]:
                            if last[k]:
                                bits = 0
                            acc += bwd[o_next + rank[s + strides[j]] * w_next + bits]
                    cdf[base + b, c] = acc / total
                cdf[base + b, nchoices[k] - 1] = 1.0
    return cdf


@njit(cache=True)
def sample_exact(box, steps, bwd, cdf, count, seed):
    """Draw ``count`` deals uniformly, each card by the completions after each of its choices.

    Each card goes to a holder with probability proportional to the number of
    completions after it, so every consistent deal has the same probability
    (up to float64 rounding of the table, relative 1e-15). The completions are
    read off the choice table ``cdf`` of :func:`choice_table` where it is given
    (one row per card: fastest for many deals), else off the backward table
    ``bwd`` as each card is placed (a choice table holds a float per entry and
    choice, several times the backward table). Both ways draw the same deals
    from a seed but where rounding tips a choice. Returns the holder of every
    card per deal (``count x n``). Uniform numbers come from a SplitMix64 stream
    started at ``seed``: a few integer operations per draw.
    """
    strides, rank, room = box[0], box[1], box[2]
    offsets, widths, choices, nchoices, sat, last, full = steps
    rng = _stream(seed)
    n = choices.shape[0]
    tabled = cdf.shape[0] > 0
    out = np.empty((count, n), np.int8)
    # Deals advance card by card in batches so that their table reads overlap in memory.
    batch = 32
    state = np.zeros(batch, np.int64)
    entry = np.zeros(batch, np.int64)
    bits = np.zeros(batch, np.int64)
    for first in range(0, count, batch):
        size = min(batch, count - first)
        for i in range(size):
            state[i] = 0
            entry[i] = 0
            bits[i] = 0
        for k in range(n):
            o_next = offsets[k + 1]
            w_next = widths[k + 1]
            last_choice = nchoices[k] - 1
            for i in range(size):
                rng += _GOLDEN
                u = _unit(rng)
                s = state[i]
                e = entry[i]
                if tabled:
                    c = 0
                    for t in range(last_choice):  # branch-free: the cdf is non-decreasing
                        c += u >= cdf[e, t]
                    j = choices[k, c]
                else:  # the last choice with completions where rounding leaves u beyond every partial sum
                    target = u * bwd[e]
                    free = room[s]
                    acc = 0.0
                    j = -1
                    for c in range(nchoices[k]):
                        option = choices[k, c]
                        if not (free >> option) & 1:
                            continue
                        b = bits[i] | sat[k, option]
                        if last[k] and b != full[k]:
                            continue
                        weight = bwd[o_next + rank[s + strides[option]] * w_next + (0 if last[k] else b)]
                        if weight > 0.0:
                            j = option
                            acc += weight
                            if target < acc:
                                break
                out[first + i, k] = j
                s += strides[j]
                b = 0 if last[k] else bits[i] | sat[k, j]
                state[i] = s
                bits[i] = b
                entry[i] = o_next + rank[s] * w_next + b
    return out


@njit(cache=True, inline="always")
def _clause_holds(deal, q, clauses):
    """Whether clause ``q`` of ``clauses`` (see :func:`find_deal`) holds in ``deal``: one of its pairs has its card
    at a holder of its mask."""
    clause_cards, clause_holders, clause_start = clauses[0], clauses[1], clauses[2]
    for i in range(clause_start[q], clause_start[q + 1]):
        if (clause_holders[i] >> deal[clause_cards[i]]) & 1:
            return True
    return False


@njit(cache=True)
def find_deal(caps, choices, nchoices, clauses, seed, max_nodes):
    """A consistent deal by randomised depth-first search, and a status.

    The deal is the local holder of each free card; the status is 1 when found,
    0 when the search proved there is none, -1 when it gave up after ``max_nodes``. ``clauses`` is the tuple
    ``(clause_cards, clause_holders, clause_start, card_clauses, card_clause_start)`` of
    :attr:`~cardlogic.inference.packed.PackedModel.clauses`: clause ``q`` is the pairs
    ``clause_cards[i], clause_holders[i]`` (a holder bitmask) for ``i`` in
    ``clause_start[q]:clause_start[q+1]``; ``card_clauses[card_clause_start[k]:...]``
    lists the clauses of card ``k``. A clause is checked as soon as its last card
    (in index order) is placed. The order of choices comes from the SplitMix64 stream of ``seed``.
    """
    clause_cards, clause_holders, clause_start, card_clauses, card_clause_start = clauses
    stream = _streamed(seed)
    n = choices.shape[0]
    left = caps.copy()
    deal = np.full(n, -1, np.int64)
    perm = np.empty((n, choices.shape[1]), np.int64)
    position = np.zeros(n, np.int64)
    for k in range(n):
        for c in range(nchoices[k]):
            perm[k, c] = choices[k, c]
        for c in range(nchoices[k] - 1, 0, -1):
            r = _below(stream, c + 1)
            perm[k, c], perm[k, r] = perm[k, r], perm[k, c]
    k = 0
    nodes = 0
    while 0 <= k < n:
        if deal[k] >= 0:
            left[deal[k]] += 1
            deal[k] = -1
        placed = False
        while position[k] < nchoices[k]:
            j = perm[k, position[k]]
            position[k] += 1
            if left[j] == 0:
                continue
            deal[k] = j
            ok = True
            for t in range(card_clause_start[k], card_clause_start[k + 1]):
                q = card_clauses[t]
                if clause_cards[clause_start[q + 1] - 1] != k:
                    continue  # checked when its last card is placed
                if not _clause_holds(deal, q, clauses):
                    ok = False
                    break
            if ok:
                left[j] -= 1
                placed = True
                break
            deal[k] = -1
        nodes += 1
        if nodes > max_nodes:
            deal[:] = -1
            return deal, -1
        if placed:
            k += 1
        else:
            position[k] = 0
            k -= 1
    if k < 0:
        deal[:] = -1
        return deal, 0
    return deal, 1


@njit(cache=True)
def match_deal(caps, choices, nchoices, seed):
    """A deal respecting allowed holders and capacities (clauses ignored) by augmenting paths, and a status.

    The status is 1 when found and 0 when none exists (then no consistent deal exists either). Cards and their
    choices are tried in orders drawn from the SplitMix64 stream of ``seed``.
    """
    stream = _streamed(seed)
    n = choices.shape[0]
    h_count = caps.shape[0]
    left = caps.copy()
    deal = np.full(n, -1, np.int64)
    parent = np.empty(h_count, np.int64)
    via = np.empty(h_count, np.int64)
    queue = np.empty(h_count, np.int64)
    for k in _permutation(stream, n):
        parent[:] = -2
        head = 0
        tail = 0
        for c in _permutation(stream, nchoices[k]):
            j = choices[k, c]
            parent[j] = -1
            via[j] = k
            queue[tail] = j
            tail += 1
        found = -1
        while head < tail:
            j = queue[head]
            head += 1
            if left[j] > 0:
                found = j
                break
            for other in range(n):
                if deal[other] != j:
                    continue
                for c in range(nchoices[other]):
                    j2 = choices[other, c]
                    if parent[j2] == -2:
                        parent[j2] = j
                        via[j2] = other
                        queue[tail] = j2
                        tail += 1
        if found < 0:
            return deal, 0
        left[found] -= 1
        j = found
        while j != -1:
            deal[via[j]] = j
            j = parent[j]
    return deal, 1


@njit(cache=True)
def _violated(deal, clauses, a, b, c):
    """Violated clauses among those of free cards ``a``, ``b`` and ``c`` (``c`` may be -1), with repeats."""
    card_clauses, card_clause_start = clauses[3], clauses[4]
    total = 0
    for k in (a, b, c):
        if k < 0:
            continue
        for t in range(card_clause_start[k], card_clause_start[k + 1]):
            q = card_clauses[t]
            if not _clause_holds(deal, q, clauses):
                total += 1
    return total


@njit(cache=True)
def _broken_clauses(deal, clauses, out):
    """Write the clauses ``deal`` breaks into ``out``; return how many there are."""
    count = 0
    for q in range(clauses[2].shape[0] - 1):
        if not _clause_holds(deal, q, clauses):
            out[count] = q
            count += 1
    return count


@njit(cache=True)
def _popcount(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def repair_deal(deal, allow, clauses, seed, max_steps):
    """Make ``deal`` satisfy every clause by focused local search; returns it and whether it did.

    Each step picks a broken clause, one of its pairs (card ``a``, holders) and a
    holder ``hb`` there, and moves ``a`` to ``hb``: swapped with a card ``b`` of
    ``hb`` that may go to ``a``'s holder, or else rotated through a third card
    ``c`` (``b`` to ``c``'s holder, ``c`` to ``a``'s). Moves keep hand sizes and
    allowed holders; one that breaks more clauses than it fixes is still taken
    with probability ``0.2**extra``, to leave plateaus. (Moves of random cards
    instead stalled at ten or so broken clauses on 12-player models.) Random
    choices come from the SplitMix64 stream of ``seed``; ``clauses`` as in :func:`find_deal`.
    """
    clause_cards, clause_holders, clause_start = clauses[0], clauses[1], clauses[2]
    stream = _streamed(seed)
    n = deal.shape[0]
    deal = deal.copy()
    broken = np.empty(clause_start.shape[0] - 1, np.int64)
    at_hb = np.empty(n, np.int64)
    for _step in range(max_steps):
        n_broken = _broken_clauses(deal, clauses, broken)
        if n_broken == 0:
            return deal, True
        q = broken[_below(stream, n_broken)]
        i = clause_start[q] + _below(stream, clause_start[q + 1] - clause_start[q])
        a = clause_cards[i]
        ha = deal[a]
        targets = clause_holders[i] & allow[a]
        if targets == 0:
            continue
        pick = _below(stream, _popcount(targets))
        hb = 0
        while True:
            if (targets >> hb) & 1:
                if pick == 0:
                    break
                pick -= 1
            hb += 1
        m = 0
        for k in range(n):
            if deal[k] == hb:
                at_hb[m] = k
                m += 1
        if m == 0:
            continue
        b = at_hb[_below(stream, m)]
        c = -1
        if not (allow[b] >> ha) & 1:
            c = _below(stream, n)
            hc = deal[c]
            if hc == ha or hc == hb or not ((allow[b] >> hc) & 1 and (allow[c] >> ha) & 1):
                continue
        before = _violated(deal, clauses, a, b, c)
        if c >= 0:
            deal[a] = hb
            deal[b] = deal[c]
            deal[c] = ha
        else:
            deal[a] = hb
            deal[b] = ha
        after = _violated(deal, clauses, a, b, c)
        if after > before and _uniform(stream) >= 0.2 ** (after - before):
            if c >= 0:
                deal[c] = deal[b]
            deal[a] = ha
            deal[b] = hb
    return deal, _broken_clauses(deal, clauses, broken) == 0


@njit(cache=True)
def clauses_hold(deal, clauses, k):
    """Whether every clause of free card ``k`` holds in ``deal`` (``clauses`` as in :func:`find_deal`)."""
    card_clauses, card_clause_start = clauses[3], clauses[4]
    for t in range(card_clause_start[k], card_clause_start[k + 1]):
        q = card_clauses[t]
        if not _clause_holds(deal, q, clauses):
            return False
    return True


@njit(cache=True, nogil=True)
def sample_mcmc(deal, allow, clauses, count, burn_in, thin, seed):
    """Draw ``count`` deals by a Metropolis chain of swaps and 3-cycles started at ``deal``.

    A move picks two (or three) free cards at different holders and rotates
    their holders, which keeps every hand size; it is accepted when every card
    may go to its new holder and every clause of the moved cards still holds.
    The proposal is symmetric, so the chain's stationary law is uniform over the
    deals it can reach: draws are asymptotically uniform, not exact, and
    correlated (``thin`` moves apart after ``burn_in`` moves). Random numbers come from the SplitMix64
    stream of ``seed``, as in :func:`sample_exact`. Returns the holder
    of every card per deal (``count x n``).
    """
    n = deal.shape[0]
    deal = deal.copy()
    out = np.empty((count, n), np.int8)
    if n < 2:
        for i in range(count):
            out[i, :] = deal
        return out
    rng = _stream(seed)
    i = 0
    wait = burn_in + thin  # moves until the next draw is kept
    for _ in range(burn_in + count * thin):
        # One SplitMix64 word picks the cards (24, 24 and 15 bits, by multiply-shift) and the kind of move.
        rng += _GOLDEN
        z = _mix(rng)
        a = np.int64(((z & np.uint64(0xFFFFFF)) * np.uint64(n)) >> np.uint64(24))
        b = np.int64((((z >> np.uint64(24)) & np.uint64(0xFFFFFF)) * np.uint64(n)) >> np.uint64(24))
        ha = deal[a]
        hb = deal[b]
        if ha != hb:
            if n >= 3 and (z >> np.uint64(48)) & np.uint64(1):
                c = np.int64(((z >> np.uint64(49)) * np.uint64(n)) >> np.uint64(15))
                hc = deal[c]
                # a -> hb, b -> hc, c -> ha
                if hc != ha and hc != hb and (allow[a] >> hb) & 1 and (allow[b] >> hc) & 1 and (allow[c] >> ha) & 1:
                    deal[a] = hb
                    deal[b] = hc
                    deal[c] = ha
                    if not (
                        clauses_hold(deal, clauses, a)
                        and clauses_hold(deal, clauses, b)
                        and clauses_hold(deal, clauses, c)
                    ):
                        deal[a] = ha
                        deal[b] = hb
                        deal[c] = hc
            elif (allow[a] >> hb) & 1 and (allow[b] >> ha) & 1:
                deal[a] = hb
                deal[b] = ha
                if not (clauses_hold(deal, clauses, a) and clauses_hold(deal, clauses, b)):
                    deal[a] = ha
                    deal[b] = hb
        wait -= 1
        if wait == 0:
            out[i, :] = deal
            i += 1
            wait = thin
    return out


@njit(cache=True)
def share_out(local, columns, template, group_start, members, member_caps, seed):
    """Deals over the model's holders from deals over local holders (``count x n``).

    Known cards come from ``template``; free card ``k`` goes to column
    ``columns[k]``. Local holder ``j`` stands for the model holders
    ``members[group_start[j]:group_start[j + 1]]``: its cards are shuffled and
    dealt out to them, ``member_caps`` each, so every sharing is equally likely
    (the members are interchangeable). Shuffles use the SplitMix64 stream of ``seed``.
    """
    count, n = local.shape
    groups = group_start.shape[0] - 1
    out = np.empty((count, template.shape[0]), np.int8)
    held = np.empty((groups, n), np.int64)
    sizes = np.zeros(groups, np.int64)
    rng = _stream(seed)
    for i in range(count):
        out[i, :] = template
        sizes[:] = 0
        for k in range(n):
            j = local[i, k]
            if group_start[j + 1] - group_start[j] == 1:
                out[i, columns[k]] = members[group_start[j]]
            else:
                held[j, sizes[j]] = columns[k]
                sizes[j] += 1
        for j in range(groups):
            m = sizes[j]
            if m == 0:
                continue  # a lone holder (written above), or a group dealt nothing
            for t in range(m - 1, 0, -1):  # Fisher-Yates
                rng += _GOLDEN
                r = int(_unit(rng) * (t + 1))
                held[j, t], held[j, r] = held[j, r], held[j, t]
            position = 0
            for q in range(group_start[j], group_start[j + 1]):
                for _ in range(member_caps[q]):
                    out[i, held[j, position]] = members[q]
                    position += 1
    return out


# -- the same dynamic program over reachable states only (see cardlogic.inference.sparse) -----------------------------
#
# A state is the key ``s + bits * box``: box index ``s`` (as above) and the clause bits of the open block. Each layer
# holds the sorted keys of the states reachable from the start that can still be completed as far as hand sizes
# tell; edge ``e`` of state ``i`` of a layer (``edge_start[i] <= e < edge_start[i + 1]``, ``i`` numbered over all
# layers) gives the layer's card to local holder ``edge_holder[e]`` and leads to state ``edge_dst[e]`` of the next
# layer.


@njit(cache=True, nogil=True)
def card_step(keys, digits, box, strides, caps, choices, nchoices, sat, last, full, room):
    """One card's step over reachable states: the next layer's keys and the edges to it.

    ``digits[i, j]`` is the number of cards local holder ``j`` has taken in
    state ``keys[i]``. The card may go to ``choices[:nchoices]``; ``sat``,
    ``last`` and ``full`` are its row of the arrays of :func:`forward`. A next
    state is kept only if every holder ``j`` has at most ``room[j]`` cards left
    to take, the free cards after this one that it may take. Returns the keys
    (in order of first reach) with their digits, ``edge_start`` (per state of
    this layer, plus one), ``edge_dst`` and ``edge_holder``. Keys are numbered
    through an open-addressing hash table, grown as it fills.
    """
    n = keys.shape[0]
    h_count = caps.shape[0]
    most = n * max(nchoices, 1)
    shift = 58  # a table of 2**(64 - shift) slots, indexed by the high bits of a multiplicative hash
    while (1 << (64 - shift)) < 4 * n:
        shift -= 1
    slots = np.full((1 << (64 - shift), 2), -1, np.int64)  # key, state number
    new_keys = np.empty(most, np.int64)
    new_digits = np.empty((most, h_count), np.int8)
    found = 0
    edge_start = np.empty(n + 1, np.int64)
    edge_dst = np.empty(most, np.int32)
    edge_holder = np.empty(most, np.int8)
    e = 0
    for i in range(n):
        edge_start[i] = e
        b = keys[i] // box
        s = keys[i] - b * box
        short = -1  # the one holder with one card more room than it may still take, if one
        for h in range(h_count):
            left = caps[h] - digits[i, h]
            if left > room[h]:
                short = h if short == -1 and left == room[h] + 1 else -2
        if short == -2:
            continue
        for c in range(nchoices):
            j = choices[c]
            if digits[i, j] == caps[j] or (short >= 0 and j != short):
                continue
            bits = b | sat[j]
            if last:
                if bits != full:
                    continue
                bits = 0
            key = s + strides[j] + bits * box
            mask = (1 << (64 - shift)) - 1
            slot = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(shift))
            while slots[slot, 0] != -1 and slots[slot, 0] != key:
                slot = (slot + 1) & mask
            if slots[slot, 0] == -1:
                slots[slot, 0] = key
                slots[slot, 1] = found
                new_keys[found] = key
                new_digits[found] = digits[i]
                new_digits[found, j] += 1
                found += 1
                if 2 * found > mask:  # grow and re-insert
                    shift -= 1
                    mask = (1 << (64 - shift)) - 1
                    slots = np.full((mask + 1, 2), -1, np.int64)
                    for f in range(found):
                        slot = np.int64((np.uint64(new_keys[f]) * _GOLDEN) >> np.uint64(shift))
                        while slots[slot, 0] != -1:
                            slot = (slot + 1) & mask
                        slots[slot, 0] = new_keys[f]
                        slots[slot, 1] = f
                edge_dst[e] = found - 1
            else:
                edge_dst[e] = slots[slot, 1]
            edge_holder[e] = j
            e += 1
    edge_start[n] = e
    return (new_keys[:found].copy(), new_digits[:found].copy(), edge_start, edge_dst[:e].copy(), edge_holder[:e].copy())


@njit(cache=True, nogil=True)
def sparse_forward(layer_start, edge_start, edge_dst, limbs):
    """Paths from the start to every state (float64), and the exact number of paths to the last layer's states
    as ``limbs`` little-endian 62-bit limbs each when ``limbs > 0`` (rolled layer by layer: only the last is kept)."""
    layers = layer_start.shape[0] - 1
    table = np.zeros(layer_start[layers], np.float64)
    table[0] = 1.0
    exact = np.zeros((1, max(limbs, 1)), np.int64)
    exact[0, 0] = 1
    for k in range(layers - 1):
        after = layer_start[k + 1]
        exact_next = np.zeros((layer_start[k + 2] - after if limbs > 0 else 0, max(limbs, 1)), np.int64)
        for g in range(layer_start[k], after):
            value = table[g]
            for e in range(edge_start[g], edge_start[g + 1]):
                j = edge_dst[e]
                table[after + j] += value
                if limbs > 0:
                    carry = 0
                    for limb in range(limbs):
                        x = exact_next[j, limb] + exact[g - layer_start[k], limb] + carry
                        carry = x >> LIMB_BITS
                        exact_next[j, limb] = x & LIMB_MASK
        exact = exact_next
    return table, exact


@njit(cache=True, nogil=True)
def sparse_backward(layer_start, edge_start, edge_dst, edge_holder, fwd, h_count):
    """Completions from every state to the end, and the unnormalised marginals (layer cards x local holders):
    the sum of forward ``fwd`` times backward over each edge."""
    layers = layer_start.shape[0] - 1
    table = np.zeros(layer_start[layers], np.float64)
    table[layer_start[layers - 1] :] = 1.0
    marginals = np.zeros((layers - 1, h_count), np.float64)
    for k in range(layers - 2, -1, -1):
        after = layer_start[k + 1]
        for g in range(layer_start[k], after):
            acc = 0.0
            for e in range(edge_start[g], edge_start[g + 1]):
                value = table[after + edge_dst[e]]
                acc += value
                marginals[k, edge_holder[e]] += fwd[g] * value
            table[g] = acc
    return table, marginals


@njit(cache=True, nogil=True)
def sparse_segment_mass(layer_start, edge_start, edge_dst, edge_holder, fwd, bwd, first, stop, allowed):
    """The deals through layers ``first..stop`` when card ``k`` of them may go only to the local holders of mask
    ``allowed[k - first]``: the forward values at ``first`` walked on over the edges allowed, met with the
    backward values ``bwd`` at ``stop`` (:func:`sparse_backward`)."""
    here = fwd[layer_start[first] : layer_start[first + 1]].copy()
    for k in range(first, stop):
        there = np.zeros(layer_start[k + 2] - layer_start[k + 1], np.float64)
        mask = allowed[k - first]
        for i in range(here.shape[0]):
            value = here[i]
            if value == 0.0:
                continue
            g = layer_start[k] + i
            for e in range(edge_start[g], edge_start[g + 1]):
                if (mask >> edge_holder[e]) & 1:
                    there[edge_dst[e]] += value
        here = there
    total = 0.0
    for i in range(here.shape[0]):
        total += here[i] * bwd[layer_start[stop] + i]
    return total


# -- the frontier program (see cardlogic.inference.frontier) ------------------------------------------------------
#
# The program moves a block of cards at a time. Inside a block, a *local walk* moves one card at a time over
# the block's own states: the cards it has given by name to each of its holders (digit ``q`` at ``strides[q]``)
# and its clause bits, packed as ``bits + width * digits``; each *move* gives the card to a slot (-1: to the
# generic pool) with a sign and the clause bits it sets. The block's polynomial is the local walk's last layer:
# one *monomial* (named cards per slot) and its coefficient per state. A *block walk* then applies the
# polynomial to a layer between blocks, whose state is (digits of the holders open across it, the named cards
# of the holders closed before it), packed as ``closed + kwidth * sum(digit_j * stride_j)``; a slot is a holder
# the block names or passes over (``slot_from``: its digit before, -1 when it opens here; ``slot_to``: after, -1
# when it closes here, its ``1/(cap - k)!`` then taken into the weight). Both walks find their edges once, as
# ``(edge_start, edge_dst, edge_move, edge_weight, edge_closing)``; every pass after them sweeps the edges.


@njit(cache=True)
def _layer_room(states, moves):
    """Room for the next layer of a walk from ``states`` states with ``moves`` moves each: its hash table and
    index, keys and values, and the edges' start, destination, move and weight."""
    room = 16
    while room < 4 * states:
        room *= 2
    capacity = max(states * moves, 1)
    return (
        np.full(room, -1, np.int64),
        np.zeros(room, np.int64),
        np.zeros(max(states, 1), np.int64),
        np.zeros(max(states, 1), np.float64),
        np.zeros(states + 1, np.int64),
        np.empty(capacity, np.int32),
        np.empty(capacity, np.int32),
        np.empty(capacity, np.float64),
    )


@njit(cache=True)
def _slot(table, key):
    """Where ``key`` is in the open-addressing ``table`` (-1 where empty), or the empty place it would take."""
    mask = table.shape[0] - 1
    where = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(32)) & mask
    while table[where] != -1 and table[where] != key:
        where = (where + 1) & mask
    return where


@njit(cache=True)
def _add(table, index, out_keys, out_values, count, key, where):
    """Add state ``key`` as number ``count`` of the next layer at the empty place ``where`` (the table kept at
    most half full, ``out_keys``/``out_values`` grown as needed): (table, index, out_keys, out_values, its place)."""
    if 2 * (count + 1) > table.shape[0]:
        table, index = _rehashed(table, index)
        where = _slot(table, key)
    table[where] = key
    index[where] = count
    if count == out_keys.shape[0]:
        out_keys = np.concatenate((out_keys, np.zeros(count, np.int64)))
        out_values = np.concatenate((out_values, np.zeros(count, np.float64)))
    out_keys[count] = key
    return table, index, out_keys, out_values, where


@njit(cache=True, nogil=True)
def frontier_local_walk(keys, values, shape, strides, caps, moves, real):
    """One card of a block over the block's reached local states ``keys`` (with ``values``), and its edges.

    ``shape`` = (width before, width after, the card ends the block, every bit of the block); at the end only
    the states with every bit set go on, their bits dropped. Returns the next layer's keys (every state some
    move reaches: the first ``real`` moves are the card's options, the others the marginals' probes), their
    values (over the options) and the edges (weights: the moves' signs; no closing slots).
    """
    in_w, out_w, ends, full = shape[0], shape[1], shape[2], shape[3]
    opt_slot, opt_sign, opt_sat = moves
    table, index, out_keys, out_values, edge_start, edge_dst, edge_move, edge_weight = _layer_room(
        keys.shape[0], opt_slot.shape[0]
    )
    count = 0
    edges = 0
    for s in range(keys.shape[0]):
        edge_start[s] = edges
        bits = keys[s] % in_w
        digits = keys[s] // in_w
        for o in range(opt_slot.shape[0]):
            new_bits = bits | opt_sat[o]
            if ends:
                if new_bits != full:
                    continue
                new_bits = 0
            slot = opt_slot[o]
            target = digits
            if slot >= 0:
                if (digits // strides[slot]) % (caps[slot] + 1) == caps[slot]:
                    continue
                target += strides[slot]
            target = new_bits + out_w * target
            where = _slot(table, target)
            if table[where] != target:
                table, index, out_keys, out_values, where = _add(
                    table, index, out_keys, out_values, count, target, where
                )
                count += 1
            t = index[where]
            if o < real:
                out_values[t] += values[s] * opt_sign[o]
            edge_dst[edges] = t
            edge_move[edges] = o
            edge_weight[edges] = opt_sign[o]
            edges += 1
    edge_start[keys.shape[0]] = edges
    return (
        out_keys[:count].copy(),
        out_values[:count].copy(),
        edge_start,
        edge_dst[:edges].copy(),
        edge_move[:edges].copy(),
        edge_weight[:edges].copy(),
        np.zeros((edges, 0), np.int8),
    )


@njit(cache=True, nogil=True)
def frontier_block_walk(
    keys, values, probed, in_kw, in_radix, out_kw, out_stride, slots, monomials, coefficients, inv_fact
):
    """A block's polynomial (``monomials`` x slots, ``coefficients``) applied to the reached states ``keys`` of
    the layer before it (with ``values``): the next layer's keys, their values, the edges, whose moves are
    the monomials and whose weights are the closing slots' ``1/(cap - k)!`` (without the coefficients), and
    which of the next states are only reached through a monomial of coefficient 0 (``probed``, 1 for those).

    A monomial of coefficient 0 (reached only by the marginals' probes) adds nothing to any pass; its states are
    there for one probe's backward weight. The marginals place one card by name at a time, so a probed state
    takes no such monomial again: more than one probe on a path weighs nothing anybody asks for (and made most
    of the states early in 10-player games)."""
    slot_from, slot_to, slot_cap = slots
    n_slots = slot_from.shape[0]
    closing = 0
    for q in range(n_slots):
        if slot_to[q] < 0:
            closing += 1
    table, index, out_keys, out_values, edge_start, edge_dst, edge_move, edge_weight = _layer_room(
        keys.shape[0], monomials.shape[0]
    )
    edge_closing = np.empty((edge_dst.shape[0], max(closing, 1)), np.int8)
    count = 0
    edges = 0
    k = np.zeros(n_slots, np.int64)
    for s in range(keys.shape[0]):
        edge_start[s] = edges
        rem = keys[s]
        closed = rem % in_kw
        rem //= in_kw
        for q in range(n_slots):
            k[q] = 0
        for j in range(in_radix.shape[0]):
            digit = rem % in_radix[j]
            rem //= in_radix[j]
            for q in range(n_slots):
                if slot_from[q] == j:
                    k[q] = digit
        for m in range(monomials.shape[0]):
            if probed[s] and coefficients[m] == 0.0:
                continue
            weight = 1.0
            total = closed
            target = 0
            c = 0
            for q in range(n_slots):
                named = k[q] + monomials[m, q]
                if named > slot_cap[q]:
                    weight = 0.0
                    break
                if slot_to[q] < 0:
                    weight *= inv_fact[slot_cap[q] - named]
                    total += named
                    edge_closing[edges, c] = named
                    c += 1
                else:
                    target += named * out_stride[slot_to[q]]
            if weight == 0.0:
                continue
            target = total + out_kw * target
            where = _slot(table, target)
            if table[where] != target:
                table, index, out_keys, out_values, where = _add(
                    table, index, out_keys, out_values, count, target, where
                )
                count += 1
            t = index[where]
            out_values[t] += values[s] * weight * coefficients[m]
            edge_dst[edges] = t
            edge_move[edges] = m
            edge_weight[edges] = weight
            edges += 1
    edge_start[keys.shape[0]] = edges
    out_probed = np.ones(count, np.int8)
    for s in range(keys.shape[0]):
        if not probed[s]:
            for e in range(edge_start[s], edge_start[s + 1]):
                if coefficients[edge_move[e]] != 0.0:
                    out_probed[edge_dst[e]] = 0
    return (
        out_keys[:count].copy(),
        out_values[:count].copy(),
        out_probed,
        edge_start,
        edge_dst[:edges].copy(),
        edge_move[:edges].copy(),
        edge_weight[:edges].copy(),
        edge_closing[:edges].copy(),
    )


@njit(cache=True)
def _rehashed(table, index):
    """``table``/``index`` (open addressing, -1 where empty) rehashed into twice the room."""
    size = table.shape[0] * 2
    bigger = np.full(size, -1, np.int64)
    where_of = np.zeros(size, np.int64)
    for slot in range(table.shape[0]):
        key = table[slot]
        if key != -1:
            where = _slot(bigger, key)
            bigger[where] = key
            where_of[where] = index[slot]
    return bigger, where_of


@njit(cache=True, nogil=True)
def frontier_push(values, size, edges, move_weight, scaled, cap):
    """A forward pass's step over ``edges`` (of :func:`frontier_local_walk` or :func:`frontier_block_walk`), each
    edge weighed by its move's ``move_weight`` too (0: left out); with ``scaled >= 0`` also by ``cap`` minus its
    closing slot ``scaled``'s named cards."""
    edge_start, edge_dst, edge_move, edge_weight, edge_closing = edges
    out = np.zeros(size, np.float64)
    for s in range(edge_start.shape[0] - 1):
        v = values[s]
        if v == 0.0:
            continue
        for e in range(edge_start[s], edge_start[s + 1]):
            w = edge_weight[e] * move_weight[edge_move[e]]
            if w != 0.0:
                if scaled >= 0:
                    w *= cap - edge_closing[e, scaled]
                out[edge_dst[e]] += v * w
    return out


@njit(cache=True, nogil=True)
def frontier_pull(after, edges, move_weight, scaled, cap):
    """A backward pass's step over ``edges`` (see :func:`frontier_push`)."""
    edge_start, edge_dst, edge_move, edge_weight, edge_closing = edges
    out = np.zeros(edge_start.shape[0] - 1, np.float64)
    for s in range(edge_start.shape[0] - 1):
        total = 0.0
        for e in range(edge_start[s], edge_start[s + 1]):
            w = edge_weight[e] * move_weight[edge_move[e]]
            if w != 0.0:
                if scaled >= 0:
                    w *= cap - edge_closing[e, scaled]
                total += w * after[edge_dst[e]]
        out[s] = total
    return out


@njit(cache=True, nogil=True)
def frontier_contract(values, after, edges, first, stop):
    """For each move ``first <= m < stop`` alone: the sum over edges of the source's ``values`` times the weight
    times the destination's ``after``."""
    edge_start, edge_dst, edge_move, edge_weight, _ = edges
    out = np.zeros(stop - first, np.float64)
    for s in range(edge_start.shape[0] - 1):
        v = values[s]
        if v == 0.0:
            continue
        for e in range(edge_start[s], edge_start[s + 1]):
            m = edge_move[e]
            if first <= m < stop:
                out[m - first] += v * edge_weight[e] * after[edge_dst[e]]
    return out


@njit(cache=True, nogil=True)
def frontier_push_modulo(values, size, edges, move_weight, closing_caps, inv_fact, prime):
    """:func:`frontier_push` modulo ``prime``: each edge weighed by its move's ``move_weight`` (modulo ``prime``;
    0: left out) and its closing slots' ``1/(cap - k)!`` from ``inv_fact``."""
    edge_start, edge_dst, edge_move, _, edge_closing = edges
    out = np.zeros(size, np.int64)
    for s in range(edge_start.shape[0] - 1):
        v = values[s]
        if v == 0:
            continue
        for e in range(edge_start[s], edge_start[s + 1]):
            w = move_weight[edge_move[e]]
            if w == 0:
                continue
            for c in range(closing_caps.shape[0]):
                w = w * inv_fact[closing_caps[c] - edge_closing[e, c]] % prime
            out[edge_dst[e]] = (out[edge_dst[e]] + v * w) % prime
    return out


@njit(cache=True)
def frontier_order(named, work, degrees, caps):
    """The order of blocks that minimises the estimated work of the frontier program, over every subset.

    ``named[b]`` is the mask of holders block ``b`` names, ``work[b]`` the size of its polynomial and
    ``degrees[b, h]`` the most cards a monomial of it gives holder ``h``. Adding block ``b`` after the set ``S``
    costs that size times the states before it, at most: the product over the holders named both in ``S`` and in
    ``b`` or later blocks of one plus the cards ``S`` can give them (at most their capacity), times one plus those
    cards over the holders named only in ``S``. (The capacities alone overestimate the early layers, when few
    cards have been named: they once ordered a 10-player game's blocks at 25 times the work of the best order.)
    """
    n = named.shape[0]
    full = (1 << n) - 1
    union = np.zeros(1 << n, np.int64)
    given = np.zeros((1 << n, caps.shape[0]), np.int64)  # the most cards the blocks of a subset give each holder
    for subset in range(1, 1 << n):
        low = subset & -subset
        b = 0
        while (low >> b) != 1:
            b += 1
        union[subset] = union[subset ^ low] | named[b]
        for h in range(caps.shape[0]):
            given[subset, h] = min(caps[h], given[subset ^ low, h] + degrees[b, h])
    best = np.full(1 << n, np.inf)
    choice = np.zeros(1 << n, np.int64)
    best[0] = 0.0
    for subset in range(1 << n):
        if best[subset] == np.inf:
            continue
        # The holders named later are those of the blocks outside the subset, whichever of them comes next.
        later = union[full ^ subset]
        states = 1.0
        closed = 1.0
        for h in range(caps.shape[0]):
            if union[subset] >> h & 1:
                if later >> h & 1:
                    states *= given[subset, h] + 1
                else:
                    closed += given[subset, h]
        states *= closed
        for b in range(n):
            if subset >> b & 1:
                continue
            grown = subset | (1 << b)
            cost = best[subset] + work[b] * states
            if cost < best[grown]:
                best[grown] = cost
                choice[grown] = b
    order = np.zeros(n, np.int64)
    subset = full
    for position in range(n - 1, -1, -1):
        order[position] = choice[subset]
        subset ^= 1 << choice[subset]
    return order


@njit(cache=True, nogil=True)
def count_holders(deals, counts):
    """Add to ``counts[card, holder]`` (int64, cards x holders) how many of ``deals`` (count x cards) deal each
    card to each holder: the marginals of many deals in the memory of one table."""
    for row in range(deals.shape[0]):
        for card in range(deals.shape[1]):
            counts[card, deals[row, card]] += 1
