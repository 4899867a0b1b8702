import Foundation

/// How an upstream is named in logs and in a delivery's `lastError`: scheme, host and port
/// only. A webhook URL often carries its secret in the path or the query (Slack's
/// `https://hooks.slack.com/services/T…/B…/SECRET`), so the whole URL is never printed.
public enum UpstreamAddress {
    /// `url` as `scheme://host:port` (the default port of the scheme when none is written), or a
    /// placeholder when it cannot be read.
    public static func redacted(_ url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return "an upstream whose URL cannot be read" }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost):\(port)"
    }

    /// `text` with every occurrence of `url` replaced by its redacted form: for error messages
    /// of libraries that may quote the URL they were given.
    static func scrub(_ text: String, url: String) -> String {
        guard !url.isEmpty else { return text }
        return text.replacingOccurrences(of: url, with: redacted(url))
    }
}

/// A forwarding attempt that failed without an answer to take (the upstream could not be
/// reached, or answered a redirect, which is not followed): retried. Its description names the
/// upstream, and any location, by ``UpstreamAddress`` only.
struct UpstreamFailure: Error, CustomStringConvertible {
    let description: String
}
