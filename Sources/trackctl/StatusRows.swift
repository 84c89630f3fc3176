import TrackctlTexts

/// `trackctl status`'s rows: a label and its text, the labels in trackctl's language padded to one column
/// (`  fix      3D …`), as wide as the language's longest label so that the column stays where it is.
struct StatusRows {
    /// What a row is about.
    enum Label: CaseIterable {
        case source, receiver, fix, position, speed, trip, odometer, parked, alert, storage, uplink, traccar, obd, found,
             car, mail, stick, received, rates

        /// The label in trackctl's language.
        var text: String {
            switch self {
            case .source: t("source")
            case .receiver: t("receiver")
            case .fix: t("fix")
            case .position: t("position")
            case .speed: t("speed")
            case .trip: t("trip")
            case .odometer: t("odometer")
            case .parked: t("parked")
            case .alert: t("alert")
            case .storage: t("storage")
            case .uplink: t("uplink")
            case .traccar: t("traccar")
            case .obd: t("obd")
            case .found: t("found")
            case .car: t("car")
            case .mail: t("mail")
            case .stick: t("stick")
            case .received: t("received")
            case .rates: t("rates")
            }
        }
    }

    private(set) var rows: [(label: Label, text: String)] = []

    mutating func add(_ label: Label, _ text: String) {
        rows.append((label, text))
    }

    /// The rows as lines: two spaces, the label padded to the column, the text.
    var lines: [String] {
        rows.map { Self.line($0.label, $0.text) }
    }

    /// One row as a line.
    static func line(_ label: Label, _ text: String) -> String {
        let width = Label.allCases.map(\.text.count).max() ?? 0
        return "  " + label.text.padding(toLength: width + 1) + text
    }
}
