// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Actionable",
    platforms: [.macOS(.v15), .iOS(.v13)],
    products: [
        .library(name: "ActionableCore", targets: ["ActionableCore"]),
        .library(name: "ActionableLint", targets: ["ActionableLint"]),
        .library(name: "ActionableRouter", targets: ["ActionableRouter"]),
        .library(name: "ActionableTokens", targets: ["ActionableTokens"]),
        .library(name: "ActionablePayload", targets: ["ActionablePayload"]),
        .library(name: "ActionableCodegen", targets: ["ActionableCodegen"]),
        .library(name: "ActionableStore", targets: ["ActionableStore"]),
        .library(name: "ActionableSQLite", targets: ["ActionableSQLite"]),
        .library(name: "ActionablePostgres", targets: ["ActionablePostgres"]),
        .library(name: "ActionableDelivery", targets: ["ActionableDelivery"]),
        .library(name: "ActionableHTTP", targets: ["ActionableHTTP"]),
        .library(name: "ActionableService", targets: ["ActionableService"]),
        .library(name: "ActionableTesting", targets: ["ActionableTesting"]),
        .library(name: "ActionableClient", targets: ["ActionableClient"]),
        .library(name: "ActionableWire", targets: ["ActionableWire"]),
        .library(name: "ActionableAPNs", targets: ["ActionableAPNs"]),
        .library(name: "ActionableAPNsTesting", targets: ["ActionableAPNsTesting"]),
        .library(name: "ActionableFCM", targets: ["ActionableFCM"]),
        .library(name: "ActionableFCMTesting", targets: ["ActionableFCMTesting"]),
        .library(name: "ActionablePreview", targets: ["ActionablePreview"]),
        .executable(name: "actionable", targets: ["actionable"]),
        .executable(name: "actionable-generator", targets: ["actionable-generator"]),
        .plugin(name: "ActionableGenerator", targets: ["ActionableGenerator"]),
        .executable(name: "invite-example", targets: ["InviteExample"]),
        .executable(name: "invite-service", targets: ["InviteService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // OTLP over HTTP only: the gRPC exporter's dependencies stay out of the build.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        .target(
            name: "ActionableCore",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        .target(name: "ActionableLint", dependencies: ["ActionableCore"]),
        // The catalog drawn as iOS draws notifications (the admin page, `actionable preview`).
        .target(
            name: "ActionablePreview", dependencies: ["ActionableCore", .product(name: "Mustache", package: "swift-mustache")]
        ),
        // The app side: Foundation only, for iOS 13+, macOS 10.15+ and Linux.
        .target(name: "ActionableClient", dependencies: ["ActionableWire"]),
        // The JSON shapes of the HTTP API that carry no custom payload: Foundation only, so the
        // app's client shares them with the server and the command line.
        .target(name: "ActionableWire"),
        .target(
            name: "ActionableRouter",
            dependencies: ["ActionableCore", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "ActionableTokens",
            dependencies: ["ActionableCore", .product(name: "JWTKit", package: "jwt-kit"), .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "ActionablePayload", dependencies: ["ActionableCore", "ActionableTokens"]),
        // The code generator: the core only, so a build plugin's tool stays small.
        .target(name: "ActionableCodegen", dependencies: ["ActionableCore"]),
        // The build plugin's tool: the core, the linter and the generator only.
        .executableTarget(
            name: "actionable-generator",
            dependencies: ["ActionableCore", "ActionableLint", "ActionableCodegen", .product(name: "Yams", package: "Yams")]
        ),
        .plugin(name: "ActionableGenerator", capability: .buildTool(), dependencies: ["actionable-generator"]),
        .target(
            name: "ActionableStore",
            dependencies: [
                "ActionableCore", "ActionableWire", .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "ActionableSQLite",
            dependencies: ["ActionableCore", "ActionableStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "ActionablePostgres",
            dependencies: [
                "ActionableCore", "ActionableStore", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ActionableDelivery",
            dependencies: [
                "ActionableCore", "ActionableStore", "ActionableRouter", "ActionableWire", "ActionableAPNs", "ActionableFCM",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "ActionableHTTP",
            dependencies: [
                "ActionableCore", "ActionableStore", "ActionableTokens", "ActionablePreview", "ActionableWire", "ActionablePayload",
                "ActionableRouter", .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // The contract it serves at /openapi.json, compiled into the binary (no bundle to find at run time).
            resources: [.embedInCode("openapi.yaml")]
        ),
        .target(
            name: "ActionableService",
            dependencies: [
                "ActionableCore", "ActionableLint", "ActionableStore", "ActionableSQLite", "ActionablePostgres",
                "ActionableTokens", "ActionableRouter", "ActionableDelivery", "ActionableHTTP", "ActionablePayload", "ActionableAPNs",
                "ActionableFCM", "ActionableWire",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ]
        ),
        // Sending to APNs over HTTP/2: the provider token, the headers, Apple's answers.
        .target(
            name: "ActionableAPNs",
            dependencies: [
                "ActionableWire", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A stand-in APNs (HTTP/2 over TLS) for tests, the walkthrough and users' own tests.
        .target(
            name: "ActionableAPNsTesting",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Sending to FCM HTTP v1: the service account's access token, the message, FCM's answers.
        .target(
            name: "ActionableFCM",
            dependencies: [
                "ActionableWire", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A stand-in FCM HTTP v1 (its token endpoint and messages:send, over HTTPS) for tests,
        // the walkthrough and users' own tests.
        .target(
            name: "ActionableFCMTesting",
            dependencies: [
                "ActionableAPNsTesting", "ActionableFCM", .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ActionableTesting",
            dependencies: [
                "ActionableCore", "ActionableRouter", "ActionableStore", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "actionable",
            dependencies: [
                "ActionableCore", "ActionableLint", "ActionablePayload", "ActionableTokens", "ActionableHTTP",
                "ActionableService", "ActionableCodegen", "ActionableDelivery", "ActionablePreview", "ActionableWire",
                "ActionableAPNsTesting", "ActionableFCMTesting", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "InviteFlowExample",
            dependencies: [
                "ActionableCore", "ActionableLint", "ActionableRouter", "ActionableTokens", "ActionablePayload",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/InviteFlow/InviteFlowExample",
            exclude: ["actionable-generate.yaml"],
            plugins: ["ActionableGenerator"]
        ),
        .executableTarget(
            name: "InviteExample",
            dependencies: ["InviteFlowExample", "ActionableCore", "ActionableTokens"],
            path: "Examples/InviteFlow/InviteExample"
        ),
        .target(name: "ActionableTestSupport", path: "Tests/ActionableTestSupport"),
        .executableTarget(
            name: "InviteService",
            dependencies: [
                "ActionableDelivery", "ActionableCore", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Examples/InviteService"
        ),
        .testTarget(name: "ActionableCoreTests", dependencies: ["ActionableCore"]),
        .testTarget(name: "ActionableWireTests", dependencies: ["ActionableWire"]),
        .testTarget(
            name: "ActionableFCMTestingTests",
            dependencies: [
                "ActionableFCM", "ActionableFCMTesting", "ActionableAPNsTesting", "ActionableTestSupport", "actionable",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ActionableAPNsTests",
            dependencies: [
                "ActionableAPNs", "ActionableAPNsTesting", "ActionableTestSupport", "actionable",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ActionableLintTests",
            dependencies: ["ActionableLint", "ActionableCore", "ActionableTestSupport", "actionable"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ActionableRouterTests",
            dependencies: ["ActionableRouter", "ActionableTesting", "ActionableCore"]
        ),
        .testTarget(
            name: "ActionableStoreTests",
            dependencies: [
                "ActionableStore", "ActionableSQLite", "ActionablePostgres", "ActionableTesting", "ActionableCore",
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ActionableServerTests",
            dependencies: [
                "ActionableHTTP", "ActionableService", "ActionableTesting", "ActionableStore", "ActionableSQLite",
                "ActionableTokens", "ActionableCore", "ActionableRouter",
                "ActionableTestSupport", "ActionableDelivery", "ActionablePostgres", "actionable", "InviteService", "ActionableWire",
                "ActionableAPNs", "ActionableAPNsTesting", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(
            name: "ActionableDeliveryTests",
            dependencies: [
                "ActionableDelivery", "ActionableWire", "ActionableTesting", "ActionableStore", "ActionableRouter", "ActionableCore",
                "ActionableTestSupport", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "ActionableTokensTests",
            dependencies: ["ActionableTokens", "ActionableCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // A stand-in for Apple's UserNotifications, from Apple's documented declarations, so that
        // generated app code type-checks and runs on Linux (Tests/UserNotificationsStandIn).
        .target(name: "UserNotifications", path: "Tests/UserNotificationsStandIn"),
        // An iOS app's source folder, type-checked against the stand-in; its categories come from the plugin.
        .target(
            name: "InviteApp", dependencies: ["UserNotifications", "ActionableClient", "ActionableClientStandIn"],
            path: "Examples/InviteApp",
            exclude: ["actionable-generate.yaml"], plugins: ["ActionableGenerator"]
        ),
        // ActionableClient's UserNotifications adapter, compiled on Linux against the stand-in
        // (its files are links to the library's own).
        .target(
            name: "ActionableClientStandIn", dependencies: ["ActionableClient", "UserNotifications"],
            path: "Tests/ActionableClientStandIn", swiftSettings: [.define("ACTIONABLE_USER_NOTIFICATIONS")]
        ),
        // A process that saves a report and waits to be killed (the outbox's kill -9 test).
        .executableTarget(name: "actionable-client-probe", dependencies: ["ActionableClient"], path: "Tests/ActionableClientProbe"),
        .testTarget(
            name: "ActionableClientTests",
            dependencies: [
                "ActionableClient", "ActionableClientStandIn", "UserNotifications", "ActionableTestSupport", "actionable",
                "actionable-client-probe", "ActionableTokens", "InviteApp", "ActionableWire", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "ActionableAppCodegenTests",
            dependencies: [
                "UserNotifications", "InviteApp", "ActionableCodegen", "ActionableCore", "ActionableLint", "ActionableTestSupport",
            ]
        ),
        .testTarget(
            name: "ActionableCodegenTests",
            dependencies: [
                "ActionableCodegen", "ActionableCore", "ActionableLint", "ActionablePayload", "ActionableRouter",
                "ActionableTesting", "ActionableTestSupport", "actionable", "actionable-generator",
            ]
        ),
        .testTarget(
            name: "ActionablePayloadTests",
            dependencies: ["ActionablePayload", "ActionableCore", "ActionableTesting", "ActionableTestSupport", "actionable"]
        ),
        .testTarget(
            name: "InviteFlowTests",
            dependencies: [
                "InviteFlowExample", "ActionableTesting", "ActionableCore", "ActionableRouter", "ActionableTokens",
                "ActionablePayload",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
