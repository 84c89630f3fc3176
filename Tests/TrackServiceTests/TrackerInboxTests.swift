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
            inbox.taken(item)
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
        let first = await iterator.next()
        if let first { inbox.taken(first) }
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
}
