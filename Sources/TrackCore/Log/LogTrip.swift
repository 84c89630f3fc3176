/// One entry of the mileage log, as stored and reported. Distances and odometer readings are metres inside,
/// kilometres in JSON (`odometer_start`, `odometer_end`); times are GPS time (UTC).
public struct LogTrip: Sendable, Hashable, Identifiable {
    /// The permanent number of the entry in the log.
    public var id: TripID
    public var kind: TripKind
    public var purpose: String?
    public var customer: String?
    public var destination: String?
    /// A private trip between home and the regular place of work (the Fahrtenbuch's "Wege zwischen Wohnung und
    /// erster Tätigkeitsstätte"; ordinary commuting in the UK and the US). Only a private trip is one.
    public var commute: Bool
    /// A detour from the direct way and why (the Fahrtenbuch's "Umwege"), as the driver wrote it.
    public var detour: String?
    public var source: TripSource
    public var state: TripState
    /// The trip's calendar date in the log's time zone (for GPS trips, the date it started).
    public var date: CivilDate?
    /// When the trip began and ended (GPS time for recorded trips).
    public var start: UTCTime?
    public var end: UTCTime?
    public var startPosition: Coordinate?
    public var endPosition: Coordinate?
    /// The named places the trip started and ended at, when it did (docs/places.md).
    public var startPlace: TripPlace?
    public var endPlace: TripPlace?
    /// The odometer at the start and at the end, metres; `nil` while the log has no odometer reading yet.
    public var odometerStart: Double?
    public var odometerEnd: Double?
    /// Where each came from (the car, a dashboard reading, the GPS distance); `nil` in entries from before trackd
    /// recorded it.
    public var odometerStartSource: OdometerSource?
    public var odometerEndSource: OdometerSource?
    /// The distance as logged (calibrated for GPS trips), metres.
    public var distance: Double
    /// GPS trips: the distance as measured, before calibration, metres.
    public var measuredDistance: Double?
    /// GPS trips: the calibration factor applied (logged = measured × factor).
    public var calibrationFactor: Double?
    /// GPS trips: outages during the trip, the seconds and metres bridged across them.
    public var gapCount: Int
    public var bridgedSeconds: Double
    public var bridgedDistance: Double
    /// GPS trips: idle alerts raised during the trip.
    public var idleAlerts: Int
    /// GPS trips: how the trip ended (`stopped`, `shutdown`, `power-lost`, `resumed`…).
    public var endReason: String?
    /// The regular-trip template a hand-entered trip came from.
    public var regularName: String?
    /// Why the entry was deleted.
    public var deletionReason: String?
    /// What is kept of where the trip went (GPS trips; `recorded` for the others, which have no route).
    public var route: TripRoute
    /// The rule that classified the trip when it closed (docs/rules.md); `nil` for a trip no rule classified.
    public var rule: TripRule?
    /// A trip a rule classified that the driver has not confirmed yet.
    public var toConfirm: Bool = false

    public init(id: TripID, kind: TripKind, purpose: String? = nil, customer: String? = nil,
                destination: String? = nil, source: TripSource, state: TripState, start: UTCTime? = nil,
                end: UTCTime? = nil, startPosition: Coordinate? = nil, endPosition: Coordinate? = nil,
                odometerStart: Double? = nil, odometerEnd: Double? = nil, distance: Double,
                measuredDistance: Double? = nil, calibrationFactor: Double? = nil, gapCount: Int = 0,
                bridgedSeconds: Double = 0, bridgedDistance: Double = 0, idleAlerts: Int = 0,
                endReason: String? = nil, regularName: String? = nil, deletionReason: String? = nil,
                date: CivilDate? = nil, route: TripRoute = .recorded, startPlace: TripPlace? = nil,
                endPlace: TripPlace? = nil, commute: Bool = false, detour: String? = nil) {
        self.commute = commute
        self.detour = detour
        self.date = date
        self.startPlace = startPlace
        self.endPlace = endPlace
        self.route = route
        self.id = id
        self.kind = kind
        self.purpose = purpose
        self.customer = customer
        self.destination = destination
        self.source = source
        self.state = state
        self.start = start
        self.end = end
        self.startPosition = startPosition
        self.endPosition = endPosition
        self.odometerStart = odometerStart
        self.odometerEnd = odometerEnd
        self.distance = distance
        self.measuredDistance = measuredDistance
        self.calibrationFactor = calibrationFactor
        self.gapCount = gapCount
        self.bridgedSeconds = bridgedSeconds
        self.bridgedDistance = bridgedDistance
        self.idleAlerts = idleAlerts
        self.endReason = endReason
        self.regularName = regularName
        self.deletionReason = deletionReason
    }

