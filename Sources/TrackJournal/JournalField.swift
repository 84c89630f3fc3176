/// One field of a journal entry: a name journald accepts and its value, as text.
public struct JournalField: Hashable, Sendable {
    /// `A`–`Z`, `0`–`9` and `_`, not starting with `_` or a digit, at most 64 characters.
    public var name: String
    public var value: String

    /// A field whose name is already valid (the handler's own fields).
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// A field for a swift-log metadata key, its name made valid with `name(forMetadataKey:)`.
    public init(metadataKey: String, value: String) {
        self.init(Self.name(forMetadataKey: metadataKey), value)
    }

    /// The fields the handler writes itself; a metadata key that would become one of them gets the prefix instead.
    public static let reservedNames: Set<String> = [
        "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "TRACKD_LOGGER",
    ]

    /// What a name that journald would refuse, or that the handler writes itself, gets in front.
    public static let prefix = "TRACKD_"

    /// The longest field name journald accepts.
    public static let maximumNameLength = 64

    /// The journal field name for a metadata key: upper case, every character outside `A`–`Z`, `0`–`9` and `_` made
    /// `_`; `TRACKD_` in front of a name that would start with `_` or a digit (journald keeps names starting with `_`
    /// for the fields it adds itself), of an empty one, and of one the handler writes itself; cut to 64 characters.
    /// `trip_id` → `TRIP_ID`, `gps.fix-mode` → `GPS_FIX_MODE`, `_private` → `TRACKD__PRIVATE`, `message` →
    /// `TRACKD_MESSAGE`.
    public static func name(forMetadataKey key: String) -> String {
        var name = String(String.UnicodeScalarView(key.unicodeScalars.map { scalar in
            switch scalar {
            case "A"..."Z", "0"..."9", "_": scalar
            case "a"..."z": Unicode.Scalar(scalar.value - 32)!
            default: "_"
            }
        }))
        let first = name.unicodeScalars.first
        if first == nil || first == "_" || ("0"..."9").contains(first!) || reservedNames.contains(name) {
            name = prefix + name
        }
        return String(name.prefix(maximumNameLength))
    }
}
