"""Monte Carlo tree search over the core protocol.

- ``mcts.uct``: ``UCTSearch`` (UCT with random playouts, MCTS-Solver; C tree of
  20-byte nodes; kernel in ``mcts/_uct.pyx``), ``core_of(state)``, and
  ``SpielCore`` (the protocol over any OpenSpiel state, for games without a
  Cython core).
- ``mcts.bots``: ``pyspiel.Bot``s (ours, OpenSpiel's C++ MCTS, uniform random,
  the solvers' alpha-beta) behind one factory, ``make_bot(kind, game, player,
  seed, **options)``.
"""
