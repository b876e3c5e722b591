"""The game in progress, the statistics and the settings, kept in 8 KB of flash.

The storage object is byte-addressable like ``microcontroller.nvm``: ``len()``,
slicing reads, slice assignment writes (``hw/storage.py`` has the desktop's
file-backed one). ``resume.load(store)`` once at start-up; ``Store.save()`` at the
rest points ``save_policy.SavePolicy`` picks. After the constructor a save allocates
nothing: one 1 KB record buffer is filled in place, its CRC computed in
small ints, and written with one slice assignment through a slice object
made at start-up.

The flash, and why the layout is what it is
-------------------------------------------
On a SAMD51 the NVM is one 8 KB erase block of sixteen 512-byte pages, and
CircuitPython writes ``nvm`` through ASF4's ``flash_write``: it reads the whole
block, erases it, then programs pages 0 to 15 in order, the bytes outside the
slice as they were. Every save is one erase cycle of that block, whatever its
size (``save_policy.SavePolicy`` says how many the flash can take). A power cut can stop
the erase, or leave pages 0..k-1 programmed, page k part-programmed and the
rest erased (0xFF).

Two records live in the block: slot A at byte 0 (pages 0-7) and slot B at byte
4096 (pages 8-15), each at most 1024 bytes (two pages). Saves alternate
between the slots, so the slot not written holds the save before, and the
hardware programs it back as it was. A record is complete when all its bytes
are in place: its CRC covers it whole, so the loader knows. With N the save
being written and P the one before it, what a power cut during N loses:

* during the erase, or before the last page of slot A's record is programmed
  (whichever slot N goes to): both records, so the game in progress, the
  statistics and the settings: the board starts as a new one, saying
  ``NOTICE_UNREADABLE`` when anything unreadable is left (a block cut right
  after its erase is all 0xFF and looks like a new board: no notice, as
  nothing can tell the two apart). This window is the erase (50 ms
  typical, 200 ms at most) plus a page or two (about 1.5 ms each): most of
  a write, which takes about 75 ms in all, the erase and 16 pages (estimates,
  to be measured on a board). It is rare because a write is rare: at most
  three a day of play (see
  ``save_policy.SavePolicy``), so the board is in that window under 0.6 s a day; a cut
  lands there only if the power switch or a flat battery strikes in those
  milliseconds (the low-battery save comes at 3.5 V, well before the cell
  gives out).
* N into A, after A's record: nothing; N loads (and B holds P, or part of it).
* N into B, after A's record, before B's is all programmed (about 12 ms):
  that save; P loads, with ``NOTICE_EARLIER``.
* after B's record: nothing; N loads.

``NOTICE_EARLIER`` says that the record loaded may be older than the last
save made, and it is never left out when it is: when a newer record is
whole but nonsense, or when the other slot is not a whole record and its
header could be the start of the save after the one loaded (each bit of it
either as that save has it or still erased: a header cut anywhere, even in
its sequence number, qualifies; the save before, programmed back, does not).
One case cannot be told from a cut of N into B: N into A cut after A's
record but before B's sequence number is programmed back (about 10 ms).
The two leave the same bytes, so the notice is shown there too, of N.
A record says whether the other slot held the save before it when it was
written (``PAIRED``): the first save of a new board, whose other slot is
empty, is no cut. That first save (or the first after nothing could be
read) goes to slot B, so that the next one, into A, is programmed first: if
it is cut, either both go (the erase window above) or it is whole; the
older record is never used without the notice.

The other layout with one erase, the old record first and the new one after
it, has the same window and needs both records in RAM at once.

A record (little-endian)::

    header   0  4  magic  b"BSQ" 0x1a
             4  1  version (1)
             5  1  flags: 1 = a game in progress follows, 2 = it starts from
                   a position, 4 = the other slot held the save before (PAIRED),
                   8 = the game is in the statistics already (COUNTED: it
                   reached Game over, and the player undid to play on)
             6  2  length of the whole record, CRC included
             8  4  sequence number, 1 to LAST_SEQUENCE then 1 again: of two
                   records, the newer is the one the other reaches in fewer steps
    settings 12 3  rule set; options (``OPTION_*``: 1 auto-play, 2 sound,
                   4 winnable deals only, 8 four-colour suits, 16 auto-play
                   sends safe cards too, with 1); brightness 0-100
    stats    15 90 three rule sets x ten 3-byte counts (``Stats``)
    game    105 12 rules; deal number (2, 0 = none); play time in seconds (3);
                   hints used (2); moves done (2); moves kept, done and redo (2)
           [start position: foundation counts (4), stock and waste counts (2),
                   per column height | base << 5 (4 or 16), then the cards,
                   one byte each: columns bottom first, stock and waste bottom first]
           moves: source, target (2 bytes a move), oldest first
    trailer     4  CRC-32 (binascii.crc32's) of everything before it

Moves that fit: 1024 - 121 fixed bytes leave room for 451 moves from a deal
number, 388 from a start position (a record of 1 KB, not more: its buffer
is on the heap for good). A history longer than that keeps the
position after its oldest undo steps as the start: only those are dropped.
(Only when the redo tail alone outgrows the room is its far end dropped.)
Undo and redo do not lengthen the history, and a game's 104 cards go home
once each after at most 88 deals: only a game of many hundreds of moves
(cards carried to and fro) needs a start position. Only a game of the two
whole decks is kept (a set position of fewer cards, which only the desktop
and the VM can play, is played but not kept: the loader refuses it).

Loading is ``resume``'s (it runs once, at start-up, and is let go): it
trusts nothing it reads.
"""

