import TrackCore

/// The text of `trackd-setup-result.txt`, which the board writes next to the setup file for the driver to read on
/// their computer: what was applied, or which lines to fix.
public enum SetupReport {
    /// The result file's name on the FAT partition.
    public static let fileName = "trackd-setup-result.txt"

    /// The lines about what the board made itself (the file gave none): the car's Wi-Fi and the owner code.
    static func madeLines(_ made: SetupMade, ownerCodeGiven: Bool) -> [String] {
        var lines: [String] = []
        if let wifi = made.carWiFi {
            lines += ["Car's Wi-Fi:     \(wifi.name)   password: \(wifi.passphrase)",
                      "  The board made this network, as the file gave none: join it with the phone to open the page."]
        }
        return lines + ownerCodeLines(made: made.ownerCode, given: ownerCodeGiven)
    }

    /// The lines about the owner code: the code itself when the board made it (`made`), else that the file gave it.
    static func ownerCodeLines(made: String?, given: Bool) -> [String] {
        if let made {
            return ["Owner code:      \(made)",
                    "  On the page (http://trackd.local), the first phone that gives this code becomes the driver's.",
                    "  The board made it, as the file gave none; keep this file, or write your own into owner_code."]
        }
        return given ? ["Owner code:      the one in the file (removed from the card; the first phone that gives it on",
                        "                 the page becomes the driver's)"] : []
    }

    /// Everything was applied (`checking`: would be, as `trackctl setup check` says on a computer); `made`:
    /// the owner code the board made, when the file gave none.
    public static func applied(_ setup: SetupFile, version: String, checking: Bool = false,
                               made: SetupMade = SetupMade(), imager: ImagerCustomisation? = nil) -> String {
        func shown(_ value: String?) -> String { value.map { $0.isEmpty ? "(not given)" : $0 } ?? "(not given)" }
        let country = setup.country.map { code in
            setup.taxCountry.map { "\(code) (the log follows the rules of \($0.name))" } ?? "\(code) (no tax rules of its own in trackd)"
        }
        var lines = [
            checking ? "trackd setup: GOOD" : "trackd setup: APPLIED",
            "",
            checking ? "The board would apply everything in the file (trackd \(version)):"
                : "Everything in \(SetupFile.fileName) was applied (trackd \(version)).",
            "",
            "Car's Wi-Fi:     " + (setup.carWiFi.map { "\($0.name) (password set)" } ?? "(not given: see below)"),
            "Known network:   " + (setup.knownWiFi.map {
                "\($0.name) (password set; the page is at http://\(setup.hostName).local there)"
            } ?? "(not given)"),
            "Country:         " + shown(country),
            "Driver:          " + shown(setup.driver),
            "Plate:           " + shown(setup.plate),
            "Company:         " + shown(setup.company),
            "Time zone:       " + shown(setup.timeZone),
            "Receiver:        " + (setup.receiver == .auto ? "auto (the board finds it)" : setup.receiver.description),
            "OBD-II adapter:  " + (setup.obd?.description ?? "none"),
            "SSH keys:        " + (setup.sshKeys.isEmpty ? "none (nobody can log in)" : "\(setup.sshKeys.count) (root may log in with them)"),
        ] + madeLines(made, ownerCodeGiven: setup.ownerCode != nil) + [
            "",
            "Driver, plate, company, country and time zone fill the log's profile where it is still empty; once the",
            "log has them, change them on the page (Settings).",
        ]
        if setup.carWiFi != nil || setup.knownWiFi != nil || setup.ownerCode != nil {
            lines += ["The passwords (and the owner code) were removed from \(SetupFile.fileName); the board keeps them.",
                      "Write a new one there to change it."]
        }
        if let imager { lines += imagerLines(imager) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// What was taken of Raspberry Pi Imager's settings, and what not.
    static func imagerLines(_ imager: ImagerCustomisation) -> [String] {
        var taken: [String] = []
        if let name = imager.wifiName { taken.append("the network \(name.value) to join") }
        if let country = imager.country { taken.append("the country \(country.value)") }
        if let zone = imager.timeZone { taken.append("the time zone \(zone.value)") }
        if !imager.sshKeys.isEmpty { taken.append(imager.sshKeys.count == 1 ? "an SSH key" : "\(imager.sshKeys.count) SSH keys") }
        let files = imager.files.filter { $0 != "meta-data" }.joined(separator: " and ")
        var lines = ["", "Raspberry Pi Imager's settings (\(files)) were read beneath this file's (a value given in",
                     "\(SetupFile.fileName) wins): " + (taken.isEmpty ? "nothing the board uses." : taken.joined(separator: ", ") + ".")]
        lines += imager.unused.map { "  Not used: \($0)." }
        lines.append("Imager's files were removed from the card: they held the Wi-Fi's key.")
        return lines
    }

    /// Nothing was applied (`checking`: would be): the lines to fix, or why the file could not be read; `ownerCode`:
    /// the one the board has, when it made it (a board set up with no good file is still claimable).
    public static func refused(_ error: SetupFileError, checking: Bool = false, made: SetupMade = SetupMade()) -> String {
        var lines = checking ? ["trackd setup: WRONG", "", "The board would apply nothing in the file."] : [
            "trackd setup: NOT APPLIED",
            "",
            "Nothing in \(SetupFile.fileName) was applied: the board runs as it did before.",
        ]
        switch error {
        case .encoding(let message):
            lines += ["The file could not be read: \(message)."]
        case .problems(let problems):
            lines += ["Fix these lines, save the file and put the card back into the board:", ""]
            lines += problems.map { "  \($0)" }
        }
        if !made.isEmpty { lines += [""] + madeLines(made, ownerCodeGiven: false) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The file was good, but the board could not apply it.
    public static func failed(_ reason: String) -> String {
        [
            "trackd setup: NOT APPLIED (the board's fault, not the file's)",
            "",
            "\(SetupFile.fileName) is fine, but the board could not apply it: \(reason).",
            "It tries again at the next start. If this stays, write to the image's makers with this file.",
        ].joined(separator: "\r\n") + "\r\n"
    }

    /// There is no setup file: the board runs on its defaults, or (`keeps`) on what it applied before.
    public static func missing(made: SetupMade = SetupMade(), keeps: Bool = false) -> String {
        let body = keeps ? [
            "There is no \(SetupFile.fileName) on the card: the board keeps the settings it applied before. To change",
            "them, put the file back (a fresh copy comes with the image), fill in what should change and put the card",
            "back into the board; or change them on the page (Settings).",
        ] : [
            "There was no \(SetupFile.fileName) on the card, so the board runs on its defaults: it logs every drive",
            "from the receiver it finds as an unclassified trip. Put the file back (a fresh copy comes with the image),",
            "fill it in and put the card back into the board to set it up.",
        ]
        return (["trackd setup: NO SETUP FILE", ""] + body + (made.isEmpty ? [] : [""] + madeLines(made, ownerCodeGiven: false)))
            .joined(separator: "\r\n") + "\r\n"
    }
}

/// What the board made itself because the setup file gave none: shown in the result file, the only place the driver
/// can read it before the phone is on the car's network.
public struct SetupMade: Sendable, Hashable {
    public var ownerCode: String?
    public var carWiFi: WiFiNetwork?

    public init(ownerCode: String? = nil, carWiFi: WiFiNetwork? = nil) {
        self.ownerCode = ownerCode
        self.carWiFi = carWiFi
    }

    var isEmpty: Bool { ownerCode == nil && carWiFi == nil }
}
