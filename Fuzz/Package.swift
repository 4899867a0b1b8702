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
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "ActionableCore", package: main)]),
        .executableTarget(
            name: "fuzz-category-loader",
            dependencies: ["FuzzSupport", .product(name: "ActionableCore", package: main), .product(name: "ActionableLint", package: main)]
        ),
        .executableTarget(
            name: "fuzz-action-request", dependencies: ["FuzzSupport", .product(name: "ActionableCore", package: main)]
        ),
        .executableTarget(
            name: "fuzz-tokens",
            dependencies: ["FuzzSupport", .product(name: "ActionableCore", package: main), .product(name: "ActionableTokens", package: main)]
        ),
        .executableTarget(
            name: "fuzz-lint-config", dependencies: ["FuzzSupport", .product(name: "ActionableLint", package: main)]
        ),
        .executableTarget(
            name: "fuzz-set-values",
            dependencies: ["FuzzSupport", .product(name: "ActionableCore", package: main), .product(name: "ActionablePayload", package: main)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
