import ActionableCore
import Foundation
import Testing

/// One way to write and read the API's times.
struct TimestampTests {
    @Test(arguments: [
        ("1763884800", 1_763_884_800.0), ("1763884800.5", 1_763_884_800.5), ("2025-11-23T08:00:00Z", 1_763_884_800),
        ("2025-11-23T08:00:00.250Z", 1_763_884_800.25), ("2025-11-23T09:00:00+01:00", 1_763_884_800),
    ])
    func unixSecondsAndISO8601AreRead(text: String, seconds: Double) throws {
        let date = try #require(Timestamp.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.001)
    }

    @Test(arguments: ["", "yesterday", "2025-13-01T00:00:00Z", "nan", "inf", "2025-11-23"])
    func anythingElseIsNotATime(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func timesAreWrittenInUTCWholeSeconds() {
        #expect(Timestamp.iso8601(Date(timeIntervalSince1970: 1_763_884_800.7)) == "2025-11-23T08:00:00Z")
        #expect(Timestamp.parse(Timestamp.iso8601(Date(timeIntervalSince1970: 1_763_884_800))) == Date(timeIntervalSince1970: 1_763_884_800))
    }
}
