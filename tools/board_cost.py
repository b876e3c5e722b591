"""What a key script costs a board, turn by turn of the game's loop.

Three runs of the same script under CircuitPython's VM, as deploy puts the
game on a PyGamer (``.mpy``, no options, the save in an NVM file), each on
the adapter's virtual clock (``BSQ_TURN_MS``: a fixed step at each reading,
no sleep), so every run takes the same turns; the VM adapter marks the end
of each turn (``BSQ_TURN_MARK``, hw/vm.py):

- **the VM's instructions** (valgrind's callgrind, one dump a turn at the
  mark, a C function the game never calls): what the SAMD51 runs, at the
  pystone calibration's ns an instruction, less the heap frames only the
  VM takes (``frame_instructions``: a board's functions take theirs from
  its pystack);
- **the flash** (strace of the file calls, cut at a marker file the adapter
  tries to open, replayed through CircuitPython's own FatFs on a
  PyGamer-formatted drive by ``../shared/vm/flash``, counted by callgrind):
  what a board runs and waits for that the VM does not, by that folder's
  README's method: FatFs's instructions less the VM's own POSIX wrappers
  for the same calls, and 30 us a sector read;
- **the display bus** (gdb, a breakpoint where displayio fills each piece
  of a dirty area, another at the mark): the pixels a refresh sends and the
  pieces it sends them in. A board's ST7735R takes 16 bits a pixel and a
  window of 11 bytes (CASET, RASET, RAMWR) a piece, at 24 MHz (the SPI
  clock measured on a PyBadge, PLATFORM.md): 13.65 ms for the pixels of a
  full frame, 14.1 ms with its 128 pieces. The bus's CPU time besides the
  bytes (a board's ``busdisplay`` transactions) is not priced: the VM's
  copy into its framebuffer stands in for it.

The C functions are found in the VM binary by calibration
(``Probes``), since it has no symbols: scripts that call each a known
number of times, under callgrind and then gdb.

Needs valgrind, strace, gdb and a 32-bit gcc (to build ``fatreplay``);
installed with apt-get when missing and run as root, else it says how.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLASH_SRC = ROOT.parent / "shared" / "vm" / "flash"
HEAP = "150K"  # about what a PyGamer has free after boot
TURN_MS = 20  # the virtual clock's step at each reading

# The board's figures (PLATFORM.md; ../shared/vm/flash/README.md)
SECTOR_US = 30.0  # a 512-byte QSPI read, status and quad read at 40 MHz
SPI_HZ = 24_000_000
PIXEL_BYTES = 2  # RGB565
WINDOW_BYTES = 11  # CASET 1 + 4, RASET 1 + 4, RAMWR 1: before each piece
# The VM's own wrappers for the file calls fatreplay replays (static i386
# glibc, ../shared/vm/flash/README.md): already in the VM's count.
WRAPPER = {"seeks": 53, "reads": 32, "opens": 50, "failed_opens": 50, "closes": 50, "stats": 50}
# A frame from a board's pystack and back: mp_pystack_alloc's rounding,
# bounds check and bump, mp_pystack_free's reset (py/pystack.c, py/pystack.h).
PYSTACK_INSTRUCTIONS = 20
MARKER = re.compile(r"/bsq-turn/(\d+-\d+)$")
PACKAGES = {"valgrind": "valgrind", "strace": "strace", "gdb": "gdb"}


class ToolError(Exception):
    """A tool this needs is missing or failed: one line says which."""


def need(program, package=None):
    """The path of ``program``, installed from Debian's packages when missing and root."""
    found = shutil.which(program)
    if found:
        return found
    package = package or PACKAGES.get(program, program)
    if shutil.which("apt-get") and os.geteuid() == 0:
        print("board_cost: installing {} (apt-get) ...".format(package), file=sys.stderr)
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", package], capture_output=True,
                       check=False)  # fmt: skip
        found = shutil.which(program)
        if found:
            return found
    raise ToolError("needs {}: apt-get install {} (Debian, Ubuntu)".format(program, package))


