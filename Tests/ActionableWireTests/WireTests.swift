import ActionableWire
import Foundation
import Testing

/// `Retry-After` is read in one place for the app's client and the server's forwarder.
struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func secondsAreADelay() {
        #expect(RetryAfter.delay("120", now: now) == 120)
        #expect(RetryAfter.delay(" 0 ", now: now) == 0)
    }

    @Test func anHTTPDateIsTheTimeUntilIt() {
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:51:37 GMT", now: now) == 120)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0)
    }

    @Test func aDatePastIsNoDelay() {
        #expect(RetryAfter.delay("Sat, 05 Nov 1994 08:49:37 GMT", now: now) == 0)
    }

    /// A peer's number is never trusted: too large is the longest delay, whatever its form.
    @Test(arguments: [
        "9223372036854775807", "9223372036854775808", "99999999999999999999999999999999", "3601",
        "Fri, 31 Dec 9999 23:59:59 GMT", String(repeating: "9", count: 100_000),
    ])
    func tooLongIsTheLongestDelay(value: String) {
        #expect(RetryAfter.delay(value, now: now) == RetryAfter.longest)
        #expect(RetryAfter.delay(value, now: now, longest: 60) == 60)
    }

    /// Every IMF-fixdate of a leap year's last day, and the days around the epoch and 2000, read
    /// as the calendar says.
    @Test func httpDatesAreReadAsTheCalendarSays() {
        let epoch = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.delay("Thu, 01 Jan 1970 00:00:10 GMT", now: epoch) == 10)
        #expect(RetryAfter.delay("Tue, 29 Feb 2000 00:00:00 GMT", now: epoch, longest: 1e12) == 951_782_400)
        #expect(RetryAfter.delay("Fri, 31 Dec 2027 23:59:60 GMT", now: epoch, longest: .infinity) == RetryAfter.longest)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: epoch, longest: 1e12) == 784_111_777)
        #expect(RetryAfter.delay("Sat, 01 Jan 2000 00:00:00 GMT", now: epoch, longest: 1e12) == 946_684_800)
        #expect(RetryAfter.delay("Fri, 31 Dec 9999 23:59:59 GMT", now: epoch, longest: 1e12) == 253_402_300_799)
    }

    @Test func aDateIn1970IsNoDelay() {
        #expect(RetryAfter.delay("Thu, 01 Jan 1970 00:00:00 GMT", now: now) == 0)
    }

    @Test(arguments: [
        "", "-5", "-1", "soon", "1.5", "1e308", "NaN", "inf", "+5", "0x10", "06 Nov 1994", "Sun, 06 Nov 1994 25:00:00 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT" + String(repeating: " x", count: 50_000),
        // Found by fuzz-upstream-answers: Foundation's DateFormatter stopped the process on it.
        String(decoding: [0x53, 0x3A, 0x53, 0xDF, 0xAC, 0xD0, 0xF5, 0xCE, 0xD0, 0xC5, 0xCB], as: UTF8.self),
        "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:60:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994  8:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
    func anythingElseIsNotADelay(value: String) {
        #expect(RetryAfter.delay(value, now: now) == nil)
    }

    /// The one formatter is shared: callers at once each get their own date.
    @Test func concurrentReadersAgree() async {
        let delays = await withTaskGroup(of: TimeInterval?.self) { group in
            for minute in 0..<64 {
                group.addTask {
                    RetryAfter.delay(
                        "Sun, 06 Nov 1994 \(String(format: "%02d", 9 + minute / 60)):\(String(format: "%02d", minute % 60)):37 GMT", now: now,
                        longest: 86_400)
                }
            }
            var all: [TimeInterval?] = []
            for await delay in group { all.append(delay) }
            return all
        }
        // 09:MM:37 is 11 + MM minutes after 08:49:37 (10:0M:37 is 71 + M).
        let expected = Set((0..<64).map { TimeInterval(($0 + 11) * 60) })
        #expect(Set(delays.compactMap { $0 }) == expected)
    }
}

/// A problem document reads back what the server writes, and what a proxy's partial one has.
struct ProblemDocumentTests {
    @Test func errorsAreLeftOutWhenThereAreNone() throws {
        let document = ProblemDocument(type: ProblemDocument.typeBase + "not-found", title: "Not found", status: 404, detail: "x")
        let text = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
        #expect(!text.contains("errors"))
        #expect(try JSONDecoder().decode(ProblemDocument.self, from: Data(text.utf8)) == document)
        #expect(document.name == "not-found")
    }

    @Test func aPartialDocumentReadsWithDefaults() throws {
        let document = try JSONDecoder().decode(ProblemDocument.self, from: Data(#"{"detail":"upstream down"}"#.utf8))
        #expect(document.type == "about:blank")
        #expect(document.detail == "upstream down")
        #expect(document.errors.isEmpty)
    }
}

/// Optional members the contract requires are written as `null` and read from `null` or absence.
struct NullableTests {
    @Test func nilIsWrittenAsNullAndReadBackFromNullOrAbsence() throws {
        let page = ResponsePage(
            items: [
                ListedResponse(
                    id: "1", category: "c", action: "a", notificationId: "n", user: "u", state: "dead", attempts: 3, lastError: nil,
                    receivedAt: 1, nextAttemptAt: nil)
            ], nextCursor: nil)
        let text = String(decoding: try JSONEncoder().encode(page), as: UTF8.self)
        #expect(text.contains(#""lastError":null"#) && text.contains(#""nextAttemptAt":null"#))
        #expect(!text.contains("nextCursor"))  // not required: left out
        #expect(try JSONDecoder().decode(ResponsePage.self, from: Data(text.utf8)) == page)
        let absent = #"{"id":"1","category":"c","action":"a","notificationId":"n","user":"u","state":"dead","attempts":3,"receivedAt":1}"#
        #expect(try JSONDecoder().decode(ListedResponse.self, from: Data(absent.utf8)) == page.items[0])
        let present = absent.replacingOccurrences(of: #""attempts":3"#, with: #""attempts":3,"lastError":"HTTP 500""#)
        #expect(try JSONDecoder().decode(ListedResponse.self, from: Data(present.utf8)).lastError == "HTTP 500")
    }
}

/// Durations handed to a clock that counts in nanoseconds hold within an `Int64`, never trap.
struct SaturatingNanosecondsTests {
    @Test(arguments: [
        (Duration.seconds(10), Int64(10_000_000_000)),
        (.milliseconds(1_500), 1_500_000_000),
        (.nanoseconds(-7), -7),
        (.seconds(Int64.max), .max),
        (.seconds(Int64.min), .min),
        (.seconds(9_223_372_036), 9_223_372_036_000_000_000),
        (.seconds(9_223_372_036) + .nanoseconds(854_775_807), .max),
        (.seconds(9_223_372_036) + .milliseconds(900), .max),
        (.seconds(-9_223_372_036) - .milliseconds(900), .min),
    ])
    func holdsWithinAnInt64(duration: Duration, nanoseconds: Int64) {
        #expect(duration.saturatingNanoseconds == nanoseconds)
    }
}
