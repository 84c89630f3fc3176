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
    /// Where the vehicle stands, and where it stood before it left (`SpotTracker`).
    private var spots = SpotTracker()
    /// Whether the vehicle has left the spot the running trip started at (its start is no longer the stop's mean).
    private var departed = false
    /// Whether a better start can still come from the positions carried back to the spot the trip left.
    private var startRefinable = false
    /// The car's speed since the last usable fix, for the distance through an outage.
    private var carSpeeds = CarSpeedTrace()
    /// Where the car stood before the running trip's first fix, until that fix (`EngineInput.parkedBefore`).
    private var parkedOrigin: ParkedOrigin?
    /// The spot the drive before the first fix is bridged from, until the bridge is decided.
    private var bridgedFrom: ParkedOrigin?

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
        case .carSpeed(let speed, let at):
            carSpeeds.add(speed, at: at)
        case .tick(let now):
            checkTimers(now: now, emit)
        case .startTrip(let kind, let purpose, let at, let number, let factor, let measuredSince):
            startTrip(kind, purpose: purpose, at: at, number: number, calibrationFactor: factor,
                      measuredSince: measuredSince, emit)
        case .parkedBefore(let origin):
            if lastUsable == nil, trip != nil, trip?.start == nil { parkedOrigin = origin }
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
        case .stopTrip(let purpose, let at, let atStandstill):
            stopTrip(purpose: purpose, at: at, atStandstill: atStandstill, emit)
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
        if let origin = parkedOrigin {
            parkedOrigin = nil
            assumeParked(at: origin, firstFix: time, arrivedAt: now)
        }
        if fixLostReported, let last = lastUsable {
            fixLostReported = false
            emit(.fixRegained(at: time, after: now.seconds(since: last.at)))
        }
        // An outage ends with this fix: what the car's speed says it drove meanwhile, if it covers the outage.
        var carDistance: Double?
        if let last = lastUsable, time.seconds(since: last.time) > configuration.gapAfter {
            carDistance = carSpeeds.distance(from: outageStart(last, endingAt: time, arrivedAt: now), to: now,
                                             interval: configuration.carSpeedInterval)
        }
        // (Kept a little further back than this fix: the next outage's start may lie before its arrival.)
        carSpeeds.forget(before: now.adding(seconds: -configuration.carSpeedInterval))
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

        // Held back only while the receiver converges, and not beyond the error no position may have.
        let held = verdict.positionRejection == .converging && (fix.eph ?? .infinity) <= configuration.maxHorizontalError
            ? fix.coordinate : nil
        let sample = MotionTracker.Sample(
            time: time, coordinate: trusted, error: fix.eph,
            speed: verdict.speedRejection == nil ? fix.speed : nil, course: fix.track, carDistance: carDistance,
            held: held)
        var motion: [MotionTracker.Event] = []
        tracker.add(sample) { motion.append($0) }
        for event in motion { apply(event, emit) }
        // No drive before the first fix to bridge (the fix came within seconds of power-on): the spot is done with.
        if bridgedFrom != nil, !tracker.bridgesFromParked { bridgedFrom = nil }
        place(trusted, held: held, speed: sample.speed, course: fix.track, threeD: fix.mode == .threeD, at: time)

        if let trusted, let running = trip {
            emit(.trackPoint(TrackPoint(time: time, coordinate: trusted, speed: sample.speed, error: fix.eph,
                                        distance: running.measuredDistance)))
        }
        checkTimers(now: now, emit)
    }

    /// Where on the monotonic clock an outage from the usable fix `last` to the fix of GPS time `end` that arrived
    /// `arrived` began, for the car's speeds: as long before `arrived` as the outage lasted by GPS time, not at
    /// `last`'s own arrival, which a fix that came late (a stalled reader, a busy board) puts later and so shortens
    /// the stretch the speeds are integrated over. An arrival more than `carSpeedInterval` off (the receiver's
    /// clock jumped) keeps `last`'s arrival.
    private func outageStart(_ last: (time: UTCTime, at: MonotonicInstant), endingAt end: UTCTime,
                             arrivedAt arrived: MonotonicInstant) -> MonotonicInstant {
        let duration = end.seconds(since: last.time)
        let elapsed = arrived.seconds(since: last.at)
        return abs(duration - elapsed) <= configuration.carSpeedInterval ? arrived.adding(seconds: -duration) : last.at
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
            spots.departed(keepingLeft: startRefinable)
            emit(.startedMoving(time))
        case .stopped(let time):
            spots.arrived()
            emit(.stopped(time))
        case .displaced(let time, let metres):
            leftSpot()
            emit(.displaced(time, metres: metres))
        case .gap(let report):
            if report.beforeFirstFix {
                startAtParkedSpot(report, emit)
                // Still at the spot: nothing was driven before the first fix, and there was no outage to tell of.
                if report.outcome == .parked { return }
            }
            if report.distance > 0 { leftSpot() }
            if trip != nil { trip?.gaps.append(report) }
            emit(.gap(report))
        }
    }

    // MARK: - Before the first fix

    /// At the running trip's first usable fix: the car stood at `origin` and may have moved since the board was
    /// powered; the motion tracker takes that as its last position, so that the fix ends an outage from there (the
    /// drive while the board booted), bridged like any other. Not when the fix came too long after power-on, nor
    /// without a power-on after the car was last seen (a restart).
    /// (`parkedOrigin` is kept only for a running trip without a fix yet, and dropped when it stops.)
    private mutating func assumeParked(at origin: ParkedOrigin, firstFix time: UTCTime, arrivedAt now: MonotonicInstant) {
        guard let since = origin.movableSince(fixTime: time, arrivedAt: now), time > since,
              time.seconds(since: since) <= configuration.bridgeFromParkedWithin
        else { return }
        tracker.assumeParked(at: origin.coordinate, error: origin.error ?? 0, since: origin.time, lastSeen: since)
        bridgedFrom = origin
    }

    /// The drive before the first fix was decided: bridged, the trip starts where the car was parked, when it could
    /// first move (its track begins there, a segment of its own); parked or not bridged, it starts at its first fix.
    private mutating func startAtParkedSpot(_ report: GapReport, _ emit: (EngineEvent) -> Void) {
        guard let origin = bridgedFrom else { return }
        bridgedFrom = nil
        guard report.distance > 0, var running = trip else { return }
        running.start = report.start
        running.startPosition = origin.coordinate
        trip = running
        departed = true
        startRefinable = false
        emit(.trackPoint(TrackPoint(time: report.start, coordinate: origin.coordinate, speed: nil, error: origin.error,
                                    distance: max(0, running.measuredDistance - report.distance))))
    }

    // MARK: - Where the trip starts and ends

    /// Takes the fix's position into the spot tracker and moves the running trip's ends: the start is the spot of
    /// the stop the trip started in (`SpotTracker`: that stop's positions, and those of the `window` before the
    /// vehicle arrived, carried to it) until the vehicle leaves it, then that spot with the positions of the
    /// `window` after the departure carried back to it, through red lights on the way; the end is the spot of the
    /// present stop, or the last position while moving. A lost way (an outage, a creep) ends the carrying back; a
    /// roll of a few metres in the parking bay does not leave the spot.
    private mutating func place(_ trusted: Coordinate?, held: Coordinate?, speed: Double?, course: Double?,
                                threeD: Bool, at time: UTCTime) {
        let resting = !tracker.isMoving && (speed ?? 0) < configuration.movingSpeed
        // Standing again within a few metres of where it set off (a false start, a roll in the parking bay): the car
        // has not left the spot the trip started at.
        let rolled = resting && departed && startRefinable && (spots.pathSinceDeparture ?? .infinity) < Self.sameSpot
        spots.take(at: time, trusted: trusted, held: held, speed: speed, course: course,
                   resting: resting, carriable: threeD, gapAfter: configuration.gapAfter)
        guard var running = trip else { return }
        let here = tracker.isMoving ? trusted : (spots.stop.spot ?? trusted)
        if tracker.isMoving && !departed {
            departed = true
            startRefinable = true
        }
        if rolled {
            departed = false
            startRefinable = false
        }
        // The positions carried back to the trip's spot are done with (the window passed, the way was lost).
        if departed && spots.left == nil { startRefinable = false }
        if !departed {
            if let here { running.startPosition = here }
        } else if startRefinable, let spot = spots.left?.spot {
            running.startPosition = spot
        } else if running.startPosition == nil, let trusted {
            running.startPosition = trusted
        }
        if let here { running.endPosition = here }
        trip = running
    }

    /// Metres a vehicle may roll and stand again and still be at the spot it set off from.
    static let sameSpot = 8.0

    /// The vehicle left its spot without the speed saying so (a creep, an outage it moved across): a new stop
    /// begins here, and the trip's start, if it was still being averaged, is final.
    private mutating func leftSpot() {
        spots.lostSpot()
        startRefinable = false
        if trip != nil { departed = true }
    }

    /// Where the vehicle stands while it stands on trusted positions (`nil` while it moves, or before a trusted
    /// position of the stop): the spot of the present stop (`SpotTracker`).
    public var standingSpot: Coordinate? {
        guard !tracker.isMoving, spots.stop.trusted != nil else { return nil }
        return spots.stop.spot
    }

    /// Where the vehicle stands now: the spot of the present stop, else the last trusted position.
    private var parkedPosition: Coordinate? { spots.stop.spot ?? lastPosition }

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
                                    calibrationFactor: Double?, measuredSince: Double?, _ emit: (EngineEvent) -> Void) {
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
        // Asked earlier: what was driven since then is the trip's, and it starts at the spot the car left.
        if let measuredSince, distanceOutsideTrips > measuredSince {
            started.measuredDistance = distanceOutsideTrips - measuredSince
            distanceOutsideTrips = measuredSince
            if departed, let spot = spots.left?.spot {
                started.startPosition = spot
                startRefinable = true
            }
        }
        trip = started
        emit(.tripStarted(started))
        // The track begins where the trip does.
        if let start = started.start, let position = started.startPosition {
            emit(.trackPoint(TrackPoint(time: start, coordinate: position, speed: nil, error: lastPositionError,
                                        distance: 0)))
        }
    }

    private mutating func stopTrip(purpose: String?, at now: MonotonicInstant, atStandstill: Bool,
                                   _ emit: (EngineEvent) -> Void) {
        guard trip != nil else {
            emit(.noTripRunning)
            return
        }
        // An outage the trip ends in, before a trusted position came after it, still belongs to the trip.
        var motion: [MotionTracker.Event] = []
        tracker.closePendingGap { motion.append($0) }
        for event in motion { apply(event, emit) }
        let droveOn = countDriveIntoOutage(until: now, emit)
        guard var ended = trip else { return }
        parkedOrigin = nil
        bridgedFrom = nil
        tracker.discardUnconfirmed()
        if let purpose { ended.purpose = purpose }
        // At standstill: the moment the car came to rest, or the trip's start if it stood throughout.
        if atStandstill, !droveOn, !tracker.isMoving, let since = tracker.stationarySince, let end = ended.end, since < end {
            ended.end = max(since, ended.start ?? since)
        }
        ended.endedAt = now
        trip = nil
        emit(.tripEnded(ended))
    }

    /// A trip that ends in an outage (driven into a car park under a roof, stopped in a tunnel): the way from the last
    /// usable fix to where the car came to rest, counted by the car's speed where its readings cover it, as an
    /// outage counted so (outcome `car_speed`); the trip then ends when the car came to rest. Without such readings
    /// the trip ends at its last usable fix, as ever. Whether it counted one.
    private mutating func countDriveIntoOutage(until now: MonotonicInstant, _ emit: (EngineEvent) -> Void) -> Bool {
        guard trip != nil, let last = lastUsable, now.seconds(since: last.at) > configuration.gapAfter,
              let rest = carSpeeds.rest(after: last.at, until: now, interval: configuration.carSpeedInterval),
              rest.seconds(since: last.at) > configuration.gapAfter,
              let metres = carSpeeds.distance(from: last.at, to: rest, interval: configuration.carSpeedInterval),
              metres >= configuration.confirmationDistance
        else { return false }
        let seconds = rest.seconds(since: last.at)
        var report = GapReport(start: last.time, end: last.time.adding(seconds: seconds), duration: seconds)
        report.outcome = .carSpeed
        report.carSpeedDistance = metres
        report.distance = metres
        report.note = "the trip ended in it: counted by the car's speed until the car stood"
        var motion: [MotionTracker.Event] = []
        tracker.commit(metres, { motion.append($0) })
        for event in motion { apply(event, emit) }
        trip?.gaps.append(report)
        trip?.end = report.end
        emit(.gap(report))
        return true
    }
}
