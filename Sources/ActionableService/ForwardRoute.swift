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

extension ForwardRoute {
    /// The id of the endpoint this flag seeds: `forward-`, the pattern made readable, and a short
    /// hash of the exact pattern (so `invite.*` and an action named `all` never share one).
    public var endpointID: String {
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in pattern.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let readable = pattern.replacingOccurrences(of: "*", with: "all").lowercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "-"
        }
        let suffix = String(hash, radix: 16)
        return "forward-" + String(String(readable).prefix(64 - 9 - 1 - suffix.count)) + "-" + suffix
    }
}
