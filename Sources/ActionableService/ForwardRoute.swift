import ActionableDelivery
import Foundation

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
    /// The id of the endpoint this flag seeds when no other flag names its pattern: `forward-`,
    /// the pattern made readable, and a short hash of the exact pattern (so `invite.*` and an
    /// action named `all` never share one). Its URL may change from one start to the next: the
    /// endpoint follows it.
    public var endpointID: String { Self.endpointID(readable: pattern, hashing: pattern) }

    /// The id of the endpoint this flag seeds when other flags name the same pattern: the
    /// pattern made readable and a hash of the pattern and the URL, so each upstream is an
    /// endpoint of its own and every one of them gets the tap.
    public var endpointIDBesideOthers: String { Self.endpointID(readable: pattern, hashing: pattern + "\u{0}" + url) }

    /// The endpoint id of each of `forwards`, in order: ``endpointID`` for a pattern one flag
    /// names, ``endpointIDBesideOthers`` for a pattern several name.
    public static func endpointIDs(_ forwards: [ForwardRoute]) -> [String] {
        var flags: [String: Int] = [:]
        for forward in forwards { flags[forward.pattern, default: 0] += 1 }
        return forwards.map { flags[$0.pattern, default: 0] > 1 ? $0.endpointIDBesideOthers : $0.endpointID }
    }

    /// Throws when two flags are the same `PATTERN=URL`: said twice, it is one endpoint, and the
    /// second is most likely a mistake (a URL meant to differ).
    public static func checkDistinct(_ forwards: [ForwardRoute]) throws(ConfigurationError) {
        var seen: Set<ForwardRoute> = []
        for forward in forwards where !seen.insert(forward).inserted {
            throw ConfigurationError("--forward \(forward) is given twice: give each PATTERN=URL once", usage: true)
        }
    }

    private static func endpointID(readable pattern: String, hashing text: String) -> String {
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let readable = pattern.replacingOccurrences(of: "*", with: "all").lowercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "-"
        }
        let suffix = String(hash, radix: 16)
        return "forward-" + String(String(readable).prefix(64 - 9 - 1 - suffix.count)) + "-" + suffix
    }
}
