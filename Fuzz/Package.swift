// swift-tools-version: 6.1
// libFuzzer targets, one executable each, in a package of their own so that the main build never
// links the fuzzer. Build and run them with scripts/fuzz (see FUZZING.md):
//   swift build -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
//       -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
import Foundation
import PackageDescription

/// The main package is this directory's parent; SwiftPM names a path dependency after its
/// directory, whatever the clone is called.
let main = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "ActionableFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "ActionableCore", package: main)]),
        .executableTarget(
            name: "fuzz-category-loader",
            dependencies: ["FuzzSupport", .product(name: "ActionableCore", package: main)]
        ),
        .executableTarget(
            name: "fuzz-action-request",
            dependencies: [
                "FuzzSupport", .product(name: "ActionableCore", package: main), .product(name: "ActionableHTTP", package: main),
            ]
        ),
        .executableTarget(
            name: "fuzz-tokens",
            dependencies: ["FuzzSupport", .product(name: "ActionableCore", package: main), .product(name: "ActionableTokens", package: main)]
        ),
        .executableTarget(
            name: "fuzz-lint-config", dependencies: ["FuzzSupport", .product(name: "ActionableCore", package: main)]
        ),
        .executableTarget(
            name: "fuzz-set-values",
            dependencies: ["FuzzSupport", .product(name: "ActionableCore", package: main), .product(name: "ActionableTokens", package: main)]
        ),
        .executableTarget(
            name: "fuzz-admin-form", dependencies: ["FuzzSupport", .product(name: "ActionableHTTP", package: main)]
        ),
        .executableTarget(
            name: "fuzz-upstream-answers",
            dependencies: [
                "FuzzSupport", .product(name: "ActionableHTTP", package: main), .product(name: "ActionableClient", package: main),
                .product(name: "ActionableRouter", package: main), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "fuzz-http-application",
            dependencies: [
                "FuzzSupport", .product(name: "ActionableCore", package: main), .product(name: "ActionableHTTP", package: main),
                .product(name: "ActionableTokens", package: main),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
