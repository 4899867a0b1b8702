import ActionableStore
import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Testing

@testable import ActionablePostgres

/// The storage URL: credentials, `sslmode` and `schema`, and clear errors that never show the password.
struct PostgresURLTests {
    @Test func theURLGivesHostPortUserAndDatabase() throws {
        let configuration = try PostgresActionStore.configuration(from: "postgres://app:s3cret@db.internal:6432/actions")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6432)
        #expect(configuration.username == "app")
        #expect(configuration.password == "s3cret")
        #expect(configuration.database == "actions")
    }

    @Test(
        arguments: [
            ("disable", nil), ("prefer", CertificateVerification.none), ("require", CertificateVerification.none),
            ("verify-full", .fullVerification),
        ] as [(String, CertificateVerification?)])
    func sslmodeChoosesTheTLSModeAsLibpqDoes(mode: String, verification: CertificateVerification?) throws {
        let parsed = try #require(PostgresActionStore.SSLMode(rawValue: mode))
        #expect(parsed.tlsConfiguration?.certificateVerification == verification)
        _ = try PostgresActionStore.configuration(from: "postgres://app@db.internal/actions?sslmode=\(mode)")
    }

    /// Without sslmode, a server beyond loopback must prove who it is (verify-full) before it
    /// gets the password; a local one is asked for TLS but not required to have a certificate.
    @Test(arguments: [
        ("db.internal", "verify-full"), ("10.0.0.5", "verify-full"), ("127.0.0.1", "prefer"), ("localhost", "prefer"),
        ("[::1]", "prefer"),
    ])
    func withoutSSLModeOnlyLoopbackSkipsTheCertificateCheck(host: String, mode: String) throws {
        let url = "postgres://app:s3cret@\(host)/actions"
        let parsed = try PostgresActionStore.SSLMode(url: url, host: host)
        #expect(parsed.rawValue == mode)
        #expect(parsed.tlsConfiguration?.certificateVerification == (mode == "verify-full" ? .fullVerification : CertificateVerification.none))
        _ = try PostgresActionStore.configuration(from: url)
        // Written in the URL, the weaker modes are still available.
        #expect(try PostgresActionStore.SSLMode(url: url + "?sslmode=require", host: host) == .require)
    }

    @Test(arguments: [
        ("postgres://app:s3cret@db.internal/actions?sslmode=allow", "sslmode=allow is not supported"),
        ("postgres://app:s3cret@db.internal/actions?pool=3", "parameter \"pool\" is unknown"),
        ("mysql://app:s3cret@db.internal/actions", "is not postgres://user:password@host:port/database"),
    ])
    func badURLsAreRefusedWithoutShowingThePassword(url: String, message: String) {
        let error = #expect(throws: StoreError.self) { try PostgresActionStore.configuration(from: url) }
        #expect("\(error!)".contains(message))
        #expect(!"\(error!)".contains("s3cret"))
    }

    @Test(.enabled(if: StoreConformanceTests.postgresURL != nil, "needs ACTIONABLE_TEST_POSTGRES_URL"))
    func theSchemaParameterKeepsDeploymentsApart() async throws {
        let base = try #require(StoreConformanceTests.postgresURL)
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let a = try await PostgresActionStore(url: "\(base)?sslmode=disable&schema=a\(suffix)", logger: logger)
        defer { a.shutdown() }
        let b = try await PostgresActionStore(url: "\(base)?schema=b\(suffix)", logger: logger)
        defer { b.shutdown() }
        #expect(try await Self.stored(StoreConformanceTests.action("n-1", id: "r-1"), in: a) == "r-1")
        #expect(try await b.response(id: "r-1") == nil)
        #expect(try await Self.stored(StoreConformanceTests.action("n-1", id: "r-2"), in: b) == "r-2")
    }

    /// The id `store` keeps `action` under, sent again as a client does after a 503: an accept
    /// past its deadline (5 s; a fresh schema's first connection on a cluster the whole suite
    /// loads took longer once) may still commit, and the second send then finds it stored.
    static func stored(_ action: NewResponse, in store: PostgresActionStore) async throws -> String? {
        for attempt in 1...3 {
            do {
                switch try await store.accept(action) {
                case .accepted(let id), .duplicate(let id): return id
                case .conflict: return nil
                }
            } catch let error as StoreError where "\(error)".contains("did not answer") && attempt < 3 {
                continue
            }
        }
        return nil
    }
}

/// Response ids: time-ordered version-7 UUIDs, lowercased.
struct ResponseIDTests {
    @Test func idsAreVersionSevenUUIDsAndDistinct() throws {
        let ids = (0..<1000).map { _ in NewResponse.makeID() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let uuid = try #require(UUID(uuidString: id))
            #expect(id == uuid.uuidString.lowercased())
            #expect(uuid.uuid.6 >> 4 == 7)  // version
            #expect(uuid.uuid.8 >> 6 == 0b10)  // variant
        }
    }

    @Test func idsMadeLaterSortLaterAndCarryTheirMillisecond() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000.123)
        let times = (0..<50).map { start.addingTimeInterval(Double($0) * 0.001 + 0.0001) }
        let ids = times.map { NewResponse.makeID(now: $0) }
        #expect(ids == ids.sorted())
        let first = try #require(UUID(uuidString: ids[0])).uuid
        let milliseconds = [first.0, first.1, first.2, first.3, first.4, first.5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_800_000_000_123)
    }
}
