"""The game in progress, the statistics and the settings, kept in 8 KB of flash.

The storage object is byte-addressable like ``microcontroller.nvm``: ``len()``,
slicing reads, slice assignment writes (``hw/storage.py`` has the desktop's
file-backed one). ``resume.load(store)`` once at start-up; ``Store.save()`` at the
save points ``save_policy.SavePolicy`` picks, a share a turn (``begin``,
``step``). After the constructor a save allocates nothing: one 1 KB record
buffer is filled in place, its CRC computed in small ints, and written with
one slice assignment through a slice object made at start-up.

The flash, and why the layout is what it is
-------------------------------------------
On a SAMD51 the NVM is one 8 KB erase block of sixteen 512-byte pages, and
CircuitPython writes ``nvm`` through ASF4's ``flash_write``: it reads the whole
block, erases it, then programs pages 0 to 15 in order, the bytes outside the
slice as they were. Every save is one erase cycle of that block, whatever its
size (``save_policy.SavePolicy`` says how many the flash can take).

Two records live in the block: slot A at byte 0 (pages 0-7) and slot B at byte
4096 (pages 8-15), each at most 1024 bytes (two pages). Saves alternate
between the slots, so the slot not written holds the save before, and the
hardware programs it back as it was. A record is complete when all its bytes
are in place: its CRC covers it whole, so the loader knows. What a power cut
loses at each moment of a write, and why ``NOTICE_EARLIER`` and ``PAIRED``
are what they are, is docs/saves.md's "A power cut during a save". The first
save of a new board (or the first after nothing could be read) goes to slot
B, so that the next one, into A, is programmed first: if it is cut, either
both go or it is whole; the older record is never used without the notice.

A record (little-endian)::

    header   0  4  magic  b"BSQ" 0x1a
             4  1  version (2; a record of version 1 has no rule-set count,
                   and the statistics of three)
             5  1  flags: 1 = a game in progress follows, 2 = it starts from
                   a position, 4 = the other slot held the save before (PAIRED),
                   8 = the game is in the statistics already (COUNTED: it
                   reached Game over, and the player undid to play on)
             6  2  length of the whole record, CRC included
             8  4  sequence number, 1 to LAST_SEQUENCE then 1 again: of two
                   records, the newer is the one the other reaches in fewer steps
    settings 12 4  rule set; options (``OPTION_*``: 1 auto-play, 2 sound,
                   4 winnable deals only, 8 four-colour suits, 16 auto-play
                   sends safe cards too, with 1); brightness 0-100; the
                   number of rule sets whose statistics follow (R, 3 now)
    stats    16 30R ten 3-byte counts (``Stats``) for each rule set, by number:
                   a build that adds a rule set still loads the records
                   written before it (its statistics start at nothing)
    game    106 12 rules; deal number (2, 0 = none); play time in seconds (3);
                   hints used (2); moves done (2); moves kept, done and redo (2)
           [start position: foundation counts (4), stock and waste counts (2),
                   per column height | base << 5 (4 or 16), then the cards,
                   one byte each: columns bottom first, stock and waste bottom first]
           moves: source, target (2 bytes a move), oldest first
    trailer     4  CRC-32 (binascii.crc32's) of everything before it

Moves kept: at most 400 from a deal number, 180 from a start position
(``DEAL_MOVES_MOST``, ``START_MOVES_MOST``). A board's start-up plays each
move kept again, checked (``resume.replay``: about a quarter of a
millisecond a move), after dealing the deal or building and checking the
start position (about 30 ms more): those figures keep the dearest
start-up within its second (tools/latency.py's rows for the longest
records). The 1 KB record has room for more, 451 and 388 (a record of
1 KB, not more: its buffer is on the heap for good), and a record an
earlier build wrote with that many still loads. A history longer than
that keeps the position after its oldest undo steps as the start: only
those are dropped. (Only when the redo tail alone outgrows the room is
its far end dropped.) Undo and redo do not lengthen the history, and a
game's 104 cards go home once each after at most 88 deals: only a game of
many hundreds of moves (cards carried to and fro) needs a start position. Only a game of the two
whole decks is kept (a set position of fewer cards, which only the desktop
and the VM can play, is played but not kept: the loader refuses it).

Loading is ``resume``'s (it runs once, at start-up, and is let go): it
trusts nothing it reads.
"""

