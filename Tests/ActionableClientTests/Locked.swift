import Synchronization

/// A value behind a mutex, shareable between tasks.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value { mutex.withLock { $0 } }
    func mutate<T>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}
