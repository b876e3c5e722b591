"""The desktop: Blinka displayio in a pygame window at 4x, the keyboard as buttons.

Headless (``--headless``, or on Linux without ``DISPLAY``/``WAYLAND_DISPLAY``)
plays a key script (``--keys``) and writes PNG screenshots (``--shot``), then
ends: it never waits for a person. Desktop only: CPython, pygame, Blinka.

Keys: arrows move; Z or Space = A; X or Backspace = B; U or Tab = Select
(undo); Enter or Esc = Start (menu); and the direct keys a board has not:
H hint, Y redo, N new game, R restart, the digits a deal number, + and -
the window's size. The screens name the keys (``KEY_NAMES``), or with
``BSQ_BOARD_BUTTONS=1`` in the environment the board's buttons, for
pictures of a board (an option would cost the VM's runs the heap of its
name). The mouse (``pointer``): a click on a pile is the cursor there and
A; a double click sends the card home; a card dragged to a place and let
go there is put down there; a right click puts a held card back. The
window is painted again when uncovered or given the focus. Closing
the window quits; so do SIGINT (Ctrl-C) and SIGTERM, window or headless,
keeping the game as a close does (exit status 130 or 143).
"""

import os
import signal
import sys

from harness import env_number, script_source
from keyscript import ScriptPlayer
from mixer import MixerSpeaker
from pointer import LEFT_BUTTON, Click, dragged
from storage import FileNVM, check_folder, default_save_path
from window import make_display, save_png, shot_paths

from british_square.controls import (
    DIGIT_0,
    DOWN,
    HINT,
    LEFT,
    NEW_GAME,
    NONE,
    QUIT,
    REDO,
    RESTART,
    RIGHT,
    SELECT,
    SLEEP_S,
    START,
    UP,
    A,
    B,
    Repeater,
)
from british_square.desktop.font import SheetFont  # noqa: E402
from british_square.desktop.winning import (  # noqa: E402
    LOOKING,
    NOT_KNOWN,
    NOT_WINNABLE,
    WINNABLE,
    Verdict,
    WinningHinter,
)
from british_square.layout import SCREEN_W as WIDTH  # noqa: E402

WINDOW_SCALE = 4  # the window's size at first (--scale sets it), 1 to MOST_SCALE
# What the strip under the screen says (``window.STATUS_H``) of whether
# the game can still be won (``winning.Verdict``).
STATUS_TEXT = {
    LOOKING: "Can it still be won? The solver looks",
    WINNABLE: "This game can still be won",
    NOT_WINNABLE: "This game can no longer be won",
    NOT_KNOWN: "Not known whether it can still be won",
}
MOST_SCALE = 8
DOUBLE_CLICK_MS = 400  # a second click this soon on the same place: a double click
# A held arrow key repeats as a desktop's keys do, faster than a board's
# joystick (350 ms, then every 110): the window draws a cursor step in
# about 30 ms (Blinka's displayio, in Python), so it keeps up.
KEY_REPEAT_DELAY_MS = 250
KEY_REPEAT_EVERY_MS = 40
# What the screens call each button here (words.txt's "{A}"...): one of its
# keys in ``KeyboardActions``' map (Esc, the desktop's key for a menu, not
# Enter), short enough for every footer's 26 columns.
KEY_NAMES = {"A": "Z", "B": "X", "Select": "U", "Start": "Esc", "Stick/pad": "Arrows"}
# The help's third page, the desktop's own (a board's words.txt need not
# carry it, nor its start-up check read it): a title, body lines, a footer.
HELP_PAGE = (
    "Help: desktop keys",
    "H: hint       Y: redo",
    "N: new game   R: restart",
    "0-9: type a deal number",
    "+ and -: the window's size",
    "Click: pick up, put down",
    "Double click: send home",
    "Drag a card: put it there",
    "Right click: put it back",
    "</> page  X: back",
)
DEFAULT_SHOT = "shots/play.png"
NO_SCREEN = (  # one line, as every note and error on standard error
    "note: no screen to open a window on: running headless, the screen goes to {!r}"
    " (--keys and --shot play a key script: code.py --help)"
)

