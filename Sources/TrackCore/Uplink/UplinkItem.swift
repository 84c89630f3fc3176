/// One thing the log holds for the uplink to send, in the log's order: a trip's start, its track points and events,
/// its end (docs/fleet.md).
public enum UplinkItem: Sendable, Hashable {
    /// A GPS trip began (sent once its start is known).
    case tripStarted(LogTrip)
    /// A stored track point of a trip, with its number in the trip's track.
    case point(TrackPoint, tripID: TripID, seq: Int64)
    /// An event of a trip: an idle alert, the fix lost or regained, an outage, a power cut.
    case event(LogEvent)
    /// A trip was closed (every entry of the log: GPS trips and those entered by hand).
    case tripEnded(LogTrip)

    /// Where the item stands in the log's order.
    public var position: UplinkPosition {
        switch self {
        case .tripStarted(let trip): UplinkPosition(tripID: trip.id, part: .started)
        case .point(_, let tripID, let seq): UplinkPosition(tripID: tripID, part: .point(seq))
        case .event(let event): UplinkPosition(tripID: event.tripID ?? TripID(rawValue: 0), part: .event(event.id))
        case .tripEnded(let trip): UplinkPosition(tripID: trip.id, part: .ended)
        }
    }

    /// The events a receiver hears of; the others (`started`, `stopped`, `error`) are said by the trip messages or
    /// stay in the journal.
    public static let sentEvents: Set<LogEvent.Kind> = [.idleAlert, .fixLost, .fixRegained, .gap, .powerLost, .resumed]
}
