// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — varied animation frames: every frame different, none that compresses to nothing.

import Foundation

extension AnimationEncoder {
    /// `count` RGB pictures of `side` × `side` that change every frame and do not compress to nothing: bands that
    /// scroll, discs that move and change colour, and a square of noise; the same in every run.
    public static func variedFrames(count: Int, side: Int) -> [[UInt8]] {
        var random = SplitMix64(seed: 54)
        let discs = (0..<6).map { _ in
            (
                x: Double.random(in: 0..<1, using: &random), y: Double.random(in: 0..<1, using: &random),
                radius: Double(side) * Double.random(in: 0.05..<0.15, using: &random)
            )
        }
        return (0..<count).map { index in
            var frame = [UInt8](repeating: 0, count: side * side * 3)
            let phase = Double(index) / Double(count)
            for y in 0..<side {
                let band = UInt8((y * 255 / side + index) % 256)
                for x in 0..<side {
                    let offset = (y * side + x) * 3
                    frame[offset] = band
                    frame[offset + 1] = UInt8((x * 255 / side) / 32 * 32)
                    frame[offset + 2] = 255 &- band
                }
            }
            for (number, disc) in discs.enumerated() {
                drawDisc(disc, number: number, frame: index, phase: phase, side: side, into: &frame)
            }
            let corner = side / 10
            for y in 0..<corner {
                for x in 0..<corner {
                    let offset = (y * side + x) * 3
                    for channel in 0..<3 { frame[offset + channel] = UInt8.random(in: 0...255, using: &random) }
                }
            }
            return frame
        }
    }

    /// Disc `number` at `phase` of its circle, in a colour that changes with `frame`.
    private static func drawDisc(
        _ disc: (x: Double, y: Double, radius: Double),
        number: Int,
        frame index: Int,
        phase: Double,
        side: Int,
        into frame: inout [UInt8]
    ) {
        let angle = 2 * Double.pi * (phase + Double(number) / 6)
        let centre = (
            x: Double(side) * (disc.x + 0.25 * cos(angle)).truncatingRemainder(dividingBy: 1),
            y: Double(side) * (disc.y + 0.25 * sin(angle)).truncatingRemainder(dividingBy: 1)
        )
        let color = [UInt8(number * 40), UInt8((index * 3 + number * 50) % 256), UInt8(200 - number * 30)]
        let (minX, maxX) = (max(0, Int(centre.x - disc.radius)), min(side - 1, Int(centre.x + disc.radius)))
        let (minY, maxY) = (max(0, Int(centre.y - disc.radius)), min(side - 1, Int(centre.y + disc.radius)))
        guard minX <= maxX, minY <= maxY else { return }
        for y in minY...maxY {
            for x in minX...maxX {
                let (dx, dy) = (Double(x) - centre.x, Double(y) - centre.y)
                guard dx * dx + dy * dy <= disc.radius * disc.radius else { continue }
                frame.replaceSubrange(((y * side + x) * 3)..<((y * side + x) * 3 + 3), with: color)
            }
        }
    }
}
