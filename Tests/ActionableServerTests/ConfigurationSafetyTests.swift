import ActionableCore
import ActionableDelivery
import ActionableHTTP
import ActionableService
import ActionableStore
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

/// Start-up refuses what would leave the server open: short or empty operator secrets, the
/// development key beyond loopback, one secret for action tokens and app JWTs. And what the
/// server prints never holds a credential.
struct ConfigurationSafetyTests {
    static func configuration(_ change: (inout ActionableConfiguration) -> Void) -> ActionableConfiguration {
        var configuration = ActionableConfiguration()
        configuration.tokenKeys = [EmbeddedServiceTests.key]
        change(&configuration)
        return configuration
    }

    @Test(arguments: ["", "short", String(repeating: "x", count: 31)])
    func operatorSecretsUnder32BytesAreRefused(secret: String) {
        for change: (inout ActionableConfiguration) -> Void in [{ $0.server.adminToken = secret }, { $0.server.backendToken = secret }] {
            let error = #expect(throws: ConfigurationError.self) { try Self.configuration(change).validate() }
            #expect(error?.description.contains("at least 32 bytes") == true, "\(error?.description ?? "")")
            #expect(error?.description.contains(secret.isEmpty ? "unset variable" : "openssl rand") == true)
        }
        let strong = String(repeating: "x", count: 32)
        #expect(throws: Never.self) {
            try Self.configuration {
                $0.server.adminToken = strong
                $0.server.backendToken = strong
            }.validate()
        }
    }

    @Test(arguments: [
        ("0.0.0.0", false), ("192.0.2.7", false), ("::", false), ("127.0.0.1", true), ("127.8.0.1", true), ("::1", true), ("localhost", true),
    ])
    func theDevelopmentKeyStaysOnLoopbackUnlessSaidOtherwise(host: String, allowed: Bool) throws {
        let development = Self.configuration {
            $0.host = host
            $0.tokenKeys = []
        }
        if allowed {
            try development.validate()
        } else {
            let error = #expect(throws: ConfigurationError.self) { try development.validate() }
            #expect(error?.description.contains("--insecure-development-key") == true)
        }
        var insecure = development
        insecure.insecureDevelopmentKey = true
        try insecure.validate()
        try Self.configuration { $0.host = host }.validate()  // a real key: any address
    }

    @Test func anAppJWTKeyMayNotShareTheActionTokenSecret() throws {
        let reused = try ActionTokenKey(parsing: "app=" + String(repeating: "embedded-secret-", count: 3))  // the token key's secret
        let error = #expect(throws: ConfigurationError.self) {
            try Self.configuration { $0.appJWTKeys = [reused] }.validate()
        }
        #expect(error?.description.contains("secret of an action-token key") == true)
        try Self.configuration { $0.appJWTKeys = [AppTokensFixture.key] }.validate()
    }

    /// The command line says the same, exits 1, and never starts listening.
    @Test func serveRefusesWeakSettingsAtStartUp() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [([String], String)] = [
            (["--admin-token", ""], "admin token (--admin-token) is 0 bytes"),
            (["--backend-token", "backend"], "backend token (--backend-token) is 7 bytes"),
            (["--host", "0.0.0.0"], "development token key"),
        ]
        for (arguments, message) in cases {
            let run = try await CommandLineRunner.run(["serve", "--port", "1", "--storage", "memory:"] + arguments, in: directory)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(!(run.stdout + run.stderr).contains("started and listening"))
        }
    }

    /// A password with `/`, `?`, `#` or `@` in it, or a URL that is not a URL at all, still has
    /// its password hidden.
    @Test(arguments: [
        ("postgres://app:s3cret@db.internal:5432/actions", "postgres://app:***@db.internal:5432/actions"),
        ("postgres://app:s3/cr?et#x@db.internal/actions", "postgres://app:***@db.internal/actions"),
        ("postgres://app:s3cr@t@db.internal/actions", "postgres://app:***@db.internal/actions"),
        ("postgres:app:s3cret@db.internal", "postgres:app:***@db.internal"),
        ("postgresql://app@db.internal/actions", "postgresql://app@db.internal/actions"),
        ("sqlite:.actionable/actionable.sqlite", "sqlite:.actionable/actionable.sqlite"),
    ])
    func storageURLsAreRedactedEvenWhenMalformed(url: String, shown: String) {
        #expect(StorageURL.redacted(url) == shown)
        for secret in ["s3cret", "s3/cr?et#x", "s3cr@t"] where url.contains(secret) {
            #expect(!StorageURL.redacted(url).contains(secret))
        }
    }

    /// Webhook URLs carry secrets in their path and query: only scheme, host and port are shown.
    @Test(arguments: [
        ("https://hooks.slack.com/services/T000/B000/XXXXSECRET", "https://hooks.slack.com:443"),
        ("http://127.0.0.1:9000/rsvp?token=SECRET", "http://127.0.0.1:9000"),
        ("https://user:SECRET@example.com/x", "https://example.com:443"),
        ("http://[::1]:8080/SECRET", "http://[::1]:8080"),
        ("not a url SECRET", "an upstream whose URL cannot be read"),
    ])
    func upstreamURLsShowSchemeHostAndPortOnly(url: String, shown: String) {
        #expect(UpstreamAddress.redacted(url) == shown)
        #expect(!ForwardRoute(pattern: "*", url: url).description.contains("SECRET"))
    }
}

/// An app JWT key of its own.
enum AppTokensFixture {
    static let key = try! ActionTokenKey(parsing: "app=app-secret-0123456789abcdef0123456789")
}
