"""The player's statistics and choices: what a save keeps besides the game
(``store`` writes them, ``resume`` reads them), in a byte array and plain
attributes, read and changed in place by the app.
"""

from british_square.cards import const
from british_square.piles import RULE_SETS

# Statistics kept per rule set, read with ``Stats.get(rules, field)``.
PLAYED = const(0)  # games that had a move: won, lost, ended or abandoned
WINS = const(1)
HOME_TOTAL = const(2)  # cards home, added up over the games played (for the average)
HOME_BEST = const(3)
STREAK = const(4)  # wins in a row, now
STREAK_BEST = const(5)
FEWEST_MOVES = const(6)  # in a win; 0 until the first win
BEST_TIME = const(7)  # fastest win, seconds; 0 until the first win
PAR_REACHED = const(8)
HINTS = const(9)
FIELDS = const(10)
STATS_SIZE = RULE_SETS * FIELDS * 3  # rule sets x fields x 3 bytes
COUNT_MOST = const(0xFFFFFF)  # counts saturate here

# Auto-play's settings (``Settings.autoplay``), as the menu offers them in turn.
AUTOPLAY_OFF = const(0)
AUTOPLAY_ACES = const(1)  # aces that start or finish a foundation
AUTOPLAY_SAFE = const(2)  # and every card no other card can still need (``search.safe_move``)
AUTOPLAY_NAMES = ("off", "aces", "safe")  # their lines in words.txt's "autoplay_modes"
BRIGHTNESS_LEVELS = (100, 60, 30)  # the Brightness setting's, in percent, as the menu offers them


def put_number(buf, at, value, size):
    """``value`` as ``size`` little-endian bytes at ``buf[at]``."""
    for i in range(size):
        buf[at + i] = value & 0xFF
        value >>= 8


def read_number(buf, at, size):
    """The little-endian number of ``size`` bytes at ``buf[at]``."""
    value = 0
    for i in range(size - 1, -1, -1):
        value = value << 8 | buf[at + i]
    return value


class Stats:
    """Statistics per rule set in one ``bytearray`` (3 bytes a count, saturating).

    ``add_game`` counts a finished or abandoned game; ``get`` reads a count
    (the statistics screen works out its figures from them: ``results``).
    Nothing here allocates.
    """

    def __init__(self) -> None:
        self.data = bytearray(STATS_SIZE)

    def get(self, rules: int, field: int) -> int:
        """The count ``field`` (``PLAYED`` ... ``HINTS``) for rule set ``rules``."""
        return read_number(self.data, (rules * FIELDS + field) * 3, 3)

    def _set(self, rules, field, value):
        put_number(
            self.data, (rules * FIELDS + field) * 3, value if value < COUNT_MOST else COUNT_MOST, 3
        )

    def _add(self, rules, field, amount):
        self._set(rules, field, self.get(rules, field) + amount)

    def add_game(self, rules, score, won, moves, seconds, reached_par, hints) -> int:
        """Count one game of ``rules`` that had a move: ``score`` cards home,
        ``won`` or not (lost, ended and abandoned games are not), ``moves``
        played, ``seconds`` of play, whether it ``reached_par``, ``hints`` used.
        Return the records it bettered: ``1 << field`` for each of
        ``HOME_BEST``, ``STREAK_BEST``, ``FEWEST_MOVES`` and ``BEST_TIME``."""
        bettered = 0
        self._add(rules, PLAYED, 1)
        self._add(rules, HOME_TOTAL, score)
        if score > self.get(rules, HOME_BEST):
            self._set(rules, HOME_BEST, score)
            bettered = 1 << HOME_BEST
        if won:
            self._add(rules, WINS, 1)
            streak = self.get(rules, STREAK) + 1
            self._set(rules, STREAK, streak)
            if streak > self.get(rules, STREAK_BEST):
                self._set(rules, STREAK_BEST, streak)
                bettered |= 1 << STREAK_BEST
            fewest = self.get(rules, FEWEST_MOVES)
            if not fewest or moves < fewest:
                self._set(rules, FEWEST_MOVES, moves)
                bettered |= 1 << FEWEST_MOVES
            seconds = seconds or 1  # 0 means "no win yet"
            best = self.get(rules, BEST_TIME)
            if not best or seconds < best:
                self._set(rules, BEST_TIME, seconds)
                bettered |= 1 << BEST_TIME
        else:
            self._set(rules, STREAK, 0)
        if reached_par:
            self._add(rules, PAR_REACHED, 1)
        self._add(rules, HINTS, hints)
        return bettered


class Scorecard:
    """The game in play's own figures, for its screens and its save: its
    time on the cards (``seconds``, and ``play_ms`` of the second under
    way), the ``hints`` used, whether it is ``counted`` in the statistics,
    and the records it ``bettered`` once counted (``Stats.add_game``).
    Kept for the session and cleared for each new game (``clear``)."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.seconds = self.play_ms = self.hints = self.bettered = 0
        self.counted = False


class Settings:
    """What the player chose, kept with the game: plain attributes."""

    def __init__(self) -> None:
        self.rules = 0  # BRITISH
        self.autoplay = AUTOPLAY_OFF
        self.brightness = 100  # percent
        self.sound = True
        self.winnable_only = False
        self.four_colours = False  # clubs and diamonds in colours of their own
