"""Shared test helpers: the repository paths and the CircuitPython VM tier.

The VM tier runs code under CircuitPython's own unix-port interpreter, found
through ``CIRCUITPYTHON_VM`` (``.ci/run`` points it at ``../shared/vm``),
with CircuitPython's compiler from ``MPY_CROSS``. Without them those tests
skip, each saying why, and the end of the run counts them.
"""

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "lib"
HW = ROOT / "hw"

sys.path.insert(0, str(LIB))

# Ctrl-C as from a terminal, however the run was started: a shell without job
# control starts a background command with SIGINT ignored, which its children
# inherit, and the tests that send it would find it ignored.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
VM_TOOLS = ("CIRCUITPYTHON_VM", "MPY_CROSS")
VM_UNSET = "CIRCUITPYTHON_VM is not set: CircuitPython VM tier skipped"
MPY_CROSS_UNSET = "MPY_CROSS is not set: CircuitPython mpy-cross tests skipped"


def grouped(n):
    """``n`` as the docs write a figure: thousands set apart by spaces ("1 246 046")."""
    return "{:,}".format(n).replace(",", " ")


def absolute_tool(value):
    """A tool's path as the environment gives it, made absolute once, from
    the folder pytest started in: tests start the VM and mpy-cross (and
    tools that read ``MPY_CROSS``) from other folders, a board's tree or a
    scratch one, where docs/testing.md's ``../shared/vm/bin/...`` names
    nothing. A bare name is looked up on PATH, as a shell would; an empty
    value, or a name PATH lacks, stays as it is."""
    if not value:
        return value
    if os.sep in value or (os.altsep and os.altsep in value):
        return os.path.abspath(value)
    found = shutil.which(value)
    return os.path.abspath(found) if found else value


for _name in VM_TOOLS:
    if os.environ.get(_name):
        os.environ[_name] = absolute_tool(os.environ[_name])
# pygame's window and mixer open on SDL's dummy drivers unless told otherwise:
# the tests need neither a screen nor a sound card
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


class CircuitPythonVM:
    """Runs scripts under CircuitPython's unix port with a fixed heap."""

    def __init__(self, binary, mpy_cross=None):
        self.binary = binary
        self.mpy_cross = mpy_cross

    def run(
        self, script, *args, heap="192K", path=(LIB,), env=None, cwd=None, timeout=600, check=True
    ):
        """Run ``script`` (a path); return the CompletedProcess (text output).

        ``path`` becomes ``MICROPYPATH`` so the script imports our modules
        the way the board does. ``check`` raises with the VM's output on a
        non-zero exit.
        """
        run_env = dict(os.environ)
        run_env["MICROPYPATH"] = ":".join(str(p) for p in path)
        run_env.update(env or {})
        result = subprocess.run(
            [self.binary, "-X", "heapsize=" + heap, str(script), *map(str, args)],
            capture_output=True,
            text=True,
            env=run_env,
            cwd=cwd,
            timeout=timeout,
        )
        if check and result.returncode != 0:
            raise AssertionError(
                "VM exited {}:\n{}\n{}".format(result.returncode, result.stdout, result.stderr)
            )
        return result

    def run_board(self, board, *args, **kwargs):
        """Run the ``code.py`` of a board tree as a board runs it: from the
        drive's root, by its bare name, with nothing else on the path. Then
        each module's ``__file__`` is the name deploy gave its ``.mpy`` (one
        interned string, as on a board); run by an absolute path, every
        module would intern a second one, about 1 KB, and tip the interpreter
        into its next string pool (4.5 KB more) that a board never needs."""
        return self.run("code.py", *args, path=(), cwd=board, **kwargs)

    def run_code(self, source, tmp_path, *args, **kwargs):
        """Write ``source`` to a script in ``tmp_path`` and run it."""
        script = Path(tmp_path) / "vm_script.py"
        script.write_text(source)
        return self.run(script, *args, **kwargs)


def _vm_or_reason():
    binary = os.environ.get("CIRCUITPYTHON_VM")
    if not binary:
        return None, VM_UNSET
    if not os.access(binary, os.X_OK):
        return None, "CIRCUITPYTHON_VM={} is not an executable".format(binary)
    return CircuitPythonVM(binary, os.environ.get("MPY_CROSS")), None


@pytest.fixture(scope="session")
def vm():
    """The CircuitPython VM, or a skip that says why there is none."""
    found, reason = _vm_or_reason()
    if found is None:
        pytest.skip(reason)
    return found


@pytest.fixture(scope="session")
def font():
    """The font of the apps made in process: Blinka's terminalio.FONT, whose
    glyphs are the board's (tests/test_ui_vm.py), laid out as the board's."""
    from app_harness import FakeHardware

    return FakeHardware.font


@pytest.fixture(scope="session")
def mpy_cross(vm):
    """CircuitPython's mpy-cross (``MPY_CROSS``), or a skip."""
    if not vm.mpy_cross or not os.access(vm.mpy_cross, os.X_OK):
        pytest.skip(MPY_CROSS_UNSET)
    return vm.mpy_cross


@pytest.fixture
def deadline():
    """``deadline(seconds)``: fail the test, not hang it, when a call blocks
    (a FIFO opened for reading waits for a writer for ever). Unix only."""
    import signal

    def expired(number, frame):
        raise TimeoutError("blocked: the deadline passed")

    previous = signal.signal(signal.SIGALRM, expired)
    yield signal.alarm
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def pytest_report_header(config):
    """The first lines of a run say whether the VM tier runs."""
    found, reason = _vm_or_reason()
    if found is None:
        return "CircuitPython VM tier: off, {} (docs/testing.md)".format(reason.split(":")[0])
    return "CircuitPython VM tier: {}; mpy-cross: {}".format(
        found.binary, found.mpy_cross or "MPY_CROSS is not set"
    )


def pytest_unconfigure(config):
    """The last line of a run counts the tests the VM tier skipped, and says
    how to run them (a literal ``make test`` skips them all)."""
    terminalreporter = config.pluginmanager.get_plugin("terminalreporter")
    if terminalreporter is None:
        return
    skipped = terminalreporter.stats.get("skipped", [])
    vm_tier = [
        report
        for report in skipped
        if isinstance(report.longrepr, tuple)
        and any(reason in str(report.longrepr[-1]) for reason in (VM_UNSET, MPY_CROSS_UNSET))
    ]
    if vm_tier:
        terminalreporter.write_line(
            "{} tests of the CircuitPython VM tier skipped: CIRCUITPYTHON_VM and MPY_CROSS "
            "name the VM and its mpy-cross (docs/testing.md)".format(len(vm_tier))
        )
