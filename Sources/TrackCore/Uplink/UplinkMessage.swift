/// What the uplink publishes for an item of the log: the topic below the car's base topic (OwnTracks' own layout:
/// positions on the base topic itself, the rest on subtopics) and the JSON body.
public struct UplinkMessage: Sendable, Hashable, Encodable {
    public enum Body: Sendable, Hashable {
        case location(OwnTracksLocation)
        case trip(UplinkTripMessage)
        case event(UplinkEventMessage)
    }

    /// `nil` for the base topic, else the subtopic (`trip`, `event`).
    public var subtopic: String?
    public var body: Body
    public var position: UplinkPosition

    public init(_ item: UplinkItem, device: String) {
        position = item.position
        switch item {
        case .point(let point, let tripID, let seq):
            subtopic = nil
            body = .location(OwnTracksLocation(point, tripID: tripID, seq: seq, device: device))
        case .tripStarted(let trip):
            subtopic = "trip"
            body = .trip(UplinkTripMessage(started: trip, device: device))
        case .tripEnded(let trip):
            subtopic = "trip"
            body = .trip(UplinkTripMessage(ended: trip, device: device))
        case .event(let event):
            subtopic = "event"
            body = .event(UplinkEventMessage(event, device: device))
        }
    }

    /// The full topic under `base` (`owntracks/trackd/van-1`, `owntracks/trackd/van-1/trip`).
    public func topic(base: String) -> String {
        subtopic.map { "\(base)/\($0)" } ?? base
    }

    public func encode(to encoder: any Encoder) throws {
        switch body {
        case .location(let location): try location.encode(to: encoder)
        case .trip(let trip): try trip.encode(to: encoder)
        case .event(let event): try event.encode(to: encoder)
        }
    }
}
