import Testing
import TrackCore

struct IgnitionTrackerTests {
    static func at(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 1_000_000_000_000).adding(seconds: seconds)
    }

    static func rpm(_ value: Double, _ seconds: Double) -> OBDEvent {
        .reading(.engineSpeed(revolutionsPerMinute: value), at: at(seconds))
    }

    @Test func theEngineSpeedSaysWhetherTheEngineRuns() {
        var ignition = IgnitionTracker()
        #expect(ignition.take(.carAnswered(supported: [0x0C]), at: Self.at(0)) == nil)
        #expect(ignition.take(Self.rpm(0, 1), at: Self.at(1)) == nil, "ignition on, engine off: nothing started")
        #expect(!ignition.isRunning)
        #expect(ignition.take(Self.rpm(780, 2), at: Self.at(2)) == .started(at: Self.at(2)))
        #expect(ignition.take(Self.rpm(2400, 3), at: Self.at(3)) == nil)
        #expect(ignition.take(.voltage(12.1), at: Self.at(4)) == nil, "the engine speed decides where the car gives it")
        #expect(ignition.isRunning)
        #expect(ignition.take(Self.rpm(0, 5), at: Self.at(5)) == .stopped(at: Self.at(5)), "a start-stop system, or the key")
        #expect(ignition.state == .off(since: Self.at(5)))
    }

    @Test func aCarThatStopsAnsweringHasItsIgnitionOff() {
        var ignition = IgnitionTracker()
        _ = ignition.take(Self.rpm(800, 0), at: Self.at(0))
        #expect(ignition.take(.carSilent("0100: NO DATA"), at: Self.at(10)) == .stopped(at: Self.at(10)))
        #expect(ignition.take(.carSilent("0100: NO DATA"), at: Self.at(15)) == nil, "said once")
    }

    /// The battery voltage read once a second from `from` on, one value a second, and the changes it made.
    static func read(_ volts: [Double], from start: Double, into ignition: inout IgnitionTracker)
        -> [IgnitionTracker.Change]
    {
        volts.enumerated().compactMap { second, value in
            ignition.take(.voltage(value), at: at(start + Double(second)))
        }
    }

    @Test func theVoltageDecidesWhileTheCarDoesNotAnswer() {
        var ignition = IgnitionTracker()
        #expect(ignition.take(.voltage(12.4), at: Self.at(0)) == nil, "off from the start is no change to report")
        #expect(ignition.state == .off(since: Self.at(0)))
        #expect(Self.read([14.1, 14.2, 14.1, 14.2, 14.3], from: 5, into: &ignition) == [.started(at: Self.at(5))],
                "the alternator charges: started at the first reading once it held")
        #expect(Self.read([12.6, 12.5, 12.5, 12.4], from: 30, into: &ignition) == [.stopped(at: Self.at(30))])
    }

    @Test func aChargingVoltageStartsTheEngineOnceItHeldForTheSettlingTime() {
        var ignition = IgnitionTracker()
        _ = ignition.take(.voltage(12.5), at: Self.at(0))
        #expect(ignition.take(.voltage(14.0), at: Self.at(10)) == nil, "one reading decides nothing")
        #expect(ignition.take(.voltage(14.1), at: Self.at(12)) == nil, "2 s: not yet")
        #expect(ignition.take(.voltage(14.1), at: Self.at(13)) == .started(at: Self.at(10)))
        #expect(ignition.isRunning)
    }

    @Test func aSingleHighReadingAfterSilenceStartsNothing() {
        var ignition = IgnitionTracker()
        _ = ignition.take(.voltage(12.6), at: Self.at(0))
        // A spike, then the resting battery again: the spike's wait starts over.
        #expect(Self.read([14.4, 12.6, 12.6, 12.6, 14.4, 12.7, 12.6], from: 1, into: &ignition).isEmpty)
        #expect(!ignition.isRunning)
    }

    @Test func theSurfaceChargeAfterSwitchOffIsNoRunningEngine() {
        var ignition = IgnitionTracker()
        _ = Self.read([12.6, 14.2, 14.2, 14.2, 14.2], from: 0, into: &ignition)
        #expect(ignition.state == .running(since: Self.at(1)))
        // Switched off: the battery holds 13.2 V and sinks slowly for minutes, never back to a charging voltage.
        let surface = (0..<600).map { 13.2 - Double($0) * 0.0008 }
        #expect(Self.read(surface, from: 5, into: &ignition) == [.stopped(at: Self.at(5))],
                "stopped at the switch-off's first reading, and never started again")
        #expect(ignition.state == .off(since: Self.at(5)))
    }

    @Test func theSurfaceChargeReadFirstAfterASilenceStartsNothing() {
        var ignition = IgnitionTracker()
        _ = ignition.take(Self.rpm(800, 0), at: Self.at(0))
        #expect(ignition.take(.carSilent("0100: NO DATA"), at: Self.at(10)) == .stopped(at: Self.at(10)))
        // The adapter reads the voltage once the car is silent: the battery's surface charge, for minutes.
        #expect(Self.read(Array(repeating: 13.2, count: 300), from: 11, into: &ignition).isEmpty)
        #expect(!ignition.isRunning)
    }

    @Test func aVoltageWaveringAroundThirteenVoltsStartsNoTrip() {
        var ignition = IgnitionTracker()
        let flapping = (0..<1_800).map { $0.isMultiple(of: 2) ? 12.9 : 13.1 }
        #expect(Self.read(flapping, from: 0, into: &ignition).isEmpty)
        #expect(ignition.state == .off(since: Self.at(0)))
        // Near the thresholds: between stopVolts and startVolts nothing changes either way.
        let between = (0..<600).map { $0.isMultiple(of: 2) ? 13.3 : 13.39 }
        #expect(Self.read(between, from: 2_000, into: &ignition).isEmpty)
    }

    @Test func aRunningEngineStaysRunningWhileTheVoltageDipsBrieflyOrStaysBetweenTheThresholds() {
        var ignition = IgnitionTracker()
        _ = Self.read([14.2, 14.2, 14.2, 14.2], from: 0, into: &ignition)
        #expect(ignition.isRunning)
        // A heavy load for two seconds (the cooling fan, the rear screen), then the alternator catches up; then an
        // idling engine at 13.35 V.
        #expect(Self.read([12.9, 12.8, 13.9, 14.0] + Array(repeating: 13.35, count: 60), from: 4, into: &ignition)
            .isEmpty)
        #expect(ignition.state == .running(since: Self.at(0)))
    }

    @Test func aLostAdapterLeavesTheEngineUnknown() {
        var ignition = IgnitionTracker()
        _ = ignition.take(Self.rpm(800, 0), at: Self.at(0))
        #expect(ignition.take(.adapterLost("no answer"), at: Self.at(3)) == nil)
        #expect(ignition.state == .unknown, "not off: a lost adapter does not end a trip")
        #expect(ignition.take(Self.rpm(800, 9), at: Self.at(9)) == .started(at: Self.at(9)))
    }

    @Test func anAdapterThatSleepsOnceTheEngineIsOffLeavesItOff() {
        var ignition = IgnitionTracker()
        _ = ignition.take(Self.rpm(800, 0), at: Self.at(0))
        _ = ignition.take(Self.rpm(0, 60), at: Self.at(60))
        ignition.loseAdapter()
        #expect(ignition.state == .off(since: Self.at(60)), "the trip waiting for ignition_off_after still closes")
        ignition.forget()
        #expect(ignition.state == .unknown, "another adapter: nothing known")
    }
}
