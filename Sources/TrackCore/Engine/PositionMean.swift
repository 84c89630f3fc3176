/// The mean of the trusted positions taken while the vehicle stands: where it is parked. Unlike `ParkedSpot`, which
/// fixes itself after a few positions to judge movement, this takes every position of the stop, so that the
/// receiver's slowly wandering error averages out over a long stop. Offsets from the first position are averaged
/// on the local plane (a stop spans metres, not kilometres).
public struct PositionMean: Sendable, Hashable {
    private let origin: Coordinate
    private var east = 0.0
    private var north = 0.0
    /// How many positions went into the mean.
    public private(set) var count = 1
    /// The mean of the error estimates given with the positions (95 %, metres); `nil` when none was. A receiver's
    /// error is correlated over minutes, so the mean position is not much better than this.
    public private(set) var error: Double?
    private var errors = 0

    /// A mean of one position.
    public init(_ first: Coordinate, error: Double? = nil) {
        origin = first
        note(error)
    }

    /// The mean of some positions; `nil` for none.
    public init?(of positions: some Sequence<Coordinate>) {
        var iterator = positions.makeIterator()
        guard let first = iterator.next() else { return nil }
        self.init(first)
        while let next = iterator.next() { include(next) }
    }

    /// The mean position.
    public var center: Coordinate { Geodesic.point(east: east, north: north, from: origin) }

    /// Takes another position into the mean.
    public mutating func include(_ coordinate: Coordinate, error: Double? = nil) {
        let offset = Geodesic.offset(of: coordinate, from: origin)
        count += 1
        east += (offset.east - east) / Double(count)
        north += (offset.north - north) / Double(count)
        note(error)
    }

    private mutating func note(_ value: Double?) {
        guard let value, value.isFinite else { return }
        errors += 1
        error = (error ?? 0) + (value - (error ?? 0)) / Double(errors)
    }
}
