"""The words on the screens: help, what each rule set is like, menu items.

Body lines are at most 26 characters (the built-in font is 6 pixels wide),
eight to a screen; panel lines at most 10.
"""

RULE_SHORT = ("British", "American", "Union")  # as the player reads them

# --------------------------------------------------------------- the panel

PANEL_LABELS = "Stock\nHome\nDeal"
NO_DEAL = "-"  # a game set up from a position has no deal number
PANEL_NOTICES = (
    None,
    "No more\nmoves.\nHome\nStart:menu",
    "Game over\n\nHome\nStart:menu",
)

# ----------------------------------------------------------------- title

TITLE_WORDS = ("British", "Square")
TITLE_DEAL = "Deal {} {}"
TITLE_FOOTER = "A: play    Start: menu"

# ------------------------------------------------------------------ menu

MENU_TITLE = "Menu"
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
    "End game",
)
MENU_FOOTER = "A: choose    B: back"
ON_OFF = ("off", "on")

# ----------------------------------------------------------- deal number

DEAL_TITLE = "Deal number"
DEAL_RANGE = "Deals 1 to 31999"
DEAL_FOOTER = "Up/Dn digit  A:deal B:back"
DEAL_REFUSED = "Only deals 1 to 31999"

# ----------------------------------------------------------------- rules

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

# ------------------------------------------------------------------ help

# Page 1: the keys. The last body line depends on what fills a space.
HELP_KEYS = """Stick/pad  move the cursor
A   pick up, put down
A on the stock: deal one
B   put back, or send the
    card home
Select  undo
Start   menu
"""
HELP_SPACE = (
    "A on a space: stock card",  # British Square, American
    "Space: put any card there",  # Union Square
)
# Page 2: what the marks mean, a small glyph before each line.
HELP_MARKS = """builds up (home: to K)
builds down (home: to A)
free: up or down
home: the second K next
home: complete
"""
HELP_GAP = "...  middle of a long run"  # British columns
HELP_COUNT = "cards in the pile"  # 16 piles
HELP_HOME = "Home: A up to K, K to A"
HELP_TITLES = ("Help: keys", "Help: the marks")
HELP_FOOTER = "</> page  B: back"

# --------------------------------------------------------------- the end

WON_BIG = "You won!"
WON_LINES = "All 104 cards home!"
WON_FOOTER = "A: new deal  B: board"
OVER_TITLE = "Game over"
OVER_BODY = "Cards home: {} of 104\nDeal {}, {}\n\nA: new deal\nB: see the board\nStart: menu"
OVER_FOOTER = "A:new B:board Start:menu"

# ---------------------------------------------------------- confirmation

CONFIRM_TITLE = ("Abandon this game?", "End this game?")
CONFIRM_BODY = "{} moves played,\n{} of 104 cards home.\n\nA: yes\nB: no, back to it"
CONFIRM_FOOTER = "A: yes    B: no"
