import Logging
import ServiceLifecycle
import TrackCore
import TrackInput

/// The one owner of the daemon's live state: reads the source's events in order and updates the snapshot and the
/// watchers. It ends when the source's stream ends, so on shutdown everything the source delivered is handled.
public struct TrackerService: Service {
    private let events: AsyncStream<SourceEvent>
    private let status: LiveStatus
    private let hub: WatchHub
    private let address: String
    private let logger: Logger
    private let clock: @Sendable () -> MonotonicInstant

    public init(events: AsyncStream<SourceEvent>, status: LiveStatus, hub: WatchHub, address: String, logger: Logger,
                clock: @escaping @Sendable () -> MonotonicInstant = MonotonicClock.now) {
        self.events = events
        self.status = status
        self.hub = hub
        self.address = address
        self.logger = logger
        self.clock = clock
    }

    public func run() async {
        var problems = ProblemLog()
        var hadPosition = false
        for await event in events {
            switch event {
            case .fix(let fix, let receivedAt):
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
                logger.debug("fix", metadata: fix.logMetadata)
            case .state(let state):
                let report = SourceStatus(state, address: address)
                status.record(source: report, at: clock())
                hub.publish(.source(report))
                switch state {
                case .lost: logger.warning("source lost", metadata: ["source": "\(address)", "reason": "\(report.detail)"])
                case .connected: logger.notice("source connected", metadata: ["source": "\(address)", "detail": "\(report.detail)"])
                case .connecting: logger.info("source connecting", metadata: ["source": "\(address)"])
                case .ended: logger.notice("source ended", metadata: ["source": "\(address)"])
                }
            case .problem(let diagnostic):
                status.recordProblem()
                if let summary = problems.note(diagnostic, at: clock()) {
                    logger.warning("input dropped", metadata: ["detail": "\(summary)"])
                }
            }
        }
        hub.finishAll()
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
