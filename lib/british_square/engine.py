"""The rules of British Square, American and Union Square, and a game's history.

A ``Game`` is its piles (``piles.Piles``: the position on byte arrays and
the readers) with the rules (``legal_moves``, ``is_legal``, ``status``), the
moves (``apply`` and ``retract``, for searches) and their history of two
bytes per move (``push``, ``undo``, ``redo``), so play, undo and redo
allocate nothing. ``push`` trusts its caller (search); ``play`` is the
checked entry point (people, tools, parsers), which raises
``IllegalMoveError`` (``resume.replay`` is its loop for a saved game's moves).

Reading a game: the counts (``rules``, ``columns``, ``deal_number``,
``stock_count``, ``waste_count``, ``history_count``) are plain attributes,
never to be assigned from outside; the cards are read through the readers
of ``Piles``.

This module and ``piles`` are the ground floor: it imports only ``cards``
and ``piles``, and ``piles`` only ``cards`` and ``deal``.
"""

from british_square.cards import const
from british_square.piles import (
    BRITISH,
    COLUMN_CAPACITY,
    FOUNDATION,
    SPACE_TAKES_ANY,
    STOCK,
    WASTE,
    Piles,
    move_source,
    move_target,
    move_text,
)

# What ``Game.status()`` says.
STATUS_PLAYING = const(0)
STATUS_WON = const(1)
STATUS_LOST = const(2)

# Enough for every (source, target) pair: 17 sources x 17 targets + 16 fills + 1 deal.
MAX_MOVES = const(306)
# History entries are two bytes: target, and source (5 bits) plus what undo
# cannot see: a base card left its column (bit 7), a card went home (its suit, bits 5-6).
_FROM_BASE = const(0x80)
_SOURCE_BITS = const(0x1F)
# ``apply``'s flag is those three bits: ``flag >> FLAG_SHIFT`` is under 8,
# and nothing of it lies below, where a pile's number fits. A search that
# keeps its own path packs it so (``search.DeadSearch``).
FLAG_SHIFT = const(5)
# The history is kept in chunks of _CHUNK bytes (64 moves), one more as
# the game grows: a long game on a board then never needs one large block
# (doubling a single buffer asked for 4 KB at once in a heap left in pieces).
_CHUNK = const(128)
# Scratch for legal_moves: per card value, two bytes of a mask of the columns
# that card may be built on. Shared, so no game pays for it.
_ACCEPT = bytearray(104)
_NO_ACCEPT = bytes(104)


class IllegalMoveError(ValueError):
    """``Game.play`` was given something that is not a legal move in the game's
    position (as python-chess's ``IllegalMoveError``, a ``ValueError``).

    It holds the move and the game's column count, and words its message only
    when asked: the game on a board refuses moves often and never prints them,
    so a refusal there costs one small object and no text."""

    def __str__(self):
        m, columns = self.args
        if type(m) is not int:
            return "illegal move: a {} is not a move".format(type(m).__name__)
        if not 0 <= m <= 0xFFFF:  # never printed whole: it may be any size
            return "illegal move: an int out of 0-0xFFFF is not a move"
        source, target = move_source(m), move_target(m)
        if (source < columns or STOCK <= source <= FOUNDATION) and (
            target < columns or STOCK <= target <= FOUNDATION
        ):
            return "illegal move '{}'".format(move_text(m))
        return "illegal move {:#06x}: no such pile in this game".format(m)


