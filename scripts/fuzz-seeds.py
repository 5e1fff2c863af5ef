#!/usr/bin/env python3
"""Writes seed inputs for the fuzz targets: small JPEG, WebP and GIF files in their common variants (Pillow)."""
import io
import os
import sys

from PIL import Image

out = sys.argv[1]
for name in ("jpeg", "webp", "gif", "png"):
    os.makedirs(os.path.join(out, name), exist_ok=True)


def gradient(mode, size=(24, 16)):
    image = Image.new("RGBA", size)
    for y in range(size[1]):
        for x in range(size[0]):
            image.putpixel((x, y), (x * 10 % 256, y * 15 % 256, 128, 255 - x * 10 % 256))
    return image.convert(mode)


def save(folder, name, image, **options):
    image.save(os.path.join(out, folder, name), **options)


base = gradient("RGB")
save("jpeg", "baseline.jpg", base, quality=80)
save("jpeg", "progressive.jpg", base, quality=80, progressive=True)
save("jpeg", "gray.jpg", gradient("L"), quality=80)
save("jpeg", "cmyk.jpg", gradient("CMYK"), quality=80)
for orientation in range(1, 9):
    exif = Image.Exif()
    exif[0x0112] = orientation
    save("jpeg", f"orientation-{orientation}.jpg", base, quality=70, exif=exif.tobytes())
save("webp", "lossy.webp", base, quality=70)
save("webp", "lossless.webp", gradient("RGBA"), lossless=True)
frames = [gradient("RGBA"), gradient("RGBA").rotate(90), gradient("RGBA").rotate(180)]
frames[0].save(os.path.join(out, "webp", "animated.webp"), save_all=True, append_images=frames[1:], duration=100)
# Small frames on a canvas of 155,160 × 16 (its VP8X header widened by hand; frames may be at most 16,383 wide):
# each frame is composited onto the whole canvas. The shape of an input once slow to fuzz unoptimised.
animated = io.BytesIO()
frames[0].save(animated, format="WEBP", save_all=True, append_images=frames[1:], duration=100)
wide = bytearray(animated.getvalue())
assert wide[12:16] == b"VP8X"
wide[24:27] = (155160 - 1).to_bytes(3, "little")
with open(os.path.join(out, "webp", "wide-animated.webp"), "wb") as file:
    file.write(wide)
save("gif", "still.gif", base.convert("P"))
save("gif", "transparent.gif", gradient("P"), transparency=0)
paletted = [frame.convert("P") for frame in frames]
paletted[0].save(os.path.join(out, "gif", "animated.gif"), save_all=True, append_images=paletted[1:], duration=100)
save("gif", "interlaced.gif", base.convert("P"), interlace=True)
save("png", "rgba.png", gradient("RGBA"))
save("png", "palette.png", base.convert("P"))
save("png", "interlaced.png", base, interlace=True)
save("png", "sixteen.png", gradient("I;16"))


