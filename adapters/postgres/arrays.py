"""One-dimensional arrays sent to PostgreSQL already encoded, in its binary array format.

psycopg finds the dumper of a list by looking at its items, on every call: for an append's
three arrays that cost more than every other parameter of the command's round trips together.
The append's arrays are of one known type each, so they are packed here in one ``struct``
call and handed over as they are.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format

TEXT, INT4, BYTEA = 25, 23, 17


class EncodedArray(bytes):
    """An array in PostgreSQL's binary format; its type is the subclass's."""

    __slots__ = ()


class TextArray(EncodedArray):
    __slots__ = ()


class IntArray(EncodedArray):
    __slots__ = ()


class ByteaArray(EncodedArray):
    __slots__ = ()


def text_array(items: Sequence[str]) -> TextArray:
    return TextArray(_pack(TEXT, [item.encode() for item in items]))


def bytea_array(items: Sequence[bytes]) -> ByteaArray:
    return ByteaArray(_pack(BYTEA, items))


def int_array(items: Sequence[int]) -> IntArray:
    # Each item: its length (4 bytes) and a 4-byte integer.
    values = [part for item in items for part in (4, item)]
    return IntArray(struct.pack(f"!5i{len(items) * 2}i", 1, 0, INT4, len(items), 1, *values))


def _pack(oid: int, items: Sequence[bytes]) -> bytes:
    # Header: one dimension, no nulls, the item type, the length, lower bound 1; then each
    # item's length and bytes.
    layout = "".join(f"i{len(item)}s" for item in items)
    values = [part for item in items for part in (len(item), item)]
    return struct.pack(f"!5i{layout}", 1, 0, oid, len(items), 1, *values)


def _dumper(array_oid: int) -> type[Dumper]:
    class ArrayDumper(Dumper):
        format = Format.BINARY
        oid = array_oid

        def dump(self, obj: object) -> bytes:
            assert isinstance(obj, EncodedArray)
            return bytes(obj)

    return ArrayDumper


# text[], integer[] and bytea[]; for every connection, as no other code sends these types.
psycopg.adapters.register_dumper(TextArray, _dumper(1009))
psycopg.adapters.register_dumper(IntArray, _dumper(1007))
psycopg.adapters.register_dumper(ByteaArray, _dumper(1001))
