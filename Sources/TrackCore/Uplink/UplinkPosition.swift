/// A place in the log's order of things to send: a trip, and which of its parts.
public struct UplinkPosition: Sendable, Hashable, CustomStringConvertible {
    /// A trip's parts: its start, a track point (by its number), an event (by the log's event number), its end.
    public enum Part: Sendable, Hashable {
        case started
        case point(Int64)
        case event(Int64)
        case ended
    }

    public var tripID: TripID
    public var part: Part

    public init(tripID: TripID, part: Part) {
        self.tripID = tripID
        self.part = part
    }

    /// The stable id of the message that carries it, for a receiver to drop repeats: `van-1/12/start`,
    /// `van-1/12/345` (the trip's 345th point), `van-1/12/e17` (the log's event 17), `van-1/12/end`.
    public func messageID(device: String) -> String {
        switch part {
        case .started: "\(device)/\(tripID)/start"
        case .point(let seq): "\(device)/\(tripID)/\(seq)"
        case .event(let id): "\(device)/\(tripID)/e\(id)"
        case .ended: "\(device)/\(tripID)/end"
        }
    }

    public var description: String { messageID(device: "") }

    /// An order for keeping the newest of a set: by trip, then its start, its points, its events, its end.
    public static func logOrder(_ a: UplinkPosition, _ b: UplinkPosition) -> Bool {
        if a.tripID != b.tripID { return a.tripID < b.tripID }
        return a.part.rank < b.part.rank
    }
}

extension UplinkPosition.Part {
    /// The part's place in `UplinkPosition.logOrder`.
    var rank: (Int, Int64) {
        switch self {
        case .started: (0, 0)
        case .point(let seq): (1, seq)
        case .event(let id): (2, id)
        case .ended: (3, 0)
        }
    }
}
