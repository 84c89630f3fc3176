/// A position in OwnTracks' JSON location format (`_type: location`), which Home Assistant, the OwnTracks recorder
/// and most MQTT pipelines read as it is, with trackd's stable id, trip and point number added.
public struct OwnTracksLocation: Sendable, Hashable, Encodable {
    public var latitude: Double
    public var longitude: Double
    /// GPS time, whole seconds since 1970.
    public var timestamp: Int64
    /// The estimated horizontal error, metres.
    public var accuracy: Int?
    /// Speed, km/h.
    public var velocity: Int?
    /// Two characters shown on a map (OwnTracks' tracker id).
    public var trackerID: String
    /// `van-1/12/345`: car, trip, point.
    public var id: String
    public var trip: Int64
    public var point: Int64
    /// Metres driven since the trip began.
    public var distance: Int

    public init(_ point: TrackPoint, tripID: TripID, seq: Int64, device: String) {
        latitude = (point.coordinate.latitude * 1e7).rounded() / 1e7
        longitude = (point.coordinate.longitude * 1e7).rounded() / 1e7
        timestamp = Int64(point.time.secondsSinceEpoch.rounded(.down))
        accuracy = point.error.flatMap { $0.isFinite ? Int($0.rounded()) : nil }
        velocity = point.speed.flatMap { $0.isFinite ? Int(($0 * 3.6).rounded()) : nil }
        trackerID = OwnTracksLocation.trackerID(of: device)
        id = UplinkPosition(tripID: tripID, part: .point(seq)).messageID(device: device)
        trip = tripID.rawValue
        self.point = seq
        distance = Int(point.distance.rounded())
    }

    /// The last two characters of the device name, as OwnTracks shows a tracker on a map.
    public static func trackerID(of device: String) -> String {
        String(device.filter { $0.isLetter || $0.isNumber }.suffix(2))
    }

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case latitude = "lat", longitude = "lon", timestamp = "tst", accuracy = "acc", velocity = "vel"
        case trackerID = "tid", trigger = "t"
        case id, trip, point
        case distance = "dist"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("location", forKey: .type)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(accuracy, forKey: .accuracy)
        try container.encodeIfPresent(velocity, forKey: .velocity)
        try container.encode(trackerID, forKey: .trackerID)
        try container.encode("t", forKey: .trigger)   // OwnTracks' trigger: a timer (the log's own rate)
        try container.encode(id, forKey: .id)
        try container.encode(trip, forKey: .trip)
        try container.encode(point, forKey: .point)
        try container.encode(distance, forKey: .distance)
    }
}