class Game(Piles):
    """One game: its piles, the rules, and its history for undo and redo."""

    def __init__(self, rules: int = BRITISH) -> None:
        super().__init__(rules)
        # the moves, two bytes each, in chunks made as the moves come: a copy
        # a search moves on (``apply``, never ``push``) makes none
        self.history = []
        self.history_count = 0  # moves done
        self.history_end = 0  # moves done plus moves that can be redone

    def deal(self, number: int) -> None:
        """Deal ``number`` here (``Piles.deal``), with no history: the arrays
        the history has grown keep their room for the next game's moves."""
        super().deal(number)
        self.history_count = self.history_end = 0

    # ------------------------------------------------------------------ moves

    def legal_moves(self, buffer: bytearray) -> int:
        """Write the legal moves into ``buffer`` (a ``bytearray(2 * MAX_MOVES)``
        as source, target byte pairs, in a fixed order) and return their count.

        Order: for each column then the waste, its foundation move then its
        moves to columns 0, 1, ...; then stock fills of empty columns; then the
        deal to the waste. Allocates nothing.
        """
        if len(buffer) < 2 * MAX_MOVES:
            raise ValueError("legal_moves needs a bytearray(2 * MAX_MOVES)")
        # One pass over the columns marks, for each card value, the columns it
        # may be built on; each playable card then needs one table look-up.
        # Cleared first (a copy in C), so no interrupted call can spoil the next.
        accept = _ACCEPT
        accept[:] = _NO_ACCEPT
        ncols = self.columns
        height = self.height
        base = self.base
        cells = self.cells
        empties = 0
        for t in range(ncols):
            h = height[t]
            if not h:
                empties |= 1 << t
                continue
            i = t * COLUMN_CAPACITY + h - 1
            top = cells[i]
            step = top - cells[i - 1] if h > base[t] else 0
            r = top % 13
            if r != 12 and step != -1:  # takes top + 1: not past a king, not against a down build
                j = top + top + 2
                if t < 8:
                    accept[j] |= 1 << t
                else:
                    accept[j + 1] |= 1 << (t - 8)
            if r and step != 1:  # takes top - 1
                j = top + top - 2
                if t < 8:
                    accept[j] |= 1 << t
                else:
                    accept[j + 1] |= 1 << (t - 8)
        fills_any = SPACE_TAKES_ANY[self.rules]
        f = self.foundations
        n = 0
        for source in range(ncols + 1):
            if source == ncols:
                if not self.waste_count:
                    break
                source = WASTE
                card = self.waste[self.waste_count - 1]
                targets = empties
            else:
                h = height[source]
                if not h:
                    continue
                card = cells[source * COLUMN_CAPACITY + h - 1]
                targets = empties if fills_any else 0
            done = f[card // 13]  # ``_can_home``, inlined: this loop is the hot path
            if card % 13 + 1 == (done + 1 if done < 13 else 26 - done):
                buffer[n] = source
                buffer[n + 1] = FOUNDATION
                n += 2
            targets |= accept[card + card] | accept[card + card + 1] << 8
            t = 0
            while targets:
                if not targets & 0xF:  # skip four columns at a time
                    targets >>= 4
                    t += 4
                    continue
                if targets & 1:
                    buffer[n] = source
                    buffer[n + 1] = t
                    n += 2
                targets >>= 1
                t += 1
        if self.stock_count:
            if not fills_any:
                t = 0
                while empties:
                    if empties & 1:
                        buffer[n] = STOCK
                        buffer[n + 1] = t
                        n += 2
                    empties >>= 1
                    t += 1
            buffer[n] = STOCK
            buffer[n + 1] = WASTE
            n += 2
        return n >> 1

    def is_legal(self, m: int) -> bool:
        """Is the move int ``m`` legal here? Cheap: checks only that move.
        Any int is safe to ask about; ``play`` also refuses what is not an int.
        One function, no calls: a board's start-up checks hundreds (``resume``)."""
        source = m >> 8
        target = m & 0xFF
        columns = self.columns
        if source == target or not 0 <= source <= WASTE or columns <= source < STOCK:
            return False
        if source < columns:
            h = self.height[source]
            if not h:
                return False
            card = self.cells[source * COLUMN_CAPACITY + h - 1]
        elif source == WASTE:
            if not self.waste_count:
                return False
            card = self.waste[self.waste_count - 1]
        elif not self.stock_count:
            return False
        elif target == WASTE:
            return True
        else:  # a space takes the stock's card where it takes only the talon's
            return not (SPACE_TAKES_ANY[self.rules] or target >= columns or self.height[target])
        if target == FOUNDATION:
            done = self.foundations[card // 13]
            return card % 13 + 1 == (done + 1 if done < 13 else 26 - done)
        if target >= columns:
            return False
        h = self.height[target]
        if not h:
            return SPACE_TAKES_ANY[self.rules] or source == WASTE
        # on a card of its suit, one rank away, the way the column builds
        i = target * COLUMN_CAPACITY + h - 1
        below = self.cells[i]
        step = card - below
        if (step != 1 and step != -1) or card // 13 != below // 13:
            return False
        return h <= self.base[target] or below - self.cells[i - 1] == step

    # ------------------------------------------------------- apply and undo

    def apply(self, m: int) -> int:
        """Apply the legal move ``m`` without recording it (for searches, which
        keep their own path); return the bits ``retract`` needs besides ``m``
        (three, from bit ``FLAG_SHIFT``): ``_FROM_BASE`` when the card was its
        column's base card, and a card sent home's suit. One function, not a
        call to take and one to put: the searches' inner step, and a resumed game's."""
        source = m >> 8
        target = m & 0xFF
        flag = 0
        # take the playable card off its source
        if source == WASTE:
            n = self.waste_count - 1
            self.waste_count = n
            card = self.waste[n]
        elif source == STOCK:
            n = self.stock_count - 1
            self.stock_count = n
            card = self.stock[n]
        else:
            h = self.height[source] - 1
            self.height[source] = h
            card = self.cells[source * COLUMN_CAPACITY + h]
            if h < self.base[source]:
                self.base[source] = h
                flag = _FROM_BASE
        # and put it on its target
        if target == FOUNDATION:
            suit = card // 13
            self.foundations[suit] += 1
            return flag | suit << FLAG_SHIFT
        if target == WASTE:
            self.waste[self.waste_count] = card
            self.waste_count += 1
        else:
            h = self.height[target]
            self.cells[target * COLUMN_CAPACITY + h] = card
            self.height[target] = h + 1
            if not h:  # a card that fills a space is that column's new base
                self.base[target] = 1
        return flag

    def retract(self, m: int, flag: int) -> None:
        """Take back ``m``, applied with ``apply`` (which returned ``flag``)."""
        source = m >> 8
        target = m & 0xFF
        # take the card back off its target
        if target == FOUNDATION:
            suit = (flag >> 5) & 3
            card = self.foundation_top(suit)
            self.foundations[suit] -= 1
        elif target == WASTE:
            self.waste_count -= 1
            card = self.waste[self.waste_count]
        else:
            h = self.height[target] - 1
            self.height[target] = h
            card = self.cells[target * COLUMN_CAPACITY + h]
            if not h:
                self.base[target] = 0
        # and return it to its source
        if source == WASTE:
            self.waste[self.waste_count] = card
            self.waste_count += 1
        elif source == STOCK:
            self.stock[self.stock_count] = card
            self.stock_count += 1
        else:
            h = self.height[source]
            self.cells[source * COLUMN_CAPACITY + h] = card
            self.height[source] = h + 1
            if flag & _FROM_BASE:
                self.base[source] = h + 1

    def push(self, m: int) -> None:
        """Apply the legal move ``m`` (unchecked) and record it; clears the redo list."""
        flag = self.apply(m)
        n = self.history_count
        history = self.history
        if n * 2 == len(history) * _CHUNK:
            history.append(bytearray(_CHUNK))
        chunk = history[n * 2 // _CHUNK]
        i = n * 2 % _CHUNK
        chunk[i] = (m >> 8) | flag
        chunk[i + 1] = m & 0xFF
        self.history_count = self.history_end = n + 1

    def play(self, m: int) -> None:
        """Check the move ``m`` and play it: the checked way to make a move.

        Anything that is not a legal move here (an illegal move, an int that
        names no move of this game, a bool, another type) raises
        ``IllegalMoveError`` naming it, and changes nothing.
        """
        if type(m) is not int or not self.is_legal(m):  # type, not isinstance: True is no move
            raise IllegalMoveError(m, self.columns)
        self.push(m)

    def history_move(self, index: int) -> int:
        """Move ``index`` of the history as a move int (0 = the first move;
        ``history_count`` and up are the moves that can be redone). Allocates
        nothing; the index is the caller's to keep below ``history_end``."""
        i = index * 2
        chunk = self.history[i // _CHUNK]
        return (chunk[i % _CHUNK] & _SOURCE_BITS) << 8 | chunk[i % _CHUNK + 1]

    def history_is(self, moves, count: int) -> bool:
        """Are the first ``count`` moves of the history those of ``moves``,
        a move's source and target a byte each, as a save keeps them? A
        chunk at a time, with no call a move: a shipped line's check late
        in its game (230 moves) is 6 ms on a board, half as many as through
        ``history_move``."""
        end = 2 * count
        base = 0
        for chunk in self.history:
            if base >= end:
                break
            for j in range(0, min(_CHUNK, end - base), 2):
                k = base + j
                if chunk[j] & _SOURCE_BITS != moves[k] or chunk[j + 1] != moves[k + 1]:
                    return False
            base += _CHUNK
        return base >= end

    def history_flag(self, index: int) -> int:
        """The bits ``retract`` needs to take back move ``index`` of the
        history (``apply``'s): a copy of the position can walk back too."""
        i = index * 2
        return self.history[i // _CHUNK][i % _CHUNK] & ~_SOURCE_BITS

    def undo(self) -> "int | None":
        """Take back the last move; return it, or ``None`` at the start."""
        if not self.history_count:
            return None
        self.history_count -= 1
        m = self.history_move(self.history_count)
        self.retract(m, self.history_flag(self.history_count))
        return m

    def redo(self) -> "int | None":
        """Play again the last move taken back; return it, or ``None``."""
        if self.history_count == self.history_end:
            return None
        m = self.history_move(self.history_count)
        self.apply(m)
        self.history_count += 1
        return m

    def peek(self) -> "int | None":
        """The last move played, or ``None``."""
        if not self.history_count:
            return None
        return self.history_move(self.history_count - 1)

    # ---------------------------------------------------------------- outcome

    def is_won(self) -> bool:
        return not (self.stock_count or self.waste_count or sum(self.height))

    def status(self, buffer: "bytearray | None" = None) -> int:
        """``STATUS_PLAYING``, ``STATUS_WON`` or ``STATUS_LOST`` (stock empty, no legal move)."""
        if self.is_won():
            return STATUS_WON
        if self.stock_count:
            return STATUS_PLAYING
        if buffer is None:
            buffer = bytearray(2 * MAX_MOVES)
        return STATUS_PLAYING if self.legal_moves(buffer) else STATUS_LOST

    # ------------------------------------------------------------- identity

    def copy_position_from(self, other: "Game") -> None:
        """Take ``other``'s position (same rules), not its history: for a search
        that reuses one game instead of allocating a copy each time."""
        if other.rules != self.rules:
            raise ValueError("copy_position_from needs a game of the same rules")
        self.deal_number = other.deal_number
        self.cells[:] = other.cells
        self.height[:] = other.height
        self.base[:] = other.base
        self.stock[:] = other.stock
        self.stock_count = other.stock_count
        self.waste[:] = other.waste
        self.waste_count = other.waste_count
        self.foundations[:] = other.foundations
        self.history_count = self.history_end = 0
