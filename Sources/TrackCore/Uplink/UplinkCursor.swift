/// How far the log has been sent (acknowledged, or read): every trip before `tripID` whole, and of that trip its
/// start, its points up to `pointSeq` (-1: none; a track's first point is 0), its events up to `eventID` and its
/// end as the flags say. The parts of a trip
/// are separate streams, each in order; the watermark the log keeps is one of these.
public struct UplinkCursor: Sendable, Hashable, Codable {
    public var tripID: TripID
    public var started: Bool
    public var pointSeq: Int64
    public var eventID: Int64
    public var ended: Bool

    public init(tripID: TripID = TripID(rawValue: 0), started: Bool = true, pointSeq: Int64 = -1, eventID: Int64 = 0,
                ended: Bool = true) {
        self.tripID = tripID
        self.started = started
        self.pointSeq = pointSeq
        self.eventID = eventID
        self.ended = ended
    }

    /// The start of the log: nothing sent.
    public static let origin = UplinkCursor()

    /// The cursor at the beginning of trip `id`, none of it sent.
    public static func beginning(of id: TripID) -> UplinkCursor {
        UplinkCursor(tripID: id, started: false, pointSeq: -1, eventID: 0, ended: false)
    }

    /// The id of the last message this cursor passed (`van-1/12/345`).
    public func lastMessageID(device: String) -> String {
        let part: UplinkPosition.Part = ended ? .ended : pointSeq >= 0 ? .point(pointSeq) : eventID > 0 ? .event(eventID) : .started
        return UplinkPosition(tripID: tripID, part: part).messageID(device: device)
    }

    /// Whether the item at `position` is at or before this cursor (sent already).
    public func covers(_ position: UplinkPosition) -> Bool {
        if position.tripID != tripID { return position.tripID < tripID }
        switch position.part {
        case .started: return started
        case .point(let seq): return seq <= pointSeq
        case .event(let id): return id <= eventID
        case .ended: return ended
        }
    }

    /// The cursor moved past the item at `position` (the next in its stream).
    public func advanced(past position: UplinkPosition) -> UplinkCursor {
        var next = position.tripID == tripID ? self : .beginning(of: position.tripID)
        guard position.tripID >= tripID else { return self }
        switch position.part {
        case .started: next.started = true
        case .point(let seq): next.pointSeq = max(next.pointSeq, seq)
        case .event(let id): next.eventID = max(next.eventID, id)
        case .ended: next.ended = true
        }
        return next
    }

    /// Whether everything `other` covers, this covers too.
    public func isAtOrPast(_ other: UplinkCursor) -> Bool {
        if tripID != other.tripID { return tripID > other.tripID }
        return (started || !other.started) && pointSeq >= other.pointSeq && eventID >= other.eventID
            && (ended || !other.ended)
    }
}
