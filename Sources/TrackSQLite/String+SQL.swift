extension String {
    /// The string as an SQL identifier, double-quoted, inner quotes doubled: `"a ""b"""`.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacing("\"", with: "\"\"") + "\""
    }
}
