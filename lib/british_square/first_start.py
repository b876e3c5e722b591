"""A new board's first start: the choice of a rule set, shown once in a
board's life (``Screens.first_start``), so its code is loaded for it and let
go once the choice is made.
"""

from british_square import unload
from british_square.controls import DOWN, UP, A
from british_square.piles import BRITISH, RULE_NAMES, RULE_SETS


class RuleChoice:
    """The three rule sets on the text page, each with what to expect of it
    (the survey's figures, in words.txt's "first_start"), the bar on the one
    chosen: at first British Square, the game's own and the default
    everywhere else (the README, ``code.py --help``). A deals it (the
    settings keep the rule set in play), then ``screens`` shows the keys' help."""

    def __init__(self, screens, rules=BRITISH):
        self.screens = screens
        self.rules = rules
        self.rows = bytearray(RULE_SETS)  # the body row of each rule set's line

    def show(self):
        screens = self.screens
        names = tuple(name.encode() for name in RULE_NAMES)  # as words.txt names the lines
        screens.words.show(screens.page, "first_start", lines=names, rows=self.rows)
        self._choose(self.rules)

    def _choose(self, rules):
        self.rules = rules
        self.screens.page.show_bar(self.rows[rules])  # found as the page was written

    def handle(self, action):
        if action == UP or action == DOWN:
            self._choose((self.rules + (1 if action == DOWN else -1)) % RULE_SETS)
        elif action == A:
            screens, rules = self.screens, self.rules
            app = screens.app
            if rules != app.table.game.rules:  # no move made yet: nothing to ask
                app.new_deal(app.random_deal(rules), rules)
            screens.help(0, first=True)  # its handler takes the keys: this goes
            unload("british_square.first_start")
