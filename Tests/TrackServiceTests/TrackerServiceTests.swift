import Logging
import Testing
import TrackCore
import TrackInput
@testable import TrackService
import TestSupport

struct TrackerServiceTests {
    private func fix(_ second: Int, position: Bool) -> Fix {
        Fix(time: UTCTime(nanosecondsSinceEpoch: Int64(second) * 1_000_000_000), mode: position ? .threeD : .noFix,
            latitude: position ? 59.4 : nil, longitude: position ? 24.7 : nil)
    }

    @Test func keepsTheLiveStatusAndTellsWatchersInOrder() async {
        let status = LiveStatus(address: "serial:///dev/gps0?baud=9600", now: MonotonicInstant(nanoseconds: 0))
        let hub = WatchHub()
        let watcher = hub.subscribe()
        let inbox = TrackerInbox()
        let tracker = TrackerService(inbox: inbox, status: status, hub: hub, address: "serial:///dev/gps0?baud=9600",
                                     logger: Logger(label: "test"), clock: { MonotonicInstant(nanoseconds: 10_000_000_000) })
        inbox.deliver(.state(.connected("/dev/gps0 at 9600 baud")))
        inbox.deliver(.fix(fix(1, position: true), receivedAt: MonotonicInstant(nanoseconds: 1_000_000_000)))
        inbox.deliver(.fix(fix(2, position: false), receivedAt: MonotonicInstant(nanoseconds: 2_000_000_000)))
        inbox.deliver(.problem(NMEADiagnostic(problem: .framing(.overlong), position: .init(line: 3, byteOffset: 90), excerpt: "$GP")))
        inbox.deliver(.state(.lost("device /dev/gps0 unplugged")))
        inbox.finish()
        await tracker.run()

        let snapshot = status.snapshot(now: MonotonicInstant(nanoseconds: 12_000_000_000))
        #expect(snapshot.source.state == .lost)
        #expect(snapshot.source.detail == "device /dev/gps0 unplugged")
        #expect(snapshot.source.stateAge == 2)
        #expect(snapshot.epochs == 2)
        #expect(snapshot.positionFixes == 1)
        #expect(snapshot.inputProblems == 1)
        #expect(snapshot.lastFix?.mode == .noFix)
        #expect(snapshot.lastFixAge == 10)
        #expect(snapshot.lastPosition?.time == UTCTime(nanosecondsSinceEpoch: 1_000_000_000))
        #expect(snapshot.lastPositionAge == 11)

        // The tracker ends every watch when its input ends.
        var seen: [String] = []
        for await event in watcher.events {
            switch event {
            case .fix(let fix): seen.append("fix \(fix.mode.rawValue)")
            case .source(let source): seen.append(source.state.rawValue)
            case .trip(let notice): seen.append("trip \(notice.trip.number) \(notice.change.rawValue)")
            case .alert(let alert): seen.append("alert \(alert.tripNumber)")
            case .obd(let obd): seen.append("obd \(obd.state.rawValue)")
            }
        }
        #expect(seen == ["connected", "fix 3", "fix 1", "lost"])
    }

