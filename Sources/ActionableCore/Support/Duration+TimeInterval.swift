public import Foundation

extension Duration {
    /// The duration in seconds, as Foundation's dates take it.
    public var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
