/// What trackd-stick wrote to a car's folder on a stick (`.trackd-manifest`): each file's name, fingerprint and size,
/// so that the next insertion writes only what changed and removes only files it wrote itself.
public struct StickManifest: Sendable, Equatable {
    /// One file as it was written.
    public struct Entry: Sendable, Equatable {
        public var fingerprint: String
        public var size: Int
    }

    /// The file's name in the folder.
    public static let fileName = ".trackd-manifest"

    public var entries: [String: Entry] = [:]

    public init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// The manifest in `text`; lines that are not `FINGERPRINT SIZE NAME` are passed over (a damaged manifest costs
    /// files written again, never a file left out).
    public init(parsing text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 64, parts[0].allSatisfy(\.isHexDigit), let size = Int(parts[1]),
                  size >= 0, StickFolder.isOwnName(String(parts[2]))
            else { continue }
            entries[String(parts[2])] = Entry(fingerprint: String(parts[0]), size: size)
        }
    }

    /// The manifest as its file holds it, names in order.
    public var text: String {
        var text = "# trackd-stick: the files it wrote here, to write only what changed next time. Deleting this file "
            + "has every file written again.\n"
        for name in entries.keys.sorted() {
            let entry = entries[name]!
            text += "\(entry.fingerprint) \(entry.size) \(name)\n"
        }
        return text
    }
}
