// swift-tools-version: 6.0
// Lookahead: an image loading and prefetching pipeline for scrolling lists and grids.
import PackageDescription

let package = Package(
    name: "Lookahead",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Lookahead", targets: ["Lookahead"]),
        .library(name: "LookaheadUI", targets: ["LookaheadUI"]),
        // What the benchmarks in Tools/ drive below the public API; not for apps.
        .library(name: "LookaheadBenchmarkSupport", targets: ["LookaheadBenchmarkSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        // HEIC and AVIF (Debian's libheif, LGPL-3.0, with its HEVC and AV1 decoders); ImageIO on Apple platforms.
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // Colour management to sRGB on Linux (Little CMS 2, MIT); ImageIO and CoreGraphics on Apple platforms.
        .systemLibrary(name: "CLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        // XXH3, the disk cache's data checksum (Debian's libxxhash, BSD-2-Clause); Apple platforms use CryptoKit.
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        // SHA-256 of disk-cache keys on Linux (OpenSSL's libcrypto, Apache-2.0); Apple platforms use CryptoKit.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The HTTP transport on Linux, where FoundationNetworking's URLSession cannot be made safe.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Previews of progressive JPEGs as they download: libjpeg's buffered-image mode, which the TurboJPEG API
        // lacks. A C target so libjpeg's error longjmp never crosses a Swift frame.
        .target(
            name: "CJPEGProgressive",
            linkerSettings: [.linkedLibrary("jpeg", .when(platforms: [.linux]))]
        ),
        .target(
            name: "Lookahead",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .target(name: "CTurboJPEG", condition: .when(platforms: [.linux])),
                .target(name: "CJPEGProgressive", condition: .when(platforms: [.linux])),
                .target(name: "CSPNG", condition: .when(platforms: [.linux])),
                .target(name: "CWebP", condition: .when(platforms: [.linux])),
                .target(name: "CGIF", condition: .when(platforms: [.linux])),
                .target(name: "CHeif", condition: .when(platforms: [.linux])),
                .target(name: "CLCMS", condition: .when(platforms: [.linux])),
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .target(name: "CXXHash", condition: .when(platforms: [.linux])),
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                // NSImage is not Sendable on macOS 13: the types that hold an image say so (see PlatformImage.swift).
                .define("LOOKAHEAD_NONSENDABLE_IMAGE", .when(platforms: [.macOS])),
            ]
        ),
        // UIKit and SwiftUI adapters: Apple platforms only (every file is empty elsewhere).
        .target(
            name: "LookaheadUI",
            dependencies: ["Lookahead"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .target(name: "LookaheadBenchmarkSupport", dependencies: ["Lookahead"]),
        .testTarget(
            name: "LookaheadTests",
            dependencies: [
                "Lookahead",
                .product(name: "Logging", package: "swift-log"),
                .target(name: "CTurboJPEG", condition: .when(platforms: [.linux])),
                .target(name: "CSPNG", condition: .when(platforms: [.linux])),
                .target(name: "CWebP", condition: .when(platforms: [.linux])),
                .target(name: "CGIF", condition: .when(platforms: [.linux])),
                .target(name: "CHeif", condition: .when(platforms: [.linux])),
                .target(name: "CLCMS", condition: .when(platforms: [.linux])),
                .target(name: "CXXHash", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny")
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
