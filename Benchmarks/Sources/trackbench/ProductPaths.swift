import Foundation

/// Where trackbench finds trackd and trackctl when no option names them: beside itself, else in the root package's
/// build of the same configuration (`Benchmarks/.build/release/trackbench` → `.build/release/trackd`).
enum ProductPaths {
    /// The program `name` of the build this trackbench belongs to.
    static func program(_ name: String) -> String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
        let beside = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        guard let range = directory.range(of: "/Benchmarks/.build/", options: .backwards) else { return beside }
        return directory.replacingCharacters(in: range, with: "/.build/") + "/\(name)"
    }
}
