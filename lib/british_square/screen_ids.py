"""The screens' numbering: ``Screens.current`` is one of these, and
``SCREEN_NAMES[n]`` the name of screen ``n`` for people (the VM's report);
and what a confirmation is for (``Screens.ask``).

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

# What a confirmation is for (``Screens.ask``).
ASK_RANDOM = const(0)  # a random deal
ASK_DEAL = const(1)  # deal ``pending_number``
ASK_RESTART = const(2)
ASK_RULES = const(3)  # deal ``pending_number`` under ``pending_rules``
ASK_END = const(4)
