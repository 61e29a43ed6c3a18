"""Each seat's exact chance of winning (``snl analyze --exact --players N``), as fractions.

The tokens never interact, so a game of P seats, all starting on the same square, is P
independent copies of one token's turn chain. With S_t = P(a token has not finished
within t turns) and f_t = P(it finishes at turn t exactly), seat i wins with probability

    W_i = sum_(t >= 1) f_t * S_t^(i-1) * S_(t-1)^(P-i)

(the seats before it have not finished within t turns, the seats after it within t - 1).
A turn is what ``chain`` calls one: the whole run of rolls while a face that rolls again
shows (the turn matrix is (f I - Top)^-1 End), or one of the engine's whole-turn outcomes
(``three_sixes``).

Q is the turn matrix over the positions a game can reach and still finish from; a doomed
position (the goal unreachable from it) drops out, its token never wins. With r the chance
of finishing in one turn, h the chance of ever finishing, d = 1 - h(start), a the start
row and rho_k = a Q^k r, eta_k = a Q^k h, theta_k = a Q^k Q h: f_(k+1) = rho_k,
S_k = d + eta_k and S_(k+1) = d + theta_k. So W_i is a sum over k of products
rho_k theta_k^x eta_k^y (x + y <= P - 1) times powers of d; with no doomed position
(d = 0, most boards) only those with x + y = P - 1.

Each such sum of products of linear recurrences is found without summing anything
infinite. phi, Q's characteristic polynomial, is x^e phi0(x) with phi0(0) != 0 and degree
n0. The first e terms are summed as they are; after them every sequence is annihilated by
phi0, and a product of m of them by the characteristic polynomial of the m-th symmetric
power of Q (roots: the products of m eigenvalues; degree C(n0 + m - 1, m)), found from the
power sums of phi0's roots as a power-series exponential (``symmetric_power``). So
sum_k s_k t^k = N(t) / Psi(t) (Psi that polynomial reversed, N from the first terms), and

    sum_k rho_k s_k = sum_j g_j rho_j   with   g = N / Psi  modulo phi0

(the sum is the functional x^j -> rho_j applied to N(x) / Psi(x) in Q[x] / phi0, by
Cayley-Hamilton; Psi is invertible there because no product of eigenvalues, each of
modulus below 1, is 1). Two seats need one inverse modulo phi0 (degree n0 <= 143), three
seats a Psi of degree C(n0 + 1, 2), four one of degree C(n0 + 2, 3).

``crt_functional`` finds g and the sum modulo word-size primes (``nmod_poly``) and
reassembles the fraction by the Chinese remainder theorem; its denominator is bounded in
advance (the resultant of phi0 and Psi times the inputs' denominators: Cramer's rule on
their Sylvester matrix), so the number of primes is known and the result is exact, not
probable. No floating point anywhere; python-flint does the arithmetic.

The fractions are large, and that is what limits the seats (``exact.check_exact``): their
digits grow like C(n0 + P - 1, P) * P * log10(faces). Measured (``benchmarks/exact.py``):
two seats 4,335 digits on classic and 14,392 on a 12 x 12 board whose squares all lie on a
loop (61,012 with three_sixes on a 20-sided die); three seats 28,776 on such a 7 x 7 and
168,972 on classic (38 s); four seats 15,070 on a 5 x 5.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from ..board import Board
from .markov import AnalysisError, chain_of
from .model import reachable_positions

if TYPE_CHECKING:
    from flint import fmpq, fmpq_poly, fmpz, fmpz_poly, nmod_poly

PRIME_START = 1 << 62
"""The CRT primes are the primes below 2^62, in descending order (word size for
``nmod_poly``)."""

CRT_BLOCKS = (64, 8)
"""Blocks of primes reduced against together (``_modulo_each``): a big coefficient is
taken modulo the product of 64 primes, then of 8, then of each."""

_PRIMES: list[int] = []


def win_chances(board: Board, players: int) -> list[Fraction]:
    """Each of ``players`` seats' chance of winning, everyone on the rules' start, as
    fractions (``exact.check_exact`` says how far this goes)."""
    turns = _TurnChain(board)
    if turns.start_on_goal:
        return [Fraction(1)] + [Fraction(0)] * (players - 1)
    if turns.size == 0:
        return [Fraction(0)] * players  # the start cannot finish: nobody ever wins
    return [_fraction(w) for w in turns.win_chances(players)]


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


class _TurnChain:
    """One token's turn chain over the positions that can still finish, as exact
    rational matrices (python-flint)."""

    def __init__(self, board: Board) -> None:
        from flint import fmpq_mat, fmpz_mat

        chain = chain_of(board)
        goal, faces, again = chain.goal, chain.faces, chain.rolls_again
        start = board.rules.start_position
        self.start_on_goal = start == goal
        positions = [
            p for p in reachable_positions(chain.dest, goal, [start]) if chain.can_finish[p]
        ]
        self.size = n = len(positions)
        if self.start_on_goal or n == 0:
            return
        index = np.full(goal + 1, -1, dtype=np.intp)
        index[positions] = np.arange(n)
        dest = chain.dest[positions]  # (n, faces): where each face ends
        to_goal = (dest == goal).sum(axis=1)
        if again:
            # A roll that continues the turn (``continues_turn``): the turn matrix is
            # (f I - Top)^-1 End, and the finishing chance (f I - Top)^-1 Goal.
            goes_on = chain.turns.continues_turn(np.asarray(positions, dtype=np.intp))
            top = _counts(index, dest, n, goes_on)
            end = _counts(index, dest, n, ~goes_on)
            system = fmpz_mat(n, n, (faces * np.eye(n, dtype=np.int64) - top).ravel().tolist())
            rhs = np.concatenate((end, to_goal[:, None]), axis=1)
            solved = system.solve(fmpz_mat(n, n + 1, rhs.ravel().tolist()))
            cells = solved.entries()
            self.turn = fmpq_mat(n, n, [cells[i * (n + 1) + j] for i in range(n) for j in range(n)])
            self.finish = fmpq_mat(n, 1, [cells[i * (n + 1) + n] for i in range(n)])
        else:
            self.turn = fmpq_mat(fmpz_mat(n, n, _counts(index, dest, n).ravel().tolist())) / faces
            self.finish = fmpq_mat(fmpz_mat(n, 1, to_goal.tolist())) / faces
        self.start_index = positions.index(start)
        if bool(chain.safe[positions].all()):
            self.ever = fmpq_mat(n, 1, [1] * n)
        else:
            identity = fmpq_mat(n, n, [int(i == j) for i in range(n) for j in range(n)])
            self.ever = (identity - self.turn).solve(self.finish)

    def win_chances(self, players: int) -> list[fmpq]:
        from flint import fmpq

        ever = self.ever[self.start_index, 0]
        if players == 1:
            return [ever]
        doomed = 1 - ever
        # The sums sum_k rho_k theta_k^x eta_k^y needed (x + y <= players - 1); with no
        # doomed position (d = 0) only those of the top order.
        needed = {
            (x, y)
            for seat in range(1, players + 1)
            for x in range(seat)
            for y in range(players - seat + 1)
            if doomed != 0 or x + y == players - 1
        }
        sums = _HadamardSums(self).sums(needed)
        sums[(0, 0)] = ever  # sum_k rho_k: the chance of ever finishing
        wins = []
        for seat in range(1, players + 1):
            total = fmpq(0)
            for x in range(seat):
                for y in range(players - seat + 1):
                    power = (seat - 1 - x) + (players - seat - y)
                    if power and doomed == 0:
                        continue
                    weight = comb(seat - 1, x) * comb(players - seat, y) * doomed**power
                    total += weight * sums[(x, y)]
            wins.append(total)
        return wins


def _counts(
    index: np.ndarray, dest: np.ndarray, n: int, only: np.ndarray | None = None
) -> np.ndarray:
    """counts[i, j]: how many of the faces in ``dest[i]`` (those marked in ``only``, when
    given) end on position j (faces that end on the goal or a doomed position are left
    out)."""
    target = index[dest]
    rows = np.repeat(np.arange(n), dest.shape[1])
    keep = target.ravel() >= 0
    if only is not None:
        keep &= only.ravel()
    counts = np.zeros((n, n), dtype=np.int64)
    np.add.at(counts, (rows[keep], target.ravel()[keep]), 1)
    return counts


class _HadamardSums:
    """sum_k rho_k theta_k^x eta_k^y for the (x, y) asked, exactly (module docstring)."""

    def __init__(self, turns: _TurnChain) -> None:
        from flint import fmpq_mat, fmpq_poly

        turn = turns.turn
        n = turns.size
        phi = turn.charpoly().coeffs()  # n + 1 coefficients, the constant term first
        self.zeros = zeros = next(i for i, c in enumerate(phi) if c != 0)
        self.phi0 = fmpq_poly(phi[zeros:])
        self.psi0 = fmpq_poly(phi[zeros:][::-1])  # x^degree phi0(1 / x): psi0(0) = 1
        self.degree = n - zeros
        # The rows a Q^k (k < n) against the columns r, h and Q h: the first n terms of
        # rho, eta and theta; the first ``zeros`` are summed as they are.
        rows = []
        row = fmpq_mat(1, n, [int(i == turns.start_index) for i in range(n)])
        for _ in range(n):
            rows.extend(row.entries())
            row = row * turn
        ever_next = turn * turns.ever
        columns = fmpq_mat(
            n, 3, [c[i, 0] for i in range(n) for c in (turns.finish, turns.ever, ever_next)]
        )
        values = fmpq_mat(n, n, rows) * columns
        names = ("rho", "eta", "theta")
        self.prefix = {name: [values[k, j] for k in range(zeros)] for j, name in enumerate(names)}
        self.first = {name: [values[k, j] for k in range(zeros, n)] for j, name in enumerate(names)}

    def sums(self, needed: set[tuple[int, int]]) -> dict[tuple[int, int], fmpq]:
        from flint import fmpq

        result: dict[tuple[int, int], fmpq] = {}
        by_order: dict[int, list[tuple[int, int]]] = {}
        for x, y in needed:
            if x + y:
                by_order.setdefault(1 + x + y, []).append((x, y))
        for order, group in sorted(by_order.items()):
            group.sort()
            heads = []
            for x, y in group:
                head = fmpq(0)
                for k in range(self.zeros):
                    head += (
                        self.prefix["rho"][k]
                        * self.prefix["theta"][k] ** x
                        * self.prefix["eta"][k] ** y
                    )
                heads.append(head)
            tails = self._tails(order, group) if self.degree else [fmpq(0)] * len(group)
            for key, head, tail in zip(group, heads, tails, strict=True):
                result[key] = head + tail
        return result

    def _tails(self, order: int, group: list[tuple[int, int]]) -> list[fmpq]:
        """sum_(k >= 0) over the sequences after the first ``zeros`` terms."""
        from flint import fmpq, fmpq_poly

        rest = order - 1  # how many sequences besides rho: the symmetric power's order
        psi = self.psi0 if rest == 1 else symmetric_power(self.psi0, rest)
        length = psi.degree()
        expanded = {
            name: self._expand(name, length)
            for name in ("theta", "eta")
            if any((x if name == "theta" else y) for x, y in group)
        }
        targets = []
        for x, y in group:
            product = [fmpq(1)] * length
            for name, power in (("theta", x), ("eta", y)):
                for _ in range(power):
                    product = [a * b for a, b in zip(product, expanded[name], strict=True)]
            numerator = (psi * fmpq_poly(product)).truncate(length)
            targets.append(numerator % self.phi0)
        return crt_functional(self.phi0, psi % self.phi0, targets, self.first["rho"])

    def _expand(self, name: str, length: int) -> list[fmpq]:
        """The first ``length`` terms of a sequence from its first ``degree`` ones."""
        from flint import fmpq, fmpq_poly

        first = self.first[name]
        if length <= len(first):
            return first[:length]
        numerator = (self.psi0 * fmpq_poly(first)).truncate(self.degree)
        terms = _series_quotient(numerator, self.psi0, length)
        return terms + [fmpq(0)] * (length - len(terms))


@contextmanager
def _series_precision(length: int) -> Iterator[None]:
    """python-flint's power series carry a global precision cap: raise it for a while."""
    from flint import ctx

    saved = ctx.cap
    ctx.cap = max(length, 1)
    try:
        yield
    finally:
        ctx.cap = saved


