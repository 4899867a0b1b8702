import ActionableCore
import Testing

/// Durations are written in the largest whole unit (days from two, minutes from two) and read back as the same number of seconds.
struct DurationTextTests {
    static let cases: [(seconds: Double, text: String)] = [
        (2_592_000, "30d"), (172_800, "2d"), (86_400, "24h"), (3_600, "1h"), (5_400, "90m"), (120, "2m"), (60, "60s"),
        (90, "90s"), (1, "1s"), (1.5, "1.5s"),
    ]

    @Test(arguments: cases)
    func theLargestWholeUnitIsWritten(seconds: Double, text: String) {
        #expect(DurationText.text(seconds) == text)
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test func zeroIsWrittenAsZero() {
        #expect(DurationText.text(0) == "0")
        #expect(DurationText.text(.zero) == "0")
    }
}
