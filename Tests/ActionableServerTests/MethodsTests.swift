import ActionableHTTP
import ActionableStore
import ActionableTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// HTTP's method rules: 405 with `Allow` for a known path, HEAD wherever GET, and a problem
/// document for an unknown path.
struct MethodsTests {
    typealias Call = BadgeEndpointTests.Call

    @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
        let replies = try await BadgeEndpointTests.run(
            settings: ServerSettings(adminToken: "operator-token-0123456789abcdefghijkl", backendToken: BadgeEndpointTests.backend),
            [
                Call(method: .trace, uri: "/v1/categories"), Call(method: .delete, uri: "/healthz"),
                Call(method: .get, uri: "/v1/actions"), Call(method: .put, uri: "/v1/deliveries/r-1/retry"),
                Call(method: .delete, uri: "/v1/badge/alice"), Call(method: .patch, uri: "/v1/notifications"),
            ])
        #expect(replies.map(\.status) == Array(repeating: .methodNotAllowed, count: 6))
        #expect(
            replies.map { $0.headers[.allow] } == [
                "GET, HEAD", "GET, HEAD", "POST", "POST", "GET, HEAD", "POST",
            ])
        #expect(replies[0].headers[.contentType] == "application/problem+json")
        #expect(replies[0].json["type"] as? String == "https://actionable.dev/problems/method-not-allowed")
        #expect((replies[3].json["detail"] as? String)?.contains("takes POST, not PUT") == true)
    }

    @Test func headIsAnsweredWhereGetIsWithoutABody() async throws {
        let replies = try await BadgeEndpointTests.run([
            Call(method: .head, uri: "/healthz"), Call(method: .head, uri: "/v1/categories"), Call(method: .get, uri: "/v1/categories"),
        ])
        #expect(replies.map(\.status) == [.ok, .ok, .ok])
        #expect(replies[0].body.isEmpty)
        #expect(replies[1].body.isEmpty)
        #expect(replies[1].headers[.eTag] == replies[2].headers[.eTag])
        #expect(replies[1].headers[.eTag] != nil)
    }

    @Test func anUnknownPathIsA404ProblemDocument() async throws {
        let replies = try await BadgeEndpointTests.run([Call(method: .get, uri: "/v2/actions"), Call(method: .post, uri: "/nothing/here")])
        #expect(replies.map(\.status) == [.notFound, .notFound])
        #expect(replies[0].headers[.contentType] == "application/problem+json")
        #expect(replies[0].headers[.allow] == nil)
        #expect((replies[1].json["detail"] as? String)?.contains("/nothing/here") == true)
    }
}
