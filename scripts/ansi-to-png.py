#!/usr/bin/env python3
"""Render a terminal screen capture with ANSI colours as a PNG screenshot.

Usage:
    python3 scripts/ansi-to-png.py CAPTURE.txt OUT.png [--columns 120] [--rows 40]
                                   [--font-size 16] [--title "text"]

CAPTURE.txt is text with SGR escape sequences, typically from tmux; use `-` to
read it from standard input:

    tmux new-session -d -s shot -x 120 -y 40 ./scripts/demo
    sleep 20    # until the screen shows what the screenshot should
    tmux capture-pane -p -e -t shot | python3 scripts/ansi-to-png.py - shot.png --title Lookahead
    tmux kill-session -t shot

The screen is drawn on a fixed grid of --columns x --rows character cells
(0 for either means "fit to the capture"), with a one-cell padding border and
an optional window-style title bar (--title). Lines past --rows and cells past
--columns are left out.

The capture is read by pyte (Debian: python3-pyte), a VT100 terminal emulator:
every line break starts a new line, and pyte keeps the cells' characters and
their bold, italic, underline, strikethrough and reverse attributes, the 8
standard colours, 256 colours and truecolour (38;5;n, 38;2;r;g;b and the 48
forms; colon forms are turned into these first, as pyte 0.8 reads only ';').
DCS, SOS, PM and APC strings (sixel and kitty images) are left out, as pyte 0.8
would print them.
pyte 0.8 has no dim or hidden attribute, and shows the bright colours 90-97 as
bold standard ones; the gallery's captures (scripts/screenshot) use none of
them. Wide characters (e.g. emoji) take two cells.

Block elements (U+2580-U+259F), sextants and wedges (U+1FB00-U+1FB6F) and the
corner triangles U+25E2-U+25E5 are drawn as exact rectangles and polygons, so
images made of them (chafa output) have no seams between cells. Braille
patterns use the font, or dots if the font lacks them. Other characters use
DejaVu Sans Mono (regular / bold / oblique), then DejaVu Sans; wide emoji use
a colour emoji font when one is installed (Debian: fonts-noto-color-emoji);
a small placeholder box stands for a glyph that no font has.

Requires Python 3, Pillow and pyte (scripts/bootstrap installs python3-pil and
python3-pyte).
"""

import argparse
import os
import re
import sys

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError:
    sys.exit("ansi-to-png: Pillow is required (apt-get install python3-pil)")
try:
    import pyte
except ImportError:
    sys.exit("ansi-to-png: pyte is required (apt-get install python3-pyte)")

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
MONO = os.path.join(FONT_DIR, "DejaVuSansMono.ttf")
MONO_BOLD = os.path.join(FONT_DIR, "DejaVuSansMono-Bold.ttf")
MONO_ITALIC = os.path.join(FONT_DIR, "DejaVuSansMono-Oblique.ttf")
MONO_BOLD_ITALIC = os.path.join(FONT_DIR, "DejaVuSansMono-BoldOblique.ttf")
FALLBACKS = [
    os.path.join(FONT_DIR, "DejaVuSans.ttf"),
    "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf",
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
    "/usr/share/fonts/truetype/unifont/unifont.ttf",
]
TITLE_FONT = os.path.join(FONT_DIR, "DejaVuSans.ttf")
# Colour emoji (optional, e.g. Debian's fonts-noto-color-emoji); a bitmap font
# that only loads at its native size and is scaled down to the cells.
EMOJI_FONTS = [
    ("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", 109),
]

DEFAULT_FG = (0xD0, 0xD0, 0xD0)
DEFAULT_BG = (0x1C, 0x1C, 0x1C)
TITLE_BG = (0x2E, 0x2E, 0x2E)
TITLE_FG = (0xB8, 0xB8, 0xB8)

