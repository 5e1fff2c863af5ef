// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// What image data says about itself, read without decoding the pixels: what `lookahead decode` prints.
public struct ImageMetadata: Sendable, Equatable {
    /// The decoder that recognises the data ("JPEG", "HEIF").
    public var format: String
    /// The EXIF orientation the decoder applies (`.up` when there is none).
    public var orientation: ExifOrientation
    /// The description of the embedded colour profile ("Display P3"), or `nil` for an untagged image (taken as sRGB).
    public var colorProfile: String?
    /// Whether decoding converts the colours to sRGB (an RGB profile that is not sRGB, on Linux with Little CMS).
    public var isConvertedToSRGB: Bool

    /// Creates metadata.
    public init(
        format: String,
        orientation: ExifOrientation = .up,
        colorProfile: String? = nil,
        isConvertedToSRGB: Bool = false
    ) {
        self.format = format
        self.orientation = orientation
        self.colorProfile = colorProfile
        self.isConvertedToSRGB = isConvertedToSRGB
    }
}

/// A decoder that can say what a file holds without decoding it.
package protocol ImageMetadataReading: ImageDecoding {
    /// The metadata of data this decoder recognises.
    func metadata(of data: Data) -> ImageMetadata
}

extension ImageDecoders {
    /// The format, orientation and colour profile of image data, or `nil` when no decoder recognises it.
    ///
    /// ```swift
    /// if let metadata = ImageDecoders.metadata(of: data) {
    ///     print(metadata.format, metadata.colorProfile ?? "untagged")
    /// }
    /// ```
    public static func metadata(
        of data: Data,
        decoders: [any ImageDecoding] = ImageDecoders.default
    ) -> ImageMetadata? {
        guard let decoder = try? decoder(for: data, in: decoders).get() else { return nil }
        if let reader = decoder as? any ImageMetadataReading { return reader.metadata(of: data) }
        return ImageMetadata(format: decoder.name)
    }

    /// The metadata for a decoder's name, orientation and raw ICC profile.
    package static func metadata(format: String, orientation: ExifOrientation, profile: [UInt8]?) -> ImageMetadata {
        var metadata = ImageMetadata(format: format, orientation: orientation)
        guard let profile else { return metadata }
        #if canImport(CLCMS)
        if let info = ColorManagement.info(profile) {
            metadata.colorProfile = info.description.isEmpty ? "ICC profile" : info.description
            metadata.isConvertedToSRGB = info.isConverted
        } else {
            metadata.colorProfile = "unreadable ICC profile (ignored)"
        }
        #else
        metadata.colorProfile = "ICC profile"
        #endif
        return metadata
    }
}
