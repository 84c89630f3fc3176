import Foundation

/// libxml2's `xmllint` run as a real subprocess, to validate documents against an XML schema.
enum Xmllint {
    /// Where Debian's libxml2-utils installs it.
    static let path = "/usr/bin/xmllint"

    /// Whether the tool is there.
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `xmllint --noout --schema schema` on `document` (written to a temporary file); its exit status and what
    /// it printed.
    static func validate(_ document: String, schema: URL) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackreports-\(UUID().uuidString).xml")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--noout", "--nonet", "--schema", schema.path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }

    /// The GPX 1.1 schema in the test bundle.
    static func gpxSchema() throws -> URL {
        guard let url = Bundle.module.url(forResource: "gpx-1.1", withExtension: "xsd", subdirectory: "Fixtures") else {
            throw XMLTree.ParseError(description: "Fixtures/gpx-1.1.xsd is missing from the test bundle")
        }
        return url
    }
}