# pyte's names of the 8 standard colours (xterm's values), in SGR order.
NAMED = dict(zip(
    ("black", "red", "green", "brown", "blue", "magenta", "cyan", "white"),
    [(0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
     (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5)],
))

BOLD, ITALIC, UNDERLINE, REVERSE, STRIKE = (1 << i for i in range(5))

# An SGR sequence with ':' sub-parameters (ITU T.416), which pyte 0.8 would print as text.
COLON_SGR = re.compile(r"\x1b\[([0-9;]*:[0-9:;]*)m")
# DCS, SOS, PM and APC strings (sixel and kitty images among them), which pyte 0.8 would print as text too.
CONTROL_STRING = re.compile(r"\x1b[PX^_].*?(?:\x1b\\|\x07|(?=\n)|$)", re.S)


def semicolon_sgr(match):
    """The SGR sequence with its colon forms (38:2::r:g:b, 38:5:n, 4:3) in pyte's terms."""
    fields = []
    for field in match.group(1).split(";"):
        parts = field.split(":")
        if parts[0] in ("38", "48") and len(parts) >= 3 and parts[1] == "5":
            fields += parts[:3]
        elif parts[0] in ("38", "48") and len(parts) >= 5 and parts[1] == "2":
            fields += parts[:2] + parts[-3:]  # with or without the colour space id
        elif parts[0] not in ("58", "38", "48"):
            fields.append(parts[0])  # 4:3 (curly underline) and the like: the attribute alone
    return "\x1b[" + ";".join(f or "0" for f in fields) + "m" if fields else ""


def colour(value, default):
    """An RGB tuple for a pyte colour: "default", a standard colour's name, or "rrggbb"."""
    if value in NAMED:
        return NAMED[value]
    if len(value) == 6:
        try:
            return tuple(int(value[k:k + 2], 16) for k in (0, 2, 4))
        except ValueError:
            pass
    return default


def read(text):
    """Runs the capture through pyte. Returns the screen, the capture's lines and
    the most cells a line used."""
    text = CONTROL_STRING.sub("", text.replace("\r\n", "\n").replace("\r", ""))
    text = COLON_SGR.sub(semicolon_sgr, text)
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    # Wide enough that nothing wraps and tall enough that nothing scrolls: cut when drawn.
    screen = pyte.Screen(max(2 * len(line) for line in lines) + 1 if lines else 1, max(1, len(lines)))
    screen.set_mode(pyte.modes.LNM)  # a line feed starts the next line at its first column
    pyte.Stream(screen).feed("\n".join(lines))
    used = max((max(screen.buffer[y].keys(), default=-1) + 1 for y in range(len(lines))), default=0)
    return screen, len(lines), used


def cells(screen, columns, rows):
    """The first rows x columns cells: a list of rows, each a list of (text, fg,
    bg, flags) with None for the default colours; a wide character's second cell
    holds "" (pyte's convention)."""
    result = []
    for y in range(min(rows, screen.lines)):
        line = screen.buffer[y]
        row = []
        for x in range(columns):
            char = line[x]
            flags = ((BOLD if char.bold else 0) | (ITALIC if char.italics else 0)
                     | (UNDERLINE if char.underscore else 0) | (REVERSE if char.reverse else 0)
                     | (STRIKE if char.strikethrough else 0))
            row.append((char.data, colour(char.fg, None), colour(char.bg, None), flags))
        result.append(row)
    return result


def blend(a, b, t):
    return tuple(round(a[k] * (1 - t) + b[k] * t) for k in range(3))


class GlyphSource:
    """Finds a font that really has a glyph (not .notdef) for a character."""

    def __init__(self, size):
        def load(path):
            try:
                return ImageFont.truetype(path, size)
            except OSError:
                return None

        regular = load(MONO)
        if regular is None:
            sys.exit("ansi-to-png: cannot load the font %s (apt-get install fonts-dejavu-core)" % MONO)
        self.regular = regular
        self.styled = {
            0: regular,
            BOLD: load(MONO_BOLD) or regular,
            ITALIC: load(MONO_ITALIC) or regular,
            BOLD | ITALIC: load(MONO_BOLD_ITALIC) or load(MONO_BOLD) or regular,
        }
        self.fallbacks = [f for f in (load(p) for p in FALLBACKS if os.path.exists(p)) if f]
        self.emoji = None
        for path, native in EMOJI_FONTS:
            if os.path.exists(path):
                try:
                    self.emoji = ImageFont.truetype(path, native)
                    break
                except OSError:
                    pass
        self.notdef = {}
        self.cache = {}
        self.emoji_images = {}

    def _mask(self, font, text):
        """The rendered glyph of text in font, comparable with ==, or None."""
        try:
            box = font.getbbox(text)
            if font is self.emoji:
                # Missing glyphs of the colour font render as nothing.
                return box if box[2] > box[0] and box[3] > box[1] else None
            width, height = max(1, box[2] - box[0]), max(1, box[3] - box[1])
            mask = Image.new("L", (width, height))
            ImageDraw.Draw(mask).text((-box[0], -box[1]), text, font=font, fill=255)
            return (box, mask.tobytes())
        except Exception:
            return None

    def has(self, font, text):
        """True when font has a real glyph for text (not its .notdef box)."""
        key = (id(font), text)
        if key not in self.cache:
            if id(font) not in self.notdef:
                self.notdef[id(font)] = self._mask(font, "\U0010FFFD")
            mask = self._mask(font, text)
            self.cache[key] = mask is not None and mask != self.notdef[id(font)]
        return self.cache[key]

    def font_for(self, text, flags, wide):
        """Returns (font, kind) with kind "mono", "proportional" or "emoji", or (None, None)."""
        base = text[0]
        candidates = [(self.styled[flags & (BOLD | ITALIC)], "mono"), (self.regular, "mono")]
        fallbacks = [(font, "proportional") for font in self.fallbacks]
        emoji = [(self.emoji, "emoji")] if self.emoji else []
        candidates += emoji + fallbacks if wide else fallbacks + emoji
        for font, kind in candidates:
            if self.has(font, base):
                return font, kind
        return None, None

    def emoji_image(self, text, width, height):
        """The colour glyph for text scaled to fit width x height (RGBA), or None."""
        key = (text, width, height)
        if key not in self.emoji_images:
            image = None
            try:
                left, top, right, bottom = self.emoji.getbbox(text)
                if right > left and bottom > top:
                    glyph = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
                    ImageDraw.Draw(glyph).text((-left, -top), text, font=self.emoji, embedded_color=True)
                    scale = min(width / glyph.width, height / glyph.height)
                    size = (max(1, round(glyph.width * scale)), max(1, round(glyph.height * scale)))
                    image = glyph.resize(size, Image.LANCZOS)
            except Exception:
                image = None
            self.emoji_images[key] = image
        return self.emoji_images[key]


# Smooth mosaic wedges U+1FB3C-U+1FB67 as polygons, one per character: each
# vertex is two digits, x in halves and y in thirds of the cell.
WEDGES = (
    "130302 230302 130301 230301 001303 1020230301 20230301 1020230302 20230302 10202303 "
    "21230302 222313 222303 212313 212303 202313 0010212303 00212303 0010222303 00222303 "
    "00102303 22230301 0020231302 00202302 0020231301 00202301 00202313 001001 002001 001002 "
    "002002 001003 00202102 0020221303 00202203 0020211303 00202103 00201303 102021 002021 "
    "102022 002022 102023 00202201"
).split()
# U+1FB68-U+1FB6F: triangles to the cell centre (x, y in fractions of the cell).
TRIANGULAR = [
    [(0, 0), (1, 0), (1, 1), (0, 1), (0.5, 0.5)],  # all but the left quarter
    [(0, 0), (0.5, 0.5), (1, 0), (1, 1), (0, 1)],  # all but the upper quarter
    [(0, 0), (1, 0), (0.5, 0.5), (1, 1), (0, 1)],  # all but the right quarter
    [(0, 0), (1, 0), (1, 1), (0.5, 0.5), (0, 1)],  # all but the lower quarter
    [(0, 0), (0.5, 0.5), (0, 1)],  # left quarter
    [(0, 0), (1, 0), (0.5, 0.5)],  # upper quarter
    [(1, 0), (1, 1), (0.5, 0.5)],  # right quarter
    [(0, 1), (0.5, 0.5), (1, 1)],  # lower quarter
]


def rect(draw, x0, y0, x1, y1, colour):
    if x1 > x0 and y1 > y0:
        draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=colour)


