"""Rule sets, piles and moves as small integers, and the cards on a game's
piles: the ground floor beneath the engine's rules.

A game is played under one of ``RULE_SETS`` rule sets (``BRITISH``,
``AMERICAN``, ``UNION``), numbered from 0: what each one is (its name, its
columns, what a space takes, whether the deal turns a card) is said here
once, in its row of the tables below, and nothing else asks which rule set
it is. Its piles are numbered: columns ``0 .. columns-1`` (4 in British
Square, 16 in the others), then ``STOCK``, ``WASTE`` and ``FOUNDATION``, which
stands for the four foundations, one per suit in ``SUITS`` order: a card goes
to its own suit's.

A move is one small int, ``move(source, target)``: the playable card of pile
``source`` onto pile ``target``. Callers read it with ``move_source`` and
``move_target``; the engine's and the searches' hot loops shift in place (a
call per move doubles the statement's time: 29 against 60 ns on the VM).
``move_text`` writes it in the move notation's two letters.

``Piles`` holds a position in ``bytearray``s, one byte per card;
``engine.Game`` is a ``Piles`` with the rules, the moves and their history
(as python-chess's ``Board`` is a ``BaseBoard`` with them). The cards are
read through methods that allocate nothing (``top``, ``card``,
``column_height``, ``base_count``, ``waste_card``, ``stock_card``,
``foundation_top``). The arrays' layout is described here; only hot loops
index them directly (the engine's, the hint's, the searches' and the
position and save checks': a method call per card would double their time).
"""

from british_square.cards import NO_CARD, const

BRITISH = const(0)
AMERICAN = const(1)
UNION = const(2)
RULE_SETS = const(3)
# Each rule set's row, by its number. Its name is its lines' in words.txt
# and its files' (par_british.bin, rules_british).
RULE_NAMES = ("british", "american", "union")
RULE_COLUMNS = b"\x04\x10\x10"  # the DEALT cards dealt in this many columns
SPACE_TAKES_ANY = b"\x00\x00\x01"  # else only the stock's card or the waste's
DEAL_TURNS_ONE = b"\x00\x00\x01"  # the deal turns the stock's top card onto the waste

DEALT = const(16)  # cards dealt to the columns; the rest is the stock
STOCK = const(16)
WASTE = const(17)
FOUNDATION = const(18)

# A column holds at most 4 dealt cards plus 12 built on them (no wrap past K or A).
COLUMN_CAPACITY = const(16)
TALON_CAPACITY = const(88)

# What ``Piles.direction`` says of a column.
BUILDS_FREE = const(0)
BUILDS_UP = const(1)
BUILDS_DOWN = const(2)

COLUMN_LETTERS = "abcdefghijklmnop"
_PILE_LETTERS = {STOCK: "S", WASTE: "W", FOUNDATION: "F"}


def move(source: int, target: int) -> int:
    """The move of the playable card of pile ``source`` onto pile ``target``."""
    return source << 8 | target


def move_source(m: int) -> int:
    """The pile the move ``m`` takes its card from."""
    return m >> 8


def move_target(m: int) -> int:
    """The pile the move ``m`` puts its card on."""
    return m & 0xFF


def pile_text(pile: int) -> str:
    """The letter of a pile in the move notation: ``a``-``p``, ``S``, ``W``, ``F``."""
    return _PILE_LETTERS.get(pile) or COLUMN_LETTERS[pile]


def move_text(m: int) -> str:
    """Two letters for the move int ``m``: ``"aF"``, ``"Wb"``, ``"SW"``."""
    return pile_text(move_source(m)) + pile_text(move_target(m))


