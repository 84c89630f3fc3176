/// The methods of trackd's control protocol (newline-delimited JSON-RPC 2.0 over a Unix socket).
public enum ControlMethod: String, Sendable, CaseIterable, Codable {
    /// Version exchange: `{"client": "trackctl 0.1.0", "protocol": 1}` → `HelloResult`.
    case hello
    /// The daemon's live state → `DaemonStatus`.
    case status
    /// Subscribe to live events; the daemon then sends `fix` and `source` notifications (and `lagged`).
    case watch
    /// Start a trip: `StartParams` → `LogTrip`.
    case start
    /// Stop the running trip: `StopParams` → `LogTrip`.
    case stop
    /// The trips of a period: `TripsParams` → `[LogTrip]`.
    case trips
    /// The trips of a period as the page lists them: `TripsParams` → `TripsOverview` (which a person changed, the
    /// business trips' amounts).
    case tripsOverview = "trips.overview"
    /// One trip with its history: `TripIDParams` → `TripDetail`.
    case show
    /// Add a trip by hand: `ManualTrip` → `LogTrip`.
    case add
    /// Change a trip: `EditParams` → `LogTrip`.
    case edit
    /// Delete a trip (a tombstone with a reason): `DeleteParams` → `LogTrip`.
    case delete
    /// The regular trips → `[RegularTrip]`.
    case regularList = "regular.list"
    /// Define a regular trip: `RegularTrip` → `RegularTrip`.
    case regularAdd = "regular.add"
    /// Remove a regular trip: `NameParams` → `NameParams`.
    case regularRemove = "regular.remove"
    /// Record a dashboard reading: `OdometerParams` → `OdometerUpdate`.
    case odometerSet = "odometer.set"
    /// Take the calibration factor the car's odometer proposes: `CalibrateParams` → `CalibrationUpdate`.
    case odometerCalibrate = "odometer.calibrate"
    /// The dashboard readings, the log's odometer and the proposed calibration → `OdometerStatus`.
    case odometer
    /// The profile → `LogProfile`.
    case profile
    /// Change the profile: `ProfileParams` → `LogProfile`.
    case profileSet = "profile.set"
    /// Everything a report of a period shows: `TripsParams` → `MileageReport`.
    case export
    /// Check the log against its hash chain → `VerificationReport`.
    case verify
    /// What a tax office would question in a period's entries: `TripsParams` → `[LogFinding]`.
    case check
    /// Erase routes, the names in the profile, or everything: `EraseParams` → `LogErasure`.
    case erase
    /// The named places → `[Place]`.
    case placeList = "place.list"
    /// Name a place: `PlaceAddParams` → `PlaceUpdate`.
    case placeAdd = "place.add"
    /// Change a place: `PlaceEditParams` → `PlaceUpdate`.
    case placeEdit = "place.edit"
    /// Remove a place: `PlaceRemoveParams` → `Place`.
    case placeRemove = "place.remove"
    /// Spots where the car parked again and again, not named yet: `PlaceSuggestParams` → `[PlaceSuggestion]`.
    case placeSuggest = "place.suggest"
    /// Record that a month's report went out by e-mail (`trackctl export --mail`): `ReportMailing` → `ReportMailing`.
    case reportMailed = "report.mailed"
    /// Send a month's report by e-mail now to trackd.conf's `mail.to`, and record it: `ReportMailParams` →
    /// `ReportMailing`.
    case reportMail = "report.mail"
    /// The classification rules → `[ClassificationRule]`.
    case ruleList = "rule.list"
    /// Rules the driver's own classifications suggest → `[RuleSuggestion]`.
    case ruleSuggest = "rule.suggest"
    /// Add a rule: `RuleAddParams` → `ClassificationRule`.
    case ruleAdd = "rule.add"
    /// Change what a rule makes of a trip, or pause it: `RuleEditParams` → `ClassificationRule`.
    case ruleEdit = "rule.edit"
    /// Delete a rule: `RuleDeleteParams` → `ClassificationRule`.
    case ruleDelete = "rule.delete"
    /// Confirm what rules made of trips: `ConfirmParams` → `[LogTrip]`.
    case confirm
    /// Record that trackd-stick copied the reports to a USB stick (or failed to): `StickCopy` → `StickCopy`.
    case reportCopied = "report.copied"

    /// Whether the method changes the log (and so needs a caller allowed to change it).
    public var changesLog: Bool {
        switch self {
        case .start, .stop, .add, .edit, .delete, .regularAdd, .regularRemove, .odometerSet, .odometerCalibrate, .profileSet, .erase,
             .placeAdd, .placeEdit, .placeRemove, .reportMailed, .reportMail, .reportCopied, .ruleAdd, .ruleEdit,
             .ruleDelete, .confirm: true
        case .hello, .status, .watch, .trips, .tripsOverview, .show, .regularList, .odometer, .profile, .export, .verify, .check,
             .placeList, .placeSuggest, .ruleList, .ruleSuggest: false
        }
    }
}

/// Limits and version of the control protocol.
public enum ControlProtocol {
    /// Protocol version; bumped on incompatible changes.
    public static let version = 1
    /// Longest request line accepted, bytes.
    public static let maxLineLength = 64 * 1024
    /// Deepest nesting of arrays and objects accepted in a request line (a request needs four or five): deeper ones
    /// are refused before they are decoded, whose cost grows much faster than the depth.
    public static let maxDepth = 32
}
