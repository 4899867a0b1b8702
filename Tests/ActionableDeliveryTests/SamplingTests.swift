import Testing

@testable import ActionableDelivery

/// The queue-depth gauge is read from storage at most every few seconds, not every round.
struct SamplingTests {
    @Test func aSampleIsDueFirstThenOncePerInterval() {
        let sampling = Sampling(every: .seconds(5))
        let start = ContinuousClock.now
        #expect(sampling.isDue(now: start))
        #expect(!sampling.isDue(now: start + .seconds(1)))
        #expect(!sampling.isDue(now: start + .milliseconds(4999)))
        #expect(sampling.isDue(now: start + .seconds(5)))
        #expect(!sampling.isDue(now: start + .seconds(9)))
        #expect(sampling.isDue(now: start + .seconds(10)))
    }
}
