/// A trip's start or end as the uplink sends it (`_type: trip`): the log's fields for the entry, positions only
/// where the log keeps them (a private trip in privacy mode has none).
public struct UplinkTripMessage: Sendable, Hashable, Encodable {
    /// `start` or `end`.
    public var event: String
    public var id: String
    public var trip: LogTrip
    /// GPS time of the start (or the end), whole seconds since 1970, when known.
    public var timestamp: Int64?

    public init(started trip: LogTrip, device: String) {
        event = "start"
        id = UplinkPosition(tripID: trip.id, part: .started).messageID(device: device)
        self.trip = trip
        timestamp = trip.start.map { Int64($0.secondsSinceEpoch.rounded(.down)) }
    }

    public init(ended trip: LogTrip, device: String) {
        event = "end"
        id = UplinkPosition(tripID: trip.id, part: .ended).messageID(device: device)
        self.trip = trip
        timestamp = (trip.end ?? trip.start).map { Int64($0.secondsSinceEpoch.rounded(.down)) }
    }

    enum CodingKeys: String, CodingKey {
        case type = "_type", event, id, trip, timestamp = "tst"
        case kind, purpose, customer, destination, source, state, date, start, end
        case startLatitude = "start_lat", startLongitude = "start_lon", endLatitude = "end_lat", endLongitude = "end_lon"
        case startPlace = "start_place", startAddress = "start_address", endPlace = "end_place", endAddress = "end_address"
        case odometerStart = "odometer_start", odometerEnd = "odometer_end", distance, endReason = "end_reason"
        case gaps, idleAlerts = "idle_alerts", route
    }

    /// Degrees to 1e-7 (a centimetre), as the log keeps track points.
    private static func degrees(_ value: Double?) -> Double? {
        value.map { ($0 * 1e7).rounded() / 1e7 }
    }

    /// Kilometres with metre precision.
    private static func kilometres(_ metres: Double?) -> Double? {
        metres.map { ($0).rounded() / 1000 }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("trip", forKey: .type)
        try container.encode(event, forKey: .event)
        try container.encode(id, forKey: .id)
        try container.encode(trip.id.rawValue, forKey: .trip)
        try container.encodeIfPresent(timestamp, forKey: .timestamp)
        try container.encode(trip.kind.rawValue, forKey: .kind)
        try container.encodeIfPresent(trip.purpose, forKey: .purpose)
        try container.encodeIfPresent(trip.customer, forKey: .customer)
        try container.encode(trip.source.rawValue, forKey: .source)
        try container.encode(trip.route.rawValue, forKey: .route)
        try container.encodeIfPresent(trip.date?.description, forKey: .date)
        try container.encodeIfPresent(trip.start?.iso8601(fractionDigits: 0), forKey: .start)
        try container.encodeIfPresent(Self.degrees(trip.startPosition?.latitude), forKey: .startLatitude)
        try container.encodeIfPresent(Self.degrees(trip.startPosition?.longitude), forKey: .startLongitude)
        try container.encodeIfPresent(trip.startPlace?.name, forKey: .startPlace)
        try container.encodeIfPresent(trip.startPlace?.address, forKey: .startAddress)
        try container.encodeIfPresent(Self.kilometres(trip.odometerStart), forKey: .odometerStart)
        guard event == "end" else { return }
        try container.encode(trip.state.rawValue, forKey: .state)
        try container.encodeIfPresent(trip.destination, forKey: .destination)
        try container.encodeIfPresent(trip.end?.iso8601(fractionDigits: 0), forKey: .end)
        try container.encodeIfPresent(Self.degrees(trip.endPosition?.latitude), forKey: .endLatitude)
        try container.encodeIfPresent(Self.degrees(trip.endPosition?.longitude), forKey: .endLongitude)
        try container.encodeIfPresent(trip.endPlace?.name, forKey: .endPlace)
        try container.encodeIfPresent(trip.endPlace?.address, forKey: .endAddress)
        try container.encodeIfPresent(Self.kilometres(trip.odometerEnd), forKey: .odometerEnd)
        try container.encode(Self.kilometres(trip.distance), forKey: .distance)
        try container.encodeIfPresent(trip.endReason, forKey: .endReason)
        try container.encode(trip.gapCount, forKey: .gaps)
        try container.encode(trip.idleAlerts, forKey: .idleAlerts)
    }
}
