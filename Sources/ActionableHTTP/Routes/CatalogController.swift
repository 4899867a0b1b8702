import ActionableCore
import Foundation
import Hummingbird

/// `GET /v1/categories`: the normalized catalog, with an `ETag` (a hash of the exact bytes)
/// and `304 Not Modified` when the client already has them; the catalog served now (a reload
/// changes both at once).
struct CatalogController: Sendable {
    let live: LiveCatalog

    var routes: RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.get("/v1/categories") { request, _ in
            // One release for the whole answer: a reload between two reads cannot mix them.
            let release = live.current
            if let tags = request.headers[.ifNoneMatch], Self.matches(tags, release.etag) {
                return Response(status: .notModified, headers: [.eTag: release.etag])
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .eTag: release.etag],
                body: ResponseBody(byteBuffer: ByteBuffer(string: release.body)))
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
