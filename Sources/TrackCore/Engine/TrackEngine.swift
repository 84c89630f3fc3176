/// The engine: the accuracy gate, the motion tracker (distance), idle detection and the trip state machine.
///
/// Pure and deterministic: fixes, monotonic time and commands go in, events come out. The daemon feeds it
/// live; `trackctl replay` feeds it a recording with a clock made from the fixes' own times, and gets exactly the
/// daemon's results.
public struct TrackEngine: Sendable {
    public private(set) var configuration: EngineConfiguration
    /// The running trip, if any.
    public private(set) var trip: Trip?
    /// How the fixes were judged.
    public private(set) var statistics = EngineStatistics()
    /// Distance measured while no trip ran, metres (for the odometer's "unrecorded driving").
    public private(set) var distanceOutsideTrips = 0.0
    /// The last fix received, usable or not.
    public private(set) var lastFix: Fix?
    /// The last idle alert raised.
    public private(set) var lastIdleAlert: IdleAlert?

    private var gate: FixGate
    private var tracker: MotionTracker
    private var nextTripNumber: TripID = 1
    /// The last usable fix: its GPS time and arrival on the monotonic clock.
    private var lastUsable: (time: UTCTime, at: MonotonicInstant)?
    private var lastPosition: Coordinate?
    private var lastPositionError: Double?
    private var fixLostReported = false
    /// The stop for which the idle alert was raised (re-armed by movement).
    private var idleAlertedFor: UTCTime?
    /// The mean of the trusted positions of the present stop: where the vehicle is parked (`nil` while it moves).
    private var standing: PositionMean?
    /// The mean of the present stop's positions the gate holds back while the receiver converges: where the vehicle
    /// is parked when no trusted position says so (a receiver that starts in a street canyon), with their error.
    private var settling: PositionMean?
    /// Whether the vehicle has left the spot the running trip started at (its start is no longer the stop's mean).
    private var departed = false
    /// Where the vehicle went since it last stood, by its reported velocity (`nil` once that is lost).
    private var departure: DepartureTrack?
    /// Whether a better start can still come from a good position carried back along `departure`, and how good
    /// the start is so far (95 %, metres).
    private var startRefinable = false
    private var startError: Double?
    /// Whether the start is the mean of a stop: a carried position must then be twice as good to replace it (the
    /// mean has taken out some of the error its positions' estimates still count).
    private var startIsStopMean = false

    public init(configuration: EngineConfiguration = EngineConfiguration()) {
        self.configuration = configuration
        gate = FixGate(configuration: configuration)
        tracker = MotionTracker(configuration: configuration)
    }

    /// Whether the vehicle is moving now.
    public var isMoving: Bool { tracker.isMoving }

    /// Since when the vehicle stands still, if it does.
    public var stationarySince: UTCTime? { tracker.stationarySince }

    /// All distance measured, trips or not (uncalibrated), metres.
    public var measuredDistance: Double { tracker.distance }

    /// Takes one input; `emit` receives what follows from it, in order.
    public mutating func handle(_ input: EngineInput, _ emit: (EngineEvent) -> Void) {
        switch input {
        case .fix(let fix, let receivedAt):
            take(fix, at: receivedAt, emit)
        case .tick(let now):
            checkTimers(now: now, emit)
        case .startTrip(let kind, let purpose, let at, let number, let factor):
            startTrip(kind, purpose: purpose, at: at, number: number, calibrationFactor: factor, emit)
        case .reclassifyTrip(let kind, let purpose):
            trip?.kind = kind
            trip?.purpose = purpose
        case .resumeTrip(let resumed):
            if let trip {
                emit(.tripAlreadyRunning(trip))
            } else {
                trip = resumed
                departed = true
                startRefinable = false
                nextTripNumber = max(nextTripNumber, TripID(resumed.number.rawValue + 1))
                emit(.tripResumed(resumed))
            }
        case .stopTrip(let purpose, let at):
            stopTrip(purpose: purpose, at: at, emit)
        case .reconfigure(let configuration):
            self.configuration = configuration
            gate.configuration = configuration
            tracker.configuration = configuration
        }
    }

    // MARK: - Fixes

