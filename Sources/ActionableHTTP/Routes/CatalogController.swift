import ActionableCore
import Crypto
import Foundation
import Hummingbird

/// `GET /v1/categories`: the normalized catalog, with an `ETag` (a hash of the exact bytes)
/// and `304 Not Modified` when the client already has them.
struct CatalogController: Sendable {
    let body: String
    let etag: String

    init(catalog: Catalog) {
        body = catalog.jsonValue.serialized()
        let digest = SHA256.hash(data: Array(body.utf8))
        etag = "\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
    }

    var routes: RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.get("/v1/categories") { request, _ in
            if let tags = request.headers[.ifNoneMatch], Self.matches(tags, self.etag) {
                return Response(status: .notModified, headers: [.eTag: self.etag])
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .eTag: self.etag],
                body: ResponseBody(byteBuffer: ByteBuffer(string: self.body)))
        }
        return routes
    }

    /// `If-None-Match` holds `*` or a list of entity tags, weak ones (`W/"…"`) included.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
