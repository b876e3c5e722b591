"""``python3 -m british_square``: the desktop command, ``british_square.desktop.cli``
(never on a board: nothing a board runs imports this)."""

from british_square.desktop.cli import run

if __name__ == "__main__":
    run()
