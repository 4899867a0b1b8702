/// The server's answer to an accepted action response (`ActionAccepted` in `openapi.yaml`):
/// 202 `accepted` when it was stored now, 200 `duplicate` when the same answer was stored before.
public struct ActionAnswer: Codable, Hashable, Sendable {
    /// The response id (the id of the first answer, for a duplicate).
    public var id: String
    /// `accepted` or `duplicate`.
    public var status: String

    /// The two statuses an accepted response has.
    public static let statuses: Set<String> = ["accepted", "duplicate"]

    /// An answer.
    public init(id: String, status: String) {
        self.id = id
        self.status = status
    }
}
