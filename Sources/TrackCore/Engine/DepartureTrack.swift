import RealModule

/// Where the vehicle went since it last stood, by the velocity the receiver reported (speed along its course,
/// integrated): to carry a good position taken after the departure back to the spot it left, when the spot itself
/// had no good one (a receiver still converging when the car drove off). Doppler velocity is accurate to a few
/// percent of the path even while the position is tens of metres off.
struct DepartureTrack: Sendable {
    /// When the vehicle last stood.
    let since: UTCTime
    private(set) var time: UTCTime
    /// Metres east and north of the spot.
    private(set) var east = 0.0
    private(set) var north = 0.0
    /// Metres driven since.
    private(set) var path = 0.0
    /// The last velocity, metres per second east and north.
    private var velocity = (east: 0.0, north: 0.0)

    /// A track from the spot the vehicle stands at, at `time`.
    init(at time: UTCTime) {
        since = time
        self.time = time
    }

    /// Takes the next velocity report (trapezoids between reports); `false` when it cannot (no speed or course, or a
    /// gap of more than `gapAfter` seconds): the track is lost then.
    mutating func advance(to time: UTCTime, speed: Double?, course: Double?, gapAfter: Double) -> Bool {
        let elapsed = time.seconds(since: self.time)
        guard let speed, let course, elapsed >= 0, elapsed <= gapAfter else { return false }
        let radians = course * .pi / 180
        let now = (east: speed * Double.sin(radians), north: speed * Double.cos(radians))
        east += (velocity.east + now.east) / 2 * elapsed
        north += (velocity.north + now.north) / 2 * elapsed
        path += (velocity.east + now.east).hypot(velocity.north + now.north) / 2 * elapsed
        velocity = now
        self.time = time
        return true
    }

    /// The spot, from a position taken now.
    func spot(from position: Coordinate) -> Coordinate {
        Geodesic.point(east: -east, north: -north, from: position)
    }
}

extension Double {
    /// The length of the vector (self, other).
    fileprivate func hypot(_ other: Double) -> Double { (self * self + other * other).squareRoot() }
}
