// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CLCMS)
import CLCMS
import Foundation

/// Converts decoded RGBA pixels from the colour space of an embedded ICC profile to sRGB, the space every bitmap of
/// the pipeline is in. Untagged images are taken as sRGB; a profile that is sRGB itself, or that is not an RGB
/// profile (grey, CMYK), leaves the pixels as they are.
package enum ColorManagement {
    /// A transform from one profile to sRGB, shared by the decode threads.
    private final class Transform: @unchecked Sendable {
        // SAFETY: `cmsDoTransform` on a transform made with `cmsFLAGS_NOCACHE` keeps no per-transform state, which
        // Little CMS documents as safe to share between threads; it is deleted when no thread can hold it any more.
        let handle: UnsafeMutableRawPointer
        init(_ handle: UnsafeMutableRawPointer) { self.handle = handle }
        deinit { cmsDeleteTransform(handle) }
    }

    /// Transforms by the SHA-256 of their profile (a server could send many large profiles), `nil` for profiles that
    /// need none; at most 32 of each kind: RGB, and CMYK (`true`), whose transforms take inverted CMYK.
    private static let transforms = Locked<[Bool: [[UInt8]: Transform?]]>([:])

    /// `bitmap` with its colours converted from `profile` to sRGB; `nil` when there is nothing to convert or the
    /// profile cannot be read (it is then taken as sRGB). With `invertedCMYK`, the pixels are inverted (Adobe) CMYK
    /// and only a CMYK profile converts them.
    package static func convertToSRGB(_ bitmap: Bitmap, from profile: [UInt8], invertedCMYK: Bool = false) -> Bitmap? {
        guard let transform = transform(for: profile, cmyk: invertedCMYK) else { return nil }
        let width = bitmap.width
        // Tightly packed rows; a CMYK transform writes no alpha, so they are opaque from the start.
        var output = [UInt8](repeating: invertedCMYK ? 255 : 0, count: width * bitmap.height * 4)
        bitmap.pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                for row in 0..<(target.count / max(1, width * 4)) {
                    let from = source.baseAddress! + row * bitmap.bytesPerRow
                    let to = target.baseAddress! + row * width * 4
                    cmsDoTransform(transform.handle, from, to, cmsUInt32Number(width))
                }
            }
        }
        return Bitmap(width: width, height: bitmap.height, pixels: output)
    }

    /// A profile's own description ("Display P3") and whether pixels in it are converted (a CMYK profile, or an RGB
    /// one that is not sRGB); `nil` when it cannot be read.
    package static func info(_ profile: [UInt8]) -> (description: String, isConverted: Bool)? {
        guard let handle = open(profile) else { return nil }
        defer { cmsCloseProfile(handle) }
        let isCMYK = cmsGetColorSpace(handle) == cmsSigCmykData
        return (description(of: handle), isCMYK || needsConversion(handle))
    }

    /// Red, green and blue primaries and a white point, each in CIE xy.
    package typealias Primaries = (
        red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: (Double, Double)
    )

    /// An ICC profile for `primaries` with the sRGB curve, or a power curve of exponent `gamma`: HEIF's `nclx` colour
    /// and PNG's `cHRM` and `gAMA` as a profile to convert from.
    package static func profile(_ primaries: Primaries, gamma: Double? = nil, name: String = "RGB") -> [UInt8]? {
        let (red, green, blue, white) = primaries
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1),
            Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1)
        )
        // IEC 61966-2-1: Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below.
        let parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let built = gamma.map { cmsBuildGamma(nil, $0) } ?? cmsBuildParametricToneCurve(nil, 4, parameters)
        guard let curve = built else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let handle = cmsCreateRGBProfile(&whitePoint, &primaries, &curves) else { return nil }
        defer { cmsCloseProfile(handle) }
        // Never "sRGB", which would mean nothing to convert.
        if let description = cmsMLUalloc(nil, 1) {
            defer { cmsMLUfree(description) }
            cmsMLUsetASCII(description, "en", "US", name)
            cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(description))
        }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(handle, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(handle, &bytes, &size) != 0 else { return nil }
        return bytes
    }

    /// sRGB's primaries and white point (CIE xy), for profiles built from parts.
    package static let sRGBPrimaries: Primaries = (
        red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), white: (0.3127, 0.3290)
    )

    private static func transform(for profile: [UInt8], cmyk: Bool) -> Transform? {
        let key = profile.withUnsafeBytes { SHA256Digest.hash($0) }
        if let cached = transforms.withLock({ $0[cmyk]?[key] }) { return cached }
        let made = makeTransform(profile, cmyk: cmyk)
        transforms.withLock { caches in
            if caches[cmyk, default: [:]].count >= 32 { caches[cmyk] = [:] }
            caches[cmyk, default: [:]][key] = .some(made)
        }
        return made
    }

    /// A transform to sRGB RGBA from an RGB profile that needs one, or from a CMYK profile's inverted CMYK.
    private static func makeTransform(_ profile: [UInt8], cmyk: Bool) -> Transform? {
        guard let input = open(profile) else { return nil }
        defer { cmsCloseProfile(input) }
        let applies = cmyk ? cmsGetColorSpace(input) == cmsSigCmykData : needsConversion(input)
        guard applies, let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        return cmsCreateTransform(
            input,
            cmyk ? LOOKAHEAD_TYPE_CMYK_8_REV : LOOKAHEAD_TYPE_RGBA_8,
            sRGB,
            LOOKAHEAD_TYPE_RGBA_8,
            cmsUInt32Number(INTENT_PERCEPTUAL),
            cmsUInt32Number(cmyk ? cmsFLAGS_NOCACHE : cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA)
        ).map(Transform.init)
    }

    private static func open(_ profile: [UInt8]) -> cmsHPROFILE? {
        guard !profile.isEmpty, profile.count <= 16 << 20 else { return nil }
        return profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
    }

    /// An RGB profile that does not call itself sRGB.
    private static func needsConversion(_ profile: cmsHPROFILE) -> Bool {
        cmsGetColorSpace(profile) == cmsSigRgbData && !description(of: profile).contains("sRGB")
    }

    private static func description(of profile: cmsHPROFILE) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, 256)
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
