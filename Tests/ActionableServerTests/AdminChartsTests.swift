import ActionableCore
import ActionableStore
import Foundation
import Testing

@testable import ActionableHTTP

/// The admin page's pictures as markup: every figure readable from its attributes, text from
/// storage escaped, and the buttons of a category in the order people press them.
struct AdminChartsTests {
    @Test func aTimelineHasAPointPerMinuteAndItsTotals() {
        let start = ActivityMinute(Date(timeIntervalSince1970: 3_600 * 25 + 60 * 7))
        let svg = AdminCharts.lines(
            [.init(name: "accepted", color: "#00f", values: [0, 3, 1]), .init(name: "dead", color: "#f00", values: [0, 0, 2])],
            start: start, id: "timeline")
        #expect(svg.contains(#"data-series="accepted" data-total="4""#))
        #expect(svg.contains(#"data-series="dead" data-total="2""#))
        #expect(svg.contains(">01:07<") && svg.contains(">01:09 UTC<"), "the first and last minutes, in UTC")
        let points = svg.components(separatedBy: #"points=""#)[1].components(separatedBy: "\"")[0].split(separator: " ")
        #expect(points.count == 3)
        #expect(points[1].hasSuffix(",10.0"), "the highest value reaches the top: \(points)")
    }

    @Test func barsEscapeWhatTheyShow() {
        let svg = AdminCharts.bars([(label: #"<script>alert("x")</script>"#, count: 2)], id: "taps-x\"y")
        #expect(!svg.contains("<script>"))
        #expect(svg.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
        #expect(svg.contains(#"id="taps-x&quot;y""#))
    }

    @Test func aCategorysButtonsAreInTheOrderPeoplePressThem() throws {
        let catalog = ActionsEndpointTests.catalog
        let category = try #require(catalog.categories.first)
        let actions = category.actions.map(\.id.rawValue)
        let id = category.id.rawValue
        let last = try #require(actions.last)
        let activity = AdminActivity(
            depth: 0, oldestDue: nil, timeline: "", endpointDelivered: ["e": 3], endpointFailed: ["e": 1], endpointBuckets: ["e": [2: 3, 11: 1]],
            taps: ["\(id).\(last)": 5, "\(id).\(ActionID.dismiss.rawValue)": 2, "other.x": 9])
        let charts = activity.tapCharts(catalog: catalog)
        #expect(charts.map(\.category) == [id], "only categories with a tap")
        let bars = try #require(charts.first?.bars)
        #expect(bars.first?.label == last && bars.first?.count == 5)
        #expect(bars[1].label == "dismissed" && bars[1].count == 2)
        #expect(bars.count == actions.count + 1, "every button, pressed or not, and the dismissals")
        #expect(activity.successRate(of: "e") == "75 % of 4")
        #expect(activity.latency(of: "e") == "≤ 25 ms / > 10 s")
        #expect(activity.successRate(of: "none") == "—" && activity.latency(of: "none") == "—")
    }
}
