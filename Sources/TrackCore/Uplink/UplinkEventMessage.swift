/// An event of a trip as the uplink sends it (`_type: event`): an idle alert, the fix lost or regained, an outage,
/// a power cut and the trip carried on.
public struct UplinkEventMessage: Sendable, Hashable, Encodable {
    public var event: LogEvent
    public var id: String

    public init(_ event: LogEvent, device: String) {
        self.event = event
        id = UplinkItem.event(event).position.messageID(device: device)
    }

    enum CodingKeys: String, CodingKey {
        case type = "_type", event, id, trip, timestamp = "tst", time, detail
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("event", forKey: .type)
        try container.encode(event.kind.rawValue, forKey: .event)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(event.tripID?.rawValue, forKey: .trip)
        try container.encodeIfPresent(event.time.map { Int64($0.secondsSinceEpoch.rounded(.down)) }, forKey: .timestamp)
        try container.encodeIfPresent(event.time?.iso8601(fractionDigits: 0), forKey: .time)
        try container.encode(event.detail, forKey: .detail)
    }
}
