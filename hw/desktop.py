"""The desktop: Blinka displayio in a pygame window at 4x, the keyboard as buttons.

Headless (``--headless``, or on Linux without ``DISPLAY``/``WAYLAND_DISPLAY``)
plays a key script (``--keys``) and writes PNG screenshots (``--shot``), then
ends: it never waits for a person. Desktop only: CPython, pygame, Blinka.

Keys: arrows move; Z or Space = A; X or Backspace = B; U or Tab = Select
(undo); Enter or Esc = Start (menu). Closing the window quits.
"""

import os
import sys
import time

from keyscript import ScriptPlayer, env_number, script_source
from storage import FileNVM, default_save_path

from british_square.controls import (
    DOWN,
    LEFT,
    QUIT,
    REST_S,
    RIGHT,
    SELECT,
    START,
    UP,
    A,
    B,
    Repeater,
)
from british_square.layout import SCREEN_H as HEIGHT  # noqa: E402
from british_square.layout import SCREEN_W as WIDTH  # noqa: E402

WINDOW_SCALE = 4
DEFAULT_SHOT = "shots/play.png"


def wants_headless(options):
    """Headless when asked, or when a Linux session has no screen to open a window on."""
    if options.get("headless"):
        return True
    linux = sys.platform.startswith("linux")
    return linux and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def make_display(scale):
    """A Blinka display drawn into a ``WIDTH`` x ``HEIGHT`` surface (``_pygame_screen``),
    shown ``scale`` times larger in its window."""
    import blinka_displayio_pygamedisplay as pygamedisplay  # before displayio, always
    import busdisplay
    import pygame

    class ScaledDisplay(pygamedisplay.PyGameDisplay):
        def _initialize(self, init_sequence):
            pygame.init()
            pygame.display.set_caption("British Square")
            self._window = pygame.display.set_mode((WIDTH * scale, HEIGHT * scale))
            self._pygame_screen = pygame.Surface((WIDTH, HEIGHT))

        def _refresh_display(self):
            busdisplay.BusDisplay._refresh_display(self)
            pygame.transform.scale(self._pygame_screen, self._window.get_size(), self._window)
            pygame.display.flip()
            self._last_refresh = time.monotonic()
            self._refresh_pending = False

    return ScaledDisplay(width=WIDTH, height=HEIGHT, auto_refresh=False)


def save_png(display, path, scale=1):
    """Write what the display shows as a PNG, ``scale`` times larger."""
    import pygame

    surface = display._pygame_screen
    if scale != 1:
        surface = pygame.transform.scale(surface, (WIDTH * scale, HEIGHT * scale))
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    pygame.image.save(surface, path)


class KeyboardActions:
    """Actions from pygame keyboard events, in the order they happened."""

    finished = False

    def __init__(self):
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
        }
        self.pending = []
        self.repeater = Repeater()

    def poll(self, now):
        pygame = self.pygame
        # unfiltered, so a quick press and release stay in order
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.pending.append(QUIT)
            elif event.type == pygame.KEYDOWN and event.key in self.keymap:
                action = self.keymap[event.key]
                if action <= RIGHT:
                    self.repeater.press(action, now)
                self.pending.append(action)
            elif event.type == pygame.KEYUP and event.key in self.keymap:
                self.repeater.release(self.keymap[event.key])
        if self.pending:
            return self.pending.pop(0)
        return self.repeater.poll(now)


class ScriptActions(ScriptPlayer):
    """Actions from a key script; ``shot:NAME`` saves the screen as NAME.png."""

    def __init__(self, source, display, shot_folder, scale=1):
        super().__init__(source, self.save_shot)
        self.display = display
        self.shot_folder = shot_folder
        self.scale = scale

    def save_shot(self, name):
        save_png(self.display, os.path.join(self.shot_folder, name + ".png"), self.scale)

    def poll(self, now):
        return self.next_action(now)


