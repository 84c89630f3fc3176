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
