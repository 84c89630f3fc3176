import TrackCore

/// A change to the mileage log asked over the control socket. The tracker carries these out one at a time, in order
/// with the trip it records, so that a start, a stop and an edit never cross.
public enum LogRequest: Sendable {
    case start(StartParams)
    case stop(StopParams)
    case add(ManualTrip)
    case edit(EditParams)
    case delete(DeleteParams)
    case odometer(OdometerParams)
    case calibrate(CalibrateParams)
    case profile(ProfileParams)
    case addRegular(RegularTrip)
    case removeRegular(NameParams)
    case erase(EraseParams)
    case addPlace(PlaceAddParams)
    case editPlace(PlaceEditParams)
    case removePlace(PlaceRemoveParams)
    case addRule(RuleAddParams)
    case editRule(RuleEditParams)
    case deleteRule(RuleDeleteParams)
    case confirm(ConfirmParams)
    case recordMailing(ReportMailing)
    case recordStickCopy(StickCopy)
}
