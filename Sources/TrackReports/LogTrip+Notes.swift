import TrackCore

extension LogTrip {
    /// What a reader of an export should know about the entry beyond its columns, in plain words: why it was
    /// deleted, a missing purpose, where a hand-made entry came from, a route that is not kept (`TripRoute`),
    /// outages and the distance bridged across them, how a recorded trip ended, and an end on a later local day
    /// (`endDate`); distances in `unit`, words in `labels`' language.
    public func reportNotes(endsOn endDate: CivilDate? = nil, unit: DistanceUnit = .kilometres,
                            labels: NoteLabels = ReportLabels.english.notes) -> [String] {
        var notes: [String] = []
        if state == .deleted {
            if let reason = deletionReason, !reason.isEmpty {
                notes.append(labels.deleted(reason))
            } else {
                notes.append(labels.deletedWithoutReason)
            }
        }
        if lacksPurpose { notes.append(labels.purposeMissing) }
        switch source {
        case .unrecorded: notes.append(labels.unrecorded)
        case .correction: notes.append(labels.correction)
        case .regular: if let regularName { notes.append(labels.regular(regularName)) }
        case .gps, .manual: break
        }
        if let routeNote = labels.route(route) { notes.append(routeNote) }
        if gapCount > 0 { notes.append(labels.outages(gapCount, unit.text(metres: bridgedDistance))) }
        if idleAlerts > 0 { notes.append(labels.idleAlerts(idleAlerts)) }
        if state == .open {
            notes.append(endReason == "power-lost" ? labels.cutOffByPowerLoss : labels.stillRecorded)
        } else if let endReason {
            switch endReason {
            case "stopped", "": break
            case "power-lost": notes.append(labels.endedByPowerLoss)
            case "shutdown": notes.append(labels.endedByShutdown)
            case "resumed": notes.append(labels.endedOnRestart)
            default: notes.append(labels.ended(endReason))
            }
        }
        if let endDate { notes.append(labels.endsOn(endDate)) }
        return notes
    }
}
