"""The screens besides the cards: title, menu, deal number, rules, help, the end.

Each is a Group on the felt and what its keys do. This module and its words
(``texts``) are loaded when one of these screens opens and let go when the
cards come back (``App.show_play``), and the play scene is let go while they
show: so the two never share the heap.
"""

import gc

import displayio
import vectorio

from british_square import texts
from british_square.app import random_deal
from british_square.cards import const
from british_square.controls import (
    DOWN,
    LEFT,
    RIGHT,
    SELECT,
    START,
    UP,
    A,
    B,
    ticks_add,
    ticks_diff,
)
from british_square.layout import SCREEN_H, SCREEN_W, TEXT_LINE
from british_square.sheet import CARD_H, CARD_W, FIRST_CARD
from british_square.view import GREY, RULE_NAMES, WHITE, YELLOW, text

BAR = const(0x2040B0)  # behind the chosen menu row
MENU_Y = const(16)
FRAME_MS = const(50)  # the celebration's frame time
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


def text_screen(title, body, footer=None):
    """A Group: a title line, a block of text and an optional footer line."""
    group = displayio.Group()
    group.append(text(title, SCREEN_W // 2, 1, YELLOW, anchor=(0.5, 0.0)))
    if body:
        group.append(text(body, 2, 16))
    if footer:
        group.append(text(footer, SCREEN_W // 2, SCREEN_H - 1, GREY, anchor=(0.5, 1.0)))
    return group


class Screens:
    """The screen on show when it is not the cards, for ``app`` (an ``App``)."""

    def __init__(self, app):
        self.app = app
        self.view = app.view
        self._clear()

    def _clear(self):
        """Let the screen on show (or the play scene) go before the next is made."""
        self.handler = self.group = None
        self.bar = self.rows = self.digits = self.mark = self.kings = self.bounce = None
        self.celebrating = False
        view = self.view
        view.show_screen(None)
        view.drop_play()
        gc.collect()

    def _show(self, handler, group):
        self.handler = handler
        self.group = group
        self.view.show_screen(group)

    def handle(self, action):
        """Do what ``action`` means on the screen on show."""
        self.handler(action)

    def tick(self, now):
        """A frame of the celebration when one is due."""
        if self.celebrating and ticks_diff(now, self.frame_due) >= 0:
            self.frame_due = ticks_add(now, FRAME_MS)
            self._animate()

    # ---------------------------------------------------------------- title

    def title(self):
        self._clear()
        game = self.app.game
        lines = "Deal {} {}\n{}".format(game.deal_number, RULE_NAMES[game.rules], texts.TITLE_LINES)
        group = displayio.Group()
        for row, word in enumerate(("British", "Square")):  # each line centred
            group.append(text(word, SCREEN_W // 2, 2 + 24 * row, YELLOW, 2, (0.5, 0.0)))
        for suit in range(4):
            group.append(self.view.card_sprite(FIRST_CARD + suit * 13, 32 + 25 * suit, 56))
        group.append(text(lines, SCREEN_W // 2, SCREEN_H - 2, WHITE, anchor=(0.5, 1.0)))
        self._show(self._title, group)

    def _title(self, action):
        if action == START:
            self.menu()
        elif action == A or action == B:
            self.app.show_play()

    # ----------------------------------------------------------------- menu

    def menu_items(self):
        app = self.app
        items = list(texts.MENU_ITEMS)
        items[_RULES] += RULE_NAMES[app.rules]
        items[_AUTOPLAY] += "on" if app.autoplay else "off"
        return "\n".join(items)

    def menu(self, row=0):
        """The menu: its rows as one label (a label per row would cost a
        kilobyte each), and a bar behind the chosen row."""
        self._clear()
        group = text_screen("Menu", None)
        colour = displayio.Palette(1)
        colour[0] = BAR
        self.bar = vectorio.Rectangle(
            pixel_shader=colour, width=SCREEN_W - 24, height=TEXT_LINE, x=12, y=MENU_Y
        )
        group.append(self.bar)
        self.rows = text(self.menu_items(), 18, MENU_Y)
        group.append(self.rows)
        self._show(self._menu, group)
        self._choose(row)

    def _choose(self, row):
        self.row = row
        self.bar.y = MENU_Y + TEXT_LINE * row
        self.view.dirty = True

    def _menu(self, action):
        app = self.app
        if action == UP or action == DOWN:
            self._choose((self.row + (1 if action == DOWN else -1)) % len(texts.MENU_ITEMS))
            return
        if action == B or action == START:
            app.show_play()
            return
        if action != A:
            return
        row = self.row
        game = app.game
        if row == _RESUME:
            app.show_play()
        elif row == _NEW:
            app.new_deal(random_deal(), app.rules)
        elif row == _DEAL:
            self.deal(game.deal_number)
        elif row == _RESTART:
            app.new_deal(game.deal_number, game.rules)
        elif row == _UNDO:
            app.show_play()
            app.undo()
        elif row == _REDO:
            app.show_play()
            app.redo()
        elif row == _RULES:
            self.rules(app.rules)
        elif row == _AUTOPLAY:
            app.autoplay = not app.autoplay
            self.rows.text = self.menu_items()
            self.view.dirty = True
        elif row == _HELP:
            self._clear()
            self._show(self._help, text_screen("Help", texts.HELP, texts.HOME_RULE))

    def _help(self, action):
        if action in (A, B, START):
            self.menu(_HELP)

    # ---------------------------------------------------- deal number entry

    def deal(self, number):
        """Five large digits, a mark under the one being set (the last at first)."""
        self._clear()
        group = text_screen("Deal number", None, texts.DEAL_FOOTER)
        self.digits = text("", SCREEN_W // 2, 40, WHITE, 3, (0.5, 0.0))
        self.mark = text("^", 0, 80, YELLOW, 2, (0.5, 0.0))
        group.append(self.digits)
        group.append(self.mark)
        self._show(self._deal, group)
        self._set_deal(number, 4)

    def _set_deal(self, number, digit):
        self.number, self.digit = number, digit
        self.digits.text = "{:05d}".format(number)
        # each digit is 18 pixels wide at scale 3, the five centred
        self.mark.anchored_position = (SCREEN_W // 2 - 36 + 18 * digit, 76)
        self.view.dirty = True

    def _deal(self, action):
        number, digit = self.number, self.digit
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
            self.app.new_deal(number, self.app.rules)  # the app keeps it in 1-31999
            return
        elif action == B or action == START:
            self.menu(_DEAL)
            return
        self._set_deal(number, digit)

    # ---------------------------------------------------------------- rules

    def rules(self, rules):
        """What a rule set is like, in plain words; left and right show the others."""
        self._clear()
        self.choice = rules
        name, body = texts.RULES[rules]
        self._show(self._rules, text_screen(name, body, texts.RULES_FOOTER))

    def _rules(self, action):
        if action == LEFT or action == RIGHT:
            self.rules((self.choice + (1 if action == RIGHT else 2)) % 3)
        elif action == A:
            self.app.new_deal(self.app.game.deal_number, self.choice)
        elif action == B or action == START:
            self.menu(_RULES)

    # ------------------------------------------------------------- the end

    def won(self):
        """The celebration: four kings bounce around the message until a key."""
        self._clear()
        group = displayio.Group()
        self.kings = []
        # position and speed of each king, small ints: no allocation per frame
        self.bounce = [8, 50, 2, 1, 48, 70, -1, 2, 92, 40, 2, -1, 132, 60, -2, -2]
        for suit in range(4):
            x, y = self.bounce[4 * suit], self.bounce[4 * suit + 1]
            king = self.view.card_sprite(FIRST_CARD + suit * 13 + 12, x, y)
            self.kings.append(king)
            group.append(king)
        group.append(text("You won!", SCREEN_W // 2, 20, YELLOW, 2, (0.5, 0.0)))
        group.append(text(texts.WON_LINES, SCREEN_W // 2, SCREEN_H - 2, WHITE, anchor=(0.5, 1.0)))
        self._show(self._end, group)
        self.celebrating = True
        self.frame_due = self.app.now

    def _animate(self):
        b = self.bounce
        for i in range(8):  # x then y of each king: move, bounce off the edges
            k = (i >> 1) * 4 + (i & 1)  # b[k] is a position, b[k ^ 2] its speed
            limit = SCREEN_H - CARD_H if i & 1 else SCREEN_W - CARD_W
            value = b[k] + b[k ^ 2]
            if value < 0 or value > limit:
                b[k ^ 2] = -b[k ^ 2]
                value = b[k] + b[k ^ 2]
            b[k] = value
        for i in range(4):
            king = self.kings[i]
            king.x = b[4 * i]
            king.y = b[4 * i + 1]
        self.view.dirty = True

    def no_moves(self):
        """No move can bring another card home: say so, with the score."""
        self._clear()
        game = self.app.game
        body = texts.NO_MOVES.format(game.score(), game.deal_number, RULE_NAMES[game.rules])
        self._show(self._end, text_screen("No more moves", body, texts.END_FOOTER))

    def _end(self, action):
        app = self.app
        if action == A:
            app.new_deal(random_deal(), app.rules)
        elif action == B:
            app.show_play()
        elif action == SELECT:
            app.show_play()
            app.undo()
        elif action == START:
            self.menu()
