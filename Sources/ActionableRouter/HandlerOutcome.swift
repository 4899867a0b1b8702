/// What a handler says about the response it was given.
public enum HandlerOutcome: Hashable, Sendable {
    /// Handled; never run again for this response.
    case done
    /// Not handled yet (the upstream is down, say): run again later, after `after` if given,
    /// otherwise after the delivery's own backoff.
    case retry(after: Duration? = nil)
    /// Can never succeed (the invitation no longer exists, say): stop and mark the response dead.
    case fail(reason: String)
}
