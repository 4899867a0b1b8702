public import ActionableStore

/// The signal that wakes the send worker: one `OutboxSignal` now wakes any
/// worker of the outbox.
@available(*, deprecated, renamed: "OutboxSignal")
public typealias SendSignal = OutboxSignal
