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
save("gif", "still.gif", base.convert("P"))
save("gif", "transparent.gif", gradient("P"), transparency=0)
paletted = [frame.convert("P") for frame in frames]
paletted[0].save(os.path.join(out, "gif", "animated.gif"), save_all=True, append_images=paletted[1:], duration=100)
save("gif", "interlaced.gif", base.convert("P"), interlace=True)
save("png", "rgba.png", gradient("RGBA"))
save("png", "palette.png", base.convert("P"))
save("png", "interlaced.png", base, interlace=True)
save("png", "sixteen.png", gradient("I;16"))