from british_square.cards import const
from british_square.piles import move_source, move_target

# What ``resume.load`` leaves in ``Store.notice`` (the title says each in a line):
NOTICE_UNREADABLE = const(1)  # nothing whole to load: a new game
NOTICE_EARLIER = const(2)  # the last save was cut short: the one before it loaded

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

MAGIC = b"BSQ\x1a"
VERSION = const(1)
SLOT_B = const(4096)
RECORD_SIZE = const(1024)
# The record's fields (the layout above), each named once: the header's
# from the record's start, the others' from the start of their section.
VERSION_AT = const(4)
FLAGS_AT = const(5)
LENGTH_AT = const(6)  # 2 bytes
SEQUENCE_AT = const(8)  # 4 bytes
HEADER_SIZE = const(SEQUENCE_AT + 4)
SETTING_RULES = const(0)
SETTING_OPTIONS = const(1)
SETTING_BRIGHTNESS = const(2)
SETTINGS_SIZE = const(SETTING_BRIGHTNESS + 1)
FIELDS = const(10)
STATS_SIZE = const(3 * FIELDS * 3)  # rule sets x fields x 3 bytes
GAME_RULES = const(0)
GAME_DEAL = const(1)  # 2 bytes
GAME_SECONDS = const(3)  # 3 bytes
GAME_HINTS = const(6)  # 2 bytes
GAME_DONE = const(8)  # 2 bytes: the moves done
GAME_KEPT = const(10)  # 2 bytes: the moves kept, done and redo
GAME_SIZE = const(GAME_KEPT + 2)
START_FOUNDATIONS = const(0)  # 4 bytes, a suit each
START_STOCK = const(4)
START_WASTE = const(5)
START_COLUMNS = const(6)  # a byte a column: its height | its base << BASE_SHIFT
BASE_SHIFT = const(5)
HEIGHT_MASK = const(31)
MOVE_SIZE = const(2)  # a move: its source, its target
CRC_SIZE = const(4)
FIXED_SIZE = const(HEADER_SIZE + SETTINGS_SIZE + STATS_SIZE + CRC_SIZE)
HAS_GAME = const(1)
HAS_START = const(2)
PAIRED = const(4)
COUNTED = const(8)
# The settings' options byte, a bit each (``Settings``).
OPTION_AUTOPLAY = const(1)
OPTION_SOUND = const(2)
OPTION_WINNABLE = const(4)
OPTION_FOUR_COLOURS = const(8)
OPTION_SAFE = const(16)  # with OPTION_AUTOPLAY: auto-play sends safe cards, not aces only
OPTIONS_ALL = const(31)
# Auto-play's settings (``Settings.autoplay``), as the menu offers them in turn.
AUTOPLAY_OFF = const(0)
AUTOPLAY_ACES = const(1)  # aces that start or finish a foundation
AUTOPLAY_SAFE = const(2)  # and every card no other card can still need (``search.safe_move``)
AUTOPLAY_NAMES = ("off", "aces", "safe")  # their lines in words.txt's "autoplay_modes"
_MOST = const(0xFFFFFF)  # counts saturate here
# Sequence numbers run 1 to LAST_SEQUENCE, then 1 again (each a small int on
# a 32-bit board: no allocation). Of two records, the newer is the one the
# other reaches in at most HALF_SEQUENCE steps. No board counts that far (the
# flash wears out long before), but a record we did not write may claim it.
LAST_SEQUENCE = const(0x3FFFFFFE)
HALF_SEQUENCE = const(0x1FFFFFFF)
_MOVE_ROOM = const((RECORD_SIZE - FIXED_SIZE - GAME_SIZE) // MOVE_SIZE)  # 451
_START_MOST = const(START_COLUMNS + 16 + 104)  # 16 columns, 104 cards

# CRC-32 a nibble at a time with the 32-bit register in two 16-bit halves:
# binascii.crc32 returns a 32-bit int, which a 32-bit CircuitPython boxes on
# the heap three times in four, and a save must allocate nothing. The loader,
# which may allocate, checks with binascii.crc32 itself.
_CRC_LO = (
    0x0000, 0x1064, 0x20C8, 0x30AC, 0x4190, 0x51F4, 0x6158, 0x713C,
    0x8320, 0x9344, 0xA3E8, 0xB38C, 0xC2B0, 0xD2D4, 0xE278, 0xF21C,
)  # fmt: skip
_CRC_HI = (
    0x0000, 0x1DB7, 0x3B6E, 0x26D9, 0x76DC, 0x6B6B, 0x4DB2, 0x5005,
    0xEDB8, 0xF00F, 0xD6D6, 0xCB61, 0x9B64, 0x86D3, 0xA00A, 0xBDBD,
)  # fmt: skip


def _crc32_into(buf, end):
    """Write the CRC-32 of ``buf[0:end]`` at ``buf[end:end + 4]``, little-endian."""
    lo = hi = 0xFFFF
    low = _CRC_LO
    high = _CRC_HI
    for i in range(end):
        lo ^= buf[i]
        k = lo & 15
        lo = (lo >> 4 | (hi & 15) << 12) ^ low[k]
        hi = hi >> 4 ^ high[k]
        k = lo & 15
        lo = (lo >> 4 | (hi & 15) << 12) ^ low[k]
        hi = hi >> 4 ^ high[k]
    lo ^= 0xFFFF
    hi ^= 0xFFFF
    buf[end] = lo & 0xFF
    buf[end + 1] = lo >> 8
    buf[end + 2] = hi & 0xFF
    buf[end + 3] = hi >> 8


def _put(buf, at, value, size):
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

    ``add_game`` counts a finished or abandoned game; ``get`` reads a count;
    ``percent_won`` and ``average_home_tenths`` are the figures shown.
    Nothing here allocates.
    """

    def __init__(self) -> None:
        self.data = bytearray(STATS_SIZE)

    def get(self, rules: int, field: int) -> int:
        """The count ``field`` (``PLAYED`` ... ``HINTS``) for rule set ``rules``."""
        return read_number(self.data, (rules * FIELDS + field) * 3, 3)

    def _set(self, rules, field, value):
        _put(self.data, (rules * FIELDS + field) * 3, value if value < _MOST else _MOST, 3)

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

    def percent_won(self, rules: int) -> int:
        """Games won, in whole percent of those played (0 before the first)."""
        played = self.get(rules, PLAYED)
        return self.get(rules, WINS) * 100 // played if played else 0

    def average_home_tenths(self, rules: int) -> int:
        """Average cards home per game played, in tenths (163 is 16.3)."""
        played = self.get(rules, PLAYED)
        return self.get(rules, HOME_TOTAL) * 10 // played if played else 0


class Settings:
    """What the player chose, kept with the game: plain attributes."""

    def __init__(self) -> None:
        self.rules = 0  # BRITISH
        self.autoplay = AUTOPLAY_OFF
        self.brightness = 100  # percent
        self.sound = True
        self.winnable_only = False
        self.four_colours = False  # clubs and diamonds in colours of their own


class Store:
    """The save in ``nvm``: ``resume.load(store)`` once, then ``save(game,
    seconds, hints)``; ``forget()`` when what was loaded cannot be used.

    ``stats`` and ``settings`` are the store's own objects, loaded by
    ``load`` and saved by every ``save``: the app changes them in place.
    After ``load``: ``notice`` (0, ``NOTICE_UNREADABLE`` or ``NOTICE_EARLIER``),
    and for the game it returned ``seconds`` of play and ``hints`` used.
    """

    def __init__(self, nvm) -> None:
        if len(nvm) < SLOT_B + RECORD_SIZE:
            raise ValueError("nvm too small for two records")
        self.nvm = nvm
        self.buffer = bytearray(RECORD_SIZE)  # the record a save writes
        self.stats = Stats()
        self.settings = Settings()
        self.notice = 0
        self.seconds = 0
        self.hints = 0
        self.counted = False  # the loaded game is in the statistics already
        self.sequence = 0  # of the newest record written or found
        self.slot = 1  # where the next save goes (B while not paired)
        self.paired = False  # the slot the next save leaves holds the save before it, whole
        self.slots = (slice(0, RECORD_SIZE), slice(SLOT_B, SLOT_B + RECORD_SIZE))
        self.writes = 0  # saves written since start-up
        self.errors_caught = 0  # since start-up, for About (``caught``)
        self.dropped = -1  # in the last save: moves left out before its start position
        # A game loaded from a start position: its history does not begin at its deal.
        self.resumed_from_position = None

    # ------------------------------------------------------------------ save

    def save(self, game, seconds: int, hints: int, counted: bool = False) -> None:
        """Write the settings, the statistics and ``game`` (``None`` when no
        game is in progress) with its ``seconds`` of play and ``hints`` used,
        and whether it is ``counted`` in the statistics already:
        one erase of the block, into the slot not holding the last save.
        A game that is not the two whole decks is left out (see above)."""
        if game is not None and game.score() + game.cards_left() != 104:
            game = None
        buf = self.buffer
        s = self.settings
        at = HEADER_SIZE
        buf[at + SETTING_RULES] = s.rules
        options = OPTION_SOUND if s.sound else 0
        if s.autoplay:
            options |= OPTION_AUTOPLAY | (OPTION_SAFE if s.autoplay == AUTOPLAY_SAFE else 0)
        if s.winnable_only:
            options |= OPTION_WINNABLE
        buf[at + SETTING_OPTIONS] = options | (OPTION_FOUR_COLOURS if s.four_colours else 0)
        buf[at + SETTING_BRIGHTNESS] = s.brightness
        at += SETTINGS_SIZE
        buf[at : at + STATS_SIZE] = self.stats.data
        at += STATS_SIZE
        flags = 0
        if game is not None:
            at = self._put_game(game, seconds, hints, at)
            flags = HAS_GAME | (HAS_START if self.dropped >= 0 else 0) | (COUNTED if counted else 0)
        if self.paired:
            flags |= PAIRED
        else:
            self.slot = 1  # see "what a power cut loses" above
        for i in range(4):
            buf[i] = MAGIC[i]
        buf[VERSION_AT] = VERSION
        buf[FLAGS_AT] = flags
        _put(buf, LENGTH_AT, at + CRC_SIZE, 2)
        self.sequence = self.sequence % LAST_SEQUENCE + 1
        _put(buf, SEQUENCE_AT, self.sequence, 4)
        _crc32_into(buf, at)
        self.paired = False  # until the write is known to be done
        self.nvm[self.slots[self.slot]] = buf
        self.paired = True
        self.slot ^= 1
        self.writes += 1

    def caught(self, doing, error, console) -> None:
        """An exception the app caught while ``doing`` something with the
        save (loading it, starting its game, saving) and played on without:
        one line on ``console``, and one more on About's count. A board's
        ``.mpy`` has no line numbers: unsaid, a bug would pass for damage."""
        self.errors_caught += 1
        try:  # the line is a nicety; playing on is not
            text = str(error)
            name = type(error).__name__
            console("error: {}: {}{}".format(doing, name, ": " + text if text else ""))
        except MemoryError:
            pass

    def forget(self) -> None:
        """Keep nothing of what ``load`` took (it raised, or its game could
        not be started): the title says the save was unreadable, and the
        next save goes to slot B, numbered past every whole record (``load``
        counts them first), so that it is the one the next power-on loads."""
        self.stats = Stats()
        self.settings = Settings()
        self.notice = NOTICE_UNREADABLE
        self.seconds = self.hints = 0
        self.counted = False
        self.resumed_from_position = None
        self.paired = False

    def _put_game(self, game, seconds, hints, at):
        """Write the game section at ``at``; return where it ends. Sets
        ``dropped``: -1 when the moves start from the game's deal, else the
        number of moves left out before the start position written."""
        buf = self.buffer
        count = game.history_count
        end = game.history_end
        first = 0
        last = end
        # A deal is a start only for a game whose history begins at it, and
        # only while all its moves fit; else the newest moves that fit beside
        # the largest start position are kept, from the position before them.
        from_deal = game.deal_number and game is not self.resumed_from_position
        if not from_deal or end > _MOVE_ROOM:
            from_deal = False
            room = _MOVE_ROOM - (_START_MOST + MOVE_SIZE - 1) // MOVE_SIZE
            first = max(0, min(count, end - room))
            last = min(end, first + room)
        self.dropped = -1 if from_deal else first
        buf[at + GAME_RULES] = game.rules
        _put(buf, at + GAME_DEAL, game.deal_number, 2)
        _put(buf, at + GAME_SECONDS, seconds if seconds < _MOST else _MOST, 3)
        _put(buf, at + GAME_HINTS, hints if hints < 0xFFFF else 0xFFFF, 2)
        _put(buf, at + GAME_DONE, count - first, 2)
        _put(buf, at + GAME_KEPT, last - first, 2)
        at += GAME_SIZE
        if not from_deal:
            at = self._put_start(game, first, at)
        for i in range(first, last):
            m = game.history_move(i)
            buf[at] = move_source(m)
            buf[at + 1] = move_target(m)
            at += MOVE_SIZE
        return at

    def _put_start(self, game, first, at):
        """Write the position after move ``first`` of ``game``'s history.
        The game is walked there with undo and back with redo: exact, and
        nothing allocated."""
        count = game.history_count
        while game.history_count > first:
            game.undo()
        buf = self.buffer
        for suit in range(4):
            buf[at + START_FOUNDATIONS + suit] = game.foundations[suit]
        buf[at + START_STOCK] = game.stock_count
        buf[at + START_WASTE] = game.waste_count
        at += START_COLUMNS
        for c in range(game.columns):
            buf[at] = game.column_height(c) | game.base_count(c) << BASE_SHIFT
            at += 1
        for c in range(game.columns):
            for i in range(game.column_height(c)):
                buf[at] = game.card(c, i)
                at += 1
        for k in range(game.stock_count - 1, -1, -1):
            buf[at] = game.stock_card(k)
            at += 1
        for k in range(game.waste_count - 1, -1, -1):
            buf[at] = game.waste_card(k)
            at += 1
        while game.history_count < count:
            game.redo()
        return at
