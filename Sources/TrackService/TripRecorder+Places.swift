import Logging
import TrackCore
import TrackStore

/// What a named place fills in on a trip that ends there (docs/places.md).
extension TripRecorder {
    /// A GPS trip that ends at a named place takes what the place says of trips there where the trip says nothing
    /// itself: an unclassified trip the place's kind, a business trip the place's customer and purpose. Each change
    /// is in the history, made by `trackd` with the place as the reason, and the driver can change it again. A trip
    /// the place makes private loses its route as any reclassification in privacy mode does.
    mutating func fillFromPlace(_ trip: LogTrip) async -> LogTrip {
        guard trip.source == .gps, trip.state == .closed, let id = trip.endPlace?.id else { return trip }
        let place: Place
        do {
            place = try await log.place(id.description)
        } catch {
            logger.error("cannot read the place a trip ended at", metadata: ["trip": "\(trip.id)", "error": "\(error)"])
            return trip
        }
        var changes = TripChanges()
        var kind = trip.kind
        if trip.kind == .unclassified, let placeKind = place.kind { kind = placeKind }
        if kind == .business {
            if trip.customer == nil, let customer = place.customer { changes.customer = customer }
            if trip.purpose == nil, let purpose = place.purpose { changes.purpose = purpose }
            // A business trip needs a purpose: without one from the trip or the place, the kind stays open.
            if kind != trip.kind && trip.purpose == nil && changes.purpose == nil {
                kind = trip.kind
                changes.customer = nil
            }
        }
        if kind != trip.kind { changes.kind = kind }
        guard !changes.isEmpty else { return trip }
        let erasing = privacy.erasesRoutesOfPrivateTrips && kind == .private && trip.route.isKept
        let context = ChangeContext(user: "trackd", time: trip.end ?? wallClock(),
                                    timeSource: trip.end == nil ? "system" : "gps")
        do {
            let filled = try await log.editTrip(trip.id, changes, reason: "filled from place '\(place.name)'",
                                                context: context, erasingPrivateRoutes: erasing,
                                                confirming: false)
            logger.info("trip filled from the place it ended at", metadata: [
                "trip": "\(trip.id)", "place": "\(place.name)",
                "fields": "\([changes.kind.map { _ in "kind" }, changes.customer.map { _ in "customer" }, changes.purpose.map { _ in "purpose" }].compactMap { $0 }.joined(separator: ","))",
            ])
            return filled
        } catch {
            logger.error("cannot fill a trip from the place it ended at", metadata: ["trip": "\(trip.id)", "error": "\(error)"])
            return trip
        }
    }
}
