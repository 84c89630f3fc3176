/// An outage waiting to be bridged.
struct PendingGap: Sendable {
    var start: UTCTime
    var end: UTCTime
    var from: (coordinate: Coordinate, error: Double)?
    var speedBefore: Double?
    var speedAfter: Double?
    var parkedSince: UTCTime?
    /// Course while moving on either side of the gap, degrees.
    var courseBefore: Double?
    var courseAfter: Double?
    /// Metres the car's own speed gives for the outage, where its readings cover it.
    var carDistance: Double?
    /// Distance integrated since the outage ended, before a trusted position arrived.
    var travelledSinceEnd = 0.0
    /// The drive before the trip's first fix, from where the car was parked (`GapReport.beforeFirstFix`).
    var beforeFirstFix = false
}
