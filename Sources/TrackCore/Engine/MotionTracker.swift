import RealModule

/// Decides whether the vehicle stands or moves, and measures how far it went.
///
/// Distance comes from the receiver's Doppler speed, integrated over time (trapezoids between consecutive speed
/// reports): Doppler speed is accurate to about 0.1–0.2 m/s even where positions wander by tens of metres, and
/// integrating it gives the length of the path driven, curves included. Positions serve three purposes: to
/// notice movement that the speed misses (a car creeping in a queue), to bridge outages (tunnels: the straight
/// line, lengthened by the curve that the change of course across the outage implies), and as the distance
/// itself for a receiver that reports no speed.
///
/// Standing still is decided from the speed, not from summed jitter. A stationary vehicle starts moving only when
/// the speed stands out from the receiver's rest noise (at least `movingSpeed`) for `motionConfirmation` and adds
/// up to `confirmationDistance` (or reaches `certainSpeed`) — and then its slow lead-in counts too — or when its
/// position leaves the parked spot by more than the errors allow for `displacementPersistence` and the velocity it
/// reports went the same way (a crawl). A moving vehicle stops when the speed falls below `stoppedSpeed`. A lone
/// speed spike or a multipath jump adds nothing.
///
/// This file holds the speed's part; `MotionTracker+Positions` the parked spot and receivers without speed,
/// `MotionTracker+Outages` the bridging of outages. The state they share is internal to TrackCore for that reason.
struct MotionTracker: Sendable {
    /// One fix as far as the gate lets it through.
    struct Sample: Sendable {
        var time: UTCTime
        /// The position, if trusted.
        var coordinate: Coordinate?
        /// Its error estimate (95 %), metres.
        var error: Double?
        /// The reported speed, if accepted, m/s.
        var speed: Double?
        /// The reported course over ground, degrees (meaningful only while moving).
        var course: Double?
        /// After an outage: metres the car's own speed gives for it, where its readings cover it.
        var carDistance: Double?
        /// A position held back while the receiver converges, within the largest error any position may have: good
        /// enough to end the drive before the first fix (a few tens of metres on hundreds), not to be the track.
        var held: Coordinate?
    }

    /// What the tracker tells the engine.
    enum Event: Sendable {
        /// Metres added to the distance.
        case distance(Double)
        /// Movement confirmed, starting at this time.
        case startedMoving(UTCTime)
        /// Stationary from this time.
        case stopped(UTCTime)
        /// The position left the parked spot (creeping, or a receiver without speed): movement, counted as the
        /// displacement; a new stationary period starts.
        case displaced(UTCTime, metres: Double)
        /// An outage ended: bridged, or explained.
        case gap(GapReport)
    }

    enum State: Sendable, Equatable {
        case unknown
        case stationary(since: UTCTime)
        case moving(since: UTCTime)
    }

    var configuration: EngineConfiguration
    var state = State.unknown
    /// All distance committed so far (uncalibrated), metres.
    private(set) var distance = 0.0

    var lastTime: UTCTime?
    var lastSpeed: (time: UTCTime, value: Double)?
    /// The last course reported while clearly moving.
    var lastCourse: (time: UTCTime, degrees: Double)?
    var lastTrusted: (time: UTCTime, coordinate: Coordinate, error: Double)?
    /// Movement that is not confirmed yet: the distance it would add.
    var candidate: (start: UTCTime, distance: Double, samples: Int)?
    /// The speeds reported while stationary (the last few), for the slow lead-in of a start.
    private var stationarySpeeds: [(time: UTCTime, speed: Double)] = []
    /// Mean square of the speeds reported at rest, and how many went into it: the receiver's rest noise.
    private var restMeanSquare = 0.0
    private var restSamples = 0
    /// Where the vehicle is parked (see `ParkedSpot`).
    var anchor: ParkedSpot?
    var displacedSince: UTCTime?
    /// The reported velocity (speed along the course) integrated since the vehicle stopped, metres east and north:
    /// where the Doppler says it went. At rest the courses are random and this stays near zero.
    var dopplerDrift = (east: 0.0, north: 0.0)
    /// Without speed reports: the last position a step was counted to, and when.
    var step: (coordinate: Coordinate, time: UTCTime)?
    /// An outage waiting for a trusted position after it.
    var pendingGap: PendingGap?
    /// The next outage is the drive before the first fix (`assumeParked`).
    var nextGapBeforeFirstFix = false

