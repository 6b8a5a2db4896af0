"""cardlogic: exact reasoning about hidden cards, for Literature (Fish) and Knektpass.

Where the main names live:

* Literature (also called Fish): :mod:`cardlogic.literature` has the game (``Game``, ``Deck``, ``State``, the
  events ``Ask``, ``Claim``, ``Pass``), the record notation (``read_record``, ``write_record``, ``parse_event``),
  the belief (``LiteratureBelief``) and the advice (``advise``, ``advise_record``); bots and tournaments are in
  :mod:`cardlogic.literature.bots` and :mod:`cardlogic.literature.tournament`.
* Knektpass: :mod:`cardlogic.knektpass` has the same shape (``Game``, ``Deal``, ``State``, ``read_record``,
  ``KnektpassBelief``, ``advise``), with bots and tournaments in :mod:`cardlogic.knektpass.bots` and
  :mod:`cardlogic.knektpass.tournament`.
* Both games share ``Card`` (:mod:`cardlogic.cards`), the deal model (:mod:`cardlogic.constraints`) and the
  inference behind one interface (:mod:`cardlogic.inference`: exact counting, a numba sampler, a CSP oracle).

>>> from cardlogic.literature import Game, LiteratureBelief
>>> belief = LiteratureBelief(Game(("Ann", "Bob", "Cat", "Dan")), observer=None, prior="rules")
>>> belief.probability("QD", "Ann")  # a spectator at the deal, exactly
0.25

Layers, each depending only on those before it: :mod:`cardlogic.cards`; :mod:`cardlogic.constraints`;
:mod:`cardlogic.inference`; :mod:`cardlogic.belief` (the belief over any game's tracker); one package per game;
:mod:`cardlogic.table` (a live game at the table); the command line (:mod:`cardlogic.cli`) and the benchmark suite
(:mod:`cardlogic.bench`) on top.
"""

__version__ = "0.1.0"
