"""A key-script session of the board's game under the VM, with the boards'
speaker and NeoPixels (``hw/speaker.py``, ``hw/lights.py``) over the
stand-ins in ``fakes/`` for ``audioio``, ``audiocore``, ``digitalio`` and
``neopixel_write``, which the VM lacks. Run from the root of a board tree
(``tests/ui_runs.board_tree``) with ``fakes/`` copied beside ``code.py``,
as code.py runs it (options, or none: the game kept in the NVM); prints
code.py's report, then ``sounds``, ``light_writes`` and ``amplifier_off``.
"""

import sys

sys.path.insert(0, "fakes")
sys.path[1:1] = ["lib", "hw"]  # as code.py puts them, the same strings
import code  # noqa: E402  (the game's code.py: its __main__ guard starts nothing)

import neopixel_write  # noqa: E402
from lights import Lights  # noqa: E402
from speaker import Speaker  # noqa: E402

speaker = Speaker("SPEAKER", "SPEAKER_ENABLE")
lights = Lights("NEOPIXEL")
vm_machine = code.machine


def machine(options):
    """The VM's adapter, given the board's speaker and lights, its idle
    stepping the speaker as the boards' adapters do."""
    hardware = vm_machine(options)
    hardware.sound = speaker.sound
    hardware.lights = lights.glow
    vm_idle = hardware.idle

    def idle(resting):
        if speaker.busy:
            speaker.step()
        vm_idle(resting)

    hardware.idle = idle
    return hardware


code.machine = machine
status = code.main(sys.argv[1:])
print("sounds:", speaker.out.plays)
print("light_writes:", neopixel_write.writes)
print("amplifier_off:", not speaker.enable.value)
sys.exit(status)