    init(configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    /// Since when the vehicle stands still, if it does.
    var stationarySince: UTCTime? {
        if case .stationary(let since) = state { return since }
        return nil
    }

    /// Whether the vehicle is moving.
    var isMoving: Bool {
        if case .moving = state { return true }
        return false
    }

    /// Takes the next usable fix.
    mutating func add(_ sample: Sample, _ emit: (Event) -> Void) {
        if let last = lastTime, sample.time.seconds(since: last) > configuration.gapAfter {
            openGap(endingWith: sample, emit)
        } else {
            advance(sample, emit)
        }
        // Only the outage the first fix ends is the drive before it (a first fix within `gapAfter` ends none).
        nextGapBeforeFirstFix = false
        if let coordinate = sample.coordinate {
            lastTrusted = (sample.time, coordinate, sample.error ?? 0)
            if pendingGap != nil { resolveGap(at: sample, emit) }
        } else if pendingGap?.beforeFirstFix == true, let held = sample.held {
            // The drive before the first fix ends at the first position, even one still converging: waiting for a
            // trusted one would bridge the way driven meanwhile as a straight line, cutting its corners.
            var end = sample
            end.coordinate = held
            resolveGap(at: end, emit)
        }
        if let course = sample.course, let speed = sample.speed, speed >= configuration.certainSpeed {
            lastCourse = (sample.time, course)
        }
        lastTime = sample.time
    }

    /// Before any fix: the vehicle stood at `coordinate` from `since`, and was last known there at `lastSeen`; the next
    /// fix, if later than `gapAfter`, ends an outage from there (the drive before the first fix).
    mutating func assumeParked(at coordinate: Coordinate, error: Double, since: UTCTime, lastSeen: UTCTime) {
        guard lastTime == nil else { return }
        state = .stationary(since: since)
        lastTime = lastSeen
        lastTrusted = (lastSeen, coordinate, error)
        anchor = ParkedSpot(coordinate, error: error, settled: true)
        nextGapBeforeFirstFix = true
    }

    /// Whether the drive before the first fix still waits for a position to end it.
    var bridgesFromParked: Bool { pendingGap?.beforeFirstFix == true }

    /// Drops movement that was never confirmed (a trip ends, the daemon stops).
    mutating func discardUnconfirmed() {
        candidate = nil
    }

    /// Reports an outage still waiting for a trusted position after it as not bridged (the trip ends first).
    mutating func closePendingGap(_ emit: (Event) -> Void) {
        resolveGap(at: nil, emit)
    }

    // MARK: - Continuous stretches: the speed, integrated

    private mutating func advance(_ sample: Sample, _ emit: (Event) -> Void) {
        var increment = 0.0
        if let speed = sample.speed {
            if let last = lastSpeed, sample.time.seconds(since: last.time) <= configuration.gapAfter {
                increment = (last.value + speed) / 2 * sample.time.seconds(since: last.time)
            }
            lastSpeed = (sample.time, speed)
        }
        if pendingGap != nil { pendingGap?.travelledSinceEnd += increment }
        let speedReported = lastSpeed.map { sample.time.seconds(since: $0.time) <= configuration.gapAfter } ?? false
        if let speed = sample.speed {
            follow(speed: speed, increment: increment, sample, emit)
        } else if !speedReported {
            followPosition(sample, emit)
        }
    }

    /// The state machine on reported speed.
    private mutating func follow(speed: Double, increment: Double, _ sample: Sample, _ emit: (Event) -> Void) {
        switch state {
        case .moving:
            commit(increment, emit)
            if speed < configuration.stoppedSpeed { stop(at: sample, emit) }
        case .stationary, .unknown:
            guard speed >= startSpeed else {
                candidate = nil
                if state == .unknown { stop(at: sample, emit) }
                remember(speed, at: sample.time)
                checkDisplacement(sample, increment: increment, emit)
                return
            }
            var pending = candidate ?? (start: sample.time, distance: leadIn(), samples: 0)
            pending.distance += increment
            pending.samples += 1
            candidate = pending
            let sustained = pending.samples >= 2
                && sample.time.seconds(since: pending.start) >= configuration.motionConfirmation
                && pending.distance >= configuration.confirmationDistance
            if speed >= configuration.certainSpeed || sustained {
                commit(pending.distance, emit)
                candidate = nil
                startMoving(at: pending.start, emit)
            }
        }
    }

    /// The speed a stationary vehicle must reach to be taken as starting: `movingSpeed`, or more for a receiver
    /// whose speed is noisier at rest.
    private var startSpeed: Double {
        guard restSamples >= 20 else { return configuration.movingSpeed }
        return max(configuration.movingSpeed, configuration.restNoiseMargin * restMeanSquare.squareRoot())
    }

    /// Takes a speed reported at rest into the receiver's rest-noise estimate (the last few hundred weigh most).
    private mutating func noteRest(_ speed: Double) {
        restSamples += 1
        restMeanSquare += (speed * speed - restMeanSquare) / Double(min(restSamples, 300))
    }

    /// Keeps the last few speeds reported while stationary.
    private mutating func remember(_ speed: Double, at time: UTCTime) {
        noteRest(speed)
        if stationarySpeeds.count >= 16 { stationarySpeeds.removeFirst() }
        stationarySpeeds.append((time, speed))
    }

    /// The slow start before the speed first stood out: the stationary speeds just before it that were already at
    /// or above `stoppedSpeed`, integrated.
    private func leadIn() -> Double {
        var metres = 0.0
        var index = stationarySpeeds.count - 1
        while index > 0, stationarySpeeds[index].speed >= configuration.stoppedSpeed {
            let (earlier, later) = (stationarySpeeds[index - 1], stationarySpeeds[index])
            let elapsed = later.time.seconds(since: earlier.time)
            guard elapsed <= configuration.gapAfter else { break }
            metres += (earlier.speed + later.speed) / 2 * elapsed
            index -= 1
        }
        return metres
    }

    mutating func startMoving(at time: UTCTime, _ emit: (Event) -> Void) {
        state = .moving(since: time)
        stationarySpeeds.removeAll(keepingCapacity: true)
        anchor = nil
        displacedSince = nil
        emit(.startedMoving(time))
    }

    mutating func stop(at sample: Sample, _ emit: (Event) -> Void) {
        state = .stationary(since: sample.time)
        dopplerDrift = (0, 0)
        stationarySpeeds.removeAll(keepingCapacity: true)
        if let speed = sample.speed { remember(speed, at: sample.time) }
        anchor = sample.coordinate.map { ParkedSpot($0, error: sample.error ?? 0) }
        displacedSince = nil
        step = nil
        emit(.stopped(sample.time))
    }

    mutating func commit(_ metres: Double, _ emit: (Event) -> Void) {
        guard metres > 0 else { return }
        distance += metres
        emit(.distance(metres))
    }
}
