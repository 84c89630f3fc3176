import Testing
import TrackCore
@testable import TrackService
import TrackInput

struct WatchHubTests {
    @Test func neverWaitsForASlowWatcherAndCountsWhatItDropped() async {
        let hub = WatchHub(bufferSize: 10)
        let (id, events) = hub.subscribe()
        // Nobody reads: publishing still returns at once, and the overflow is counted, not queued.
        for second in 0..<1000 {
            hub.publish(.fix(Fix(time: UTCTime(nanosecondsSinceEpoch: Int64(second) * 1_000_000_000), mode: .noFix)))
        }
        #expect(hub.takeDropped(id) == 990)
        #expect(hub.takeDropped(id) == 0)
        hub.unsubscribe(id)
        var times: [Int64] = []
        for await event in events {
            if case .fix(let fix) = event { times.append(fix.time!.nanosecondsSinceEpoch / 1_000_000_000) }
        }
        #expect(times == Array(990..<1000), "the newest are kept: the gap lies before them, where the count is told")
    }

    @Test func givesEveryWatcherEveryEventInOrder() async {
        let hub = WatchHub()
        let first = hub.subscribe()
        let second = hub.subscribe()
        #expect(hub.count == 2)
        for second in 0..<5 {
            hub.publish(.fix(Fix(time: UTCTime(nanosecondsSinceEpoch: Int64(second)), mode: .noFix)))
        }
        hub.finishAll()
        #expect(hub.count == 0)
        for watcher in [first, second] {
            var times: [Int64] = []
            for await event in watcher.events {
                if case .fix(let fix) = event { times.append(fix.time!.nanosecondsSinceEpoch) }
            }
            #expect(times == [0, 1, 2, 3, 4])
        }
    }

    @Test func givesAWatcherOnlyTheKindsOfEventItWants() async {
        let hub = WatchHub()
        let everything = hub.subscribe()
        let sourcesOnly = hub.subscribe(to: .sources)
        hub.publish(.fix(Fix(time: UTCTime(nanosecondsSinceEpoch: 0), mode: .noFix)))
        hub.publish(.source(SourceStatus(.lost("unplugged"), address: "serial:///dev/gps0")))
        hub.publish(.fix(Fix(time: UTCTime(nanosecondsSinceEpoch: 1), mode: .noFix)))
        hub.publish(.obd(OBDStatus(address: "tcp://192.168.0.10:35000")))
        hub.finishAll()
        func kinds(_ events: AsyncStream<WatchHub.Event>) async -> [String] {
            var kinds: [String] = []
            for await event in events {
                switch event {
                case .fix: kinds.append("fix")
                case .source: kinds.append("source")
                case .trip: kinds.append("trip")
                case .alert: kinds.append("alert")
                case .obd: kinds.append("obd")
                }
            }
            return kinds
        }
        #expect(await kinds(everything.events) == ["fix", "source", "fix", "obd"])
        #expect(await kinds(sourcesOnly.events) == ["source", "obd"], "the OBD-II adapter is a source")
    }

    @Test func saysWhetherAWatcherWantsFixesUntilTheLastSuchWatcherLeaves() {
        let hub = WatchHub()
        #expect(!hub.wantsFixes)
        let alertsOnly = hub.subscribe(to: .alerts)
        #expect(!hub.wantsFixes, "a watcher of alerts alone does not need each fix at once")
        let first = hub.subscribe(to: [.fixes, .trips])
        let second = hub.subscribe()
        #expect(hub.wantsFixes)
        hub.unsubscribe(first.id)
        #expect(hub.wantsFixes, "one watcher of fixes is left")
        hub.unsubscribe(second.id)
        #expect(!hub.wantsFixes)
        hub.unsubscribe(second.id)
        #expect(!hub.wantsFixes, "leaving twice does not count twice")
        _ = hub.subscribe(to: .fixes)
        #expect(hub.wantsFixes)
        hub.finishAll()
        #expect(!hub.wantsFixes)
        hub.unsubscribe(alertsOnly.id)
    }
}
