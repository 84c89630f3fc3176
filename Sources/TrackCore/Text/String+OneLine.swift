extension String {
    /// On one line: control characters (line breaks, tabs) as spaces, runs of spaces as one, none at either end.
    /// A paired device's name, shown in lists and recorded with each change it makes.
    public var oneLine: String {
        String(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