def build_fatreplay(folder):
    """``../shared/vm/flash``'s replayer, built 32-bit into ``folder``."""
    out = Path(folder) / "fatreplay"
    if out.exists():
        return out
    if not (FLASH_SRC / "fatreplay.c").exists():
        raise ToolError("no {} (the board's file system, replayed)".format(FLASH_SRC))
    make = ["make", "-s", "-C", str(FLASH_SRC), "OUT=" + str(Path(folder).resolve())]
    result = subprocess.run(make, capture_output=True, text=True)
    if result.returncode and "libc-header-start" in result.stderr:  # no 32-bit libc headers
        need("i686-linux-gnu-gcc-12", "gcc-multilib")
        result = subprocess.run(make, capture_output=True, text=True)
    if result.returncode:
        raise ToolError("cannot build fatreplay (needs gcc-multilib): "
                        + result.stderr.strip().splitlines()[-1])  # fmt: skip
    return out


def call_counts(callgrind_out):
    """``{function: calls}`` from a callgrind output file (names are
    addresses in a binary without symbols)."""
    text = Path(callgrind_out).read_text()
    names = dict(re.findall(r"^c?fn=\((\d+)\) (\S+)", text, re.M))
    counts = {}
    callee = None
    for line in text.splitlines():
        if line.startswith("cfn="):
            callee = names.get(line[5 : line.index(")")])
        elif line.startswith("calls=") and callee:
            counts[callee] = counts.get(callee, 0) + int(line[6:].split()[0])
    return counts


def call_edges(callgrind_out):
    """``{(caller, callee): [calls, inclusive instructions]}`` from a
    callgrind output file; a function's recursion levels (``0x...'2``) as
    the function."""
    text = Path(callgrind_out).read_text()
    names = {k: v.split("'")[0] for k, v in re.findall(r"^c?fn=\((\d+)\) (\S+)", text, re.M)}
    edges = {}
    caller = callee = None
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("fn="):
            caller = names.get(line[4 : line.index(")")])
        elif line.startswith("cfn="):
            callee = names.get(line[5 : line.index(")")])
        elif line.startswith("calls=") and callee:
            edge = edges.setdefault((caller, callee), [0, 0])
            edge[0] += int(line[6:].split()[0])
            edge[1] += int(lines[k + 1].split()[-1])  # the call's line: position, then cost
    return edges


def frame_instructions(callgrind_out, frames, collect):
    """What the VM ran in a dump that a board does not: the frames of
    Python functions too big for its C stack (more than 11 words) taken
    from the heap and given back (a first-fit search of the heap, up to
    thousands of instructions a call), where a board's CircuitPython takes
    each from its pystack (``MICROPY_ENABLE_PYSTACK``: a few instructions,
    ``PYSTACK_INSTRUCTIONS``). A collection of the heap that such an
    allocation set off is a board's too (the board collects at another
    allocation instead): less the dump's collections, so never more."""
    edges = call_edges(callgrind_out)
    caller, allocate, free, heap_code = frames[0], frames[1], frames[2], set(frames[3:])
    calls = edges.get((caller, allocate), [0, 0])[0]
    heap = edges.get((caller, allocate), [0, 0])[1] + edges.get((caller, free), [0, 0])[1]
    # the collections an allocation set off (not an import's, nor gc.collect()'s)
    collect = set(collect)
    collections = sum(v[1] for (a, b), v in edges.items() if a in heap_code and b in collect)
    return max(0, heap - collections - calls * PYSTACK_INSTRUCTIONS)


def instructions(callgrind_out):
    found = re.search(r"^summary: (\d+)", Path(callgrind_out).read_text(), re.M)
    return int(found.group(1)) if found else 0


