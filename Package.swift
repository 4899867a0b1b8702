// swift-tools-version: 6.1
import PackageDescription

// Every package but Yams is the server's (and the command line's, the senders', the tests'): each
// reference to one is guarded by the `Server` trait. It is on by default; an app that depends on
// `ActionableClient` and the `ActionableGenerator` plugin turns it off
// (`.package(url: …, from: …, traits: [])`) and then resolves and builds Yams alone.
let server: TargetDependencyCondition? = .when(traits: ["Server"])

let package = Package(
    name: "Actionable",
    platforms: [.macOS(.v15), .iOS(.v13)],
    products: [
        // What an app uses, with the `Server` trait off (nothing but Yams resolved): the client, and
        // the catalog with its linter and generator (the `ActionableGenerator` plugin's tool).
        .library(name: "ActionableClient", targets: ["ActionableClient", "ActionableWire"]),
        .library(name: "ActionableCore", targets: ["ActionableCore", "ActionableLint", "ActionableCodegen"]),
        .plugin(name: "ActionableGenerator", targets: ["ActionableGenerator"]),
        // What a Swift backend uses: the router, action tokens and payloads.
        .library(name: "ActionableRouter", targets: ["ActionableRouter"]),
        .library(name: "ActionableTokens", targets: ["ActionableTokens", "ActionablePayload"]),
        // The server's parts without a database driver: the routes to mount in a Hummingbird
        // application, the storage interface, the outbox and its senders, the catalog's preview.
        .library(
            name: "ActionableHTTP",
            targets: ["ActionableHTTP", "ActionableStore", "ActionableDelivery", "ActionableAPNs", "ActionableFCM", "ActionablePreview"]),
        // The whole server, as `actionable serve` runs it, with its SQLite and PostgreSQL drivers.
        .library(
            name: "ActionableService",
            targets: [
                "ActionableService", "ActionableSQLite", "ActionablePostgres", "ActionableHTTP", "ActionableStore", "ActionableDelivery",
                "ActionableAPNs", "ActionableFCM", "ActionablePreview",
            ]),
        // For a backend's own tests: response builders, and stand-ins of APNs and FCM.
        .library(name: "ActionableTesting", targets: ["ActionableTesting", "ActionableAPNsTesting", "ActionableFCMTesting"]),
        .executable(name: "actionable", targets: ["actionable"]),
        .executable(name: "actionable-generator", targets: ["actionable-generator"]),
        .executable(name: "invite-example", targets: ["InviteExample"]),
        .executable(name: "invite-service", targets: ["InviteService"]),
    ],
    traits: [
        .trait(name: "Server", description: "The server, its stores and senders, the command line and the tests' stand-ins."),
        .default(enabledTraits: ["Server"]),
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
        // `swift package generate-documentation` (scripts/check-docs): no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "ActionableCore",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        .target(name: "ActionableLint", dependencies: ["ActionableCore"]),
        // The catalog drawn as iOS draws notifications (the admin page, `actionable preview`).
        .target(
            name: "ActionablePreview", dependencies: ["ActionableCore", .product(name: "Mustache", package: "swift-mustache", condition: server)]
        ),
        // The app side: Foundation only, for iOS 13+, macOS 10.15+ and Linux.
        .target(name: "ActionableClient", dependencies: ["ActionableWire"]),
        // The JSON shapes of the HTTP API that carry no custom payload: Foundation only, so the
        // app's client shares them with the server and the command line.
        .target(name: "ActionableWire"),
        .target(
            name: "ActionableRouter",
            dependencies: ["ActionableCore", .product(name: "Logging", package: "swift-log", condition: server)]
        ),
        .target(
            name: "ActionableTokens",
            dependencies: [
                "ActionableCore", .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "Crypto", package: "swift-crypto", condition: server),
            ]
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
                "ActionableCore", "ActionableWire", .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: server),
            ]
        ),
        .target(
            name: "ActionableSQLite",
            dependencies: ["ActionableCore", "ActionableStore", .product(name: "GRDB", package: "GRDB.swift", condition: server)]
        ),
        .target(
            name: "ActionablePostgres",
            dependencies: [
                "ActionableCore", "ActionableStore", .product(name: "PostgresNIO", package: "postgres-nio", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
                .product(name: "NIOPosix", package: "swift-nio", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
            ]
        ),
        .target(
            name: "ActionableDelivery",
            dependencies: [
                "ActionableCore", "ActionableStore", "ActionableRouter", "ActionableWire", "ActionableAPNs", "ActionableFCM",
                .product(name: "Crypto", package: "swift-crypto", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: server),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: server),
            ]
        ),
        .target(
            name: "ActionableHTTP",
            dependencies: [
                "ActionableCore", "ActionableStore", "ActionableTokens", "ActionablePreview", "ActionableWire", "ActionablePayload",
                "ActionableRouter", .product(name: "Mustache", package: "swift-mustache", condition: server),
                .product(name: "Yams", package: "Yams"),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: server),
                .product(name: "Crypto", package: "swift-crypto", condition: server),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: server),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: server),
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
                .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: server),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: server),
                .product(name: "Prometheus", package: "swift-prometheus", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "Configuration", package: "swift-configuration", condition: server),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: server),
                .product(name: "OTel", package: "swift-otel", condition: server),
            ]
        ),
        // Sending to APNs over HTTP/2: the provider token, the headers, Apple's answers.
        .target(
            name: "ActionableAPNs",
            dependencies: [
                "ActionableWire", .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "Crypto", package: "swift-crypto", condition: server),
            ]
        ),
        // A stand-in APNs (HTTP/2 over TLS) for tests, the walkthrough and users' own tests.
        .target(
            name: "ActionableAPNsTesting",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdHTTP2", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "X509", package: "swift-certificates", condition: server),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: server),
                .product(name: "Crypto", package: "swift-crypto", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
            ]
        ),
        // Sending to FCM HTTP v1: the service account's access token, the message, FCM's answers.
        .target(
            name: "ActionableFCM",
            dependencies: [
                "ActionableWire", .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "NIOCore", package: "swift-nio", condition: server),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
            ]
        ),
        // A stand-in FCM HTTP v1 (its token endpoint and messages:send, over HTTPS) for tests,
        // the walkthrough and users' own tests.
        .target(
            name: "ActionableFCMTesting",
            dependencies: [
                "ActionableAPNsTesting", "ActionableFCM", .product(name: "CryptoExtras", package: "swift-crypto", condition: server),
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdHTTP2", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
            ]
        ),
        .target(
            name: "ActionableTesting",
            dependencies: [
                "ActionableCore", "ActionableRouter", "ActionableStore", .product(name: "Logging", package: "swift-log", condition: server),
            ]
        ),
        .executableTarget(
            name: "actionable",
            dependencies: [
                "ActionableCore", "ActionableLint", "ActionablePayload", "ActionableTokens", "ActionableHTTP",
                "ActionableService", "ActionableCodegen", "ActionableDelivery", "ActionablePreview", "ActionableWire",
                "ActionableAPNsTesting", "ActionableFCMTesting", .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "Configuration", package: "swift-configuration", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
            ]
        ),
        .target(
            name: "InviteFlowExample",
            dependencies: [
                "ActionableCore", "ActionableLint", "ActionableRouter", "ActionableTokens", "ActionablePayload",
                .product(name: "Logging", package: "swift-log", condition: server),
            ],
            path: "Examples/InviteFlow/InviteFlowExample",
            exclude: ["actionable-generate.yaml"],
            plugins: ["ActionableGenerator"]
        ),
        // The accept path's guard (scripts/check-accept-cost) and its benchmark (Benchmarks/accept-cost.sh):
        // the ceiling — a bare Hummingbird endpoint decoding the same body — and the taps wrk sends.
        // Built by this package so that the guard's release build shares its dependencies with
        // `actionable`'s; their sources stay beside the other benchmarks.
        .executableTarget(
            name: "ceiling-server",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird", condition: server)],
            path: "Benchmarks/Sources/ceiling-server"
        ),
        .executableTarget(
            name: "action-bodies", dependencies: ["ActionableCore", "ActionableTokens"], path: "Benchmarks/Sources/action-bodies"),
        .executableTarget(
            name: "InviteExample",
            dependencies: ["InviteFlowExample", "ActionableCore", "ActionableTokens"],
            path: "Examples/InviteFlow/InviteExample"
        ),
        .target(name: "ActionableTestSupport", path: "Tests/ActionableTestSupport"),
        .executableTarget(
            name: "InviteService",
            dependencies: [
                "ActionableDelivery", "ActionableCore", .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
            ],
            path: "Examples/InviteService"
        ),
        .testTarget(name: "ActionableCoreTests", dependencies: ["ActionableCore", "ActionableTestSupport"]),
        .testTarget(name: "ActionableWireTests", dependencies: ["ActionableWire"]),
        .testTarget(
            name: "ActionableFCMTestingTests",
            dependencies: [
                "ActionableFCM", "ActionableFCMTesting", "ActionableAPNsTesting", "ActionableTestSupport", "actionable",
                .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "CryptoExtras", package: "swift-crypto", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
            ]
        ),
        .testTarget(
            name: "ActionableAPNsTests",
            dependencies: [
                "ActionableAPNs", "ActionableAPNsTesting", "ActionableTestSupport", "actionable",
                .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
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
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "GRDB", package: "GRDB.swift", condition: server),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: server),
            ]
        ),
        .testTarget(
            name: "ActionableServerTests",
            dependencies: [
                "ActionableHTTP", "ActionableService", "ActionableTesting", "ActionableStore", "ActionableSQLite",
                "ActionableTokens", "ActionableCore", "ActionableRouter",
                "ActionableTestSupport", "ActionableDelivery", "ActionablePostgres", "actionable", "InviteService", "ActionableWire",
                "ActionableAPNs", "ActionableAPNsTesting", .product(name: "JWTKit", package: "jwt-kit", condition: server),
                .product(name: "Yams", package: "Yams"),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: server),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: server),
                .product(name: "Logging", package: "swift-log", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "Prometheus", package: "swift-prometheus", condition: server),
                .product(name: "GRDB", package: "GRDB.swift", condition: server),
            ]
        ),
        .testTarget(
            name: "ActionableDeliveryTests",
            dependencies: [
                "ActionableDelivery", "ActionableWire", "ActionableTesting", "ActionableStore", "ActionableRouter", "ActionableCore",
                "ActionableTestSupport", .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: server),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: server),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: server),
            ]
        ),
        .testTarget(
            name: "ActionableTokensTests",
            dependencies: ["ActionableTokens", "ActionableCore", .product(name: "Crypto", package: "swift-crypto", condition: server)]
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
                "actionable-client-probe", "ActionableTokens", "InviteApp", "ActionableWire",
                .product(name: "Hummingbird", package: "hummingbird", condition: server),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: server),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: server),
            ]
        ),
        .testTarget(
            name: "ActionableAppCodegenTests",
            dependencies: [
                "UserNotifications", "InviteApp", "ActionableCodegen", "ActionableCore", "ActionableLint", "ActionableTestSupport",
                "ActionableClient", "ActionableClientStandIn",
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

// Every target with Swift 7's defaults already: `any` written for every existential, members seen
// only through a module the file imports, and imports internal unless a file says `public import`
// (what a module's API exposes of another is then declared where it is used).
for target in package.targets where target.type != .plugin && target.type != .binary {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
