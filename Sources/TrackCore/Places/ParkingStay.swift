/// One time the car stood at a spot between trips: the end of one trip and/or the start of the next.
public struct ParkingStay: Sendable, Hashable {
    /// Where the car stood.
    public var position: Coordinate
    /// When the car arrived (the arriving trip's end), else when it left (the leaving trip's start).
    public var time: UTCTime?
    /// The trip that ended there, if one is known to.
    public var arrivedBy: TripID?
    /// The trip that started there, if one is known to.
    public var leftBy: TripID?

    /// A stay at `position`; what is not given is unknown.
    public init(position: Coordinate, time: UTCTime? = nil, arrivedBy: TripID? = nil, leftBy: TripID? = nil) {
        self.position = position
        self.time = time
        self.arrivedBy = arrivedBy
        self.leftBy = leftBy
    }

    /// Whether `a` comes before `b` in the canonical order: time, then `arrivedBy`, then `leftBy`, then latitude,
    /// then longitude, an unknown one first. Coordinates compare in IEEE 754's total order, so that the order is
    /// strict even for values `<` cannot rank (a NaN). Two stays neither of which comes first are equal.
    static func canonicallyPrecedes(_ a: ParkingStay, _ b: ParkingStay) -> Bool {
        if a.time != b.time { return precedes(a.time, b.time) }
        if a.arrivedBy != b.arrivedBy { return precedes(a.arrivedBy, b.arrivedBy) }
        if a.leftBy != b.leftBy { return precedes(a.leftBy, b.leftBy) }
        return precedes(a.position.latitude, b.position.latitude)
            ?? precedes(a.position.longitude, b.position.longitude) ?? false
    }

    /// Whether `a` comes before `b` in IEEE 754's total order; `nil` when they are the same value.
    static func precedes(_ a: Double, _ b: Double) -> Bool? {
        if !a.isTotallyOrdered(belowOrEqualTo: b) { return false }
        if !b.isTotallyOrdered(belowOrEqualTo: a) { return true }
        return nil
    }

    /// `a < b` with an unknown value first.
    private static func precedes<Value: Comparable>(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case let (a?, b?): a < b
        case (nil, _?): true
        default: false
        }
    }
}
