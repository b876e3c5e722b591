"""``code.py`` on the desktop against hostile paths, signals and output streams
(issue 19): a path it may not write is refused in one line before the game
starts and left as it was; SIGTERM and SIGINT end a game at once, kept;
standard output carries the game's output only."""

import os
import select
import signal
import subprocess
import sys
import time

import pytest
from conftest import HW, ROOT
from refusals import refused
from scripting import ScriptWriter
from sessions import ABOUT_ROW
from ui_runs import CODE, load_code_py, position_line, run_desktop

from british_square.desktop.notation import position_text
from british_square.engine import Game

sys.path.insert(0, str(HW))
import storage  # noqa: E402  (hw/ is not a package)

README = (ROOT / "README.md").read_bytes()
LINUX = sys.platform.startswith("linux")


def code_py(*args, env=None, timeout=60, **kwargs):
    """``code.py --headless`` as a user runs it, with SDL's dummy drivers."""
    run_env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", **(env or {}))
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run(
        [sys.executable, str(CODE), "--headless", *map(str, args)],
        text=True,
        timeout=timeout,
        env=run_env,
        cwd=ROOT,
        **streams,
    )


def files_in(folder):
    return sorted(p.name for p in folder.iterdir())


def start(command, env, cwd):
    """``command`` under way, its output and errors read as text."""
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd
    )


# ------------------------------------------------------------------ --save


def test_issue_19_a_copy_of_the_readme_given_as_the_save_file_is_left_as_it_is(tmp_path):
    notes = tmp_path / "n.md"
    notes.write_bytes(README)
    shot = tmp_path / "end.png"
    result = code_py(
        "--deal", "3", "--save", notes, "--keys", "a b up a a start", "--shot", shot
    )  # fmt: skip
    assert refused(result, "is not a save file of this game"), result
    assert notes.read_bytes() == README
    assert files_in(tmp_path) == ["n.md"]  # refused before the game: no screenshot either


@pytest.mark.parametrize("kind", ["symlink", "fifo", "folder", "device", "under a file"])
def test_a_save_path_that_is_not_a_file_is_refused_before_the_game(tmp_path, kind):
    target = tmp_path / "target"
    path = tmp_path / "save.nvm"
    if kind == "symlink":
        path.symlink_to(target)
    elif kind == "fifo":
        os.mkfifo(path)  # a read or a write would wait for ever
    elif kind == "folder":
        path.mkdir()
    elif kind == "device":
        path = "/dev/null"
    else:
        target.write_text("a file")
        path = target / "save.nvm"
    before = files_in(tmp_path)
    result = code_py("--deal", "3", "--save", path, "--keys", "a a", "--shot", tmp_path / "x.png")
    assert refused(result, str(path)), result
    assert files_in(tmp_path) == before and not (kind == "symlink" and target.exists())


def test_the_temporary_save_file_leaves_a_file_of_that_name_alone(tmp_path):
    save = tmp_path / "save.nvm"
    (tmp_path / "save.nvm.tmp").write_bytes(README)
    first = run_desktop(["--deal", "5", "--save", save, "--keys", "a up a a start"])
    assert (tmp_path / "save.nvm.tmp").read_bytes() == README
    assert files_in(tmp_path) == ["save.nvm", "save.nvm.tmp"]
    again = run_desktop(["--save", save, "--keys", "a", "--shot", tmp_path / "again.png"])
    assert position_line(again.stdout) == position_line(first.stdout)


# ------------------------------------------------------------------ --shot


@pytest.mark.parametrize(
    "kind, named",
    [
        ("under a file", "Not a directory"),
        ("a folder named x.png", "is a folder"),
        ("a FIFO named x.png", "is a FIFO"),
        ("a text named x.png", "is not a PNG file"),
        ("/proc/x.png", "cannot write '/proc/x.png'"),
        ("a file as the folder", "is not a folder"),
        ("a FIFO as final.png", "is a FIFO"),
    ],
)
def test_a_screenshot_path_that_cannot_be_written_is_refused_before_the_game(tmp_path, kind, named):
    shot = tmp_path / "x.png"
    if kind == "under a file":
        (tmp_path / "file").write_text("a file")
        shot = tmp_path / "file" / "x.png"
    elif kind == "a folder named x.png":
        shot.mkdir()
    elif kind == "a FIFO named x.png":
        os.mkfifo(shot)
    elif kind == "a text named x.png":
        shot.write_bytes(README)
    elif kind == "/proc/x.png":
        if not LINUX:
            pytest.skip("Linux's /proc")
        shot = "/proc/x.png"
    elif kind == "a file as the folder":
        shot = tmp_path / "shots"
        shot.write_bytes(README)
    else:
        shot = tmp_path / "shots"
        shot.mkdir()
        os.mkfifo(shot / "final.png")
    before = files_in(tmp_path)
    save = tmp_path / "save.nvm"
    result = code_py("--deal", "3", "--keys", "a shot:one", "--shot", shot, "--save", save)
    assert refused(result, named), result
    assert files_in(tmp_path) == before  # nothing made: no save, no screenshot
    if kind == "a text named x.png":
        assert shot.read_bytes() == README


