import ActionableCore
import ActionableHTTP
import ActionableStore
import ActionableTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

struct StatusEndpointTests {
    @Test func operatorsSeeADeadResponseAndItsReasonWithTheAdminToken() async throws {
        let store = InMemoryActionStore()
        _ = try await store.accept(
            NewResponse(
                id: "r1",
                response: ActionResponse(
                    category: "invite", action: "accept",
                    notificationID: "n1", user: "alice"), receivedAt: Date(timeIntervalSince1970: 0)))
        _ = try await store.claimDue(now: Date(timeIntervalSince1970: 1), limit: 1, lease: 30, owner: "w")
        try await store.markDead(id: "r1", owner: "w", reason: "the upstream answered HTTP 410")
        let app = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog, store: store,
                tokens: nil, settings: ServerSettings(adminToken: "s3cret")))
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/actions/r1", method: .get, headers: [.authorization: "Bearer s3cret"]) { response in
                #expect(response.status == .ok)
                let json = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
                #expect(json?["status"] as? String == "dead")
                #expect(json?["attempts"] as? Int == 1)
                #expect(json?["lastError"] as? String == "the upstream answered HTTP 410")
            }
            for headers: HTTPFields in [[:], [.authorization: "Bearer wrong"], [.authorization: "s3cret"]] {
                try await client.execute(uri: "/v1/actions/r1", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized)
                }
            }
            try await client.execute(uri: "/v1/actions/nope", method: .get, headers: [.authorization: "Bearer s3cret"]) {
                #expect($0.status == .notFound)
            }
        }
        // Without an admin token the endpoint does not exist.
        let closed = Application(router: ActionableRoutes.router(catalog: ActionsEndpointTests.catalog, store: store, tokens: nil))
        try await closed.test(.router) { client in
            try await client.execute(uri: "/v1/actions/r1", method: .get, headers: [.authorization: "Bearer s3cret"]) {
                #expect($0.status == .notFound)
            }
        }
    }
}
