#!/usr/bin/env python3
"""Writes a HEIC seed laid out as iPhones write them: a 2×2 grid of hidden 64×64 HEVC tiles, cropped to 120×100,
turned by `irot`, with a `thmb` thumbnail. heif-enc (libheif 1.15) cannot write a multi-tile grid, so the tiles are
encoded by heif-enc one by one and the file is assembled box by box (ISO/IEC 23008-12).
Usage: fuzz-heif-grid.py OUTPUT.heic"""
import os
import struct
import subprocess
import sys
import tempfile

from PIL import Image


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind, payload, version=0, flags=0):
    return box(kind, bytes([version]) + flags.to_bytes(3, "big") + payload)


def children(data, start, end):
    """(type, start, end) of the boxes in data[start:end], descending into the boxes that hold boxes."""
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        if size < 8 or start + size > end:
            return
        yield kind, start, start + size
        if kind == b"meta":
            yield from children(data, start + 12, start + size)
        elif kind in (b"iprp", b"ipco"):
            yield from children(data, start + 8, start + size)
        start += size


def tile(colour, size, folder):
    """A picture encoded alone by heif-enc: its hvcC box and its item data."""
    source = os.path.join(folder, "tile.png")
    target = os.path.join(folder, "tile.heic")
    Image.new("RGB", size, colour).save(source)
    subprocess.run(["heif-enc", "-q", "50", "-o", target, source], check=True, capture_output=True)
    data = open(target, "rb").read()
    hvcc = extent = None
    for kind, start, end in children(data, 0, len(data)):
        if kind == b"hvcC" and hvcc is None:
            hvcc = data[start:end]
        elif kind == b"iloc":
            version = data[start + 8]
            sizes, more = data[start + 12], data[start + 13]
            offset_size, length_size, base_size = sizes >> 4, sizes & 15, more >> 4
            position = start + 14 + (2 if version < 2 else 4)  # the first item
            position += (2 if version < 2 else 4) + (2 if version >= 1 else 0) + 2
            base = int.from_bytes(data[position:position + base_size], "big")
            position += base_size + 2 + ((more & 15) if version >= 1 else 0)
            offset = base + int.from_bytes(data[position:position + offset_size], "big")
            length = int.from_bytes(data[position + offset_size:position + offset_size + length_size], "big")
            extent = data[offset:offset + length]
    assert hvcc and extent, "heif-enc wrote no single HEVC item"
    return hvcc, extent


def grid_file(tiles, columns, rows, width, height, rotation, thumbnail):
    grid_id, thumbnail_id = len(tiles) + 1, len(tiles) + 2
    properties = []

    def prop(data):
        if data not in properties:
            properties.append(data)
        return properties.index(data) + 1

    def ispe(w, h):
        return full_box(b"ispe", struct.pack(">II", w, h))

    associations = [(n + 1, [(prop(hvcc), True), (prop(ispe(64, 64)), False)]) for n, (hvcc, _) in enumerate(tiles)]
    associations.append((grid_id, [(prop(ispe(width, height)), False), (prop(box(b"irot", bytes([rotation]))), True)]))
    associations.append((thumbnail_id, [(prop(thumbnail[0]), True), (prop(ispe(96, 80)), False)]))
    grid_data = bytes([0, 0, rows - 1, columns - 1]) + struct.pack(">HH", width, height)
    payloads = [(n + 1, data) for n, (_, data) in enumerate(tiles)] + [(grid_id, grid_data), (thumbnail_id, thumbnail[1])]

    def meta(data_start):
        locations = bytes([0x44, 0x00]) + struct.pack(">H", len(payloads))
        offset = data_start
        for item, data in payloads:
            locations += struct.pack(">HHHII", item, 0, 1, offset, len(data))
            offset += len(data)
        entries = b"".join(full_box(b"infe", struct.pack(">HH", n + 1, 0) + b"hvc1\0", 2, 1) for n in range(len(tiles)))
        entries += full_box(b"infe", struct.pack(">HH", grid_id, 0) + b"grid\0", 2)
        entries += full_box(b"infe", struct.pack(">HH", thumbnail_id, 0) + b"hvc1\0", 2)
        references = box(b"dimg", struct.pack(">HH", grid_id, len(tiles)) + b"".join(struct.pack(">H", n + 1) for n in range(len(tiles))))
        references += box(b"thmb", struct.pack(">HHH", thumbnail_id, 1, grid_id))
        mapping = struct.pack(">I", len(associations))
        for item, props in associations:
            mapping += struct.pack(">HB", item, len(props)) + bytes(index | (0x80 if essential else 0) for index, essential in props)
        return full_box(
            b"meta",
            full_box(b"hdlr", struct.pack(">I", 0) + b"pict" + bytes(13))
            + full_box(b"pitm", struct.pack(">H", grid_id))
            + full_box(b"iloc", locations)
            + full_box(b"iinf", struct.pack(">H", len(tiles) + 2) + entries)
            + full_box(b"iref", references)
            + box(b"iprp", box(b"ipco", b"".join(properties)) + full_box(b"ipma", mapping)),
        )

    ftyp = box(b"ftyp", b"heic" + bytes(4) + b"mif1heic")
    data_start = len(ftyp) + len(meta(0)) + 8
    return ftyp + meta(data_start) + box(b"mdat", b"".join(data for _, data in payloads))


with tempfile.TemporaryDirectory() as folder:
    colours = [(220, 30, 30), (30, 200, 30), (30, 30, 220), (220, 220, 30)]
    tiles = [tile(colour, (64, 64), folder) for colour in colours]
    small = tile((240, 240, 240), (96, 80), folder)
    with open(sys.argv[1], "wb") as output:
        output.write(grid_file(tiles, 2, 2, 120, 100, 1, small))
