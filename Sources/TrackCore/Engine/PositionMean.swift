/// The mean of positions taken at one spot (a stop, a parking place). Unlike `ParkedSpot`, which fixes itself after a
/// few positions to judge movement, this takes every position, so that the receiver's slowly wandering error
/// averages out over a long stop. Offsets from the first position are averaged on the local plane (a spot spans
/// metres, not kilometres).
public struct PositionMean: Sendable, Hashable {
    private let origin: Coordinate
    private var east = 0.0
    private var north = 0.0
    /// How many positions went into the mean.
    public private(set) var count = 1

    /// A mean of one position.
    public init(_ first: Coordinate) {
        origin = first
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
    public mutating func include(_ coordinate: Coordinate) {
        let offset = Geodesic.offset(of: coordinate, from: origin)
        count += 1
        east += (offset.east - east) / Double(count)
        north += (offset.north - north) / Double(count)
    }
}
