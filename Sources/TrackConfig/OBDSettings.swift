import TrackCore

/// The keys of the `obd:` section (docs/obd.md).
enum OBDSettings {
    static let all: [Setting<OBDConfiguration>] = [
        .parsed("adapter", \.adapter,
                "the ELM327 adapter: auto (a USB adapter found by asking), serial:///dev/obd-trackd?baud=38400 (USB, Bluetooth rfcomm) or tcp://HOST:PORT (Wi-Fi)") { text in
            do throws(SourceAddressError) {
                return .success(try OBDAddress(parsing: text))
            } catch {
                return .failure(ExpectedValue(error.hint))
            }
        },
    ]

    static var keys: [String] { all.map(\.key) }
}
