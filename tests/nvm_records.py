"""A SAMD51's NVM block faked in memory and save records made by hand,
for the store's tests: records with a good CRC around any body, bodies as
the store writes them, and the nonsense a record may hold behind a good CRC.
"""

import binascii
import random

from british_square.desktop.games import legal_moves
from british_square.desktop.notation import position_text
from british_square.engine import MAX_MOVES, Game
from british_square.piles import (
    AMERICAN,
    BRITISH,
    FOUNDATION,
    RULE_SETS,
    STOCK,
    UNION,
    WASTE,
    move,
)
from british_square.stats import FIELDS, HINTS, HOME_BEST, STATS_SIZE, WINS
from british_square.store import (
    CRC_SIZE,
    GAME_SIZE,
    HAS_GAME,
    HAS_START,
    HEADER_SIZE,
    MAGIC,
    RECORD_SIZE,
    SETTINGS_SIZE,
    SLOT_B,
    VERSION,
    Store,
)

BLOCK = 8192  # a SAMD51's NVM: one erase block (PLATFORM.md)
# Where things lie in a record's body (settings onwards; store.py's layout):
GAME_AT = SETTINGS_SIZE + STATS_SIZE  # the game's head: its rules first
DEAL_AT = GAME_AT + 1  # its deal number, 2 bytes
START = GAME_AT + GAME_SIZE  # a start position's first byte, or the first move's


class PowerCut(Exception):
    """The fake flash lost power in the middle of a write."""


class PagedFlash:
    """A SAMD51's 8 KB NVM block as CircuitPython writes it: any slice
    assignment reads the block, erases it and programs its pages in order.
    ``cut_at`` (a byte offset, 0-8192) stops the next write there: the bytes
    before it are programmed, the rest left erased; ``cut_erase`` stops it
    during the erase (bits set at random)."""

    def __init__(self):
        self.data = bytearray(b"\xff" * BLOCK)
        self.cut_at = None
        self.cut_erase = None  # a random.Random, for the bits the erase had set
        self.writes = 0

    def __len__(self):
        return BLOCK

    def __getitem__(self, index):
        return bytes(self.data[index]) if isinstance(index, slice) else self.data[index]

    def __setitem__(self, index, value):
        image = bytearray(self.data)
        image[index] = value
        assert len(image) == BLOCK, "a slice assignment changed the size"
        self.writes += 1
        if self.cut_erase is not None:
            rng, self.cut_erase = self.cut_erase, None
            share = rng.choice((0.0005, 0.002, 0.05, 1.0))  # how far the erase got
            for i in range(BLOCK):
                if rng.random() < share:
                    self.data[i] |= rng.getrandbits(8)
            raise PowerCut
        if self.cut_at is not None:
            cut, self.cut_at = self.cut_at, None
            self.data[:] = image[:cut] + b"\xff" * (BLOCK - cut)
            raise PowerCut
        self.data[:] = image


def history(game, first=0, end=None):
    """The moves ``first`` to ``end`` (the history's end) of ``game``'s history."""
    end = game.history_end if end is None else end
    return [game.history_move(i) for i in range(first, end)]


def same_game(a, b):
    """Position, history, undo point and redo tail all equal."""
    return (
        position_text(a) == position_text(b)
        and a.deal_number == b.deal_number
        and a.history_count == b.history_count
        and a.history_end == b.history_end
        and history(a) == history(b)
    )


def forged(body_flags, body, sequence=1):
    """A record with a good header and CRC around ``body`` (settings onwards)."""
    length = HEADER_SIZE + len(body) + CRC_SIZE
    record = bytearray(MAGIC + bytes([VERSION, body_flags]) + length.to_bytes(2, "little"))
    record += sequence.to_bytes(4, "little") + body
    record += binascii.crc32(record).to_bytes(4, "little")
    return bytes(record)


