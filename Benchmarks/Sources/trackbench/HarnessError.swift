/// Why a harness could not run (as opposed to an invariant it found violated, which is a result).
enum HarnessError: Error, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case badRecording(path: String, line: String)
    case driveTooShort(path: String, needed: String)
    case daemonDidNotStart(round: Int, output: String)
    case daemonExitedEarly(round: Int, status: Int32?, output: String)
    case noFix(round: Int, seconds: Double)
    case databaseUnreadable(path: String, reason: String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .unwritable(let path, let reason): "cannot write \(path): \(reason)"
        case .badRecording(let path, let line): "\(path) is not an NMEA recording with dated RMC sentences: \(line)"
        case .driveTooShort(let path, let needed):
            "\(path) ends before \(needed): give a longer drive (scripts/make-demo-drive.swift with more laps)"
        case .daemonDidNotStart(let round, let output): "round \(round): trackd did not start: \(output.suffix(2000))"
        case .daemonExitedEarly(let round, let status, let output):
            "round \(round): trackd exited by itself (status \(status.map(String.init) ?? "?")) before the kill: \(output.suffix(2000))"
        case .noFix(let round, let seconds): "round \(round): no fix reached the watcher within \(Int(seconds)) s"
        case .databaseUnreadable(let path, let reason): "cannot read the copied log \(path): \(reason)"
        }
    }
}
