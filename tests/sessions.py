"""Long random sessions: key scripts a restless player might press, for the
stress test (tests/test_stress_vm.py) and the heap search (tools/stress.py).

Random presses alone would rarely leave the first screens, so the player
mostly plays (directions, A, B), opens the menu now and then and picks a
row, flips through the screens it leads to, and now and then waits (a
flash ends, the dead test runs on). What a session starts from
(``session_kind``), over twenty seeds:

- a deal of each rule set in turn (twelve seeds);
- one seed in five (``seed % 5 == 4``) first wins American deal 113, by a
  line the solver found, so the celebration is among the screens seen: as
  a board plays it, with no position read from text;
- two seeds (``seed % 10 == 3``) resume a British game of 400 moves, the
  longest history a record keeps from a deal, and two (``seed % 10 == 8``)
  a Union Square game of 600 moves, which a record keeps as a start
  position and its last 180 moves (store.py), so that start-up loads the
  position check (``position.py``).

Every session runs ``code.py`` with no options, as a board runs it (options
load ``hw/options.py``, whose names would stay interned on the heap): the
key script comes from ``BSQ_KEYS_FILE`` and the game from the NVM file the VM
reads (``CIRCUITPY_NVM_FILE``), as a board finds its save
(``session_env``). A session that starts from a deal finds that deal kept
with one move played and taken back (a game with a move is what a record
keeps), so the title offers it and A plays it from its start.
"""

import json
import random
from pathlib import Path

from ui_runs import kept_game
from words_text import body

from british_square.desktop.games import copy_game, legal_moves
from british_square.engine import Game
from british_square.piles import AMERICAN, BRITISH, UNION, move, move_source, move_target
from british_square.store import DEAL_MOVES_MOST, START_MOVES_MOST

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
# The kept games that sessions resume: (rules, deal, moves in their history).
DEAL_SAVE = (BRITISH, 8, DEAL_MOVES_MOST)  # the longest history a record keeps from a deal
START_SAVE = (UNION, 5, 600)  # past that: the record keeps a start position
START_SAVE_KEPT = START_MOVES_MOST  # and its newest moves

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
    if seed % 5 == 4:  # first the survey's winning line (session_game): the celebration
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

    from british_square.desktop.notation import parse_move

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


def session_kind(seed):
    """What session ``seed`` starts from: ``"won"`` (American deal
    ``WIN_DEAL``, won first), ``"resume-deal"`` (the kept ``DEAL_SAVE``),
    ``"resume-start"`` (the kept ``START_SAVE``), or a rule set's name (a deal
    of it)."""
    if seed % 5 == 4:
        return "won"
    if seed % 10 == 3:
        return "resume-deal"
    if seed % 10 == 8:
        return "resume-start"
    return RULES[seed % 3]


def session_game(seed):
    """The game session ``seed`` finds kept: its deal (a deal of its rule set,
    or American deal ``WIN_DEAL``) with one move played and taken back, or
    one of the long games."""
    kind = session_kind(seed)
    if kind == "resume-deal":
        return long_game(*DEAL_SAVE)
    if kind == "resume-start":
        return long_game(*START_SAVE)
    if kind == "won":
        game = Game.new_deal(WIN_DEAL, AMERICAN)
    else:
        game = Game.new_deal(1 + seed * 7919 % 31999, RULES.index(kind))
    game.play(legal_moves(game)[0])
    game.undo()
    return game


def session_env(seed, folder, keys):
    """The environment session ``seed`` runs in, its key script in the file
    ``keys`` (a path from the board tree's root, the same string in every
    run): a fresh NVM file in ``folder`` holding its kept game (every run of
    it starts from the same save)."""
    path = Path(folder) / "kept-{}.nvm".format(seed)
    path.unlink(missing_ok=True)  # a session saves into it: the next run starts again
    return dict(kept_game(path, session_game(seed)), BSQ_KEYS_FILE=str(keys))


def long_game(rules, deal, moves):
    """A game of ``rules`` from ``deal`` with ``moves`` moves in its history:
    random moves (seeded by the deal) until at most 20 cards are left in the
    stock and one column's top card can go to another and back, then that card
    carried to and fro. ``ValueError`` if the deal never gets there."""
    game = Game.new_deal(deal, rules)
    rng = random.Random(deal)
    while game.history_end < moves:
        there = game.stock_count <= 20 and _two_way_move(game)
        if there:
            back = move(move_target(there), move_source(there))
            while game.history_end < moves:
                game.play(there)
                there, back = back, there
            break
        choices = legal_moves(game)
        if not choices:
            raise ValueError("deal {} of rules {} ends first".format(deal, rules))
        game.play(rng.choice(choices))
    return game


def _two_way_move(game):
    """A move of a card between two columns that can then go straight back, or 0."""
    for m in legal_moves(game):
        source, target = move_source(m), move_target(m)
        if source < game.columns and target < game.columns:
            trial = copy_game(game)
            trial.play(m)
            if trial.is_legal(move(target, source)):
                return m
    return 0
