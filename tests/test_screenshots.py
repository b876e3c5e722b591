"""tools/screenshots.py, the maker of the README's and docs/' screenshots:
its own refusals."""

import subprocess
import sys

from conftest import ROOT
from refusals import refused


def test_an_out_folder_that_cannot_be_one_is_one_error_line(tmp_path):
    """Issue 50.10: --out under a file (or a file) was a traceback."""
    (tmp_path / "afile").write_text("mine")
    for out in ("afile/a", "afile"):
        result = subprocess.run(
            [sys.executable, str(ROOT / "tools" / "screenshots.py"), "--out", out],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )
        assert refused(result, "cannot write screenshots into {!r}".format(out)), result
    assert (tmp_path / "afile").read_text() == "mine"
