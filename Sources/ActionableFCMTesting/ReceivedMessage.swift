import Foundation

/// A message the stand-in took (answered 200), as `GET /sent` lists it.
public struct ReceivedMessage: Codable, Hashable, Sendable {
    /// The name it answered: `projects/{project}/messages/{id}`.
    public var name: String
    /// The registration token the message went to.
    public var token: String
    /// The data message's keys and values.
    public var data: [String: String]
    /// `android.priority`, as sent (`high`, `normal`), when there was one.
    public var priority: String?
    /// `android.ttl`, as sent (`3600s`), when there was one.
    public var ttl: String?
    /// `android.collapse_key`, when there was one.
    public var collapseKey: String?
}

/// What the stand-in took, in the order it took it.
public actor ReceivedMessages {
    private var taken: [ReceivedMessage] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var requests = 0

    /// An empty log.
    public init() {}

    func append(_ message: ReceivedMessage) {
        taken.append(message)
        waiters.removeAll { waiter in
            guard taken.count >= waiter.count else { return false }
            waiter.continuation.resume()
            return true
        }
    }

    /// Counts one `messages:send` request (whatever its answer); returns the count so far.
    func countRequest() -> Int {
        requests += 1
        return requests
    }

    /// Returns once `count` messages were taken.
    public func wait(untilTaken count: Int) async {
        if taken.count >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    /// Every message taken so far.
    public var messages: [ReceivedMessage] { taken }

    /// How many `messages:send` requests came, whatever their answer.
    public var requestCount: Int { requests }
}
