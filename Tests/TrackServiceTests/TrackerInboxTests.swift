import Synchronization
import Testing
import TrackCore
import TrackInput
@testable import TrackService

struct TrackerInboxTests {
    /// A command told apart by `label`: a reconfiguration whose idle threshold is the label.
    private func command(_ label: Int) -> EngineCommand {
        var configuration = EngineConfiguration()
        configuration.idleAlertAfter = Double(label)
        return .reconfigure(configuration)
    }

    /// What the tracker would read, in order, once the inbox has ended.
    private func drain(_ inbox: TrackerInbox) async -> [String] {
        inbox.finish()
        return await readAll(inbox)
    }

    @Test func handsEventsCommandsAndTicksOverInTheOrderTheyArrived() async {
        let inbox = TrackerInbox()
        inbox.deliver(.state(.connected("a")))
        #expect(inbox.send(command(1)) == .enqueued)
        #expect(inbox.tick(at: MonotonicInstant(nanoseconds: 0)))
        inbox.deliver(.state(.connected("b")))
        #expect(inbox.send(command(2)) == .enqueued)
        #expect(await drain(inbox) == ["source a", "command 1", "tick", "source b", "command 2"])
    }

    @Test func refusesCommandsAsBusyOnceTheLimitIsWaitingAndTakesThemAgainWhenOneIsTaken() async {
        let inbox = TrackerInbox()
        for number in 0..<TrackerInbox.commandLimit {
            #expect(inbox.send(command(number)) == .enqueued)
        }
        #expect(inbox.send(command(100)) == .busy)
        // The source is never refused, however many commands wait.
        inbox.deliver(.state(.connected("still heard")))

        var iterator = inbox.items.makeAsyncIterator()
        _ = await iterator.next()
        #expect(inbox.send(command(101)) == .enqueued)
        #expect(inbox.send(command(102)) == .busy)

        inbox.finish()
        var rest: [String] = []
        while let item = await iterator.next() {
            switch item {
            case .command(.reconfigure(let configuration)): rest.append("command \(Int(configuration.idleAlertAfter))")
            case .source(.state(.connected(let detail))): rest.append(detail)
            default: rest.append("other")
            }
        }
        #expect(rest.count == TrackerInbox.commandLimit + 1)
        #expect(rest.last == "command 101", "the command taken once there was room")
        #expect(rest.contains("still heard"))
        #expect(!rest.contains("command 100") && !rest.contains("command 102"), "the refused commands never arrive")
    }

    @Test func queuesOneTickAtATimeSoASlowTrackerDoesNotPileThemUp() async {
        let inbox = TrackerInbox()
        #expect(inbox.tick(at: MonotonicInstant(nanoseconds: 0)))
        #expect(inbox.tick(at: MonotonicInstant(nanoseconds: 0)))
        #expect(inbox.tick(at: MonotonicInstant(nanoseconds: 0)))
        inbox.deliver(.state(.connected("fix")))
        #expect(await drain(inbox) == ["tick", "source fix"])
    }

    @Test func tellsCommandsAndTheTickerThatTheTrackerHasStoppedOnceTheInboxEnded() async {
        let inbox = TrackerInbox()
        #expect(inbox.send(command(1)) == .enqueued)
        inbox.finish()
        #expect(inbox.send(command(2)) == .closed)
        #expect(!inbox.tick(at: MonotonicInstant(nanoseconds: 0)))
        // What was queued before the end is still handed over.
        #expect(await drain(inbox) == ["command 1"])
    }

    @Test func wakesTheWaitingTrackerAndEndsItsWaitAtTheEndOrWhenCancelled() async throws {
        let inbox = TrackerInbox()
        try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask { await self.readAll(inbox) }
            try await eventually("the reader waits") { inbox.readerIsWaiting }
            inbox.deliver(.state(.connected("while waiting")))
            try await eventually("the reader waits again") { inbox.readerIsWaiting }
            inbox.finish()
            #expect(try await group.next() == ["source while waiting"])
        }

