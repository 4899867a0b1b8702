import ActionableService
import ActionableTestSupport
import Configuration
import Foundation
import Testing

/// Each setting is written once, in `ServeSetting`: the configuration reads it from any
/// provider, the command line declares its flag, and the docs' table is rendered from it.
struct ServeSettingTests {
    static let docs = CommandLineRunner.repository.appendingPathComponent("docs/command-line.md")
    static let begin = "<!-- settings: rendered from ServeSetting.all; ServeSettingTests checks it (ACTIONABLE_WRITE_DOCS=1 rewrites it) -->\n"
    static let end = "<!-- settings:end -->"

    /// The table of `docs/command-line.md` is the one rendered from the settings.
    @Test func theDocsTableIsRenderedFromTheSettings() throws {
        let text = try String(contentsOf: Self.docs, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "docs/command-line.md lost its settings marker")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
        let written = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["ACTIONABLE_WRITE_DOCS"] == "1" {
            try text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: ServeSetting.markdownTable)
                .write(to: Self.docs, atomically: true, encoding: .utf8)
            return
        }
        #expect(written == ServeSetting.markdownTable, "run ACTIONABLE_WRITE_DOCS=1 swift test --filter ServeSettingTests")
    }

    /// `actionable serve --help` declares every setting's flag, with its help.
    @Test func theCommandLineDeclaresEverySetting() async throws {
        let help = try await CommandLineRunner.run(["serve", "--help"])
        let text = (help.stdout + help.stderr).replacingOccurrences(of: "\n", with: " ")
        for setting in ServeSetting.all {
            #expect(text.contains(setting.flag), "\(setting.flag) is not a flag of serve")
        }
        #expect(Set(ServeSetting.all.map(\.key)).count == ServeSetting.all.count)
    }

    static func reader(_ values: [String: ConfigContent], environment: [String: String] = [:]) -> ConfigReader {
        var entries: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in values { entries[AbsoluteConfigKey([key])] = ConfigValue(value, isSecret: false) }
        return ConfigReader(providers: [
            InMemoryProvider(values: entries), ActionableConfiguration.environmentProvider(environment),
        ])
    }

    @Test func everySettingHasItsDefaultWhenNothingIsGiven() throws {
        let read = try ActionableConfiguration(reader: Self.reader([:]))
        let defaults = ActionableConfiguration()
        #expect(read.port == defaults.port && read.host == defaults.host && read.storage == defaults.storage)
        #expect(read.retention == .seconds(30 * 86400) && read.retention == defaults.retention)
        #expect(read.readTimeout == defaults.readTimeout && read.idleTimeout == defaults.idleTimeout)
        #expect(read.retryPolicy == defaults.retryPolicy)
        #expect(read.server.badgeLifetime == defaults.server.badgeLifetime)
        #expect(read.server.maximumBodySize == defaults.server.maximumBodySize)
        #expect(read.maximumConnections == defaults.maximumConnections && read.deliveryLease == defaults.deliveryLease)
        // And the documented defaults are the ones in force: writing each out changes nothing.
        var written: [String: ConfigContent] = [:]
        for setting in ServeSetting.all {
            guard let value = setting.defaultValue else { continue }
            written[setting.key] = setting.kind == .integer ? .int(try #require(Int(value))) : .string(value)
        }
        let explicit = try ActionableConfiguration(reader: Self.reader(written))
        #expect(explicit.categories == read.categories && explicit.host == read.host && explicit.port == read.port)
        #expect(explicit.storage == read.storage && explicit.appJWTAudience == read.appJWTAudience)
        #expect(explicit.retention == read.retention && explicit.retryPolicy == read.retryPolicy)
        #expect(explicit.readTimeout == read.readTimeout && explicit.idleTimeout == read.idleTimeout)
        #expect(explicit.maximumConnections == read.maximumConnections && explicit.deliveryLease == read.deliveryLease)
        #expect(explicit.server.badgeLifetime == read.server.badgeLifetime)
        #expect(explicit.server.maximumBodySize == read.server.maximumBodySize)
        #expect(explicit.server.maximumConcurrentAccepts == read.server.maximumConcurrentAccepts)
    }

    @Test func theEnvironmentNamesASettingInCapitalsWithUnderscores() throws {
        let environment = [
            "ACTIONABLE_BADGE_LIFETIME": "12h", "ACTIONABLE_PORT": "9001", "ACTIONABLE_RETENTION": "0",
            "ACTIONABLE_INSECURE_DEVELOPMENT_KEY": "true", "ACTIONABLE_FORWARD": "invite.*=http://127.0.0.1:1/a,*=http://127.0.0.1:1/b",
            "ACTIONABLE_FORWARD_SECRET": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        ]
        let read = try ActionableConfiguration(reader: Self.reader([:], environment: environment))
        #expect(read.server.badgeLifetime == 12 * 3600)
        #expect(read.port == 9001)
        #expect(read.retention == .zero)
        #expect(read.insecureDevelopmentKey)
        #expect(read.forwards.count == 2)
        #expect(ServeSetting.badgeLifetime.environmentVariable == "ACTIONABLE_BADGE_LIFETIME")
    }

    @Test func anEarlierProviderWins() throws {
        let read = try ActionableConfiguration(
            reader: Self.reader(["port": .int(7000), "retention": .string("12h")], environment: ["ACTIONABLE_PORT": "9001"]))
        #expect(read.port == 7000)
        #expect(read.retention == .seconds(12 * 3600))
    }

    @Test(arguments: [
        ("port", ConfigContent.string("eighty"), "--port eighty: use a whole number"),
        ("retention", .string("forever"), "--retention forever: use a number and a unit"),
        ("read-timeout", .string("0"), "--read-timeout 0: use a number and a unit"),
        ("token-key", .stringArray(["nokey"]), "--token-key"),
        ("metrics-address", .string("nowhere"), "--metrics-address"),
        ("tls-certificate", .string("cert.pem"), "--tls-certificate and --tls-key go together"),
        ("retry-first-delay", .string("2h"), "--retry-max-delay must be at least --retry-first-delay"),
        ("admin-token", .string("short"), "--admin-token"),
        ("insecure-development-key", .string("maybe"), "--insecure-development-key maybe: use true or false"),
        // An attempt must end before its lease runs out, and before the shutdown grace does.
        ("delivery-lease", .int(10), "--delivery-lease must be at least --forward-timeout plus a second"),
        ("forward-timeout", .string("2h"), "--forward-timeout must be between 1 second and 1 hour"),
        ("shutdown-grace", .string("5s"), "--shutdown-grace must be longer than --forward-timeout"),
        ("shutdown-grace", .string("400000d"), "--shutdown-grace must be at most 1 hour"),
        ("max-connections-per-address", .int(-1), "--max-connections-per-address must be 0 (no limit) or more"),
        ("read-timeout", .string("2d"), "--read-timeout and --idle-timeout must be at most 1 day"),
        ("max-devices-per-user", .int(-5), "--max-devices-per-user and --device-registrations-per-hour must be 0"),
    ])
    func aValueThatCannotWorkIsRefusedByItsFlag(key: String, value: ConfigContent, message: String) {
        let error = #expect(throws: ConfigurationError.self) { try ActionableConfiguration(reader: Self.reader([key: value])) }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
    }
}
