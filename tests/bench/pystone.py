"""Pystone, the calibration of tools/latency.py: a pass costs a SAMD51 657 us.

Reinhold Weicker's Dhrystone as Python's ``pystone`` 1.2 runs it (the
benchmark CircuitPython's published 1 521.6 passes/s on a Metro M4 come
from), written out again for CircuitPython: no ``time.clock``, no
timing at all. The latency tool counts the VM's instructions for two pass
counts under valgrind; the difference over the passes between is one
pass's instructions, and 657 us over that is a SAMD51's time per
instruction.

    circuitpython pystone.py PASSES
"""

import sys

IDENT1, IDENT2, IDENT3, IDENT4, IDENT5 = 1, 2, 3, 4, 5


class Record:
    def __init__(self, ptr_comp=None, discr=0, enum_comp=0, int_comp=0, string_comp=0):
        self.ptr_comp = ptr_comp
        self.discr = discr
        self.enum_comp = enum_comp
        self.int_comp = int_comp
        self.string_comp = string_comp

    def copy(self):
        return Record(self.ptr_comp, self.discr, self.enum_comp, self.int_comp, self.string_comp)


int_glob = 0
bool_glob = False
char1_glob = "\0"
char2_glob = "\0"
array1_glob = [0] * 51
array2_glob = [[0] * 51 for _ in range(51)]
ptr_glb = None
ptr_glb_next = None


def proc0(loops):
    global bool_glob, ptr_glb, ptr_glb_next
    ptr_glb_next = Record()
    ptr_glb = Record()
    ptr_glb.ptr_comp = ptr_glb_next
    ptr_glb.discr = IDENT1
    ptr_glb.enum_comp = IDENT3
    ptr_glb.int_comp = 40
    ptr_glb.string_comp = "DHRYSTONE PROGRAM, SOME STRING"
    string1_loc = "DHRYSTONE PROGRAM, 1'ST STRING"
    array2_glob[8][7] = 10
    for _ in range(loops):
        proc5()
        proc4()
        int_loc1 = 2
        int_loc2 = 3
        string2_loc = "DHRYSTONE PROGRAM, 2'ND STRING"
        enum_loc = IDENT2
        bool_glob = not func2(string1_loc, string2_loc)
        while int_loc1 < int_loc2:
            int_loc3 = 5 * int_loc1 - int_loc2
            int_loc3 = proc7(int_loc1, int_loc2)
            int_loc1 = int_loc1 + 1
        proc8(array1_glob, array2_glob, int_loc1, int_loc3)
        ptr_glb = proc1(ptr_glb)
        char_index = "A"
        while char_index <= char2_glob:
            if enum_loc == func1(char_index, "C"):
                enum_loc = proc6(IDENT1)
            char_index = chr(ord(char_index) + 1)
        int_loc3 = int_loc2 * int_loc1
        int_loc2 = int_loc3 // int_loc1
        int_loc2 = 7 * (int_loc3 - int_loc2) - int_loc1
        int_loc1 = proc2(int_loc1)


def proc1(ptr_par_in):
    ptr_par_in.ptr_comp = next_record = ptr_glb.copy()
    ptr_par_in.int_comp = 5
    next_record.int_comp = ptr_par_in.int_comp
    next_record.ptr_comp = ptr_par_in.ptr_comp
    next_record.ptr_comp = proc3(next_record.ptr_comp)
    if next_record.discr == IDENT1:
        next_record.int_comp = 6
        next_record.enum_comp = proc6(ptr_par_in.enum_comp)
        next_record.ptr_comp = ptr_glb.ptr_comp
        next_record.int_comp = proc7(next_record.int_comp, 10)
    else:
        ptr_par_in = next_record.copy()
    next_record.ptr_comp = None
    return ptr_par_in


def proc2(int_par_io):
    int_loc = int_par_io + 10
    while True:
        if char1_glob == "A":
            int_loc = int_loc - 1
            int_par_io = int_loc - int_glob
            enum_loc = IDENT1
        if enum_loc == IDENT1:
            break
    return int_par_io


def proc3(ptr_par_out):
    global int_glob
    if ptr_glb is not None:
        ptr_par_out = ptr_glb.ptr_comp
    else:
        int_glob = 100
    ptr_glb.int_comp = proc7(10, int_glob)
    return ptr_par_out


def proc4():
    global char2_glob
    bool_loc = char1_glob == "A"
    bool_loc = bool_loc or bool_glob
    char2_glob = "B"


def proc5():
    global char1_glob, bool_glob
    char1_glob = "A"
    bool_glob = False


def proc6(enum_par_in):
    enum_par_out = enum_par_in
    if not func3(enum_par_in):
        enum_par_out = IDENT4
    if enum_par_in == IDENT1:
        enum_par_out = IDENT1
    elif enum_par_in == IDENT2:
        enum_par_out = IDENT1 if int_glob > 100 else IDENT4
    elif enum_par_in == IDENT3:
        enum_par_out = IDENT2
    elif enum_par_in == IDENT4:
        pass
    elif enum_par_in == IDENT5:
        enum_par_out = IDENT3
    return enum_par_out


def proc7(int_par_i1, int_par_i2):
    int_loc = int_par_i1 + 2
    return int_par_i2 + int_loc


def proc8(array1_par, array2_par, int_par_i1, int_par_i2):
    global int_glob
    int_loc = int_par_i1 + 5
    array1_par[int_loc] = int_par_i2
    array1_par[int_loc + 1] = array1_par[int_loc]
    array1_par[int_loc + 30] = int_loc
    for int_index in range(int_loc, int_loc + 2):
        array2_par[int_loc][int_index] = int_loc
    array2_par[int_loc][int_loc - 1] = array2_par[int_loc][int_loc - 1] + 1
    array2_par[int_loc + 20][int_loc] = array1_par[int_loc]
    int_glob = 5


def func1(char_par1, char_par2):
    char_loc1 = char_par1
    char_loc2 = char_loc1
    if char_loc2 != char_par2:
        return IDENT1
    return IDENT2


def func2(str_par_i1, str_par_i2):
    int_loc = 1
    while int_loc <= 1:
        if func1(str_par_i1[int_loc], str_par_i2[int_loc + 1]) == IDENT1:
            char_loc = "A"
            int_loc = int_loc + 1
    if "W" <= char_loc <= "Z":
        int_loc = 7
    if char_loc == "X":
        return True
    if str_par_i1 > str_par_i2:
        int_loc = int_loc + 7
        return True
    return False


def func3(enum_par_in):
    return enum_par_in == IDENT3


if __name__ == "__main__":
    proc0(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
