/// Why Swift could not be generated from a catalog: two identifiers that map to one Swift
/// name (the message names both and where they come from), or a catalog with lint errors.
public struct GenerationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    /// An error described by `description`.
    public init(_ description: String) { self.description = description }
}
