// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Asks the decoder for a smaller image. Decoders shrink while decoding where the codec can, to the smallest size
/// still covering the target; a filtered resample then gives the exact size. Never upscaled.
public struct ThumbnailOptions: Hashable, Sendable, CustomStringConvertible {
    /// How a thumbnail fits its target size.
    public enum ContentMode: Hashable, Sendable {
        /// The whole image fits inside the size.
        case aspectFit
        /// The image covers the size.
        case aspectFill
    }

    /// The target: the longest side, or a size with a content mode.
    public enum Target: Hashable, Sendable {
        case maximumPixelSize(Int)
        case size(width: Int, height: Int, contentMode: ContentMode)
    }

    /// The target of the thumbnail, in pixels.
    public var target: Target
    /// Pixels per point of the display the thumbnail is for (1 for a size in pixels); the image carries it
    /// (`UIImage.scale`, ``ImageResponse/scale``), so a view sized to the image shows it at its size in points.
    public var scale: Double = 1

    /// A thumbnail whose longer side is at most `maximumPixelSize` pixels.
    public init(maximumPixelSize: Int) {
        self.target = .maximumPixelSize(max(1, maximumPixelSize))
    }

    /// A thumbnail for a target size in pixels.
    public init(width: Int, height: Int, contentMode: ContentMode = .aspectFill) {
        self.target = .size(width: max(1, width), height: max(1, height), contentMode: contentMode)
    }

    /// A thumbnail whose longer side is at most `maximumPointSize` points on a display of `scale` pixels per point.
    ///
    /// ```swift
    /// ThumbnailOptions(maximumPointSize: 80, scale: traitCollection.displayScale)  // 240 px on a 3× screen
    /// ```
    public init(maximumPointSize: Double, scale: Double) {
        let scale = Self.validScale(scale)
        self.init(maximumPixelSize: Self.pixels(maximumPointSize, scale))
        self.scale = scale
    }

    /// A thumbnail for a target size in points on a display of `scale` pixels per point (`displayScale`).
    public init(pointWidth: Double, pointHeight: Double, scale: Double, contentMode: ContentMode = .aspectFill) {
        let scale = Self.validScale(scale)
        self.init(
            width: Self.pixels(pointWidth, scale),
            height: Self.pixels(pointHeight, scale),
            contentMode: contentMode
        )
        self.scale = scale
    }

    /// Points to whole pixels, a fraction counting as a pixel, so the image is never smaller than its view.
    private static func pixels(_ points: Double, _ scale: Double) -> Int {
        let pixels = (points * scale).rounded(.up)
        return pixels.isFinite ? Int(min(max(pixels, 1), Double(1 << 30))) : 1
    }

    private static func validScale(_ scale: Double) -> Double {
        scale.isFinite && scale > 0 ? scale : 1
    }

    /// The scale (≤ 1) that brings an image of the given size to this target.
    package func scale(forWidth width: Int, height: Int) -> Double {
        guard width > 0, height > 0 else { return 1 }
        let scale: Double
        switch target {
        case .maximumPixelSize(let side):
            scale = Double(side) / Double(max(width, height))
        case .size(let targetWidth, let targetHeight, let mode):
            let sx = Double(targetWidth) / Double(width)
            let sy = Double(targetHeight) / Double(height)
            scale = mode == .aspectFit ? min(sx, sy) : max(sx, sy)
        }
        return min(1, scale)
    }

    /// The exact size of the thumbnail of an image of the given size: scaled, rounded, at least one pixel.
    package func targetSize(forWidth width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = scale(forWidth: width, height: height)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    public var description: String {
        let size =
            switch target {
            case .maximumPixelSize(let side): "max\(side)px"
            case .size(let w, let h, let mode): "\(w)x\(h)\(mode == .aspectFit ? "fit" : "fill")"
            }
        return scale == 1 ? size : "\(size)@\(scale)x"
    }
}
