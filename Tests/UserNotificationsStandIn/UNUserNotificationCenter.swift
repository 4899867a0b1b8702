public import Foundation

/// The app's notification center (`UNUserNotificationCenter`): here it only keeps the
/// registered categories, so that tests can read back what an app registered. As Apple's, it
/// answers `getNotificationCategories` later, on another queue, and applies a
/// `setNotificationCategories` after the call returns (the system registers it in its own time:
/// a notification service extension that registers a category must wait until the center
/// reports it). Tests can hold registrations back to play a slow system.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var categories: Set<UNNotificationCategory> = []
    private var held: [Set<UNNotificationCategory>]?
    private var registrations = 0
    private var registrationWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private let system = DispatchQueue(label: "UNUserNotificationCenter.stand-in")
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

    /// Not Apple API: a center of its own, for a test that must not share `current()` with
    /// tests running beside it.
    public static func standInIsolated() -> UNUserNotificationCenter { UNUserNotificationCenter(standIn: ()) }

    /// Replaces every registered category, once the system gets to it (after this returns).
    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            registrations += 1
            let ready = registrationWaiters.filter { $0.count <= registrations }.map(\.continuation)
            registrationWaiters.removeAll { $0.count <= registrations }
            return ready
        }
        for continuation in ready { continuation.resume() }
        system.async { [self] in
            lock.withLock {
                if held != nil { held?.append(categories) } else { self.categories = categories }
            }
        }
    }

    /// Answers later, on another queue, as Apple's does (never before it returns), with what the
    /// system has applied: code that sets categories and asks at once may see the old set.
    open func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        system.async { [self] in
            let categories = lock.withLock { self.categories }
            DispatchQueue.global().async { completionHandler(categories) }
        }
    }

    open func notificationCategories() async -> Set<UNNotificationCategory> {
        await withCheckedContinuation { continuation in getNotificationCategories { continuation.resume(returning: $0) } }
    }

    /// Not Apple API: how many times `setNotificationCategories` was called.
    public var standInRegistrationCount: Int { lock.withLock { registrations } }

    /// Not Apple API: returns once `setNotificationCategories` has been called `count` times.
    public func standInRegistrations(reaching count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock {
                if registrations >= count { return true }
                registrationWaiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Not Apple API: from now on the system applies no registration until
    /// ``standInApplyHeldRegistrations()`` (a slow or busy system).
    public func standInHoldRegistrations() {
        system.sync { lock.withLock { if held == nil { held = [] } } }
    }

    /// Not Apple API: applies the registrations held back, in order, and stops holding.
    public func standInApplyHeldRegistrations() {
        system.sync {
            lock.withLock {
                if let last = held?.last { categories = last }
                held = nil
            }
        }
    }
}