# Calibration scripts, run by the VM from the probes' folder.
FULL_FRAMES = """import sys, board, displayio, vectorio
frames = int(sys.argv[1])
display = board.DISPLAY
display.auto_refresh = False
felt = displayio.Palette(1)
root = displayio.Group()
root.append(vectorio.Rectangle(pixel_shader=felt, width=160, height=128))
display.root_group = root
for frame in range(frames):
    felt[0] = frame
    display.refresh()
"""
CIRCLES = """import sys, displayio, bitmaptools
bitmap = displayio.Bitmap(1, 1, 2)
for _ in range(int(sys.argv[1])):
    bitmaptools.draw_circle(bitmap, 0, 0, 0, 1)
"""
# A function whose frame (its locals and its stack, 13 words) is more than
# the 11 words the VM keeps on the C stack, and one whose frame is less.
BIG_FRAMES = """import sys
def big(a, b, c, d, e, f, g, h, i, j, k, l):
    return a
for _ in range(int(sys.argv[1])):
    big(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
"""
SMALL_FRAMES = BIG_FRAMES.replace("i, j, k, l)", "i)").replace(", 9, 10, 11, 12)", ", 9)")
COLLECTIONS = """import sys, gc
for _ in range(int(sys.argv[1])):
    gc.collect()
"""
GDB_FIRST_AREA = """set pagination off
break *{address}
commands
silent
printf "A %d %d %d %d\\n", {area}
kill
quit
end
run
"""
# the area a fill gets: its second argument (cdecl: the stack at entry)
AREA_ARG = ", ".join("((short*)(*(int*)($esp+8)))[{}]".format(i) for i in range(4))


