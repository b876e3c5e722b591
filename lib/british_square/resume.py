"""Reading the save back: the load half of ``store``, kept apart because it
runs once, at start-up: the app imports this module, calls ``load(store)``
and lets the module go (``british_square.unload``), so a game in play never
carries the code that checks a record (the record layout is in ``store``'s
docstring).

Nothing read is trusted: a CRC only catches accidents. A slot whose header
cannot be ours (``store.may_be_ours``) is another program's, and no record: with no
slot ours the board starts as a new one. Bad magic, unknown
version, bad length, bad CRC, and behind a good CRC anything the game could
not have written (a field out of its range, statistics no games could add
up to, a deal that does not exist, a position the engine could not hold or
its deal could not lead to, a move the engine refuses, a game with no move,
a game counted with none of its rule set played) make a record
unreadable; the other record, if whole, is used, else a fresh start with a
notice. The position is rebuilt by replaying every move through
``replay``, ``Game.play``'s checks, so a resumed game is one the engine
reached itself. The app catches anything else this raises
(``MemoryError`` included) and starts afresh the same way.
"""

import binascii

from british_square.deal import MAX_DEAL
from british_square.engine import Game, IllegalMoveError
from british_square.piles import RULE_COLUMNS, RULE_SETS, SPACE_TAKES_ANY
from british_square.stats import (
    AUTOPLAY_ACES,
    AUTOPLAY_OFF,
    AUTOPLAY_SAFE,
    BEST_TIME,
    FEWEST_MOVES,
    FIELDS,
    HINTS,
    HOME_BEST,
    HOME_TOTAL,
    PAR_REACHED,
    PLAYED,
    STREAK,
    STREAK_BEST,
    WINS,
    read_number,
)
from british_square.store import (
    BASE_SHIFT,
    BLANK_HEADER,
    COUNTED,
    CRC_SIZE,
    FLAGS_AT,
    GAME_DEAL,
    GAME_DONE,
    GAME_HINTS,
    GAME_KEPT,
    GAME_RULES,
    GAME_SECONDS,
    GAME_SIZE,
    HALF_SEQUENCE,
    HAS_GAME,
    HAS_START,
    HEADER_SIZE,
    HEIGHT_MASK,
    LAST_SEQUENCE,
    LENGTH_AT,
    MAGIC,
    MOVE_SIZE,
    NOTICE_EARLIER,
    NOTICE_UNREADABLE,
    OPTION_AUTOPLAY,
    OPTION_FOUR_COLOURS,
    OPTION_SAFE,
    OPTION_SOUND,
    OPTION_WINNABLE,
    OPTIONS_ALL,
    PAIRED,
    RECORD_SIZE,
    SEQUENCE_AT,
    SETTING_BRIGHTNESS,
    SETTING_OPTIONS,
    SETTING_RULE_SETS,
    SETTING_RULES,
    SETTINGS_SIZE,
    SLOT_B,
    START_COLUMNS,
    START_FOUNDATIONS,
    START_STOCK,
    START_WASTE,
    UNCOUNTED_RULE_SETS,
    VERSION,
    VERSION_AT,
    VERSION_UNCOUNTED,
    may_be_ours,
)


def load(store):
    """Read the newest whole record of ``store.nvm``: set ``store``'s ``stats``, ``settings`` and
    ``notice``; return the game in progress it holds, or ``None``.
    Never raises for what the flash holds (short of running out of heap)."""
    store.notice = 0
    heads = []
    found = []  # (sequence, slot, record bytes) of the records whose CRC holds
    damaged = False  # a header of ours, whole or cut short, holding no record to load
    for slot in (0, 1):
        start = SLOT_B * slot
        head = bytes(store.nvm[start : start + HEADER_SIZE])
        heads.append(head)
        if not may_be_ours(head):  # nothing, or another program's bytes
            continue
        raw = _whole(store, start, head)
        if raw is None:
            damaged = True
        else:
            found.append((read_number(raw, SEQUENCE_AT, 4), slot, raw))
    if len(found) == 2 and _newer(found[1][0], found[0][0]):
        found.reverse()
    if found:  # the next save is newer than any whole record here, whatever follows
        store.sequence = found[0][0]
    for n, (_, slot, raw) in enumerate(found):
        game = _parse(store, raw)
        if game is False:
            damaged = True
            continue
        store.slot = slot ^ 1  # over the newer one if it was nonsense
        store.paired = True
        if n or (len(found) == 1 and _cut_after(raw, heads[slot ^ 1])):
            store.notice = NOTICE_EARLIER
        return game
    if damaged:
        store.notice = NOTICE_UNREADABLE
    return None


