"""Reading the save back: the load half of ``store``, kept apart because it
runs once, at start-up: the app imports this module, calls ``load(store)``
and lets the module go (``british_square.unload``), so a game in play never
carries the code that checks a record (the record layout is in ``store``'s
docstring).

Nothing read is trusted: bad magic, unknown version, bad length, bad CRC,
nonsense behind a good CRC (counts out of range, a position the engine could
not hold, a move the engine refuses) make a record unreadable; the other
record, if whole, is used, else a fresh start with a notice. The position is
rebuilt by replaying every move through ``Game.play``, the engine's one
checked move path, so a resumed game is one the engine reached itself.
"""

import binascii

from british_square.engine import UNION, Game
from british_square.store import (
    BEST_TIME,
    CRC_SIZE,
    FEWEST_MOVES,
    FIELDS,
    FIXED_SIZE,
    GAME_SIZE,
    HAS_GAME,
    HAS_START,
    HEADER_SIZE,
    HOME_BEST,
    HOME_TOTAL,
    LAST_SEQUENCE,
    MAGIC,
    NOTICE_EARLIER,
    NOTICE_UNREADABLE,
    PAR_REACHED,
    PLAYED,
    RECORD_SIZE,
    SETTINGS_SIZE,
    SLOT_B,
    STATS_SIZE,
    STREAK,
    STREAK_BEST,
    VERSION,
    WINS,
    read_number,
)


def load(store):
    """Read the newest whole record of ``store.nvm``: set ``store``'s ``stats``, ``settings`` and
    ``notice``; return the game in progress it holds, or ``None``.
    Never raises for what the flash holds."""
    store.notice = 0
    found = []  # (sequence, slot, record bytes) of the records whose CRC holds
    damaged = False
    claimed = [-1, -1]  # the sequence a damaged slot's header claims
    for slot in (0, 1):
        start = SLOT_B * slot
        head = bytes(store.nvm[start : start + HEADER_SIZE])
        if head == b"\xff" * HEADER_SIZE:
            continue
        raw = _whole(store, start, head)
        if raw is None:
            damaged = True
            if head[0:4] == MAGIC:
                claimed[slot] = read_number(head, 8, 4)
        else:
            found.append((read_number(raw, 8, 4), slot, raw))
    found.sort(key=lambda entry: -entry[0])
    for n, (sequence, slot, raw) in enumerate(found):
        game = _parse(store, raw)
        if game is False:
            damaged = True
            continue
        store.sequence = found[0][0]
        store.slot = slot ^ 1
        # the other slot's header claims the next save: exactly one more
        # (a header the cut left half written claims some larger number)
        if n or claimed[slot ^ 1] == sequence + 1:
            store.notice = NOTICE_EARLIER
        return game
    if damaged:
        store.notice = NOTICE_UNREADABLE
    if found:
        store.sequence = found[0][0]
    return None


def _whole(store, start, head):
    """The record at ``start`` whose header is ``head`` if it is whole and
    ours (magic, version, length, sequence, CRC), else ``None``."""
    length = read_number(head, 6, 2)
    if (
        head[0:4] != MAGIC
        or head[4] != VERSION
        or not FIXED_SIZE <= length <= RECORD_SIZE
        or read_number(head, 8, 4) > LAST_SEQUENCE
    ):
        return None
    raw = bytes(store.nvm[start : start + length])
    if binascii.crc32(raw[: length - CRC_SIZE]) != read_number(raw, length - CRC_SIZE, 4):
        return None
    return raw


def _parse(store, raw):
    """Take the settings, statistics and game of the record ``raw`` (its
    CRC checked): the game, ``None`` without one, or ``False`` (and
    nothing taken) when anything in it is nonsense."""
    at = HEADER_SIZE
    rules, options, brightness = raw[at], raw[at + 1], raw[at + 2]
    stats = raw[at + SETTINGS_SIZE : at + SETTINGS_SIZE + STATS_SIZE]
    if rules > UNION or options > 7 or brightness > 100 or not consistent(stats):
        return False
    flags = raw[5]
    length = len(raw)
    game = None
    seconds = hints = 0
    if flags & ~(HAS_GAME | HAS_START) or (flags == HAS_START):
        return False
    if flags:
        at = FIXED_SIZE - CRC_SIZE
        try:
            game = _parse_game(store, raw, at, flags & HAS_START)
        except (ValueError, IndexError):  # IllegalMoveError is a ValueError
            return False
        seconds = read_number(raw, at + 3, 3)
        hints = read_number(raw, at + 6, 2)
    elif length != FIXED_SIZE:
        return False
    s = store.settings
    s.rules = rules
    s.autoplay = bool(options & 1)
    s.sound = bool(options & 2)
    s.winnable_only = bool(options & 4)
    s.brightness = brightness
    store.stats.data[:] = stats
    store.seconds = seconds
    store.hints = hints
    return game


def _parse_game(store, raw, at, has_start):
    """The game section at ``at`` replayed into a new ``Game``; ValueError
    for anything that does not fit exactly."""
    rules = raw[at]
    deal = read_number(raw, at + 1, 2)
    count = read_number(raw, at + 8, 2)
    kept = read_number(raw, at + 10, 2)
    if rules > UNION or count > kept:
        raise ValueError
    at += GAME_SIZE
    if has_start:
        game, at = _start_position(raw, at, rules)
        game.deal_number = deal
        store.resumed_from_position = game
    else:
        game = Game.new_deal(deal, rules)  # ValueError for no deal
    if at + 2 * kept + CRC_SIZE != len(raw):
        raise ValueError
    for _ in range(kept):
        game.play(raw[at] << 8 | raw[at + 1])
        at += 2
    for _ in range(kept - count):
        game.undo()
    return game


def consistent(data) -> bool:
    """Could these 90 bytes have been written by ``record``?"""
    for rules in range(3):
        count = [read_number(data, (rules * FIELDS + field) * 3, 3) for field in range(FIELDS)]
        played, won = count[PLAYED], count[WINS]
        if (
            won > played
            or count[STREAK] > count[STREAK_BEST]
            or count[STREAK_BEST] > won
            or count[HOME_BEST] > min(104, count[HOME_TOTAL])
            or count[HOME_TOTAL] > 104 * played
            or count[PAR_REACHED] > played
            or (not won) != (not count[FEWEST_MOVES])
            or (not won) != (not count[BEST_TIME])
        ):
            return False
    return True


def _start_position(raw, at, rules):
    """The position written by ``Store._put_start`` at ``at``: the game and
    where the position ends. Checked by ``build_game`` (ValueError)."""
    # Only a record holding a very long game has one: the position check is
    # imported then, and only then (and let go with this module).
    from british_square.position import build_game

    columns = 4 if rules == 0 else 16
    foundations = list(raw[at : at + 4])
    stock_count, waste_count = raw[at + 4], raw[at + 5]
    at += 6
    heights = [raw[at + c] & 0x1F for c in range(columns)]
    bases = [raw[at + c] >> 5 for c in range(columns)]
    at += columns
    cells = []
    for h in heights:
        cells.append(list(raw[at : at + h]))
        at += h
    stock = list(raw[at : at + stock_count])
    at += stock_count
    waste = list(raw[at : at + waste_count])
    at += waste_count
    if at > len(raw) or max(raw[at - stock_count - waste_count - sum(heights) : at] or b"\0") > 51:
        raise ValueError  # short, or a card value no card has (build_game trusts them)
    return build_game(rules, cells, bases, stock, waste, foundations), at
