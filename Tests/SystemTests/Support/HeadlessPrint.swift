import Foundation
import TestSupport

/// Debian's Chromium printing a page to PDF, headless, driven by chromedriver (Tests/Browser/print_pdf.py: DevTools'
/// `Page.printToPDF` with the page's CSS page size, as the print dialog prints), one browser at a time.
enum HeadlessPrint {
    /// One Chromium at a time in this process: a whole browser each, beside the suite's running daemons.
    private static let turn = NSLock()

    /// Prints `page` (a file's path) to `pdf`, the browser's profile and chromedriver's log in `work`; the run's result.
    static func print(_ page: String, to pdf: String, work: String) async throws -> CommandResult {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        return try await offload {
            turn.lock()
            defer { turn.unlock() }
            return try runProgram("/usr/bin/python3", ["\(Products.root)/Tests/Browser/print_pdf.py", page, pdf, work])
        }
    }
}
