"""cardlogic: exact reasoning about hidden cards.

Layers, each depending only on those before it:

* :mod:`cardlogic.cards`, :mod:`cardlogic.decks`: cards as ints, sets as bitmasks, deck variants;
* :mod:`cardlogic.literature`: the rules of Literature (Fish) and a full-information referee;
* :mod:`cardlogic.constraints`: the game-agnostic model of one hidden deal;
* :mod:`cardlogic.inference`: exact counting, a numba sampler and a CSP oracle behind one interface;
* advice, records and the command line on top.
"""

__version__ = "0.1.0"
