"""A set of strings in about 30 bytes per entry, for de-duplicating millions of entries.

A Python `set` of 4 million Polish words takes about 480 MB (each `str` is an
object of ~60-100 bytes, plus the table). Here the entries live as UTF-8 in one
`bytearray`, and an open-addressing table of 64-bit slots (`array('Q')`) points
into it: offset in the high bits, length + 1 in the low 20 bits, 0 = empty.
Lookups compare the stored bytes, so the set is exact (no hash-only shortcut).
"""

from __future__ import annotations

from array import array

_LEN_BITS = 20
_LEN_MASK = (1 << _LEN_BITS) - 1
_MAX_LEN = _LEN_MASK - 1


class CompactSet:
    """An insert-only set of strings; `add` says whether the string was new."""

    def __init__(self, capacity: int = 1 << 12) -> None:
        size = 1
        while size < capacity:
            size <<= 1
        self._slots = array("Q", bytes(8 * size))
        self._mask = size - 1
        self._buf = bytearray()
        self._count = 0
        self._long: set[bytes] = set()  # entries too long for the slot format (never in real lists)

    def __len__(self) -> int:
        return self._count + len(self._long)

    def add(self, item: str) -> bool:
        """Add `item`; True if it was not there before."""
        key = item.encode("utf-8")
        if len(key) > _MAX_LEN:
            if key in self._long:
                return False
            self._long.add(key)
            return True
        slots, buf, mask = self._slots, self._buf, self._mask
        i = hash(key) & mask
        while True:
            slot = slots[i]
            if slot == 0:
                break
            length = (slot & _LEN_MASK) - 1
            if length == len(key):
                offset = slot >> _LEN_BITS
                if buf[offset : offset + length] == key:
                    return False
            i = (i + 1) & mask
        slots[i] = (len(buf) << _LEN_BITS) | (len(key) + 1)
        buf += key
        self._count += 1
        if self._count * 2 > mask:
            self._grow()
        return True

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, str):
            return False
        key = item.encode("utf-8")
        if len(key) > _MAX_LEN:
            return key in self._long
        slots, buf, mask = self._slots, self._buf, self._mask
        i = hash(key) & mask
        while (slot := slots[i]) != 0:
            length = (slot & _LEN_MASK) - 1
            offset = slot >> _LEN_BITS
            if length == len(key) and buf[offset : offset + length] == key:
                return True
            i = (i + 1) & mask
        return False

    def _grow(self) -> None:
        """Double the table and re-insert every slot (hashes recomputed from the stored bytes)."""
        old = self._slots
        size = (self._mask + 1) * 2
        self._slots = slots = array("Q", bytes(8 * size))
        self._mask = mask = size - 1
        buf = self._buf
        for slot in old:
            if slot:
                length = (slot & _LEN_MASK) - 1
                offset = slot >> _LEN_BITS
                i = hash(bytes(buf[offset : offset + length])) & mask
                while slots[i]:
                    i = (i + 1) & mask
                slots[i] = slot
