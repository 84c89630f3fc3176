import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackCore
import TrackInput
import TrackctlTexts

/// `trackctl decode LOG`: shows what trackd reads from an NMEA log, one gpsd-style TPV per epoch.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print the fixes trackd reads from an NMEA log, one JSON TPV object per line.",
        discussion: """
            Reads the log as trackd's reader does (checksums, binary data skipped, epochs assembled) and prints one \
            gpsd-style TPV object per fix epoch on standard output. Problems with the input go to standard error; \
            bad input never stops the decode. The exit status is non-zero only when the file cannot be read.
            """
    )

    @Argument(help: "The NMEA log to read ('-' for standard input).")
    var log: String

    @Option(help: "Print at most this many problems one by one; the rest are only counted.")
    var maxProblems: Int = 20

    @Flag(name: .shortAndLong, help: "Print no problems and no summary on standard error.")
    var quiet = false

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        var file: InputFile
        do {
            file = try InputFile(path: log)
        } catch {
            printError("trackctl decode: \(error)")
            throw ExitCode(1)
        }
        var reader = NMEAReader()
        var output = OutputBuffer(descriptor: .standardOutput)
        var problems = 0
        var timeless = 0
        let quiet = self.quiet
        let maxProblems = self.maxProblems
        let handle: (NMEAReader.Event) -> Void = { event in
            switch event {
            case .fix(let fix):
                if fix.time == nil { timeless += 1 }
                fix.writeTPV(into: &output.bytes)
                output.bytes.append(UInt8(ascii: "\n"))
                output.flushIfFull()
            case .problem(let diagnostic):
                problems += 1
                if !quiet && problems <= maxProblems { printError("\(diagnostic)") }
            }
        }
        do {
            while try file.next({ chunk in reader.read(chunk, handle) }) {
                if output.closed { break }
            }
        } catch {
            reader.finish(handle)
            output.flush()
            printError("trackctl decode: \(error)")
            throw ExitCode(1)
        }
        reader.finish(handle)
        output.flush()
        if !quiet {
            if problems > maxProblems { printError(t("… \(problems - maxProblems) more problems not shown")) }
            printError(DecodeCommand.summary(reader.statistics, timeless: timeless))
        }
    }

    static func summary(_ statistics: NMEAStatistics, timeless: Int) -> String {
        let framing = statistics.framing
        var lines = [
            t("decoded \(statistics.epochs) epochs (\(statistics.positionFixes) with a position) from \(statistics.sentencesUsed) sentences in \(framing.bytes) bytes"),
        ]
        let rejected = statistics.rejectedSentences
        if rejected > 0 {
            var reasons: [String] = []
            if statistics.badChecksums > 0 { reasons.append(t("\(statistics.badChecksums) bad checksum")) }
            if statistics.malformedSentences > 0 { reasons.append(t("\(statistics.malformedSentences) malformed")) }
            if framing.overlongLines > 0 { reasons.append(t("\(framing.overlongLines) too long")) }
            if framing.interruptedSentences > 0 { reasons.append(t("\(framing.interruptedSentences) cut short")) }
            if framing.truncatedAtEnd > 0 { reasons.append(t("\(framing.truncatedAtEnd) cut off at the end")) }
            lines.append(t("rejected \(rejected) sentences: \(reasons.joined(separator: ", "))"))
        }
        var passed: [String] = []
        if statistics.missingChecksums > 0 { passed.append(t("\(statistics.missingChecksums) used without a checksum")) }
        if statistics.proprietarySentences > 0 { passed.append(t("\(statistics.proprietarySentences) proprietary")) }
        if statistics.unsupportedSentences > 0 { passed.append(t("\(statistics.unsupportedSentences) of unused kinds")) }
        if statistics.unknownAddresses > 0 { passed.append(t("\(statistics.unknownAddresses) not NMEA")) }
        if framing.junkBytes > 0 { passed.append(t("\(framing.junkBytes) bytes of other data")) }
        if framing.binaryFrames > 0 { passed.append(t("\(framing.binaryFrames) UBX binary frames")) }
        if framing.missingLineBreaks > 0 { passed.append(t("\(framing.missingLineBreaks) sentences without a line break")) }
        if !passed.isEmpty { lines.append(t("passed over: \(passed.joined(separator: ", "))")) }
        if timeless > 0 {
            lines.append(t("\(timeless) epochs have no time: the log states no date before them (no RMC or ZDA)"))
        }
        return lines.joined(separator: "\n")
    }
}

/// Standard output collected into large writes.
struct OutputBuffer {
    let descriptor: FileDescriptor
    var bytes: [UInt8] = []
    /// The reader went away (a closed pipe): nothing more is written.
    private(set) var closed = false

    init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
        bytes.reserveCapacity(1 << 20)
    }

    mutating func flushIfFull() {
        if bytes.count >= 1 << 19 { flush() }
    }

    mutating func flush() {
        defer { bytes.removeAll(keepingCapacity: true) }
        guard !closed, !bytes.isEmpty else { return }
        do {
            _ = try bytes.withUnsafeBytes { try descriptor.writeAll($0) }
        } catch {
            closed = true
        }
    }
}

/// Writes a line to standard output at once (no buffering: watchers see each line as it comes).
func printLine(_ text: String) {
    var line = text
    line.append("\n")
    _ = try? FileDescriptor.standardOutput.writeAll(line.utf8)
}

/// Writes a line to standard error.
func printError(_ text: String) {
    var line = text
    line.append("\n")
    _ = try? FileDescriptor.standardError.writeAll(line.utf8)
}
