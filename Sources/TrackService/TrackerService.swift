import AsyncAlgorithms
import Logging
import ServiceLifecycle
import TrackCore
import TrackInput

/// The one owner of the daemon's live state: runs the engine on the source's events, a one-second tick and the
/// commands, in order, and publishes what follows to the snapshot, the watchers and the log. It ends when the
/// source's stream ends; then it closes the running trip at its last usable fix.
public struct TrackerService: Service {
    private let events: AsyncStream<SourceEvent>
    private let commands: AsyncStream<EngineCommand>
    private let configuration: EngineConfiguration
    private let autoStart: TripKind?
    private let status: LiveStatus
    private let hub: WatchHub
    private let address: String
    private let logger: Logger
    private let clock: @Sendable () -> MonotonicInstant
    private let tick: Duration

    public init(events: AsyncStream<SourceEvent>, commands: AsyncStream<EngineCommand> = AsyncStream { $0.finish() },
                configuration: EngineConfiguration = EngineConfiguration(), autoStart: TripKind? = nil,
                status: LiveStatus, hub: WatchHub, address: String, logger: Logger,
                clock: @escaping @Sendable () -> MonotonicInstant = MonotonicClock.now, tick: Duration = .seconds(1)) {
        self.events = events
        self.commands = commands
        self.configuration = configuration
        self.autoStart = autoStart
        self.status = status
        self.hub = hub
        self.address = address
        self.logger = logger
        self.clock = clock
        self.tick = tick
    }

    /// Everything the tracker reacts to, in one sequence.
    private enum Input: Sendable {
        case source(SourceEvent)
        case sourceEnded
        case command(EngineCommand)
        case tick
    }

    public func run() async {
        var engine = TrackEngine(configuration: configuration)
        var problems = ProblemLog()
        var hadPosition = false
        if let autoStart {
            apply(.startTrip(autoStart, purpose: nil, at: clock()), to: &engine)
        }
        let inputs = merge(
            chain(events.map { Input.source($0) }, [Input.sourceEnded].async),
            commands.map { Input.command($0) },
            AsyncTimerSequence(interval: tick, clock: .continuous).map { _ in Input.tick }
        )
        loop: for await input in inputs {
            switch input {
            case .sourceEnded:
                break loop
            case .tick:
                apply(.tick(clock()), to: &engine)
            case .command(.startTrip(let kind, let purpose)):
                apply(.startTrip(kind, purpose: purpose, at: clock()), to: &engine)
            case .command(.stopTrip(let purpose)):
                apply(.stopTrip(purpose: purpose, at: clock()), to: &engine)
            case .source(.fix(let fix, let receivedAt)):
                status.record(fix, at: receivedAt)
                hub.publish(.fix(fix))
                if fix.hasPosition != hadPosition {
                    hadPosition = fix.hasPosition
                    if hadPosition {
                        logger.info("fix acquired", metadata: fix.logMetadata)
                    } else {
                        logger.notice("fix lost", metadata: fix.logMetadata)
                    }
                }
                logger.trace("fix", metadata: fix.logMetadata)
                apply(.fix(fix, receivedAt: receivedAt), to: &engine)
            case .source(.state(let state)):
                let report = SourceStatus(state, address: address)
                status.record(source: report, at: clock())
                hub.publish(.source(report))
                switch state {
                case .lost: logger.warning("source lost", metadata: ["source": "\(address)", "reason": "\(report.detail)"])
                case .connected: logger.notice("source connected", metadata: ["source": "\(address)", "detail": "\(report.detail)"])
                case .connecting: logger.info("source connecting", metadata: ["source": "\(address)"])
                case .ended: logger.notice("source ended", metadata: ["source": "\(address)"])
                }
            case .source(.problem(let diagnostic)):
                status.recordProblem()
                if let summary = problems.note(diagnostic, at: clock()) {
                    logger.warning("input dropped", metadata: ["detail": "\(summary)"])
                }
            }
        }
        // Shutdown (or the end of a recording): the running trip closes at its last usable fix.
        if engine.trip != nil { apply(.stopTrip(purpose: nil, at: clock()), to: &engine) }
        hub.finishAll()
    }