    private mutating func take(_ fix: Fix, at now: MonotonicInstant, _ emit: (EngineEvent) -> Void) {
        lastFix = fix
        let verdict = gate.judge(fix)
        statistics.count(verdict)
        guard verdict.isUsable, let time = fix.time else {
            checkTimers(now: now, emit)
            return
        }
        if fixLostReported, let last = lastUsable {
            fixLostReported = false
            emit(.fixRegained(at: time, after: now.seconds(since: last.at)))
        }
        lastUsable = (time, now)
        let trusted = verdict.trustsPosition ? fix.coordinate : nil
        if let trusted {
            lastPosition = trusted
            lastPositionError = fix.eph
        }
        if var running = trip {
            if running.start == nil {
                running.start = time
                running.firstFixAt = now
            }
            running.end = time
            running.lastFixAt = now
            trip = running
        }

        let sample = MotionTracker.Sample(
            time: time, coordinate: trusted, error: fix.eph,
            speed: verdict.speedRejection == nil ? fix.speed : nil, course: fix.track)
        var motion: [MotionTracker.Event] = []
        tracker.add(sample) { motion.append($0) }
        for event in motion { apply(event, emit) }
        // Held back only while the receiver converges, and not beyond the error no position may have.
        let converging = verdict.positionRejection == .converging && (fix.eph ?? .infinity) <= configuration.maxHorizontalError
            ? fix.coordinate : nil
        place(trusted, converging: converging, speed: sample.speed, course: fix.track, error: fix.eph, at: time)

        if let trusted, let running = trip {
            emit(.trackPoint(TrackPoint(time: time, coordinate: trusted, speed: sample.speed, error: fix.eph,
                                        distance: running.measuredDistance)))
        }
        checkTimers(now: now, emit)
    }

    private mutating func apply(_ event: MotionTracker.Event, _ emit: (EngineEvent) -> Void) {
        switch event {
        case .distance(let metres):
            if trip != nil {
                trip?.measuredDistance += metres
            } else {
                distanceOutsideTrips += metres
            }
        case .startedMoving(let time):
            standing = nil
            settling = nil
            emit(.startedMoving(time))
        case .stopped(let time):
            standing = nil
            settling = nil
            emit(.stopped(time))
        case .displaced(let time, let metres):
            leftSpot()
            emit(.displaced(time, metres: metres))
        case .gap(let report):
            if report.distance > 0 { leftSpot() }
            if trip != nil { trip?.gaps.append(report) }
            emit(.gap(report))
        }
    }

    // MARK: - Where the trip starts and ends

    /// Takes a trusted position into the stop's mean while the vehicle stands (a position reported with a speed
    /// that stands out is on its way off the spot), and moves the running trip's ends: the start is the mean of the
    /// stop the trip started in until the vehicle leaves it, the end the mean of the present stop, or the last
    /// position while moving. A parked receiver's error wanders by metres over minutes; the mean of the whole
    /// stop takes most of it out, where one fix would keep all of it.
    ///
    /// A trip that leaves a spot without a good position of it (the receiver still converging, or no trusted
    /// position at all) gets its start from the first good positions after the departure, carried back along the
    /// velocity the receiver reported (`DepartureTrack`), for as long as that is better than what it has.
    private mutating func place(_ trusted: Coordinate?, converging: Coordinate?, speed: Double?, course: Double?,
                                error: Double?, at time: UTCTime) {
        let resting = !tracker.isMoving && (speed ?? 0) < configuration.movingSpeed
        // Standing again within a few metres of where it set off (a false start, a roll in the parking bay): the car
        // has not left the spot the trip started at.
        let rolled = resting && departed && startRefinable && (departure?.path ?? .infinity) < Self.sameSpot
        if resting {
            departure = DepartureTrack(at: time)
        } else if departure?.advance(to: time, speed: speed, course: course, gapAfter: configuration.gapAfter) == false {
            departure = nil
        }
        if let trusted, resting {
            if standing == nil { standing = PositionMean(trusted, error: error) } else { standing?.include(trusted, error: error) }
        } else if let converging, resting {
            if settling == nil { settling = PositionMean(converging, error: error) } else { settling?.include(converging, error: error) }
        }
        guard var running = trip else { return }
        // The stop's trusted positions; without any, those held back while converging (their error says how poor).
        let parked = standing ?? settling
        let here = tracker.isMoving ? trusted : (parked?.center ?? trusted)
        if tracker.isMoving && !departed {
            departed = true
            startRefinable = true
        }
        if rolled {
            departed = false
            startRefinable = false
        }
        // Standing again after the departure: the way back to the trip's spot is lost in this stop.
        if resting && departed { startRefinable = false }
        if !departed {
            if let here {
                running.startPosition = here
                startError = parked?.error ?? error
                startIsStopMean = parked != nil
            }
        } else if running.startPosition == nil, let trusted {
            running.startPosition = trusted
            startError = (error ?? 0) + (startRefinable ? departure?.path ?? 0 : 0)
            startIsStopMean = false
        }
        if startRefinable, tracker.isMoving {
            if let departure, departure.path <= Self.departureReach, time.seconds(since: departure.since) <= Self.departureTime {
                if let trusted, let error {
                    // Doppler velocity integrated over the path: a few percent of it, and a metre for the lead-in.
                    let carried = error + 0.03 * departure.path + 1
                    if carried * (startIsStopMean ? 2 : 1) < (startError ?? .infinity) {
                        running.startPosition = departure.spot(from: trusted)
                        startError = carried
                        startIsStopMean = false
                    }
                }
            } else {
                startRefinable = false
            }
        }
        if let here { running.endPosition = here }
        trip = running
    }

