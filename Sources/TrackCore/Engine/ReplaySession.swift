/// Runs the engine over a recorded log as fast as it can, exactly as the daemon runs it on a live receiver, with a
/// trip running from the first fix.
///
/// The clock is made from the fixes' own times: each fix advances the monotonic clock by the GPS time since the
/// fix before it (never backwards), so durations, idle alerts and outages come out as they would have live.
public struct ReplaySession: Sendable {
    private var reader: NMEAReader
    private var engine: TrackEngine
    private var result = ReplayResult()
    private var clock = MonotonicInstant(nanoseconds: 1_000_000_000)
    private var lastTime: UTCTime?
    private var started = false

    public init(configuration: EngineConfiguration = EngineConfiguration(),
                reading: NMEAReader.Configuration = NMEAReader.Configuration()) {
        reader = NMEAReader(configuration: reading)
        engine = TrackEngine(configuration: configuration)
    }

    /// Reads the next chunk of the recording.
    public mutating func read(_ bytes: UnsafeRawBufferPointer) {
        var fixes: [Fix] = []
        reader.read(bytes) { event in
            if case .fix(let fix) = event { fixes.append(fix) }
        }
        for fix in fixes { feed(fix) }
    }

    /// Reads the next chunk of the recording.
    public mutating func read(_ bytes: some Sequence<UInt8>) {
        var fixes: [Fix] = []
        reader.read(bytes) { event in
            if case .fix(let fix) = event { fixes.append(fix) }
        }
        for fix in fixes { feed(fix) }
    }

    /// Ends the recording: the last epoch is read and the trip is closed at its last usable fix.
    public mutating func finish() -> ReplayResult {
        var fixes: [Fix] = []
        reader.finish { event in
            if case .fix(let fix) = event { fixes.append(fix) }
        }
        for fix in fixes { feed(fix) }
        handle(.stopTrip(purpose: nil, at: clock))
        result.statistics = engine.statistics
        result.input = reader.statistics
        result.distanceOutsideTrips = engine.distanceOutsideTrips
        return result
    }

    private mutating func feed(_ fix: Fix) {
        if let time = fix.time {
            if let last = lastTime, time > last {
                clock = MonotonicInstant(nanoseconds: clock.nanoseconds + UInt64(time.nanosecondsSinceEpoch - last.nanosecondsSinceEpoch))
            }
            if lastTime.map({ time > $0 }) ?? true { lastTime = time }
        }
        if !started {
            started = true
            handle(.startTrip(.unclassified, purpose: nil, at: clock))
        }
        handle(.fix(fix, receivedAt: clock))
    }

    private mutating func handle(_ input: EngineInput) {
        var events: [EngineEvent] = []
        engine.handle(input) { events.append($0) }
        for event in events { result.record(event) }
    }
}

/// What a replay found.
public struct ReplayResult: Sendable {
    public var trips: [Trip] = []
    public var alerts: [IdleAlert] = []
    public var gaps: [GapReport] = []
    /// Displacements counted while stationary by speed: when, and how far.
    public var displacements: [(time: UTCTime, metres: Double)] = []
    /// Starts of movement confirmed.
    public var starts = 0
    /// Losses of fix and their ends, in order: (since, nil) when lost, (nil, seconds) when regained.
    public var fixLosses: [(since: UTCTime?, regainedAfter: Double?)] = []
    public var statistics = EngineStatistics()
    public var input = NMEAStatistics()
    public var distanceOutsideTrips = 0.0

    public init() {}

    /// Reported distance of all trips, metres.
    public var distance: Double { trips.reduce(0) { $0 + $1.distance } }
    /// Measured distance of all trips, metres.
    public var measuredDistance: Double { trips.reduce(0) { $0 + $1.measuredDistance } }

    mutating func record(_ event: EngineEvent) {
        switch event {
        case .tripEnded(let trip): trips.append(trip)
        case .idle(let alert): alerts.append(alert)
        case .gap(let gap): gaps.append(gap)
        case .fixLost(let since): fixLosses.append((since, nil))
        case .fixRegained(_, let after): fixLosses.append((nil, after))
        case .displaced(let time, let metres): displacements.append((time, metres))
        case .startedMoving: starts += 1
        case .trackPoint, .tripStarted, .tripResumed, .tripAlreadyRunning, .noTripRunning, .stopped: break
        }
    }
}
