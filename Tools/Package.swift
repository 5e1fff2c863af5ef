// swift-tools-version: 6.0
// Lookahead's programs: the fixture server, the gallery and the benchmarks. Heavier dependencies live here,
// so that an app adding the library never resolves a web server.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "LookaheadTools",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LookaheadFixtures", targets: ["LookaheadFixtures"]),
        .library(name: "LookaheadGallery", targets: ["LookaheadGallery"]),
        .library(name: "LookaheadSimulation", targets: ["LookaheadSimulation"]),
        .executable(name: "lookahead-fixture-server", targets: ["lookahead-fixture-server"]),
        .executable(name: "lookahead-gallery", targets: ["lookahead-gallery"]),
        .executable(name: "lookahead-bench", targets: ["lookahead-bench"]),
        .executable(name: "lookahead", targets: ["lookahead"]),
        .executable(name: "lookahead-graph-driver", targets: ["lookahead-graph-driver"]),
        .executable(name: "lookahead-cache-tests", targets: ["lookahead-cache-tests"]),
    ],
    dependencies: [
        .package(name: "Lookahead", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJPEGEncoder",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Animated GIF (giflib) and WebP (libwebpmux) fixtures.
        .systemLibrary(name: "CAnimationEncoders", providers: [.apt(["libgif-dev", "libwebp-dev"])]),
        .target(
            name: "LookaheadFixtures",
            dependencies: [
                "CJPEGEncoder",
                "CZlib",
                "CAnimationEncoders",
                .product(name: "Hummingbird", package: "hummingbird"),
                // Photos are decoded and resized with the library's own decoders and resampler.
                .product(name: "Lookahead", package: "Lookahead"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "lookahead-fixture-server",
            dependencies: [
                "LookaheadFixtures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .systemLibrary(
            name: "CChafa",
            pkgConfig: "chafa",
            providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]
        ),
        .target(name: "CTerminal"),
        // Raw Ethernet frames for the web benchmark's link relay.
        .target(name: "CPacketSocket"),
        .target(
            name: "LookaheadGallery",
            dependencies: [
                "CChafa",
                "CTerminal",
                "LookaheadFixtures",
                .product(name: "Lookahead", package: "Lookahead"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "lookahead-gallery",
            dependencies: [
                "LookaheadGallery",
                "LookaheadFixtures",
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // The scroll simulation: the real pipeline, prefetcher and list loader, in virtual time over a modelled
        // network.
        .target(
            name: "LookaheadSimulation",
            dependencies: [.product(name: "Lookahead", package: "Lookahead")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "lookahead-bench",
            dependencies: [
                "LookaheadFixtures",
                "LookaheadGallery",
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "LookaheadBenchmarkSupport", package: "Lookahead"),
                "LookaheadSimulation",
                "CPacketSocket",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // The task graph alone, for scripts/graph-instructions: nothing else linked, so valgrind can run it.
        .executableTarget(
            name: "lookahead-graph-driver",
            dependencies: [
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "LookaheadBenchmarkSupport", package: "Lookahead"),
            ],
            swiftSettings: strict
        ),
        // The client side of the public HTTP cache test suite, driven by scripts/cache-tests.
        .executableTarget(
            name: "lookahead-cache-tests",
            dependencies: [
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "lookahead",
            dependencies: [
                "LookaheadFixtures",
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LookaheadGalleryTests",
            dependencies: [
                "LookaheadGallery",
                "LookaheadFixtures",
                .product(name: "Lookahead", package: "Lookahead"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LookaheadSimulationTests",
            dependencies: ["LookaheadSimulation", .product(name: "Lookahead", package: "Lookahead")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LookaheadToolsTests",
            dependencies: [
                "LookaheadFixtures",
                .product(name: "Lookahead", package: "Lookahead"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
