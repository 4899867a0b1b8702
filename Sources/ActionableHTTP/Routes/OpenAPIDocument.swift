public import ActionableCore
import Foundation
import Hummingbird
import Synchronization
import Yams

/// The published HTTP contract (`openapi.yaml`, OpenAPI 3.1), served as JSON at
/// `GET /openapi.json` so that clients can generate code from it and gateways can validate
/// against it. The served document is the deployment's own: the category fields list the
/// catalog's categories. The tests check every answer against it (schemathesis).
public enum OpenAPIDocument {
    /// The document as JSON text for `catalog`; nil if the embedded YAML does not convert (a
    /// test keeps it valid).
    public static func json(for catalog: Catalog) -> String? {
        guard var document = (try? Yams.load(yaml: yaml)) as? [String: Any] else { return nil }
        let categories = catalog.categories.map(\.id.rawValue)
        if !categories.isEmpty {
            for schema in ["ActionRequest", "NotificationRecord", "SendRequest"] {
                document = setting(categories, at: ["components", "schemas", schema, "properties", "category", "enum"], in: document)
            }
            // An endpoint's filter names the catalog's categories and actions.
            let patterns =
                ["*"]
                + catalog.categories.flatMap { category in
                    ["\(category.id).*"] + category.actions.map { "\(category.id).\($0.id)" }
                }
            for schema in ["NewEndpoint", "EndpointChange"] {
                document = setting(
                    patterns, at: ["components", "schemas", schema, "properties", "filter", "items", "enum"], in: document)
            }
        }
        guard JSONSerialization.isValidJSONObject(document),
            let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `dictionary` with `value` at `path` (the dictionaries on the way exist in the document).
    private static func setting(_ value: Any, at path: [String], in dictionary: [String: Any]) -> [String: Any] {
        guard let key = path.first else { return dictionary }
        var dictionary = dictionary
        if path.count == 1 {
            dictionary[key] = value
        } else {
            dictionary[key] = setting(value, at: Array(path.dropFirst()), in: dictionary[key] as? [String: Any] ?? [:])
        }
        return dictionary
    }

    /// The text of `openapi.yaml` (this target's resource, embedded in the binary).
    static let yaml = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)

    static func routes(live: LiveCatalog) -> RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        // Made once per catalog served (by its entity tag), not once per request.
        let made = Mutex<(etag: String, json: String?)?>(nil)
        routes.get("/openapi.json") { _, _ in
            let release = live.current
            let json =
                made.withLock { $0?.etag == release.etag ? $0 : nil }?.json
                ?? {
                    let json = Self.json(for: release.catalog)
                    made.withLock { $0 = (release.etag, json) }
                    return json
                }()
            guard let json else {
                throw Problem(.noDocument, "the embedded OpenAPI document does not parse")
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
        }
        return routes
    }
}