def scan_bomb(jpeg, width, height, extra_scans):
    """A progressive JPEG followed by `extra_scans` copies of one more scan (first component, AC 1-63, Ah 0 Al 0,
    every block an end-of-band run): valid scans, each a pass over every block. Decoders must stop at their scan
    limit (libjpeg-turbo: 500)."""
    assert jpeg.endswith(b"\xff\xd9")
    sof = jpeg.index(b"\xff\xc2")
    component = jpeg[sof + 10]
    symbols = bytes(k << 4 for k in range(15))  # EOB0..EOB14, 4-bit codes: symbol k is code k
    counts = bytes([0, 0, 0, len(symbols)] + [0] * 12)
    body = b"\x13" + counts + symbols  # AC table 3
    table = b"\xff\xc4" + (2 + len(body)).to_bytes(2, "big") + body
    header = bytes([0xFF, 0xDA, 0, 8, 1, component, 0x03, 1, 63, 0])
    bits = ""
    remaining = ((width + 7) // 8) * ((height + 7) // 8)
    while remaining > 0:
        run = min(remaining, 32767)
        magnitude = run.bit_length() - 1
        bits += format(magnitude, "04b") + (format(run - (1 << magnitude), f"0{magnitude}b") if magnitude else "")
        remaining -= run
    bits += "1" * (-len(bits) % 8)
    entropy = b""
    for start in range(0, len(bits), 8):
        byte = int(bits[start:start + 8], 2)
        entropy += bytes([byte]) + (b"\x00" if byte == 0xFF else b"")
    return jpeg[:-2] + table + (header + entropy) * extra_scans + b"\xff\xd9"


progressive = io.BytesIO()
gradient("RGB", (64, 64)).save(progressive, "JPEG", quality=80, progressive=True)
with open(os.path.join(out, "jpeg", "scan-bomb.jpg"), "wb") as file:
    file.write(scan_bomb(progressive.getvalue(), 64, 64, 600))


# Seeds for the parsers of what a server or the cache folder holds, one folder a target.
def write(folder, name, data):
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    with open(os.path.join(out, folder, name), "wb") as file:
        file.write(data if isinstance(data, bytes) else data.encode())


# Response heads as libcurl hands them over, line by line, and request fields an app passes on.
write("header-fields", "plain", "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 1234\r\n\r\n")
write("header-fields", "interim", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload"
      "\r\n\r\nHTTP/2 200\r\nSet-Cookie: a=b; Path=/; HttpOnly\r\nVary: Accept, Accept-Encoding\r\n\r\n")
write("header-fields", "hostile", b"HTTP/1.1 200 OK\r\nX-A: a\rb\r\nX-B: a\x00b\r\nBad Name: x\r\n folded\r\n"
      b"X-C:\t caf\xc3\xa9 \r\nLocation: /a\r\nX-D: 1\r\n\r\n")
write("header-fields", "request", "Authorization: Bearer abc.def\nX-Note: hello\r\nX-Injected: 1\nUser-Agent: App/1.0\n")
# Retry-After values, with the response's Date on a second line.
for index, value in enumerate(["120", " 0 ", "99999999999999999999", "-1", "1.5",
                               "Sun, 06 Nov 1994 08:49:37 GMT\nSun, 06 Nov 1994 08:48:37 GMT",
                               "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
                               "Thu, 29 Feb 2024 23:59:60 GMT\nnot a date", "Fri, 31 Dec 9999 23:59:59 GMT"]):
    write("retry-after", f"value-{index}", value)
# Content-Range values, then the prefix size less one, the body size, and the declared length less the prefix.
write("content-range", "joined", b"bytes 10-19/20\n" + bytes([9, 10, 10]))
write("content-range", "unknown-length", b"bytes 10-19/*\n" + bytes([9, 10, 10]))
write("content-range", "wrong-start", b"bytes 0-19/20\n" + bytes([9, 20, 10]))
write("content-range", "huge", b"bytes 999999999999999999-999999999999999999/*\n" + bytes([0, 1, 0]))
write("content-range", "stored", b'{"validator":"\\"v\\"","totalLength":20}\n' + b"x" * 10)
# Disk cache entries (format 3, XXH3) for the target's key; a zero checksum is filled in by the target.
key_digest = __import__("hashlib").sha256(b"https://example.com/fuzz.jpg").digest()


def entry(data, version=3, kind=1, length=None):
    length = len(data) if length is None else length
    return b"LKHD" + bytes([version, kind, 0, 0]) + length.to_bytes(8, "little") + key_digest + bytes(8) + data


write("disk-entry", "valid", entry(b"\xff\xd8\xff\xe0 a small body \xff\xd9"))
write("disk-entry", "empty", entry(b""))
write("disk-entry", "old-version", entry(b"body", version=2))
write("disk-entry", "long-length", entry(b"body", length=1 << 40))
write("disk-entry", "truncated", entry(b"body")[:30])
# The ledger's record, and saved indexes of zero and two records (zero checksums, filled in by the target).
write("disk-ledger", "ledger", (0x01_52_47_44_45_4C_4B_4C).to_bytes(8, "little") + (4096).to_bytes(8, "little")
      + (7).to_bytes(8, "little"))


def snapshot(records, generation=7):
    body = b"".join(name + size.to_bytes(4, "little") + touched.to_bytes(4, "little")
                    for name, size, touched in records)
    total = sum(size for _, size, _ in records)
    return ((0x01_58_45_44_4E_49_4B_4C).to_bytes(8, "little") + bytes(8) + generation.to_bytes(8, "little")
            + len(records).to_bytes(8, "little") + total.to_bytes(8, "little") + bytes([1]) + bytes(7) + body)


write("disk-ledger", "index-empty", snapshot([]))
write("disk-ledger", "index-two", snapshot([(key_digest, 1200, 1_700_000_000), (bytes(range(32)), 56, 0)]))
