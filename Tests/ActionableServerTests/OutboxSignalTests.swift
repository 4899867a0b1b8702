import ActionableStore
import Testing

/// The signal that wakes the send worker.
struct OutboxSignalTests {
    @Test func aSignalGivenBeforeTheWaitIsKeptForIt() async {
        let signal = OutboxSignal()
        signal.signal()
        signal.signal()
        await signal.wait(upTo: .seconds(3600))  // returns at once: one signal was pending
    }

    @Test func aSignalWakesTheWaiter() async {
        let signal = OutboxSignal()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await signal.wait(upTo: .seconds(3600)) }
            // Whether the waiter registered before or after it, the one signal wakes it.
            group.addTask { signal.signal() }
            await group.waitForAll()
        }
    }

    @Test func cancellingTheWaiterEndsTheWait() async {
        let signal = OutboxSignal()
        let waiter = Task { await signal.wait(upTo: .seconds(3600)) }
        waiter.cancel()
        await waiter.value  // a shutdown does not hang on a worker that waits for work
    }

    @Test func aWakeSaysWhatWasSignalledAndAPlainSignalMeansEverything() async {
        let signal = OutboxSignal()
        signal.signal(.init(category: "invite", action: "accept"))
        signal.signal(.init(category: "message", action: "reply"))
        await signal.wait(upTo: .seconds(3600))
        #expect(signal.takeKeys() == [.init(category: "invite", action: "accept"), .init(category: "message", action: "reply")])
        #expect(signal.takeKeys() == [])  // taken: nothing new
        signal.signal(.init(category: "invite", action: "accept"))
        signal.signal()
        await signal.wait(upTo: .seconds(3600))
        #expect(signal.takeKeys() == nil)
    }

    /// A signal whose key the wake before took (given between that wake and its take) wakes for
    /// nothing new, not for everything; a timeout wakes for everything (the poll).
    @Test func aWakeForKeysAlreadyTakenIsForNothingAndATimeoutForEverything() async {
        let signal = OutboxSignal()
        let invite = OutboxSignal.Key(category: "invite", action: "accept")
        signal.signal(invite)
        #expect(await signal.wait(upTo: .seconds(3600)))
        signal.signal(invite)  // after the wake, before its take
        #expect(signal.takeKeys() == [invite])
        #expect(await signal.wake(upTo: .seconds(3600)) == [])  // the pending signal: nothing new
        #expect(await signal.wake(upTo: .milliseconds(1)) == nil)  // a timeout: everything
        signal.signal(invite)
        #expect(await signal.wake(upTo: .seconds(3600)) == [invite])
    }

    @Test func theWaitEndsAfterItsTimeout() async {
        await OutboxSignal().wait(upTo: .milliseconds(1))
    }
}
