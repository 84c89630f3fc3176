import RealModule

/// Outages: a stretch without usable fixes (a tunnel), counted by the car's own speed where an OBD-II adapter read
/// it throughout, else bridged by the straight line lengthened by the curve its change of course implies, or
/// explained (parked, or not enough to go on).
extension MotionTracker {
    mutating func openGap(endingWith sample: Sample, _ emit: (Event) -> Void) {
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
        gap.carDistance = sample.carDistance
        gap.beforeFirstFix = nextGapBeforeFirstFix
        nextGapBeforeFirstFix = false
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

    /// Counts or bridges the pending outage with the first trusted position after it (or without one, `nil`: the
    /// car's speed still counts, else it gives up).
    mutating func resolveGap(at sample: Sample?, _ emit: (Event) -> Void) {
        guard let gap = pendingGap else { return }
        pendingGap = nil
        let duration = gap.end.seconds(since: gap.start)
        var report = GapReport(start: gap.start, end: gap.end, duration: duration)
        report.carSpeedDistance = gap.carDistance
        report.beforeFirstFix = gap.beforeFirstFix
        var straight: Double?
        var allowed = configuration.minDisplacement
        if let sample, let after = sample.coordinate, let before = gap.from {
            straight = max(0, Geodesic.distance(from: before.coordinate, to: after) - gap.travelledSinceEnd)
            allowed = max(allowed, configuration.displacementErrors * (before.error + (sample.error ?? 0)))
        }
        report.straightLine = straight
        if let car = gap.carDistance {
            if car >= (straight ?? 0) - allowed {
                // The car's speed says how far it went: a curved tunnel, a car park's ramps, or nothing at all.
                if car < configuration.confirmationDistance && (straight ?? 0) <= allowed {
                    report.outcome = .parked
                    if let since = gap.parkedSince, case .stationary = state { state = .stationary(since: since) }
                } else {
                    report.outcome = .carSpeed
                    report.distance = car
                    commit(car, emit)
                }
                emit(.gap(report))
                return
            }
            // Less than the straight line across: the readings were not this car's drive (a stale link); the
            // positions decide.
            report.note = "the car's speed gave \(Int(car.rounded())) m, less than the straight line"
        }
        guard let straight else {
            report.outcome = .notBridged
            report.note = gap.from == nil ? "no trusted position before the outage" : "no trusted position after it"
            emit(.gap(report))
            return
        }
        let impliedSpeed = straight / max(duration, 0.1)
        let slow = (gap.speedBefore ?? 0) < configuration.movingSpeed && (gap.speedAfter ?? 0) < configuration.movingSpeed
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
