import Foundation
import Logging
import ServiceLifecycle
import TrackCore
import TrackInput
import TrackStore

/// The one owner of the daemon's live state: runs the engine on what its inbox brings (the source's events, the
/// commands and a one-second tick), in order; records trips in the mileage log; and publishes what follows to the snapshot, the watchers
/// and the journal. When the inbox ends it closes the running trip at its last usable fix; then it returns at once if
/// the input ended by itself (its end ends the daemon), or on its own turn if trackd is stopping (`DaemonServices`).
public struct TrackerService: Service, CustomStringConvertible {
    /// How the tracker records into the log.
    public struct Recording: Sendable {
        public var log: MileageLog
        /// While the vehicle moves, track points are committed this often, seconds (once it stands, at once).
        public var commitInterval: Double
        /// How a trip cut by a power loss is recovered.
        public var recovery: PowerCutRecovery
        /// The month's plain files, refreshed after each trip.
        public var exports: MonthlyExports?

        public init(log: MileageLog, commitInterval: Double = 1, recovery: PowerCutRecovery = PowerCutRecovery(),
                    exports: MonthlyExports? = nil) {
            self.log = log
            self.commitInterval = commitInterval
            self.recovery = recovery
            self.exports = exports
        }
    }

    private let inbox: TrackerInbox
    private let configuration: EngineConfiguration
    private let autoStart: TripKind?
    private let status: LiveStatus
    private let hub: WatchHub
    private let address: String
    private let logger: Logger
    private let clock: @Sendable () -> MonotonicInstant
    private let tick: Duration
    private let recording: Recording?
    private let heartbeat: EngineHeartbeat?

    public init(inbox: TrackerInbox, configuration: EngineConfiguration = EngineConfiguration(), autoStart: TripKind? = nil,
                status: LiveStatus, hub: WatchHub, address: String, logger: Logger,
                clock: @escaping @Sendable () -> MonotonicInstant = MonotonicClock.now, tick: Duration = .seconds(1),
                recording: Recording? = nil, heartbeat: EngineHeartbeat? = nil) {
        self.inbox = inbox
        self.configuration = configuration
        self.autoStart = autoStart
        self.status = status
        self.hub = hub
        self.address = address
        self.logger = logger
        self.clock = clock
        self.tick = tick
        self.recording = recording
        self.heartbeat = heartbeat
    }

    /// The tracker's state while it runs.
    private struct State {
        var engine: TrackEngine
        var recorder: TripRecorder?
        var problems = ProblemLog()
        var hadPosition = false
        /// The trip `--auto-start` asks for could not be opened because the log cannot be written: tried again at
        /// each commit interval.
        var autoStartWaiting = false
    }

    public var description: String { "tracker" }

    public func run() async {
        // Asked to stop, the tracker takes what is queued and ends; the source has normally ended the inbox already.
        let inbox = self.inbox
        await withGracefulShutdownHandler {
            await track()
        } onGracefulShutdown: {
            inbox.finishForStop()
        }
        // The trip is closed. If trackd is stopping, the source was asked before the tracker and may not have
        // returned yet: the tracker returns on its own turn, or the group would count it as ending out of order.
        if inbox.endedForStop { try? await gracefulShutdown() }
    }

    private func track() async {
        var state = State(engine: TrackEngine(configuration: configuration))
        if let recording {
            state.recorder = TripRecorder(
                log: recording.log,
                settings: .init(commitInterval: recording.commitInterval, recovery: recording.recovery,
                                tickInterval: Double(tick.components.seconds) + Double(tick.components.attoseconds) / 1e18),
                exports: recording.exports, logger: logger, clock: clock)
            await state.recorder?.lookForOpenTrip(now: clock())
        }
        if state.recorder?.recovering == nil { await startAutomatically(&state) }
        await refreshOdometer(state)
        await withDiscardingTaskGroup { group in
            group.addTask { [inbox, tick] in await Self.runTicks(every: tick, into: inbox) }
            await handleInbox(&state)
            group.cancelAll()
        }
        // Shutdown (or the end of a recording): the running trip closes at its last usable fix.
        if state.engine.trip != nil {
            _ = await stop(StopParams(), reason: "shutdown", in: &state)
        } else {
            logger.info("no trip running at shutdown")
        }
        await state.recorder?.giveUpRecovery(reason: "trackd stopped before a usable fix decided")
        await state.recorder?.flush()
        state.recorder?.reportLoss()
        publishStorage(state)
        hub.finishAll()
    }