def draw_block(draw, ch, x0, y0, w, h, fg, bg):
    """Draws block elements, sextants, wedges and corner triangles geometrically.

    Returns False when ch is not one of them."""
    o = ord(ch)
    fx = lambda k: x0 + round(w * k / 8)
    fy = lambda k: y0 + round(h * k / 8)
    x1, y1 = x0 + w, y0 + h
    if 0x2580 <= o <= 0x259F:
        if o == 0x2580:
            rect(draw, x0, y0, x1, fy(4), fg)
        elif 0x2581 <= o <= 0x2588:
            rect(draw, x0, fy(8 - (o - 0x2580)), x1, y1, fg)
        elif 0x2589 <= o <= 0x258F:
            rect(draw, x0, y0, fx(8 - (o - 0x2588)), y1, fg)
        elif o == 0x2590:
            rect(draw, fx(4), y0, x1, y1, fg)
        elif 0x2591 <= o <= 0x2593:
            rect(draw, x0, y0, x1, y1, blend(bg, fg, (o - 0x2590) / 4))
        elif o == 0x2594:
            rect(draw, x0, y0, x1, fy(1), fg)
        elif o == 0x2595:
            rect(draw, fx(7), y0, x1, y1, fg)
        else:
            # Quadrant bits: 1 upper left, 2 upper right, 4 lower left, 8 lower right.
            bits = {0x2596: 4, 0x2597: 8, 0x2598: 1, 0x2599: 1 | 4 | 8, 0x259A: 1 | 8,
                    0x259B: 1 | 2 | 4, 0x259C: 1 | 2 | 8, 0x259D: 2, 0x259E: 2 | 4,
                    0x259F: 2 | 4 | 8}[o]
            mx, my = fx(4), fy(4)
            if bits & 1:
                rect(draw, x0, y0, mx, my, fg)
            if bits & 2:
                rect(draw, mx, y0, x1, my, fg)
            if bits & 4:
                rect(draw, x0, my, mx, y1, fg)
            if bits & 8:
                rect(draw, mx, my, x1, y1, fg)
        return True
    if 0x1FB00 <= o <= 0x1FB3B:
        # Sextants: 60 of the 64 patterns of a 2x3 grid (empty, left half,
        # right half and full are elsewhere). Bit 0 is upper left, then row by row.
        n = o - 0x1FB00 + 1
        if n >= 21:
            n += 1
        if n >= 42:
            n += 1
        xs = (x0, fx(4), x1)
        ys = (y0, y0 + round(h / 3), y0 + round(2 * h / 3), y1)
        for bit in range(6):
            if n & (1 << bit):
                c, r = bit % 2, bit // 2
                rect(draw, xs[c], ys[r], xs[c + 1], ys[r + 1], fg)
        return True
    if 0x1FB3C <= o <= 0x1FB67:
        spec = WEDGES[o - 0x1FB3C]
        points = [(int(spec[k]) / 2, int(spec[k + 1]) / 3) for k in range(0, len(spec), 2)]
    elif 0x1FB68 <= o <= 0x1FB6F:
        points = TRIANGULAR[o - 0x1FB68]
    elif 0x25E2 <= o <= 0x25E5:
        points = [
            [(1, 0), (1, 1), (0, 1)],  # lower right triangle
            [(0, 0), (1, 1), (0, 1)],  # lower left
            [(0, 0), (1, 0), (0, 1)],  # upper left
            [(0, 0), (1, 0), (1, 1)],  # upper right
        ][o - 0x25E2]
    else:
        return False
    # Pixel centres from the first to the last row / column of the cell.
    draw.polygon([(x0 + fx * (w - 1), y0 + fy * (h - 1)) for fx, fy in points], fill=fg)
    return True


