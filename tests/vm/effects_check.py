"""The speaker and the NeoPixels (hw/speaker.py, hw/lights.py) under
CircuitPython, over the stand-ins of tests/vm/fakes for the board's C
modules: what they hold on the heap, that a frame's work allocates nothing,
and the win's tune note by note.

Usage: effects_check.py, with lib/, hw/, tests/vm/fakes and tests/bench on
the path. Prints ``name value`` lines for ``tests/test_effects_vm.py``.
"""

import gc

import audiocore  # noqa: F401  (the stand-ins first: not counted below)
import audioio  # noqa: F401
import digitalio  # noqa: F401
import neopixel_write
from benchlib import allocated, held

from british_square import cards  # noqa: F401  (the game's first module: not counted)

gc.collect()
below = gc.mem_alloc()
from lights import Lights  # noqa: E402
from speaker import Speaker  # noqa: E402

gc.collect()
print("heap_modules", gc.mem_alloc() - below)
from british_square.sounds import FANFARE  # noqa: E402  (speaker loaded it: not counted)

speaker = None


def make_speaker():
    global speaker
    speaker = Speaker("SPEAKER", "SPEAKER_ENABLE")
    return speaker


print("heap_speaker", held(make_speaker)[0])
lights = None


def make_lights():
    global lights
    lights = Lights("NEOPIXEL")
    return lights


print("heap_lights", held(make_lights)[0])

frame = [0]


def glow_frame():
    frame[0] += 1
    lights.glow(frame[0], 100)


print("alloc_glow", allocated(glow_frame))
print("alloc_dark", allocated(lambda: lights.glow(-1, 100)))
print("lit", max(neopixel_write.last) <= 64 and neopixel_write.writes)
speaker.sound(FANFARE)
print("alloc_step", allocated(speaker.step))  # a note under way: nothing to do
turns = 0
while speaker.busy and turns < 100:  # the main loop's turns
    turns += 1
    speaker.step()
print("tune", " ".join(str(rate) for _, rate in speaker.out.played))
print("amplifier_off", not speaker.enable.value and not speaker.busy)