# Blinka looks for pins at import and, finding none on a desktop ("GENERIC_X86"),
# says so on standard output, which is the game's. The desktop drives no pins:
# it asks for Blinka's board without hardware, which is silent. A chip or a
# board the user forces (BLINKA_FORCECHIP, BLINKA_FORCEBOARD) still wins.
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")


def wants_headless(options):
    """Headless when asked, or when a Linux session has no screen to open a window on."""
    if options.get("headless"):
        return True
    linux = sys.platform.startswith("linux")
    return linux and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class KeyboardActions:
    """Actions from pygame keyboard and mouse events, in the order they
    happened (a click as the presses it makes on ``app``, the game under
    way: ``pointer.Click``); QUIT once ``stopped`` (a signal)."""

    finished = False
    stopped = False
    app = None

    def __init__(self, scale=WINDOW_SCALE):
        import pygame

        self.pygame = pygame
        self.keymap = {
            pygame.K_UP: UP,
            pygame.K_DOWN: DOWN,
            pygame.K_LEFT: LEFT,
            pygame.K_RIGHT: RIGHT,
            pygame.K_z: A,
            pygame.K_SPACE: A,
            pygame.K_x: B,
            pygame.K_BACKSPACE: B,
            pygame.K_u: SELECT,
            pygame.K_TAB: SELECT,
            pygame.K_RETURN: START,
            pygame.K_ESCAPE: START,
            pygame.K_h: HINT,
            pygame.K_y: REDO,
            pygame.K_n: NEW_GAME,
            pygame.K_r: RESTART,
        }
        for digit in range(10):
            self.keymap[pygame.K_0 + digit] = self.keymap[pygame.K_KP0 + digit] = DIGIT_0 + digit
        self.sizes = {pygame.K_PLUS: 1, pygame.K_EQUALS: 1, pygame.K_KP_PLUS: 1,
                      pygame.K_MINUS: -1, pygame.K_KP_MINUS: -1}  # fmt: skip
        # The window uncovered, or given the focus: its picture may be another
        # window's (X11 without a compositor keeps none), so the screen is shown again.
        self.repaints = (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWFOCUSGAINED)
        self.display = None  # the window, to size (``Hardware`` sets it)
        self.scale = scale
        self.pending = []  # actions, and clicks (``Click``) still to play
        self.repeater = Repeater(KEY_REPEAT_DELAY_MS, KEY_REPEAT_EVERY_MS)
        self.last_down = (0, -1, -1)  # the last left button press: when, and where on the screen
        self.pressed_at = None  # the screen pixel of a left press not yet let go

    def poll(self, now):
        if self.stopped:
            return QUIT
        pygame = self.pygame
        repaint = False
        # unfiltered, so a quick press and release stay in order
        for event in pygame.event.get():
            if event.type in self.repaints:
                repaint = True
            elif event.type == pygame.QUIT:
                self.pending.append(QUIT)
            elif event.type == pygame.KEYDOWN and event.key in self.keymap:
                action = self.keymap[event.key]
                if action <= RIGHT:
                    self.repeater.press(action, now)
                self.pending.append(action)
            elif event.type == pygame.KEYUP and event.key in self.keymap:
                self.repeater.release(self.keymap[event.key])
            elif event.type == pygame.KEYDOWN and event.key in self.sizes:
                self.resize(self.sizes[event.key])
            elif event.type == pygame.MOUSEBUTTONDOWN and self.app is not None:
                self.pending.append(self.click(event, now))
            elif event.type == pygame.MOUSEBUTTONUP and self.app is not None:
                self.let_go(event)
        if repaint and self.display is not None:
            self.display.show()
        while self.pending:
            head = self.pending[0]
            if not isinstance(head, Click):
                return self.pending.pop(0)
            action = head.press(self.app)
            if action != NONE:
                return action
            self.pending.pop(0)  # that click has done all it does
        return self.repeater.poll(now)

    def screen_pixel(self, event):
        """The pixel of the 160x128 screen under ``event`` (the window shows
        it ``scale`` times larger, the status strip under it: past the screen)."""
        width, _ = self.pygame.display.get_surface().get_size()
        x, y = event.pos
        scale = width // WIDTH
        return x // scale, y // scale

    def click(self, event, now):
        """The click of ``event``: a double click when the left button's
        last press was on the same pixel within ``DOUBLE_CLICK_MS``."""
        x, y = self.screen_pixel(event)
        double = False
        if event.button == LEFT_BUTTON:
            when, last_x, last_y = self.last_down
            double = (x, y) == (last_x, last_y) and now - when <= DOUBLE_CLICK_MS
            self.last_down = (-DOUBLE_CLICK_MS if double else now, x, y)  # a third starts again
            self.pressed_at = (x, y)
        return Click(event.button, x, y, double)

    def let_go(self, event):
        """The left button let go: where it was pressed on a card and is let
        go on another place, a drag, which puts the card down there as a
        click on that place does."""
        if event.button != LEFT_BUTTON or self.pressed_at is None:
            return
        start, self.pressed_at = self.pressed_at, None
        x, y = self.screen_pixel(event)
        if (x, y) != start and dragged(self.app, start, (x, y)):
            self.pending.append(Click(LEFT_BUTTON, x, y))

    def resize(self, step):
        """The window a size larger (``step`` 1) or smaller (-1), 1 to ``MOST_SCALE`` times."""
        scale = min(MOST_SCALE, max(1, self.scale + step))
        if scale != self.scale and self.display is not None:
            self.scale = scale
            self.display.rescale(scale)