    /// Runs one input through the engine and reports what came of it.
    private func apply(_ input: EngineInput, to engine: inout TrackEngine) {
        var events: [EngineEvent] = []
        engine.handle(input) { events.append($0) }
        for event in events { report(event) }
        status.record(engine: engine)
    }

    private func report(_ event: EngineEvent) {
        switch event {
        case .tripStarted(let trip):
            logger.notice("trip started", metadata: ["trip": "\(trip.number)", "kind": "\(trip.kind)",
                                                      "purpose": "\(trip.purpose ?? "")"])
        case .tripResumed(let trip):
            logger.notice("trip resumed after a power cut", metadata: ["trip": "\(trip.number)"])
        case .tripAlreadyRunning(let trip):
            logger.info("trip already running", metadata: ["trip": "\(trip.number)"])
        case .tripEnded(let trip):
            logger.notice("trip ended", metadata: [
                "trip": "\(trip.number)", "kind": "\(trip.kind)", "distance_m": "\(Int(trip.distance.rounded()))",
                "start": "\(trip.start.map { "\($0)" } ?? "none")", "end": "\(trip.end.map { "\($0)" } ?? "none")",
            ])
        case .noTripRunning:
            logger.info("no trip running")
        case .idle(let alert):
            logger.warning("idle alert: stationary for two hours", metadata: [
                "trip": "\(alert.tripNumber)", "since": "\(alert.stationarySince)", "time": "\(alert.time)",
            ])
        case .fixLost(let since):
            logger.warning("no usable fix", metadata: ["since": "\(since.map { "\($0)" } ?? "start")"])
        case .fixRegained(let after):
            logger.notice("usable fixes again", metadata: ["after_s": "\(Int(after.rounded()))"])
        case .gap(let gap):
            logger.info("outage", metadata: [
                "start": "\(gap.start)", "duration_s": "\(Int(gap.duration.rounded()))",
                "outcome": "\(gap.outcome.rawValue)", "distance_m": "\(Int(gap.distance.rounded()))",
            ])
        case .startedMoving(let time):
            logger.debug("moving", metadata: ["since": "\(time)"])
        case .stopped(let time):
            logger.debug("stationary", metadata: ["since": "\(time)"])
        case .displaced(let time, let metres):
            logger.info("moved while stationary by speed", metadata: ["time": "\(time)", "distance_m": "\(Int(metres.rounded()))"])
        case .trackPoint:
            break
        }
    }
}

extension SourceStatus {
    /// The protocol's view of a source state.
    init(_ state: SourceState, address: String) {
        switch state {
        case .connecting: self.init(address: address, state: "connecting", detail: "connecting")
        case .connected(let detail): self.init(address: address, state: "connected", detail: detail)
        case .lost(let reason): self.init(address: address, state: "lost", detail: reason)
        case .ended: self.init(address: address, state: "ended", detail: "end of recording")
        }
    }
}

extension Fix {
    /// Structured log fields for a fix.
    var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["mode": "\(mode)"]
        if let time { metadata["time"] = "\(time)" }
        if let latitude, let longitude { metadata["position"] = "\(latitude),\(longitude)" }
        if let satellitesUsed { metadata["satellites"] = "\(satellitesUsed)" }
        if let eph { metadata["eph"] = "\(eph)" }
        if let speed { metadata["speed"] = "\(speed)" }
        return metadata
    }
}

/// Rate-limits warnings about dropped input: the first one at once, then at most one summary a minute.
struct ProblemLog {
    private var windowStart: MonotonicInstant?
    private var suppressed = 0

    mutating func note(_ diagnostic: NMEADiagnostic, at now: MonotonicInstant) -> String? {
        guard let start = windowStart, now.seconds(since: start) < 60 else {
            let extra = suppressed
            windowStart = now
            suppressed = 0
            return extra > 0 ? "\(diagnostic) (and \(extra) more in the last minute)" : "\(diagnostic)"
        }
        suppressed += 1
        return nil
    }
}