def flash_holding(*records):
    flash = PagedFlash()
    for slot, record in enumerate(records):
        assert len(record) <= RECORD_SIZE
        flash.data[slot * SLOT_B : slot * SLOT_B + len(record)] = record
    return flash


def written_record(store):
    """The record (header to CRC) ``store`` wrote last."""
    start = (store.slot ^ 1) * SLOT_B
    length = int.from_bytes(store.nvm.data[start + 6 : start + 8], "little")  # the header's
    return bytes(store.nvm.data[start : start + length])


def written_body(store):
    """The body (settings onwards, no CRC) of the record ``store`` wrote last."""
    return bytearray(written_record(store)[HEADER_SIZE:-CRC_SIZE])


def stat_at(rules, field):
    """Where count ``field`` of ``rules`` starts in a body (3 bytes a count: ``Stats``)."""
    return SETTINGS_SIZE + (rules * FIELDS + field) * 3


def valid_body(game=None, seconds=1, hints=0):
    """A settings + stats (+ game) body as the store writes it."""
    store = Store(PagedFlash())
    store.save(game, seconds, hints)
    return written_body(store)


NONSENSE = {
    "a rule set past the last in the settings": lambda b: b.__setitem__(0, RULE_SETS),
    # the count of rule sets whose statistics follow (settings' last byte)
    "statistics of no rule set": lambda b: b.__setitem__(SETTINGS_SIZE - 1, 0),
    "statistics of a rule set this build does not know": lambda b: b.__setitem__(
        SETTINGS_SIZE - 1, RULE_SETS + 1
    ),
    "hints counted with no game played": lambda b: b.__setitem__(stat_at(BRITISH, HINTS), 1),
    "unknown option bits": lambda b: b.__setitem__(1, 32),
    "safe cards without auto-play": lambda b: b.__setitem__(1, 16),
    "brightness 101": lambda b: b.__setitem__(2, 101),
    "more wins than games": lambda b: b.__setitem__(stat_at(BRITISH, WINS), 1),
    "a best score of 105": lambda b: b.__setitem__(stat_at(BRITISH, HOME_BEST), 105),
    "game rules past the last": lambda b: b.__setitem__(GAME_AT, RULE_SETS),
    "deal 0 with no start position": lambda b: b.__setitem__(slice(DEAL_AT, DEAL_AT + 2), b"\0\0"),
    "deal 40000": lambda b: b.__setitem__(
        slice(DEAL_AT, DEAL_AT + 2), (40000).to_bytes(2, "little")
    ),
    # the head's moves done (2 bytes at 8), then the first move
    "more moves done than kept": lambda b: b.__setitem__(
        slice(GAME_AT + 8, GAME_AT + 10), b"\xff\x00"
    ),
    "a card taken off a foundation": lambda b: b.__setitem__(
        slice(START, START + 2), bytes([FOUNDATION, 0])
    ),
    "a move that is no move": lambda b: b.__setitem__(slice(START, START + 2), bytes([99, 99])),
    "a byte too many": lambda b: b.extend(b"\0"),
    "a byte too few": lambda b: b.__delitem__(-1),
}


# A record as the game wrote it before four-colour suits (Store.save of
# commit 1f5c154, its options 1-7): American deal 113,
# six moves (each the first legal move of those listed, the i-th of them
# modulo their count) and the last taken back, 321 s and 2 hints; settings
# American, auto-play on, sound off, winnable only on, brightness 60; one
# American win of 265 moves in 754 s, par reached, a hint.
V1_RECORD = bytes.fromhex(
    "4253511a010185000100000001053c0000000000000000000000000000000000"
    "0000000000000000000000000001000001000068000068000001000001000009"
    "0100f20200010000010000000000000000000000000000000000000000000000"
    "000000000000000000017100410100020005000600040e0b0c100b070b061210"
    "060fd576bc"
)


def v1_record_game():
    """The game ``V1_RECORD`` holds, played again."""
    from british_square.piles import AMERICAN

    game = Game.new_deal(113, AMERICAN)
    for i in range(6):
        moves = legal_moves(game)
        game.play(moves[i % len(moves)])
    game.undo()
    return game