    @Test func keepsWhatAutoChoseAndWhyThroughTheSourcesLaterStates() async {
        let status = LiveStatus(address: "auto", now: MonotonicInstant(nanoseconds: 0))
        let hub = WatchHub()
        let watcher = hub.subscribe()
        let inbox = TrackerInbox()
        let tracker = TrackerService(inbox: inbox, status: status, hub: hub, address: "auto",
                                     logger: Logger(label: "test"), clock: { MonotonicInstant(nanoseconds: 10_000_000_000) })
        let reason = "NMEA (2 sentences) at 9600 baud on /dev/serial0 (the header's UART); /dev/gps0: not present"
        inbox.deliver(.state(.connecting))
        inbox.deliver(.chosen(.serial(path: "/dev/serial0", baud: 9600), reason: reason))
        inbox.deliver(.state(.connected("/dev/serial0 (/dev/ttyAMA0) at 9600 baud")))
        inbox.deliver(.state(.lost("device /dev/serial0 unplugged")))
        inbox.finish()
        await tracker.run()

        let source = status.snapshot(now: MonotonicInstant(nanoseconds: 12_000_000_000)).source
        #expect(source.address == "auto")
        #expect(source.state == .lost)
        #expect(source.chosen == "serial:///dev/serial0?baud=9600")
        #expect(source.reason == reason)

        var seen: [String] = []
        for await event in watcher.events {
            if case .source(let report) = event { seen.append("\(report.state.rawValue) \(report.chosen ?? "-")") }
        }
        #expect(seen == ["connecting -", "connecting serial:///dev/serial0?baud=9600",
                         "connected serial:///dev/serial0?baud=9600", "lost serial:///dev/serial0?baud=9600"])
    }

    @Test func takesTheFixesThatWaitedInTheInboxAtTheNextTick() async throws {
        let status = LiveStatus(address: "serial:///dev/gps0", now: MonotonicInstant(nanoseconds: 0))
        let inbox = TrackerInbox(wakeForFixes: { false })
        let tracker = TrackerService(inbox: inbox, status: status, hub: WatchHub(), address: "serial:///dev/gps0",
                                     logger: Logger(label: "test"), clock: { MonotonicInstant(nanoseconds: 10_000_000_000) },
                                     tick: .milliseconds(20))
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await tracker.run() }
            try await eventually("the tracker waits") { inbox.readerIsWaiting }
            for second in 1...3 {
                inbox.deliver(.fix(fix(second, position: true),
                                   receivedAt: MonotonicInstant(nanoseconds: UInt64(second) * 1_000_000_000)))
            }
            try await eventually("the tick brought the three fixes to the tracker") {
                status.snapshot(now: MonotonicInstant(nanoseconds: 10_000_000_000)).epochs == 3
            }
            let snapshot = status.snapshot(now: MonotonicInstant(nanoseconds: 10_000_000_000))
            #expect(snapshot.lastFixAge == 7, "stamped when the fix arrived, not when the tracker took it")
            inbox.finish()
        }
    }

    @Test func aTickTakenLateJudgesTheFixesByItsOwnTimeSoAStallIsNoLostFix() async throws {
        // The tracker was held up (a write the card took half a minute over): a tick queued at 2.5 s waits with the
        // fixes that came after it, and the tracker gets to them at 60 s. The fixes came every second all along.
        let seconds = { @Sendable (value: Double) in MonotonicInstant(nanoseconds: UInt64(value * 1e9)) }
        let (logger, records) = RecordingLogHandler.logger()
        let inbox = TrackerInbox()
        let status = LiveStatus(address: "serial:///dev/gps0", now: seconds(0))
        let tracker = TrackerService(inbox: inbox, status: status, hub: WatchHub(), address: "serial:///dev/gps0",
                                     logger: logger, clock: { seconds(60) }, tick: .seconds(3600))
        for second in 1...2 { inbox.deliver(.fix(fix(second, position: true), receivedAt: seconds(Double(second)))) }
        #expect(inbox.tick(at: seconds(2.5)))
        for second in 3...40 { inbox.deliver(.fix(fix(second, position: true), receivedAt: seconds(Double(second)))) }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await tracker.run() }
            try await eventually("the tracker took the tick and the fixes") {
                inbox.readerIsWaiting && status.snapshot(now: seconds(60)).epochs == 40
            }
            #expect(records.records("no usable fix").isEmpty, "\(records.all.map { "\($0.message)" })")
            // A real silence, as the next tick sees it: the fix of 40 s was the last.
            #expect(inbox.tick(at: seconds(75)))
            try await eventually("the tick reported the silence") { !records.records("no usable fix").isEmpty }
            inbox.finish()
        }
        let lost = records.records("no usable fix")
        #expect(lost.count == 1)
        #expect(lost.first?["since"] == "\(fix(40, position: true).time!)")
        #expect(records.records("usable fixes again").isEmpty)
    }

    @Test func reportsTheFirstProblemAtOnceAndThenAtMostOneSummaryAMinute() {
        var log = ProblemLog()
        let diagnostic = NMEADiagnostic(problem: .framing(.overlong), position: .init(line: 1, byteOffset: 0), excerpt: "")
        #expect(log.note(diagnostic, at: MonotonicInstant(nanoseconds: 0)) != nil)
        for second in 1..<60 {
            #expect(log.note(diagnostic, at: MonotonicInstant(nanoseconds: UInt64(second) * 1_000_000_000)) == nil)
        }
        let summary = log.note(diagnostic, at: MonotonicInstant(nanoseconds: 61_000_000_000))
        #expect(summary?.contains("59 more") == true)
    }
}