def draw_braille(draw, ch, x0, y0, w, h, fg):
    bits = ord(ch) - 0x2800
    # Dot numbering: 1 2 3 7 down the left column, 4 5 6 8 down the right.
    positions = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3)]
    r = max(1, min(w, h) // 8)
    for bit, (c, row) in enumerate(positions):
        if bits & (1 << bit):
            cx = x0 + w * (1 + 2 * c) / 4
            cy = y0 + h * (1 + 2 * row) / 8
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fg)


def render(rows, columns, rows_count, font_size, title, fg_default, bg_default):
    glyphs = GlyphSource(font_size)
    font = glyphs.regular
    ascent, descent = font.getmetrics()
    cell_w = max(1, round(font.getlength("M")))
    cell_h = ascent + descent
    if cell_h < cell_w:
        cell_h = 2 * cell_w

    pad_x, pad_y = cell_w, cell_h
    title_h = 0
    title_font = None
    if title:
        try:
            title_font = ImageFont.truetype(TITLE_FONT, max(8, round(font_size * 0.85)))
        except OSError:
            title_font = font
        ta, td = title_font.getmetrics()
        title_h = ta + td + round(cell_h * 0.6)

    width = columns * cell_w + 2 * pad_x
    height = title_h + rows_count * cell_h + 2 * pad_y
    image = Image.new("RGB", (width, height), bg_default)
    draw = ImageDraw.Draw(image)

    if title:
        rect(draw, 0, 0, width, title_h, TITLE_BG)
        rect(draw, 0, title_h - 1, width, title_h, (0x12, 0x12, 0x12))
        radius = max(3, title_h // 7)
        for k, colour in enumerate([(0xFF, 0x5F, 0x57), (0xFE, 0xBC, 0x2E), (0x28, 0xC8, 0x40)]):
            cx = pad_x + radius + k * radius * 3.2
            cy = title_h / 2
            draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=colour)
        draw.text((width / 2, title_h / 2), title, font=title_font, fill=TITLE_FG, anchor="mm")

    origin_x, origin_y = pad_x, title_h + pad_y
    deferred = []  # (x, y, span, text, fg, flags) drawn after all backgrounds

    for r, row in enumerate(rows[:rows_count]):
        y = origin_y + r * cell_h
        for c, (text, fg, bg, flags) in enumerate(row[:columns]):
            x = origin_x + c * cell_w
            if fg is None:
                fg = fg_default
                if flags & BOLD:
                    fg = blend(fg, (255, 255, 255), 0.25)
            bg = bg if bg is not None else bg_default
            if flags & REVERSE:
                fg, bg = bg, fg
            if text == "":
                continue  # continuation of a wide character: background already drawn
            span = 2 if c + 1 < len(row) and c + 1 < columns and row[c + 1][0] == "" else 1
            rect(draw, x, y, x + span * cell_w, y + cell_h, bg)
            if text == " ":
                if flags & (UNDERLINE | STRIKE):
                    deferred.append((x, y, span, "", fg, flags))
                continue
            if len(text) == 1 and draw_block(draw, text, x, y, cell_w, cell_h, fg, bg):
                continue
            deferred.append((x, y, span, text, fg, flags))

    for x, y, span, text, fg, flags in deferred:
        w = span * cell_w
        if text:
            o = ord(text[0])
            glyph_font, kind = glyphs.font_for(text, flags, span == 2)
            if 0x2800 <= o <= 0x28FF and kind != "mono":
                glyph_font = kind = None  # dots line up better than a proportional font's braille
            emoji = None
            if kind == "emoji":
                emoji = glyphs.emoji_image(text[0], w - 2, cell_h - 2)
            if emoji is not None:
                image.paste(emoji, (x + (w - emoji.width) // 2, y + (cell_h - emoji.height) // 2), emoji)
            elif glyph_font is None and 0x2800 <= o <= 0x28FF:
                draw_braille(draw, text[0], x, y, cell_w, cell_h, fg)
            elif glyph_font is None or kind == "emoji":
                inset = max(1, cell_w // 5)
                draw.rectangle([x + inset, y + inset + cell_h // 8, x + w - 1 - inset,
                                y + cell_h - 1 - inset - cell_h // 8], outline=fg)
            elif kind == "mono":
                try:
                    advance = glyph_font.getlength(text)
                except Exception:
                    advance = w
                tx = x + (w - advance) / 2 if span == 2 else x
                draw.text((tx, y + ascent), text, font=glyph_font, fill=fg, anchor="ls")
            else:
                # Proportional fallback font: centre the glyph in its cells.
                draw.text((x + w / 2, y + ascent), text, font=glyph_font, fill=fg, anchor="ms")
        thickness = max(1, cell_h // 16)
        if flags & UNDERLINE:
            uy = y + ascent + max(1, descent // 3)
            rect(draw, x, uy, x + w, uy + thickness, fg)
        if flags & STRIKE:
            sy = y + round(ascent * 0.62)
            rect(draw, x, sy, x + w, sy + thickness, fg)

    return image


def hex_colour(value):
    v = value.lstrip("#")
    if not re.fullmatch(r"[0-9a-fA-F]{6}", v):
        raise argparse.ArgumentTypeError("expected a colour like #1c1c1c")
    return tuple(int(v[k:k + 2], 16) for k in (0, 2, 4))


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(1, "ansi-to-png: %s\n" % message)


def main(argv=None):
    parser = Parser(
        description="Render a terminal capture with ANSI colours (e.g. tmux capture-pane -p -e) as a PNG.")
    parser.add_argument("capture", help="capture file, or - for standard input")
    parser.add_argument("output", help="PNG file to write")
    parser.add_argument("--columns", type=int, default=120,
                        help="terminal width in cells (0: fit the capture; default 120)")
    parser.add_argument("--rows", type=int, default=40,
                        help="terminal height in cells (0: fit the capture; default 40)")
    parser.add_argument("--font-size", type=int, default=16, help="font size in pixels (default 16)")
    parser.add_argument("--title", help="text for a window title bar above the terminal")
    parser.add_argument("--foreground", type=hex_colour, default=DEFAULT_FG,
                        help="default foreground colour (default #d0d0d0)")
    parser.add_argument("--background", type=hex_colour, default=DEFAULT_BG,
                        help="default background colour (default #1c1c1c)")
    args = parser.parse_args(argv)

    if args.columns < 0 or args.rows < 0:
        parser.error("--columns and --rows must be 0 or more")
    if not 4 <= args.font_size <= 200:
        parser.error("--font-size must be between 4 and 200")

    try:
        if args.capture == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.capture, "rb") as f:
                data = f.read()
    except OSError as error:
        print("ansi-to-png: cannot read %s: %s" % (args.capture, error.strerror or error), file=sys.stderr)
        return 1
    if not data:
        print("ansi-to-png: %s is empty" % args.capture, file=sys.stderr)
        return 1
    text = data.decode("utf-8", errors="replace")
    if "\x00" in text:
        print("ansi-to-png: %s looks like a binary file, not a terminal capture" % args.capture, file=sys.stderr)
        return 1

    screen, lines, used = read(text)
    columns = args.columns or max(1, used)
    rows_count = args.rows or max(1, lines)
    if lines > rows_count:
        print("ansi-to-png: warning: capture has %d lines, keeping the first %d" % (lines, rows_count),
              file=sys.stderr)
    if used > columns:
        print("ansi-to-png: warning: capture has lines of %d cells, cutting at %d" % (used, columns),
              file=sys.stderr)

    image = render(cells(screen, columns, rows_count), columns, rows_count, args.font_size, args.title,
                   args.foreground, args.background)
    try:
        image.save(args.output, format="PNG", optimize=True)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or error
        print("ansi-to-png: cannot write %s: %s" % (args.output, reason), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
