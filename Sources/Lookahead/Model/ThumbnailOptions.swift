// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Asks the decoder for a smaller image, the Linux counterpart of `prepareThumbnail(of:)`.
///
/// Decoders shrink while decoding where the codec can (libjpeg-turbo's DCT scaling, libwebp's scaled decode),
/// to the smallest size still at least the target; a filtered resample then gives the exact size. Thumbnails
/// are never upscaled.
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

    /// The target of the thumbnail.
    public var target: Target

    /// A thumbnail whose longer side is at most `maximumPixelSize` pixels.
    public init(maximumPixelSize: Int) {
        self.target = .maximumPixelSize(max(1, maximumPixelSize))
    }

    /// A thumbnail for a target size in pixels.
    public init(width: Int, height: Int, contentMode: ContentMode = .aspectFill) {
        self.target = .size(width: max(1, width), height: max(1, height), contentMode: contentMode)
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

    /// The exact size of the thumbnail of an image of the given size: scaled by ``scale(forWidth:height:)``,
    /// rounded, at least one pixel.
    package func targetSize(forWidth width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = scale(forWidth: width, height: height)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    public var description: String {
        switch target {
        case .maximumPixelSize(let side): "max\(side)px"
        case .size(let w, let h, let mode): "\(w)x\(h)\(mode == .aspectFit ? "fit" : "fill")"
        }
    }
}
