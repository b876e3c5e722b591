"""Measuring under CircuitPython: costs in empty-loop units, heap in bytes.

Runs on the VM (and on CPython for a smoke run). A cost is reported as the
time of the operation divided by the time of one iteration of an empty
``for`` loop, so figures from this fast desktop VM carry over to a 120 MHz
SAMD51 (about 3.5 us per empty iteration there, from CircuitPython's
published pystone rate on a Metro M4).

The machines this runs on are shared: their speed changes by half again
within a second, and other programs take the CPU away for milliseconds at a
time. So one loop unit taken at the start does not hold for what is timed
later. Each sample of an operation (about 1 ms of calls) is instead timed
between two short empty-loop batches and divided by the quicker of them:
one ratio per round. Rounds in which the process lost the CPU (wall time
beyond its CPU time) are left out. The figure is the median of ``ROUNDS``
ratios (more while they disagree), reported with the lowest one and a
spread, the width of the middle half of the rounds over the median (see
``Measured``). Minima were tried first: they moved 25-50% from run to run
here, where these medians moved under 20%.
"""

import gc
import time

from benchpaths import add_game_paths, report  # noqa: F401  (shared by the benches)

SAMD51_US_PER_LOOP = 3.5


def _now_ns():
    return time.monotonic_ns()


# CPU time given to this process: time.process_time on CPython, time.clock
# (in 1 ms steps) on CircuitPython's unix port.
_process_time = getattr(time, "process_time", None) or time.clock


def _cpu_ns():
    return int(_process_time() * 1000000000)


ROUNDS = 15  # calibrated rounds per figure
UNIT_LOOPS = 20000  # empty iterations per calibration batch: about 1 ms on this VM
SAMPLE_NS = 1000000  # a sample runs about as long as a calibration batch
NOISY = 0.2  # a spread above this: the machine was busy, take more rounds
MORE_ROUNDS = 3
PREEMPTED_NS = 2000000  # off the CPU this long in a round: the round is left out
MIN_ROUNDS = 5  # kept rounds needed for a figure (else all rounds count)


def _unit_batch_ns():
    """Nanoseconds per empty ``for`` iteration, over one batch of ``UNIT_LOOPS``."""
    t0 = _now_ns()
    for _ in range(UNIT_LOOPS):
        pass
    return (_now_ns() - t0) / UNIT_LOOPS


class Measured:
    """A figure from several rounds: ``value`` is their median, ``low`` the
    lowest, ``spread`` (upper - lower quartile) / median, where the quartiles
    leave out the lowest and the highest quarter of the rounds (``n // 4``
    each), so one disturbed round does not widen it."""

    def __init__(self, ratios):
        self.ratios = ratios
        ordered = sorted(ratios)
        n = len(ordered)
        middle = n // 2
        if n % 2:
            self.value = ordered[middle]
        else:
            self.value = (ordered[middle - 1] + ordered[middle]) / 2
        self.low = ordered[0]
        quarter = n // 4
        self.spread = (ordered[n - 1 - quarter] - ordered[quarter]) / self.value

    def per(self, count):
        """The same rounds for one of ``count`` operations timed together."""
        return Measured([ratio / count for ratio in self.ratios])


def mean_of(measures):
    """The mean of several figures (say one per position), rank by rank: each
    one's sorted rounds are sampled at the same ranks and averaged, so the
    result's median, lowest round and quartiles are the means of theirs."""
    ranks = min(len(m.ratios) for m in measures)
    ordered = [sorted(m.ratios) for m in measures]
    averaged = []
    for k in range(ranks):
        total = 0
        for rounds in ordered:
            total += rounds[k * len(rounds) // ranks]
        averaged.append(total / len(ordered))
    return Measured(averaged)


def undisturbed(rounds):
    """The ratios of the ``rounds`` (ratio, off-CPU nanoseconds) during which
    the process kept the CPU: all of them if fewer than ``MIN_ROUNDS`` did."""
    kept = [ratio for ratio, off_cpu in rounds if off_cpu <= PREEMPTED_NS]
    return kept if len(kept) >= MIN_ROUNDS else [ratio for ratio, _ in rounds]


def measure_sample(sample_ns, rounds=ROUNDS):
    """Cost in loop units of what ``sample_ns()`` times (it returns nanoseconds):
    a ``Measured``. Each sample lies between two loop-unit batches and is
    divided by the quicker of them (a batch that the system interrupted is
    the slower one). A round during which the system ran something else for
    more than ``PREEMPTED_NS`` (wall time beyond CPU time) is left out. Until
    ``rounds`` rounds are kept and they spread no wider than ``NOISY``, more
    are taken, up to ``MORE_ROUNDS`` times ``rounds``."""
    taken_rounds = []
    before = _unit_batch_ns()
    while True:
        for _ in range(rounds):
            wall = _now_ns()
            cpu = _cpu_ns()
            taken = sample_ns()
            after = _unit_batch_ns()
            off_cpu = (_now_ns() - wall) - (_cpu_ns() - cpu)
            taken_rounds.append((taken / min(before, after), off_cpu))
            before = after
        kept = undisturbed(taken_rounds)
        measured = Measured(kept)
        if len(kept) >= rounds and measured.spread <= NOISY:
            return measured
        if len(taken_rounds) >= MORE_ROUNDS * rounds:
            return measured


def batch(fn, repeat=None):
    """A sample for ``measure_sample``: nanoseconds per ``fn()`` call, over
    ``repeat`` calls; by default as many as fill ``SAMPLE_NS`` (one call
    timed first). Batches keep the clock's own cost out of short calls."""
    if repeat is None:
        t0 = _now_ns()
        fn()
        repeat = max(1, SAMPLE_NS // max(1, _now_ns() - t0))

    def sample_ns():
        t0 = _now_ns()
        for _ in range(repeat):
            fn()
        return (_now_ns() - t0) / repeat

    return sample_ns


def measure(fn, repeat=None, rounds=ROUNDS):
    """Cost of one ``fn()`` call in loop units: a ``Measured`` (``repeat``: see ``batch``)."""
    return measure_sample(batch(fn, repeat), rounds)


def loop_unit_ns(rounds=ROUNDS):
    """This machine's nanoseconds per empty iteration, over ``rounds`` batches:
    a ``Measured`` (its speed, not a cost: it moves with the machine's load)."""
    return Measured([_unit_batch_ns() for _ in range(rounds)])


def allocated(fn):
    """Heap bytes ``fn()`` allocates (with the collector held off)."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    fn()
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def held(make):
    """Heap bytes still held by what ``make()`` returns, after a collection."""
    gc.collect()
    before = gc.mem_alloc()
    kept = make()
    gc.collect()
    after = gc.mem_alloc()
    return after - before, kept


def report_cost(bench, metric, measured, note, unit="loops", digits=0):
    """Report a ``Measured``: its median and lowest round rounded to ``digits``
    decimals, and its spread."""

    def rounded(x):
        return round(x, digits) if digits else round(x)

    report(
        bench, metric, rounded(measured.value), unit, note, rounded(measured.low), measured.spread
    )
