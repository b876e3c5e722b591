"""The desktop's direct keys (``controls.HINT`` ... and the digits): what a
menu row does, at one press. A board's buttons send none of them, so a board
never loads this module (``App.handle`` imports it at the first such key).
"""

from british_square.controls import DIGIT_0, HINT, NEW_GAME, REDO
from british_square.screen_ids import (
    ASK_RANDOM,
    ASK_RESTART,
    SCREEN_DEAL,
    SCREEN_MENU,
    SCREEN_PLAY,
    SCREEN_TITLE,
)
from british_square.sounds import BUZZ


def shortcut(screens, action):
    """Do the direct key ``action`` on ``screens`` (a ``screens.Screens``):
    on the cards, the title or the menu what its menu row does, a digit
    opening the deal number entry with it typed; on the deal number entry
    a digit types; a question or another screen takes its own keys only."""
    current, app = screens.current, screens.app
    if current == SCREEN_PLAY:
        app.table.end_flash()
    if current == SCREEN_DEAL and action >= DIGIT_0:
        screens.entry.handle(action)
        return
    if current != SCREEN_PLAY and current != SCREEN_TITLE and current != SCREEN_MENU:
        return
    if action >= DIGIT_0:
        screens.deal(action - DIGIT_0, typed=True)
    elif action == HINT:
        if app.hint():
            return
        if current == SCREEN_MENU:
            screens.rows.say_no_hint()
        else:
            app.beep(BUZZ)
    elif action == REDO:
        if current != SCREEN_PLAY:
            app.show_play()
        app.table.redo()
    else:  # New game, Restart deal: asked first, and B goes back where the key was
        back = SCREEN_MENU if current == SCREEN_MENU else SCREEN_PLAY
        screens.ask(ASK_RANDOM if action == NEW_GAME else ASK_RESTART, back)
