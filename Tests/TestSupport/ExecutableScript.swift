/// Executable files for tests to run (alert commands, stand-in programs), written by a process of their own.
///
/// Executing a file that any process holds open for writing fails with ETXTBSY ("Text file busy"). Written from the
/// test process itself, the file's descriptor is copied into every program another test starts at that moment (a
/// child holds it from its fork to its exec), so a run of the whole suite could not start a script written a
/// moment before. Written by `/bin/sh`, whose descriptor no one else inherits and which has exited when this
/// returns, nothing holds it open for writing by the time it is run.
public enum ExecutableScript {
    /// Writes `contents` (the whole file, `#!` line included) to `path`, mode 0755.
    public static func write(_ contents: String, to path: String) throws {
        let result = try runProgram("/bin/sh", ["-c", "printf '%s' \"$2\" > \"$1\" && chmod 0755 \"$1\"", "sh", path, contents])
        guard result.status == 0 else { throw SubprocessError("cannot write the script \(path): \(result.error)") }
    }
}
