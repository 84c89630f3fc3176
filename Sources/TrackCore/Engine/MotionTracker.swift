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
/// reports went the same way (a crawl). A moving vehicle stops when the speed falls below `stoppedSpeed`. A lone speed spike
/// or a multipath jump adds nothing.
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
    private(set) var state = State.unknown
    /// All distance committed so far (uncalibrated), metres.
    private(set) var distance = 0.0

    private var lastTime: UTCTime?
    private var lastSpeed: (time: UTCTime, value: Double)?
    /// The last course reported while clearly moving.
    private var lastCourse: (time: UTCTime, degrees: Double)?
    private var lastTrusted: (time: UTCTime, coordinate: Coordinate, error: Double)?
    /// Movement that is not confirmed yet: the distance it would add.
    private var candidate: (start: UTCTime, distance: Double, samples: Int)?
    /// The speeds reported while stationary (the last few), for the slow lead-in of a start.
    private var stationarySpeeds: [(time: UTCTime, speed: Double)] = []
    /// Mean square of the speeds reported at rest, and how many went into it: the receiver's rest noise.
    private var restMeanSquare = 0.0
    private var restSamples = 0
    /// Where the vehicle is parked (see `ParkedSpot`).
    private var anchor: ParkedSpot?
    private var displacedSince: UTCTime?
    /// The reported velocity (speed along the course) integrated since the vehicle stopped, metres east and north:
    /// where the Doppler says it went. At rest the courses are random and this stays near zero.
    private var dopplerDrift = (east: 0.0, north: 0.0)
    /// Without speed reports: the last position a step was counted to, and when.
    private var step: (coordinate: Coordinate, time: UTCTime)?
    /// An outage waiting for a trusted position after it.
    private var pendingGap: PendingGap?

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
        if let coordinate = sample.coordinate {
            lastTrusted = (sample.time, coordinate, sample.error ?? 0)
            if pendingGap != nil { resolveGap(at: sample, emit) }
        }
        if let course = sample.course, let speed = sample.speed, speed >= configuration.certainSpeed {
            lastCourse = (sample.time, course)
        }
        lastTime = sample.time
    }

    /// Drops movement that was never confirmed (a trip ends, the daemon stops).
    mutating func discardUnconfirmed() {
        candidate = nil
    }

    /// Reports an outage still waiting for a trusted position after it as not bridged (the trip ends first).
    mutating func closePendingGap(_ emit: (Event) -> Void) {
        resolveGap(at: nil, emit)
    }

    // MARK: - Continuous stretches

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

    /// The state machine on positions alone, for a receiver that reports no speed.
    private mutating func followPosition(_ sample: Sample, _ emit: (Event) -> Void) {
        guard let coordinate = sample.coordinate else { return }
        switch state {
        case .moving:
            let from = step ?? (coordinate, sample.time)
            let moved = Geodesic.distance(from: from.coordinate, to: coordinate)
            if moved >= max(5, sample.error ?? 0) {
                commit(moved, emit)
                step = (coordinate, sample.time)
            } else if sample.time.seconds(since: from.time) >= 20 {
                state = .stationary(since: from.time)
                anchor = ParkedSpot(coordinate, error: sample.error ?? 0)
                displacedSince = nil
                emit(.stopped(from.time))
            } else if step == nil {
                step = from
            }
        case .stationary, .unknown:
            if state == .unknown { stop(at: sample, emit) }
            if let moved = displacement(sample) {
                commit(moved.metres, emit)
                startMoving(at: moved.since, emit)
                step = (coordinate, sample.time)
            }
        }
    }

    /// While stationary with speed reports: a position that has left the parked spot for long enough is
    /// movement the speed threshold missed — if the reported velocity went the same way. A creeping car reports
    /// its crawl and its course; a parked receiver whose position wanders in a street canyon reports rest noise
    /// in random directions.
    private mutating func checkDisplacement(_ sample: Sample, increment: Double, _ emit: (Event) -> Void) {
        if let course = sample.course {
            let radians = course * .pi / 180
            dopplerDrift.east += increment * Double.sin(radians)
            dopplerDrift.north += increment * Double.cos(radians)
        }
        guard let moved = displacement(sample), let coordinate = sample.coordinate, let spot = anchor else { return }
        let offset = Geodesic.offset(of: coordinate, from: spot.center)
        let along = (dopplerDrift.east * offset.east + dopplerDrift.north * offset.north) / max(moved.metres, 1e-9)
        guard along >= moved.metres / 2 else {
            // The position wandered, the vehicle did not: take the spot afresh from here.
            anchor = ParkedSpot(coordinate, error: sample.error ?? 0)
            dopplerDrift = (0, 0)
            return
        }
        commit(moved.metres, emit)
        emit(.displaced(sample.time, metres: moved.metres))
        state = .stationary(since: sample.time)
        // It is creeping on: the next stretch is measured from here, without averaging behind it.
        anchor = ParkedSpot(coordinate, error: sample.error ?? 0, settled: true)
        dopplerDrift = (0, 0)
    }

    /// How far, and since when, the position has persistently left the parked spot; `nil` while it has not.
    private mutating func displacement(_ sample: Sample) -> (metres: Double, since: UTCTime)? {
        guard let coordinate = sample.coordinate else { return nil }
        let error = sample.error ?? 0
        guard var spot = anchor else {
            anchor = ParkedSpot(coordinate, error: error)
            return nil
        }
        let metres = Geodesic.distance(from: spot.center, to: coordinate)
        let allowed = max(configuration.minDisplacement, configuration.displacementErrors * (spot.error + error))
        guard metres > allowed else {
            displacedSince = nil
            spot.include(coordinate, error: error)
            anchor = spot
            return nil
        }
        let since = displacedSince ?? sample.time
        displacedSince = since
        guard sample.time.seconds(since: since) >= configuration.displacementPersistence else { return nil }
        displacedSince = nil
        return (metres, since)
    }

    private mutating func startMoving(at time: UTCTime, _ emit: (Event) -> Void) {
        state = .moving(since: time)
        stationarySpeeds.removeAll(keepingCapacity: true)
        anchor = nil
        displacedSince = nil
        emit(.startedMoving(time))
    }

    private mutating func stop(at sample: Sample, _ emit: (Event) -> Void) {
        state = .stationary(since: sample.time)
        dopplerDrift = (0, 0)
        stationarySpeeds.removeAll(keepingCapacity: true)
        if let speed = sample.speed { remember(speed, at: sample.time) }
        anchor = sample.coordinate.map { ParkedSpot($0, error: sample.error ?? 0) }
        displacedSince = nil
        step = nil
        emit(.stopped(sample.time))
    }

    private mutating func commit(_ metres: Double, _ emit: (Event) -> Void) {
        guard metres > 0 else { return }
        distance += metres
        emit(.distance(metres))
    }

    // MARK: - Outages

    private mutating func openGap(endingWith sample: Sample, _ emit: (Event) -> Void) {
        guard let start = lastTime else { return }
        if pendingGap != nil { resolveGap(at: nil, emit) }
        candidate = nil
        let speedBefore = lastSpeed.flatMap { start.seconds(since: $0.time) <= configuration.gapAfter ? $0.value : nil }
        let courseBefore = lastCourse.flatMap { start.seconds(since: $0.time) <= configuration.gapAfter ? $0.degrees : nil }
        var wasParkedSince: UTCTime?
        if case .stationary(let since) = state { wasParkedSince = since }
        var gap = PendingGap(
            start: start, end: sample.time, from: lastTrusted.map { ($0.coordinate, $0.error) },
            speedBefore: speedBefore, speedAfter: sample.speed, parkedSince: wasParkedSince)
        gap.courseBefore = courseBefore
        if let course = sample.course, (sample.speed ?? 0) >= configuration.certainSpeed { gap.courseAfter = course }
        pendingGap = gap
        lastSpeed = sample.speed.map { (sample.time, $0) }
        step = nil
        // After the outage, the state starts from what the first fix says.
        if let speed = sample.speed, speed >= configuration.movingSpeed {
            state = .moving(since: sample.time)
            anchor = nil
        } else {
            state = .stationary(since: sample.time)
            anchor = sample.coordinate.map { ParkedSpot($0, error: sample.error ?? 0) }
        }
        displacedSince = nil
        dopplerDrift = (0, 0)
    }

    /// Bridges the pending outage with the first trusted position after it (or gives up, with `nil`).
    private mutating func resolveGap(at sample: Sample?, _ emit: (Event) -> Void) {
        guard let gap = pendingGap else { return }
        pendingGap = nil
        let duration = gap.end.seconds(since: gap.start)
        var report = GapReport(start: gap.start, end: gap.end, duration: duration)
        guard let sample, let after = sample.coordinate, let before = gap.from else {
            report.outcome = .notBridged
            report.note = gap.from == nil ? "no trusted position before the outage" : "no trusted position after it"
            emit(.gap(report))
            return
        }
        let straight = max(0, Geodesic.distance(from: before.coordinate, to: after) - gap.travelledSinceEnd)
        report.straightLine = straight
        let impliedSpeed = straight / max(duration, 0.1)
        let slow = (gap.speedBefore ?? 0) < configuration.movingSpeed && (gap.speedAfter ?? 0) < configuration.movingSpeed
        let allowed = max(configuration.minDisplacement,
                          configuration.displacementErrors * (before.error + (sample.error ?? 0)))
        if slow && straight <= allowed {
            // Parked through the outage (a roof, a garage): nothing driven, and the stop goes on.
            report.outcome = .parked
            if let since = gap.parkedSince, case .stationary = state { state = .stationary(since: since) }
            emit(.gap(report))
            return
        }
        guard impliedSpeed <= configuration.maxSpeed else {
            report.outcome = .notBridged
            report.note = "the positions imply \(Int(impliedSpeed * 3.6)) km/h"
            emit(.gap(report))
            return
        }
        var metres = straight
        report.outcome = .straightLine
        if let before = gap.courseBefore, let after = gap.courseAfter {
            // The course turned by θ across the gap: on a steady curve the path is (θ/2) / sin(θ/2) times the
            // straight line — 1.1 % for 30°, 11 % for 90° — and never more than `maxBridgeCurvature`.
            var turn = abs(after - before).truncatingRemainder(dividingBy: 360)
            if turn > 180 { turn = 360 - turn }
            let half = turn / 2 * .pi / 180
            if half > 1e-6 {
                let factor = min(half / Double.sin(half), configuration.maxBridgeCurvature)
                metres = straight * factor
                report.outcome = .curve
            }
        }
        report.distance = metres
        commit(metres, emit)
        emit(.gap(report))
    }
}