def test_a_screenshot_that_fails_during_play_stops_the_game_in_one_line_kept(tmp_path):
    shots = tmp_path / "shots"
    shots.mkdir()
    os.mkfifo(shots / "blocked.png")  # a FIFO where the script's second shot goes
    writer = ScriptWriter(Game.new_deal(3))
    writer.play_some(4)
    writer.shot("first")
    writer.shot("blocked")
    script = writer.text() + " right*9999 wait:999999"
    save = tmp_path / "save.nvm"
    started = time.monotonic()
    result = code_py("--deal", "3", "--keys", script, "--shot", shots, "--save", save)
    assert time.monotonic() - started < 30
    lines = result.stderr.splitlines()
    assert result.returncode == 2 and len(lines) == 1, result
    assert lines[0].startswith("error: ") and "blocked.png' is a FIFO" in lines[0]
    assert files_in(shots) == ["blocked.png", "first.png"]  # no more screenshots after
    again = code_py("--save", save, "--keys", "a")  # the game was kept as it stood
    assert position_line(again.stdout) == position_line(result.stdout)


# --------------------------------------------------------------- --keys-file


def test_a_fifo_or_a_folder_as_the_key_file_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "keys")
    result = code_py("--keys-file", tmp_path / "keys", timeout=30)
    assert refused(result, "is not a regular file"), result
    assert refused(code_py("--keys-file", tmp_path), "is not a regular file")


def test_a_key_file_of_random_bytes_is_one_error_line(tmp_path):
    keys = tmp_path / "keys"
    keys.write_bytes(os.urandom(1 << 20))
    assert refused(code_py("--keys-file", keys), "key script")


@pytest.mark.parametrize("name", ["--save", "--shot", "--keys-file"])
def test_an_empty_path_is_refused(name):
    assert refused(code_py("--deal", "3", name, ""), name)


@pytest.mark.parametrize("name", ["--save", "--shot", "--save folder", "--keys-file"])
def test_a_path_with_a_line_break_is_named_quoted_in_one_line(tmp_path, name):
    # issue 37: the error: line ran over two
    path = tmp_path / "two\nlines"
    if name == "--shot":
        path.write_text("my notes")  # not a folder, nor a .png file
    elif name == "--save folder":
        name = "--save"
        path.mkdir()  # a folder, not a save file
    else:
        path.write_text("my notes")
        path = path / "save.nvm"  # under a file
    result = code_py("--deal", "3", name, path, "--keys", "a")
    assert refused(result, repr(str(path))), result


def test_rules_that_are_not_the_positions_are_refused():
    position = "british 5H/9C/-/- 2C - 0,0,0,0"
    assert refused(code_py("--rules", "union", "--position", position), "--rules union")
    same = code_py("--rules", "british", "--position", position, "--keys", "a")
    assert same.returncode == 0 and position_line(same.stdout) == position


@pytest.mark.parametrize("value", [" 5", "1_0", "\uff15", "5 "])
def test_a_fake_battery_in_anything_but_ascii_digits_is_refused(value):
    result = code_py("--deal", "3", env={"BSQ_BATTERY_MV": value})
    assert refused(result, "BSQ_BATTERY_MV is not a whole number"), result


# ----------------------------------------------------------------- signals


def long_script():
    """Moves that leave a game to keep, a screenshot to say the game is under
    way, then presses and a wait that would last 17 minutes and more."""
    writer = ScriptWriter(Game.new_deal(3))
    writer.play_some(6)
    writer.shot("started")
    return writer.text() + " " + "right left " * 50000 + "wait:999999"


