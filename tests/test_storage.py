"""hw/storage.py: the desktop's save file behaves like microcontroller.nvm."""

import sys

import pytest
from conftest import HW

from british_square.engine import Game
from british_square.resume import load
from british_square.store import Store

sys.path.insert(0, str(HW))
import storage  # noqa: E402  (hw/ is not a package)


def test_a_missing_file_reads_as_erased_flash_and_a_write_creates_it(tmp_path):
    path = tmp_path / "deep" / "save.nvm"
    nvm = storage.FileNVM(str(path))
    assert len(nvm) == 8192 and nvm[0:4] == b"\xff" * 4 and nvm[100] == 0xFF
    nvm[10:13] = b"abc"
    assert path.read_bytes()[10:13] == b"abc" and len(path.read_bytes()) == 8192
    assert storage.FileNVM(str(path))[8:14] == b"\xff\xffabc\xff"
    assert not (tmp_path / "deep" / "save.nvm.tmp").exists()


def test_a_short_file_reads_as_its_bytes_then_erased_flash(tmp_path):
    path = tmp_path / "save.nvm"
    path.write_bytes(b"\x01\x02")
    nvm = storage.FileNVM(str(path))
    assert nvm[0:4] == b"\x01\x02\xff\xff"


def test_a_slice_assignment_must_keep_the_length(tmp_path):
    nvm = storage.FileNVM(str(tmp_path / "save.nvm"))
    with pytest.raises(ValueError):
        nvm[0:4] = b"abc"
    assert not (tmp_path / "save.nvm").exists()  # nothing written


def test_a_store_on_the_save_file_resumes_the_game(tmp_path):
    path = str(tmp_path / "save.nvm")
    game = Game.new_deal(17)
    game.play(game.moves()[0])
    Store(storage.FileNVM(path)).save(game, 60, 0)
    store = Store(storage.FileNVM(path))
    resumed = load(store)
    assert resumed.history_count == 1 and store.seconds == 60


def test_the_default_save_file_is_in_the_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = storage.default_save_path()
    assert path.startswith(str(tmp_path)) and path.endswith("save.nvm")