from british_square.cards import const
from british_square.piles import RULE_SETS, move_source, move_target
from british_square.stats import AUTOPLAY_SAFE, COUNT_MOST, STATS_SIZE, Settings, Stats
from british_square.stats import put_number as _put

# What ``resume.load`` leaves in ``Store.notice`` (the title says each in a line):
NOTICE_UNREADABLE = const(1)  # nothing whole to load: a new game
NOTICE_EARLIER = const(2)  # the last save was cut short: the one before it loaded

MAGIC = b"BSQ\x1a"
VERSION = const(2)
VERSION_UNCOUNTED = const(1)  # the record before the count of rule sets: still loaded
UNCOUNTED_RULE_SETS = const(3)  # whose statistics it holds
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
SETTING_RULE_SETS = const(3)  # (version 1 had no count: its settings end here)
SETTINGS_SIZE = const(SETTING_RULE_SETS + 1)
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
# Sequence numbers run 1 to LAST_SEQUENCE, then 1 again (each a small int on
# a 32-bit board: no allocation). Of two records, the newer is the one the
# other reaches in at most HALF_SEQUENCE steps. No board counts that far (the
# flash wears out long before), but a record we did not write may claim it.
LAST_SEQUENCE = const(0x3FFFFFFE)
HALF_SEQUENCE = const(0x1FFFFFFF)
# The most moves a record keeps (the module's docstring says why these)
DEAL_MOVES_MOST = const(400)
START_MOVES_MOST = const(180)

# A save's stages (``Store.step``), and how much each step does: about 5 ms
# on a SAMD51 (tools/latency.py), so that a save's turns stay in a frame.
_IDLE = const(0)
_WALK = const(1)  # back to the start position, on a copy of the game
_START = const(2)  # the start position written
_MOVES = const(3)
_HEADER = const(4)
_CRC = const(5)
_WRITE = const(6)
_WALK_STEP = const(32)  # moves taken back
_MOVE_STEP = const(64)  # moves written
_CRC_STEP = const(128)  # bytes
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


BLANK_HEADER = b"\xff" * HEADER_SIZE  # an erased slot's


