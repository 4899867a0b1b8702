/// An error answer of the server: RFC 9457 `application/problem+json` (`Problem` in
/// `openapi.yaml`). The server writes it, the app's client and the command line read it.
public struct ProblemDocument: Codable, Hashable, Sendable {
    /// One field at fault: a JSON pointer into the request body, and what is wrong with it.
    public struct FieldError: Codable, Hashable, Sendable {
        /// A JSON pointer into the request body (`/actionToken`).
        public var pointer: String
        /// What is wrong with it.
        public var detail: String

        /// A field at fault.
        public init(pointer: String, detail: String) {
            self.pointer = pointer
            self.detail = detail
        }
    }

    /// The start of every problem type an Actionable server sends.
    public static let typeBase = "https://actionable.dev/problems/"

    /// The type URI: ``typeBase`` and the type's name.
    public var type: String
    /// The same for every problem of the type.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// What went wrong in this request.
    public var detail: String
    /// The fields at fault; left out of the document when there are none.
    public var errors: [FieldError]

    /// A problem document.
    public init(type: String, title: String, status: Int, detail: String, errors: [FieldError] = []) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
    }

    /// The last path segment of ``type`` (`already-answered`).
    public var name: String { type.split(separator: "/").last.map(String.init) ?? type }

    private enum CodingKeys: String, CodingKey { case type, title, status, detail, errors }

    /// Reads a document whose members other than `type` and `status` may be missing, as a
    /// proxy's or an older server's may be.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        status = try container.decodeIfPresent(Int.self, forKey: .status) ?? 0
        detail = try container.decodeIfPresent(String.self, forKey: .detail) ?? ""
        errors = try container.decodeIfPresent([FieldError].self, forKey: .errors) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(detail, forKey: .detail)
        if !errors.isEmpty { try container.encode(errors, forKey: .errors) }
    }
}