    /// Whether the entry counts in totals (deleted entries do not).
    public var counts: Bool { state != .deleted }

    /// A business trip without a purpose is incomplete for the tax office.
    public var lacksPurpose: Bool {
        kind == .business && (purpose?.isEmpty ?? true)
    }

    /// Kilometres as a report prints them, in tenths of a kilometre: the odometer readings rounded to 0.1 km and
    /// the distance as their difference, so that every row adds up and consecutive rows chain exactly. Without
    /// odometer readings, the distance alone, rounded.
    public var reportedTenths: (start: Int64?, end: Int64?, distance: Int64) {
        reportedTenths(in: .kilometres)
    }

    /// `reportedTenths` in tenths of `unit`: in miles the odometer readings are converted and rounded each, so
    /// that rows still chain, and the distance is their difference.
    public func reportedTenths(in unit: DistanceUnit) -> (start: Int64?, end: Int64?, distance: Int64) {
        if let odometerStart, let odometerEnd {
            let start = unit.tenths(odometerStart)
            let end = unit.tenths(odometerEnd)
            return (start, end, end - start)
        }
        return (nil, nil, unit.tenths(distance))
    }

    /// Metres in whole tenths of a kilometre (100 m), rounded half away from zero.
    public static func tenths(_ metres: Double) -> Int64 {
        DistanceUnit.kilometres.tenths(metres)
    }

    /// `12.3` from 12 345 metres: rounded to tenths of a kilometre, as reports print them.
    public static func kilometresText(metres: Double) -> String {
        kilometresText(tenths: tenths(metres))
    }

    /// `12.3` from 123 tenths of a kilometre (and `-0.4` from -4).
    public static func kilometresText(tenths: Int64) -> String {
        DistanceUnit.text(tenths: tenths)
    }
}

