public import Foundation

/// A notification service extension's principal class (`UNNotificationServiceExtension`, iOS
/// 10): the system calls `didReceive(_:withContentHandler:)` for a notification with
/// `mutable-content`, and shows what the handler is given; if the handler is not called in
/// time (about 30 seconds), it calls `serviceExtensionTimeWillExpire()` and then shows the
/// original content. Apple's default implementations hand the content on unchanged.
open class UNNotificationServiceExtension: NSObject, @unchecked Sendable {
    public override init() { super.init() }

    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }

    open func serviceExtensionTimeWillExpire() {}
}
