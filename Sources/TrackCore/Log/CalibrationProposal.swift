/// A calibration factor proposed from the car's own odometer: the kilometres it counted over the last GPS trips it
/// started and ended (OBD-II PID A6), against the kilometres GPS measured over the same trips.
///
/// Proposed, not applied: the factor turns GPS kilometres into logged ones for every trip without the car's
/// readings, so the driver accepts it (`trackctl odometer calibrate`), and the history says whose it was.
public struct CalibrationProposal: Sendable, Hashable, Codable {
    /// One GPS trip the car's odometer started and ended.
    public struct Trip: Sendable, Hashable {
        public var id: TripID
        /// The car's odometer at its end minus at its start, metres.
        public var odometer: Double
        /// What GPS measured, metres (uncalibrated).
        public var measured: Double

        public init(id: TripID, odometer: Double, measured: Double) {
            self.id = id
            self.odometer = odometer
            self.measured = measured
        }
    }

    /// Why there is no proposal.
    public enum Withheld: Error, Sendable, Hashable {
        /// Not enough kilometres of such trips yet.
        case tooFewKilometres(measured: Double)
        /// The car and GPS differ by more than a calibration error can explain.
        case implausible(factor: Double)

        /// For people, distances in `unit`.
        public func description(in unit: DistanceUnit) -> String {
            switch self {
            case .tooFewKilometres(let measured):
                return "only \(unit.text(metres: measured)) of trips with the car's odometer at both ends "
                    + "(at least \(unit.text(metres: CalibrationProposal.minimumMeasured)) are needed)"
            case .implausible(let factor):
                let percent: Double = ((factor - 1) * 1000).rounded() / 10
                return "the car's odometer and GPS differ by \(percent) % over the last trips, more than the 10 % a "
                    + "calibration error can explain"
            }
        }
    }

    /// GPS kilometres the proposal needs at least, metres (the odometer's 0.1 km is then 0.5 % at most).
    public static let minimumMeasured = 20_000.0
    /// Trips it looks at, the newest first.
    public static let maximumTrips = 50

    /// The factor: the car's kilometres over GPS's, to four decimals.
    public var factor: Double
    /// The car's kilometres and GPS's over the trips, metres.
    public var odometer: Double
    public var measured: Double
    /// How many trips, and the first and last of them.
    public var trips: Int
    public var firstTrip: TripID
    public var lastTrip: TripID

    public init(factor: Double, odometer: Double, measured: Double, trips: Int, firstTrip: TripID, lastTrip: TripID) {
        self.factor = factor
        self.odometer = odometer
        self.measured = measured
        self.trips = trips
        self.firstTrip = firstTrip
        self.lastTrip = lastTrip
    }

    /// The proposal from `trips` (the newest `maximumTrips` of them count), or why there is none.
    public static func propose(from trips: [Trip]) -> Result<CalibrationProposal, Withheld> {
        let recent = trips.filter { $0.measured > 0 && $0.odometer >= 0 }.sorted { $0.id > $1.id }.prefix(maximumTrips)
        let measured = recent.reduce(0) { $0 + $1.measured }
        let odometer = recent.reduce(0) { $0 + $1.odometer }
        guard measured >= minimumMeasured, let first = recent.last, let last = recent.first else {
            return .failure(.tooFewKilometres(measured: measured))
        }
        let factor = odometer / measured
        guard (0.9...1.1).contains(factor) else { return .failure(.implausible(factor: factor)) }
        return .success(CalibrationProposal(factor: (factor * 10_000).rounded() / 10_000, odometer: odometer,
                                            measured: measured, trips: recent.count, firstTrip: first.id,
                                            lastTrip: last.id))
    }

    enum CodingKeys: String, CodingKey {
        case factor
        case odometer = "odometer_m"
        case measured = "measured_m"
        case trips
        case firstTrip = "first_trip"
        case lastTrip = "last_trip"
    }
}
