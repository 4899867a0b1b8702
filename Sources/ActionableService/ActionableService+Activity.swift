import ActionableCore
import ActionableStore
import Foundation
import Logging

extension ActionableService {
    /// How often an instance adds what it counted to storage's counts per minute.
    static let activityFlushInterval: Duration = .seconds(10)

    /// Adds what this instance counted to storage every `interval`, until cancelled.
    func flushActivityEvery(_ interval: Duration, into store: any ActionStore) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            await flushActivity(into: store)
        }
    }

    /// Adds what this instance counted to storage, forgetting the minutes the retention no longer
    /// keeps; a failure is logged and the counts wait for the next flush.
    func flushActivity(into store: any ActionStore) async {
        let retention = configuration.retention
        let forgetBefore = retention == .zero ? nil : ActivityMinute(Date().addingTimeInterval(-retention.timeInterval))
        do {
            try await activity.flush(into: store, forgetBefore: forgetBefore)
        } catch {
            logger.warning("the counts for the admin page's charts could not be stored; kept for the next try", metadata: ["error": "\(error)"])
        }
    }
}
