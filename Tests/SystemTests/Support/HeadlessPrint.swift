import Foundation
import TestSupport

/// Debian's Chromium printing a page to PDF from the command line (`--print-to-pdf`), one browser at a time.
enum HeadlessPrint {
    /// One Chromium at a time in this process: printing is a whole browser each, and two of them starting beside the
    /// suite's thirty running daemons is where CI saw a browser quit before printing (exit 5, no PDF).
    private static let turn = NSLock()

    /// Prints `page` (a file's path) to `pdf` with a browser profile of its own in `profile`; the browser's result.
    static func print(_ page: String, to pdf: String, profile: String) async throws -> CommandResult {
        try await offload {
            turn.lock()
            defer { turn.unlock() }
            // --disable-dev-shm-usage: Debian's launcher means to add it when /dev/shm is small, but its test fails
            // where `findmnt` answers twice (these machines: "[: …: unexpected operator"), so it is said here.
            return try runProgram("/usr/bin/chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                                        "--disable-dev-shm-usage", "--no-pdf-header-footer",
                                                        "--user-data-dir=\(profile)", "--print-to-pdf=\(pdf)",
                                                        "file://\(page)"])
        }
    }
}
