"""The desktop's window: Blinka's displayio drawn into a pygame surface,
shown scaled in a window with a status strip under it, and its screenshots
(PNG files written whole, never over a file that is not a PNG). Desktop
only; ``desktop.Hardware`` opens it.
"""

import os
import time

from storage import existing_file, read_head, replace_whole

from british_square.layout import SCREEN_H as HEIGHT
from british_square.layout import SCREEN_W as WIDTH

# Under the screen, the window says whether the game can still be won
# (``winning.Verdict``): a strip of its own, the screen's pixels as they are.
STATUS_H = 12
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def make_display(scale):
    """A Blinka display drawn into a ``WIDTH`` x ``HEIGHT`` surface (``_pygame_screen``),
    shown ``scale`` times larger in its window."""
    import blinka_displayio_pygamedisplay as pygamedisplay  # before displayio, always
    import busdisplay
    import pygame

    class ScaledDisplay(pygamedisplay.PyGameDisplay):
        def _initialize(self, init_sequence):
            pygame.display.init()  # the window alone: the mixer is the speaker's to open
            pygame.display.set_caption("British Square")
            self.status = ""  # under the screen (``STATUS_TEXT``)
            self._scale = scale
            self._window = pygame.display.set_mode(window_size(scale))
            self._pygame_screen = pygame.Surface((WIDTH, HEIGHT))

        def _refresh_display(self):
            busdisplay.BusDisplay._refresh_display(self)
            self.show()
            self._last_refresh = time.monotonic()
            self._refresh_pending = False

        def show(self):
            """The screen as drawn, scaled to the window, and the status under it."""
            scale = self._scale
            screen = self._window.subsurface((0, 0, WIDTH * scale, HEIGHT * scale))
            pygame.transform.scale(self._pygame_screen, screen.get_size(), screen)
            strip = (0, HEIGHT * scale, WIDTH * scale, STATUS_H * scale)
            self._window.fill((0, 0, 0), strip)
            if self.status:
                if not pygame.font.get_init():
                    pygame.font.init()
                font = pygame.font.Font(None, 10 * scale)
                text = font.render(self.status, True, (248, 248, 248))
                self._window.blit(text, (2 * scale, HEIGHT * scale + 2 * scale))
            pygame.display.flip()

        def rescale(self, new_scale):
            """The window ``new_scale`` times the screen, the screen shown again in it."""
            self._scale = new_scale
            self._window = pygame.display.set_mode(window_size(new_scale))
            self.show()

    return ScaledDisplay(width=WIDTH, height=HEIGHT, auto_refresh=False)


def check_png_target(path):
    """May a screenshot go to ``path``? Nothing there, or a PNG file (or an
    empty one) to replace; ``ValueError`` (one line) for anything else."""
    if existing_file(path, "a screenshot") is None:
        return
    if read_head(path, len(PNG_SIGNATURE)) not in (b"", PNG_SIGNATURE):
        raise ValueError("{!r} is not a PNG file: left as it is".format(path))


def window_size(scale):
    """The window at ``scale``: the screen and the status strip under it."""
    return WIDTH * scale, (HEIGHT + STATUS_H) * scale


def save_png(display, path, scale=1):
    """Write what the display shows as a PNG, ``scale`` times larger, in place
    of what ``check_png_target`` allows at ``path``; ``ValueError`` (one line)
    if it cannot."""
    import pygame

    surface = display._pygame_screen
    if scale != 1:
        surface = pygame.transform.scale(surface, (WIDTH * scale, HEIGHT * scale))

    def write(f):
        try:
            pygame.image.save(surface, f, "screen.png")
        except pygame.error as error:
            raise ValueError("cannot write {!r}: {}".format(path, error)) from None

    replace_whole(path, write, lambda: check_png_target(path))


def shot_paths(shot):
    """``(folder, final)`` for ``--shot``: the folder of the ``shot:NAME``
    pictures and the path of the last screen's. ``ValueError`` (one line),
    before anything is made, when they cannot be written."""
    if shot.lower().endswith(".png"):
        folder, final = os.path.dirname(shot) or ".", shot
    elif os.path.exists(shot) and not os.path.isdir(shot):
        raise ValueError("--shot {!r} is not a folder, nor a .png file".format(shot))
    else:
        folder, final = shot, os.path.join(shot, "final.png")
    check_png_target(final)
    return folder, final
