"""The store under CircuitPython's VM: a save allocates nothing, a VM
killed at random moments while saving resumes the last save that completed,
no record made to break can stop the game, and a scripted day of play
writes the NVM no more than the save policy's budget."""

import importlib.util
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from conftest import LIB, ROOT
from nvm_records import (
    BAD_STOCK,
    BLOCK,
    NONSENSE,
    START_32767,
    UNION_AS_AMERICAN,
    V1_RECORD,
    bad_record,
    forged,
    one_back,
    start_body,
    started_after,
    v1_record_game,
    valid_body,
)
from ui_runs import board_tree, kept_game, keys_file, reported
from words_text import body

from british_square.desktop.games import legal_moves
from british_square.desktop.notation import position_text
from british_square.engine import Game
from british_square.piles import AMERICAN, UNION
from british_square.resume import load
from british_square.save_policy import MIN_INTERVAL_S
from british_square.stats import STATS_SIZE
from british_square.store import HAS_GAME, HAS_START, LAST_SEQUENCE, MAGIC, SLOT_B, VERSION, Store

MEASURE = ROOT / "tests" / "vm" / "store_measure.py"
CRASH = ROOT / "tests" / "vm" / "store_crash.py"
BOOT = ROOT / "tests" / "vm" / "store_boot.py"
BENCH = ROOT / "tests" / "bench"
TICKS = Path(importlib.util.find_spec("adafruit_ticks").origin)
LINE = 40  # as store_crash.py