    /// How far, metres, and how long, seconds, after a departure a position may still be carried back to the spot.
    static let departureReach = 1000.0
    static let departureTime = 180.0
    /// Metres a vehicle may roll and stand again and still be at the spot it set off from.
    static let sameSpot = 25.0

    /// The vehicle left its spot without the speed saying so (a creep, an outage it moved across): a new stop
    /// begins here, and the trip's start, if it was still being averaged, is final.
    private mutating func leftSpot() {
        standing = nil
        settling = nil
        departure = nil
        startRefinable = false
        if trip != nil { departed = true }
    }

    /// The mean of the present stop's trusted positions while the vehicle stands (`nil` while it moves, or
    /// before a trusted position): where it is parked, and from how many fixes.
    public var standingPosition: PositionMean? { tracker.isMoving ? nil : standing }

    /// Where the vehicle stands now: the mean of the present stop, else the last trusted position.
    private var parkedPosition: Coordinate? { standing?.center ?? lastPosition }

    // MARK: - Time

    private mutating func checkTimers(now: MonotonicInstant, _ emit: (EngineEvent) -> Void) {
        guard let last = lastUsable else { return }
        let silence = now.seconds(since: last.at)
        if !fixLostReported && silence >= configuration.fixLossAfter {
            fixLostReported = true
            emit(.fixLost(since: last.time))
        }
        guard var running = trip, let stoppedAt = tracker.stationarySince, idleAlertedFor != stoppedAt else { return }
        // A stop that began before the trip counts from the trip's start.
        let since = max(stoppedAt, running.start ?? stoppedAt)
        let gpsNow = last.time.adding(seconds: max(0, silence))
        guard gpsNow.seconds(since: since) >= configuration.idleAlertAfter else { return }
        idleAlertedFor = stoppedAt
        let alert = IdleAlert(time: since.adding(seconds: configuration.idleAlertAfter), stationarySince: since,
                              position: parkedPosition, tripNumber: running.number)
        running.idleAlerts += 1
        trip = running
        lastIdleAlert = alert
        emit(.idle(alert))
    }

    // MARK: - Trips

    private mutating func startTrip(_ kind: TripKind, purpose: String?, at now: MonotonicInstant, number: TripID?,
                                    calibrationFactor: Double?, _ emit: (EngineEvent) -> Void) {
        if let trip {
            emit(.tripAlreadyRunning(trip))
            return
        }
        var started = Trip(number: number ?? nextTripNumber, kind: kind, purpose: purpose,
                           calibrationFactor: calibrationFactor ?? configuration.calibrationFactor, startedAt: now)
        nextTripNumber = TripID(max(nextTripNumber, started.number).rawValue + 1)
        // A fix in the last few seconds marks the start; otherwise the next usable fix will.
        if let last = lastUsable, now.seconds(since: last.at) <= configuration.gapAfter {
            started.start = last.time
            started.firstFixAt = last.at
            started.lastFixAt = last.at
            started.startPosition = tracker.isMoving ? lastPosition : parkedPosition
        }
        departed = tracker.isMoving
        startRefinable = false
        startError = started.startPosition == nil ? nil : (tracker.isMoving ? lastPositionError : standing?.error)
        startIsStopMean = !tracker.isMoving && standing != nil
        trip = started
        emit(.tripStarted(started))
        // The track begins where the trip does.
        if let start = started.start, let position = started.startPosition {
            emit(.trackPoint(TrackPoint(time: start, coordinate: position, speed: nil, error: lastPositionError,
                                        distance: 0)))
        }
    }

    private mutating func stopTrip(purpose: String?, at now: MonotonicInstant, _ emit: (EngineEvent) -> Void) {
        guard trip != nil else {
            emit(.noTripRunning)
            return
        }
        // An outage the trip ends in, before a trusted position came after it, still belongs to the trip.
        var motion: [MotionTracker.Event] = []
        tracker.closePendingGap { motion.append($0) }
        for event in motion { apply(event, emit) }
        guard var ended = trip else { return }
        tracker.discardUnconfirmed()
        if let purpose { ended.purpose = purpose }
        ended.endedAt = now
        trip = nil
        emit(.tripEnded(ended))
    }
}
