import Testing
import TrackCore
import TrackInput
@testable import TrackService

struct TrackerInboxTests {
    /// What the tracker would read, in order, once the inbox has ended.
    private func drain(_ inbox: TrackerInbox) async -> [String] {
        inbox.finish()
        var seen: [String] = []
        for await item in inbox.items {
            switch item {
            case .source(.state(.connected(let detail))): seen.append("source \(detail)")
            case .source: seen.append("source")
            case .command(.stopTrip(let purpose)): seen.append("stop \(purpose ?? "-")")
            case .command: seen.append("command")
            case .tick: seen.append("tick")
            }
        }
        return seen
    }

    @Test func handsEventsCommandsAndTicksOverInTheOrderTheyArrived() async {
        let inbox = TrackerInbox()
        inbox.deliver(.state(.connected("a")))
        #expect(inbox.send(.stopTrip(purpose: "first")) == .enqueued)
        #expect(inbox.tick())
        inbox.deliver(.state(.connected("b")))
        #expect(inbox.send(.stopTrip(purpose: "second")) == .enqueued)
        #expect(await drain(inbox) == ["source a", "stop first", "tick", "source b", "stop second"])
    }

    @Test func refusesCommandsAsBusyOnceTheLimitIsWaitingAndTakesThemAgainWhenOneIsTaken() async {
        let inbox = TrackerInbox()
        for number in 0..<TrackerInbox.commandLimit {
            #expect(inbox.send(.stopTrip(purpose: "\(number)")) == .enqueued)
        }
        #expect(inbox.send(.stopTrip(purpose: "one too many")) == .busy)
        // The source is never refused, however many commands wait.
        inbox.deliver(.state(.connected("still heard")))

        var iterator = inbox.items.makeAsyncIterator()
        _ = await iterator.next()
        #expect(inbox.send(.stopTrip(purpose: "after one was taken")) == .enqueued)
        #expect(inbox.send(.stopTrip(purpose: "over again")) == .busy)

        inbox.finish()
        var rest: [String] = []
        while let item = await iterator.next() {
            switch item {
            case .command(.stopTrip(let purpose)): rest.append(purpose ?? "-")
            case .source(.state(.connected(let detail))): rest.append(detail)
            default: rest.append("other")
            }
        }
        #expect(rest.count == TrackerInbox.commandLimit + 1)
        #expect(rest.last == "after one was taken")
        #expect(rest.contains("still heard"))
    }

    @Test func queuesOneTickAtATimeSoASlowTrackerDoesNotPileThemUp() async {
        let inbox = TrackerInbox()
        #expect(inbox.tick())
        #expect(inbox.tick())
        #expect(inbox.tick())
        inbox.deliver(.state(.connected("fix")))
        #expect(await drain(inbox) == ["tick", "source fix"])
    }

    @Test func tellsCommandsAndTheTickerThatTheTrackerHasStoppedOnceTheInboxEnded() async {
        let inbox = TrackerInbox()
        #expect(inbox.send(.stopTrip(purpose: "queued before the end")) == .enqueued)
        inbox.finish()
        #expect(inbox.send(.stopTrip(purpose: "too late")) == .closed)
        #expect(!inbox.tick())
        // What was queued before the end is still handed over.
        #expect(await drain(inbox) == ["stop queued before the end"])
    }

    @Test func wakesTheWaitingTrackerAndEndsItsWaitAtTheEndOrWhenCancelled() async throws {
        let inbox = TrackerInbox()
        try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask { await self.read(inbox) }
            try await eventually("the reader waits") { inbox.readerIsWaiting }
            inbox.deliver(.state(.connected("while waiting")))
            try await eventually("the reader waits again") { inbox.readerIsWaiting }
            inbox.finish()
            #expect(try await group.next() == ["while waiting"])
        }

        let cancelled = TrackerInbox()
        try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask { await self.read(cancelled) }
            try await eventually("the reader waits") { cancelled.readerIsWaiting }
            group.cancelAll()
            #expect(try await group.next() == [], "a cancelled reader stops waiting")
        }
    }

    /// The connected details the reader took until the items ended.
    private func read(_ inbox: TrackerInbox) async -> [String] {
        var seen: [String] = []
        for await item in inbox.items {
            if case .source(.state(.connected(let detail))) = item { seen.append(detail) }
        }
        return seen
    }
}
