"""How the odds engine spends time and memory: every knob that changes its speed, never its
figures (each figure keeps its stated error whatever these are), in one place.

The limits of what is analysed at all and the tolerances that define "exact" are not here:
they are part of what a figure means (``markov``: ``MAX_ANALYSIS_SQUARES``,
``TAIL_TOLERANCE``, ``EXTENSION_ERROR``...; ``analysis.EXACT``). The figures these knobs
were set by are in ``benchmarks/analysis.py`` and ``docs/odds.md``.
"""

from __future__ import annotations

# -- which solver path (system.System) ---------------------------------------------------

PLAIN_RANK = 1500
"""Up to this many corrections (jumps, rows that are not the plain walk's) the plain walk
plus corrections (``band``) solves a system: its k x k dense solves cost less than
importing scipy's sparse solver. Past it, while k^3 stays below ``PLAIN_RANK_WORK`` times
the squares, too (a sparse factorisation fills in with the jumps on a large board)."""
PLAIN_RANK_WORK = 20_000
PLAIN_ENTRY_WORK = 10_000_000
"""At most this many (entries of the row corrections) x k: the work of reading K off the
renewal sequence. Whole turns under ``three_sixes`` make every row a correction of some
twenty entries; past this (about 25 x 25 squares on a six-sided die) SuperLU's
factorisation costs less."""
REPEATED_SOLVES_RANK = 100
"""The jump effects (one solve per jump) use the plain walk while its corrections are at
most this many (each solve a fraction of a millisecond, no scipy import: ``snl check``
and ``snl generate`` on 10 x 10 boards), SuperLU's factorisation past it."""

# -- inside the plain walk (band) ----------------------------------------------------------

BLOCK = 256
"""Squares per block of the plain walk's back-substitution (one Toeplitz product each)."""
OUTER_GATHER = 1 << 16
"""Up to this many entries a block of K is read off the renewal sequence by one gather;
past it (many jumps) by sorting, which skips the gathers where u has settled."""
ROW_CELLS = 1 << 20
"""Entries of the row corrections times K's columns worked out at a time (8 MiB)."""
GATHER_CELLS = 1 << 16
"""Up to this many outcomes (times right-hand sides) the residual check gathers them at
once; past it one face at a time (no table-sized temporary)."""
FACE_BY_FACE = 16
"""Up to this many outcomes a row the residual sums them as they are; past it (whole
turns under ``three_sixes``) over each row's distinct outcomes, once each with its share:
a sum of 216 outcomes rounds too coarsely for the residual check."""
SHARED_COUNTS = 1 << 16
"""Up to this many cells (squares x faces) the plain walk's counts are kept for every
board of that size and die (576 KiB at most)."""
LAPACK_SQUARES = 50_000
"""From this many squares on, the plain walk's back-substitution is LAPACK's banded
triangular solve (``scipy.linalg.lapack.dtbtrs``: 1000 x 1000 boards, where the numpy
blocks take about twice as long over the whole analysis); below it, numpy blocks (no scipy
import)."""

# -- the turn step (turn_step.TurnOperator) ---------------------------------------------------

DENSE_TURN_LIMIT = 96
"""Up to this many positions a turn is one dense matrix-vector product; above it the
operator gathers along the roll table. Beyond 96 x 96 (9216 cells) OpenBLAS runs a
matrix-vector product on several threads, which is slower at these sizes and stalls
whenever another process holds a core."""
WINDOW_SHARE = 0.8
"""The turn is a window of sliding sums over every position when at least this share of
the positions are landing squares; with many jumps (a 50 x 50 board with 1,000 has 73%)
the gathers over the landing squares alone cost less."""

# -- the distribution of the finishing turn (distribution.Distribution.columns) ----------

TABLE_CELLS = 1 << 21
"""Memory cap of the turn table kept for every position (turns x positions float64
cells, 16 MiB). Past it only the positions asked about are followed (``COLUMN_WORK``)."""
COLUMN_WORK = 300_000_000
"""Work budget (turns x positions) for following asked-about positions past the table:
a few seconds at most. A column still unresolved then carries its error bound."""
FOLLOWS_KEPT = 8
"""Stretches past the table kept per board (the last positions asked about)."""
CLOSED_TAILS = True
"""Close a long game's tail between geometric bounds (the win chances, the game rounds,
the most likely turn, and the distribution written in closed form) once they are within
their stated error; False iterates every turn until ``TAIL_TOLERANCE``, which is slower
and the reference the tests hold the shortcuts to."""
NEAR_RESOLUTION = 256
"""A tail that iterating resolves within this many more turns (or a quarter of the
turns so far) is iterated, not written in closed form: exact at little cost (everest's
distribution resolves at turn 512, where a closed form would hold from about 400)."""
MAX_EXTENSION = 2_000_000
"""Most turns a tail is written out in closed form (16 MB a column)."""

# -- graph searches (model.reaching) ---------------------------------------------------------

SEARCH_IN_NUMPY = 100_000
"""Up to this many positions a graph search runs in numpy, one vectorised step per level
(no scipy import: a small board's analysis needs none); above it, where a board's levels
number in the tens of thousands, in ``scipy.sparse.csgraph``."""

# -- telling the user -------------------------------------------------------------------------

PROGRESS_SQUARES = 40_000
"""A board past this many squares says when it starts solving (``Chain.progress``)."""
PROGRESS_EVERY = 2.0
"""Seconds between two progress notes while the distribution is worked out."""