class Probes:
    """Where, in the VM binary, displayio fills a piece of a dirty area
    (``displayio_display_core_fill_area``) and the turn mark's C function
    (``common_hal_bitmaptools_draw_circle``) begin: found by calibration,
    kept in ``folder`` for this binary."""

    def __init__(self, vm, folder, valgrind, gdb, game_calls):
        """``game_calls()``: the calls of each function in a run of the game
        through its screens, with no mark."""
        self.vm = vm
        self.folder = Path(folder)
        self.valgrind = valgrind
        self.gdb = gdb
        self.game_calls = game_calls
        digest = hashlib.sha256(Path(vm).read_bytes()).hexdigest()[:16]
        kept = self.folder / "probes-{}.json".format(digest)
        found = json.loads(kept.read_text()) if kept.exists() else {}
        if not {"fill", "mark", "frames", "collect"} <= set(found):
            found = {"fill": self._find_fill(), "mark": self._find_mark(),
                     "frames": self._find_frames(), "collect": self._find_collect()}  # fmt: skip
            kept.write_text(json.dumps(found))
        self.fill, self.mark = found["fill"], found["mark"]
        self.frames, self.collect = found["frames"], found["collect"]

    def _probe(self, script, count):
        """``script`` run with ``count`` under callgrind: its output file."""
        path = self.folder / "probe.py"
        path.write_text(script)
        out = self.folder / "probe.callgrind"
        subprocess.run([self.valgrind, "--tool=callgrind", "--callgrind-out-file=" + str(out),
                        self.vm, str(path), str(count)], capture_output=True, check=True,
                       env=dict(os.environ, MICROPYPATH=""))  # fmt: skip
        return out

    def _calls(self, script, count):
        return call_counts(self._probe(script, count))

    def _exact(self, script, low, high, per):
        """Functions called exactly ``per`` times a unit of ``script``'s count,
        run at ``low`` and ``high``."""
        a, b = self._calls(script, low), self._calls(script, high)
        return [f for f in a if b.get(f) == per * high and a[f] == per * low]

    def _find_fill(self):
        # a full frame of 160 x 128 is 128 pieces of one row (256 pixels a piece)
        for address in self._exact(FULL_FRAMES, 3, 5, 128):
            script = self.folder / "probe.py"
            script.write_text(FULL_FRAMES)
            commands = self.folder / "probe.gdb"
            commands.write_text(GDB_FIRST_AREA.format(address=address, area=AREA_ARG))
            result = subprocess.run([self.gdb, "-q", "-batch", "-x", str(commands), "--args",
                                     self.vm, str(script), "1"], capture_output=True, text=True,
                                    env=dict(os.environ, MICROPYPATH=""))  # fmt: skip
            if "A 0 0 160 1" in result.stdout:
                return address
        raise ToolError("cannot find where displayio fills an area in {}".format(self.vm))

    def _find_frames(self):
        """The call of a Python function (its caller: the VM's call of a
        function of bytecode) and the two calls it makes only for a frame
        too big for the C stack: the heap's allocation and its free."""
        counts = {}
        for script in (BIG_FRAMES, SMALL_FRAMES):
            for runs in (400, 800):
                edges = call_edges(self._probe(script, runs))
                counts[script, runs] = {k: v[0] for k, v in edges.items()}
        big = [edge for edge, calls in counts[BIG_FRAMES, 800].items()
               if calls - counts[BIG_FRAMES, 400].get(edge, 0) == 400
               and counts[SMALL_FRAMES, 800].get(edge, 0) - counts[SMALL_FRAMES, 400].get(edge, 0)
               == 0]  # fmt: skip
        # the outermost: a call from a function that is not itself called for a frame
        inner = {callee for _, callee in big}
        big = [edge for edge in big if edge[0] not in inner]
        callers = {caller for caller, _ in big}
        if len(big) != 2 or len(callers) != 1:
            raise ToolError("cannot find where the VM puts a frame on its heap in {}: {}".format(
                self.vm, sorted(big)))  # fmt: skip
        # then the functions an allocation and a free run (the heap's own)
        return [big[0][0]] + sorted(callee for _, callee in big) + sorted(inner)

    def _find_collect(self):
        """The functions a collection of the heap is in: called once more for
        each ``gc.collect()`` more (the VM collects once more as it ends)."""
        more = []
        for script in (COLLECTIONS, COLLECTIONS.replace("collect()", "mem_free()")):
            low, high = self._calls(script, 20), self._calls(script, 40)
            more.append({f: high[f] - low.get(f, 0) for f in high})
        collecting, control = more  # the control: the loop and a call, without a collection
        found = [f for f, calls in collecting.items() if calls == 20 and not control.get(f)]
        if not found:
            raise ToolError("cannot find a collection of the heap in {}".format(self.vm))
        return found

    def _find_mark(self):
        exact = self._exact(CIRCLES, 100, 300, 1)
        # the outermost first (the binding, the circle's alone), which the
        # others (its arguments' checks, its drawing) are called from
        text = (self.folder / "probe.callgrind").read_text()
        names = dict(re.findall(r"^c?fn=\((\d+)\) (\S+)", text, re.M))
        called = set()
        for block in re.split(r"^(?=fn=)", text, flags=re.M):
            head = re.match(r"fn=\((\d+)\)", block)
            if head and names.get(head.group(1)) in exact:
                called.update(names.get(c) for c in re.findall(r"^cfn=\((\d+)\)", block, re.M))
        exact.sort(key=lambda address: address in called)
        game = self.game_calls()
        for address in exact:  # one the game never runs
            if not game.get(address):
                return address
        raise ToolError("cannot find the turn mark's function in {}".format(self.vm))


class Turn:
    """What one turn of the game's loop cost: ``instructions`` (the VM's),
    ``file`` (fatreplay's counts for its file calls, FatFs's instructions
    among them), ``pixels`` and ``pieces`` sent to the display; ``presses``:
    the script's presses so far, this turn's included."""

    def __init__(self):
        self.instructions = 0  # less ``heap_frames``, the VM's alone
        self.heap_frames = 0
        self.file = {}
        self.pixels = 0
        self.pieces = 0
        self.presses = 0

    def vm_ms(self, ns):
        return self.instructions * ns / 1e6

    def flash_ms(self, ns):
        """What the board's file system adds: FatFs's instructions beyond the
        VM's wrappers for the same calls, and its sector reads."""
        file = self.file
        if not file:
            return 0.0
        wrappers = sum(WRAPPER[k] * file.get(k, 0) for k in WRAPPER)
        hidden = max(0, file.get("fatfs_instructions", 0) - wrappers)
        return hidden * ns / 1e6 + file.get("sector_reads", 0) * SECTOR_US / 1000

    def spi_ms(self):
        return (self.pixels * PIXEL_BYTES + self.pieces * WINDOW_BYTES) * 8 * 1000 / SPI_HZ

    def total_ms(self, ns):
        return self.vm_ms(ns) + self.flash_ms(ns) + self.spi_ms()


