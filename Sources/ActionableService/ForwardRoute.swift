import ActionableDelivery

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
            let pattern = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            throw ConfigurationError(
                "a forward takes PATTERN=URL with an http:// or https:// URL, e.g. invite.*=https://invitations.internal/rsvp; "
                    + "the one for \"\(pattern)\" is not (the URL is not printed: it may hold a secret)")
        }
        self.init(pattern: String(text[..<equals]), url: String(text[text.index(after: equals)...]))
    }

    /// `PATTERN=scheme://host:port`: the URL's path and query may hold a secret.
    public var description: String { "\(pattern)=\(UpstreamAddress.redacted(url))" }
}
