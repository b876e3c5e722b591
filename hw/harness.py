"""What the harness does once, outside the game's run: check its inputs at
start-up (desktop and VM: every word of the key script before the game
starts, and the ``BSQ_*`` numbers; bad input is one ``ValueError`` line for
code.py to print), and report the VM's run at its end (``report``).

The VM adapter imports it for each and lets it go, so its code is not on the
heap the game is measured in: a board has no harness at all.
"""

import os

from keyscript import WordReader, parse_word


def script_source(options, default=""):
    """``(text, path)`` of the key script the options give: ``--keys`` (else
    ``default``), then the file named by ``--keys-file``; every word is read
    and checked first (``ValueError`` names the first bad one)."""
    text = options.get("keys") or default
    path = options.get("keys-file")
    reader = WordReader(text, path)
    try:
        while True:
            word = reader.next_word()
            if word is None:
                return text, path
            parse_word(word)
    finally:
        reader.close()


def env_number(name, unit):
    """The whole number in environment variable ``name`` (0 when unset);
    ValueError, one line for code.py to print, when it is anything else
    (the harness's BSQ_* settings: desktop and VM)."""
    text = os.getenv(name) or "0"
    if len(text) > 9 or not all("0" <= c <= "9" for c in text):  # int() takes " 5", "1_0"
        raise ValueError("{} is not a whole number of {}".format(name, unit))
    return int(text)


def report(vm, app, peak, live):
    """The VM run's report on standard output (tests and ``tools/stress.py``
    read it): presses, the live heap (``-`` unless measuring), the screens
    seen, keypad overflows, turns of the loop, the backlight, the saves."""
    from british_square.screen_ids import SCREEN_NAMES

    seen = " ".join(n for i, n in enumerate(SCREEN_NAMES) if vm.seen >> i & 1)
    text = "presses: {}\ncollection: {}\npeak_live: {}\nlive_at_end: {}\nscreens: {}"
    collection = "measuring" if vm.measuring else "board"
    print(text.format(vm.presses, collection, peak, live, seen))
    text = "overflows: {}\nturns: {}\nbacklight: {}\nsaves: {}"
    saves = app.store.writes if app.store is not None else 0
    print(text.format(vm.buttons.overflows, vm.turns, vm.backlight_level, saves))
