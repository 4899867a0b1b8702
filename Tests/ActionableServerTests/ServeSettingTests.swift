import ActionableHTTP
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
        ("delivery-lease", .string("10s"), "--delivery-lease must be at least --forward-timeout plus a second"),
        ("forward-timeout", .string("2h"), "--forward-timeout must be between 1 second and 1 hour"),
        ("shutdown-grace", .string("5s"), "--shutdown-grace must be longer than --forward-timeout"),
        ("shutdown-grace", .string("400000d"), "--shutdown-grace must be between 1 second and 1 hour, not 400000d"),
        ("max-connections-per-address", .int(-1), "--max-connections-per-address must be 0 (no limit) or more"),
        ("read-timeout", .string("2d"), "--read-timeout must be between 1 second and 1 day, not 2d"),
        ("max-devices-per-user", .int(-5), "--max-devices-per-user must be 0 (no limit) or more, not -5"),
        // One duration syntax: the lease and the storage timeout no longer take bare seconds.
        ("delivery-lease", .string("60"), "--delivery-lease 60: use a number and a unit"),
        ("storage-timeout", .int(5), "--storage-timeout 5: use a number and a unit"),
        // A duration too long for any clock is refused by its bounds, not trapped on.
        ("badge-lifetime", .string("1e300d"), "--badge-lifetime must be between 1 second and 365 days"),
        ("apns-timeout", .string("2h"), "--apns-timeout must be between 1 second and 1 hour"),
        ("port", .int(70000), "--port must be between 0 and 65535, not 70000"),
        ("endpoint-concurrency", .int(0), "--endpoint-concurrency must be between 1 and 4096"),
        ("apns-url", .string("https://127.0.0.1:9"), "missing --apns-key-file, --apns-key-id, --apns-team-id, --apns-topic"),
        ("fcm-url", .string("https://127.0.0.1:9"), "--fcm-url needs --fcm-service-account"),
        ("fcm-ca-file", .string("fcm-ca.pem"), "--fcm-ca-file needs --fcm-service-account"),
        // A JSON file's value of a type the setting cannot take is refused, not passed over.
        ("max-in-flight", .bool(true), "\"max-in-flight\" in the --config file: true or false is given where it takes a whole number"),
        ("admin-token", .int(12), "\"admin-token\" in the --config file: a number is given where it takes text"),
        ("retention", .double(2.5), "\"retention\" in the --config file: a number is given where it takes a duration"),
        ("admin-secure-cookie", .int(1), "\"admin-secure-cookie\" in the --config file: a number is given where it takes true or false"),
        ("forward", .bool(false), "\"forward\" in the --config file: true or false is given where it takes a list of texts"),
        ("host", .stringArray(["a", "b"]), "\"host\" in the --config file: a list is given where it takes text"),
    ])
    func aValueThatCannotWorkIsRefusedByItsFlag(key: String, value: ConfigContent, message: String) {
        let error = #expect(throws: ConfigurationError.self) { try ActionableConfiguration(reader: Self.reader([key: value])) }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
    }

    /// A value for every setting, none its default, that together pass validation: what
    /// `everySettingSetsWhatItDeclares` gives. A setting added to `ServeSetting.all` needs one here.
    static let samples: [String: String] = [
        "categories": "Elsewhere", "host": "127.0.0.2", "port": "9000", "storage": "memory:", "storage-timeout": "30s",
        "token-key": "k1=0123456789abcdef0123456789abcdef", "insecure-development-key": "true", "accept-unbound-payloads": "true",
        "app-jwt-key": "a1=fedcba9876543210fedcba9876543210", "app-jwt-audience": "aud2", "forward": "invite.*=http://127.0.0.1:9/a",
        "forward-secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "breaker-failures": "7", "breaker-probe": "45s",
        "ops-endpoint": "http://127.0.0.1:9/ops", "max-body-size": "2048", "max-in-flight": "10", "read-timeout": "20s",
        "idle-timeout": "2m", "max-connections": "100", "max-connections-per-address": "0", "forward-timeout": "5s",
        "endpoint-concurrency": "8", "shutdown-grace": "30s", "metrics-address": "127.0.0.1:9090", "otel-endpoint": "http://127.0.0.1:4318",
        "delivery-lease": "2m", "admin-token": "operator-token-0123456789abcdefghijkl", "admin-secure-cookie": "true",
        "retry-for": "12h", "retry-first-delay": "2s", "retry-max-delay": "30m", "tls-certificate": "cert.pem", "tls-key": "key.pem",
        "backend-token": "backend-token-0123456789abcdefghijklm", "badge-lifetime": "12h", "retention": "0",
        "apns-key-file": "AuthKey.p8", "apns-key-id": "KID", "apns-team-id": "TEAM", "apns-topic": "com.example.app",
        "apns-url": "https://127.0.0.1:9", "apns-ca-file": "apns-ca.pem", "apns-connections": "4", "apns-timeout": "20s",
        "fcm-service-account": "service-account.json", "fcm-url": "https://127.0.0.1:10", "fcm-ca-file": "fcm-ca.pem", "fcm-timeout": "25s",
        "max-devices-per-user": "0", "device-registrations-per-hour": "5",
    ]

    /// Each declaration sets the property it names: every setting given a value of its own (from
    /// the command line, as `serve` reads it) is that value in the configuration read, and none is
    /// its default. A declaration wired to the wrong property, or read by no one, fails here.
    @Test func everySettingSetsWhatItDeclares() throws {
        #expect(Set(Self.samples.keys) == Set(ServeSetting.all.map(\.key)), "a setting without a sample, or a sample of no setting")
        let arguments = ServeSetting.all.flatMap { setting -> [String] in
            let sample = Self.samples[setting.key] ?? ""
            return setting.kind == .toggle ? [setting.flag] : [setting.flag, sample]
        }
        let read = try ActionableConfiguration(reader: ConfigReader(providers: [try ServeSetting.commandLine(arguments)]))
        for setting in ServeSetting.all {
            let sample = try #require(Self.samples[setting.key])
            #expect(sample != setting.defaultValue, "\(setting.flag)'s sample is its default")
            let value = setting.value(in: read)
            if setting.kind == .list {
                // A secret list says how many it holds; an upstream's path is redacted.
                let expected = setting.isSecret ? value == "1 secret" : value.map { sample.hasPrefix($0) } == true
                #expect(expected, "\(setting.flag) read as \(value ?? "nothing")")
            } else {
                #expect(value == sample, "\(setting.flag) read as \(value ?? "nothing")")
            }
        }
    }

    /// The command line: `--key VALUE` and `--key=VALUE`, a toggle alone, a list repeated, a
    /// setting given again taking its last value.
    @Test func theCommandLineTakesEveryFormOfAFlag() throws {
        let provider = try ServeSetting.commandLine([
            "--port", "9001", "--host=127.0.0.3", "--insecure-development-key", "--forward", "invite.*=http://127.0.0.1:9/a",
            "--forward=*=http://127.0.0.1:9/b", "--forward-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "--retention", "2d",
            "--retention", "3d",
        ])
        let read = try ActionableConfiguration(reader: ConfigReader(providers: [provider]))
        #expect(read.port == 9001 && read.host == "127.0.0.3" && read.insecureDevelopmentKey)
        #expect(read.forwards.map(\.pattern) == ["invite.*", "*"])
        #expect(read.retention == .seconds(3 * 86400))
    }

    /// What is not a setting, or lacks its value, is refused before anything starts, naming it.
    @Test(arguments: [
        (["--prot", "9000"], "--prot is not a setting of serve; did you mean --port?"),
        (["--delivery-lese", "60s"], "did you mean --delivery-lease?"),
        (["--no-such-thing"], "--no-such-thing is not a setting of serve; see actionable serve --help"),
        (["--port"], "--port needs a value: --port PORT"),
        (["--port", "--host", "x"], "--port needs a value"),
        (["9000"], "9000: serve takes only --flags"),
        (["--"], "--: serve takes only --flags"),
        // An empty value after `=` is refused, not read as nothing (or as false).
        (["--port="], "--port= has no value: write --port=PORT, or leave the flag out"),
        (["--admin-secure-cookie="], "--admin-secure-cookie= has no value: write --admin-secure-cookie=true (or false)"),
        // A word after a toggle is not its value: the refusal says how to write one.
        (
            ["--insecure-development-key", "false"],
            "false: --insecure-development-key is on when given alone; to set it, write --insecure-development-key=false"
        ),
        // A value that looks like a flag is written after `=`.
        (
            ["--forward-secret", "--abc"],
            "--forward-secret needs a value, and --abc is taken for the next flag; a value that starts with -- is written --forward-secret=VALUE"
        ),
    ])
    func aFlagThatIsNoSettingIsRefused(arguments: [String], message: String) {
        let error = #expect(throws: ConfigurationError.self) { try ServeSetting.commandLine(arguments) }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
        #expect(error?.isUsage == true)
    }

    /// `serve` itself: an unknown flag exits 2 with the hint, before opening anything.
    @Test func serveRefusesAMisspelledFlag() async throws {
        let result = try await CommandLineRunner.run(["serve", "--prot", "9000"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean --port?"), "\(result.stderr)")
    }
}