def mpy_tree(mpy_cross, folder):
    """The game package (with desktop/: the crash script writes positions as
    text) and adafruit_ticks compiled to .mpy, as a board holds them."""
    package = folder / "british_square"
    for source in (LIB / "british_square").rglob("*.py"):
        target = package / source.relative_to(LIB / "british_square").with_suffix(".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([mpy_cross, "-o", str(target), str(source)], check=True)
    subprocess.run([mpy_cross, "-o", str(folder / "adafruit_ticks.mpy"), str(TICKS)], check=True)
    return folder


@pytest.mark.vm
def test_a_save_allocates_nothing_and_the_store_fits_its_heap(vm, mpy_cross, tmp_path):
    tree = mpy_tree(mpy_cross, tmp_path / "board")
    out = vm.run(MEASURE, heap="192K", path=(tree, BENCH)).stdout
    figures = dict(line.split(" ", 1) for line in out.splitlines())
    for case in ("none", "typical", "longest", "beyond"):
        assert figures["alloc_save_" + case] == "0", out
        assert figures["alloc_staged_" + case] == "0", out  # a share a turn, as the app saves
    assert figures["alloc_policy_due"] == "0"
    assert figures["dropped_beyond"] == "1320"  # 1500 moves, 180 kept (START_MOVES_MOST)
    assert figures["resumed"] == "True 7 2"
    # a start position naming its deal, checked against the deal, under CircuitPython
    assert figures["resumed_beyond"] == "True 0 2", out
    assert figures["refused_deal_32767"] == "2 2", out  # the save before, with NOTICE_EARLIER
    assert int(figures["heap_move_buffer"]) <= 640, out  # the app's own, since issue 20
    # store and stats, held for good: about 9.5 KB in this plain tree, where
    # the record layout's constants are public names (deploy makes them
    # private: the deployed heap bench holds the budget), with a qstr pool
    # chunk of about 2.4 KB (it lands on whichever module needs it); the save
    # a share a turn is 1.5 KB of it; resume, let go once the save is loaded:
    # about 4.3 KB. Both move by a block or a few with the paths and the
    # environment the VM starts with (the strings it interns first decide
    # where the pool's next chunk falls): 9 488 to 9 616 B seen for the store
    assert int(figures["heap_store_module"]) < 9800, out
    assert int(figures["heap_resume_module"]) < 5000, out
    assert int(figures["heap_store_object"]) < 1600, out  # the 1 KB record buffer and its kin


def expected_positions():
    """Position text of save id k is ``positions[k % LINE]``."""
    game = Game.new_deal(9)
    buf = bytearray(612)
    positions = []
    for _ in range(LINE):
        positions.append(position_text(game))
        game.legal_moves(buf)
        game.play(buf[0] << 8 | buf[1])
    return positions


@pytest.mark.vm
def test_a_vm_killed_at_random_while_saving_resumes_the_last_completed_save(vm, tmp_path):
    """200 short runs, each killed (SIGKILL) at a random moment of a loop of
    saves; each run first loads what the last one left. It must be the last
    save that completed, the one under way (finished, not yet reported), or,
    when the kill caught the VM between truncating its NVM file and writing
    it (the VM's erase), a fresh start from an empty file. The VM writes the
    file in two 4 KB halves: a kill between them leaves slot A alone, as a
    board's cut after slot A's pages does, and the title says that the save
    loaded may be an older one (it cannot tell which slot was being written)."""
    # In memory where the machine has it (/dev/shm): on a disk, truncating the
    # file takes the VM so long that most kills would land in that window.
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path
    nvm_file = folder / "nvm.bin"
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join((str(LIB), str(TICKS.parent)))
    env["CIRCUITPY_NVM_FILE"] = str(nvm_file)
    positions = expected_positions()
    rng = random.Random(10)
    last_saved = 0  # the id of the last save a run reported complete (0: none yet)
    size_after_kill = 0
    outcomes = {"last": 0, "under way": 0, "fresh": 0, "half written": 0}
    started = time.monotonic()
    runs = 200
    for run in range(runs):
        process = subprocess.Popen(
            [vm.binary, "-X", "heapsize=192K", str(CRASH)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        time.sleep(rng.uniform(0.05, 0.2))
        process.kill()
        out, err = process.communicate()
        lines = out.split("\n")[:-1]  # whole lines: the kill may cut the last one short
        if not lines:  # killed before it had even loaded: it wrote nothing
            outcomes["before loading"] = outcomes.get("before loading", 0) + 1
            continue
        assert lines[0].startswith("loaded "), (run, out, err)
        _, found, notice, position = lines[0].split(" ", 3)
        found = int(found)
        if found == -1:
            assert last_saved == 0 or size_after_kill < BLOCK, (run, last_saved)
            assert notice == "0"  # an emptied file reads as a new board
            outcomes["fresh"] += run > 0
        else:
            assert found in (last_saved, last_saved + 1), (run, found, last_saved)
            assert notice == ("0" if size_after_kill in (0, BLOCK) else "2"), (run, size_after_kill)
            assert position == positions[found % LINE]
            outcomes["last" if found == last_saved else "under way"] += 1
            outcomes["half written"] += size_after_kill == SLOT_B
        saved = [int(line.split()[1]) for line in lines[1:] if line.startswith("saved ")]
        last_saved = saved[-1] if saved else max(found, 0)
        size_after_kill = nvm_file.stat().st_size if nvm_file.exists() else 0
    if folder != tmp_path:
        shutil.rmtree(folder)
    assert outcomes["last"] + outcomes["under way"] >= runs // 4, outcomes
    assert time.monotonic() - started < 120
    print("outcomes of", runs, "kills:", outcomes)


@pytest.mark.vm
def test_the_crash_script_runs_from_mpy_like_a_board(vm, mpy_cross, tmp_path):
    tree = mpy_tree(mpy_cross, tmp_path / "board")
    shutil.copy(CRASH, tmp_path / "crash.py")
    env = {"CIRCUITPY_NVM_FILE": str(tmp_path / "nvm.bin")}
    process = subprocess.Popen(
        [vm.binary, "-X", "heapsize=64K", str(tmp_path / "crash.py")],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "MICROPYPATH": str(tree), **env},
    )
    time.sleep(0.5)
    process.kill()
    lines = process.communicate()[0].splitlines()
    assert lines[0] == "loaded -1 0 -" and len(lines) > 5


# ------------------------------------------------ records made to break, on the VM

PLAY_THEN_MENU = "a up a a start"  # the cards, two deals from the stock, the menu


@pytest.fixture(scope="module")
def booting_tree(vm, mpy_cross, tmp_path_factory):
    """A PyGamer's tree (.mpy) with store_boot.py beside its code.py."""
    tree = board_tree(tmp_path_factory.mktemp("board"), mpy_cross)
    shutil.copy(BOOT, tree / "store_boot.py")
    return tree


def power_on(vm, tree, nvm_file, keys, **env):
    """store_boot.py on the VM: (the notice the title was given, None if no
    title showed, and the output)."""
    env = {"CIRCUITPY_NVM_FILE": str(nvm_file), "BSQ_KEYS": keys, **env}
    result = vm.run("store_boot.py", path=(), cwd=tree, heap="128K", env=env)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    notices = [line.split()[-1] for line in result.stdout.splitlines() if line.startswith("title")]
    assert len(notices) <= 1, result.stdout
    return (int(notices[0]) if notices else None), result.stdout


def nvm_holding(path, record):
    path.write_bytes(record + b"\xff" * (BLOCK - len(record)))
    return path


@pytest.mark.vm
@pytest.mark.parametrize(
    "name", sorted(NONSENSE) + [START_32767, BAD_STOCK, UNION_AS_AMERICAN, "load", "start"]
)
def test_a_record_made_to_break_starts_a_new_game_on_the_vm_and_the_next_save_is_good(
    vm, booting_tree, tmp_path, name
):
    nvm_file = tmp_path / "nvm"
    fail = {}
    if name in ("load", "start"):  # a good record, and the heap running out over it
        nvm_holding(nvm_file, forged(HAS_GAME, bytes(valid_body(Game.new_deal(4, 2)))))
        fail = {"BSQ_FAIL": name}
        game = Game.new_deal(4, 2)
        game.play(legal_moves(game)[-1])
        store = Store(bytearray(b"\xff" * BLOCK))
        store.save(game, 30, 1)
        nvm_file.write_bytes(bytes(store.nvm))
    else:
        nvm_holding(nvm_file, bad_record(name))
    notice, out = power_on(vm, booting_tree, nvm_file, PLAY_THEN_MENU, **fail)
    assert notice == 1  # NOTICE_UNREADABLE: "Saved game unreadable"
    assert reported(out, "saves") == "1"  # the menu: the session's first save point
    store = Store(bytearray(nvm_file.read_bytes()))
    game = load(store)
    assert store.notice == 0 and game.history_end == 2 and game.rules == 0  # fresh, British
    assert store.stats.data == bytes(STATS_SIZE)  # nothing of the record that broke


@pytest.mark.vm
@pytest.mark.parametrize("rules", [0, 1, 2])
def test_a_start_position_naming_its_deal_resumes_on_the_vm(vm, booting_tree, tmp_path, rules):
    # the loader checks it against its deal there (a MemoryError or any other
    # exception in it would have started a new game saying so: notice 1)
    record = forged(HAS_GAME | HAS_START, bytes(start_body(started_after(4, rules))))
    notice, out = power_on(vm, booting_tree, nvm_holding(tmp_path / "nvm", record), "a")
    assert notice == 0 and reported(out, "saves") == "0"
    assert "play" in reported(out, "screens").split()


@pytest.mark.vm
def test_a_record_at_the_sequence_limit_is_followed_on_the_vm(vm, booting_tree, tmp_path):
    record = forged(HAS_GAME, bytes(valid_body(one_back(Game.new_deal(6)))), sequence=LAST_SEQUENCE)
    nvm_file = nvm_holding(tmp_path / "nvm", record)
    notice, out = power_on(vm, booting_tree, nvm_file, PLAY_THEN_MENU)
    assert notice == 0 and reported(out, "saves") == "1"
    store = Store(bytearray(nvm_file.read_bytes()))
    assert load(store).history_end == 2 and store.sequence == 1 and store.notice == 0


# ------------------------------------------- the first start, and older records


@pytest.mark.vm
def test_a_new_board_offers_the_rule_sets_then_how_to_play_once_on_the_vm(
    vm, booting_tree, tmp_path
):
    from screen_check import fitted, load_raw, text_mismatches

    from british_square.layout import BODY_X, FOOTER_Y, TEXT_COLUMNS
    from british_square.sheet import TEXT_GREY

    nvm_file = tmp_path / "nvm"  # no file: a new board's erased NVM
    env = {"BSQ_SHOTS": str(tmp_path)}
    # the rule sets first (up, A: Union Square, from the bar's first place, British
    # Square: a new deal), then the keys' help, then the game chosen; a save
    # waits for a turn with no press, as a player's next press leaves
    keys = "shot:choice up a wait:50 shot:first b shot:cards a"
    notice, out = power_on(vm, booting_tree, nvm_file, keys, **env)
    assert notice is None and reported(out, "screens").split() == ["play", "help", "first"]
    # kept at once, so that it is shown once: the choice and leaving the help
    # are save points, each a save (twice in a board's life)
    assert reported(out, "saves") == "2"
    footer = fitted(body("title_words")[-1], TEXT_COLUMNS, centred=True)  # "Any key: go on"
    first = load_raw(tmp_path / "first.rgb565")
    assert text_mismatches(first, BODY_X, FOOTER_Y, footer, TEXT_GREY) == 0
    assert text_mismatches(load_raw(tmp_path / "cards.rgb565"), BODY_X, FOOTER_Y, footer, TEXT_GREY)
    store = Store(bytearray(nvm_file.read_bytes()))
    assert load(store) is None and store.notice == 0 and store.sequence == 2  # a record
    assert store.settings.rules == UNION  # the rule set chosen, kept
    # the next power-on: the title at once
    notice, out = power_on(vm, booting_tree, nvm_file, "a")
    assert notice == 0 and not {"help", "first"} & set(reported(out, "screens").split())


@pytest.mark.vm
def test_a_record_from_before_four_colour_suits_resumes_on_the_vm_and_is_kept(
    vm, booting_tree, tmp_path
):
    nvm_file = nvm_holding(tmp_path / "nvm", V1_RECORD)
    notice, out = power_on(vm, booting_tree, nvm_file, "a sel start")  # an undo, the menu
    assert notice == 0 and "help" not in reported(out, "screens").split()
    assert reported(out, "saves") == "1"
    store = Store(bytearray(nvm_file.read_bytes()))
    game = load(store)
    # the save, in slot B, of the version written now (the record's magic, then its version)
    assert nvm_file.read_bytes()[SLOT_B : SLOT_B + 5] == MAGIC + bytes([VERSION])
    expected = v1_record_game()
    expected.undo()
    assert position_text(game) == position_text(expected)
    s = store.settings
    assert (s.rules, s.autoplay, s.sound, s.winnable_only, s.brightness) == (
        1,
        True,
        False,
        True,
        60,
    )
    assert not s.four_colours


@pytest.mark.vm
def test_four_colour_suits_kept_are_drawn_at_power_on_on_the_vm(vm, booting_tree, tmp_path):
    from screen_check import Sprites, expected_screen, load_raw, mismatches

    game = Game.new_deal(7)
    game.play(legal_moves(game)[0])
    store = Store(bytearray(b"\xff" * BLOCK))
    store.settings.four_colours = True
    store.save(game, 10, 0)
    nvm_file = tmp_path / "nvm"
    nvm_file.write_bytes(bytes(store.nvm))
    notice, _ = power_on(vm, booting_tree, nvm_file, "a shot:kept", BSQ_SHOTS=str(tmp_path))
    screen = load_raw(tmp_path / "kept.rgb565")
    assert notice == 0
    assert mismatches(screen, expected_screen(game, Sprites(four_colours=True))) == {}


# ------------------------------------------------------------- a day, on the VM


def session_keys(minutes):
    """An American deal played ``minutes`` on a virtual clock: a card dealt
    and taken back in turn every two seconds (the cursor on the stock), the
    menu every five minutes."""
    five = "a wait:2000 sel wait:2000 " * 75 + "start wait:1000 b "
    return "a right right right right " + five * (minutes // 5)


@pytest.mark.vm
@pytest.mark.parametrize("battery", ["", "3400"])
def test_a_day_of_two_one_hour_sessions_on_the_vm_writes_once_a_session(
    vm, booting_tree, tmp_path, battery
):
    """Two power-ons of an hour each on one NVM file: the first save point of
    each saves, the hour after it is not over before the session ends; a
    battery low all along costs nothing more (its save is that first one).
    Each run also saves once at the end of its key script (App.run's end,
    which a board's loop never reaches): two a run in all."""
    # As a board runs: no options (their module's names would stay on the
    # heap); the key script from BSQ_KEYS_FILE, American deal 2 kept in the
    # NVM with a move played and taken back, as a record keeps a new game.
    nvm_file = tmp_path / "nvm"
    game = Game.new_deal(2, AMERICAN)
    game.play(legal_moves(game)[0])
    game.undo()
    env = dict(kept_game(nvm_file, game), BSQ_TURN_MS="100", BSQ_BATTERY_MV=battery)
    env["BSQ_KEYS_FILE"] = str(keys_file(tmp_path, session_keys(60)))
    assert MIN_INTERVAL_S == 3600
    for _ in range(2):
        result = vm.run_board(booting_tree, heap="128K", env=env)
        assert reported(result.stdout, "saves") == "2", result.stdout
    store = Store(bytearray(nvm_file.read_bytes()))
    # the kept game's record, then two writes a session
    assert load(store) is not None and store.sequence == 5 and store.notice == 0
