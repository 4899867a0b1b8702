// The names the operators' side of storage had before the glossary (docs/glossary.md): there a
// "delivery" meant a whole response, which is one response's way to one endpoint everywhere
// else. Kept for one release, deprecated, each forwarding to its new name.

/// The name ``ResponseAdministration`` had before it said what it administers.
@available(*, deprecated, renamed: "ResponseAdministration")
public typealias DeliveryAdministration = ResponseAdministration

/// The name ``ResponseFilter`` had before.
@available(*, deprecated, renamed: "ResponseFilter")
public typealias DeliveryFilter = ResponseFilter

/// The name ``ResponseCursor`` had before.
@available(*, deprecated, renamed: "ResponseCursor")
public typealias DeliveryCursor = ResponseCursor

/// The name ``ResponsePage`` had before.
@available(*, deprecated, renamed: "ResponsePage")
public typealias DeliveryPage = ResponsePage

/// The name ``ResponseStatus`` had before.
@available(*, deprecated, renamed: "ResponseStatus")
public typealias DeliveryStatus = ResponseStatus

extension ResponseAdministration {
    /// The name ``responses(matching:after:limit:)`` had before.
    @available(*, deprecated, renamed: "responses(matching:after:limit:)")
    public func deliveries(matching filter: ResponseFilter, after cursor: ResponseCursor?, limit: Int) async throws -> ResponsePage {
        try await responses(matching: filter, after: cursor, limit: limit)
    }

    /// The name ``responseCounts()`` had before.
    @available(*, deprecated, renamed: "responseCounts()")
    public func deliveryCounts() async throws -> [ResponseStatus: Int] { try await responseCounts() }
}

extension ActionQueue {
    /// The name ``response(id:)`` had before: it returns a stored response, not an action.
    @available(*, deprecated, renamed: "response(id:)")
    public func action(id: String) async throws -> AcceptedResponse? { try await response(id: id) }
}
