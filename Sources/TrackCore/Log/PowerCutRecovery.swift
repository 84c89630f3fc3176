/// What to do with a trip a power cut left open, decided at the first usable fix after the restart.
///
/// The board loses power with the ignition and may have no real-time clock, so the length of the interruption is
/// only known from GPS time: the last stored point's time against the first new fix's. A short interruption (the
/// voltage dip of cranking the engine, a stall, the ignition off for a minute) continues the trip, bridging the
/// interruption with the straight line between the two positions; a longer one, or a jump no vehicle could have
/// made, ends the trip at its last stored point.
public struct PowerCutRecovery: Sendable, Hashable {
    /// The longest interruption that continues a trip, seconds.
    public var resumeWithin: Double
    /// The fastest plausible vehicle, m/s (a jump faster than this ends the trip).
    public var maxSpeed: Double
    /// Below this many metres (or the two positions' combined error, if larger) the vehicle stood still.
    public var parkedDistance: Double

    public init(resumeWithin: Double = 300, maxSpeed: Double = 70, parkedDistance: Double = 30) {
        self.resumeWithin = resumeWithin
        self.maxSpeed = maxSpeed
        self.parkedDistance = parkedDistance
    }

    /// The decision.
    public enum Decision: Sendable, Hashable {
        /// Carry on; the interruption is bridged as `gap` (its distance is added to the trip).
        case resume(gap: GapReport)
        /// Close the trip at its last stored point, for this reason (one sentence).
        case close(reason: String)
    }

    /// Decides from the last stored point of the trip and the first usable fix after the restart.
    public func decide(lastPoint: TrackPoint?, time: UTCTime, coordinate: Coordinate, error: Double?) -> Decision {
        guard let lastPoint else {
            return .close(reason: "no position had been stored for the trip before the power was cut")
        }
        let seconds = time.seconds(since: lastPoint.time)
        guard seconds >= 0 else {
            return .close(reason: "the first fix after the restart is older than the trip's last point")
        }
        guard seconds <= resumeWithin else {
            return .close(reason: "the power was off for \(Int(seconds.rounded())) s, longer than the "
                          + "\(Int(resumeWithin)) s within which a trip carries on")
        }
        let metres = Geodesic.distance(from: lastPoint.coordinate, to: coordinate)
        let noise = max(parkedDistance, (lastPoint.error ?? 0) + (error ?? 0))
        guard metres <= maxSpeed * seconds + noise else {
            return .close(reason: "the vehicle is \(Int(metres.rounded())) m from the trip's last point after "
                          + "\(Int(seconds.rounded())) s, farther than a vehicle can go")
        }
        var gap = GapReport(start: lastPoint.time, end: time, duration: seconds)
        gap.straightLine = metres
        if metres <= noise {
            gap.outcome = .parked
        } else {
            gap.outcome = .straightLine
            gap.distance = metres
        }
        gap.note = "power cut"
        return .resume(gap: gap)
    }
}
