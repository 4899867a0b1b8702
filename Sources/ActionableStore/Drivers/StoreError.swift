/// A storage failure that is not the database's own error.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
