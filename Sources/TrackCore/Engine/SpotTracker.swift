import RealModule

/// Where the vehicle stands, and where it stood before it left: for each stop, the robust mean of the stop's own
/// positions and of the positions taken within `window` before the vehicle arrived or after it left (on the way
/// and at the stops on it, a red light included), carried to the spot along the velocity the receiver reported
/// (its Doppler speed and course, integrated).
///
/// A receiver's position error wanders over half a minute to a few minutes; a stop of twenty seconds holds one
/// draw of it, and its mean keeps the whole error. The five minutes of driving before and after hold several more
/// draws, and Doppler velocity carries them to the spot to a metre or two: the same spot, measured many times
/// over. A position held back by the gate while the receiver converges counts for a stop without a trusted
/// one (a receiver that starts in a street canyon); a multipath jump is left out by the robust mean.
struct SpotTracker: Sendable {
    /// Seconds before an arrival and after a departure whose positions are carried to the spot.
    static let window = 300.0
    /// Metres of path beyond which a position is no longer carried.
    static let reach = 2000.0
    /// Positions of a stop kept one by one for the robust mean, one a second at most; a longer stop's own mean
    /// speaks for itself. Positions carried to a stop are taken one a second at most too: a 10 Hz receiver's
    /// positions within a second are one draw of its error, and the robust mean is then worked out once a second,
    /// not at every fix.
    static let keptPositions = 300
    /// Seconds between positions kept one by one.
    static let keptSpacing = 1.0

    /// A stop: its own positions (trusted, else held back while converging) and those carried to it.
    struct Stop: Sendable {
        /// The mean of its trusted positions, and of those held back while the receiver converged.
        private(set) var trusted: PositionMean?
        private(set) var held: PositionMean?
        private var trustedPoints: [Coordinate] = []
        private var heldPoints: [Coordinate] = []
        private var lastKept: (trusted: UTCTime?, held: UTCTime?)
        /// Positions taken before the arrival or after the departure, carried to the spot.
        private var carried: [Coordinate] = []
        private var lastCarried: UTCTime?
        /// Where the vehicle stands or stood: the robust mean of the stop's kept positions and the carried ones (a
        /// stop of more than `keptPositions` kept positions: its own mean); `nil` when nothing says. Worked out when
        /// a position is kept or carried.
        private(set) var spot: Coordinate?

        mutating func include(trusted position: Coordinate?, held: Coordinate?, at time: UTCTime) {
            if let position {
                if trusted == nil { trusted = PositionMean(position) } else { trusted?.include(position) }
                if Self.due(lastKept.trusted, time), trustedPoints.count < SpotTracker.keptPositions {
                    trustedPoints.append(position)
                    lastKept.trusted = time
                    refresh()
                }
            } else if let held {
                if self.held == nil { self.held = PositionMean(held) } else { self.held?.include(held) }
                if Self.due(lastKept.held, time), heldPoints.count < SpotTracker.keptPositions {
                    heldPoints.append(held)
                    lastKept.held = time
                    refresh()
                }
            }
            if long { spot = own?.center }
        }

        /// Takes a position carried to the spot (one a second at most).
        mutating func carry(_ position: Coordinate, at time: UTCTime) {
            guard Self.due(lastCarried, time) else { return }
            carried.append(position)
            lastCarried = time
            refresh()
        }

        /// The stop's own mean: of its trusted positions, else of those held back.
        var own: PositionMean? { trusted ?? held }

        /// Whether the stop has kept as many positions as it keeps: its own mean is its spot.
        private var long: Bool { (trusted != nil ? trustedPoints : heldPoints).count >= SpotTracker.keptPositions }

        private mutating func refresh() {
            spot = long ? own?.center : SpotTracker.robustMean((trusted != nil ? trustedPoints : heldPoints) + carried)
        }

        private static func due(_ last: UTCTime?, _ time: UTCTime) -> Bool {
            last.map { time.seconds(since: $0) >= SpotTracker.keptSpacing } ?? true
        }
    }

    /// The velocity integrated so far: metres east and north, the path, and the last velocity report.
    private struct Reckoning: Sendable {
        var time: UTCTime
        var east = 0.0
        var north = 0.0
        var path = 0.0
        var velocity = (east: 0.0, north: 0.0)
    }

    /// A position taken while moving, with the reckoning when it was taken.
    private struct Taken: Sendable {
        var coordinate: Coordinate
        var time: UTCTime
        var east: Double
        var north: Double
    }

    private var reckoning: Reckoning?
    /// The reckoning at the last fix at rest: where a departure begins.
    private var lastRest: Reckoning?
    /// Trusted positions taken while moving within the last `window`.
    private var recent: [Taken] = []
    /// The present stop (empty while moving).
    private(set) var stop = Stop()
    /// The stop left last, while positions are still carried back to it, and the reckoning when it was left.
    private(set) var left: Stop?
    private var leftAt: Reckoning?

