import ActionableStore

/// The text of the outbox's hot statements, built once: the tables' builders assemble it on each
/// call, which cost an eighth of recording an endpoint's outcomes (measured with `perf`). The
/// connection's statement cache then prepares each once.
enum HotSQL {
    static let claimDeliveries = QueueTable.deliveries.claim(.sqlite)
    static let claimResponses = QueueTable.responses.claim(.sqlite)
    static let claimSends = QueueTable.sends.claim(.sqlite)
    static let finishLeased = EndpointTable.finishLeased(.sqlite)
    static let selectEndpoint = EndpointTable.selectOne(.sqlite)
    static let updateEndpoint = EndpointTable.update(.sqlite)
    static let releaseEndpoint = EndpointTable.release(.sqlite)
    static let markDelivered = ActionTable.markDelivered(.sqlite)
    static let reschedule = ActionTable.reschedule(.sqlite)
    static let markDead = ActionTable.markDead(.sqlite)

    /// Claims take at most a window's worth: the statements for up to 128 ids are kept.
    private static let selectResponsesByCount = (0...128).map { ActionTable.selectByIDs(.sqlite, count: $0) }

    /// The responses with `count` ids (parameters 1…count).
    static func selectResponses(count: Int) -> String {
        count < selectResponsesByCount.count ? selectResponsesByCount[count] : ActionTable.selectByIDs(.sqlite, count: count)
    }
}