def _series_quotient(numerator: fmpq_poly, denominator: fmpq_poly, length: int) -> list[fmpq]:
    """The first ``length`` coefficients of numerator / denominator (denominator(0) != 0)."""
    from flint import fmpq_series

    with _series_precision(length):
        quotient = fmpq_series(numerator.coeffs() or [0], prec=length) / fmpq_series(
            denominator.coeffs(), prec=length
        )
        return list(quotient.coeffs())[:length]


CYCLE_INDEX: dict[int, tuple[tuple[Fraction, tuple[int, ...]], ...]] = {
    2: ((Fraction(1, 2), (1, 1)), (Fraction(1, 2), (2,))),
    3: ((Fraction(1, 6), (1, 1, 1)), (Fraction(1, 2), (1, 2)), (Fraction(1, 3), (3,))),
}
"""The cycle index of the symmetric group S_m: the power sums of the m-th symmetric power
of a matrix from those of the matrix (p_k of Sym^m = sum of coefficient * prod p_(c k))."""


def symmetric_power(psi: fmpq_poly, order: int) -> fmpq_poly:
    """prod over multisets {i_1 <= .. <= i_m} of (1 - x lambda_i1 .. lambda_im), for
    psi(x) = prod (1 - x lambda_i) with psi(0) = 1 and every lambda non-zero."""
    from flint import fmpq, fmpq_poly, fmpq_series

    roots = psi.degree()
    length = comb(roots + order - 1, order)
    # Power sums p_j of the lambdas: sum_j p_j x^j = -x psi'(x) / psi(x).
    top = order * length
    sums = _series_quotient(-psi.derivative() * fmpq_poly([0, 1]), psi, top + 1)
    sums += [fmpq(0)] * (top + 1 - len(sums))
    logarithm = [fmpq(0)]
    for k in range(1, length + 1):
        total = fmpq(0)
        for weight, cycles in CYCLE_INDEX[order]:
            term = fmpq(weight.numerator, weight.denominator)
            for cycle in cycles:
                term *= sums[cycle * k]
            total += term
        logarithm.append(-total / k)
    with _series_precision(length + 1):
        power = fmpq_series(logarithm, prec=length + 1).exp()
        coefficients = list(power.coeffs())[: length + 1]
    return fmpq_poly(coefficients)