class Piles:
    """The cards where they lie in one game: its columns, stock, waste and
    foundations, read without allocating. No rules and no history: those
    are ``engine.Game``'s."""

    def __init__(self, rules: int = BRITISH) -> None:
        if rules not in range(RULE_SETS):
            raise ValueError("bad rules {!r}".format(rules))
        self.rules = rules
        self.columns = RULE_COLUMNS[rules]
        self.deal_number = 0
        # Column ``c`` occupies cells[c * 16 : c * 16 + height[c]], bottom card first.
        self.cells = bytearray(self.columns * COLUMN_CAPACITY)
        self.height = bytearray(self.columns)
        self.base = bytearray(self.columns)
        self.stock = bytearray(TALON_CAPACITY)  # next card to deal is stock[stock_count - 1]
        self.stock_count = 0
        self.waste = bytearray(TALON_CAPACITY)  # top card is waste[waste_count - 1]
        self.waste_count = 0
        self.foundations = bytearray(4)  # cards on each: A..K is 1..13, then K..A is 14..26

    # ----------------------------------------------------------------- deal

    @classmethod
    def new_deal(cls, number: int, rules: int = BRITISH) -> "Piles":
        """Deal ``number`` (1-31999) as PySolFC deals it for Union Square: a new
        game of the class it is called on (``Game.new_deal``)."""
        game = cls(rules)
        game.deal(number)
        return game

    def deal(self, number: int) -> None:
        """Deal ``number`` here, in place of the cards that lay here: the game
        ``new_deal`` makes, without making one (a board deals again in a heap
        in pieces, where a new game's arrays may find no room)."""
        from british_square.deal import shuffled_talon

        talon = shuffled_talon(number)
        self.deal_number = number
        for cards in (self.cells, self.height, self.base, self.stock, self.waste, self.foundations):
            for i in range(len(cards)):
                cards[i] = 0
        top = 103  # PySolFC deals from the end of its talon
        columns = self.columns
        for pile in range(DEALT):  # a row across the columns at a time
            column, depth = pile % columns, pile // columns
            self.cells[column * COLUMN_CAPACITY + depth] = talon[top - pile]
        for column in range(columns):
            self.height[column] = self.base[column] = DEALT // columns
        left = TALON_CAPACITY
        self.waste_count = 0
        if DEAL_TURNS_ONE[self.rules]:
            self.waste[0] = talon[top - DEALT]
            self.waste_count = 1
            left -= 1
        self.stock[0:left] = talon[0:left]
        self.stock_count = left

    # ---------------------------------------------------------------- reading

    def top(self, pile: int) -> int:
        """The playable card of a column, the waste or the stock, or ``NO_CARD``."""
        if pile < STOCK:
            h = self.height[pile]
            return self.cells[pile * COLUMN_CAPACITY + h - 1] if h else NO_CARD
        if pile == WASTE:
            return self.waste[self.waste_count - 1] if self.waste_count else NO_CARD
        if pile == STOCK:
            return self.stock[self.stock_count - 1] if self.stock_count else NO_CARD
        return NO_CARD

    def card(self, c: int, i: int) -> int:
        """Card ``i`` of column ``c`` (0 = the bottom card), or ``NO_CARD`` past its top."""
        if 0 <= i < self.height[c]:
            return self.cells[c * COLUMN_CAPACITY + i]
        return NO_CARD

    def column_height(self, c: int) -> int:
        """How many cards column ``c`` holds."""
        return self.height[c]

    def base_count(self, c: int) -> int:
        """How many of column ``c``'s cards, from the bottom, are its base: dealt
        there, or the card that filled it; the cards above were built on them."""
        return self.base[c]

    def waste_card(self, k: int = 0) -> int:
        """The ``k``-th card from the top of the waste (0 = the playable card),
        or ``NO_CARD`` when the waste has no such card."""
        if 0 <= k < self.waste_count:
            return self.waste[self.waste_count - 1 - k]
        return NO_CARD

    def stock_card(self, k: int = 0) -> int:
        """The ``k``-th card from the top of the stock (0 = the next to be dealt),
        or ``NO_CARD`` when the stock has no such card."""
        if 0 <= k < self.stock_count:
            return self.stock[self.stock_count - 1 - k]
        return NO_CARD

    def column(self, c: int) -> bytes:
        """The cards of column ``c``, bottom first (a new ``bytes``: for tools)."""
        start = c * COLUMN_CAPACITY
        return bytes(self.cells[start : start + self.height[c]])

    def direction(self, c: int) -> int:
        """``BUILDS_FREE``, ``BUILDS_UP`` or ``BUILDS_DOWN``: the way column ``c`` builds."""
        h = self.height[c]
        if h <= self.base[c]:
            return BUILDS_FREE
        i = c * COLUMN_CAPACITY + h
        return BUILDS_UP if self.cells[i - 1] > self.cells[i - 2] else BUILDS_DOWN

    def needs(self, suit: int) -> int:
        """Rank the foundation of ``suit`` takes next (0 when complete)."""
        n = self.foundations[suit]
        if n < 13:
            return n + 1
        return 26 - n

    def foundation_top(self, suit: int) -> int:
        """The card on top of the foundation of ``suit`` (A..K up, then K..A down),
        or ``NO_CARD`` while it is empty."""
        n = self.foundations[suit]
        if not n:
            return NO_CARD
        return suit * 13 + (n if n <= 13 else 27 - n) - 1

    def score(self) -> int:
        """Cards on the foundations, 0-104: every game's result."""
        f = self.foundations
        return f[0] + f[1] + f[2] + f[3]

    def cards_left(self) -> int:
        """Cards not yet on a foundation."""
        return sum(self.height) + self.stock_count + self.waste_count