def wait_for(path, process, seconds=60):
    end = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < end, "no " + str(path)
        time.sleep(0.05)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_a_headless_game_at_once_and_keeps_it(tmp_path, number):
    keys = tmp_path / "keys.txt"
    keys.write_text(long_script())
    save = tmp_path / "save.nvm"
    shots = tmp_path / "shots"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    command = [sys.executable, str(CODE), "--headless", "--deal", "3", "--keys-file", str(keys)]
    process = start(command + ["--shot", str(shots), "--save", str(save)], env, ROOT)
    try:
        wait_for(shots / "started.png", process)
        sent = time.monotonic()
        process.send_signal(number)
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert time.monotonic() - sent < 10
    assert process.returncode == 128 + number, err
    assert err == "" and "Traceback" not in out
    assert (shots / "final.png").exists()  # ended as a finished script ends
    again = code_py("--save", save, "--keys", "a")  # the game was kept as it stood
    assert position_line(again.stdout) == position_line(out)
    assert position_line(out) != position_line(code_py("--deal", "3", "--keys", "a").stdout)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_a_game_in_a_window_as_closing_it_does(monkeypatch, tmp_path, number):
    """In process, on SDL's dummy driver: keys that make a move, then the
    signal (sent to this process by the loop's idle, once the keys are
    taken): the loop ends, the game is kept, the signals are put back."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":fake")
    monkeypatch.syspath_prepend(str(HW))
    import desktop
    import displayio
    import pygame

    displayio.release_displays()  # Blinka takes one display a process: an earlier test's goes
    before = signal.getsignal(number)
    save = tmp_path / "save.nvm"
    hardware = desktop.Hardware({"deal": 5, "save": str(save)})
    assert not hardware.headless
    writer = ScriptWriter(Game.new_deal(5))
    writer.play_some(1)
    keys = {"a": pygame.K_z, "b": pygame.K_x, "up": pygame.K_UP, "down": pygame.K_DOWN,
            "left": pygame.K_LEFT, "right": pygame.K_RIGHT}  # fmt: skip
    for word in writer.text().split():
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=keys[word]))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=keys[word]))
    turns = []
    window_idle = hardware.idle

    def idle(resting):
        turns.append(resting)
        if len(turns) == 100:  # the keys are long taken: a signal, as from a terminal
            os.kill(os.getpid(), number)
        assert len(turns) < 200, "the signal did not stop the game"
        window_idle(resting)

    hardware.idle = idle
    game = load_code_py().run_session(hardware, {"deal": 5}, Game.new_deal(5))
    assert hardware.status == 128 + number and len(turns) <= 102
    assert game.history_count == 1 and signal.getsignal(number) == before
    from british_square.resume import load
    from british_square.store import Store

    kept = load(Store(storage.FileNVM(str(save))))
    assert kept is not None and position_text(kept) == position_text(game)
    displayio.release_displays()


@pytest.mark.skipif(not LINUX, reason="a window on SDL's dummy driver, DISPLAY faked")
def test_a_window_run_without_options_prints_its_position_when_a_signal_ends_it(
    monkeypatch, tmp_path, capsys
):
    """``python3 code.py`` alone, as a player starts it, in process: SIGTERM
    once the game is under way ends it as closing the window does, its
    position printed (issue 37: a run without options printed none)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":fake")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the default save goes here
    monkeypatch.syspath_prepend(str(HW))
    import desktop
    import displayio
    import options

    # the report lets the game's modules go, for the heap of a VM's run: not
    # in this process, whose other tests hold them
    monkeypatch.setattr(options, "unload", lambda *names: None)
    displayio.release_displays()  # Blinka takes one display a process: an earlier test's goes
    turns = []
    window_idle = desktop.Hardware.idle

    def idle(hardware, resting):
        turns.append(resting)
        if len(turns) == 50:  # the game under way: a signal, as from a session's end
            os.kill(os.getpid(), signal.SIGTERM)
        assert len(turns) < 150, "the signal did not stop the game"
        window_idle(hardware, resting)

    monkeypatch.setattr(desktop.Hardware, "idle", idle)
    capsys.readouterr()
    status = load_code_py().main([])
    out, err = capsys.readouterr()
    displayio.release_displays()
    assert status == 128 + signal.SIGTERM and err == ""
    assert out.splitlines() == ["position: " + position_line(out)]


@pytest.mark.skipif(not LINUX, reason="a window on SDL's dummy driver, DISPLAY faked")
def test_a_window_whose_save_folder_holds_a_foreign_file_plays_unsaved_and_stops_on_sigint(
    tmp_path,
):
    """The default save path (a window, no --save): a file there that this game
    did not write is left as it is; the window plays without saving, says so
    in one line, and SIGINT closes it as the window's close does."""
    data = tmp_path / "data"
    foreign = data / "british-square" / "save.nvm"
    foreign.parent.mkdir(parents=True)
    foreign.write_bytes(README[:8192])
    env = dict(
        os.environ,
        DISPLAY=":fake",
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        XDG_DATA_HOME=str(data),
        HOME=str(tmp_path),
    )
    process = start([sys.executable, str(CODE), "--deal", "3"], env, tmp_path)
    try:
        ready, _, _ = select.select([process.stderr], [], [], 60)
        assert ready, "no line about the save file"
        told = process.stderr.readline()
        time.sleep(2)  # the window opens; before it has, SIGINT ends the run as quietly
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert told.startswith("error: ") and str(foreign) in told and "without saving" in told
    assert err == "" and process.returncode == 130
    assert foreign.read_bytes() == README[:8192]
    assert files_in(foreign.parent) == ["save.nvm"]


