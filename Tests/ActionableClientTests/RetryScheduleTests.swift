import ActionableClient
import Foundation
import Testing

struct RetryScheduleTests {
    @Test func delaysDoubleUnderTheCapWithFullJitter() {
        let schedule = RetrySchedule(initial: 2, maximum: 60)
        #expect(schedule.delay(afterAttempt: 1, random: 0.999_999) < 2)
        #expect(schedule.delay(afterAttempt: 1, random: 0.5) == 1)
        #expect(schedule.delay(afterAttempt: 3, random: 0.5) == 4)
        #expect(schedule.delay(afterAttempt: 10, random: 0.5) == 30)  // capped at 60, halved
        #expect(schedule.delay(afterAttempt: 10_000, random: 1) == 60)
        #expect(schedule.delay(afterAttempt: 2, random: 0) == 0)
        // Out-of-range input is clamped, never a negative or infinite delay.
        #expect(schedule.delay(afterAttempt: -3, random: 7) == 2)
        #expect(RetrySchedule(initial: -1, maximum: -5).delay(afterAttempt: 4, random: 0.5) == 0)
    }
}
