/// One `--forward PATTERN=URL`: responses whose route matches `pattern` (`category.action`,
/// `category.*` or `*`) are POSTed to `url`.
public struct ForwardRoute: Hashable, Sendable, CustomStringConvertible {
    /// The route pattern, checked against the catalog when the service starts.
    public var pattern: String
    /// The upstream (`http://` or `https://`).
    public var url: String

    /// Forwards `pattern` to `url`.
    public init(pattern: String, url: String) {
        self.pattern = pattern
        self.url = url
    }

    /// Parses `PATTERN=URL`, e.g. `invite.*=https://invitations.internal/rsvp`.
    public init(parsing text: String) throws(ConfigurationError) {
        guard let equals = text.firstIndex(of: "="),
            text[text.index(after: equals)...].hasPrefix("http://") || text[text.index(after: equals)...].hasPrefix("https://")
        else {
            throw ConfigurationError("a forward takes PATTERN=URL, e.g. invite.*=https://invitations.internal/rsvp; got \(text)")
        }
        self.init(pattern: String(text[..<equals]), url: String(text[text.index(after: equals)...]))
    }

    public var description: String { "\(pattern)=\(url)" }
}