def started_after(deal, rules=BRITISH, actions=80, seed=0):
    """A game whose history starts ``actions`` random moves into ``deal``:
    what a very long game saves, a start position naming its deal."""
    rng = random.Random(seed)
    played = Game.new_deal(deal, rules)
    for _ in range(actions):
        moves = legal_moves(played)
        deals = [m for m in moves if m == move(STOCK, WASTE)]
        others = [m for m in moves if m not in deals]
        # deal a third of the time, so the stock and the waste both have cards
        played.play(rng.choice(deals if deals and (rng.random() < 0.35 or not others) else others))
    game = Game(rules)
    game.copy_position_from(played)  # the position and its deal number, no history
    return game


def start_body(game, moves=3):
    """A valid body holding ``game`` from its start position (its deal named)
    after ``moves`` more moves; with none, its position as it is, after
    ``one_back`` (the game keeps no game with no move)."""
    for _ in range(moves):
        game.play(legal_moves(game)[0])
    if not moves:
        one_back(game)
    store = Store(PagedFlash())
    store.resumed_from_position = game
    store.save(game, 1, 0)
    return written_body(store)


def one_back(game):
    """A move played and taken back, to redo: a game the store keeps, its
    position as it was. A card dealt where the stock has one (every rule set
    allows it), else the first legal move."""
    deal = move(STOCK, WASTE)
    game.play(deal if game.is_legal(deal) else legal_moves(game)[0])
    game.undo()
    return game


def start_layout(body):
    """Where a start position's stock and waste lie in ``body``: (stock, waste)
    as byte offsets of their bottom cards, and their counts."""
    # foundation counts (4), stock and waste counts (2), a byte a column
    # (height | base << 5), then the cards
    columns = 4 if body[GAME_AT] == BRITISH else 16
    heights = sum(body[START + 6 + c] & 0x1F for c in range(columns))
    stock = START + 6 + columns + heights
    return stock, body[START + 4], stock + body[START + 4], body[START + 5]


def swap_two_different(body, at, count):
    """Swap the first two different cards of the ``count`` at ``at``."""
    cards = body[at : at + count]
    j = next(j for j in range(1, count) if cards[j] != cards[0])
    body[at], body[at + j] = body[at + j], body[at]


START_32767 = "deal 32767 behind a start position"
BAD_STOCK = "a start position whose stock its deal never had"
# Union Square fills a space with any playable card, American only from the
# waste or the stock: such a game's head set to American (issue 37)
UNION_AS_AMERICAN = "a Union Square start position under American rules"


def bad_record(name):
    """A record whose CRC is right and whose content is nonsense: ``name``
    is one of NONSENSE or one of the three above."""
    if name in NONSENSE:
        body = valid_body(random_game_of(4))
        NONSENSE[name](body)
        return forged(HAS_GAME, bytes(body))
    if name == UNION_AS_AMERICAN:
        body = start_body(started_after(9, UNION), moves=0)  # no move that American refuses
        body[GAME_AT] = AMERICAN
        return forged(HAS_GAME | HAS_START, bytes(body))
    body = start_body(started_after(4))
    if name == START_32767:
        body[DEAL_AT : DEAL_AT + 2] = (32767).to_bytes(2, "little")
    else:
        stock_at, stock, _, _ = start_layout(body)
        swap_two_different(body, stock_at, stock)
    return forged(HAS_GAME | HAS_START, bytes(body))


def random_game_of(deal):
    """Deal ``deal`` after 30 moves (the first listed, turn about with undo)."""
    game = Game.new_deal(deal)
    buffer = bytearray(2 * MAX_MOVES)
    for i in range(30):
        n = game.legal_moves(buffer)
        game.play(move(buffer[2 * (i % n)], buffer[2 * (i % n) + 1]))
    return game