# ---------------------------------------------------------- output streams


def test_standard_output_holds_the_games_output_only(tmp_path):
    """No "WARNING: GENERIC_X86 is not fully supported" from Blinka: the
    position line alone, and nothing on standard error."""
    result = run_desktop(["--deal", "3", "--keys", "a", "--shot", tmp_path / "x.png"])
    assert result.stdout.splitlines() == ["position: " + position_line(result.stdout)]
    assert result.stderr == ""


def test_the_about_screens_console_line_goes_to_standard_error(tmp_path):
    """What a board prints on its serial console on opening About is not the
    game's output here (issue 37: it was on standard output)."""
    keys = "a start " + "down " * ABOUT_ROW + "a"
    result = run_desktop(["--deal", "3", "--keys", keys, "--shot", tmp_path / "x.png"])
    assert result.stdout.splitlines() == ["position: " + position_line(result.stdout)]
    about = result.stderr.splitlines()
    assert len(about) == 1 and about[0].startswith("about: 0.1.0, desktop, "), result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_standard_output_is_one_error_line(tmp_path):
    with open("/dev/full", "w") as full:
        result = code_py("--deal", "3", "--keys", "a", "--shot", tmp_path / "x.png", stdout=full)
    assert result.returncode == 2
    assert result.stderr == "error: cannot write to standard output: No space left on device\n"


def test_a_shell_closed_pipe_or_closed_output_does_not_stop_the_game(tmp_path):
    """A window started from a menu may have no standard output: it plays."""
    shell = '"$0" "$1" --headless --deal 3 --keys a --shot "$2" >&-'
    result = subprocess.run(
        ["sh", "-c", shell, sys.executable, str(CODE), str(tmp_path / "x.png")],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"),
    )
    assert result.returncode == 0 and result.stderr == ""
    assert (tmp_path / "x.png").exists()


# ------------------------------------------------------ a damaged install


def damaged_tree(tmp_path, file, how):
    """The desktop's game (code.py, hw/, lib/british_square/) copied, with
    ``file`` (under lib/british_square) gone or, ``how`` "fifo", a FIFO."""
    import shutil

    tree = tmp_path / "game"
    skip = shutil.ignore_patterns("__pycache__")
    tree.mkdir()
    shutil.copy(CODE, tree / "code.py")
    shutil.copytree(HW, tree / "hw", ignore=skip)
    package = tree / "lib" / "british_square"
    shutil.copytree(ROOT / "lib" / "british_square", package, ignore=skip)
    (package / file).unlink()
    if how == "fifo":
        os.mkfifo(package / file)
    return tree


@pytest.mark.skipif(not LINUX, reason="FIFOs, and the desktop's own remedy")
@pytest.mark.parametrize(
    ("file", "how", "said"),
    [
        ("words.txt", "missing", "words.txt is damaged"),
        ("words.txt", "fifo", "words.txt is damaged"),  # issue 50: start-up waited for ever
        ("cards.bmp", "fifo", "cards.bmp is damaged"),
        ("resume.py", "missing", "resume.py is missing"),  # issue 50: the save was reset
        ("deal_entry.py", "missing", "deal_entry.py is missing"),  # issue 50: a traceback
    ],
)
def test_a_damaged_install_on_the_desktop_is_one_line_with_its_remedy_and_the_save_kept(
    tmp_path, file, how, said
):
    # issue 50: the desktop said a board's remedy, "make deploy mends it"
    tree = damaged_tree(tmp_path, file, how)
    save = tmp_path / "save.nvm"
    first = code_py("--deal", "5", "--keys", "a up a a start", "--save", save)
    assert first.returncode == 0, first.stderr
    before = save.read_bytes()
    result = subprocess.run(
        [sys.executable, str(tree / "code.py"), "--headless", "--keys", "a", "--save", str(save)],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"),
        cwd=tree,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines() == [said + ": git checkout lib mends it"]
    assert result.stdout == "" and save.read_bytes() == before
