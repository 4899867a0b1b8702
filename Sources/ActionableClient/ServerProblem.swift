public import ActionableWire
import Foundation

/// An error answer of the server (`application/problem+json`): its status, type and detail,
/// and the fields at fault.
public struct ServerProblem: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// One field at fault: a JSON pointer into the request body, and what is wrong with it (the
    /// wire's own type, which the server writes).
    public typealias FieldError = ProblemDocument.FieldError

    /// The HTTP status.
    public var status: Int
    /// The problem type URI (`https://actionable.dev/problems/already-answered`), or
    /// `about:blank` when the answer was not a problem document.
    public var type: String
    /// A short summary.
    public var title: String
    /// What went wrong in this request.
    public var detail: String
    /// The fields at fault.
    public var errors: [FieldError]

    public init(status: Int, type: String = "about:blank", title: String = "", detail: String = "", errors: [FieldError] = []) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.errors = errors
    }

    /// The start of every problem type an Actionable server sends.
    public static let typeBase = ProblemDocument.typeBase

    /// Whether a problem named `name` is final for a report: the same report will be refused
    /// again, whatever happens (its action token refused, a catalog or payload mismatch, a body
    /// the server will never take).
    public static func isFinal(_ name: String) -> Bool {
        name.hasPrefix("token-") || finalNames.contains(name)
    }

    static let finalNames: Set<String> = [
        "catalog-mismatch", "payload-mismatch", "body-too-large", "invalid-json", "invalid-request", "unsupported-media-type",
    ]

    /// The last path segment of ``type`` (`already-answered`).
    public var name: String { type.split(separator: "/").last.map(String.init) ?? type }

    public var description: String {
        let fields = errors.prefix(5).map { " \($0.pointer.prefix(100)): \($0.detail.prefix(200))" }.joined(separator: ";")
        // The server's text, as long as it likes: what is kept (and written to the report queue) is cut.
        return String("\(status) \(name): \((detail.isEmpty ? title : detail).prefix(200))\(fields)".prefix(1000))
    }

    /// The problem of an answer `body` with `status`; a body that is not a problem document
    /// gives its first 200 characters as the detail.
    init(status: Int, body: Data) {
        if let document = try? JSONDecoder().decode(ProblemDocument.self, from: body) {
            self.init(
                status: status, type: document.type, title: document.title, detail: document.detail,
                errors: document.errors)
        } else {
            self.init(status: status, detail: String(decoding: body.prefix(200), as: UTF8.self))
        }
    }
}
