import Foundation

/// The app's notification center (`UNUserNotificationCenter`): here it only keeps the
/// registered categories, so that tests can read back what an app registered; as Apple's, it
/// answers `getNotificationCategories` later, on another queue.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var categories: Set<UNNotificationCategory> = []
    private weak var storedDelegate: (any UNUserNotificationCenterDelegate)?

    /// The app's delegate; weak, as in Apple's API.
    open var delegate: (any UNUserNotificationCenterDelegate)? {
        get { lock.withLock { storedDelegate } }
        set { lock.withLock { storedDelegate = newValue } }
    }
    private static let shared = UNUserNotificationCenter(standIn: ())

    /// Apple's `init` is unavailable: the app's center is ``current()``.
    @available(*, unavailable)
    public override init() { fatalError("use UNUserNotificationCenter.current()") }

    private init(standIn: Void) { super.init() }

    open class func current() -> UNUserNotificationCenter { shared }

    /// Replaces every registered category.
    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        lock.lock()
        self.categories = categories
        lock.unlock()
    }

    /// Answers later, on another queue, as Apple's does (never before it returns): code that sets
    /// categories right after asking, without waiting for the answer, sees the old set.
    open func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        lock.lock()
        let categories = self.categories
        lock.unlock()
        DispatchQueue.global().async { completionHandler(categories) }
    }

    open func notificationCategories() async -> Set<UNNotificationCategory> {
        await withCheckedContinuation { continuation in getNotificationCategories { continuation.resume(returning: $0) } }
    }
}
