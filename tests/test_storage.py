"""hw/storage.py: the desktop's save file behaves like microcontroller.nvm."""

import os
import stat
import sys

import pytest
from conftest import HW, ROOT

from british_square.desktop.games import legal_moves
from british_square.engine import Game
from british_square.resume import load
from british_square.store import MAGIC, SLOT_B, Store

sys.path.insert(0, str(HW))
import storage  # noqa: E402  (hw/ is not a package)


def test_a_missing_file_reads_as_erased_flash_and_a_write_creates_it(tmp_path):
    path = tmp_path / "deep" / "save.nvm"
    nvm = storage.FileNVM(str(path))
    assert len(nvm) == 8192 and nvm[0:4] == b"\xff" * 4 and nvm[100] == 0xFF
    nvm[0:4] = MAGIC
    nvm[10:13] = b"abc"
    assert path.read_bytes()[10:13] == b"abc" and len(path.read_bytes()) == 8192
    assert storage.FileNVM(str(path))[8:14] == b"\xff\xffabc\xff"
    assert [p.name for p in path.parent.iterdir()] == ["save.nvm"]  # no temporary left


def saved_image(slot):
    """8 192 bytes as this game writes them: a record's magic in ``slot`` (0 or 4096)."""
    image = bytearray(b"\xff" * 8192)
    image[slot : slot + 4] = MAGIC
    image[slot + 4 : slot + 40] = bytes(range(36))
    return bytes(image)


@pytest.mark.parametrize(
    "held",
    [b"", saved_image(0), saved_image(SLOT_B), b"\xff" * 8192],
    ids=["empty", "slot A", "slot B", "erased"],
)
def test_a_file_this_game_wrote_is_read_and_kept(tmp_path, held):
    path = tmp_path / "save.nvm"
    path.write_bytes(held)
    nvm = storage.FileNVM(str(path))
    assert nvm[0:8192] == held + b"\xff" * (8192 - len(held))
    nvm[100:101] = b"\x01"
    assert path.read_bytes()[100] == 1


README = (ROOT / "README.md").read_bytes()


@pytest.mark.parametrize(
    "held, named",
    [
        (README, "not a save file of this game"),  # the copy of README.md, 64 KB
        (README[:8192], "not a save file of this game"),  # 8 KB, but not ours
        (b"\x01\x02", "not a save file of this game"),
        (bytes(8192), "not a save file of this game"),
        (saved_image(0) + b"\xff", "not a save file of this game"),  # one byte too long
        (saved_image(100), "not a save file of this game"),  # magic, but not at a slot
    ],
)
def test_a_file_this_game_did_not_write_is_refused_and_left_as_it_is(tmp_path, held, named):
    path = tmp_path / "notes.md"
    path.write_bytes(held)
    with pytest.raises(ValueError, match=named):
        storage.FileNVM(str(path))
    assert path.read_bytes() == held
    assert [p.name for p in tmp_path.iterdir()] == ["notes.md"]


def test_a_folder_a_link_a_fifo_or_a_device_is_refused_and_never_opened(tmp_path, deadline):
    deadline(20)
    target = tmp_path / "target.nvm"
    (tmp_path / "link.nvm").symlink_to(target)  # its target never written
    os.mkfifo(tmp_path / "fifo.nvm")  # opened, it would wait for a writer for ever
    (tmp_path / "folder.nvm").mkdir()
    (tmp_path / "file").write_text("x")
    for path, named in [
        (tmp_path / "link.nvm", "a symbolic link"),
        (tmp_path / "fifo.nvm", "a FIFO"),
        (tmp_path / "folder.nvm", "a folder"),
        ("/dev/null", "a device"),
        (tmp_path / "file" / "save.nvm", "Not a directory"),
    ]:
        with pytest.raises(ValueError, match=named):
            storage.FileNVM(str(path))
    assert not target.exists() and (tmp_path / "link.nvm").is_symlink()
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo.nvm").st_mode)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_a_folder_no_file_can_be_made_in_is_refused_at_once():
    with pytest.raises(ValueError, match="cannot write '/proc/save.nvm'"):
        storage.FileNVM("/proc/save.nvm")


def test_the_temporary_file_never_takes_a_name_of_the_users(tmp_path):
    path = tmp_path / "save.nvm"
    (tmp_path / "save.nvm.tmp").write_text("the user's own file")
    storage.FileNVM(str(path))[0:4] = MAGIC
    assert (tmp_path / "save.nvm.tmp").read_text() == "the user's own file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.nvm", "save.nvm.tmp"]


def test_a_file_put_in_place_of_the_save_during_play_is_left_as_it_is(tmp_path, capsys):
    path = tmp_path / "save.nvm"
    nvm = storage.FileNVM(str(path))
    nvm[0:4] = MAGIC
    path.write_bytes(README)  # the player copies a file over it while the game runs
    nvm[4:5] = b"\x01"
    nvm[5:6] = b"\x01"
    assert path.read_bytes() == README
    err = capsys.readouterr()
    assert err.out == ""  # errors go to standard error, said once
    assert err.err.count("\n") == 1 and err.err.startswith("error: the game is not saved: ")


def test_a_save_that_fails_says_so_once_on_standard_error(tmp_path, capsys):
    folder = tmp_path / "gone"
    nvm = storage.FileNVM(str(folder / "save.nvm"))
    folder.rmdir()
    (tmp_path / "gone").write_text("now a file where the folder was")
    nvm[0:4] = MAGIC
    nvm[0:4] = MAGIC
    err = capsys.readouterr()
    assert err.out == "" and err.err.count("\n") == 1
    assert err.err.startswith("error: the game is not saved: cannot write ")


def test_a_slice_assignment_must_keep_the_length(tmp_path):
    nvm = storage.FileNVM(str(tmp_path / "save.nvm"))
    with pytest.raises(ValueError):
        nvm[0:4] = b"abc"
    assert not (tmp_path / "save.nvm").exists()  # nothing written


def test_a_store_on_the_save_file_resumes_the_game(tmp_path):
    path = str(tmp_path / "save.nvm")
    game = Game.new_deal(17)
    game.play(legal_moves(game)[0])
    Store(storage.FileNVM(path)).save(game, 60, 0)
    store = Store(storage.FileNVM(path))
    resumed = load(store)
    assert resumed.history_count == 1 and store.seconds == 60


def test_the_default_save_file_is_in_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = storage.default_save_path()
    assert path.startswith(str(tmp_path)) and path.endswith("save.nvm")
