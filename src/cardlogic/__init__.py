"""cardlogic: exact reasoning about hidden cards.

Layers, each depending only on those before it:

* :mod:`cardlogic.cards`: cards as ints, sets of cards as bitmasks;
* :mod:`cardlogic.constraints`: the game-agnostic model of one hidden deal;
* :mod:`cardlogic.inference`: exact counting, a numba sampler and a CSP oracle behind one interface;
* one package per game: :mod:`cardlogic.literature` (Literature, also called Fish) with its decks, rules,
  records, tracking, belief, advice, bots and tournaments;
* the command line (:mod:`cardlogic.cli`) and the benchmark suite (:mod:`cardlogic.bench`) on top.
"""

__version__ = "0.1.0"
