// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — images into terminal cells (or terminal graphics) with chafa.

import CChafa
import Foundation
import Lookahead

/// How images reach the terminal.
public enum GraphicsMode: String, Sendable, CaseIterable {
    /// Unicode block symbols in 24-bit colour: works in every modern terminal and in tmux.
    case symbols
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// DEC sixels (foot, mlterm, WezTerm, xterm -ti vt340).
    case sixels
    /// iTerm2's inline images (iTerm2, WezTerm).
    case iterm2

    /// Picks the best mode the environment announces. Conservative: pixel modes only where the terminal says
    /// who it is, and never inside tmux or screen, which would need pass-through; symbols otherwise.
    public static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> GraphicsMode {
        let term = environment["TERM"] ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") { return .symbols }
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty" { return .kitty }
        if program == "iTerm.app" || program == "WezTerm" { return .iterm2 }
        if term == "foot" || term.hasPrefix("foot-") || term.hasPrefix("mlterm") { return .sixels }
        return .symbols
    }
}

/// Draws bitmaps with chafa. Stateless: every call makes its own chafa canvas, so calls may run on several
/// threads at once. Calls take a millisecond or so for a list thumbnail: run them off the frame loop.
public enum ChafaRenderer {
    /// The bitmap as `columns` × `rows` cells of block symbols, composited over `background`.
    public static func art(_ bitmap: Bitmap, columns: Int, rows: Int, background: RGB) -> TerminalArt {
        let columns = max(1, columns)
        let rows = max(1, rows)
        let pixels = flattened(bitmap, over: background)
        let symbols = chafa_symbol_map_new()
        defer { chafa_symbol_map_unref(symbols) }
        chafa_symbol_map_add_by_tags(
            symbols,
            ChafaSymbolTags(CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue)
        )
        let canvas = drawnCanvas(
            pixels,
            width: bitmap.width,
            height: bitmap.height,
            bytesPerRow: bitmap.width * 4,
            columns: columns,
            rows: rows
        ) { config in
            chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
            chafa_canvas_config_set_symbol_map(config, symbols)
        }
        defer { chafa_canvas_unref(canvas) }
        var cells: [ScreenCell] = []
        cells.reserveCapacity(columns * rows)
        for y in 0..<rows {
            for x in 0..<columns {
                let code = chafa_canvas_get_char_at(canvas, gint(x), gint(y))
                var foreground: gint = -1
                var backgroundColor: gint = -1
                chafa_canvas_get_colors_at(canvas, gint(x), gint(y), &foreground, &backgroundColor)
                let character = Unicode.Scalar(UInt32(code)).map(Character.init) ?? " "
                cells.append(
                    ScreenCell(
                        TerminalWidth.columns(of: character) == 1 ? character : " ",
                        foreground: foreground < 0 ? background : RGB(packed: UInt32(foreground)),
                        background: backgroundColor < 0 ? background : RGB(packed: UInt32(backgroundColor))
                    )
                )
            }
        }
        return TerminalArt(columns: columns, rows: rows, cells: cells)
    }

