"""The deal number entry: five large digits and a mark under the one being
set (``Screens.deal`` shows it). Up and down change that digit, left and
right move the mark; on a keyboard the digits are typed straight in.
"""

from british_square.cards import const
from british_square.controls import DIGIT_0, DOWN, LEFT, RIGHT, START, UP, A, B
from british_square.deal import MAX_DEAL, MIN_DEAL
from british_square.sheet import TEXT_GREY, TEXT_RED

_POWERS = (10000, 1000, 100, 10, 1)
_MOST_TYPED = const(99999)  # five digits: a sixth typed starts again


class DealEntry:
    """The number on show and the digit being set, for ``screens`` (a
    ``screens.Screens``: its page and words, ``ask_deal`` to deal the number
    and ``menu`` to go back)."""

    def __init__(self, screens):
        self.screens = screens
        self.number = 1
        self.digit = 4
        self.typed = False  # digits are being typed: the next one goes on the end
        self.refused = False  # the footer says the number is out of range

    def show(self, number, digit=4, typed=False):
        screens = self.screens
        page = screens.page
        self.refused = False
        self.typed = typed
        screens.words.show(page, "deal")
        self._set(number, digit)

    def _set(self, number, digit):
        self.number, self.digit = number, digit
        self.screens.page.show_number(number, digit)

    def handle(self, action):
        number, digit = self.number, self.digit
        typed = False
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
        elif DIGIT_0 <= action <= DIGIT_0 + 9:  # typed: on the end of what was typed
            number = number * 10 if self.typed and number * 10 <= _MOST_TYPED else 0
            number += action - DIGIT_0
            digit, typed = 4, True
        elif action == A:
            self._choose(number)
            return
        elif action == B or action == START:
            self.screens.menu("deal")
            return
        self.typed = typed
        if self.refused:  # after a refusal: the keys again
            self.refused = False
            page = self.screens.page
            page.footer.color = TEXT_GREY
            self.screens.words.show(page, "deal")
        self._set(number, digit)

    def _choose(self, number):
        screens = self.screens
        if MIN_DEAL <= number <= MAX_DEAL:
            screens.ask_deal(number)
        else:  # say what is allowed; deal nothing
            self.refused = True
            page = screens.page
            page.footer.color = TEXT_RED
            screens.words.show(page, "deal_refused")
