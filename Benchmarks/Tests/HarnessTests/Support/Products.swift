import Foundation
import TestSupport

/// The programs the harness tests run: this package's trackbench, and the trackd and trackctl that the root
/// package built (`swift build` at the root first; `scripts/test` does both).
enum Products {
    /// The repository's root, where the root package and `demo/` are.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The folder this test runner was built into, where trackbench is too.
    static let directory: String = {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path]
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent().path) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: "\($0)/trackbench") } ?? candidates[0]
    }()

    static var trackbench: String { "\(directory)/trackbench" }
    /// `$TRACKD_BUILD` (a folder with trackd and trackctl), else the root package's debug build.
    static var trackd: String { "\(productFolder)/trackd" }
    static var trackctl: String { "\(productFolder)/trackctl" }

    private static var productFolder: String {
        ProcessInfo.processInfo.environment["TRACKD_BUILD"] ?? "\(root)/.build/debug"
    }

    /// Fails with what to do when the root package's programs have not been built.
    static func requireBuilt() throws {
        for program in [trackd, trackctl] where !FileManager.default.isExecutableFile(atPath: program) {
            throw SubprocessError("\(program) is missing: build the root package first (swift build at the "
                                  + "repository's root), or name a folder with trackd and trackctl in $TRACKD_BUILD")
        }
    }
}

/// The bundled 16-minute drive (22 November 2026 from 08:00:00 UTC).
enum DriveLog {
    static var demo: String { "\(Products.root)/demo/drive.nmea" }
}

/// Runs a program to its end and waits for it (on a thread of its own).
func run(_ executable: String, _ arguments: [String]) async throws -> CommandResult {
    try Products.requireBuilt()
    return try await offload { try runProgram(executable, arguments) }
}

/// JSON text as a dictionary or array.
func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
}