def crt_functional(
    modulus: fmpq_poly,
    divisor: fmpq_poly,
    targets: Sequence[fmpq_poly],
    weights: Sequence[fmpq],
    magnitude: fmpq | int = 1,
) -> list[fmpq]:
    """For each target w: sum_j g_j weights_j with g = w / divisor modulo ``modulus``
    (monic, degree n = len(weights); every target of degree below n), exactly.

    No result exceeds ``magnitude`` in size (they are probabilities here, so 1), which
    with the denominator bound below says how many primes are enough.

    With integer forms P = dP modulus, U = dU divisor, W = dW w and weights G_j / dG,
    g = (dU / dW) g~ where g~ U + h P = W, and Cramer's rule on the integer Sylvester
    matrix of U and P (determinant +-Res(U, P)) makes Res g~ integral. So the result times
    Den = |Res| dW dG is an integer N, found modulo primes p (N_p = dU |Res| sum_j g~_j G_j)
    and reassembled once their product passes 2 Den.
    """
    from flint import fmpq, fmpz, fmpz_poly

    n = modulus.degree()
    p_int = modulus.numer()
    u_int, u_den = divisor.numer(), fmpz(divisor.denom())
    resultant = abs(fmpz(p_int.resultant(u_int)))
    if resultant == 0:  # pragma: no cover - impossible for a chain that finishes
        raise AnalysisError("--exact: a singular system (a bug)")
    g_den = fmpz(1)
    for weight in weights:
        g_den = g_den.lcm(fmpz(weight.q))
    weights_rev = fmpz_poly([fmpz(w.p) * (g_den // fmpz(w.q)) for w in reversed(weights)])
    parts = [(w.numer(), fmpz(w.denom())) for w in targets]
    dens = [resultant * w_den * g_den for _, w_den in parts]
    scale = u_den * resultant
    # Enough primes that their product passes 2 Den (each is above 2^61). A prime that
    # divides the modulus's leading coefficient or the resultant is skipped: it shows
    # as a drop in degree or a common factor modulo that prime.
    bits = (2 * max(dens) * (fmpq(magnitude).p // fmpq(magnitude).q + 1)).bit_length()
    polys = [p_int, u_int, weights_rev, *(w for w, _ in parts)]
    residues: list[list[int]] = [[] for _ in parts]
    primes: list[int] = []
    covered = 0
    candidates = _primes()
    while covered <= bits:
        batch = [
            next(candidates) for _ in range(max(1, min(CRT_BLOCKS[0], (bits - covered) // 61 + 1)))
        ]
        for prime, (p_mod, u_mod, weights_mod, *w_mods), factor in _modulo_each(
            polys, scale, batch
        ):
            one, inverse, _ = u_mod.xgcd(p_mod)
            if p_mod.degree() != n or one.degree() != 0:
                continue
            inverse = inverse * pow(int(one[0]), -1, prime)
            for slot, w_mod in enumerate(w_mods):
                total = int((((w_mod * inverse) % p_mod) * weights_mod)[n - 1])
                residues[slot].append(total * factor % prime)
            primes.append(prime)
            covered += 61
    results = []
    for slot, den in enumerate(dens):
        value, modulus_product = _chinese_remainder(residues[slot], primes)
        if value > modulus_product // 2:
            value -= modulus_product
        results.append(fmpq(value, den))
    return results


def _primes() -> Iterator[int]:
    """The primes below ``PRIME_START``, descending (found once, then remembered)."""
    from flint import fmpz

    yield from _PRIMES
    candidate = _PRIMES[-1] if _PRIMES else PRIME_START + 1
    while True:
        candidate -= 2 if candidate % 2 else 1
        if fmpz(candidate).is_prime():
            _PRIMES.append(candidate)
            yield candidate


def _modulo_each(
    polys: Sequence[fmpz_poly], number: fmpz, primes: Sequence[int]
) -> Iterator[tuple[int, list[nmod_poly], int]]:
    """Each prime with ``polys`` and ``number`` modulo it. The coefficients are big (tens
    of thousands of digits): they are taken modulo the product of a block of primes, then
    of a smaller block, and only then modulo each prime, so each reduction is short."""
    from flint import fmpz, fmpz_poly, nmod_poly

    def modulo(poly: fmpz_poly, modulus: fmpz) -> fmpz_poly:
        return fmpz_poly([c % modulus for c in poly.coeffs()])

    for outer in _blocks(primes, CRT_BLOCKS[0]):
        outer_product = fmpz(math.prod(outer))
        outer_polys = [modulo(poly, outer_product) for poly in polys]
        outer_number = number % outer_product
        for inner in _blocks(outer, CRT_BLOCKS[1]):
            inner_product = fmpz(math.prod(inner))
            inner_polys = [modulo(poly, inner_product) for poly in outer_polys]
            inner_number = outer_number % inner_product
            for prime in inner:
                yield (
                    prime,
                    [nmod_poly(poly, prime) for poly in inner_polys],
                    int(inner_number % prime),
                )


def _blocks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for first in range(0, len(items), size):
        yield items[first : first + size]


def _chinese_remainder(residues: Sequence[int], primes: Sequence[int]) -> tuple[fmpz, fmpz]:
    """(N, M): 0 <= N < M = prod primes with N = residue mod each prime, by a product tree
    (the sums) and a remainder tree (each prime's cofactor M / p mod p)."""
    from flint import fmpz

    levels: list[list[fmpz]] = [[fmpz(p) for p in primes]]
    while len(levels[-1]) > 1:
        level = levels[-1]
        levels.append(
            [
                level[i] * level[i + 1] if i + 1 < len(level) else level[i]
                for i in range(0, len(level), 2)
            ]
        )
    product = levels[-1][0]
    remainders = [product]
    for depth in range(len(levels) - 2, -1, -1):
        level = levels[depth]
        remainders = [remainders[i // 2] % (level[i] * level[i]) for i in range(len(level))]
    values = []
    for residue, prime, remainder in zip(residues, primes, remainders, strict=True):
        cofactor = int((remainder // prime) % prime)
        values.append(fmpz(residue * pow(cofactor, -1, prime) % prime))
    for depth in range(len(levels) - 1):
        level = levels[depth]
        values = [
            values[i] * level[i + 1] + values[i + 1] * level[i] if i + 1 < len(level) else values[i]
            for i in range(0, len(level), 2)
        ]
    return values[0] % product, product
