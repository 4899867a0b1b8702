import Foundation

extension InMemoryActionStore: ActivityStore {
    public func recordActivity(_ counts: [ActivityCount], forgetBefore: ActivityMinute?) {
        if let forgetBefore { activityTable = activityTable.filter { $0.key.minute >= forgetBefore } }
        for count in counts {
            activityTable[ActivityKey(minute: count.minute, series: count.series, subject: count.subject), default: 0] += count.count
        }
    }

    public func activity(_ series: [ActivitySeries], from: ActivityMinute, to: ActivityMinute, byMinute: Bool) -> [ActivityCount] {
        var found: [ActivityKey: Int64] = [:]
        for (key, count) in activityTable where key.minute >= from && key.minute <= to && series.contains(key.series) {
            found[ActivityKey(minute: byMinute ? key.minute : from, series: key.series, subject: key.subject), default: 0] += count
        }
        return found.map { ActivityCount(minute: $0.key.minute, series: $0.key.series, subject: $0.key.subject, count: $0.value) }
    }
}

/// A row of the in-memory activity table.
struct ActivityKey: Hashable {
    var minute: ActivityMinute
    var series: ActivitySeries
    var subject: String
}
