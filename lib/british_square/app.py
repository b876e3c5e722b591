"""The game as the player drives it: modes, cursor, held card, menus.

Data flows one way: an action (from a board adapter) becomes an engine move,
the move names the piles it touched, the view redraws those piles, and the
loop sends one ``refresh()`` per change. The main loop allocates nothing per
frame: the legal-move buffer is made once and the view keeps shadow copies
so that unchanged tiles are never touched.
"""

import gc

from british_square import texts
from british_square.cards import NO_CARD, const
from british_square.controls import DOWN, LEFT, NONE, QUIT, RIGHT, SELECT, START, UP, A, B
from british_square.deal import MAX_DEAL, MIN_DEAL
from british_square.engine import (
    BRITISH,
    DEAD,
    FOUNDATION,
    LOST,
    MAX_MOVES,
    STOCK,
    WASTE,
    Game,
)
from british_square.layout import NO_STOP, Layout
from british_square.sheet import REFUSED, SELECTED, TARGET
from british_square.view import NORMAL, View

# Modes: which screen the actions go to.
TITLE = const(0)
PLAY = const(1)
MENU = const(2)
DEAL = const(3)
HELP = const(4)
RULES = const(5)
WON = const(6)
NO_MOVES = const(7)

FLASH_MS = const(180)  # a refused drop shows red this long
FRAME_MS = const(50)  # the celebration's frame time
# Positions the dead test may visit once the stock is empty: a few tenths of
# a second on a SAMD51; beyond it the game just plays on.
DEAD_BUDGET = const(150)

_POWERS = (10000, 1000, 100, 10, 1)

# Menu rows (texts.MENU_ITEMS)
_RESUME = const(0)
_NEW = const(1)
_DEAL = const(2)
_RESTART = const(3)
_UNDO = const(4)
_REDO = const(5)
_RULES = const(6)
_AUTOPLAY = const(7)
_HELP = const(8)


def random_deal():
    """A deal number picked at random."""
    import random

    return random.randint(MIN_DEAL, MAX_DEAL)


