#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A fuzz target's body: libFuzzer's `LLVMFuzzerTestOneInput` signature (the input's bytes and count; returns 0).
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// The `main` of a fuzz target: libFuzzer's driver when built by `scripts/fuzz` (`-D FUZZING`, `-sanitize=fuzzer`),
/// else a plain runner that feeds the files (or folders of files) named on the command line to the target once each.
///
/// The plain runner is what a normal `swift build` makes of a fuzz target, so that the package builds without
/// libFuzzer; it also replays a crash input without the fuzzer: `.build/debug/FuzzNMEA crash-…`.
public enum FuzzDriver {
    /// Runs `target` on libFuzzer's inputs, or on the files named on the command line; never returns.
    public static func run(_ target: FuzzTarget) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, target))
        #else
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(CommandLine.arguments[0]) FILE|FOLDER...\n".utf8))
            exit(2)
        }
        var count = 0
        for path in paths {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("cannot read \(file)\n".utf8))
                    exit(1)
                }
                data.withUnsafeBytes { raw in
                    _ = target(raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
                }
                count += 1
            }
        }
        print("\(count) inputs run, no crash")
        exit(0)
        #endif
    }

    /// The file itself, or the files in a folder (sorted, not recursive).
    private static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}

#if FUZZING
/// libFuzzer's driver for a program that has its own `main` (libFuzzer's `main` is then not linked).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ target: FuzzTarget
) -> CInt
#endif