        let cancelled = TrackerInbox()
        try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask { await self.readAll(cancelled) }
            try await eventually("the reader waits") { cancelled.readerIsWaiting }
            group.cancelAll()
            #expect(try await group.next() == [], "a cancelled reader stops waiting")
        }
    }

    @Test func aFixNobodyWatchesWaitsForTheTickAndComesBeforeIt() async throws {
        let inbox = TrackerInbox(wakeForFixes: { false })
        try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask { await self.readAll(inbox) }
            try await eventually("the reader waits") { inbox.readerIsWaiting }
            inbox.deliver(.fix(fix(1), receivedAt: MonotonicInstant(nanoseconds: 1)))
            inbox.deliver(.fix(fix(2), receivedAt: MonotonicInstant(nanoseconds: 2)))
            #expect(inbox.readerIsWaiting, "the fixes did not wake the tracker")
            #expect(inbox.tick(at: MonotonicInstant(nanoseconds: 0)))
            try await eventually("the reader took the fixes and the tick and waits again") { inbox.readerIsWaiting }
            inbox.deliver(.fix(fix(3), receivedAt: MonotonicInstant(nanoseconds: 3)))
            #expect(inbox.send(command(3)) == .enqueued)
            try await eventually("the reader waits again") { inbox.readerIsWaiting }
            inbox.deliver(.fix(fix(4), receivedAt: MonotonicInstant(nanoseconds: 4)))
            inbox.deliver(.state(.connected("a state change wakes it")))
            try await eventually("the reader waits again") { inbox.readerIsWaiting }
            inbox.deliver(.fix(fix(5), receivedAt: MonotonicInstant(nanoseconds: 5)))
            inbox.finish()
            #expect(try await group.next() == ["fix 1", "fix 2", "tick", "fix 3", "command 3", "fix 4",
                                               "source a state change wakes it", "fix 5"],
                    "in order, and the last fix is handed over at the end while the tracker waits")
        }
    }

    @Test func aCarReadingNobodyWatchesWaitsLikeAFixButTheAdaptersNewsWakesTheTracker() async throws {
        let inbox = TrackerInbox(wakeForFixes: { false })
        try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask { await self.readAll(inbox) }
            try await eventually("the reader waits") { inbox.readerIsWaiting }
            inbox.deliver(.event(.dialogue(.reading(.speed(kilometresPerHour: 50), at: MonotonicInstant(nanoseconds: 1)))))
            #expect(inbox.readerIsWaiting, "the reading did not wake the tracker")
            inbox.deliver(.event(.dialogue(.carSilent("0100: NO DATA"))))
            try await eventually("the silence woke it, and it took the reading first") { inbox.readerIsWaiting }
            inbox.deliver(.adapter(nil))
            try await eventually("the reader waits again") { inbox.readerIsWaiting }
            inbox.finish()
            #expect(try await group.next() == ["obd reading", "obd", "obd"])
        }
    }

    @Test func aFixWakesTheTrackerAtOnceWhileSomeoneWatchesFixes() async throws {
        let watched = Flag()
        let taken = Count()
        let inbox = TrackerInbox(wakeForFixes: { watched.value.load(ordering: .relaxed) })
        try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask { await self.readAll(inbox, counting: taken) }
            try await eventually("the reader waits") { inbox.readerIsWaiting }
            inbox.deliver(.fix(fix(1), receivedAt: MonotonicInstant(nanoseconds: 1)))
            #expect(inbox.readerIsWaiting && taken.value.load(ordering: .relaxed) == 0, "nobody watches: the fix waits")
            watched.value.store(true, ordering: .relaxed)
            inbox.deliver(.fix(fix(2), receivedAt: MonotonicInstant(nanoseconds: 2)))
            try await eventually("the watched fix woke the tracker, which took it and the one before it") {
                taken.value.load(ordering: .relaxed) == 2
            }
            inbox.finish()
            #expect(try await group.next() == ["fix 1", "fix 2"])
        }
    }

    /// A fix at `second` seconds of GPS time.
    private func fix(_ second: Int64) -> Fix {
        Fix(time: UTCTime(nanosecondsSinceEpoch: second * 1_000_000_000), mode: .noFix)
    }

    /// Everything the reader took until the items ended, each named for the test's expectations.
    private func readAll(_ inbox: TrackerInbox, counting taken: Count? = nil) async -> [String] {
        var seen: [String] = []
        for await item in inbox.items {
            taken?.value.add(1, ordering: .relaxed)
            switch item {
            case .source(.state(.connected(let detail))): seen.append("source \(detail)")
            case .source(.fix(let fix, _)): seen.append("fix \(fix.time!.nanosecondsSinceEpoch / 1_000_000_000)")
            case .source: seen.append("source")
            case .obd(.event(.dialogue(.reading))): seen.append("obd reading")
            case .obd: seen.append("obd")
            case .command(.reconfigure(let configuration)): seen.append("command \(Int(configuration.idleAlertAfter))")
            case .command: seen.append("command")
            case .tick: seen.append("tick")
            }
        }
        return seen
    }

    /// A switch the test and the inbox share.
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// A count the reader keeps and the test reads.
    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }
}
