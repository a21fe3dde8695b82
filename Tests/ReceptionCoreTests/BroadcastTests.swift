@testable import ReceptionCore
import Testing

/// `Broadcast`, the core of the platform lifecycle and network monitors and of their manual fakes.
@Suite struct BroadcastTests {
    @Test func eachSubscriberGetsTheCurrentValueFirstThenEveryChangeInOrder() async {
        let broadcast = Broadcast(1)
        var early = broadcast.updates().makeAsyncIterator()
        broadcast.set(2)
        var late = broadcast.updates().makeAsyncIterator()
        broadcast.set(3)
        #expect(await early.next() == 1)
        #expect(await early.next() == 2)
        #expect(await early.next() == 3)
        #expect(await late.next() == 2, "a later subscriber starts from the value at subscription")
        #expect(await late.next() == 3)
    }

    @Test func aRepeatedValueWakesNobody() async {
        let broadcast = Broadcast("active")
        var updates = broadcast.updates().makeAsyncIterator()
        broadcast.set("active")
        broadcast.set("background")
        broadcast.set("background")
        broadcast.set("active")
        // Had a repeat been yielded, it would come before the next distinct value.
        #expect(await updates.next() == "active")
        #expect(await updates.next() == "background")
        #expect(await updates.next() == "active")
        #expect(broadcast.current == "active")
    }

    @Test func aSubscriberThatStopsIsForgottenAndFinishEndsTheRest() async {
        let broadcast = Broadcast(false)
        do {
            let stopped = Task { for await _ in broadcast.updates() {} }
            #expect(await until { broadcast.subscriberCount == 1 })
            stopped.cancel()
            #expect(await until { broadcast.subscriberCount == 0 }, "a cancelled iteration removes its subscriber")
        }
        var kept = broadcast.updates().makeAsyncIterator()
        #expect(await kept.next() == false)
        broadcast.finish()
        #expect(await kept.next() == nil, "finish ends the stream")
        #expect(broadcast.subscriberCount == 0)
    }

    @Test func concurrentChangesReachEverySubscriberInOneOrder() async {
        let broadcast = Broadcast(0)
        let streams = (0..<4).map { _ in broadcast.updates() }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask { for step in 1...50 { broadcast.set(worker * 1000 + step) } }
            }
        }
        broadcast.finish()
        var seen: [[Int]] = []
        for stream in streams {
            var values: [Int] = []
            for await value in stream { values.append(value) }
            seen.append(values)
        }
        #expect(seen.allSatisfy { $0 == seen[0] }, "every subscriber saw the same sequence")
        #expect(seen[0].count == 1 + 8 * 50 && seen[0].last == broadcast.current)
    }

    /// Polls a condition that another task makes true (a cancelled iteration's cleanup), up to ~5 s.
    private func until(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
