"""The screens' numbering: ``Screens.current`` is one of these, and
``SCREEN_NAMES[n]`` the name of screen ``n`` for people (the VM's report).

Constants only: deploy writes them into each module that uses them, so a
board never loads this one (``tools/const_inline.py``); a test keeps the
names agreeing with the numbers.
"""

from british_square.cards import const

SCREEN_PLAY = const(0)  # the cards: no screen of ``screens`` on show
SCREEN_TITLE = const(1)
SCREEN_MENU = const(2)
SCREEN_DEAL = const(3)
SCREEN_RULES = const(4)
SCREEN_HELP = const(5)
SCREEN_WON = const(6)
SCREEN_OVER = const(7)
SCREEN_CONFIRM = const(8)
SCREEN_ABOUT = const(9)
SCREEN_STATS = const(10)
SCREEN_FINISH = const(11)
SCREEN_FIRST = const(12)
SCREEN_NAMES = (
    "play", "title", "menu", "deal", "rules", "help", "won", "over", "confirm", "about", "stats",
    "finish", "first",
)  # fmt: skip
