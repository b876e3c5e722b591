"""Long random sessions: key scripts a restless player might press, for the
stress test (tests/test_stress_vm.py) and the heap search (tools/stress.py).

Random presses alone would rarely leave the first screens, so the player
mostly plays (directions, A, B), opens the menu now and then and picks a
row, flips through the screens it leads to, and now and then waits (a
flash ends, the dead test runs on). One session in five first wins a
deal, by a line the solver found, so the celebration is among the screens
seen: as a board plays it, with no position read from text.
"""

import json
import random
from pathlib import Path

from test_words import body

MENU = body("menu")  # the menu's rows
# A on the About screen runs a three-second redraw benchmark: sessions leave
# that to tests/test_ui_vm.py and never press A there (nor on its menu row
# after leaving it).
ABOUT_ROW = MENU.index("About")
# One in five sessions first wins American deal 113 by the survey's line
# (265 moves, 1 208 presses).
SURVEY = Path(__file__).resolve().parents[1] / "docs" / "survey" / "american.jsonl"
WIN_DEAL = 113
RULES = ("british", "american", "union")

_PLAY = (
    ["up"] * 3
    + ["down"] * 3
    + ["left"] * 4
    + ["right"] * 4
    + ["a"] * 8
    + ["b"] * 4
    + ["select"] * 2
)


def session_script(seed, presses):
    """``presses`` presses (plus a few waits) as a key script, the same for the same seed."""
    rng = random.Random(seed)
    words = []
    if seed % 5 == 4:  # first the survey's winning line (session_args): the celebration
        words = winning_words()
    count = len(words)
    while count < presses:
        roll = rng.random()
        if roll < 0.1:  # the menu: down to a row, choose it, then a few keys there
            rows = rng.randrange(len(MENU))
            words += ["start"] + ["down"] * rows + ["a"]
            count += rows + 2
            keys = ("up", "down", "left", "right", "a", "b", "start")
            for _ in range(rng.randrange(6)):
                words.append(rng.choice(keys[:4] + keys[5:] if rows == ABOUT_ROW else keys))
                count += 1
            if rows == ABOUT_ROW:  # away from About and its row, so that no A lands there
                words += ["start", "start"]
                count += 2
        elif roll < 0.13:
            words.append("wait:{}".format(rng.choice((50, 200, 600))))
        else:
            words.append(rng.choice(_PLAY))
            count += 1
    return " ".join(words)


def winning_words():
    """The presses that win American deal ``WIN_DEAL`` from its title
    screen: the line the solver found (docs/survey), replayed through the
    engine as it is typed."""
    from scripting import ScriptWriter

    from british_square.engine import AMERICAN, Game
    from british_square.notation import parse_move

    line = next(
        record["moves"]
        for record in map(json.loads, SURVEY.read_text().splitlines())
        if record["deal"] == WIN_DEAL and record["result"] == "won"
    )
    writer = ScriptWriter(Game.new_deal(WIN_DEAL, AMERICAN))
    for token in line.split():
        writer.move(parse_move(token, writer.game))
    assert writer.game.is_won()
    return writer.words


def session_args(seed):
    """The code.py options of session ``seed``: a deal of each rule set in turn,
    or (one seed in five) American deal ``WIN_DEAL``, won first."""
    if seed % 5 == 4:
        return ["--rules", "american", "--deal", str(WIN_DEAL)]
    return ["--rules", RULES[seed % 3], "--deal", str(1 + seed * 7919 % 31999)]
