// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Actionable",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ActionableCore", targets: ["ActionableCore"]),
        .library(name: "ActionableLint", targets: ["ActionableLint"]),
        .executable(name: "actionable", targets: ["actionable"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "ActionableCore",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "ActionableLint",
            dependencies: ["ActionableCore"]
        ),
        .executableTarget(
            name: "actionable",
            dependencies: [
                "ActionableCore",
                "ActionableLint",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ActionableCoreTests", dependencies: ["ActionableCore"]),
        .testTarget(
            name: "ActionableLintTests",
            dependencies: ["ActionableLint", "ActionableCore", "actionable"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
