/// What an upstream's answer to one forwarded call means (``Forwarder``). A call that got no
/// usable answer — no connection, a redirect, a status HTTP does not define, a body cut short, the
/// deadline — is not an answer: the forwarder throws `UpstreamFailure` for it, a failed attempt.
public enum UpstreamAnswer: Sendable, Hashable {
    /// 2xx: the upstream has it.
    case delivered
    /// 408, 429, 5xx: try again, after `after` when the upstream said (`Retry-After`, bounded).
    case retry(after: Duration?)
    /// Any other 4xx: the upstream will never take it.
    case refused(reason: String)
}
