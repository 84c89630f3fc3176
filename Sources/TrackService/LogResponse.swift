import TrackCore

/// What a carried-out `LogRequest` gives back.
public enum LogResponse: Sendable {
    case trip(LogTrip)
    case odometer(OdometerUpdate)
    case calibration(CalibrationUpdate)
    case profile(LogProfile)
    case regular(RegularTrip)
    case removed(NameParams)
    case erasure(LogErasure)
    case place(PlaceUpdate)
    case removedPlace(Place)
    case rule(ClassificationRule)
    case trips([LogTrip])
    case mailing(ReportMailing)
    case stickCopy(StickCopy)
}