class BoardRuns:
    """Runs key scripts on a board tree three ways and returns their turns.

    ``board``: the tree (tests/ui_runs.py ``board_tree``), ``items``: what
    deploy wrote, in its order (the replayed drive is filled the same
    way), ``folder``: a work folder of its own."""

    def __init__(self, vm, board, items, folder):
        self.vm = str(vm)
        self.board = Path(board).resolve()
        self.folder = Path(folder).resolve()
        self.valgrind = need("valgrind")
        self.strace = need("strace")
        self.gdb = need("gdb")
        self.fatreplay = build_fatreplay(self.folder)
        self.probes = Probes(self.vm, self.folder, self.valgrind, self.gdb, self.game_calls)
        self.drive_list = self.folder / "deploy.list"
        self.drive_list.write_text("".join(
            "/{}\t{}\n".format(item.path, self.board / item.path) for item in items))  # fmt: skip

    def env(self, name, words, save, mark):
        """The run's environment; its key file and NVM file named for it."""
        keys = self.folder / (name + ".keys")
        keys.write_text(words)
        nvm = self.folder / "{}-{}.nvm".format(name, mark)
        if save is None:
            nvm.unlink(missing_ok=True)
        else:
            shutil.copy(save, nvm)
        return dict(os.environ, MICROPYPATH="", CIRCUITPY_NVM_FILE=str(nvm),
                    BSQ_KEYS_FILE=os.path.relpath(keys, self.board), BSQ_TURN_MS=str(TURN_MS),
                    BSQ_SEED="1", BSQ_TURN_MARK=mark)  # fmt: skip

    def vm_command(self):
        return [self.vm, "-X", "heapsize=" + HEAP, "code.py"]

    def _run(self, command, env, what):
        result = subprocess.run(command, cwd=self.board, env=env, capture_output=True, text=True)
        if result.returncode:
            raise ToolError("{} failed ({}): {}".format(
                what, result.returncode, (result.stderr or result.stdout).strip()[-500:]))
        return result

    def game_calls(self):
        """Calls of each function in a run from a new board's first start
        through the cards, the menu and its bar (a blit), with no mark."""
        out = self.folder / "game.callgrind"
        env = self.env("game", "a a a start down down b", None, "")
        command = [self.valgrind, "--tool=callgrind", "--callgrind-out-file=" + str(out)]
        self._run(command + self.vm_command(), env, "callgrind")
        counts = call_counts(out)
        out.unlink()
        return counts

    def count(self, name, words, save):
        """The VM's instructions, a turn each (the last: after the last turn)."""
        out = self.folder / (name + ".callgrind")
        for old in self.folder.glob(out.name + "*"):
            old.unlink()
        command = [self.valgrind, "--tool=callgrind", "--dump-before=" + self.probes.mark,
                   "--dump-instr=no", "--callgrind-out-file=" + str(out)] + self.vm_command()
        self._run(command, self.env(name, words, save, "call"), "callgrind")  # fmt: skip
        dumps = sorted(self.folder.glob(out.name + ".*"), key=lambda p: int(p.suffix[1:]))
        probes = self.probes
        counts = [(instructions(p), frame_instructions(p, probes.frames, probes.collect))
                  for p in dumps + [out]]  # fmt: skip
        for p in dumps + [out]:
            p.unlink()
        return counts

    def files(self, name, words, save):
        """fatreplay's counts a turn, and the presses at each turn's end."""
        log = self.folder / (name + ".strace")
        calls = "openat,open,close,read,_llseek,lseek,statx,stat64,stat"
        command = [self.strace, "-f", "-qq", "-s", "300", "-e", "trace=" + calls, "-o", str(log)]
        self._run(command + self.vm_command(), self.env(name, words, save, "file"), "strace")
        trace = self.folder / (name + ".trace")
        converter = [sys.executable, str(FLASH_SRC / "trace.py"), str(log), str(self.board),
                     "--marker", MARKER.pattern]  # fmt: skip
        with open(trace, "w") as f:
            subprocess.run(converter, stdout=f, check=True)
        log.unlink()
        presses = [int(line.split("-")[1]) for line in trace.read_text().splitlines()
                   if line.startswith("M ") and line != "M startup"]  # fmt: skip
        out = self.folder / (name + ".fatreplay")
        for old in self.folder.glob(out.name + "*"):
            old.unlink()
        replay = [self.valgrind, "--tool=callgrind", "--toggle-collect=do_op",
                  "--callgrind-out-file=" + str(out), str(self.fatreplay), str(self.drive_list),
                  str(trace)]  # fmt: skip
        result = subprocess.run(replay, capture_output=True, text=True)
        if result.returncode:
            raise ToolError("fatreplay failed: " + result.stderr.strip()[-300:])
        segments = [json.loads(line) for line in result.stdout.splitlines() if line[:1] == "{"]
        counted = {}
        for dump in self.folder.glob(out.name + ".*"):
            text = dump.read_text()
            label = re.search(r"^desc: Trigger: Client Request: seg:(\S+)", text, re.M)
            if label:
                counted[label.group(1)] = instructions(dump)
            dump.unlink()
        out.unlink(missing_ok=True)
        trace.unlink()
        for segment in segments:
            segment["fatfs_instructions"] = counted.get(segment["segment"], 0)
        return segments, presses

    def areas(self, name, words, save):
        """The pixels and pieces sent to the display, a turn each."""
        commands = self.folder / (name + ".gdb")
        commands.write_text(
            "set pagination off\nbreak *{fill}\ncommands\nsilent\nprintf \"A %d %d %d %d\\n\", "
            "{area}\ncontinue\nend\nbreak *{mark}\ncommands\nsilent\nprintf \"T\\n\"\ncontinue\n"
            "end\nrun\n".format(fill=self.probes.fill, mark=self.probes.mark, area=AREA_ARG))
        command = [self.gdb, "-q", "-batch", "-x", str(commands), "--args"] + self.vm_command()
        result = self._run(command, self.env(name, words, save, "call"), "gdb")
        turns = [[0, 0]]
        for line in result.stdout.splitlines():
            if line == "T":
                turns.append([0, 0])
            elif line.startswith("A "):
                x1, y1, x2, y2 = map(int, line.split()[1:])
                turns[-1][0] += (x2 - x1) * (y2 - y1)
                turns[-1][1] += 1
        return turns

    def turns(self, name, words, save=None):
        """The turns of ``words`` (a key script) played from ``save`` (an NVM
        file; ``None``: a fresh one, the first start): a ``Turn`` each, the
        first with the start-up in it, the last the end of the run after
        the last turn. ``ToolError`` if the three runs disagree on the turns."""
        counts = self.count(name, words, save)
        segments, presses = self.files(name, words, save)
        areas = self.areas(name, words, save)
        if not len(counts) == len(segments) == len(areas) == len(presses) + 1:
            raise ToolError("{}: the runs disagree on the turns: {} counted, {} in the file "
                            "trace, {} drawn".format(name, len(counts), len(segments), len(areas)))
        turns = []
        for k, count in enumerate(counts):
            turn = Turn()
            turn.instructions = count[0] - count[1]
            turn.heap_frames = count[1]
            turn.file = segments[k]
            turn.pixels, turn.pieces = areas[k]
            turn.presses = presses[k] if k < len(presses) else presses[-1] if presses else 0
            turns.append(turn)
        return turns
