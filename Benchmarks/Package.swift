// swift-tools-version: 6.1
// Benchmarks live in their own package so that the main package (and CI) never builds
// package-benchmark. Run from this directory: `swift package benchmark` (see BENCHMARKS.md).
import Foundation
import PackageDescription

/// The main package is this directory's parent; SwiftPM names a path dependency after its
/// directory, whatever the clone or worktree is called.
let main = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "ActionableBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .target(name: "CategoryGenerator"),
        .executableTarget(name: "generate-categories", dependencies: ["CategoryGenerator"]),
        // The ceiling and the bodies wrk sends (ceiling-server, action-bodies) are the main package's:
        // its test command's guard (scripts/check-accept-cost) runs them.
        // Notifications per second to the stand-in APNs (apns-send.sh): ours, and the ceiling.
        .executableTarget(
            name: "apns-send",
            dependencies: [
                .product(name: "ActionableHTTP", package: main), .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"), "SendLoad",
            ]
        ),
        // Messages per second to the stand-in FCM (fcm-send.sh): ours, and a bare client's.
        .executableTarget(
            name: "fcm-send",
            dependencies: [
                .product(name: "ActionableHTTP", package: main), .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"), "SendLoad",
            ]
        ),
        // The measuring loop the send benchmarks share: sends in flight, each one's latency.
        .target(name: "SendLoad"),
        // ActionableClient's reports per second (client-reports.sh).
        .executableTarget(name: "client-reports", dependencies: [.product(name: "ActionableClient", package: main)]),
        .executableTarget(
            name: "router-profile",
            dependencies: [
                .product(name: "ActionableCore", package: main), .product(name: "ActionableRouter", package: main),
            ]
        ),
        .executableTarget(
            name: "LintBenchmarks",
            dependencies: [
                "CategoryGenerator",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ActionableCore", package: main),
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Benchmarks/LintBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "RouterBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ActionableCore", package: main),
                .product(name: "ActionableRouter", package: main),
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/RouterBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PayloadBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ActionableCore", package: main),
                .product(name: "ActionableTokens", package: main),
            ],
            path: "Benchmarks/PayloadBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