    /// Queues a tick every `interval` (on the continuous clock, without drift) until cancelled or the inbox ends;
    /// after a stall longer than an interval, one tick comes at once and the next an interval later, not a burst.
    private static func runTicks(every interval: Duration, into inbox: TrackerInbox) async {
        let clock = ContinuousClock()
        var deadline = clock.now
        repeat {
            deadline = max(deadline.advanced(by: interval), clock.now)
            do { try await clock.sleep(until: deadline) } catch { return }
        } while inbox.tick()
    }

    /// Handles the inbox's items in order until it ends.
    private func handleInbox(_ state: inout State) async {
        for await input in inbox.items {
            switch input {
            case .tick:
                await apply(.tick(clock()), to: &state)
                if state.recorder?.recoveryExpired(now: clock()) == true {
                    await state.recorder?.giveUpRecovery(
                        reason: "no usable fix within \(Int(recording?.recovery.resumeWithin ?? 0)) s of the restart")
                    await startAutomatically(&state)
                    await refreshOdometer(state)
                }
                await state.recorder?.tick(now: clock(), moving: state.engine.isMoving)
                if state.autoStartWaiting, state.recorder?.isFailing == false {
                    await startAutomatically(&state)
                    await refreshOdometer(state)
                }
            case .command(.startTrip(let kind, let purpose)):
                _ = await start(StartParams(kind: kind, purpose: purpose), in: &state)
                await refreshOdometer(state)
            case .command(.stopTrip(let purpose)):
                _ = await stop(StopParams(purpose: purpose), reason: "stopped", in: &state)
                await refreshOdometer(state)
            case .command(.request(let request, let user, let reply)):
                reply.send(await carryOut(request, user: user, in: &state))
                await refreshOdometer(state)
            case .command(.reconfigure(let configuration)):
                await apply(.reconfigure(configuration), to: &state)
            case .source(.fix(let fix, let receivedAt)):
                status.record(fix, at: receivedAt)
                hub.publish(.fix(fix))
                if fix.hasPosition != state.hadPosition {
                    state.hadPosition = fix.hasPosition
                    if state.hadPosition {
                        logger.info("fix acquired", metadata: fix.logMetadata)
                    } else {
                        logger.notice("fix lost", metadata: fix.logMetadata)
                    }
                }
                logger.trace("fix", metadata: fix.logMetadata)
                await recover(at: fix, receivedAt: receivedAt, in: &state)
                await apply(.fix(fix, receivedAt: receivedAt), to: &state)
            case .source(.state(let sourceState)):
                let report = SourceStatus(sourceState, address: address)
                status.record(source: report, at: clock())
                hub.publish(.source(report))
                switch sourceState {
                case .lost(let reason):
                    logger.warning("source lost", metadata: ["source": "\(address)", "reason": "\(report.detail)",
                                                              "message_id": "\(LogMessageID.sourceLost)"])
                    await state.recorder?.sourceLost(reason, at: status.lastGPSTime()?.time)
                case .connected: logger.notice("source connected", metadata: ["source": "\(address)", "detail": "\(report.detail)",
                                                                              "message_id": "\(LogMessageID.sourceConnected)"])
                case .connecting: logger.info("source connecting", metadata: ["source": "\(address)"])
                case .ended: logger.notice("source ended", metadata: ["source": "\(address)"])
                }
            case .source(.problem(let diagnostic)):
                status.recordProblem()
                if let summary = state.problems.note(diagnostic, at: clock()) {
                    logger.warning("input dropped", metadata: ["detail": "\(summary)"])
                }
            }
            // Not after every fix (10 a second at most): the tick, a second later at most, publishes what fixes changed.
            if case .source(.fix) = input {} else { publishStorage(state) }
            heartbeat?.beat(at: clock())
        }
    }

    /// Tells the live status whether the log can be written.
    private func publishStorage(_ state: State) {
        guard let recorder = state.recorder else { return }
        let now = clock()
        status.record(storage: recorder.storage(now: now), at: now)
    }

    // MARK: - Trips

    /// Starts the trip `--auto-start` asks for (ignition on = boot); while the log cannot be written, again at each
    /// commit interval until it opens.
    private func startAutomatically(_ state: inout State) async {
        guard let autoStart, state.engine.trip == nil else { return }
        let retrying = state.autoStartWaiting
        state.autoStartWaiting = false
        switch await start(StartParams(kind: autoStart), automatic: true, in: &state) {
        case .failure(let error):
            if state.recorder?.isFailing == true {
                state.autoStartWaiting = true
                if !retrying {
                    logger.error("cannot start the trip at boot yet; trying again while the log cannot be written",
                                 metadata: ["error": "\(error.message)"])
                }
            } else {
                logger.error("cannot start the trip at boot", metadata: ["error": "\(error.message)"])
            }
        case .success:
            if retrying { logger.notice("the trip asked at boot started once the log could be written") }
        }
    }