/// An outage waiting to be bridged.
private struct PendingGap: Sendable {
    var start: UTCTime
    var end: UTCTime
    var from: (coordinate: Coordinate, error: Double)?
    var speedBefore: Double?
    var speedAfter: Double?
    var parkedSince: UTCTime?
    /// Course while moving on either side of the gap, degrees.
    var courseBefore: Double?
    var courseAfter: Double?
    /// Distance integrated since the outage ended, before a trusted position arrived.
    var travelledSinceEnd = 0.0
}

/// The parked spot: the mean of the first trusted positions after stopping (up to `settling` of them), then
/// fixed. Averaging takes out the position noise; fixing it keeps a slowly creeping vehicle from dragging the
/// spot along behind it.
struct ParkedSpot: Sendable {
    /// Positions averaged before the spot is fixed.
    static let settling = 30.0
    private let origin: Coordinate
    private var east = 0.0
    private var north = 0.0
    private var count = 1.0
    /// Mean error estimate of the positions taken in, metres.
    private(set) var error: Double

    init(_ coordinate: Coordinate, error: Double, settled: Bool = false) {
        origin = coordinate
        self.error = error
        if settled { count = ParkedSpot.settling }
    }

    /// The mean position.
    var center: Coordinate { Geodesic.point(east: east, north: north, from: origin) }

    mutating func include(_ coordinate: Coordinate, error: Double) {
        guard count < ParkedSpot.settling else { return }
        let offset = Geodesic.offset(of: coordinate, from: origin)
        count += 1
        east += (offset.east - east) / count
        north += (offset.north - north) / count
        self.error += (error - self.error) / count
    }
}
