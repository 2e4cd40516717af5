#!/usr/bin/env python3
"""mutate_spv.py IN OUT EDIT...: writes a damaged copy of the SPIR-V module IN to OUT.

Edits, applied in order (words are little-endian 32-bit):
  truncate-bytes:N   keep the first N bytes
  set-word:I:V       set word I to V (decimal or 0x hex)
  byteswap           write every word in the opposite byte order
  append-bytes:N     append N zero bytes
  pad-words:N        insert OpSourceExtension instructions of at least N words in all after the
                     module's first section (capabilities to execution modes): a module large
                     enough for the CLI's per-instruction disassembly
Malformed binaries are made from a valid assembled module, never checked in.
"""
import struct
import sys


def pad_words(data, count):
    """`data` (little-endian) with OpSourceExtension "xx..." instructions of `count` words or
    more in all inserted before its first debug, annotation or type instruction."""
    n = len(data) // 4
    words = list(struct.unpack("<%dI" % n, bytes(data[:4 * n])))
    # OpCapability, OpExtension, OpExtInstImport, OpMemoryModel, OpEntryPoint,
    # OpExecutionMode, OpExecutionModeId come before OpSourceExtension (logical layout)
    first_section = (17, 10, 11, 14, 15, 16, 331)
    at = 5
    while at < n and (words[at] & 0xFFFF) in first_section and words[at] >> 16:
        at += words[at] >> 16
    pad = []
    while len(pad) < count:
        literal = min(count - len(pad), 60000)  # words of the string, NUL included
        pad += [((literal + 1) << 16) | 4] + [0x78787878] * (literal - 1) + [0]
    words[at:at] = pad
    return bytearray(struct.pack("<%dI" % len(words), *words)) + data[4 * n:]


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    data = bytearray(open(sys.argv[1], "rb").read())
    for edit in sys.argv[3:]:
        name, _, arg = edit.partition(":")
        if name == "truncate-bytes":
            data = data[:int(arg, 0)]
        elif name == "set-word":
            index, value = (int(x, 0) for x in arg.split(":"))
            struct.pack_into("<I", data, 4 * index, value)
        elif name == "byteswap":
            n = len(data) // 4
            words = struct.unpack("<%dI" % n, bytes(data[:4 * n]))
            data = bytearray(struct.pack(">%dI" % n, *words)) + data[4 * n:]
        elif name == "append-bytes":
            data += bytes(int(arg, 0))
        elif name == "pad-words":
            data = pad_words(data, int(arg, 0))
        else:
            sys.stderr.write("unknown edit %r\n" % edit)
            return 2
    open(sys.argv[2], "wb").write(bytes(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