    /// Starts a trip: its row in the log first (for its number), then the engine.
    private func start(_ params: StartParams, automatic: Bool = false,
                       in state: inout State) async -> Result<LogTrip?, RPCError> {
        if let running = state.engine.trip {
            return .failure(.refused("trip \(running.number) (\(running.kind)) is already running; stop it first "
                                     + "(trackctl stop)"))
        }
        if state.recorder?.recovering != nil {
            await state.recorder?.giveUpRecovery(reason: "a new trip was started before a usable fix decided")
        }
        var logTrip: LogTrip?
        if let recorder = state.recorder {
            // What waits from a failure (the close of the trip before, …) goes first, or the trip is refused.
            await state.recorder?.catchUp()
            if let failing = state.recorder?.storage(now: clock()), !failing.isOK {
                return .failure(.storage("cannot start a trip: \(failing.detail); trackd keeps what it recorded in "
                                         + "memory and stores it once the log can be written again"))
            }
            do {
                logTrip = try await recorder.log.beginTrip(kind: params.kind, purpose: params.purpose,
                                                           customer: params.customer)
            } catch {
                logger.error("cannot open a trip in the log", metadata: ["error": "\(error)"])
                // At boot the failure is the storage's state until the start is retried; a refused request is its own.
                if automatic, !error.isRefusal {
                    state.recorder?.noteFailure(error)
                }
                return .failure(ControlRequestHandler.rpcError(error))
            }
            state.recorder?.began(logTrip!)
        }
        await apply(.startTrip(params.kind, purpose: params.purpose, at: clock(), number: logTrip.map { Int($0.id) },
                               calibrationFactor: logTrip?.calibrationFactor), to: &state)
        return .success(logTrip)
    }

    /// Stops the running trip; the log closes it with what the engine measured.
    private func stop(_ params: StopParams, reason: String, in state: inout State) async -> Result<LogTrip?, RPCError> {
        guard state.engine.trip != nil else {
            return .failure(.refused("no trip is running; start one with trackctl start"))
        }
        let number = state.engine.trip?.number
        state.recorder?.forgetLastClosed()
        await apply(.stopTrip(purpose: params.purpose, at: clock()), to: &state, stopPurpose: params.purpose,
                    endReason: reason)
        if let recorder = state.recorder, recorder.lastClosed == nil, let error = recorder.closeDeferred {
            return .failure(.storage("trip \(number ?? 0) ended, but the mileage log cannot close it yet: "
                                     + "\(TripRecorder.detail(error, path: recorder.log.path)); trackd keeps it in memory "
                                     + "and closes it once the log can be written again"))
        }
        return .success(state.recorder?.lastClosed)
    }

    /// At a usable fix, decides about a trip a power cut left open.
    private func recover(at fix: Fix, receivedAt: MonotonicInstant, in state: inout State) async {
        guard state.recorder?.recovering != nil, let time = fix.time, let coordinate = fix.coordinate,
              fix.mode.hasPosition, (fix.eph ?? 0) <= state.engine.configuration.maxHorizontalError
        else { return }
        if let resumed = await state.recorder?.decide(at: fix, time: time, coordinate: coordinate, now: receivedAt) {
            await apply(.resumeTrip(resumed), to: &state)
        } else {
            await startAutomatically(&state)
        }
        await refreshOdometer(state)
    }

    /// Tells the live status the log's odometer: at the running trip's start, or now.
    private func refreshOdometer(_ state: State) async {
        guard let recorder = state.recorder else { return }
        if state.engine.trip != nil {
            status.record(odometer: recorder.runningOdometerStart, atTripStart: true)
        } else {
            status.record(odometer: try? await recorder.log.odometer(), atTripStart: false)
        }
    }

