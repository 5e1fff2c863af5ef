// swift-tools-version: 6.0
// Lookahead's fuzz targets: one libFuzzer entry point per decoder, and one for the HTTP caching headers. Build and
// run them with scripts/fuzz.
import PackageDescription

let targets = [
    "JPEG", "PNG", "WebP", "GIF", "HEIF", "HTTP-Cache", "Header-Fields", "Retry-After", "Content-Range", "Disk-Entry",
    "Disk-Ledger",
]

let package = Package(
    name: "LookaheadFuzz",
    dependencies: [.package(name: "Lookahead", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Lookahead", package: "Lookahead")])
    ]
        + targets.map { format in
            .executableTarget(
                name: "fuzz-\(format.lowercased())",
                dependencies: ["FuzzSupport", .product(name: "Lookahead", package: "Lookahead")],
                path: "Sources/fuzz-\(format.lowercased())",
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]
            )
        },
    swiftLanguageModes: [.v6]
)
