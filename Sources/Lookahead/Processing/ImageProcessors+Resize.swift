// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension ImageProcessors {
    /// Resizes an image to fit in or fill a size (in pixels), keeping its aspect ratio.
    ///
    /// On a 640×480 image: fill 400×400 → 533×400; fit 480×480 → 480×360; width 400 → 400×300;
    /// fill 400×400 with crop → 400×400 (the centre); fill 800×800 with crop, no upscaling → 480×480 (the centre,
    /// in the requested shape).
    public struct Resize: ImageProcessing {
        /// How the image relates to the target size.
        public enum ContentMode: String, Sendable, Hashable {
            /// Scale so the image fits inside the size.
            case aspectFit = "fit"
            /// Scale so the image covers the size.
            case aspectFill = "fill"
        }

        /// The target width; `nil` to follow the height.
        public let width: Int?
        /// The target height; `nil` to follow the width.
        public let height: Int?
        /// Fit or fill.
        public let contentMode: ContentMode
        /// With `.aspectFill`, crop the result to exactly the target size, keeping the centre.
        public let crop: Bool
        /// Allow making the image larger; off by default.
        public let upscale: Bool
        /// The resampling filter.
        public let filter: Resampler.Filter

        /// Resizes to fit or fill `width` × `height`.
        public init(
            width: Int,
            height: Int,
            contentMode: ContentMode = .aspectFill,
            crop: Bool = false,
            upscale: Bool = false,
            filter: Resampler.Filter = .catmullRom
        ) {
            self.init(max(1, width), max(1, height), contentMode, crop, upscale, filter)
        }

        /// Resizes to a width, keeping the aspect ratio.
        public init(width: Int, upscale: Bool = false) {
            self.init(max(1, width), nil, .aspectFit, false, upscale, .catmullRom)
        }

        /// Resizes to a height, keeping the aspect ratio.
        public init(height: Int, upscale: Bool = false) {
            self.init(nil, max(1, height), .aspectFit, false, upscale, .catmullRom)
        }

        private init(
            _ width: Int?,
            _ height: Int?,
            _ contentMode: ContentMode,
            _ crop: Bool,
            _ upscale: Bool,
            _ filter: Resampler.Filter
        ) {
            (self.width, self.height, self.contentMode) = (width, height, contentMode)
            (self.crop, self.upscale, self.filter) = (crop, upscale, filter)
        }

        public var identifier: String {
            "resize(w=\(width.map(String.init) ?? "auto"),h=\(height.map(String.init) ?? "auto"),"
                + "\(contentMode.rawValue),crop=\(crop),upscale=\(upscale),\(filter))"
        }

        /// The size the image is scaled to, before any crop.
        public func scaledSize(forWidth imageWidth: Int, height imageHeight: Int) -> (width: Int, height: Int) {
            let sx = width.map { Double($0) / Double(imageWidth) }
            let sy = height.map { Double($0) / Double(imageHeight) }
            let scales = [sx, sy].compactMap { $0 }
            var scale = (contentMode == .aspectFit ? scales.min() : scales.max()) ?? 1
            if !upscale { scale = min(1, scale) }
            return (
                max(1, Int((Double(imageWidth) * scale).rounded())),
                max(1, Int((Double(imageHeight) * scale).rounded()))
            )
        }

        public func process(_ image: Bitmap) throws -> Bitmap {
            let size = scaledSize(forWidth: image.width, height: image.height)
            let scaled = Resampler.resize(image, width: size.width, height: size.height, filter: filter)
            guard crop, contentMode == .aspectFill, let width, let height else { return scaled }
            // An image too small to cover the size (no upscaling) keeps the largest centred rectangle of the size's shape.
            let aspect = Double(width) / Double(height)
            let cropWidth = min(width, scaled.width, Int((Double(scaled.height) * aspect).rounded()))
            let cropHeight = min(height, scaled.height, Int((Double(scaled.width) / aspect).rounded()))
            return scaled.cropped(width: cropWidth, height: cropHeight)
        }
    }
}

extension Bitmap {
    /// The centre `width` × `height` of the image.
    public func cropped(width: Int, height: Int) -> Bitmap {
        let width = max(1, min(width, self.width))
        let height = max(1, min(height, self.height))
        guard width != self.width || height != self.height else { return self }
        return region(left: (self.width - width) / 2, top: (self.height - height) / 2, width: width, height: height)
    }

    /// A copy of the `width` × `height` pixels from (`left`, `top`), its rows exactly `width * 4` bytes apart.
    func region(left: Int, top: Int, width: Int, height: Int) -> Bitmap {
        var output = [UInt8]()
        output.reserveCapacity(width * height * 4)
        for row in top..<(top + height) {
            let start = row * bytesPerRow + left * 4
            output.append(contentsOf: pixels[start..<(start + width * 4)])
        }
        return Bitmap(width: width, height: height, pixels: output)
    }
}