    /// Metres driven since the vehicle left its last stop (`nil` when the velocity was lost on the way).
    var pathSinceDeparture: Double? {
        guard let leftAt, let reckoning else { return nil }
        return reckoning.path - leftAt.path
    }

    /// Takes a fix: its trusted position, or the one the gate holds back while converging, and its velocity. A
    /// position that is not `carriable` (a 2D fix, whose assumed altitude skews it) counts only for its own stop.
    mutating func take(at time: UTCTime, trusted: Coordinate?, held: Coordinate?, speed: Double?, course: Double?,
                       resting: Bool, carriable: Bool = true, gapAfter: Double) {
        advance(to: time, speed: resting ? 0 : speed, course: course, gapAfter: gapAfter)
        if resting {
            lastRest = reckoning
            stop.include(trusted: trusted, held: held, at: time)
        }
        if let leftAt, let reckoning,
           time.seconds(since: leftAt.time) > Self.window || reckoning.path - leftAt.path > Self.reach {
            left = nil
        }
        guard let trusted, carriable, let reckoning else { return }
        if recent.last.map({ time.seconds(since: $0.time) >= Self.keptSpacing }) ?? true {
            recent.append(Taken(coordinate: trusted, time: time, east: reckoning.east, north: reckoning.north))
        }
        while let first = recent.first, time.seconds(since: first.time) > Self.window { recent.removeFirst() }
        if let leftAt, left != nil {
            left?.carry(Geodesic.point(east: leftAt.east - reckoning.east, north: leftAt.north - reckoning.north,
                                       from: trusted), at: time)
        }
    }

    /// The vehicle stopped: a new stop begins, with the positions of the last `window` carried to it (those taken
    /// on the way and at the stops before).
    mutating func arrived() {
        stop = Stop()
        guard let reckoning else { return }
        for taken in recent {
            stop.carry(Geodesic.point(east: reckoning.east - taken.east, north: reckoning.north - taken.north,
                                      from: taken.coordinate), at: taken.time)
        }
    }

    /// The vehicle drove off: the stop it left waits for the positions carried back to it, unless `keepingLeft`
    /// and the stop left before still waits for them (a red light after the spot a trip set off from).
    mutating func departed(keepingLeft: Bool = false) {
        if !(keepingLeft && left != nil) {
            left = stop
            leftAt = lastRest ?? reckoning
        }
        stop = Stop()
    }

    /// The vehicle left its spot without driving off (a creep, an outage it moved across): nothing before is
    /// connected to where it is now.
    mutating func lostSpot() {
        stop = Stop()
        left = nil
        leftAt = nil
        recent.removeAll()
    }

    /// Integrates the velocity (trapezoids between reports); without speed or course, or across a gap, the
    /// reckoning starts afresh and nothing taken before can be carried any more.
    private mutating func advance(to time: UTCTime, speed: Double?, course: Double?, gapAfter: Double) {
        guard let speed, speed == 0 || course != nil else {
            lose(at: time)
            return
        }
        let radians = (course ?? 0) * .pi / 180
        let velocity = speed == 0 ? (east: 0.0, north: 0.0) : (east: speed * Double.sin(radians), north: speed * Double.cos(radians))
        guard var current = reckoning else {
            reckoning = Reckoning(time: time, velocity: velocity)
            return
        }
        let elapsed = time.seconds(since: current.time)
        guard elapsed >= 0, elapsed <= gapAfter else {
            lose(at: time)
            reckoning?.velocity = velocity
            return
        }
        let east = (current.velocity.east + velocity.east) / 2
        let north = (current.velocity.north + velocity.north) / 2
        current.east += east * elapsed
        current.north += north * elapsed
        current.path += (east * east + north * north).squareRoot() * elapsed
        current.velocity = velocity
        current.time = time
        reckoning = current
    }

    private mutating func lose(at time: UTCTime) {
        reckoning = Reckoning(time: time)
        lastRest = nil
        recent.removeAll()
        left = nil
        leftAt = nil
    }

    /// The mean of `points` without the outliers (a multipath jump): those further from the component-wise median
    /// than three times the median distance to it, and two metres.
    static func robustMean(_ points: [Coordinate]) -> Coordinate? {
        guard let origin = points.first else { return nil }
        let offsets = points.map { Geodesic.offset(of: $0, from: origin) }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
        }
        let center = (east: median(offsets.map(\.east)), north: median(offsets.map(\.north)))
        let distances = offsets.map { (($0.east - center.east) * ($0.east - center.east)
                                       + ($0.north - center.north) * ($0.north - center.north)).squareRoot() }
        let limit = 3 * median(distances) + 2
        var sum = (east: 0.0, north: 0.0)
        var count = 0.0
        for (offset, distance) in zip(offsets, distances) where distance <= limit {
            sum.east += offset.east
            sum.north += offset.north
            count += 1
        }
        guard count > 0 else { return nil }
        return Geodesic.point(east: sum.east / count, north: sum.north / count, from: origin)
    }
}
