import ActionableCore
import ActionableStore
import Foundation

/// What the admin page's pictures show, read from storage's counts per minute (every
/// instance's) and the outbox: taps and deliveries per minute over the last hours, each
/// endpoint's success rate and latency over the last hour, the outbox's depth and how long its
/// oldest due work has waited, and which buttons people press, by category, over the last days.
struct AdminActivity {
    /// How many minutes the timeline shows.
    static let timelineMinutes: Int64 = 180
    /// How many minutes an endpoint's success rate and latency cover.
    static let endpointMinutes: Int64 = 60
    /// How many days the buttons pressed cover.
    static let tapDays: Int64 = 7
    /// The ways out whose attempts carry taps (not copies of notifications sent).
    static let tapTransports: Set<String> = ["handler", "webhook"]

    var depth: Int
    var oldestDue: TimeInterval?
    /// The timeline, drawn.
    var timeline: String
    /// Per endpoint: attempts delivered and not, and its attempts by latency bucket.
    var endpointDelivered: [String: Int64]
    var endpointFailed: [String: Int64]
    var endpointBuckets: [String: [Int: Int64]]
    /// Taps by `category.action`.
    var taps: [String: Int64]

    var oldestDueText: String {
        guard let oldestDue, oldestDue >= 1 else { return "—" }
        let seconds = Int(oldestDue)
        return seconds < 120 ? "\(seconds) s" : seconds < 7200 ? "\(seconds / 60) min" : "\(seconds / 3600) h"
    }

    /// `97 % of 120` over the last hour; `—` without attempts.
    func successRate(of endpoint: String) -> String {
        let delivered = endpointDelivered[endpoint] ?? 0
        let all = delivered + (endpointFailed[endpoint] ?? 0)
        guard all > 0 else { return "—" }
        return "\(Int((Double(delivered) * 100 / Double(all)).rounded(.down))) % of \(all)"
    }

    /// `≤ 25 ms / ≤ 250 ms` over the last hour (the upper bounds of the buckets the quantiles
    /// fall in); `—` without attempts.
    func latency(of endpoint: String) -> String {
        let buckets = endpointBuckets[endpoint] ?? [:]
        guard let p50 = ActivityLog.quantile(0.5, of: buckets), let p99 = ActivityLog.quantile(0.99, of: buckets) else { return "—" }
        func text(_ bound: TimeInterval) -> String {
            guard bound.isFinite else { return "> \(ActivityLog.latencyBuckets[ActivityLog.latencyBuckets.count - 2].formatted()) s" }
            return bound < 1 ? "≤ \(Int((bound * 1000).rounded())) ms" : "≤ \(bound.formatted()) s"
        }
        return "\(text(p50)) / \(text(p99))"
    }

    /// Per category of the catalog with a tap, its actions by taps (most first; buttons not
    /// pressed included, Apple's default and dismiss actions when pressed).
    func tapCharts(catalog: Catalog) -> [(category: String, bars: [(label: String, count: Int64)])] {
        catalog.categories.compactMap { category in
            let id = category.id.rawValue
            func count(_ action: String) -> Int64 { taps["\(id).\(action)"] ?? 0 }
            var bars = category.actions.map { action in
                (label: action.id.rawValue + (action.retired ? " (retired)" : ""), count: count(action.id.rawValue))
            }
            for (action, label) in [(ActionID.default, "opened (default)"), (ActionID.dismiss, "dismissed")] where count(action.rawValue) > 0 {
                bars.append((label: label, count: count(action.rawValue)))
            }
            guard bars.contains(where: { $0.count > 0 }) else { return nil }
            return (id, bars.enumerated().sorted { ($1.element.count, $0.offset) < ($0.element.count, $1.offset) }.map(\.element))
        }
    }
}

extension AdminPageController {
    /// Flushes this instance's counts, then reads what the page draws.
    func readActivity(from store: any ActionStore, now: Date) async throws -> AdminActivity {
        try? await activity?.flush(into: store, forgetBefore: nil)
        let current = ActivityMinute(now)
        let start = current.advanced(by: -(AdminActivity.timelineMinutes - 1))
        let perMinute = try await store.activity([.accepted, .delivered, .retried, .dead], from: start, to: current, byMinute: true)
        func values(_ series: ActivitySeries) -> [Int64] {
            var values = [Int64](repeating: 0, count: Int(AdminActivity.timelineMinutes))
            for count in perMinute where count.series == series && (series == .accepted || AdminActivity.tapTransports.contains(count.subject)) {
                let index = Int(count.minute.value - start.value)
                if values.indices.contains(index) { values[index] += count.count }
            }
            return values
        }
        let timeline = AdminCharts.lines(
            [
                .init(name: "accepted", color: "#3b6fd6", values: values(.accepted)),
                .init(name: "delivered", color: "#34a853", values: values(.delivered)),
                .init(name: "retried", color: "#f9ab00", values: values(.retried)),
                .init(name: "dead", color: "#ea4335", values: values(.dead)),
            ], start: start, id: "timeline")
        let endpoints = try await store.activity(
            [.endpointDelivered, .endpointFailed, .endpointLatency], from: current.advanced(by: -(AdminActivity.endpointMinutes - 1)),
            to: current, byMinute: false)
        var delivered: [String: Int64] = [:]
        var failed: [String: Int64] = [:]
        var buckets: [String: [Int: Int64]] = [:]
        for count in endpoints {
            switch count.series {
            case .endpointDelivered: delivered[count.subject, default: 0] += count.count
            case .endpointFailed: failed[count.subject, default: 0] += count.count
            case .endpointLatency:
                // `ID|BUCKET`: the id may hold `|`; the bucket is after the last one.
                guard let bar = count.subject.lastIndex(of: "|"), let bucket = Int(count.subject[count.subject.index(after: bar)...]) else {
                    continue
                }
                buckets[String(count.subject[..<bar]), default: [:]][bucket, default: 0] += count.count
            default: break
            }
        }
        let taps = try await store.activity([.tap], from: current.advanced(by: -(AdminActivity.tapDays * 1440 - 1)), to: current, byMinute: false)
        let oldestDue = try await store.oldestDue(now: now).map { max(0, now.timeIntervalSince($0)) }
        return AdminActivity(
            depth: try await store.pendingCount(), oldestDue: oldestDue, timeline: timeline, endpointDelivered: delivered,
            endpointFailed: failed, endpointBuckets: buckets, taps: Dictionary(taps.map { ($0.subject, $0.count) }, uniquingKeysWith: +))
    }
}