class App:
    """One player session on one display, driven by actions."""

    def __init__(self, display, actions, ticks_ms, game=None, autoplay=False):
        self.view = View(display)
        self.actions = actions
        self.ticks_ms = ticks_ms
        self.now = ticks_ms()
        self.moves = bytearray(2 * MAX_MOVES)
        self.autoplay = autoplay
        self.layout = None
        self.flash_stop = NO_STOP
        self.flash_look = NORMAL
        self.flash_until = 0
        self.frame_due = 0
        self.screen = None
        self.start_game(game or Game.new_deal(random_deal(), BRITISH))
        self.rules = self.game.rules
        self.show_title()

    # ----------------------------------------------------------------- loop

    def run(self, idle=None):
        """Handle actions until the adapter says it is finished (or the window closes)."""
        view = self.view
        actions = self.actions
        view.refresh()  # the first screen, before any key
        while True:
            now = self.ticks_ms()
            self.now = now
            action = actions.poll(now)
            if action == QUIT:
                break
            if action != NONE:
                self.handle(action)
            elif actions.finished:
                break
            self.tick(now)
            if view.dirty:
                view.refresh()
            if idle:
                idle()

    def handle(self, action):
        """Do what ``action`` means in the current mode."""
        if self.flash_stop != NO_STOP:
            self.end_flash()
        mode = self.mode
        if mode == PLAY:
            self.play_action(action)
        elif mode == MENU:
            self.menu_action(action)
        elif mode == DEAL:
            self.deal_action(action)
        elif mode == RULES:
            self.rules_action(action)
        elif mode == HELP:
            if action in (A, B, START):
                self.open_menu()
        elif mode == TITLE:
            if action == START:
                self.open_menu()
            elif action == A or action == B:
                self.show_play()
        else:  # WON or NO_MOVES
            self.end_action(action)

    def tick(self, now):
        """Timed changes: the end of a flash, a frame of the celebration."""
        if self.flash_stop != NO_STOP and self.ticks_diff(now, self.flash_until) >= 0:
            self.end_flash()
        if self.mode == WON and self.ticks_diff(now, self.frame_due) >= 0:
            self.frame_due = now + FRAME_MS
            self.view.animate()

    @staticmethod
    def ticks_diff(a, b):
        # ticks wrap at 2**29 on a board (see adafruit_ticks)
        return ((a - b + 0x10000000) & 0x1FFFFFFF) - 0x10000000

    # ---------------------------------------------------------------- games

    def start_game(self, game):
        """Make ``game`` the one played, from its start (a new deal, a restart, other rules)."""
        self.game = game
        self.held = NO_STOP
        self.cursor = 0
        self.end_shown = False
        if self.layout is None or self.layout.columns != game.columns:
            self.layout = Layout(game.columns)
            self.view.drop_play()
        if self.view.play is not None:
            self.view.clear_looks()
            self.view.show_game(game)
            self.view.show_cursor(self.cursor)

    def new_deal(self, number, rules):
        self.rules = rules
        self.start_game(Game.new_deal(number, rules))
        self.show_play()

    def show_play(self):
        """Back to the cards. The scene is rebuilt if another screen let it go."""
        self.mode = PLAY
        self.screen = None
        view = self.view
        if view.play is None:
            gc.collect()
            view.build_play(self.layout)
            view.show_game(self.game)
            view.show_cursor(self.cursor)
        view.show_play()
        self.check_end()

    def show_title(self):
        self.mode = TITLE
        line = "Deal {} {}\n{}".format(
            self.game.deal_number, texts.RULE_LABELS[self.game.rules], texts.TITLE_LINES
        )
        self._screen(self.view.title_screen(line))

    def _screen(self, group):
        self.screen = None  # free the old screen (and the play scene) first
        self.view.drop_play()
        gc.collect()
        self.screen = group
        self.view.show_screen(group)

    # ----------------------------------------------------------------- play

    def play_action(self, action):
        if action <= RIGHT:
            self.cursor = self.layout.neighbour(self.cursor, action)
            self.view.show_cursor(self.cursor)
        elif action == A:
            self.press_a()
        elif action == B:
            self.press_b()
        elif action == SELECT:
            self.cancel()
            self.undo()
        elif action == START:
            self.cancel()
            self.open_menu()

    def press_a(self):
        """Pick up, put down, deal, or fill a space from the stock."""
        game, layout, stop = self.game, self.layout, self.cursor
        pile = layout.stop_pile(stop)
        if self.held != NO_STOP:
            if stop == self.held:
                self.cancel()
                return
            source = layout.stop_pile(self.held)
            if pile == FOUNDATION and game.top(source) // 13 != stop - layout.foundation_stop:
                self.refuse(stop)  # the held card's own foundation only, as highlighted
                return
            self.try_move(source << 8 | pile, stop)
        elif pile == STOCK:
            self.try_move(STOCK << 8 | WASTE, stop)
        elif pile == FOUNDATION:
            self.refuse(stop)
        elif pile < STOCK and not game.height[pile]:
            self.try_move(STOCK << 8 | pile, stop)
        else:
            self.pick_up(stop)

    def press_b(self):
        """Cancel a held card, or send the card under the cursor home."""
        if self.held != NO_STOP:
            self.cancel()
            return
        pile = self.layout.stop_pile(self.cursor)
        if pile == STOCK or pile == FOUNDATION:
            self.refuse(self.cursor)
        else:
            self.try_move(pile << 8 | FOUNDATION, self.cursor)

    def pick_up(self, stop):
        """Hold the playable card of ``stop`` and light up where it may go."""
        game, layout, view = self.game, self.layout, self.view
        source = layout.stop_pile(stop)
        card = game.top(source)
        if card == NO_CARD:
            self.refuse(stop)
            return
        buffer = self.moves
        count = game.legal_moves(buffer)
        found = False
        for i in range(count):
            if buffer[2 * i] == source:
                view.set_look(layout.pile_stop(buffer[2 * i + 1], card // 13), TARGET)
                found = True
        if not found:
            self.refuse(stop)
            return
        self.held = stop
        view.set_look(stop, SELECTED)

    def cancel(self):
        """Put the held card back (it never left its pile)."""
        if self.held != NO_STOP:
            self.held = NO_STOP
            self.view.clear_looks()

    def try_move(self, m, stop):
        if self.game.is_legal(m):
            self.play(m)
        else:
            self.refuse(stop)

    def play(self, m):
        """Play the legal move ``m`` and show its effects."""
        self.cancel()
        self.game.push(m)
        self.changed(m)
        if self.autoplay:
            self.auto_play()
        self.check_end()

    def changed(self, m):
        """Redraw the two piles a move (or its undo) touched, the numbers and the cursor."""
        view, game = self.view, self.game
        view.show_pile(game, m >> 8)
        view.show_pile(game, m & 0xFF)
        view.show_numbers(game)
        view.show_cursor(self.cursor)

    def undo(self):
        m = self.game.undo()
        if m is None:
            self.refuse(self.cursor)
            return
        self.end_shown = False
        self.changed(m)

    def redo(self):
        m = self.game.redo()
        if m is not None:
            self.changed(m)
            self.check_end()

    def auto_play(self):
        """Send safe cards home: only aces that start or finish a foundation.

        Nothing can ever be built on an ace that a foundation could not take
        as well, so moving one home never costs a move; other cards might
        still be wanted in the tableau, so they are left to the player.
        """
        game = self.game
        moved = True
        while moved:
            moved = False
            for source in range(game.columns + 1):
                if source == game.columns:
                    source = WASTE
                card = game.top(source)
                if card != NO_CARD and card % 13 == 0 and game.foundations[card // 13] in (0, 25):
                    m = source << 8 | FOUNDATION
                    game.push(m)
                    self.changed(m)
                    moved = True

    def check_end(self):
        """Won, or no more moves: the engine's LOST, or its dead test once the stock is out.
        Each is announced once; an undo lets it be found again."""
        game = self.game
        if self.end_shown:
            return
        if game.is_won():
            self.end_shown = True
            self.mode = WON
            self.frame_due = self.now
            self._screen(self.view.won_screen(texts.WON_LINES))
            return
        if game.stock_count:
            return
        if game.status(self.moves) == LOST or game.dead(DEAD_BUDGET, self.moves) == DEAD:
            self.end_shown = True
            self.mode = NO_MOVES
            body = texts.NO_MOVES.format(
                game.score(), game.deal_number, texts.RULE_LABELS[game.rules]
            )
            self._screen(self.view.text_screen("No more moves", body, texts.END_FOOTER))

    def end_action(self, action):
        if action == A:
            self.new_deal(random_deal(), self.rules)
        elif action == B:
            self.show_play()
        elif action == SELECT:
            self.show_play()
            self.undo()
        elif action == START:
            self.open_menu()

    # -------------------------------------------------------------- flashes

    def refuse(self, stop):
        """Flash ``stop`` red for a moment: that did nothing."""
        view = self.view
        self.flash_stop = stop
        self.flash_look = view.looks[stop]
        self.flash_until = self.now + FLASH_MS
        view.set_look(stop, REFUSED)

    def end_flash(self):
        self.view.set_look(self.flash_stop, self.flash_look)
        self.flash_stop = NO_STOP

    # ----------------------------------------------------------------- menu

    def menu_text(self, row):
        name = texts.MENU_ITEMS[row]
        if row == _RULES:
            return name + texts.RULE_LABELS[self.rules]
        if row == _AUTOPLAY:
            return name + ("on" if self.autoplay else "off")
        return name

    def menu_items(self):
        return [self.menu_text(i) for i in range(len(texts.MENU_ITEMS))]

    def open_menu(self, row=0):
        self.mode = MENU
        self._screen(self.view.menu_screen("Menu", self.menu_items()))
        self.menu_row = row
        self.view.menu_choice(row)

    def menu_action(self, action):
        if action == UP or action == DOWN:
            step = -1 if action == UP else 1
            self.menu_row = (self.menu_row + step) % len(texts.MENU_ITEMS)
            self.view.menu_choice(self.menu_row)
        elif action == B or action == START:
            self.show_play()
        elif action == A:
            self.menu_choose(self.menu_row)

    def menu_choose(self, row):
        game = self.game
        if row == _RESUME:
            self.show_play()
        elif row == _NEW:
            self.new_deal(random_deal(), self.rules)
        elif row == _DEAL:
            self.open_deal(game.deal_number)
        elif row == _RESTART:
            self.new_deal(game.deal_number, game.rules)
        elif row == _UNDO:
            self.show_play()
            self.undo()
        elif row == _REDO:
            self.show_play()
            self.redo()
        elif row == _RULES:
            self.open_rules(self.rules)
        elif row == _AUTOPLAY:
            self.autoplay = not self.autoplay
            self.view.menu_text(self.menu_items())
            if self.autoplay:
                self.auto_play()
        elif row == _HELP:
            self.mode = HELP
            self._screen(self.view.text_screen("Help", texts.HELP, texts.HOME_RULE))

    # ---------------------------------------------------- deal number entry

    def open_deal(self, number):
        self.mode = DEAL
        self.deal_number = number
        self.deal_digit = 4
        self._screen(self.view.deal_screen(number, 4, texts.DEAL_FOOTER))

    def deal_action(self, action):
        number, digit = self.deal_number, self.deal_digit
        if action == UP or action == DOWN:
            power = _POWERS[digit]
            value = number // power % 10
            if action == UP:
                number += power if value < 9 else -9 * power
            else:
                number -= power if value > 0 else -9 * power
        elif action == LEFT and digit > 0:
            digit -= 1
        elif action == RIGHT and digit < 4:
            digit += 1
        elif action == A:
            self.new_deal(min(max(number, MIN_DEAL), MAX_DEAL), self.rules)
            return
        elif action == B or action == START:
            self.open_menu(_DEAL)
            return
        self.deal_number, self.deal_digit = number, digit
        self.view.show_deal_number(number, digit)

    # ---------------------------------------------------------------- rules

    def open_rules(self, rules):
        self.mode = RULES
        self.rules_choice = rules
        name, body = texts.RULES[rules]
        self._screen(self.view.text_screen(name, body, texts.RULES_FOOTER))

    def rules_action(self, action):
        if action == LEFT or action == RIGHT:
            step = 1 if action == RIGHT else 2
            self.open_rules((self.rules_choice + step) % 3)
        elif action == A:
            self.new_deal(self.game.deal_number, self.rules_choice)
        elif action == B or action == START:
            self.open_menu(_RULES)
