import Logging
import ServiceLifecycle
import TrackCore
import TrackInput
import TrackStore

/// The one owner of the daemon's live state: runs the engine on what its inbox brings (the source's events, the
/// commands and a one-second tick), in order; records trips in the mileage log; and publishes what follows to the
/// snapshot, the watchers and the journal (one file a job: `TrackerService+Inbox`, `+Source`, `+Ticks`, `+Trips`,
/// `+Edits`, `+Journal`, `+Status`). When the inbox ends it closes the running trip at its last usable fix; then it returns at once if
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
        /// What is kept of where the car went, and for how long.
        public var privacy: PrivacyPolicy
        /// The configuration's `profile:` section and the file it came from.
        public var profileDefaults: ProfileChanges
        public var configurationPath: String?
        /// Where the running trip's points are committed between its events; `nil`: straight into the log.
        public var pointFile: TrackPointFile?
        /// Bytes of the point file past which its points go into the log; `nil`: 256 KiB, about an hour of driving.
        public var settleBytes: Int?

        public init(log: MileageLog, commitInterval: Double = 1, recovery: PowerCutRecovery = PowerCutRecovery(),
                    exports: MonthlyExports? = nil, privacy: PrivacyPolicy = PrivacyPolicy(),
                    profileDefaults: ProfileChanges = ProfileChanges(), configurationPath: String? = nil,
                    pointFile: TrackPointFile? = nil, settleBytes: Int? = nil) {
            self.pointFile = pointFile
            self.settleBytes = settleBytes
            self.privacy = privacy
            self.profileDefaults = profileDefaults
            self.configurationPath = configurationPath
            self.log = log
            self.commitInterval = commitInterval
            self.recovery = recovery
            self.exports = exports
        }
    }

    let inbox: TrackerInbox
    let configuration: EngineConfiguration
    let autoStart: TripKind?
    /// When the auto-started trip follows the engine (`auto_start_on: ignition`): how long the engine must be off
    /// before the trip closes; `nil`: trips start at boot.
    let ignitionOffAfter: Double?
    /// With an OBD-II adapter configured at start and trips starting at boot: how long, at most, the trip asked at
    /// boot waits for the car's odometer (its start reading) while the car stands; `nil`: it starts at once.
    let carWaitAtBoot: Double?
    /// When the board was powered, on the monotonic clock, if trackd started at boot: the trip asked at boot bridges
    /// the drive from the previous trip's end to its first fix from then (`EngineInput.parkedBefore`).
    let poweredAt: MonotonicInstant?
    let status: LiveStatus
    let hub: WatchHub
    let address: String
    let logger: Logger
    let clock: @Sendable () -> MonotonicInstant
    let tick: Duration
    let recording: Recording?
    let heartbeat: EngineHeartbeat?

    public init(inbox: TrackerInbox, configuration: EngineConfiguration = EngineConfiguration(), autoStart: TripKind? = nil,
                ignitionOffAfter: Double? = nil, carWaitAtBoot: Double? = nil, poweredAt: MonotonicInstant? = nil,
                status: LiveStatus, hub: WatchHub, address: String, logger: Logger,
                clock: @escaping @Sendable () -> MonotonicInstant = MonotonicClock.now, tick: Duration = .seconds(1),
                recording: Recording? = nil, heartbeat: EngineHeartbeat? = nil) {
        self.inbox = inbox
        self.configuration = configuration
        self.autoStart = autoStart
        self.ignitionOffAfter = ignitionOffAfter
        self.carWaitAtBoot = carWaitAtBoot
        self.poweredAt = poweredAt
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
    struct State {
        var engine: TrackEngine
        var recorder: TripRecorder?
        var problems = ProblemLog()
        var hadPosition = false
        /// The OBD-II adapter and its car as last heard; `nil` while none is configured.
        var obd: OBDStatus?
        /// Whether the OBD service has said which adapter is configured (`obd` is `nil` before and without one).
        var obdAnnounced = false
        /// The adapter's unusable answers, told to the journal at most once a minute.
        var obdProblems = ProblemLog()
        /// Whether the engine runs, as the adapter tells.
        var ignition = IgnitionTracker()
        /// The trip `--auto-start` asks for could not be opened because the log cannot be written: tried again at
        /// each commit interval.
        var autoStartWaiting = false
        /// The trip asked at boot and the car's odometer (`TrackerService+BootTrip`).
        var bootTrip = BootTrip.notAsked
    }

    /// Where the trip asked at boot stands with the car's odometer it waits for.
    enum BootTrip {
        case notAsked
        /// Waiting until `until`; `measured`: the engine's distance outside trips when it was asked.
        case waiting(until: MonotonicInstant, measured: Double)
        /// Done waiting (the car's odometer read, the car moved, no answer in time…), or a trip started otherwise.
        case decided(measured: Double?)
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

    /// The tracker's life: a trip left open by a power cut or asked at boot, the inbox until it ends, the close.
    private func track() async {
        var state = State(engine: TrackEngine(configuration: configuration))
        if let recording {
            var settings = TripRecorder.Settings(
                commitInterval: recording.commitInterval, recovery: recording.recovery,
                tickInterval: Double(tick.components.seconds) + Double(tick.components.attoseconds) / 1e18)
            if let settleBytes = recording.settleBytes { settings.settleBytes = settleBytes }
            state.recorder = TripRecorder(
                log: recording.log, settings: settings,
                exports: recording.exports, pointFile: recording.pointFile, logger: logger, clock: clock,
                wallClock: status.wallClock)
            state.recorder?.privacy = recording.privacy
            state.recorder?.profileDefaults = recording.profileDefaults
            state.recorder?.configurationPath = recording.configurationPath
            await state.recorder?.settleLeftovers()
            await state.recorder?.lookForOpenTrip(now: clock())
        }
        if state.recorder?.recovering == nil { await startAutomatically(&state) }
        await refreshOdometer(state)
        await withDiscardingTaskGroup { group in
            group.addTask { [inbox, tick, clock] in await Self.runTicks(every: tick, into: inbox, clock: clock) }
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

    /// Runs one input through the engine and reports what came of it.
    func apply(_ input: EngineInput, to state: inout State, stopPurpose: String? = nil, stopCustomer: String? = nil,
               endReason: String = "stopped") async {
        var events: [EngineEvent] = []
        state.engine.handle(input) { events.append($0) }
        for event in events {
            report(event, endReason: endReason)
            // The clock is read only when a trip closes without a fix of its own.
            await state.recorder?.record(event, moving: state.engine.isMoving, stopPurpose: stopPurpose,
                                         stopCustomer: stopCustomer, endReason: endReason, now: changeContext(user: "").time)
        }
        status.record(engine: state.engine)
    }
}