    /// The bitmap as one terminal-graphics escape sequence sized to `columns` × `rows` cells, to print with the
    /// cursor at the top-left cell. `mode` must not be ``GraphicsMode/symbols``.
    public static func graphics(
        _ bitmap: Bitmap,
        columns: Int,
        rows: Int,
        mode: GraphicsMode,
        cellSize: (width: Int, height: Int)
    ) -> String {
        let pixelMode: ChafaPixelMode =
            switch mode {
            case .kitty: CHAFA_PIXEL_MODE_KITTY
            case .sixels: CHAFA_PIXEL_MODE_SIXELS
            case .iterm2: CHAFA_PIXEL_MODE_ITERM2
            case .symbols: CHAFA_PIXEL_MODE_SYMBOLS
            }
        let canvas = drawnCanvas(
            bitmap.pixels,
            width: bitmap.width,
            height: bitmap.height,
            bytesPerRow: bitmap.bytesPerRow,
            columns: max(1, columns),
            rows: max(1, rows)
        ) { config in
            chafa_canvas_config_set_cell_geometry(
                config,
                gint(max(1, cellSize.width)),
                gint(max(1, cellSize.height))
            )
            chafa_canvas_config_set_pixel_mode(config, pixelMode)
        }
        defer { chafa_canvas_unref(canvas) }
        // The sequences of a terminal known to speak the protocol (the mode was detected or asked for).
        let identity =
            switch mode {
            case .kitty: "TERM=xterm-kitty"
            case .iterm2: "TERM_PROGRAM=iTerm.app"
            case .sixels, .symbols: "TERM=mlterm"
            }
        let info = identity.withCString { entry in
            var environment: [UnsafeMutablePointer<gchar>?] = [strdup(entry), nil]
            defer { free(environment[0]) }
            return chafa_term_db_detect(chafa_term_db_get_default(), &environment)
        }
        defer { chafa_term_info_unref(info) }
        guard let printed = chafa_canvas_print(canvas, info) else { return "" }
        defer { lookahead_gstring_free(printed) }
        return String(cString: printed.pointee.str)
    }

    /// A true-colour canvas of `columns` × `rows` cells, configured further by `configure`, with the RGBA pixels
    /// drawn into it. The caller unrefs it.
    private static func drawnCanvas(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        bytesPerRow: Int,
        columns: Int,
        rows: Int,
        configure: (OpaquePointer?) -> Void
    ) -> OpaquePointer? {
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, gint(columns), gint(rows))
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        configure(config)
        let canvas = chafa_canvas_new(config)
        pixels.withUnsafeBufferPointer { buffer in
            chafa_canvas_draw_all_pixels(
                canvas,
                CHAFA_PIXEL_RGBA8_UNASSOCIATED,
                buffer.baseAddress,
                gint(width),
                gint(height),
                gint(bytesPerRow)
            )
        }
        return canvas
    }

    /// Tightly packed RGBA with alpha composited over `background` (symbols have no transparency).
    private static func flattened(_ bitmap: Bitmap, over background: RGB) -> [UInt8] {
        var out = [UInt8](repeating: 255, count: bitmap.width * bitmap.height * 4)
        let back = [Int(background.red), Int(background.green), Int(background.blue)]
        bitmap.pixels.withUnsafeBufferPointer { source in
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let input = y * bitmap.bytesPerRow + x * 4
                    let output = (y * bitmap.width + x) * 4
                    let alpha = Int(source[input + 3])
                    for channel in 0..<3 {
                        let value = Int(source[input + channel])
                        out[output + channel] = UInt8((value * alpha + back[channel] * (255 - alpha) + 127) / 255)
                    }
                }
            }
        }
        return out
    }
}

extension ChafaRenderer {
    /// Where a frame loop has images drawn, off its own thread: it hands a bitmap over and gets the drawing back
    /// later, in the gallery's graphics mode and over its background. Draws several images at once.
    struct Queue: Sendable {
        let mode: GraphicsMode
        let background: RGB
        private let queue = DispatchQueue(label: "Lookahead.Gallery.render", attributes: .concurrent)

        /// Draws `bitmap` in `columns` × `rows` cells on the queue and hands `done` the result there: cells of block
        /// symbols, or one pixel-graphics escape sequence (kitty, sixels, iTerm2).
        func draw(
            _ bitmap: Bitmap,
            columns: Int,
            rows: Int,
            then done: @escaping @Sendable (_ art: TerminalArt?, _ graphics: String?) -> Void
        ) {
            queue.async { [mode, background] in
                if mode == .symbols {
                    done(ChafaRenderer.art(bitmap, columns: columns, rows: rows, background: background), nil)
                } else {
                    let cellSize = (width: 10, height: 20)
                    done(
                        nil,
                        ChafaRenderer.graphics(bitmap, columns: columns, rows: rows, mode: mode, cellSize: cellSize)
                    )
                }
            }
        }
    }
}
