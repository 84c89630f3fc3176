import TrackCore

/// A trip found open when the daemon starts: what a power cut left behind.
public struct OpenTrip: Sendable, Hashable {
    public var trip: LogTrip
    /// The first and the last stored point, if any was stored.
    public var first: RecordedPoint?
    public var last: RecordedPoint?
    public var points: Int

    /// How far the last stored point may lie from the row's end, metres, for that end to be the stop the trip was
    /// cut in: a car that stands stores another point only once it has drifted the recorder's standing spacing
    /// (25 m), so a last point further away was stored after the car had left that stop.
    public static let sameStop = 30.0

    /// Where the trip started: the spot of the stop it started in, as the row kept it, else its first point.
    public var startPosition: Coordinate? { trip.startPosition ?? first?.point.coordinate }

    /// Where the trip was cut: the spot of the stop the car stood in, as the row kept it, when the last stored
    /// point is in that stop; else the last stored point (the car was moving, or the row kept no end).
    public var endPosition: Coordinate? {
        guard let last = last?.point.coordinate else { return trip.endPosition }
        guard let parked = trip.endPosition, Geodesic.distance(from: parked, to: last) <= OpenTrip.sameStop else {
            return last
        }
        return parked
    }

    public init(trip: LogTrip, first: RecordedPoint?, last: RecordedPoint?, points: Int) {
        self.trip = trip
        self.first = first
        self.last = last
        self.points = points
    }
}
