// swift-tools-version:6.2
import PackageDescription

// The harnesses, not shipped: benchmarks and fault harnesses that drive the product's programs from outside (the
// status round trip, power cuts, load, receiver failures, time to READY=1), and their short versions as tests. They
// run the trackd and trackctl that the root package builds; `swift build` at the root builds none of this.
let package = Package(
    name: "trackd-benchmarks",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "trackbench", targets: ["trackbench"]),
    ],
    dependencies: [
        .package(name: "trackd", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // Runs trackd as the tests do and reads copies of its log with GRDB.
        .executableTarget(
            name: "trackbench",
            dependencies: [
                .product(name: "TrackCore", package: "trackd"),
                .product(name: "TrackInput", package: "trackd"),
                .product(name: "ControlSocket", package: "trackd"),
                .product(name: "TestSupport", package: "trackd"),
                .product(name: "TrackStore", package: "trackd"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The harnesses' short, seeded runs (scripts/test runs them after the root package's tests).
        .testTarget(
            name: "HarnessTests",
            dependencies: ["trackbench", .product(name: "TestSupport", package: "trackd")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The root package's compiler checks (its Package.swift says why).
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("ExistentialAny"),
        .treatWarning("ExistentialAny", as: .error),
    ]
}
