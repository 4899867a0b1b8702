import ActionableAPNsTesting
import ActionableFCM
import ActionableFCMTesting
import ActionableTestSupport
import AsyncHTTPClient
import CryptoExtras
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import NIOSSL
import ServiceLifecycle
import Testing

/// The stand-in FCM over real HTTPS on loopback: its token endpoint checks a service account's
/// JWT-bearer grant as Google's does, and messages:send checks and answers as FCM does.
struct FCMStandInTests {
    static let logger = Logger(label: "fcm-test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    /// A service account's key pair, made once (RSA generation is slow).
    static let key: (private: JWTKit.Insecure.RSA.PrivateKey, public: JWTKit.Insecure.RSA.PublicKey) = {
        let backing = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
        let privateKey = try! JWTKit.Insecure.RSA.PrivateKey(pem: backing.pkcs8PEMRepresentation)
        return (privateKey, try! JWTKit.Insecure.RSA.PublicKey(pem: backing.publicKey.pemRepresentation))
    }()

    /// An assertion signed with `key` as `kid`.
    static func assertion(
        iss: String = "sender@project.iam.gserviceaccount.com", scope: String = scope, aud: String, issuedAt: Date = Date(),
        lifetime: TimeInterval = 3600, kid: String = "key-1", key: JWTKit.Insecure.RSA.PrivateKey = key.private
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        return try await keys.sign(
            ServiceAccountAssertion(iss: iss, scope: scope, aud: aud, issuedAt: issuedAt, lifetime: lifetime), kid: JWKIdentifier(string: kid))
    }

    struct Call {
        var status: Int
        var headers: HTTPHeaders
        var json: [String: Any]
    }

    /// A stand-in on a free port and an HTTPS client trusting it; `body` gets the base URL.
    static func withStandIn(
        unregistered: Set<String> = [], failures: [String: FCMStandIn.Failure] = [:],
        _ body: @Sendable (String, FCMStandIn, HTTPClient) async throws -> Void
    ) async throws {
        let certificate = try StandInCertificate()
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let standIn = await FCMStandIn(
            configuration: .init(
                serviceAccountKey: key.public, keyID: "key-1", clientEmail: "sender@project.iam.gserviceaccount.com",
                projectID: "demo-project", unregistered: unregistered, failures: failures))
        let app = try standIn.application(certificate: certificate, logger: logger) { port in portContinuation.yield(port) }
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(certificate.certificatePEM.utf8)))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.timeout.read = .seconds(60)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var ports = portStream.makeAsyncIterator()
            let port = try #require(await ports.next())
            let outcome = await outcome { try await body("https://127.0.0.1:\(port)", standIn, client) }
            try await client.shutdown()
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            try outcome.get()
        }
    }

    static func call(_ client: HTTPClient, _ url: String, form: String? = nil, json: String? = nil, bearer: String? = nil) async throws -> Call {
        var request = HTTPClientRequest(url: url)
        request.method = form == nil && json == nil ? .GET : .POST
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1024 * 1024)
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
        return Call(status: Int(response.status.code), headers: response.headers, json: object)
    }

    static func grant(_ client: HTTPClient, _ base: String, assertion: String) async throws -> Call {
        try await call(client, base + "/token", form: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)")
    }

    static func accessToken(_ client: HTTPClient, _ base: String) async throws -> String {
        let granted = try await grant(client, base, assertion: try await assertion(aud: base + "/token"))
        let token = granted.json["access_token"] as? String
        return try #require(token, "\(granted.json)")
    }

    static func message(token: String, data: [String: String] = ["notificationId": "n-1", "category": "invite"], android: String? = nil) -> String {
        let pairs = try! JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])
        return #"{"message":{"token":"\#(token)","data":\#(String(decoding: pairs, as: UTF8.self))\#(android.map { #","android":"# + $0 } ?? "")}}"#
    }

    static func errorCode(_ call: Call) -> String? {
        let details = (call.json["error"] as? [String: Any])?["details"] as? [[String: Any]]
        return details?.first?["errorCode"] as? String
    }

    static func errorStatus(_ call: Call) -> String? { (call.json["error"] as? [String: Any])?["status"] as? String }

    @Test func aGrantedTokenSendsAMessageThatIsListed() async throws {
        try await Self.withStandIn { base, standIn, client in
            let token = try await Self.accessToken(client, base)
            let sent = try await Self.call(
                client, base + "/v1/projects/demo-project/messages:send",
                json: Self.message(token: "fcm-token-1", android: #"{"priority":"high","ttl":"3600s","collapse_key":"invite-42"}"#),
                bearer: token)
            #expect(sent.status == 200, "\(sent.json)")
            let name = try #require(sent.json["name"] as? String)
            #expect(name.hasPrefix("projects/demo-project/messages/"))
            let taken = await standIn.received.messages
            #expect(taken.count == 1)
            #expect(taken.first?.token == "fcm-token-1" && taken.first?.data == ["notificationId": "n-1", "category": "invite"])
            #expect(taken.first?.priority == "high" && taken.first?.ttl == "3600s" && taken.first?.collapseKey == "invite-42")
            #expect(taken.first?.name == name)
            let listed = try await Self.call(client, base + "/sent")
            #expect(listed.status == 200)
        }
    }

    @Test func theTokenEndpointRefusesWhatGoogleRefuses() async throws {
        try await Self.withStandIn { base, standIn, client in
            let aud = base + "/token"
            let other = try JWTKit.Insecure.RSA.PrivateKey(pem: try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation)
            let refused: [(String, String)] = [
                ("a key the account does not have", try await Self.assertion(aud: aud, key: other)),
                ("another kid", try await Self.assertion(aud: aud, kid: "key-2")),
                ("another account", try await Self.assertion(iss: "someone@else.iam.gserviceaccount.com", aud: aud)),
                ("no messaging scope", try await Self.assertion(scope: "https://www.googleapis.com/auth/cloud-platform", aud: aud)),
                ("longer than an hour", try await Self.assertion(aud: aud, lifetime: 3601)),
                ("expired", try await Self.assertion(aud: aud, issuedAt: Date().addingTimeInterval(-7200))),
                ("issued in the future", try await Self.assertion(aud: aud, issuedAt: Date().addingTimeInterval(600))),
                ("another audience", try await Self.assertion(aud: "https://oauth2.googleapis.com/oauth2/v4/token")),
                ("not a JWT", "garbage"),
            ]
            for (name, assertion) in refused {
                let answer = try await Self.grant(client, base, assertion: assertion)
                #expect(answer.status == 400, "\(name): \(answer.json)")
                #expect(answer.json["access_token"] == nil, "\(name)")
            }
            let wrongGrant = try await Self.call(client, aud, form: "grant_type=client_credentials&assertion=x")
            #expect(wrongGrant.status == 400 && wrongGrant.json["error"] as? String == "unsupported_grant_type")
            #expect(await standIn.grantCount == 0)
            // A valid one passes, once per grant.
            _ = try await Self.accessToken(client, base)
            #expect(await standIn.grantCount == 1)
        }
    }

    @Test func sendsAreAnsweredAsFCMAnswers() async throws {
        try await Self.withStandIn(
            unregistered: ["gone"],
            failures: [
                "busy": .init(status: 429, code: "QUOTA_EXCEEDED", retryAfter: "30"),
                "down": .init(status: 503, code: "UNAVAILABLE"),
                "mixed": .init(status: 403, code: "SENDER_ID_MISMATCH"),
            ]
        ) { base, standIn, client in
            let send = base + "/v1/projects/demo-project/messages:send"
            // No bearer, a made-up bearer, and one revoked: 401 UNAUTHENTICATED.
            #expect(try await Self.call(client, send, json: Self.message(token: "t")).status == 401)
            #expect(try await Self.call(client, send, json: Self.message(token: "t"), bearer: "ya29.made-up").status == 401)
            let token = try await Self.accessToken(client, base)
            #expect(try await Self.call(client, send, json: Self.message(token: "t"), bearer: token).status == 200)
            await standIn.revokeAccessTokens()
            let revoked = try await Self.call(client, send, json: Self.message(token: "t"), bearer: token)
            #expect(revoked.status == 401 && Self.errorStatus(revoked) == "UNAUTHENTICATED")
            let bearer = try await Self.accessToken(client, base)

            let gone = try await Self.call(client, send, json: Self.message(token: "gone"), bearer: bearer)
            #expect(gone.status == 404 && Self.errorStatus(gone) == "NOT_FOUND" && Self.errorCode(gone) == "UNREGISTERED")
            let busy = try await Self.call(client, send, json: Self.message(token: "busy"), bearer: bearer)
            #expect(busy.status == 429 && Self.errorCode(busy) == "QUOTA_EXCEEDED" && busy.headers.first(name: "retry-after") == "30")
            let down = try await Self.call(client, send, json: Self.message(token: "down"), bearer: bearer)
            #expect(down.status == 503 && Self.errorStatus(down) == "UNAVAILABLE")
            let mixed = try await Self.call(client, send, json: Self.message(token: "mixed"), bearer: bearer)
            #expect(mixed.status == 403 && Self.errorCode(mixed) == "SENDER_ID_MISMATCH")
            // Another project than the account's.
            let otherProject = try await Self.call(
                client, base + "/v1/projects/other/messages:send", json: Self.message(token: "t"), bearer: bearer)
            #expect(otherProject.status == 403)

            // Messages FCM refuses: 400 INVALID_ARGUMENT.
            let big = String(repeating: "x", count: 4096)
            let refused: [(String, String)] = [
                ("not JSON", "{"),
                ("no message", #"{"msg":{}}"#),
                ("an empty token", Self.message(token: "")),
                ("a reserved key", Self.message(token: "t", data: ["from": "me"])),
                ("a google. key", Self.message(token: "t", data: ["google.sent_time": "1"])),
                ("a gcm. key", Self.message(token: "t", data: ["gcm.notification.title": "x"])),
                ("data over 4096 bytes", Self.message(token: "t", data: ["k": big])),
                ("a number as a value", #"{"message":{"token":"t","data":{"badge":3}}}"#),
                ("an unknown field", #"{"message":{"token":"t","dta":{}}}"#),
                ("a bad priority", Self.message(token: "t", android: #"{"priority":"urgent"}"#)),
                ("a bad ttl", Self.message(token: "t", android: #"{"ttl":"3600"}"#)),
                ("a ttl over four weeks", Self.message(token: "t", android: #"{"ttl":"2419201s"}"#)),
                ("an unknown android field", Self.message(token: "t", android: #"{"prio":"high"}"#)),
            ]
            for (name, body) in refused {
                let answer = try await Self.call(client, send, json: body, bearer: bearer)
                #expect(answer.status == 400 && Self.errorStatus(answer) == "INVALID_ARGUMENT", "\(name): \(answer.json)")
            }
            // Exactly at the limit is taken: 4096 bytes of keys and values.
            let atLimit = Self.message(token: "t", data: ["k": String(repeating: "x", count: 4095)])
            #expect(try await Self.call(client, send, json: atLimit, bearer: bearer).status == 200)
            #expect(await standIn.received.messages.count == 2)
        }
    }
}