class ScriptActions(ScriptPlayer):
    """Actions from a key script (``shot:NAME`` calls ``save_shot(NAME)``);
    QUIT once ``stopped`` (a signal, a screenshot that failed)."""

    stopped = False

    def poll(self, now):
        return QUIT if self.stopped else self.next_action(now)


REST_FPS = round(1 / SLEEP_S)  # a resting window polls as often as a resting board


class Hardware:
    """The desktop adapter (docs/architecture.md, "The hardware adapter",
    says what each part is for): pygame's mixer for ``sound``, ``lights``
    and ``backlight`` kept to test, an optional save file for ``nvm``, and
    ``status``, the exit status once the game is over (0, or the signal
    that stopped it).

    Every path the options name is checked before the window opens (refused:
    ``ValueError``, one line for code.py). SIGINT and SIGTERM end the game at
    the loop's next turn, kept as closing the window keeps it."""

    def __init__(self, options):
        self.app = None  # the game under way (``started``)
        self.status = 0
        self.signals = {}  # the handlers replaced, to put back
        for number in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(number) != signal.SIG_IGN:  # started to ignore it (nohup, &)
                self.signals[number] = signal.signal(number, self.signalled)
        self.headless = wants_headless(options)
        if self.headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ["SDL_AUDIODRIVER"] = "dummy"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        self.scale = int(options.get("scale") or 1)
        # the keys the screens name for the buttons (None: the board's names)
        self.key_names = None if os.environ.get("BSQ_BOARD_BUTTONS") else KEY_NAMES
        self.help_page = HELP_PAGE if self.key_names else None  # a board's pictures: its own
        self.hinter = WinningHinter  # a hint that follows the solver's win
        self.verdict = None  # can the game still be won: said under a window's screen
        # A window has no backlight: None, and the menu's Brightness says so (a
        # board's pictures show a board's menu; the level set is kept, to test).
        self.backlight = None if self.key_names else self.keep_backlight
        self.shot = options.get("shot")
        if self.headless and not self.shot:
            self.shot = DEFAULT_SHOT  # headless always leaves a picture behind
        self.shot_folder, self.final_shot = shot_paths(self.shot) if self.shot else (".", None)
        self.shot_failed = False
        source = None
        told = None  # why headless, and where the picture goes
        if self.headless:
            default = ""
            if not (options.get("keys") or options.get("keys-file") or options.get("shot")):
                # the opening position, at the window's size
                default = "a"  # past the title screen
                self.scale = self.scale if options.get("scale") else WINDOW_SCALE
                told = NO_SCREEN.format(self.shot)
            source = script_source(options, default)
        # a battery only as BSQ_BATTERY_MV fakes one, to test what the screens say
        self.battery_mv = env_number("BSQ_BATTERY_MV", "millivolts")
        # The save: --save FILE, else in the user's data folder for a window;
        # a headless run (screenshots, tests) keeps nothing unless told to.
        self.nvm = None
        if options.get("save") is not None:
            self.nvm = FileNVM(options["save"])
        elif not self.headless:
            try:
                self.nvm = FileNVM(default_save_path())
            except ValueError as error:  # not the player's choice: the game goes on, unkept
                print("error: {}; playing without saving".format(error), file=sys.stderr)
        if self.final_shot:
            check_folder(self.final_shot)
        if told:
            print(told, file=sys.stderr)
        from adafruit_ticks import ticks_ms

        self.ticks_ms = ticks_ms
        window_scale = int(options.get("scale") or WINDOW_SCALE)
        self.display = make_display(1 if self.headless else window_scale)
        if self.headless:
            self.actions = ScriptActions(source, self.save_shot)
        else:
            self.actions = KeyboardActions(window_scale)
            self.actions.display = self.display
        self.clock = None
        self.backlight_level = 100
        self.font = SheetFont()  # Blinka's terminalio.FONT laid out as the board's
        self.speaker = MixerSpeaker()
        self.sound = self.speaker.sound
        # a window has no NeoPixels: the calls are counted and the last kept, to test
        self.glows = 0
        self.last_glow = None

    def signalled(self, number, frame):
        """SIGINT or SIGTERM: before the game is under way, exit at once
        (nothing to keep); during it, stop it at the loop's next turn."""
        if self.app is None:
            raise SystemExit(128 + number)
        self.stop(128 + number)

    def stop(self, status):
        """End the game at the loop's next turn (``App.run`` saves it, as
        when the window closes), with exit status ``status`` (the first given)."""
        self.status = self.status or status
        self.actions.stopped = True

    def save_shot(self, name):
        """``shot:NAME``: the screen as NAME.png in the --shot folder."""
        self.write_shot(os.path.join(self.shot_folder, name + ".png"))

    def write_shot(self, path):
        """A screenshot at ``path``; one that cannot be written is one error
        line, and the game stops (status 2), with no more screenshots."""
        if self.shot_failed:
            return
        try:
            save_png(self.display, path, self.scale)
        except ValueError as error:
            print("error: {}".format(error), file=sys.stderr)
            self.shot_failed = True
            self.stop(2)

    def idle(self, resting):
        if not self.headless:
            if self.clock is None:
                import pygame

                self.clock = pygame.time.Clock()
                self.verdict = Verdict()
            self.say_verdict()
            self.clock.tick(REST_FPS if resting else 60)

    def say_verdict(self):
        """Under the window's screen, whether the game on the cards can still
        be won, once the solver says (``winning.Verdict``): asked again after
        each move, the window live while it looks."""
        if self.app is None or self.app.table.game is None:
            return
        self.verdict.look(self.app.table.game)
        status = STATUS_TEXT[self.verdict.poll()]
        if status != self.display.status:
            self.display.status = status
            self.display.show()

    def facts(self):
        """The save file's NVM, if any; no battery on a desktop (but a fake one)."""
        return "desktop", len(self.nvm) if self.nvm is not None else 0, self.battery_mv

    def keep_backlight(self, percent):
        self.backlight_level = percent  # a board's pictures: the level is kept, to test

    def lights(self, frame, percent):
        self.glows += 1
        self.last_glow = (frame, percent)

    def console(self, line):
        """What a board prints on its serial console (About's figures, an
        error caught): standard error here, since standard output is the game's."""
        print(line, file=sys.stderr)

    def started(self, app):
        self.app = app
        self.actions.app = app  # where the mouse's clicks land
        if isinstance(self.actions, ScriptPlayer):  # a script presses once a press is all shown
            self.actions.settled = app.settled

    def stopped(self, app):
        """After the loop: the final screenshot; the signals as they were;
        no solver left looking."""
        if self.verdict is not None:
            self.verdict.stop()
        if self.final_shot:
            self.write_shot(self.final_shot)
        for number, handler in self.signals.items():
            signal.signal(number, handler)
