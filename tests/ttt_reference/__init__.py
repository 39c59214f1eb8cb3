"""A slow, direct Python model of the tic-tac-toe rules (docs/rules/ttt/),
written from the rules text rather than from the engine, so that tests can
compare the Cython engine with it move by move.

It reads only the validated record of a ``RuleSet`` and the documented
action encoding; coordinates are 0-based (x, y, z) tuples. One model,
``ReferenceState``, plays every rule set: it is assembled from one mixin per
concept of the rule vocabulary, each reading the rule set to decide what
applies (a rule set without powers has no captures, one without cloaked
spaces no views to keep apart, ...):

==============  ===========================================================
geometry.py     cells, boards side by side, directions, targets, landing
phases.py       seats, colours, pieces, reserves, locked and exclusive
                spaces, phases and folds
turns.py        action ids, who moves, placements, moves, passes, offers,
                the end of a ply
outcomes.py     lines, turn checks, stalemate rules, several boards, the
                dilemmas' outcomes
shapes.py       per-shape moves, goals, replacements, the shapes' rank,
                castling
stacks.py       moves by stack and by full stack
captures.py     powers, covers, results, must capture, by-stack covers
jumps.py        jumps, chain jumps, + back
surround.py     surround line and surround orthogonal
pots.py         pots, showdowns, poker hands
rounds.py       simultaneous and single rounds
cloaking.py     what each seat sees, attempts, obscurity, hidden turns
views.py        per-player views of the board
deal.py         a deck: the deal's chance nodes, hands, dealt common spaces
==============  ===========================================================

Later concepts refine earlier ones: ``ReferenceState``'s bases run from the
last concept to the first, and a mixin that takes part of a method (an
action it rules, a move it adds) hands the rest to ``super()``. The modules
import only constants and functions from earlier ones. ``apply(a)`` checks
that ``a`` is legal, then ``play(a)`` applies it.
"""

from __future__ import annotations

from .captures import CapturesMixin, EnPassantMixin
from .cloaking import CloakingMixin, hidden_turns_key, hidden_turns_step
from .deal import DealMixin
from .geometry import GeometryMixin
from .jumps import JumpsMixin
from .outcomes import OutcomesMixin
from .phases import PhasesMixin
from .pots import PotsMixin, brute_force, hand_pieces, multisets
from .rounds import RoundsMixin
from .shapes import RANK, CastleMixin, ShapesMixin, outranks
from .stacks import StacksMixin
from .surround import SurroundMixin
from .turns import TurnsMixin
from .views import ViewsMixin

__all__ = [
    "RANK",
    "ReferenceState",
    "brute_force",
    "hand_pieces",
    "hidden_turns_key",
    "hidden_turns_step",
    "multisets",
    "outranks",
]


class ReferenceState(
    EnPassantMixin,
    CastleMixin,
    DealMixin,
    ViewsMixin,
    CloakingMixin,
    RoundsMixin,
    PotsMixin,
    SurroundMixin,
    JumpsMixin,
    CapturesMixin,
    StacksMixin,
    ShapesMixin,
    OutcomesMixin,
    TurnsMixin,
    PhasesMixin,
    GeometryMixin,
):
    """The position of a rule set ``rs`` and the rules that move it on."""

    def __init__(self, rs):
        r = rs.record
        self._init_geometry(r)
        self._init_outcomes(r)
        self._init_setup(r)
        self._init_shapes(r)
        self._init_turns()
        self._layout_placements_and_moves()
        self._layout_by_stack()
        self._layout_pass_and_offers()
        self._layout_end_chain()
        self._init_captures()
        self._init_surround()
        self._init_pots()
        self._init_rounds(r)
        self._init_cloaking(r)
        self._init_deal(r)
        if not self.dealing():  # a deck: the first phase starts after the deal
            self._start_phase(0)
        self.refresh()
