"""Monte Carlo tree search over the core protocol.

- ``mcts.uct``: ``UCTSearch`` (UCT with random playouts, MCTS-Solver; C tree of
  20-byte nodes; kernel in ``mcts/_uct.pyx``), ``core_of(state)``, and
  ``SpielCore`` (the protocol over any OpenSpiel state, for games without a
  Cython core).
- ``mcts.bots``: the MCTS ``pyspiel.Bot``s (ours and OpenSpiel's C++ MCTS);
  build them by name through the catalogue of agents (``agents.make_bot``).
"""