def _newer(sequence, other):
    """Is the record numbered ``sequence`` newer than the one numbered
    ``other``? (The numbers wrap round to 1 after ``LAST_SEQUENCE``.)"""
    return 0 < (sequence - other) % LAST_SEQUENCE <= HALF_SEQUENCE


def _cut_after(raw, other):
    """Was a save after the record ``raw`` cut short, as far as ``other``,
    the header of the other slot (not a whole record), can say? Yes when it
    claims a newer save, or could be the next save's header part-programmed
    (each bit as that save has it, or still erased). An erased header says
    yes only where ``raw`` says the other slot held the save before it (else
    ``raw`` is a new board's first save)."""
    sequence = read_number(raw, SEQUENCE_AT, 4)
    if other == BLANK_HEADER:
        return bool(raw[FLAGS_AT] & PAIRED)
    following = sequence % LAST_SEQUENCE + 1
    claimed = read_number(other, SEQUENCE_AT, 4)
    if (claimed & following) == following:
        return True
    return claimed <= LAST_SEQUENCE and _newer(claimed, sequence)


def _whole(store, start, head):
    """The record at ``start`` whose header is ``head`` if it is whole and
    ours (magic, version, length, sequence, CRC), else ``None``."""
    length = read_number(head, LENGTH_AT, 2)
    if (
        head[: len(MAGIC)] != MAGIC
        or head[VERSION_AT] not in (VERSION, VERSION_UNCOUNTED)
        or not HEADER_SIZE + SETTINGS_SIZE + CRC_SIZE <= length <= RECORD_SIZE
        or not 0 < read_number(head, SEQUENCE_AT, 4) <= LAST_SEQUENCE
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
    rules, options = raw[at + SETTING_RULES], raw[at + SETTING_OPTIONS]
    brightness = raw[at + SETTING_BRIGHTNESS]
    if raw[VERSION_AT] == VERSION:
        kept_sets, at = raw[at + SETTING_RULE_SETS], at + SETTINGS_SIZE
    else:  # written before the count
        kept_sets, at = UNCOUNTED_RULE_SETS, at + SETTING_RULE_SETS
    size = kept_sets * FIELDS * 3
    stats = raw[at : at + size]
    at += size
    # statistics of rule sets this build does not know: a later build's record
    if not rules < kept_sets <= RULE_SETS or at + CRC_SIZE > len(raw):
        return False
    flags = raw[FLAGS_AT]
    # (brightness: the app takes only the levels its menu offers, else full)
    if options > OPTIONS_ALL or brightness > 100 or not consistent(stats):
        return False
    if options & (OPTION_SAFE | OPTION_AUTOPLAY) == OPTION_SAFE:  # safe cards is a way of auto-play
        return False
    if flags & ~(HAS_GAME | HAS_START | PAIRED | COUNTED):
        return False
    if not flags & HAS_GAME and flags & (HAS_START | COUNTED):  # of a game not there
        return False
    game = None
    seconds = hints = 0
    if flags & HAS_GAME:
        if flags & HAS_START:  # its check imported first: a module that cannot load is no nonsense
            __import__("british_square.position")
        try:
            game = _parse_game(raw, at, flags & HAS_START)
        except (ValueError, IndexError):  # IllegalMoveError is a ValueError
            return False
        if game.rules >= kept_sets:  # a rule set the record keeps no statistics of
            return False
        # counted (it reached Game over): a game of its rule set is among those played
        if flags & COUNTED and not read_number(stats, (game.rules * FIELDS + PLAYED) * 3, 3):
            return False
        # every value these fields hold is a possible play time and hint count
        seconds = read_number(raw, at + GAME_SECONDS, 3)
        hints = read_number(raw, at + GAME_HINTS, 2)
    elif len(raw) != at + CRC_SIZE:
        return False
    s = store.settings
    s.rules = rules
    s.autoplay = AUTOPLAY_OFF
    if options & OPTION_AUTOPLAY:
        s.autoplay = AUTOPLAY_SAFE if options & OPTION_SAFE else AUTOPLAY_ACES
    s.sound = bool(options & OPTION_SOUND)
    s.winnable_only = bool(options & OPTION_WINNABLE)
    s.four_colours = bool(options & OPTION_FOUR_COLOURS)
    s.brightness = brightness
    store.stats.data[: len(stats)] = stats  # any rule set after them: nothing yet
    store.seconds = seconds
    store.hints = hints
    store.counted = bool(flags & COUNTED)
    # its history does not begin at its deal
    store.resumed_from_position = game if flags & HAS_START else None
    return game


def _parse_game(raw, at, has_start):
    """The game section at ``at`` replayed into a new ``Game``; ValueError
    for anything that does not fit exactly."""
    rules = raw[at + GAME_RULES]
    deal = read_number(raw, at + GAME_DEAL, 2)
    count = read_number(raw, at + GAME_DONE, 2)
    kept = read_number(raw, at + GAME_KEPT, 2)
    # deal 0 is "none": only a game set up from a position has none; a game
    # with no move is none in progress, and never kept as one
    if rules >= RULE_SETS or count > kept or not kept or deal > MAX_DEAL or not (deal or has_start):
        raise ValueError
    at += GAME_SIZE
    if has_start:
        game, at = _start_position(raw, at, rules, deal)
    else:
        game = Game.new_deal(deal, rules)
    if at + MOVE_SIZE * kept + CRC_SIZE != len(raw):
        raise ValueError
    replay(game, raw, at, kept)
    for _ in range(kept - count):
        game.undo()
    if game.is_won():  # a game won is no longer in progress: never saved as one
        raise ValueError
    return game


def replay(game, moves, at, count):
    """Play ``count`` moves on ``game`` from the bytes ``moves``, a source
    and a target byte each (``MOVE_SIZE``), from ``at``: each checked as
    ``Game.play`` checks it, ``IllegalMoveError`` at the first that is not
    legal (the moves before it played). ``play``'s loop without its call
    and its type check a move: a board's start-up replays hundreds; here,
    not in the engine, so that a game in play does not hold its code."""
    is_legal, push = game.is_legal, game.push
    for i in range(at, at + 2 * count, 2):
        m = moves[i] << 8 | moves[i + 1]
        if not is_legal(m):
            raise IllegalMoveError(m, game.columns)
        push(m)


def consistent(data) -> bool:
    """Could these statistics (``FIELDS`` counts of 3 bytes a rule set)
    have been written by ``Stats.add_game``?"""
    for at in range(0, len(data), FIELDS * 3):
        count = [read_number(data, at + field * 3, 3) for field in range(FIELDS)]
        played, won = count[PLAYED], count[WINS]
        if (
            won > played
            or count[STREAK] > count[STREAK_BEST]
            or count[STREAK_BEST] > won
            or count[HOME_BEST] > min(104, count[HOME_TOTAL])
            or count[HOME_TOTAL] > 104 * played
            or count[PAR_REACHED] > played
            or (not played and count[HINTS])
            or (not won) != (not count[FEWEST_MOVES])
            or (not won) != (not count[BEST_TIME])
        ):
            return False
    return True


def _start_position(raw, at, rules, deal):
    """The position written by ``Store._put_start`` at ``at``: the game
    (``deal_number`` ``deal``) and where the position ends. ValueError
    unless the engine could hold it, it is the two whole decks, and, where
    it names a deal, it could have come from that deal."""
    # Only a record holding a very long game has one: the position check is
    # imported then, and only then (and let go with this module).
    from british_square.position import build_game

    columns = RULE_COLUMNS[rules]
    foundations = list(raw[at + START_FOUNDATIONS : at + START_FOUNDATIONS + 4])
    stock_count, waste_count = raw[at + START_STOCK], raw[at + START_WASTE]
    at += START_COLUMNS
    heights = [raw[at + c] & HEIGHT_MASK for c in range(columns)]
    bases = [raw[at + c] >> BASE_SHIFT for c in range(columns)]
    at += columns
    cards = sum(heights) + stock_count + waste_count
    if at + cards > len(raw) or max(raw[at : at + cards] or b"\0") > 51:
        raise ValueError  # short, or a card value no card has (build_game trusts them)
    cells = []
    for h in heights:
        cells.append(list(raw[at : at + h]))
        at += h
    stock = list(raw[at : at + stock_count])
    at += stock_count
    waste = list(raw[at : at + waste_count])
    at += waste_count
    game = build_game(rules, cells, bases, stock, waste, foundations)
    # build_game allows no card thrice: 104 in all is each card twice
    if cards + game.score() != 104:
        raise ValueError
    if deal:
        _check_deal(Game.new_deal(deal, rules), cells, bases, stock, waste, SPACE_TAKES_ANY[rules])
        game.deal_number = deal
    return game, at


def _check_deal(dealt, cells, bases, stock, waste, any_fills):
    """ValueError unless a position with these cards could follow the deal
    ``dealt``; ``any_fills``: an empty column takes any playable card
    (Union Square), not only the waste's or the stock's.

    How far this goes: it checks what no sequence of moves can change back,
    in one pass. Cards leave the stock from its top only and it is never
    dealt again, so the stock is the bottom of the deal's, in its order;
    cards reach the waste only from the stock and leave it from its top, so
    the waste, bottom first, is some of the cards the stock turned, in the
    order turned (after Union Square's one turned at the deal); a British
    column's base shrinks only, and a space is filled with one card, so a
    base of two or more cards is what the deal put there, and a base of one
    is the card dealt there or the card that filled the space: under
    British and American rules one the stock turned, which is then neither
    in the waste nor in another such base. With the two whole decks, that
    fixes where every card of the stock, the waste and those bases came
    from. Whether the tableau and the foundations can be reached from the
    deal in the moves left out is a search (the solver's work, seconds to
    minutes of it), not a loader's: the moves kept are replayed through
    ``replay``, and what they start from is held to this."""
    left = dealt.stock_count
    if len(stock) > left:
        raise ValueError
    for i in range(len(stock)):
        if stock[i] != dealt.stock_card(left - 1 - i):
            raise ValueError
    turned = [dealt.waste_card(k) for k in range(dealt.waste_count - 1, -1, -1)]
    turned += [dealt.stock_card(k) for k in range(left - len(stock))]
    unused = bytearray(52)  # per card, the copies turned not yet found elsewhere
    for card in turned:
        unused[card] += 1
    k = 0
    for card in waste:
        while k < len(turned) and turned[k] != card:
            k += 1
        if k == len(turned):
            raise ValueError
        k += 1
        unused[card] -= 1
    for c, base in enumerate(bases):
        if base > 1 and cells[c][:base] != [dealt.card(c, i) for i in range(base)]:
            raise ValueError
        if base == 1 and not any_fills and cells[c][0] != dealt.card(c, 0):
            if not unused[cells[c][0]]:
                raise ValueError
            unused[cells[c][0]] -= 1