def may_be_ours(head):
    """Could the header ``head`` be one of ours, whole or a write of it cut
    short? Not an erased one (nothing was written). The flash clears bits
    only as it programs and sets them only as it erases, so every bit set in
    the magic is set in any such header; a header with one of them clear is
    another program's (docs/saves.md)."""
    if head == BLANK_HEADER:
        return False
    for i in range(len(MAGIC)):
        if head[i] & MAGIC[i] != MAGIC[i]:
            return False
    return True


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
        # the save under way (``begin``, ``step``): its stage, its game and
        # the copy walked back on, the record's flags and its end so far, the
        # moves still to walk back and to write, the CRC's progress
        self.stage = _IDLE
        self.game = self.walker = None
        self.flags = self.at = 0
        self.next_move = self.last_move = self.walked = 0
        self.crc_at = self.crc_lo = self.crc_hi = 0
        self.next_sequence = 0

    def may_hold_a_save(self) -> bool:
        """Could a slot hold a record of ours, whole or cut short? Not on a
        new board (erased) nor in another program's bytes: then the loader
        would find nothing, and it is not loaded (15 ms on a SAMD51)."""
        for start in (0, SLOT_B):
            if may_be_ours(self.nvm[start : start + HEADER_SIZE]):
                return True
        return False

    # ------------------------------------------------------------------ save

    def save(self, game, seconds: int, hints: int, counted: bool = False) -> None:
        """Write the settings, the statistics and ``game`` (``None`` when no
        game is in progress) with its ``seconds`` of play and ``hints`` used,
        and whether it is ``counted`` in the statistics already, now: one
        erase of the block, into the slot not holding the last save (a save
        under way is given up). A game that is not the two whole decks is
        left out (see above)."""
        self.begin(game, seconds, hints, counted)
        while not self.step():
            pass

    def begin(self, game, seconds: int, hints: int, counted: bool = False, copy_of=None) -> None:
        """Begin the save ``save`` makes at once, for ``step`` to go on with
        a share a call (a record is up to 40 ms of Python on a SAMD51, and
        a long game's walk back to its start position 150 ms more). The
        game must not change until the last step: a change calls ``cancel``.
        ``copy_of(game)``: a copy of the game's position the save may walk
        back on (the search's); without it the walk is the game's own,
        undone and redone in one step."""
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
        buf[at + SETTING_RULE_SETS] = RULE_SETS
        at += SETTINGS_SIZE
        buf[at : at + STATS_SIZE] = self.stats.data
        at += STATS_SIZE
        self.flags = 0
        self.game = game
        self.stage = _HEADER
        if game is not None:
            self.flags = HAS_GAME | (COUNTED if counted else 0)
            at = self._put_game(game, seconds, hints, at)
            if self.dropped >= 0:
                self.flags |= HAS_START
                self.stage = _WALK
                self.walker = copy_of(game) if copy_of is not None else None
            else:
                self.stage = _MOVES
        self.at = at

    @property
    def saving(self) -> bool:
        """Is a save begun (``begin``) still to be written?"""
        return self.stage != _IDLE

    def cancel(self) -> None:
        """Give up the save under way, if any: nothing is written."""
        self.stage = _IDLE
        self.game = self.walker = None

    def step(self) -> bool:
        """A share of the save begun (``begin``): a few dozen moves walked
        back or written, the start position, 128 bytes of the CRC, or the
        write, the last. Has it been written? Nothing here allocates."""
        stage, game = self.stage, self.game
        if stage == _WALK:
            walker = self.walker
            if walker is None:  # the game's own: back, the position written, forward
                count = game.history_count
                while game.history_count > self.next_move:
                    game.undo()
                self.at = self._put_start(game, self.at)
                while game.history_count < count:
                    game.redo()
                self.stage = _MOVES
                return False
            i = self.walked
            stop = max(self.next_move, i - _WALK_STEP)
            while i > stop:
                i -= 1
                walker.retract(game.history_move(i), game.history_flag(i))
            self.walked = i
            if i == self.next_move:
                self.stage = _START
        elif stage == _START:
            self.at = self._put_start(self.walker, self.at)
            self.walker = None
            self.stage = _MOVES
        elif stage == _MOVES:
            buf, at = self.buffer, self.at
            i = self.next_move
            stop = min(self.last_move, i + _MOVE_STEP)
            while i < stop:
                m = game.history_move(i)
                buf[at] = move_source(m)
                buf[at + 1] = move_target(m)
                at += MOVE_SIZE
                i += 1
            self.at, self.next_move = at, i
            if i == self.last_move:
                self.stage = _HEADER
        elif stage == _HEADER:
            self._put_header()
            self.stage = _CRC
        elif stage == _CRC:
            self._crc_step()
        elif stage == _WRITE:
            self._write()
            return True
        return False

    def _put_header(self):
        """The header, once the record's length is known; the CRC begins."""
        buf, at = self.buffer, self.at
        flags = self.flags
        if self.paired:
            flags |= PAIRED
        else:
            self.slot = 1  # see "what a power cut loses" above
        for i in range(4):
            buf[i] = MAGIC[i]
        buf[VERSION_AT] = VERSION
        buf[FLAGS_AT] = flags
        _put(buf, LENGTH_AT, at + CRC_SIZE, 2)
        self.next_sequence = self.sequence % LAST_SEQUENCE + 1
        _put(buf, SEQUENCE_AT, self.next_sequence, 4)
        self.crc_at = 0
        self.crc_lo = self.crc_hi = 0xFFFF
        self.game = None

    def _crc_step(self):
        """CRC-32 a nibble at a time, the 32-bit register in two 16-bit
        halves (see the tables): ``_CRC_STEP`` bytes, then the CRC's own."""
        buf, lo, hi = self.buffer, self.crc_lo, self.crc_hi
        low, high = _CRC_LO, _CRC_HI
        end = min(self.at, self.crc_at + _CRC_STEP)
        for i in range(self.crc_at, end):
            lo ^= buf[i]
            k = lo & 15
            lo = (lo >> 4 | (hi & 15) << 12) ^ low[k]
            hi = hi >> 4 ^ high[k]
            k = lo & 15
            lo = (lo >> 4 | (hi & 15) << 12) ^ low[k]
            hi = hi >> 4 ^ high[k]
        self.crc_at, self.crc_lo, self.crc_hi = end, lo, hi
        if end == self.at:
            lo ^= 0xFFFF
            hi ^= 0xFFFF
            buf[end] = lo & 0xFF
            buf[end + 1] = lo >> 8
            buf[end + 2] = hi & 0xFF
            buf[end + 3] = hi >> 8
            self.stage = _WRITE

    def _write(self):
        """The record into the slot not holding the last save: one erase."""
        self.stage = _IDLE
        self.sequence = self.next_sequence
        self.paired = False  # until the write is known to be done
        self.nvm[self.slots[self.slot]] = self.buffer
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
        """Write the game section's head at ``at``; return where it ends.
        Sets ``dropped``: -1 when the moves start from the game's deal, else
        the number of moves left out before the start position (``step``
        writes it, and the moves)."""
        buf = self.buffer
        count = game.history_count
        end = game.history_end
        first = 0
        last = end
        # A deal is a start only for a game whose history begins at it, and
        # only while all its moves fit; else the newest moves that fit beside
        # the largest start position are kept, from the position before them.
        from_deal = game.deal_number and game is not self.resumed_from_position
        if not from_deal or end > DEAL_MOVES_MOST:
            from_deal = False
            room = START_MOVES_MOST
            first = max(0, min(count, end - room))
            last = min(end, first + room)
        self.dropped = -1 if from_deal else first
        buf[at + GAME_RULES] = game.rules
        _put(buf, at + GAME_DEAL, game.deal_number, 2)
        _put(buf, at + GAME_SECONDS, seconds if seconds < COUNT_MOST else COUNT_MOST, 3)
        _put(buf, at + GAME_HINTS, hints if hints < 0xFFFF else 0xFFFF, 2)
        _put(buf, at + GAME_DONE, count - first, 2)
        _put(buf, at + GAME_KEPT, last - first, 2)
        self.next_move = first  # the moves to write, once the start is
        self.last_move = last
        self.walked = count  # the walk back to it begins at the present
        return at + GAME_SIZE

    def _put_start(self, position, at):
        """Write ``position`` (a game walked back to the start) at ``at``;
        return where it ends."""
        buf = self.buffer
        for suit in range(4):
            buf[at + START_FOUNDATIONS + suit] = position.foundations[suit]
        buf[at + START_STOCK] = position.stock_count
        buf[at + START_WASTE] = position.waste_count
        at += START_COLUMNS
        for c in range(position.columns):
            buf[at] = position.column_height(c) | position.base_count(c) << BASE_SHIFT
            at += 1
        for c in range(position.columns):
            for i in range(position.column_height(c)):
                buf[at] = position.card(c, i)
                at += 1
        for k in range(position.stock_count - 1, -1, -1):
            buf[at] = position.stock_card(k)
            at += 1
        for k in range(position.waste_count - 1, -1, -1):
            buf[at] = position.waste_card(k)
            at += 1
        return at
