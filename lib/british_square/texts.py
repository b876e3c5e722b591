"""The words on the screens: help, what each rule set is like, menu items.

Lines are at most 26 characters: the built-in font is 6 pixels wide.
"""

TITLE_LINES = "A: play   Start: menu"

HELP = """Stick/pad  move the cursor
A  pick up / put down;
   on the stock: deal;
   on a space: stock card
B  cancel, or send the
   card home
Select  undo
Start   menu"""

HOME_RULE = "Home: A up to K, K to A"

RULES = (
    (
        "British Square",
        """4 columns of 4, all shown.
Build by suit, up or down
by one; the first card
built sets the way. A
space takes only a card
from the stock or waste.
Very hard: good play gets
about 16 of 104 home.""",
    ),
    (
        "American",
        """16 piles of 1 card (4x4).
Same rules as British
Square: build by suit,
up or down; a space takes
only a stock or waste
card. Often won.""",
    ),
    (
        "Union Square",
        """PySolFC's game: 16 piles,
one card starts on the
waste, and a space takes
any playable card.
Usually won.""",
    ),
)
RULES_FOOTER = "</> rules A:play B:back"

MENU_ITEMS = (
    "Back to game",
    "New game",
    "Deal number",
    "Restart deal",
    "Undo",
    "Redo",
    "Rules: ",
    "Auto-play: ",
    "Help",
)

DEAL_FOOTER = "Up/Dn digit  A:deal B:back"
NO_MOVES = "No move can bring\nanother card home.\n\nCards home: {} of 104\nDeal {}, {}"
END_FOOTER = "A:new B:board Sel:undo"
WON_LINES = "All 104 cards home!\nA: new deal  B: board"