class MixerSpeaker:
    """The game's sound effects through pygame's mixer, the same waves a
    board plays (``british_square.sounds``). Silent where no audio device
    opens (``SDL_AUDIODRIVER=dummy`` plays to nowhere); ``played`` keeps
    every effect asked for, in order, for the tests."""

    def __init__(self):
        import pygame

        from british_square.sounds import CHIME, RATE, RATES, TUNE, effects

        self.played = []
        self.sounds = None
        try:
            # unsigned 8-bit mono at the waves' own rate, converted by SDL if need
            # be; pygame.init() (the window) opened the mixer at its defaults
            pygame.mixer.quit()
            pygame.mixer.init(frequency=RATE, size=8, channels=1, allowedchanges=0)
        except (pygame.error, NotImplementedError):
            return  # no audio device, or a pygame built without its mixer: silent
        waves = effects()

        def at_rate(wave, rate):  # the wave as played at ``rate`` on a RATE mixer
            return bytes(wave[i * rate // RATE] for i in range(len(wave) * RATE // rate))

        self.sounds = [pygame.mixer.Sound(buffer=at_rate(w, r)) for w, r in zip(waves, RATES)]
        fanfare = b"".join(at_rate(waves[CHIME], rate) for rate in TUNE)
        self.sounds.append(pygame.mixer.Sound(buffer=fanfare))

    def play(self, effect):
        self.played.append(effect)
        if self.sounds is not None:
            self.sounds[effect].play()


REST_FPS = round(1 / REST_S)  # a resting window polls as often as a resting board


class Hardware:
    """The desktop adapter: ``display``, ``actions``, ``ticks_ms``, ``idle``,
    ``sound`` (pygame's mixer), ``lights`` (kept, to test) and ``finish``."""

    def __init__(self, options):
        self.headless = wants_headless(options)
        if self.headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ["SDL_AUDIODRIVER"] = "dummy"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from adafruit_ticks import ticks_ms

        self.ticks_ms = ticks_ms
        self.scale = int(options.get("scale") or 1)
        self.display = make_display(1 if self.headless else WINDOW_SCALE)
        self.shot = options.get("shot")
        if self.headless and not self.shot:
            self.shot = DEFAULT_SHOT  # headless always leaves a picture behind
        if self.shot and self.shot.lower().endswith(".png"):
            self.shot_folder = os.path.dirname(self.shot) or "."
        else:
            self.shot_folder = self.shot or "."
        if self.headless:
            default = ""
            if not (options.get("keys") or options.get("keys-file") or options.get("shot")):
                # the opening position, at the window's size
                default = "a"  # past the title screen
                self.scale = self.scale if options.get("scale") else WINDOW_SCALE
                print("No screen to open a window on: running headless; the screen goes to")
                print("{}.".format(self.shot))
                print("Give --keys and --shot to play a key script (see code.py).")
            source = script_source(options, default)
            self.actions = ScriptActions(source, self.display, self.shot_folder, self.scale)
        else:
            self.actions = KeyboardActions()
        self.clock = None
        self.light = 100
        # a battery only as BSQ_BATTERY_MV fakes one, to test what the screens say
        self.battery_mv = env_number("BSQ_BATTERY_MV", "millivolts")
        self.font = None  # Blinka's terminalio.FONT: the board's glyphs (tests/test_ui_vm.py)
        self.speaker = MixerSpeaker()
        self.sound = self.speaker.play
        # a window has no NeoPixels: the calls are counted and the last kept, to test
        self.glows = 0
        self.last_glow = None
        # The save: --save FILE, else in the user's data folder for a window;
        # a headless run (screenshots, tests) keeps nothing unless told to.
        path = options.get("save")
        if path is None and not self.headless:
            path = default_save_path()
        self.nvm = FileNVM(path) if path else None

    def idle(self, resting):
        if not self.headless:
            if self.clock is None:
                import pygame

                self.clock = pygame.time.Clock()
            self.clock.tick(REST_FPS if resting else 60)

    def facts(self):
        """The save file's NVM, if any; no battery on a desktop (but a fake one)."""
        return "desktop", len(self.nvm) if self.nvm is not None else 0, self.battery_mv

    def backlight(self, percent):
        self.light = percent  # a window has no backlight: the level is kept, to test

    def lights(self, frame, percent):
        self.glows += 1
        self.last_glow = (frame, percent)

    def started(self, app):
        pass

    def finish(self, app):
        """After the loop: the final screenshot."""
        if self.shot:
            path = self.shot
            if not path.lower().endswith(".png"):
                path = os.path.join(path, "final.png")
            save_png(self.display, path, self.scale)