    /// Carries out a change to the log asked over the socket.
    private func carryOut(_ request: LogRequest, user: String, in state: inout State) async -> Result<LogResponse, RPCError> {
        guard let recorder = state.recorder else { return .failure(.unavailable("this trackd keeps no log")) }
        let log = recorder.log
        let context = changeContext(user: user)
        do {
            switch request {
            case .start(let params):
                return await start(params, in: &state).flatMap { trip in
                    trip.map { .success(.trip($0)) } ?? .failure(.unavailable("this trackd keeps no log"))
                }
            case .stop(let params):
                return await stop(params, reason: "stopped", in: &state).flatMap { trip in
                    trip.map { .success(.trip($0)) } ?? .failure(.storage("the trip ended but the log could not close it; see the journal"))
                }
            case .add(let manual):
                return .success(.trip(try await log.addTrip(manual, context: context)))
            case .edit(let params):
                let trip = try await log.editTrip(params.id, params.changes, reason: params.reason, context: context)
                if state.engine.trip?.number == Int(params.id) {
                    await apply(.reclassifyTrip(trip.kind, purpose: trip.purpose), to: &state)
                }
                return .success(.trip(trip))
            case .delete(let params):
                return .success(.trip(try await log.deleteTrip(params.id, reason: params.reason, context: context)))
            case .odometer(let params):
                return .success(.odometer(try await log.setOdometer(params.kilometres * 1000, reason: params.reason,
                                                                    context: context)))
            case .profile(let params):
                return .success(.profile(try await log.setProfile(params.changes, reason: params.reason, context: context)))
            case .addRegular(let regular):
                try await log.addRegularTrip(regular, context: context)
                return .success(.regular(regular))
            case .removeRegular(let params):
                try await log.removeRegularTrip(params.name, context: context)
                return .success(.removed(params))
            }
        } catch {
            return .failure(ControlRequestHandler.rpcError(error))
        }
    }

    /// Who changes the log and when: GPS time when the daemon has it, else the system clock.
    private func changeContext(user: String) -> ChangeContext {
        let now = status.logTime(now: clock())
        return ChangeContext(user: user, time: now.time, timeSource: now.source)
    }

    /// `2 h`, `1 h 30 min`, `45 min`: a stretch of time as the journal says it.
    static func hoursAndMinutes(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        switch (minutes / 60, minutes % 60) {
        case (0, let m): return "\(m) min"
        case (let h, 0): return "\(h) h"
        case (let h, let m): return "\(h) h \(m) min"
        }
    }

    /// Runs one input through the engine and reports what came of it.
    private func apply(_ input: EngineInput, to state: inout State, stopPurpose: String? = nil,
                       endReason: String = "stopped") async {
        var events: [EngineEvent] = []
        state.engine.handle(input) { events.append($0) }
        for event in events {
            report(event, endReason: endReason)
            // The clock is read only when a trip closes without a fix of its own.
            await state.recorder?.record(event, moving: state.engine.isMoving, stopPurpose: stopPurpose,
                                         endReason: endReason, now: changeContext(user: "").time)
        }
        status.record(engine: state.engine)
    }

    /// Tells the journal and the watchers what happened; `endReason` says why a trip that ends ends.
    private func report(_ event: EngineEvent, endReason: String) {
        switch event {
        case .tripStarted(let trip):
            logger.notice("trip started", metadata: ["trip": "\(trip.number)", "kind": "\(trip.kind)",
                                                      "purpose": "\(trip.purpose ?? "")", "trip_id": "\(trip.number)",
                                                      "message_id": "\(LogMessageID.tripStarted)"])
            hub.publish(.trip(TripNotice("started", trip)))
        case .tripResumed(let trip):
            logger.notice("trip resumed after a power cut", metadata: [
                "trip": "\(trip.number)", "trip_id": "\(trip.number)", "message_id": "\(LogMessageID.tripResumed)",
            ])
            hub.publish(.trip(TripNotice("resumed", trip)))
        case .tripAlreadyRunning(let trip):
            logger.info("trip already running", metadata: ["trip": "\(trip.number)"])
        case .tripEnded(let trip):
            hub.publish(.trip(TripNotice("ended", trip)))
            logger.notice(endReason == "shutdown" ? "trip ended at shutdown" : "trip ended", metadata: [
                "trip": "\(trip.number)", "kind": "\(trip.kind)", "distance_m": "\(Int(trip.distance.rounded()))",
                "end_reason": "\(endReason)",
                "start": "\(trip.start.map { "\($0)" } ?? "none")", "end": "\(trip.end.map { "\($0)" } ?? "none")",
                "trip_id": "\(trip.number)", "message_id": "\(LogMessageID.tripEnded)",
            ])
        case .noTripRunning:
            logger.info("no trip running")
        case .idle(let alert):
            hub.publish(.alert(alert))
            let stationary = alert.time.seconds(since: alert.stationarySince)
            logger.warning("idle alert: stationary for \(Self.hoursAndMinutes(stationary))", metadata: [
                "trip": "\(alert.tripNumber)", "since": "\(alert.stationarySince)", "time": "\(alert.time)",
                "stationary_s": "\(Int(stationary.rounded()))",
                "trip_id": "\(alert.tripNumber)", "message_id": "\(LogMessageID.idleAlert)",
            ])
        case .fixLost(let since):
            logger.warning("no usable fix", metadata: ["since": "\(since.map { "\($0)" } ?? "start")"])
        case .fixRegained(let time, let after):
            logger.notice("usable fixes again", metadata: ["time": "\(time)", "after_s": "\(Int(after.rounded()))"])
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
