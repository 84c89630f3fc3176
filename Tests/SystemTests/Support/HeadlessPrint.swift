import Foundation
import TestSupport

/// Debian's Chromium printing a page to PDF, headless, driven by chromedriver (Tests/Browser/print_pdf.py: DevTools'
/// `Page.printToPDF` with the page's CSS page size, as the print dialog prints), started as the driver's page's
/// browser tests start theirs: a `TestSubprocess`, which hands the program none of the test process's descriptors,
/// and a script that sets the usual umask before it starts the browser. Inside the whole suite the test process's
/// umask is now and then ControlServer's 0177 (other tests bind control sockets in-process), and a Chromium started
/// under it quits at once: exit 5 without a word from `--print-to-pdf`, "Chrome instance exited" through chromedriver.
enum HeadlessPrint {
    /// Prints `page` (a file's path) to `pdf`, the browser's profile, chromedriver's log and the script's output in
    /// `work`; the script's exit status and output.
    static func print(_ page: String, to pdf: String, work: String) async throws -> (status: Int32, output: String) {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let printing = try TestSubprocess(executable: "/usr/bin/python3",
                                          arguments: ["\(Products.root)/Tests/Browser/print_pdf.py", page, pdf, work],
                                          outputPath: "\(work)/print_pdf.log")
        _ = await poll(upTo: 300) { !printing.isRunning }
        if printing.isRunning { printing.stop() }
        return (printing.exitStatus ?? -1, printing.output)
    }
}
