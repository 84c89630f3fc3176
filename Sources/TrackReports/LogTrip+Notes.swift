import TrackCore

extension LogTrip {
    /// What a reader of an export should know about the entry beyond its columns, in plain words: why it was
    /// deleted, a missing purpose, where a hand-made entry came from, a route that is not kept (`TripRoute`),
    /// outages and the distance bridged across them, how a recorded trip ended, and an end on a later local day
    /// (`endDate`).
    public func reportNotes(endsOn endDate: CivilDate? = nil) -> [String] {
        var notes: [String] = []
        if state == .deleted {
            if let reason = deletionReason, !reason.isEmpty {
                notes.append("deleted: \(reason)")
            } else {
                notes.append("deleted (no reason given)")
            }
        }
        if lacksPurpose { notes.append("purpose missing") }
        switch source {
        case .unrecorded: notes.append("not recorded: found by an odometer reading")
        case .correction: notes.append("correction: the log was ahead of the odometer")
        case .regular: if let regularName { notes.append("regular trip '\(regularName)'") }
        case .gps, .manual: break
        }
        if let routeNote = route.reportNote { notes.append(routeNote) }
        if gapCount > 0 {
            let outages = gapCount == 1 ? "1 outage" : "\(gapCount) outages"
            let bridged = LogTrip.kilometresText(metres: bridgedDistance)
            notes.append("\(outages), \(bridged) km bridged")
        }
        if idleAlerts > 0 {
            notes.append(idleAlerts == 1 ? "1 idle alert" : "\(idleAlerts) idle alerts")
        }
        if state == .open {
            notes.append(endReason == "power-lost" ? "cut off by power loss, not yet recovered" : "still being recorded")
        } else if let endReason {
            switch endReason {
            case "stopped", "": break
            case "power-lost": notes.append("ended by power loss")
            case "shutdown": notes.append("ended by shutdown")
            case "resumed": notes.append("ended on restart")
            default: notes.append("ended: \(endReason)")
            }
        }
        if let endDate { notes.append("ends on \(endDate)") }
        return notes
    }
}