extension LogTrip: Codable {
    enum CodingKeys: String, CodingKey {
        case id, kind, purpose, customer, destination, commute, detour, source, state, date, start, end
        case startPosition = "start_position"
        case endPosition = "end_position"
        case startPlace = "start_place"
        case endPlace = "end_place"
        case odometerStart = "odometer_start"
        case odometerEnd = "odometer_end"
        case odometerStartSource = "odometer_start_source"
        case odometerEndSource = "odometer_end_source"
        case distance = "distance_m"
        case measuredDistance = "measured_distance_m"
        case calibrationFactor = "calibration_factor"
        case gapCount = "gaps"
        case bridgedSeconds = "bridged_s"
        case bridgedDistance = "bridged_m"
        case idleAlerts = "idle_alerts"
        case endReason = "end_reason"
        case regularName = "regular"
        case deletionReason = "deletion_reason"
        case route, rule
        case toConfirm = "to_confirm"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(TripID.self, forKey: .id)
        kind = try c.decode(TripKind.self, forKey: .kind)
        purpose = try c.decodeIfPresent(String.self, forKey: .purpose)
        customer = try c.decodeIfPresent(String.self, forKey: .customer)
        destination = try c.decodeIfPresent(String.self, forKey: .destination)
        commute = try c.decodeIfPresent(Bool.self, forKey: .commute) ?? false
        detour = try c.decodeIfPresent(String.self, forKey: .detour)
        source = try c.decode(TripSource.self, forKey: .source)
        state = try c.decode(TripState.self, forKey: .state)
        date = try c.decodeIfPresent(CivilDate.self, forKey: .date)
        start = try c.decodeIfPresent(UTCTime.self, forKey: .start)
        end = try c.decodeIfPresent(UTCTime.self, forKey: .end)
        startPosition = try c.decodeIfPresent(Coordinate.self, forKey: .startPosition)
        endPosition = try c.decodeIfPresent(Coordinate.self, forKey: .endPosition)
        startPlace = try c.decodeIfPresent(TripPlace.self, forKey: .startPlace)
        endPlace = try c.decodeIfPresent(TripPlace.self, forKey: .endPlace)
        odometerStart = try c.decodeIfPresent(Double.self, forKey: .odometerStart).map { $0 * 1000 }
        odometerEnd = try c.decodeIfPresent(Double.self, forKey: .odometerEnd).map { $0 * 1000 }
        odometerStartSource = try c.decodeIfPresent(OdometerSource.self, forKey: .odometerStartSource)
        odometerEndSource = try c.decodeIfPresent(OdometerSource.self, forKey: .odometerEndSource)
        distance = try c.decode(Double.self, forKey: .distance)
        measuredDistance = try c.decodeIfPresent(Double.self, forKey: .measuredDistance)
        calibrationFactor = try c.decodeIfPresent(Double.self, forKey: .calibrationFactor)
        gapCount = try c.decodeIfPresent(Int.self, forKey: .gapCount) ?? 0
        bridgedSeconds = try c.decodeIfPresent(Double.self, forKey: .bridgedSeconds) ?? 0
        bridgedDistance = try c.decodeIfPresent(Double.self, forKey: .bridgedDistance) ?? 0
        idleAlerts = try c.decodeIfPresent(Int.self, forKey: .idleAlerts) ?? 0
        endReason = try c.decodeIfPresent(String.self, forKey: .endReason)
        regularName = try c.decodeIfPresent(String.self, forKey: .regularName)
        deletionReason = try c.decodeIfPresent(String.self, forKey: .deletionReason)
        route = try c.decodeIfPresent(TripRoute.self, forKey: .route) ?? .recorded
        rule = try c.decodeIfPresent(TripRule.self, forKey: .rule)
        toConfirm = try c.decodeIfPresent(Bool.self, forKey: .toConfirm) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(purpose, forKey: .purpose)
        try c.encodeIfPresent(customer, forKey: .customer)
        try c.encodeIfPresent(destination, forKey: .destination)
        if commute { try c.encode(commute, forKey: .commute) }
        try c.encodeIfPresent(detour, forKey: .detour)
        try c.encode(source, forKey: .source)
        try c.encode(state, forKey: .state)
        try c.encode(date, forKey: .date)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encodeIfPresent(startPosition, forKey: .startPosition)
        try c.encodeIfPresent(endPosition, forKey: .endPosition)
        try c.encodeIfPresent(startPlace, forKey: .startPlace)
        try c.encodeIfPresent(endPlace, forKey: .endPlace)
        // Kilometres, to the metre.
        try c.encode(odometerStart.map { ($0).rounded() / 1000 }, forKey: .odometerStart)
        try c.encode(odometerEnd.map { ($0).rounded() / 1000 }, forKey: .odometerEnd)
        try c.encodeIfPresent(odometerStartSource, forKey: .odometerStartSource)
        try c.encodeIfPresent(odometerEndSource, forKey: .odometerEndSource)
        try c.encode(distance, forKey: .distance)
        try c.encodeIfPresent(measuredDistance, forKey: .measuredDistance)
        try c.encodeIfPresent(calibrationFactor, forKey: .calibrationFactor)
        try c.encode(gapCount, forKey: .gapCount)
        try c.encode(bridgedSeconds, forKey: .bridgedSeconds)
        try c.encode(bridgedDistance, forKey: .bridgedDistance)
        try c.encode(idleAlerts, forKey: .idleAlerts)
        try c.encodeIfPresent(endReason, forKey: .endReason)
        try c.encodeIfPresent(regularName, forKey: .regularName)
        try c.encodeIfPresent(deletionReason, forKey: .deletionReason)
        if route != .recorded { try c.encode(route, forKey: .route) }
        try c.encodeIfPresent(rule, forKey: .rule)
        if toConfirm { try c.encode(toConfirm, forKey: .toConfirm) }
    }
}
